"""Trust holes of issue 11 in the commands around the verifier (items 6, 7, 8, 10): huge numbers,
unbounded input, the contradiction search's cost, non-ASCII digits. Driven through the CLI; every
child runs under an address-space limit so that an unbounded allocation fails fast instead of
taking the machine."""

from __future__ import annotations

import json
import random
import re
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from certify import verify

ROOT = Path(__file__).resolve().parent.parent
KNUTH = ROOT / "certificates" / "knuth-4x6.json"
HUGE = "1" * 5000  # beyond Python's 4300-digit int-string limit
LONG = "1" * 310   # beyond a float's range


def _limit():
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


def certify(*args, stdin=subprocess.PIPE, input: str | None = "", timeout=120):
    return subprocess.run([sys.executable, "-m", "certify", *map(str, args)], input=input,
                          stdin=None if input is not None else stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=timeout, preexec_fn=_limit)


def one_line_error(run, command: str, status: int = 2) -> str:
    assert run.returncode == status, (run.returncode, run.stderr[-500:])
    assert "Traceback" not in run.stderr
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"certify {command}: error: "), run.stderr[-500:]
    return lines[0]


# -- item 6: numbers too long for int() or for a float ---------------------------------------

def test_consistent_answer_with_5000_digits():
    line = one_line_error(certify("consistent", f"0011={HUGE},0"), "consistent")
    assert "is not an answer" in line or "impossible" in line
    assert len(line) < 300  # the number is not echoed in full


def test_play_answer_with_5000_digits_is_asked_again():
    from certify.certificate import read

    cert = read(KNUTH)
    node, lines = cert["tree"], [f"{HUGE},0"]
    while True:  # then the true answers for 3132
        b, w = verify.feedback(node["guess"], "3132")
        lines.append(f"{b},{w}")
        if b == 4:
            break
        node = node["next"][f"{b},{w}"]
    run = certify("play", KNUTH, input="\n".join(lines) + "\n")
    assert run.returncode == 0, run.stderr[-500:]
    assert run.stdout.count("try again") == 1 and "found 3132" in run.stdout
    again = [line for line in run.stdout.splitlines() if line.endswith("try again")]
    assert len(again) == 1 and len(again[0]) < 300  # the number is not echoed in full


def test_render_at_with_5000_digits(tmp_path):
    line = one_line_error(certify("render", KNUTH, "-o", tmp_path / "x.svg", "--at", f"{HUGE},0"), "render")
    assert "--at" in line and len(line) < 300


@pytest.mark.parametrize("command", [["consistent", "0011=1,0"], ["build", "knuth", "-q"],
                                     ["play", "--codemaker"], ["hint", "0011=1,0"]])
def test_pegs_with_310_digits(command, tmp_path):
    run = certify(*command, "--pegs", LONG, input="", timeout=60)
    line = run.stderr.strip()
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr[-500:]
    assert len(run.stderr.splitlines()) == 1
    assert "limit" in line or "expected" in line


def _with_big_param(tmp_path) -> Path:
    doc = json.loads(KNUTH.read_text())
    doc["strategy"]["params"] = {"note": 2**70, "neg": -(2**100)}
    path = tmp_path / "big-param.json"
    path.write_text(json.dumps(doc))
    assert verify.verify_file(str(path)).valid
    return path


def test_stats_json_with_an_integer_beyond_64_bits(tmp_path):
    path = _with_big_param(tmp_path)
    run = certify("stats", path, "--json")
    assert run.returncode == 0, run.stderr[-500:]
    doc = json.loads(run.stdout)
    assert doc["strategy"]["params"] == {"note": 2**70, "neg": -(2**100)}
    assert doc["verified"]["total_guesses"] == 5801


def test_compare_json_with_an_integer_beyond_64_bits(tmp_path):
    path = _with_big_param(tmp_path)
    run = certify("compare", path, KNUTH, "--json")
    assert run.returncode == 0, run.stderr[-500:]
    rows = json.loads(run.stdout)["rows"]
    assert rows[0]["strategy"]["params"]["note"] == 2**70
    assert [r["total_guesses"] for r in rows] == [5801, 5801]


# -- item 7: unbounded input in play ------------------------------------------------------

