"""`certify play` and `certify consistent`, driven the way a person would: lines in, text out.

The oracle for answers and candidate counts is the independent verifier's feedback rule
applied by brute force over every code, never the module under test.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest

from certify import verify
from certify.certificate import read

ROOT = Path(__file__).resolve().parent.parent
KNUTH = ROOT / "certificates" / "knuth-4x6.json"
FOUND = re.compile(r"^found (\w+) in (\d+) guess(?:es)?$", re.M)


def certify(*args, stdin: str = "", stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "certify", *map(str, args)], input=stdin,
                          stdout=stdout, stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=120)


def answers_for(cert: dict, secret: str) -> list[tuple[str, tuple[int, int]]]:
    """(guess, answer) pairs of the game ``secret`` plays through the tree, by the verifier's rule."""
    pegs = cert["game"]["pegs"]
    node, out = cert["tree"], []
    while True:
        fb = verify.feedback(node["guess"], secret)
        out.append((node["guess"], fb))
        if fb == (pegs, 0):
            return out
        node = node["next"][f"{fb[0]},{fb[1]}"]


def fitting(codes, answers) -> list[str]:
    return [c for c in codes if all(verify.feedback(g, c) == fb for g, fb in answers)]


def lines_of(answers) -> str:
    return "".join(f"{b},{w}\n" for _, (b, w) in answers)


def contradiction_shown(text: str) -> list[tuple[int, str, tuple[int, int]]]:
    tail = text.split("contradict each other", 1)[1]
    return [(int(n), g, (int(b), int(w)))
            for n, g, b, w in re.findall(r"guess (\d+): (\w+)  (\d+),(\d+)", tail)]


@pytest.fixture(scope="module")
def knuth():
    return read(KNUTH)


@pytest.fixture(scope="module")
def codes46():
    return verify.codes(4, 6, True)


# -- play FILE -----------------------------------------------------------------------------

def test_piped_game_finds_3132_in_the_depth_explain_gives(knuth):
    answers = answers_for(knuth, "3132")
    run = certify("play", KNUTH, stdin=lines_of(answers))
    assert run.returncode == 0, run.stderr
    explained = json.loads(certify("explain", KNUTH, "3132", "--json").stdout)
    depth = len(explained["steps"])
    assert FOUND.findall(run.stdout) == [("3132", str(depth))]
    assert f"found 3132 in {depth} guesses" in run.stdout
    # Each guess the person was asked about is the tree's, in order, and no ANSI colour in a pipe.
    asked = re.findall(r"^guess \d+: (\w+)  answer\? ", run.stdout, re.M)
    assert asked == [s["guess"] for s in explained["steps"]]
    assert "\x1b[" not in run.stdout


def test_candidates_left_match_brute_force(knuth, codes46):
    answers = answers_for(knuth, "3132")
    run = certify("play", KNUTH, stdin=lines_of(answers))
    shown = re.findall(r"^  (\d+) candidates? left(?:: ([\w ]+))?$", run.stdout, re.M)
    assert len(shown) == len(answers) - 1  # the winning answer ends the game instead
    for k, (count, listed) in enumerate(shown, 1):
        expected = fitting(codes46, answers[:k])
        assert int(count) == len(expected)
        if len(expected) <= 10:
            assert listed.split() == expected
        else:
            assert not listed


def _build(tmp_path, *args) -> Path:
    out = tmp_path / "cert.json"
    run = certify("build", "knuth", *args, "-q", "-o", out)
    assert run.returncode == 0, run.stderr
    return out


@pytest.mark.parametrize("game", [("--pegs", 3, "--colors", 3),
                                  ("--pegs", 3, "--colors", 4, "--no-repetition")])
def test_every_secret_of_a_small_game_is_found(tmp_path, game):
    from certify.play import play_tree

    path = _build(tmp_path, *game)
    report = verify.verify_file(str(path))
    assert report.valid, report.error
    cert = read(path)
    g = cert["game"]
    codes = verify.codes(g["pegs"], g["colors"], g["repetition"])
    depths = Counter()
    for secret in codes:
        answers = answers_for(cert, secret)
        out = io.StringIO()
        assert play_tree(cert, io.StringIO(lines_of(answers)), out) == 0
        text = out.getvalue()
        assert FOUND.findall(text) == [(secret, str(len(answers)))]
        counts = [int(n) for n in re.findall(r"^  (\d+) candidates? left", text, re.M)]
        assert counts == [len(fitting(codes, answers[:k])) for k in range(1, len(answers))]
        depths[len(answers)] += 1
    # Over all secrets the games played have the depths the verifier replayed.
    assert {str(k): v for k, v in sorted(depths.items())} == report.replayed["histogram"]


