"""The most-parts loop of certify.strategies.bitkernel (parts_scores: bounds from the guess's
colours, then from its black counts, before the classes themselves) returns what the pair
loops of certify.strategies.kernel return: the same scores, the same +inf."""

from __future__ import annotations

import numpy as np
import pytest

from certify.game import Game
from certify.strategies.partition import partition_counts

GAMES = [Game(5, 4), Game(4, 6, False), Game(6, 3), Game(7, 2), Game(2, 12), Game(3, 9, False),
         Game(4, 7), Game(5, 8)]


def _loops(kern, kernel, guesses, candidates, limit):
    """The pair loops' answer (the reference)."""
    n = len(candidates)
    floor = kernel.least_score(kernel.PARTS, n, kern.pegs)
    ckeys = np.ascontiguousarray(kern.keys[candidates].T)
    out = np.empty(len(guesses))
    ref = kern.reference(n)
    kernel._scores(kern.flat, kern.rows, ckeys, guesses, kern.n_fb, kernel.PARTS, float(limit), floor,
                   0.0, np.zeros(n + 2), ref[0], ref[1], out)
    return out


@pytest.mark.parametrize("game", GAMES, ids=str)
def test_most_parts_loop_returns_what_the_pair_loops_return(game):
    from certify.strategies import kernel

    kern = kernel.Kernel(game)
    assert kern._parts_tables() is not None
    rng = np.random.default_rng(game.size + 7)
    sizes = sorted({1, 2, 3, 5, 9, 15, 17, 40, 64, 65, 130, min(game.size, 300)})
    for n in sizes:
        n = min(n, game.size)
        for trial in range(3):
            candidates = np.sort(rng.choice(game.size, size=n, replace=False))
            guesses = np.sort(rng.choice(game.size, size=min(600, game.size), replace=False))
            if trial == 1:  # the candidates among the guesses, as the strategy asks
                guesses = np.union1d(guesses, candidates)
            if trial == 2:  # not in code order: the number needed rises in steps
                guesses = rng.permutation(guesses)
            parts = (partition_counts(game, guesses, candidates) > 0).sum(axis=1)
            best = int(parts.max())
            for limit in (np.inf, -best + 2, -best + 1, -best, -best - 1, -1, 0):
                where = f"{game} n={n} trial={trial} limit={limit}"
                expect = _loops(kern, kernel, guesses, candidates, limit)
                got = kern.scores(kernel.PARTS, guesses, candidates, limit)
                assert np.array_equal(got, expect), where
                finite = np.isfinite(got)
                assert np.array_equal(-got[finite], parts[finite]), where
                if np.isinf(limit):  # the first guess of the most classes comes back last
                    assert -got[finite][-1] == best, where


def test_multisets_name_the_colours_of_each_code():
    from certify.strategies import bitkernel

    game = Game(4, 5)
    index, count = bitkernel.multisets(game)
    texts = game.texts(np.arange(game.size))
    keys = ["".join(sorted(t)) for t in texts]
    assert count == len(set(keys)) == 70  # C(5 + 4 - 1, 4)
    first = {}
    for k, i in zip(keys, index.tolist()):
        assert first.setdefault(k, i) == i
    assert len(set(first.values())) == count