def test_codemaker_applies_the_game_size_limit():
    line = one_line_error(certify("play", "--codemaker", "--pegs", 1000000000000, timeout=60), "play")
    assert "limit of 1000000" in line


def test_play_bounds_the_length_of_an_input_line():
    with open("/dev/zero", "rb") as zero:
        run = certify("play", KNUTH, input=None, stdin=zero, timeout=60)
    line = one_line_error(run, "play")
    assert "line" in line and "longer than" in line


def test_codemaker_bounds_the_length_of_an_input_line():
    run = certify("play", "--codemaker", "--seed", 1, input="0" * 100_000 + "\n", timeout=60)
    line = one_line_error(run, "play")
    assert "longer than" in line


# -- item 8: the contradiction search is near-linear ---------------------------------------

def _weak_answers(n: int, seed: int = 1) -> list[str]:
    """n answers that leave many candidates until the last one: guesses over colours 1-2 all
    scored 0,0, then 1111=1,0 (a 1 somewhere), which contradicts every guess holding a 1."""
    rng = random.Random(seed)
    out = ["".join(str(1 + rng.randrange(2)) for _ in range(4)) + "=0,0" for _ in range(n - 1)]
    return out + ["1111=1,0"]


def test_contradiction_search_does_a_near_linear_number_of_filters(monkeypatch):
    from certify import consistent as mod
    from certify.game import Game

    game = Game(4, 6)
    answers = [mod.parse_clue(game, a) for a in _weak_answers(300)]
    calls = []
    real = Game.feedback
    monkeypatch.setattr(Game, "feedback", lambda self, g, s: calls.append(1) or real(self, g, s))
    conflict = mod.minimal_conflict(game, answers)
    # The deletion search re-filters every answer once per answer: n^2 = 90,000 filters.
    assert len(calls) <= 10 * len(answers), len(calls)
    assert conflict and not len(mod.consistent(game, [answers[i] for i in conflict]))
    for k in range(len(conflict)):
        assert len(mod.consistent(game, [answers[i] for j, i in enumerate(conflict) if j != k]))


@pytest.mark.parametrize("n", [100, 1000])
def test_consistent_with_many_contradicting_answers(n):
    clues = _weak_answers(n, seed=n)
    run = certify("consistent", *clues)
    assert run.returncode == 1, run.stderr[-500:]
    shown = re.findall(r"(\w{4})=(\d),(\d)", run.stdout.splitlines()[2])
    assert 2 <= len(shown)
    given = {(c.split("=")[0], tuple(map(int, c.split("=")[1].split(",")))) for c in clues}
    chosen = [(g, (int(b), int(w))) for g, b, w in shown]
    assert set(chosen) <= given
    codes = verify.codes(4, 6, True)
    fits = lambda ans: [c for c in codes if all(verify.feedback(g, c) == fb for g, fb in ans)]
    assert not fits(chosen)
    for i in range(len(chosen)):
        assert fits(chosen[:i] + chosen[i + 1:])


# -- item 10: only ASCII digits ------------------------------------------------------------

@pytest.mark.parametrize("answer", ["\uff11,0", "1,\u0660", "\u0661\u0660"])
def test_consistent_refuses_non_ascii_digits(answer):
    line = one_line_error(certify("consistent", f"0011={answer}"), "consistent")
    assert "is not an answer" in line


def test_play_refuses_non_ascii_digits():
    run = certify("play", KNUTH, input="\uff11,0\n")
    assert "is not an answer" in run.stdout and "try again" in run.stdout
    assert run.returncode == 2  # then the input ends


def test_pegs_refuse_non_ascii_digits():
    run = certify("consistent", "--pegs", "\uff14", "0011=1,0")
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "expected a whole number" in run.stderr


def test_input_that_is_not_text_is_asked_again():
    import os

    env = dict(os.environ, PYTHONIOENCODING="utf-8:strict")
    for args in (["play", KNUTH], ["play", "--codemaker", "--seed", 1]):
        run = subprocess.run([sys.executable, "-m", "certify", *map(str, args)], input=b"\xff\xfe,1\n",
                             capture_output=True, cwd=ROOT, timeout=60, env=env)
        assert b"Traceback" not in run.stderr and run.returncode == 2, run.stderr[-300:]
        assert b"try again" in run.stdout