def test_answers_that_contradict_each_other_end_the_game(knuth, codes46):
    # Find a secret and a wrong third answer that contradicts the first answer but not the
    # second: the minimal contradiction is then exactly {answer 1, answer 3}.
    for secret in codes46:
        true = answers_for(knuth, secret)
        if len(true) < 4:
            continue
        g3 = true[2][0]
        possible = {verify.feedback(g3, c) for c in codes46} - {(4, 0)}
        for wrong in sorted(possible):
            a1, a2, a3 = true[0], true[1], (g3, wrong)
            if (not fitting(codes46, [a1, a2, a3]) and not fitting(codes46, [a1, a3])
                    and fitting(codes46, [a2, a3])):
                break
        else:
            continue
        break
    else:
        pytest.fail("no contradicting answer found")
    run = certify("play", KNUTH, stdin=lines_of([a1, a2, a3]))
    assert run.returncode == 1
    assert "No secret gives all these answers" in run.stdout
    assert contradiction_shown(run.stdout) == [(1, a1[0], a1[1]), (3, a3[0], a3[1])]
    assert "found" not in run.stdout


def test_claiming_a_win_on_a_guess_that_cannot_be_the_secret(knuth, codes46):
    # The first node (breadth-first) whose guess is not among the secrets that reach it.
    queue = [(knuth["tree"], [])]
    while queue:
        node, path = queue.pop(0)
        reaching = fitting(codes46, path)
        if node["guess"] not in reaching:
            break
        for key, child in node.get("next", {}).items():
            b, w = map(int, key.split(","))
            queue.append((child, path + [(node["guess"], (b, w))]))
    else:
        pytest.fail("every guess of the tree is a candidate")
    answers = path + [(node["guess"], (4, 0))]
    run = certify("play", KNUTH, stdin=lines_of(answers))
    assert run.returncode == 1
    shown = contradiction_shown(run.stdout)
    assert shown[-1] == (len(answers), node["guess"], (4, 0))
    # What is shown is a contradiction, and a minimal one.
    chosen = [(g, fb) for _, g, fb in shown]
    assert not fitting(codes46, chosen)
    for i in range(len(chosen)):
        assert fitting(codes46, chosen[:i] + chosen[i + 1:])


def test_malformed_answers_are_asked_again(knuth, codes46):
    answers = answers_for(knuth, "3132")
    first = answers[0][0]
    possible = {verify.feedback(first, c) for c in codes46}
    # Well-formed for 4 pegs, yet no code answers it to the first guess.
    never = [(b, w) for b in range(5) for w in range(5 - b) if (b, w) != (3, 1) and (b, w) not in possible]
    assert never
    bad = ["x", "5,0", "3,1", "", "1,2,3", f"{never[0][0]},{never[0][1]}"]
    run = certify("play", KNUTH, stdin="\n".join(bad) + "\n" + lines_of(answers))
    assert run.returncode == 0, run.stderr
    assert len(re.findall(r"^guess 1: ", run.stdout, re.M)) == len(bad) + 1
    assert run.stdout.count("try again") == len(bad)
    assert "'x' is not an answer" in run.stdout
    assert "5,0 is impossible" in run.stdout and "3,1 is impossible" in run.stdout
    assert f"{never[0][0]},{never[0][1]} is impossible for {first}" in run.stdout
    assert FOUND.findall(run.stdout) == [("3132", str(len(answers)))]
    # B W and BW forms are answers too.
    forms = "".join(f"{b} {w}\n" if k % 2 else f"{b}{w}\n" for k, (_, (b, w)) in enumerate(answers))
    run = certify("play", KNUTH, stdin=forms)
    assert run.returncode == 0 and "try again" not in run.stdout


def test_end_of_input_is_a_clear_error(knuth):
    answers = answers_for(knuth, "3132")
    run = certify("play", KNUTH, stdin=lines_of(answers[:2]))
    assert run.returncode == 2
    assert run.stderr.strip() == ("certify play: error: input ended before the game was over "
                                  "(2 answers given, guess 3 unanswered)")
    assert "Traceback" not in run.stderr


def test_invalid_certificate_is_refused_with_the_verifiers_message(tmp_path):
    doc = json.loads(KNUTH.read_text())
    doc["claims"]["max_guesses"] = 4
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    run = certify("play", bad, stdin="0,0\n")
    assert run.returncode == 1
    assert run.stderr.strip() == f"{bad}: invalid: claims.max_guesses: claimed 4, replay gives 5"
    assert run.stdout == ""


def _pty_run(*args, stdin: str):
    """Run certify with stdout on a pseudo-terminal (stdin a pipe); (CompletedProcess, text)."""
    master, slave = os.openpty()
    try:
        run = certify(*args, stdin=stdin, stdout=slave)
    finally:
        os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # EIO once the child side is closed
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return run, b"".join(chunks).decode()


