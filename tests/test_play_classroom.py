"""The forgiving game (issue 14): undo, help, quit, naming the wrong answer, the codemaker's help
and warnings, the computer against itself, key pegs, NO_COLOR, --letters, Ctrl-D and Ctrl-C.
Driven through the CLI: pipes, and a pseudo-terminal where the terminal matters. The oracle is
the verifier's feedback rule over every code."""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import subprocess
import sys
import termios
import time
from collections import Counter
from pathlib import Path

import pytest

from certify import verify
from certify.certificate import read

ROOT = Path(__file__).resolve().parent.parent
KNUTH = ROOT / "certificates" / "knuth-4x6.json"
SCORE = re.compile(r"^\s*(\d+)\. (\w+)  (\d+),(\d+)")


def certify(*args, stdin: str = "", env=None):
    return subprocess.run([sys.executable, "-m", "certify", *map(str, args)], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=120, env=env)


@pytest.fixture(scope="module")
def knuth():
    return read(KNUTH)


def tree_game(cert, secret):
    node, out = cert["tree"], []
    while True:
        fb = verify.feedback(node["guess"], secret)
        out.append((node["guess"], fb))
        if fb == (4, 0):
            return out
        node = node["next"][f"{fb[0]},{fb[1]}"]


def lines(rows):
    return "".join(f"{b},{w}\n" for _, (b, w) in rows)


def secret_of(*args) -> str:
    run = certify("play", "--codemaker", *args, stdin="!\n")
    return re.search(r"^the secret was (\w+)$", run.stdout, re.M).group(1)


# -- play FILE: undo, help, quit, the wrong answer named -------------------------------------

def test_undo_takes_an_answer_back(knuth):
    rows = tree_game(knuth, "3132")
    # A wrong second answer, taken back, then the true ones: the game ends as without the slip.
    g2 = rows[1][0]
    wrong = next((b, w) for b in range(4) for w in range(5 - b) if (b, w) not in ((3, 1), rows[1][1])
                 and any(verify.feedback(g2, c) == (b, w) for c in verify.codes(4, 6, True)))
    script = f"{rows[0][1][0]},{rows[0][1][1]}\n{wrong[0]},{wrong[1]}\nu\n" + lines(rows[1:])
    run = certify("play", KNUTH, stdin=script)
    assert run.returncode == 0, run.stderr
    assert "answer 2 taken back" in run.stdout
    assert f"found 3132 in {len(rows)} guesses" in run.stdout
    asked = re.findall(r"^guess (\d+): (\w+)  answer\? ", run.stdout, re.M)
    asked = [g for _, g in asked]
    # Guess 3 after the slip is asked once, then u: guess 2 again and the true game.
    assert asked[:2] == [rows[0][0], g2] and asked[3:] == [g2] + [g for g, _ in rows[2:]]
    # Nothing to take back at the start; ? helps; q leaves.
    run = certify("play", KNUTH, stdin="u\n?\nq\n")
    assert run.returncode == 0
    assert "nothing to take back" in run.stdout and "u takes the last answer back" in run.stdout
    assert "you left the game" in run.stdout


def test_contradiction_asks_for_the_secret_and_names_the_wrong_answer(knuth):
    codes = verify.codes(4, 6, True)
    secret = "3132"
    rows = tree_game(knuth, secret)
    # Lie on the first answer, then answer truly for the secret: a contradiction comes.
    g1, true1 = rows[0]
    lie = next(fb for fb in sorted({verify.feedback(g1, c) for c in codes}) if fb != true1)
    node = knuth["tree"]["next"][f"{lie[0]},{lie[1]}"]
    given = [(g1, lie)]
    while True:
        fb = verify.feedback(node["guess"], secret)
        given.append((node["guess"], fb))
        if not [c for c in codes if all(verify.feedback(g, c) == f for g, f in given)]:
            break
        assert fb != (4, 0)
        node = node["next"][f"{fb[0]},{fb[1]}"]
    run = certify("play", KNUTH, stdin=lines(given) + secret + "\n")
    assert run.returncode == 1
    assert "contradict each other" in run.stdout
    named = re.findall(r"guess (\d+): (\w+)  you answered (\d),(\d); for (\w+) it is (\d),(\d)", run.stdout)
    assert named == [("1", g1, str(lie[0]), str(lie[1]), secret, str(true1[0]), str(true1[1]))]
    # Or take the last answer back and go on.
    run = certify("play", KNUTH, stdin=lines(given) + "u\nq\n")
    assert run.returncode == 0 and f"answer {len(given)} taken back" in run.stdout


# -- play --codemaker ------------------------------------------------------------------------

