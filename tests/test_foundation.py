"""Issue 2: the five-guess certificate end to end (game, builder, verifier, CLI, format)."""

import copy
import json
import re
import shutil

import orjson
import pytest

from certify import verify
from certify.certificate import dumps, make_certificate
from certify.errors import CertifyError
from certify.game import Game
from certify.strategies import get_strategy

from conftest import CERTS, ROOT, run_cli

KNUTH = CERTS / "knuth-4x6.json"


@pytest.fixture(scope="module")
def knuth_cert():
    return orjson.loads(KNUTH.read_bytes())


# -- game ---------------------------------------------------------------------------------

@pytest.mark.parametrize("secret, guess, expected", [
    ("3132", "2330", (1, 2)), ("2412", "0401", (1, 1)), ("0011", "0001", (3, 0)),
])
def test_worked_examples(secret, guess, expected):
    g = Game(4, 6)
    assert g.feedback_pair(guess, secret) == expected
    assert g.feedback_pair(secret, guess) == expected  # symmetric
    assert verify.feedback(guess, secret) == expected


def test_fourteen_feedbacks_and_never_three_one():
    g = Game(4, 6)
    fb = g.feedback(range(g.size), range(g.size))
    seen = {g.decode(v) for v in set(fb.ravel().tolist())}
    assert len(seen) == 14 and (3, 1) not in seen


