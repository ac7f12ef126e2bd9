"""Cross-check: the verifier's feedback rule (mark exact matches, then pair the rest peg by
peg) against the builder's vectorised colour-count formula, on every pair of codes of
several games, plus the reference's worked examples."""

from __future__ import annotations

import random

import numpy as np
import pytest

from certify import verify
from certify.game import Game


def _pairs_agree(game: Game, guesses, secrets) -> set:
    codes = verify.codes(game.pegs, game.colors, game.repetition)
    assert codes == game.texts(np.arange(game.size))  # same codes, same order
    table = game.feedback(guesses, secrets)
    seen = set()
    scale = game.pegs + 1
    for i, g in enumerate(guesses):
        row = table[i].tolist()
        gt = codes[g]
        for j, s in enumerate(secrets):
            fb = verify.feedback(gt, codes[s])
            assert fb[0] * scale + fb[1] == row[j], (gt, codes[s], fb, game.decode(row[j]))
            seen.add(fb)
    return seen


@pytest.mark.parametrize("game", [Game(4, 6), Game(3, 5), Game(5, 3), Game(2, 8), Game(4, 5, False),
                                  Game(1, 2), Game(3, 3, False)], ids=str)
def test_feedback_rules_agree_on_every_pair(game):
    everything = list(range(game.size))
    seen = _pairs_agree(game, everything, everything)
    p = game.pegs
    assert (p - 1, 1) not in seen
    assert (p, 0) in seen
    if game.repetition:  # every other (b, w) with b + w <= p occurs
        assert len(seen) == (p + 1) * (p + 2) // 2 - 1
    if game.key() == (4, 6, True):
        assert len(seen) == 14


def test_feedback_rules_agree_on_a_sample_of_3x36():
    game = Game(3, 36)
    rng = random.Random(36)
    guesses = sorted(rng.sample(range(game.size), 60))
    secrets = sorted(rng.sample(range(game.size), 2000))
    _pairs_agree(game, guesses, secrets)


@pytest.mark.parametrize("secret, guess, expected", [
    ("3132", "2330", (1, 2)),
    ("2412", "0401", (1, 1)),
    ("0011", "0001", (3, 0)),  # the third 0 of the guess earns nothing
])
def test_reference_worked_examples(secret, guess, expected):
    assert verify.feedback(guess, secret) == expected
    assert verify.feedback(secret, guess) == expected  # symmetric
    assert Game(4, 6).feedback_pair(guess, secret) == expected


def test_fourteen_feedbacks_with_four_pegs_and_never_three_one():
    for colors in (2, 3, 6, 8):
        game = Game(4, colors)
        codes = verify.codes(4, colors, True)
        seen = {verify.feedback(a, b) for a in codes[:: max(1, len(codes) // 80)] for b in codes}
        assert (3, 1) not in seen
        if colors >= 4:
            assert len(seen) == 14
        assert seen == {game.decode(v) for v in np.unique(game.feedback(
            np.arange(0, game.size, max(1, game.size // 80)), np.arange(game.size)))}