def test_codemaker_help_counts_secrets_and_warns_on_impossible_guesses():
    secret = secret_of("--seed", 21)
    first = "0011" if secret != "0011" else "0012"
    fb = verify.feedback(first, secret)
    codes = verify.codes(4, 6, True)
    possible = [c for c in codes if verify.feedback(first, c) == fb]
    impossible = next(c for c in codes if c not in possible)
    run = certify("play", "--codemaker", "--seed", 21, "--rows", 3,
                  stdin=f"?\n{first}\n?\n{impossible}\n{secret}\n")
    assert run.returncode == 0, run.stderr
    counts = [int(n) for n in re.findall(r"^  (\d+) secrets? still possible", run.stdout, re.M)]
    assert counts == [1296, len(possible)]
    assert re.search(rf"note: {impossible} could not be the secret: row 1 \({first}\) scored "
                     rf"{fb[0]},{fb[1]}", run.stdout)
    assert run.stdout.count("could not be the secret") == 1  # not for the secret itself
    assert "You have 3 guesses" in run.stdout
    # At the end: Knuth's guesses for the same secret, each scored by the verifier.
    m = re.search(r"^knuth finds (\w+) in (\d+) guess(?:es)? \(you: 3\): ([\w ]+)$", run.stdout, re.M)
    assert m and m.group(1) == secret
    guesses = m.group(3).split()
    assert guesses[-1] == secret and len(guesses) == int(m.group(2))
    cert = read(KNUTH)
    assert guesses == [g for g, _ in tree_game(cert, secret)]


def test_codemaker_rows_run_out_and_quitting_keeps_the_secret():
    secret = secret_of("--seed", 4)
    wrong = "0000" if secret != "0000" else "1111"
    run = certify("play", "--codemaker", "--seed", 4, "--rows", 2, stdin=f"{wrong}\n{wrong}\n")
    assert run.returncode == 1
    assert sum(bool(SCORE.match(x)) for x in run.stdout.splitlines()) == 2
    assert f"no guesses left: the secret was {secret}" in run.stdout
    run = certify("play", "--codemaker", "--seed", 4, stdin=f"{wrong}\nq\n")
    assert run.returncode == 0 and "stays hidden" in run.stdout
    assert secret not in run.stdout.replace(wrong, "")


def test_codemaker_strategy_replay_can_be_left_out_and_is_bounded():
    run = certify("play", "--codemaker", "--seed", 3, "--strategy", "none", stdin="!\n")
    assert run.returncode == 1 and "finds" not in run.stdout
    run = certify("play", "--codemaker", "--seed", 3, "--pegs", 6, "--colors", 9, stdin="!\n")
    assert "replayed only up to 40,000 codes; this one has 531,441" in run.stdout


def test_codemaker_with_letters():
    secret = secret_of("--seed", 9, "--letters", "RGBYOP")
    assert set(secret) <= set("RGBYOP")
    digits = "".join(str("RGBYOP".index(ch)) for ch in secret)
    assert secret_of("--seed", 9) == digits
    run = certify("play", "--codemaker", "--seed", 9, "--letters", "RGBYOP", stdin=f"0011\n{secret.lower()}\n")
    assert run.returncode == 0
    assert "colour '0' is not one of R G B Y O P; try again" in run.stdout
    assert f"you found {secret} in 1 guess" in run.stdout
    for bad, message in [("RGB", "3 letters for 6 colours"), ("RGBYOR", "repeated"), ("RGBYO\u00c9", "ASCII")]:
        run = certify("play", "--codemaker", "--letters", bad)
        assert run.returncode == 2 and message in run.stderr


# -- play --auto -------------------------------------------------------------------------------

def test_auto_one_game_is_the_trees_game(knuth):
    run = certify("play", "--auto", KNUTH, "--secret", "3132")
    assert run.returncode == 0, run.stderr
    shown = [(m.group(2), (int(m.group(3)), int(m.group(4))))
             for m in map(SCORE.match, run.stdout.splitlines()) if m]
    assert shown == tree_game(knuth, "3132")
    assert run.stdout.rstrip().endswith(f"found 3132 in {len(shown)} guesses")
    run = certify("play", "--auto", KNUTH, "--secret", "BYGB", "--letters", "RGBYOP")
    assert "found BYGB in" in run.stdout


def test_auto_random_games_table(knuth):
    import random

    run = certify("play", "--auto", KNUTH, "--games", 300, "--seed", 5)
    assert run.returncode == 0, run.stderr
    rng = random.Random(5)
    codes = verify.codes(4, 6, True)
    expected = Counter(len(tree_game(knuth, rng.choice(codes))) for _ in range(300))
    table = {int(k): int(n) for k, n, _ in re.findall(r"^\s+(\d+)\s+(\d+)\s+([\d.]+)$", run.stdout, re.M)}
    assert table == dict(expected)
    assert sum(table.values()) == 300
    again = certify("play", "--auto", KNUTH, "--games", 300, "--seed", 5)
    assert again.stdout == run.stdout
    # Without --seed, the seed drawn is shown, and replays the same games.
    drawn = certify("play", "--auto", KNUTH, "--games", 50)
    seed = re.search(r"\(--seed (\d+)\)", drawn.stdout).group(1)
    assert certify("play", "--auto", KNUTH, "--games", 50, "--seed", seed).stdout == drawn.stdout