@pytest.mark.parametrize("pegs, colors, rep", [(4, 6, True), (3, 5, False), (2, 36, True), (4, 10, False)])
def test_code_text_round_trip_in_code_order(pegs, colors, rep):
    g = Game(pegs, colors, rep)
    texts = g.texts(range(g.size))
    assert texts == sorted(texts, key=lambda t: [int(ch, 36) for ch in t])
    assert texts == verify.codes(pegs, colors, rep)
    for i in (0, 1, g.size // 2, g.size - 1):
        assert g.parse(texts[i]) == i and g.text(i) == texts[i]


@pytest.mark.parametrize("bad", ["001", "00111", "0016", "00a1", 11, "00 1"])
def test_parse_rejects_non_codes(bad):
    with pytest.raises(CertifyError):
        Game(4, 6).parse(bad)


def test_parse_rejects_repeated_colour_without_repetition():
    with pytest.raises(CertifyError, match="repeated"):
        Game(4, 10, repetition=False).parse("0012")


@pytest.mark.parametrize("args", [(0, 6), (4, 1), (4, 37), (5, 4, False)])
def test_bad_games_are_refused(args):
    with pytest.raises(CertifyError):
        Game(*args)


def test_large_pegs_use_wide_feedback():
    g = Game(16, 2)
    a, b = g.parse("0" * 16), g.parse("01" * 8)
    assert g.decode(g.feedback([a], [b])[0, 0]) == verify.feedback("0" * 16, "01" * 8)


# -- builder + verifier -----------------------------------------------------------------

def test_knuth_4x6_published_distribution_as_verified():
    cert = make_certificate(get_strategy("knuth")(Game(4, 6)))
    report = verify.verify_bytes(dumps(cert), max_guesses=5)
    assert report.valid, report.error
    assert report.replayed["histogram"] == {"1": 1, "2": 6, "3": 62, "4": 533, "5": 694}
    assert report.replayed["total_guesses"] == 5801
    assert cert["tree"]["guess"] == "0011"


def test_build_is_deterministic_and_matches_committed_file():
    data = dumps(make_certificate(get_strategy("knuth")(Game(4, 6))))
    assert data == dumps(make_certificate(get_strategy("knuth")(Game(4, 6))))
    assert data == KNUTH.read_bytes()


def test_tree_shape_rules(knuth_cert):
    """No winning key, leaves have no `next`, branch keys in numeric order."""
    stack = [knuth_cert["tree"]]
    while stack:
        node = stack.pop()
        nxt = node.get("next")
        assert set(node) <= {"guess", "next"}
        if nxt is None:
            continue
        assert nxt and "4,0" not in nxt
        keys = [tuple(map(int, k.split(","))) for k in nxt]
        assert keys == sorted(keys)
        stack.extend(nxt.values())


def _nodes_with_paths(tree):
    out, stack = [], [(tree, ())]
    while stack:
        node, path = stack.pop()
        out.append((node, path))
        for key, child in node.get("next", {}).items():
            stack.append((child, path + (key,)))
    return out


def _at(doc, path):
    node = doc["tree"]
    for key in path:
        node = node["next"][key]
    return node


def _path_copied(doc, path):
    """(a copy of ``doc`` whose nodes on ``path`` and their ``next`` dicts are copied, the node at
    ``path`` in it): a change to that node leaves ``doc`` as it was, the rest is shared (the same
    bytes as a deep copy of the whole certificate for each mutant, which took most of the CPU)."""
    out = dict(doc)
    parent, key, node = out, "tree", doc["tree"]
    for step in (*path, None):
        node = dict(node)
        if "next" in node:
            node["next"] = dict(node["next"])
        parent[key] = node
        if step is None:
            return out, node
        parent, key, node = node["next"], step, node["next"][step]


def test_every_single_changed_guess_or_removed_branch_is_rejected_with_a_path(knuth_cert):
    """Mutate each node of the committed certificate once; the verifier must reject each one
    unless the mutation provably keeps the meaning (same labelled partition of the secrets)."""
    game = Game(4, 6)
    nodes = _nodes_with_paths(knuth_cert["tree"])
    before = orjson.dumps(knuth_cert)
    rejected = kept = 0
    for node, path in nodes[:: max(1, len(nodes) // 150)]:
        doc, target = _path_copied(knuth_cert, path)
        old = game.parse(target["guess"])
        target["guess"] = game.text((old + 1) % game.size)
        report = verify.verify_bytes(orjson.dumps(doc))
        if report.valid:
            kept += 1
            # Only acceptable if the new guess splits the reaching secrets exactly as the old one.
            reaching = [i for i in range(game.size) if _reaches(game, knuth_cert["tree"], path, i)]
            new = game.parse(target["guess"])
            assert (game.feedback([old], reaching) == game.feedback([new], reaching)).all()
        else:
            rejected += 1
            assert "\n" not in report.error and "at " in report.error
            if path:
                assert f"-({path[0]})->" in report.error
        if "next" in node:
            doc, target = _path_copied(knuth_cert, path)
            key = sorted(target["next"])[-1]
            del target["next"][key]
            if not target["next"]:
                del target["next"]
            report = verify.verify_bytes(orjson.dumps(doc))
            assert not report.valid and f"missing branch {key}" in report.error
    assert rejected > 100
    assert orjson.dumps(knuth_cert) == before  # (the mutants shared its unchanged parts)


def _reaches(game, tree, path, secret):
    node = tree
    for key in path:
        fb = "{},{}".format(*game.decode(game.feedback([game.parse(node["guess"])], [secret])[0, 0]))
        if fb != key:
            return False
        node = node["next"][key]
    return True


def test_wrong_claim_is_rejected(knuth_cert):
    doc = copy.deepcopy(knuth_cert)
    doc["claims"]["histogram"]["4"] += 1
    report = verify.verify_bytes(orjson.dumps(doc))
    assert not report.valid and "claims.histogram['4']" in report.error


def test_doc_example_is_a_valid_certificate():
    text = (ROOT / "docs" / "certificate-format.md").read_text()
    block = re.search(r"```json\n(\{\n  \"format\".*?)\n```", text, re.S).group(1)
    report = verify.verify_bytes(block.encode())
    assert report.valid, report.error
    built = make_certificate(get_strategy("knuth")(Game(2, 3)))
    assert json.loads(block)["tree"] == built["tree"]


def test_committed_certificate_matches_schema(knuth_cert):
    import jsonschema
    schema = json.loads((ROOT / "docs" / "certificate.schema.json").read_text())
    jsonschema.validate(knuth_cert, schema)
    bad = copy.deepcopy(knuth_cert)
    bad["tree"]["next"]["0,0"]["colour"] = 1
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


# -- CLI ------------------------------------------------------------------------------------

def test_cli_verify_max_guesses_exit_codes():
    ok = run_cli("verify", KNUTH, "--max-guesses", "5")
    assert ok.returncode == 0 and "valid" in ok.stdout
    four = run_cli("verify", KNUTH, "--max-guesses", "4")
    assert four.returncode == 1
    assert re.search(r"secret \w{4} needs 5 guesses.*0011 -\(\d,\d\)->", four.stderr)
    assert "Traceback" not in four.stderr


def test_cli_verify_json_report():
    r = run_cli("verify", KNUTH, "--json")
    doc = json.loads(r.stdout)
    assert r.returncode == 0 and doc["report_version"] == 1
    assert doc["results"][0]["replayed"]["total_guesses"] == 5801


def test_cli_verify_unreadable_is_exit_2(tmp_path):
    r = run_cli("verify", tmp_path / "missing.json")
    assert r.returncode == 2 and "cannot read" in r.stderr and "Traceback" not in r.stderr


def test_cli_build_stats_explain(tmp_path):
    out = tmp_path / "k.json"
    r = run_cli("build", "knuth", "--pegs", "4", "--colors", "6", "-o", out)
    assert r.returncode == 0, r.stderr
    assert out.read_bytes() == KNUTH.read_bytes()
    assert "1:1 2:6 3:62 4:533 5:694" in r.stdout
    stats = run_cli("stats", out)
    assert stats.returncode == 0
    rows = {int(m[0]): (int(m[1]), float(m[2]), float(m[3]))
            for m in re.findall(r"^\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)$", stats.stdout, re.M)}
    assert [rows[k][0] for k in range(1, 6)] == [1, 6, 62, 533, 694]
    assert rows[5][2] == 100.0 and "mean 4.476" in stats.stdout and "max 5" in stats.stdout
    explain = run_cli("explain", out, "3132")
    assert explain.returncode == 0
    lines = explain.stdout.strip().splitlines()
    assert lines[1].split()[1] == "0011" and "found 3132 in" in lines[-1]
    bad = run_cli("explain", out, "3137")
    assert bad.returncode == 2 and "not a code" in bad.stderr and "Traceback" not in bad.stderr


def test_cli_strategies_lists_knuth():
    r = run_cli("strategies")
    assert r.returncode == 0 and re.search(r"^knuth\s+Knuth", r.stdout, re.M) and "1977" in r.stdout


def test_console_script_installed():
    exe = shutil.which("certify", path=str(ROOT / ".venv" / "bin")) or shutil.which("certify")
    assert exe, "the `certify` console script is not installed"
    import subprocess

    r = subprocess.run([exe, "verify", str(KNUTH)], capture_output=True, text=True)
    assert r.returncode == 0


def test_verifier_rejects_changed_root_with_clear_message(knuth_cert, tmp_path):
    doc = copy.deepcopy(knuth_cert)
    doc["tree"]["next"]["1,0"]["next"]["0,2"]["guess"] = "5555"
    path = tmp_path / "bad.json"
    path.write_bytes(orjson.dumps(doc))
    r = run_cli("verify", path)
    assert r.returncode == 1
    assert re.search(r"at 0011 -\(1,0\)-> \w{4} -\(0,2\)-> 5555", r.stderr), r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