def test_guesses_are_coloured_only_on_a_terminal(knuth):
    from certify.play import Console
    from certify.render import PALETTE

    assert Console(io.StringIO(), io.StringIO(), colour=False).code("0123") == "0123"
    coloured = Console(io.StringIO(), io.StringIO(), colour=True).code("0123")
    assert coloured.count("\x1b[0m") == 4 and coloured.endswith(" 0123")
    # The pictures' palette, as 24-bit colours.
    for k in range(4):
        r, g, b = (int(PALETTE[k][i:i + 2], 16) for i in (1, 3, 5))
        assert f"48;2;{r};{g};{b}m" in coloured
    # stdout a pseudo-terminal, stdin a pipe: the guess is drawn in colour.
    run, text = _pty_run("play", KNUTH, stdin=lines_of(answers_for(knuth, "3132")))
    assert run.returncode == 0, run.stderr
    assert "\x1b[" in text and "found 3132 in" in text


def test_play_arguments():
    run = certify("play")
    assert run.returncode == 2 and "certify play: error: give a certificate FILE" in run.stderr
    run = certify("play", KNUTH, "--pegs", 3)
    assert run.returncode == 2 and "go with --codemaker" in run.stderr
    run = certify("play", KNUTH, "--codemaker")
    assert run.returncode == 2 and "not both" in run.stderr
    run = certify("play", ROOT / "no-such-file.json")
    assert run.returncode == 2 and "cannot read file" in run.stderr


# -- play --codemaker ----------------------------------------------------------------------

SCORE = re.compile(r"^\s*(\d+)\. (\w+)  (\d+),(\d+)$")


