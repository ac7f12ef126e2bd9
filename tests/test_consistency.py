"""Consistency across commands: `optimal` is a strategy like the others, one JSON vocabulary,
`verify certificates/*.json` names the manifest, -q everywhere and no progress bar in a pipe,
codes typed with spaces as answers are."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from certify.__main__ import main, make_parser
from certify.game import Game

ROOT = Path(__file__).resolve().parent.parent
CERTS = ROOT / "certificates"
KNUTH = CERTS / "knuth-4x6.json"


def run(capsys, *args):
    """`certify ARGS` in this process: (exit code, stdout, stderr)."""
    code = main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


def run_json(capsys, *args):
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


# -- optimal is a strategy -------------------------------------------------------------------------

def test_strategies_lists_optimal_with_a_description(capsys):
    listed = {s["id"]: s for s in run_json(capsys, "strategies")["strategies"]}
    assert "least total guesses (exact search)" in listed["optimal"]["description"]
    code, out, _ = run(capsys, "strategies")
    assert code == 0 and any(line.startswith("optimal ") for line in out.splitlines())


def test_every_listed_strategy_is_taken_by_hint_and_codemaker_or_refused_in_one_line(capsys):
    ids = [s["id"] for s in run_json(capsys, "strategies")["strategies"]]
    for sid in ids:
        code, out, err = run(capsys, "hint", "--strategy", sid, "0011=1,0")
        assert code in (0, 2), (sid, err)
        if code == 0:
            assert f"{sid} would play" in out
        else:  # viaud cannot resume from other rows: said in one line, no traceback
            assert err.count("\n") == 1 and err.startswith("certify hint: error: "), err
    code, _, err = run(capsys, "hint", "--strategy", "no-such", "0011=1,0")
    assert code == 2 and "optimal" in err  # the error lists what is known


def _tree_guess(cert: dict, path) -> str:
    node = cert["tree"]
    for key in path:
        node = node["next"][key]
    return node["guess"]


def test_optimal_hint_follows_the_committed_least_total_tree(capsys):
    cert = json.loads((CERTS / "optimal-total-4x6.json").read_bytes())
    first = cert["tree"]["guess"]
    key = next(iter(cert["tree"]["next"]))
    doc = run_json(capsys, "hint", "--strategy", "optimal", f"{first}={key}")
    assert doc["strategy"] == "optimal" and doc["guess"] == _tree_guess(cert, [key])
    assert run_json(capsys, "hint", "--strategy", "optimal")["guess"] == first


@lru_cache(maxsize=None)
def _least_total(game: Game, cands: frozenset) -> int:
    """The least total of guesses that finds every secret of ``cands`` (brute force, any guess)."""
    if len(cands) <= 1:
        return len(cands)
    best = None
    for g in range(game.size):
        value = _value(game, cands, g)
        best = value if best is None else min(best, value)
    return best


def _value(game: Game, cands: frozenset, g: int):
    """|S| plus the least totals of the classes ``g`` splits S into (the win excluded)."""
    classes: dict = {}
    for s in cands:
        classes.setdefault(game.feedback_row(g, [s])[0], set()).add(s)
    if len(classes) == 1 and g not in cands:  # no progress: never the best
        return 10**9
    return len(cands) + sum(_least_total(game, frozenset(c)) for fb, c in classes.items()
                            if fb != game.win)


def test_optimal_hint_off_its_tree_plays_a_guess_of_least_total(capsys):
    game = Game(3, 3)
    from certify.consistent import consistent, parse_clue

    for rows in (["222=1,0"], ["111=0,0", "000=1,0"]):  # not the committed tree's first guess
        doc = run_json(capsys, "hint", "--pegs", 3, "--colors", 3, "--strategy", "optimal", *rows)
        cands = frozenset(consistent(game, [parse_clue(game, r) for r in rows]).tolist())
        assert doc["candidates"] == len(cands) >= 3
        assert _value(game, cands, game.parse(doc["guess"])) == _least_total(game, cands), rows


def test_optimal_refuses_positions_it_cannot_search_in_one_line(capsys):
    code, _, err = run(capsys, "hint", "--strategy", "optimal", "--pegs", 5, "--colors", 8)
    assert code == 2 and "at most 7776 codes" in err and err.count("\n") == 1
    code, _, err = run(capsys, "hint", "--strategy", "optimal", "--pegs", 5, "--colors", 5)
    assert code == 2 and "no committed least-total certificate for 5x5" in err
    # Bulls and Cows: off its committed tree with 1260 candidates, more than it searches (634).
    code, _, err = run(capsys, "hint", "--strategy", "optimal", "--pegs", 4, "--colors", 10,
                       "--no-repetition", "1234=0,2")
    assert code == 2 and "leave its committed tree with 1260 candidates" in err and "at most 634" in err


def test_codemaker_replays_the_optimal_strategy_at_the_end(cli):
    cert = json.loads((CERTS / "optimal-total-4x6.json").read_bytes())
    run_ = cli("play", "--codemaker", "--seed", 5, "--strategy", "optimal", input="!\n")
    assert run_.returncode == 1, run_.stderr
    secret = run_.stdout.split("the secret was ")[1].split()[0]
    line = next(x for x in run_.stdout.splitlines() if x.startswith("optimal finds"))
    guesses = line.split(": ", 1)[1].split()
    assert guesses[0] == cert["tree"]["guess"] and guesses[-1] == secret
    from certify import verify

    depths = verify.secret_depths(cert)  # the committed tree needs as many guesses
    assert len(guesses) == depths[secret]


# -- one JSON vocabulary -------------------------------------------------------------------------

SHARED = ("file", "game", "strategy", "secrets", "max_guesses", "total_guesses", "mean", "histogram")


def test_stats_verify_compare_explain_use_the_same_keys_for_the_same_figures(capsys):
    stats = run_json(capsys, "stats", KNUTH)
    verified = run_json(capsys, "verify", KNUTH)["results"][0]
    row = run_json(capsys, "compare", KNUTH)["rows"][0]
    explained = run_json(capsys, "explain", KNUTH, "3132")
    cert = json.loads(KNUTH.read_bytes())
    for key in SHARED:
        values = [doc[key] for doc in (stats, verified, row, explained)]
        assert all(v == values[0] for v in values), (key, values)
    assert stats["game"] == {"pegs": 4, "colors": 6, "repetition": True}
    assert stats["strategy"]["name"] == "knuth"
    assert stats["histogram"] == cert["claims"]["histogram"] and stats["total_guesses"] == 5801
    assert stats["mean"] == 5801 / 1296
    assert explained["guesses"] == len(explained["steps"]) == 4 and explained["secret"] == "3132"
    assert stats["verified"]["total_guesses"] == 5801  # the v1 key is still there


# -- verify skips the manifest -------------------------------------------------------------------

def test_verify_names_the_manifest_and_skips_it(capsys, tmp_path):
    code, out, err = run(capsys, "verify", CERTS / "index.json", CERTS / "knuth-3x3.json")
    assert code == 0 and "knuth-3x3.json: valid" in out
    assert f"{CERTS / 'index.json'}: manifest, skipped (use `make verify`" in err
    doc = run_json(capsys, "verify", CERTS / "index.json", CERTS / "bounds" / "index.json")
    assert [s["format"] for s in doc["skipped"]] == ["certify-certificate-index", "certify-lower-bound-index"]
    assert doc["results"] == []
    code, _, err = run(capsys, "verify", "-q", CERTS / "index.json")
    assert code == 0 and err == ""
    # Other bad files still fail, and something shaped like a manifest but not one too.
    fake = tmp_path / "index.json"
    fake.write_text('{"format": "certify-certificate-index", "version": 1, "certificates": {}}')
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    for path in (fake, bad):
        code, _, err = run(capsys, "verify", CERTS / "index.json", path)
        assert code == 1 and f"{path}: invalid" in err


# -- -q everywhere, no progress bar in a pipe ------------------------------------------------------

def test_every_command_takes_quiet():
    parser = make_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, p in sub.choices.items():
        assert "-q, --quiet" in p.format_help(), name


def test_no_progress_bar_when_stderr_is_a_pipe(tmp_path):
    out = tmp_path / "k.json"  # 2-3 s: well past the bar's one-second delay (5x6 may take less)
    run_ = subprocess.run([sys.executable, "-m", "certify", "build", "knuth", "--pegs", "5", "--colors", "7",
                           "-o", str(out)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run_.returncode == 0, run_.stderr
    assert "\r" not in run_.stderr and "%|" not in run_.stderr and run_.stderr == ""


def test_the_bar_is_drawn_on_a_terminal(monkeypatch):
    import fcntl
    import select
    import struct
    import termios

    from certify.progress import Progress

    master, slave = os.openpty()
    # A terminal 80 columns wide (a new pty has 0, and a bar of 0 columns draws nothing).
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    with os.fdopen(slave, "w") as tty:
        monkeypatch.setattr(sys, "stderr", tty)
        with Progress(10, "test", delay=0) as bar:
            bar.update(5)
        tty.flush()
        with Progress(10, "quiet", enabled=False, delay=0) as bar:
            bar.update(5)
        tty.flush()
        assert select.select([master], [], [], 5)[0]
        drawn = os.read(master, 65536).decode(errors="replace")  # read while the terminal is open
    os.close(master)
    assert "%|" in drawn and "test" in drawn and "quiet" not in drawn


# -- codes take spaces as answers do ---------------------------------------------------------------

def test_codes_with_spaces_are_read_as_codes_everywhere(capsys, cli):
    plain = run_json(capsys, "hint", "0011=2,0")
    for typed in ("0 0 1 1=2,0", " 0011 =2, 0", "0 0 1 1 = 2 0"):
        assert run_json(capsys, "hint", typed) == plain, typed
    assert run_json(capsys, "consistent", "0 0 1 1=2,0")["consistent"] == plain["candidates"]
    assert run_json(capsys, "explain", KNUTH, "3 1 3 2") == run_json(capsys, "explain", KNUTH, "3132 ")
    code, out, _ = run(capsys, "play", "--auto", KNUTH, "--secret", " 3 1 3 2")
    assert code == 0 and "found 3132 in 4 guesses" in out
    game = cli("play", "--codemaker", "--seed", 1, "--strategy", "none", input="0 0 1 1\n!\n")
    assert "1. 0011" in game.stdout and "try again" not in game.stdout
    assert Game(4, 6).parse(" 1 2 3 4 ") == Game(4, 6).parse("1234")
    code, _, err = run(capsys, "explain", KNUTH, "3 1 3")  # still four pegs
    assert code == 2 and "'313' is not a code" in err
