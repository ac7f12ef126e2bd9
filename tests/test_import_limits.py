"""`certify import`'s work budgets (docs/import-formats.md, Limits): every importer refuses a file
whose work would be out of proportion to its size before doing that work, in one line naming
the figure and the budget (a ParseError: exit 2, no traceback). The real files the peers wrote
(../shared/data/peer-outputs, ../shared/data/external-strats): tests/test_import_shared.py.

The case that asked for the budgets: a 113-byte cuda-json run record for 8 pins, 5 colours
(390,625 codes) had the importer rebuild Knuth's strategy for that game: more than 126 s CPU,
unfinished. It is now refused in about a tenth of a second."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from certify import importers
from certify.game import Game
from certify.importers import ParseError, import_certificate

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
PEERS = SHARED / "peer-outputs"
EXTERNAL = SHARED / "external-strats"

#: The 113-byte record: the fields of the CUDA project's run records (mikemag/Mastermind, as in
#: ../shared/data/peer-outputs/mikemag/mastermind_run_stats_*.json), for 8 pins and 5 colours.
RUN_8P5C = (b'[{"run":{"Pin Count":8,"Color Count":5,"Strategy":"Knuth","Initial Guess":"11122233",'
            b'"Total Codewords":390625}}]\n')
#: What its refusal says: the game, its codes, the figure and the budget.
REFUSAL_8P5C = ("run 1 (Knuth 8p5c): the game 8x5 is too big to rebuild: 390,625 codes, 390,625^2 x 45 "
                "answers = 6.87e+12, past the budget of 4.00e+11 (6x7, the largest real run, is 3.88e+11: "
                "about 30 s CPU); certify build knuth --pegs 8 --colors 5 --first 00011122 builds it "
                "without a budget")
#: A refusal by a budget takes a fraction of a second; the bound leaves room for a loaded machine
#: (the CLI's start-up included).
QUICK = 10.0


def cli(tmp_path, fmt, path, *options):
    """(exit status, stderr, seconds) of `python -m certify import FMT PATH -o OUT` in a process."""
    start = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "certify", "import", fmt, str(path), "-o",
                          str(tmp_path / "out.json"), *map(str, options)],
                         capture_output=True, text=True, cwd=ROOT, timeout=120)
    took = time.monotonic() - start
    assert run.stdout == "" and "Traceback" not in run.stderr, run.stderr
    assert not (tmp_path / "out.json").exists()
    return run.returncode, run.stderr, took


def refused(fmt, raw: bytes, name="file", **options) -> str:
    """The ParseError import_certificate raises for ``raw``, checked to come quickly."""
    start = time.monotonic()
    with pytest.raises(ParseError) as caught:
        import_certificate(fmt, raw, name, **options)
    assert time.monotonic() - start < QUICK
    message = str(caught.value)
    assert "\n" not in message
    return message


@pytest.fixture
def no_game_tables(monkeypatch):
    """Fail the test if the game's tables (every code's colours) are made: a budget is checked
    before any work of the size of the game."""
    def made(self):
        raise AssertionError(f"the tables of {self} were made before the budget refused it")

    monkeypatch.setattr(Game, "digits", property(made))


# -- cuda-json: the run's rebuild ----------------------------------------------------------------


def test_the_113_byte_8x5_run_is_refused_by_its_size_from_the_command_line(tmp_path):
    path = tmp_path / "run-8p5c.json"
    path.write_bytes(RUN_8P5C)
    assert len(RUN_8P5C) == 113
    status, err, took = cli(tmp_path, "cuda-json", path)
    assert status == 2
    assert err == f"certify import: error: {path}: {REFUSAL_8P5C}\n"
    assert took < QUICK, f"{took:.1f} s"


def test_the_113_byte_8x5_run_is_refused_by_its_size_through_the_api(no_game_tables):
    assert refused("cuda-json", RUN_8P5C, "run-8p5c.json") == f"run-8p5c.json: {REFUSAL_8P5C}"


@pytest.mark.parametrize("pegs, colors, figure", [(8, 5, "6.87e+12"), (16, 2, "6.57e+11"), (5, 11, "5.45e+11"),
                                                  (6, 8, "1.92e+12"), (7, 6, "2.82e+12"), (11, 3, "2.45e+12")])
def test_runs_past_the_budget_are_refused_before_the_build(no_game_tables, pegs, colors, figure):
    """Games a real record could name, each past the budget (16x2 ran past 69 s unfinished)."""
    record = {"run": {"Pin Count": pegs, "Color Count": colors, "Strategy": "Entropy",
                      "Initial Guess": "1" * pegs}}
    message = refused("cuda-json", json.dumps([record]).encode())
    assert f"the game {pegs}x{colors} is too big to rebuild: {colors ** pegs:,} codes" in message
    assert f"= {figure}, past the budget of 4.00e+11" in message


@pytest.mark.parametrize("pegs, colors", [(6, 7), (5, 10), (7, 5), (8, 4), (10, 3), (15, 2), (5, 8), (4, 15)])
def test_runs_within_the_budget_go_on_to_the_build(monkeypatch, pegs, colors):
    """6x7 is the largest game of a real record (mikemag's knuth-6p7c, 30-35 s to import); the
    others are the costliest games under the budget (20-50 s measured, docs). The build itself is
    not run here: reaching it is what the budget allows."""
    import certify.strategies

    class Reached(Exception):
        pass

    def build(name):
        raise Reached(name)

    monkeypatch.setattr(certify.strategies, "get_strategy", build)
    record = {"run": {"Pin Count": pegs, "Color Count": colors, "Strategy": "Knuth",
                      "Initial Guess": "1" * pegs}}
    with pytest.raises(Reached):
        import_certificate("cuda-json", json.dumps([record]).encode(), "run.json")
    work, _ = importers._run_work(Game(pegs, colors))
    assert work <= importers.MAX_RUN_WORK


def test_the_real_6x7_run_is_within_the_budget():
    path = PEERS / "mikemag" / "mastermind_run_stats_knuth-6p7c.json"
    if not path.exists():
        pytest.skip(f"{path} is absent (repo not next to ../shared)")
    run = json.loads(path.read_text())[1]["run"]
    work, answers = importers._run_work(Game(run["Pin Count"], run["Color Count"]))
    assert (work, answers) == (117_649 ** 2 * 28, 28) and work <= importers.MAX_RUN_WORK < 1.04 * work


def test_numbers_too_long_to_read_are_refused_in_one_line(tmp_path):
    """Python refuses to read a whole number of more than 4,300 digits: a ValueError, which was a
    traceback, from a JSON number, a string of one, a DOT graph's name or a punch card's line."""
    digits = "9" * 5000
    cases = [
        ("cuda-json", f'[{{"run":{{"Pin Count":{digits},"Color Count":5}}}}]',
         "a number of more than 4,300 digits"),
        ("cuda-json", f'[{{"run":{{"Pin Count":"{digits}","Color Count":5}}}}]',
         "run 1: 'Pin Count' has 5,000 digits: more than any game needs"),
        ("cuda-dot", f'digraph Mastermind_Strategy_Knuth_{digits}p5c {{\nroot=a\na [label="11"]\n}}\n',
         "the graph name's number of pegs has 5,000 digits"),
        ("c-punchcard", f"--- XXX\n{digits} 1 012 --- 012\n", ":2: a line number has 5,000 digits"),
        ("c-punchcard", f"--- XXX\n000 {digits} 012 --- 012\n", ":2: a guess number has 5,000 digits"),
        ("c-punchcard", f"--- XXX\n000 1 012 >{digits} 012\n", ":2: '>9999"),
    ]
    for fmt, text, words in cases:
        assert words in refused(fmt, text.encode())
    path = tmp_path / "long.gv"
    path.write_text(cases[2][1])
    status, err, _ = cli(tmp_path, "cuda-dot", path)
    assert status == 2 and err.count("\n") == 1 and cases[2][2] in err


# -- the tree formats: the game a file implies, and the replay ---------------------------------------


TINY_GAMES = [
    # The CUDA dump's graph name says 8 pins, 5 colours: one guess for 390,625 codes.
    ("cuda-dot", 'digraph Mastermind_Strategy_Knuth_8p5c {\nroot=a\na [label="11122233"]\n}\n',
     "the game 8x5 has 390,625 codes, but the file's tree can find at most 1 secret (1 guess)"),
    # The C++ text's root count 1000000 is 10 colours, 6 pegs.
    ("cpp-text", "1000000 (111111: 0, 0, 0, 0, 0, 0, 0; 0, 0, 0, 0, 0, 0; 0, 0, 0, 0, 0; 0, 0, 0, 0; "
     "0, 0, 0; 0, 0; 0)\n", "the game 6x10 has 1,000,000 codes, but the file's tree can find at most 1 secret"),
    # Seven pegs, a repeated colour, six colours used: 279,936 codes.
    ("c-yaml", "- '0012345'\n- {XXXXXXX: '0012345'}\n", "the game 7x6 has 279,936 codes, but the file's tree"),
    ("c-punchcard", "------ XXXXXX\n000 1 001234 ------ 001234\n",
     "the game 6x5 has 15,625 codes, but the file's tree can find at most 1 secret"),
]


@pytest.mark.parametrize("fmt, text, words", TINY_GAMES)
def test_a_tiny_tree_naming_a_big_game_is_refused_before_the_game_is_made(no_game_tables, fmt, text, words):
    assert words in refused(fmt, text.encode())


def test_a_big_game_from_the_options_is_refused_by_the_tree_it_has(tmp_path):
    """The committed 3x3 punch card (11 guesses, 27 secrets) given --colors 36: 46,656 codes."""
    path = ROOT / "tests" / "data" / "import" / "knuth-3x3.cards"
    status, err, took = cli(tmp_path, "c-punchcard", path, "--colors", 36)
    assert status == 2 and err.count("\n") == 1 and took < QUICK
    assert "the game 3x36 has 46,656 codes, but the file's tree can find at most" in err


def test_a_code_of_many_pegs_is_refused_before_any_game_is_counted(no_game_tables):
    """A 1 MB code once made the importer count the codes of 70 candidate games of 10**6 pegs
    (12 s CPU); past 21 pegs every game is past the limit of 1,000,000 codes."""
    text = "5 (" + "1" * 1_000_000 + ")\n"
    assert "a game of 1,000,000 pegs has more than 1,000,000 codes" in refused("cpp-text", text.encode())


def chain_text(pegs: int, colors: int, depth: int, levels: int) -> str:
    """A C++ text tree whose first guess 11..1 is played again ``depth`` times down the answer (0,0)
    (every secret without colour 1 stays there), the first guess's other answers (k,0) holding
    trees of (G) guesses ``levels`` deep (one more under (1,0)): enough guesses to find every
    code, never reached, since the chain is replayed first."""
    def node(count, guess, entry, win):
        parts = []
        for black in range(pegs + 1):
            row = [win if black == pegs else entry(black, white) for white in range(pegs - black, -1, -1)
                   if (black, white) != (pegs - 1, 1)]
            parts.append(", ".join(row))
        return f"{count} ({guess}: " + "; ".join(parts) + ")"

    fillers = [f"2 ({'2' * pegs})"]
    for _ in range(levels + 1):
        fillers.append(node(5, "3" * pegs, lambda b, w, f=fillers[-1]: f, "0"))
    text = "0"
    for _ in range(depth - 1):
        text = node((colors - 1) ** pegs, "1" * pegs, lambda b, w, t=text: t if (b, w) == (0, 0) else "0", "0")
    def first(b, w):
        return text if (b, w) == (0, 0) else fillers[levels + (b == 1)] if w == 0 else "0"

    return node(colors ** pegs, "1" * pegs, first, "1") + "\n"


def test_a_chain_of_guesses_keeping_every_secret_is_stopped_by_the_replay_budget(tmp_path):
    """100 KB of C++ text for 5x8 (32,768 codes): 100 guesses in a row keep the 16,807 secrets
    without colour 1; the replay stops at its budget (2**20 secrets played) instead of playing 1.7
    million (for 6x10, 250 deep: 133 million, 4.5 s, from 1.1 MB)."""
    text = chain_text(5, 8, 100, 2)
    assert len(text) < 110_000
    message = refused("cpp-text", text.encode(), "chain.txt")
    assert message == ("chain.txt:1: the replay would play more than 1,048,576 secrets through the file's "
                       "guesses, the budget for the game 5x8 (32,768 codes; 16 guesses per code on average, "
                       "at least 1,048,576 in all; real trees take at most 6 per code)")
    path = tmp_path / "chain.txt"
    path.write_text(text)
    status, err, took = cli(tmp_path, "cpp-text", path)
    assert status == 2 and err == f"certify import: error: {path}:1: {message.split(':1: ', 1)[1]}\n"
    assert took < QUICK


def test_the_same_chain_one_short_of_the_budget_is_replayed_to_its_end():
    """60 guesses in the chain: 32,768 + 59 x 16,807 secrets played, under 2**20: the replay
    reaches the chain's end and names the secret it fails there (the budget refuses no more)."""
    with pytest.raises(importers.Mismatch, match="secret 22222: the guess 11111 after 11111 -"):
        import_certificate("cpp-text", chain_text(5, 8, 60, 2).encode(), "chain.txt")


# The real files of ../shared/data (the peers' outputs, the published tables) and what each gives:
# tests/test_import_shared.py.
