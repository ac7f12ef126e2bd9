"""consistent-first, last-guess and greenwell follow their rules on games beyond 4x6.

The trees are checked by the independent verifier, then walked with the verifier's own
code list and feedback rule to confirm that every guess is the one the reference's rule names.
"""

from __future__ import annotations

import pytest

from certify import verify
from certify.__main__ import main
from certify.build import build_tree
from certify.certificate import dumps, make_certificate
from certify.errors import CertifyError
from certify.game import Game
from certify.strategies import Strategy, get_strategy
from certify.strategies.simple import default_first

GAMES = [Game(3, 3), Game(4, 4), Game(3, 5, repetition=False), Game(2, 6)]


def certified(strategy) -> dict:
    cert = make_certificate(strategy)
    report = verify.verify_bytes(dumps(cert), strategy.id)
    assert report.valid, report.error
    return cert


def walk(cert, codes):
    """Yield (guess, path, candidates) for every node; path is [(guess, (black, white)), ...]
    and candidates are the codes consistent with it, in code order."""
    stack = [(cert["tree"], (), codes)]
    while stack:
        node, path, candidates = stack.pop()
        guess = node["guess"]
        yield guess, path, candidates
        for key, child in node.get("next", {}).items():
            fb = tuple(map(int, key.split(",")))
            rest = [c for c in candidates if verify.feedback(guess, c) == fb]
            stack.append((child, path + ((guess, fb),), rest))


def all_codes(game: Game) -> list[str]:
    return verify.codes(game.pegs, game.colors, game.repetition)


@pytest.mark.parametrize("game,first", [(Game(4, 6), "0011"), (Game(4, 7), "0011"), (Game(3, 3), "001"),
                                        (Game(5, 8), "00011"), (Game(1, 2), "0"),
                                        (Game(4, 10, repetition=False), "0123")])
def test_default_first(game, first):
    assert default_first(game) == first
    assert get_strategy("consistent-first")(game).params() == {"first": first}


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_consistent_first_plays_the_first_candidate(game):
    cert = certified(get_strategy("consistent-first")(game))
    for guess, path, candidates in walk(cert, all_codes(game)):
        assert guess == (candidates[0] if path else default_first(game))


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_last_guess_scans_from_the_last_guess(game):
    cert = certified(get_strategy("last-guess")(game))
    codes = all_codes(game)
    for guess, path, _ in walk(cert, codes):
        if not path:
            assert guess == default_first(game)
            continue
        last, answer = path[-1]
        start = 0 if len(path) == 1 else codes.index(last) + 1
        scan = codes[start:] + codes[:start]
        assert guess == next(c for c in scan if verify.feedback(last, c) == answer)


def test_first_overrides_the_opening():
    cert = certified(get_strategy("consistent-first")(Game(4, 6), first="0123"))
    assert cert["tree"]["guess"] == "0123"
    assert cert["strategy"]["params"] == {"first": "0123"}


def test_greenwell_plays_its_sequence_then_the_last_candidate():
    game = Game(4, 6)
    cert = certified(get_strategy("greenwell")(game))
    sequence = cert["strategy"]["params"]["sequence"]
    assert sequence == ["0110", "1243", "2200", "3413", "4545", "5532"]
    for guess, path, candidates in walk(cert, all_codes(game)):
        if path and len(candidates) == 1:
            assert guess == candidates[0]
        else:
            assert guess == sequence[len(path)]


def test_greenwell_takes_a_sequence_on_other_games(capsys, tmp_path):
    out = tmp_path / "g.json"
    assert main(["build", "greenwell", "--pegs", "2", "--colors", "3", "--sequence", "02, 12",
                 "-q", "-o", str(out)]) == 0
    report = verify.verify_file(str(out))
    assert report.valid, report.error
    assert report.strategy["params"] == {"sequence": ["02", "12"]}


def run_error(capsys, argv) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    return err


def test_greenwell_refusals(capsys, tmp_path):
    out = str(tmp_path / "x.json")
    err = run_error(capsys, ["build", "greenwell", "--pegs", "3", "--colors", "3", "-q", "-o", out])
    assert "--sequence" in err and "3x3" in err
    err = run_error(capsys, ["build", "greenwell", "--sequence", "0000,1111", "-q", "-o", out])
    assert "does not determine every secret" in err
    # The two secrets named really do get the same answers to the whole sequence.
    a, b = err.split(": ")[-1].split(" get the same")[0].split(" and ")
    assert a != b and all(verify.feedback(g, a) == verify.feedback(g, b) for g in ("0000", "1111"))
    assert "code 2" in run_error(capsys, ["build", "greenwell", "--sequence", "0110,1263", "-o", out])
    assert "repeats" in run_error(capsys, ["build", "greenwell", "--sequence", "0110,0110", "-o", out])
    assert "--first" in run_error(capsys, ["build", "greenwell", "--first", "0011", "-o", out])
    assert "--sequence" in run_error(capsys, ["build", "knuth", "--sequence", "0110", "-o", out])
    assert not (tmp_path / "x.json").exists()


def test_builder_stops_a_looping_strategy():
    class Stubborn(Strategy):
        id = "stubborn"

        def pick(self, candidates, history):
            return 0  # never moves on: secrets other than 000 are never found

    with pytest.raises(CertifyError, match="after 200 guesses"):
        build_tree(Stubborn(Game(3, 3)))
