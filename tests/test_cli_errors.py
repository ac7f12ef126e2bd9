"""Every user mistake at the command line: a clear one-line message, exit status 2, no
traceback; and an interrupted build leaves nothing behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
K46 = str(ROOT / "certificates" / "knuth-4x6.json")


def certify(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "certify", *args], cwd=cwd or ROOT,
                          capture_output=True, text=True, timeout=120)


MISTAKES = [
    (["build", "nope"], "unknown strategy 'nope'"),
    (["build", "knuth", "--first", "0019"], "'0019' is not a code of 4x6: colour '9' is not one of 0..5"),
    (["build", "knuth", "--first", "00"], "'00' is not a code of 4x6: it needs 4 pegs"),
    (["build", "knuth", "--first", ""], "'' is not a code of 4x6"),
    (["build", "knuth", "--first", "0012", "--no-repetition"], "'0012' is not a code of 4x6 without repetition"),
    (["build", "knuth", "--pegs", "0"], "pegs must be an integer >= 1, got 0"),
    (["build", "knuth", "--pegs", "-1"], "pegs must be an integer >= 1, got -1"),
    (["build", "knuth", "--colors", "37"], "colors must be an integer from 2 to 36, got 37"),
    (["build", "knuth", "--colors", "1"], "colors must be an integer from 2 to 36, got 1"),
    (["build", "knuth", "--colours", "-6"], "colors must be an integer from 2 to 36, got -6"),
    (["build", "knuth", "--pegs", "abc"], "argument --pegs: expected a whole number, got 'abc'"),
    (["build", "knuth", "--pegs", "4.5"], "argument --pegs: expected a whole number, got '4.5'"),
    (["build", "knuth", "--pegs", "5", "--colors", "3", "--no-repetition"],
     "a game without repetition needs pegs <= colors"),
    (["build", "knuth", "--pegs", "9", "--colors", "9"], "more than the builder's limit of 1000000"),
    (["build", "knuth", "--pegs", "99999999999"], "more than the builder's limit"),
    (["build", "knuth", "--pegs", "3", "--colors", "3", "-o", "/nonexistent/dir/k.json"],
     "cannot write /nonexistent/dir/k.json: folder /nonexistent/dir does not exist"),
    (["build", "knuth", "--pegs", "3", "--colors", "3", "-o", "/tmp"], "cannot write /tmp: it is a directory"),
    (["build", "knuth", "--pegs", "3", "--colors", "3", "-o", "certificates/knuth-4x6.json/x.json"],
     "folder certificates/knuth-4x6.json is not a directory"),
    (["build"], "the following arguments are required: STRATEGY"),
    (["build", "knuth", "--frobnicate"], "unrecognized arguments: --frobnicate"),
    (["verify"], "the following arguments are required: FILE"),
    (["verify", K46, "--max-guesses", "0"], "argument --max-guesses: expected a number >= 1, got 0"),
    (["verify", K46, "--max-guesses", "-3"], "argument --max-guesses: expected a number >= 1, got -3"),
    (["verify", K46, "--max-guesses", "five"], "argument --max-guesses: expected a whole number, got 'five'"),
    (["verify", "/nonexistent.json"], "/nonexistent.json: unusable: cannot read file: No such file or directory"),
    (["verify", "certificates"], "certificates: unusable: cannot read file: Is a directory"),
    (["stats", "/nonexistent.json"], "cannot read file: No such file or directory"),
    (["stats"], "the following arguments are required: FILE"),
    (["explain", K46, "zzzz"], "'zzzz' is not a code of the game (4 pegs x 6 colours)"),
    (["explain", K46, "12345"], "'12345' is not a code of the game"),
    (["explain", K46], "the following arguments are required: SECRET"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
]


@pytest.mark.parametrize("args, message", MISTAKES, ids=[" ".join(a) or "(none)" for a, _ in MISTAKES])
def test_mistake_gives_one_line_and_exit_2(args, message):
    proc = certify(*args)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr.count("\n") == 1 and proc.stderr.endswith("\n"), proc.stderr
    assert message in proc.stderr
    assert proc.stdout == ""


def test_standalone_verifier_mistakes():
    for args, message in ((["--max-guesses", "0", K46], "expected a number >= 1"), ([], "required: FILE")):
        proc = subprocess.run([sys.executable, str(ROOT / "certify" / "verify.py"), *args],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and message in proc.stderr


def test_invalid_certificate_is_exit_1_for_stats_and_explain():
    bad = str(ROOT / "tests" / "data" / "invalid" / "guess-changed-at-leaf.json")
    for args in (["stats", bad], ["explain", bad, "000"]):
        proc = certify(*args)
        assert proc.returncode == 1 and proc.stderr.count("\n") == 1
        assert "at 001 -(0,1)-> 122 -(1,1)-> 202: missing branch" in proc.stderr


def test_failed_build_writes_nothing(tmp_path):
    proc = certify("build", "knuth", "--first", "0019", "-o", str(tmp_path / "k.json"))
    assert proc.returncode == 2
    assert list(tmp_path.iterdir()) == []


def _default_sigint():
    # Behave as a terminal would: Python turns SIGINT into KeyboardInterrupt only when it
    # starts with the default disposition (a background job may have inherited "ignore").
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _read_all(fd: int) -> bytes:
    """What is left to read from a pty's master (EIO once the other side is closed)."""
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return out
        if not chunk:
            return out
        out += chunk


