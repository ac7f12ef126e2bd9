"""`certify hint` and `hint --table`, through the CLI. The oracle: the verifier's feedback rule by
brute force over every code, and the committed (verified) certificates' trees."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from pathlib import Path

import pytest

from certify import verify
from certify.certificate import read
from conftest import run_here

ROOT = Path(__file__).resolve().parent.parent
CERTS = ROOT / "certificates"
KNUTH = CERTS / "knuth-4x6.json"


def certify(*args):
    """`certify ARGS` in this process (conftest.run_here: no interpreter start for each of the calls)."""
    return run_here(*args)


def fitting(codes, rows):
    return [c for c in codes if all(verify.feedback(g, c) == fb for g, fb in rows)]


def classes(guess, secrets) -> dict:
    return {f"{b},{w}": n for (b, w), n in sorted(Counter(verify.feedback(guess, s) for s in secrets).items())}


def clue(g, fb):
    return f"{g}={fb[0]},{fb[1]}"


def tree_paths(tree, depth):
    """(rows, guess) for every node of the tree down to ``depth`` rows."""
    out, stack = [], [(tree, [])]
    while stack:
        node, rows = stack.pop()
        out.append((rows, node["guess"]))
        if len(rows) < depth:
            for key, child in node.get("next", {}).items():
                stack.append((child, rows + [(node["guess"], tuple(map(int, key.split(","))))]))
    return out


def test_hint_names_what_the_verified_knuth_tree_plays(capsys):
    """The strategy's hint after any rows of Knuth's game is the guess of the verified certificate.
    `certify hint` is run in this process (a child process each cost ~0.3 s of start-up alone; the
    CLI's own process is run by the other tests here)."""
    from certify.__main__ import main

    cert = read(KNUTH)
    codes = verify.codes(4, 6, True)
    paths = [p for p in tree_paths(cert["tree"], 2) if len(p[0]) in (1, 2)]
    for rows, guess in paths[::7]:
        capsys.readouterr()
        assert main(["hint", *(clue(g, fb) for g, fb in rows), "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        left = fitting(codes, rows)
        assert doc["guess"] == guess
        assert doc["candidates"] == len(left)
        assert doc["partition"] == classes(guess, left)
        assert doc["guess_is_candidate"] == (guess in left)
        assert doc["score"]["value"] == max(doc["partition"].values())
        assert doc["hint_version"] == 1


def test_hint_text_on_3x3_and_with_a_certificate(tmp_path):
    run = certify("hint", "--pegs", 3, "--colors", 3, "001=1,0")
    assert run.returncode == 0, run.stderr
    codes = verify.codes(3, 3, True)
    left = fitting(codes, [("001", (1, 0))])
    lines = run.stdout.splitlines()
    assert lines[0] == f"3x3, after 1 row: {len(left)} candidates left: " + " ".join(left)
    guess = lines[1].split(" would play ")[1].split()[0]
    parts = classes(guess, left)
    assert lines[3] == "  " + "  ".join(f"{k}: {v}" for k, v in parts.items())
    assert lines[4] == f"score under knuth's rule: largest class {max(parts.values())} (least wins)"
    # A certificate whose game the rows follow gives its own guess, and says so.
    cert = read(KNUTH)
    first = cert["tree"]["guess"]
    run = certify("hint", "--certificate", KNUTH, f"{first}=0,2")
    assert f"the certificate (knuth) plays {cert['tree']['next']['0,2']['guess']}" in run.stdout
    run = certify("hint", "--certificate", KNUTH, "0123=0,2")
    assert "leave the certificate's game at row 1" in run.stdout


def test_hint_can_recommend_a_guess_that_cannot_be_the_secret():
    cert = read(KNUTH)
    codes = verify.codes(4, 6, True)
    for rows, guess in tree_paths(cert["tree"], 2):
        if rows and guess not in fitting(codes, rows):
            break
    else:
        pytest.fail("no non-candidate guess in the first levels")
    run = certify("hint", *(clue(g, fb) for g, fb in rows))
    assert f"knuth would play {guess} (not a candidate: it cannot be the secret)" in run.stdout


def test_hint_contradiction_and_mistakes():
    run = certify("hint", "0011=0,0", "0123=1,1", "2345=0,0")
    assert run.returncode == 2 and "0011=0,0 2345=0,0" in run.stderr and len(run.stderr.splitlines()) == 1
    for args, message in [(["--top", 3], "--top go"), (["--csv"], "--csv go"),
                          (["--strategy", "knuth", "--certificate", KNUTH], "not both"),
                          (["--certificate", KNUTH, "--pegs", 5], "must agree"),
                          (["--strategy", "nope"], "unknown strategy"),
                          (["--table", "--json", "--csv"], "not both")]:
        run = certify("hint", *args)
        assert run.returncode == 2 and message in run.stderr, (args, run.stderr)
        assert len(run.stderr.splitlines()) == 1


@pytest.mark.parametrize("strategy", ["expected-size", "most-parts", "entropy", "consistent-first"])
def test_hint_other_strategies_match_their_certificates(strategy):
    cert = read(CERTS / f"{strategy}-4x6.json")
    g = cert["tree"]["guess"]
    key, child = sorted(cert["tree"]["next"].items())[1]
    doc = json.loads(certify("hint", "--strategy", strategy, f"{g}={key}", "--json").stdout)
    assert doc["guess"] == child["guess"]
    assert (doc["score"] is None) == (strategy == "consistent-first")


def _table_oracle(codes, rows, candidates_only):
    left = fitting(codes, rows)
    shown = left if candidates_only else codes
    out = {c: Counter(verify.feedback(c, s) for s in left) for c in shown}
    return left, out


@pytest.mark.parametrize("rows", [[], [("001", (1, 0))], [("012", (0, 2))]])
@pytest.mark.parametrize("candidates_only", [False, True])
def test_weight_table_on_3x3(rows, candidates_only):
    codes = verify.codes(3, 3, True)
    left, oracle = _table_oracle(codes, rows, candidates_only)
    args = ["hint", "--pegs", 3, "--colors", 3, *(clue(g, fb) for g, fb in rows), "--table", "--json"]
    doc = json.loads(certify(*args, *(["--candidates-only"] if candidates_only else [])).stdout)
    assert doc["table_version"] == 1 and doc["candidates"] == len(left)
    assert [r["code"] for r in doc["rows"]] == list(oracle)  # code order by default
    least = min(max(c.values()) for c in oracle.values())
    assert doc["least_weight"] == least
    for r in doc["rows"]:
        sizes = oracle[r["code"]]
        assert {k: v for k, v in r["classes"].items() if v} == {f"{b},{w}": n for (b, w), n in sizes.items()}
        assert r["weight"] == max(sizes.values())
        assert r["least"] == (r["weight"] == least)
        assert r["candidate"] == (r["code"] in left)
    # Every answer some code gets is a column, and no other.
    assert set(doc["feedbacks"]) == {f"{b},{w}" for c in oracle.values() for b, w in c}


def test_weight_table_text_csv_sort_top():
    codes = verify.codes(3, 3, True)
    left, oracle = _table_oracle(codes, [], False)
    weights = {c: max(v.values()) for c, v in oracle.items()}
    run = certify("hint", "--pegs", 3, "--colors", 3, "--table", "--sort", "weight", "--top", 5, "--csv")
    assert run.returncode == 0, run.stderr
    table = list(csv.DictReader(io.StringIO(run.stdout)))
    assert len(table) == 5
    expected = sorted(codes, key=lambda c: (weights[c], c not in left, c))[:5]
    assert [r["code"] for r in table] == expected
    assert all(int(r["weight"]) == weights[r["code"]] for r in table)
    run = certify("hint", "--pegs", 3, "--colors", 3, "--table")
    lines = run.stdout.splitlines()
    assert lines[2].split()[0] == "code" and lines[2].split()[-3:] == ["weight", "least", "candidate"]
    body = [line.split() for line in lines[3:]]
    assert len(body) == 27
    for cells in body:
        star = "*" in cells
        assert star == (weights[cells[0]] == min(weights.values()))
        assert cells[-1] == ("yes" if cells[0] in left else "no")


def test_weight_table_refuses_what_would_take_too_long():
    run = certify("hint", "--pegs", 6, "--colors", 9, "--table")
    assert run.returncode == 2 and "--candidates-only" in run.stderr


def test_docs_hint_examples_are_real_output():
    import re
    import shlex

    readme = (ROOT / "docs" / "classroom.md").read_text(encoding="utf-8")  # moved there from the README
    blocks = re.findall(r"```\n\$ (certify hint[^\n]*)\n(.*?)```", readme, re.S)
    assert len(blocks) >= 3 and any("--table" in cmd for cmd, _ in blocks)
    for cmd, shown in blocks:
        run = certify(*shlex.split(cmd)[1:])
        assert run.returncode == 0, run.stderr
        assert run.stdout == shown, cmd