@pytest.mark.parametrize("args,message", [
    (["--auto", KNUTH, "--secret", "0011", "--games", 3], "not both"),
    (["--auto", KNUTH, "--rows", 3], "--rows goes with --codemaker, not --auto"),
    (["--codemaker", "--games", 3], "--games goes with --auto, not --codemaker"),
    (["--auto", "--codemaker"], "not both"),
    (["--auto", KNUTH, "--secret", "0019"], "colour '9'"),
    (["--auto", KNUTH, "--games", 0], "expected a number >= 1"),
    ([KNUTH, "--seed", 3], "--seed goes with --codemaker or --auto, not a game against FILE"),
    (["--codemaker", "--strategy", "nope"], "unknown strategy 'nope'"),
])
def test_play_mode_mistakes(args, message):
    run = certify("play", *args)
    assert run.returncode == 2 and message in run.stderr, run.stderr
    assert len(run.stderr.splitlines()) == 1


# -- on a terminal ------------------------------------------------------------------------------

class Terminal:
    """certify running on a pseudo-terminal (its controlling terminal, stdin and stdout)."""

    def __init__(self, *args, env=None):
        self.master, slave = os.openpty()

        def setup():
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
            # Ctrl-C as at an interactive shell: a suite started in the background of a
            # non-interactive shell (`bash -c 'make test &'`) passes SIGINT ignored to its children,
            # and Python then installs no KeyboardInterrupt handler (the Ctrl-C case hung 60 s).
            signal.signal(signal.SIGINT, signal.SIG_DFL)

        self.proc = subprocess.Popen([sys.executable, "-m", "certify", *map(str, args)], stdin=slave,
                                     stdout=slave, stderr=slave, cwd=ROOT, start_new_session=True,
                                     preexec_fn=setup, env=env)
        os.close(slave)
        self.text = ""

    def read_until(self, pattern: str, timeout: float = 60) -> str:
        end = time.monotonic() + timeout
        while not re.search(pattern, self.text):
            left = end - time.monotonic()
            assert left > 0, f"waited for {pattern!r}; got {self.text[-500:]!r}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    data = os.read(self.master, 4096)
                except OSError:
                    data = b""
                if not data:
                    break
                self.text += data.decode(errors="replace")
        return self.text

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def finish(self, timeout: float = 60) -> int:
        try:
            self.read_until(r"\Z.", timeout=timeout)
        except AssertionError:
            pass
        status = self.proc.wait(timeout=timeout)
        os.close(self.master)
        return status


def test_terminal_shows_key_pegs_and_colours_and_no_color(knuth):
    secret = secret_of("--seed", 2)
    t = Terminal("play", "--codemaker", "--seed", 2)
    t.read_until(r"guess 1\? ")
    t.send(b"0011\r")
    text = t.read_until(r"guess 2\? ")
    b, w = verify.feedback("0011", secret)
    keys = "\u25cf" * b + "\u25cb" * w or "none"
    assert keys in text and "\x1b[" in text
    t.send(b"q\r")
    assert t.finish() == 0
    env = dict(os.environ, NO_COLOR="1")
    t = Terminal("play", "--codemaker", "--seed", 2, env=env)
    t.read_until(r"guess 1\? ")
    t.send(b"0011\r")
    text = t.read_until(r"guess 2\? ")
    assert keys in text and "\x1b[" not in text
    t.send(b"q\r")
    assert t.finish() == 0


@pytest.mark.parametrize("key,status", [(b"\x04", 0), (b"\x03", 130)])
def test_ctrl_d_and_ctrl_c_leave_cleanly_without_the_secret(key, status):
    secret = secret_of("--seed", 13)
    t = Terminal("play", "--codemaker", "--seed", 13)
    t.read_until(r"guess 1\? ")
    wrong = "0000" if secret != "0000" else "1111"
    t.send(wrong.encode() + b"\r")
    t.read_until(r"guess 2\? ")
    t.send(key)
    assert t.finish() == status
    tail = t.text.split("guess 2? ", 1)[1]
    assert "Traceback" not in t.text
    assert secret not in t.text.replace(wrong, "")
    # The prompt's line is ended before anything else is written, and nothing is left half-drawn.
    assert tail.replace("^C", "").replace("^D", "").startswith("\r\n")
    assert t.text.endswith("\n")
    t = Terminal("play", KNUTH)
    t.read_until(r"guess 1: .* answer\? ")
    t.send(key)
    assert t.finish() == status
    assert "Traceback" not in t.text and t.text.endswith("\n")