def test_interrupted_build_leaves_no_file_and_no_temporary(tmp_path):
    import fcntl
    import struct
    import termios

    out = tmp_path / "knuth-5x9.json.gz"  # a build of several seconds, even with the fast kernel
    # stderr is a terminal (80 columns), as when Ctrl-C is typed: the progress bar is drawn there only.
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "certify", "build", "knuth", "--pegs", "5", "--colors", "9",
                             "-o", str(out)], cwd=ROOT, stdout=subprocess.PIPE, stderr=slave,
                            preexec_fn=_default_sigint)
    os.close(slave)
    # The progress bar appears on stderr after a second of building: then we are mid-build.
    try:
        first = os.read(master, 1)
    except OSError:
        first = b""
    assert first, "the build ended before showing progress"
    time.sleep(0.3)
    assert proc.poll() is None, "the build finished before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    stdout, _ = proc.communicate(timeout=60)
    stderr = (first + _read_all(master)).decode(errors="replace")
    os.close(master)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert stderr.rstrip().splitlines()[-1].split("\r")[-1].endswith("interrupted")
    assert stdout == b""
    assert list(tmp_path.iterdir()) == []  # neither the certificate nor a temporary file


def test_out_of_memory_is_one_line(monkeypatch, capsys):
    """A search past the machine's memory (12x2's total search built 12! peg permutations and
    was killed at 23.9 GB; under a ulimit it ended in a MemoryError traceback): one line, exit 2."""
    from certify import __main__ as cli
    from certify.commands import bounding

    def greedy(args):
        raise MemoryError

    monkeypatch.setattr(bounding, "cmd_bound", greedy)
    assert cli.main(["bound", "--pegs", "3", "--colors", "3", "--worst", "-o", "never-written.json"]) == 2
    err = capsys.readouterr().err
    assert err == "certify bound: error: out of memory (the work needs more than this machine, or its limit, gives)\n"


def test_wide_game_search_builds_no_factorial_table():
    """The compiled search's stabilizer tries every peg permutation up to 8 pegs only, then the
    transpositions (as the Python one does past 7): 12x2's table of 12! - 1 rows did not fit."""
    from certify.game import Game
    from certify.search.counting import Counting
    from certify.search.engine import Engine
    from certify.search.space import Space
    from certify.search.symmetry import peg_permutations

    assert len(peg_permutations(8, 8)) == 40319 and len(peg_permutations(8)) == 28
    space = Space(Game(12, 2))
    engine = Engine(space, Counting(12, 2, True))
    assert engine.pperms.shape == (66, 12)
    for row in engine.pperms.tolist():  # each a transposition of two pegs
        assert sorted(row) == list(range(12)) and sum(a != b for a, b in enumerate(row)) == 2