def scripted_guesser(args, pegs, colors, repetition):
    """Play the codemaker through pipes: each guess is the first secret still consistent
    with the scores so far (certify.consistent logic). Returns (returncode, transcript, guesses)."""
    from certify.consistent import consistent
    from certify.game import Game

    game = Game(pegs, colors, repetition)
    proc = subprocess.Popen([sys.executable, "-m", "certify", "play", "--codemaker", *map(str, args)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT)
    timer = threading.Timer(120, proc.kill)
    timer.start()
    try:
        answers, transcript = [], []
        while True:
            guess = game.text(int(consistent(game, answers)[0]))
            proc.stdin.write(guess + "\n")
            proc.stdin.flush()
            while True:
                line = proc.stdout.readline()
                assert line, "codemaker stopped before scoring " + guess
                transcript.append(line)
                m = SCORE.match(line)
                if m:
                    break
            assert m.group(2) == guess
            fb = (int(m.group(3)), int(m.group(4)))
            answers.append((game.parse(guess), game.encode(*fb)))
            if fb == (pegs, 0):
                break
        proc.stdin.close()
        transcript.append(proc.stdout.read())
        proc.wait()
    finally:
        timer.cancel()
        proc.kill()
    return proc.returncode, "".join(transcript), [game.text(g) for g, _ in answers]


@pytest.mark.parametrize("args,game", [(("--seed", 7), (4, 6, True)),
                                       (("--seed", 3, "--pegs", 4, "--colors", 8, "--no-repetition"),
                                        (4, 8, False))])
def test_codemaker_is_found_by_a_scripted_guesser(args, game):
    rc, text, guesses = scripted_guesser(args, *game)
    assert rc == 0
    secret = guesses[-1]
    assert re.search(rf"^you found {secret} in {len(guesses)} guess(es)?$", text, re.M)
    # Every score shown is the verifier's feedback of that guess against the secret.
    for line in text.splitlines():
        m = SCORE.match(line)
        if m:
            assert verify.feedback(m.group(2), secret) == (int(m.group(3)), int(m.group(4)))
    # The same seed picks the same secret: the same guesses replayed through a pipe win the same way.
    again = certify("play", "--codemaker", *args, stdin="".join(g + "\n" for g in guesses))
    assert again.returncode == 0
    assert again.stdout == text


def _secret_of(*args) -> str:
    """The codemaker's secret for these options, asked for with '!' (give up)."""
    run = certify("play", "--codemaker", *args, stdin="!\n")
    assert run.returncode == 1, run.stderr
    return re.search(r"^the secret was (\w+)$", run.stdout, re.M).group(1)


def test_codemaker_reveals_the_secret_when_rows_run_out():
    ended = certify("play", "--codemaker", "--seed", 11, stdin="")
    assert ended.returncode == 2
    # End of input is an error, and the secret stays hidden.
    assert ended.stderr.strip() == "certify play: error: input ended before the game was over"
    secret = _secret_of("--seed", 11)
    assert secret not in ended.stdout + ended.stderr
    wrong = next(c for c in verify.codes(4, 6, True) if c != secret)
    run = certify("play", "--codemaker", "--seed", 11, stdin=f"{wrong}\n" * 12)
    assert run.returncode == 1
    assert sum(bool(SCORE.match(line)) for line in run.stdout.splitlines()) == 12
    assert f"no guesses left: the secret was {secret}" in run.stdout


def test_codemaker_asks_again_after_a_malformed_guess():
    secret = _secret_of("--seed", 5, "--colors", 8, "--no-repetition")
    bad = ["12", "01234", "0019", "abcd", "0012"]
    run = certify("play", "--codemaker", "--seed", 5, "--colors", 8, "--no-repetition",
                  stdin="\n".join(bad + [secret]) + "\n")
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("try again") == len(bad)
    assert len(re.findall(r"^guess 1\? ", run.stdout, re.M)) == len(bad) + 1
    assert "'12' is not a code of 4x8 without repetition: it needs 4 pegs, not 2" in run.stdout
    assert "colour '9' is not one of 0..7" in run.stdout
    assert "'0012' is not a code of 4x8 without repetition: a colour is repeated" in run.stdout
    assert f"you found {secret} in 1 guess" in run.stdout


# -- consistent ------------------------------------------------------------------------------

def test_consistent_few_are_listed(knuth, codes46):
    answers = answers_for(knuth, "3132")[:2]
    expected = fitting(codes46, answers)
    assert 1 < len(expected) <= 20
    run = certify("consistent", *(f"{g}={b},{w}" for g, (b, w) in answers))
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == f"{len(expected)} secrets of 4x6 are consistent with the 2 answers:"
    assert run.stdout.split()[run.stdout.split().index("answers:") + 1:] == expected


def test_consistent_many_are_counted_and_listed_on_request(codes46):
    clue = ("0123", (1, 1))
    expected = fitting(codes46, [clue])
    assert len(expected) > 20
    run = certify("consistent", "--pegs", 4, "--colors", 6, "0123=1,1")
    assert run.returncode == 0
    assert run.stdout.strip() == f"{len(expected)} secrets of 4x6 are consistent with the 1 answer (--list shows them)"
    run = certify("consistent", "--list", "0123=11")
    assert run.stdout.split()[run.stdout.split().index("answer:") + 1:] == expected
    run = certify("consistent", "--json", "0123=1 1")
    doc = json.loads(run.stdout)
    assert doc["consistent"] == len(expected) and doc["secrets"] is None and doc["conflict"] is None
    assert doc["answers"] == [{"guess": "0123", "black": 1, "white": 1}]


def test_consistent_none_shows_the_contradiction(codes46):
    clues = [("0011", (0, 0)), ("0123", (1, 1)), ("2345", (0, 0))]
    assert not fitting(codes46, clues)
    args = [f"{g}={b},{w}" for g, (b, w) in clues]
    run = certify("consistent", *args)
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    assert lines[0] == "no secret of 4x6 is consistent with the 3 answers"
    assert "contradict each other" in lines[1]
    shown = [(g, (int(b), int(w))) for g, b, w in re.findall(r"(\w+)=(\d),(\d)", lines[2])]
    # Shown: a contradiction, and a minimal one (0123=1,1 fits with either of the others).
    assert not fitting(codes46, shown)
    for i in range(len(shown)):
        assert fitting(codes46, shown[:i] + shown[i + 1:])
    assert shown == [clues[0], clues[2]]
    doc = json.loads(certify("consistent", "--json", *args).stdout)
    assert doc["consistent"] == 0 and doc["secrets"] == []
    assert [(a["guess"], (a["black"], a["white"])) for a in doc["conflict"]] == shown


def test_consistent_one_impossible_answer():
    # Without repetition 4 of 6 colours always share at least 2 with any other code.
    assert (0, 1) not in {verify.feedback("2345", c) for c in verify.codes(4, 6, False)}
    run = certify("consistent", "--no-repetition", "0123=0,2", "2345=0,1")
    assert run.returncode == 1
    assert run.stdout.splitlines()[1:] == ["this answer alone is impossible (no code of the game gives it):",
                                           "  2345=0,1"]


def test_consistent_with_a_win_names_the_one_secret():
    run = certify("consistent", "--pegs", 5, "--colors", 8, "01234=5,0")
    assert run.returncode == 0
    assert run.stdout.split() == "1 secret of 5x8 is consistent with the 1 answer: 01234".split()


@pytest.mark.parametrize("clue,message", [
    ("0011=5,0", "5,0 is impossible"),
    ("0011=3,1", "3,1 is impossible"),
    ("0011", "expected GUESS=black,white"),
    ("00x1=1,0", "colour 'x' is not one of 0..5"),
    ("001=1,0", "it needs 4 pegs"),
    ("0011=a,b", "is not an answer"),
])
def test_consistent_malformed_arguments(clue, message):
    run = certify("consistent", clue)
    assert run.returncode == 2
    assert len(run.stderr.splitlines()) == 1
    assert run.stderr.startswith(f"certify consistent: error: answer {clue!r}: ")
    assert message in run.stderr
