"""The compiled weighted search (certify/search/wengine.py): its least weighted totals equal the
exhaustive oracle's (tests/bound_reference.py, written independently) on small games with random
weights per orbit, its trees reach them, and on 4x6 it meets the plain search (all weights 1:
5625; the one-colour codes at 0: 5600, the codemaker's side of the claimed game value)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import bound_reference as ref
from certify.game import Game
from certify.search.wengine import WeightedSearch


def _weights(game, per_orbit):
    return [per_orbit[ref.orbit_of(game.text(i))] for i in range(game.size)]


def _depths(game, tree):
    """Guesses the tree needs for each code it finds, replayed with the reference's feedback."""
    codes = [game.text(i) for i in range(game.size)]
    fb = ref.Feedback(codes, game.colors)
    out = {}
    stack = [(tree, codes, 1)]
    while stack:
        node, S, d = stack.pop()
        g = node["guess"]
        if g in S:
            out[g] = d
        for key, child in node.get("next", {}).items():
            b, w = map(int, key.split(","))
            stack.append((child, [s for s in S if fb(g, s) == (b, w)], d + 1))
    return out


@pytest.mark.parametrize("pegs,colors", [(2, 3), (3, 2), (2, 4), (3, 3), (2, 5), (4, 2)])
def test_weighted_optima_and_trees_meet_the_oracle(pegs, colors):
    rng = random.Random(pegs * 10 + colors)
    game = Game(pegs, colors, True)
    orbits = sorted({ref.orbit_of(game.text(i)) for i in range(game.size)})
    for _ in range(4):
        per_orbit = {o: rng.randint(0, 7) for o in orbits}
        if not any(per_orbit.values()):
            per_orbit[orbits[0]] = 1
        w = _weights(game, per_orbit)
        weights = {game.text(i): w[i] for i in range(game.size)}
        support = frozenset(c for c, x in weights.items() if x)
        truth = ref.optimum(pegs, colors, True, support, "weighted", weights=weights)
        search = WeightedSearch(game, w)
        assert search.value() == truth, per_orbit
        depths = _depths(game, search.tree())
        assert set(depths) >= support
        assert sum(weights[c] * depths[c] for c in support) == truth


def test_4x6_meets_the_plain_search():
    game = Game(4, 6, True)
    every = WeightedSearch(game, [1] * game.size)
    assert every.value() == 5625
    w = [0 if len(set(game.text(i))) == 1 else 1 for i in range(game.size)]
    assert WeightedSearch(game, w).value() == 5600


def test_weights_must_be_constant_on_orbits():
    game = Game(2, 3, True)
    w = [1] * game.size
    w[1] = 2  # 01 alone: its orbit (01, 02, 10, ...) is split
    with pytest.raises(ValueError, match="constant on the orbits"):
        WeightedSearch(game, w)
    with pytest.raises(ValueError, match="every weight is 0"):
        WeightedSearch(game, [0] * game.size)
    with pytest.raises(ValueError, match="too large"):
        WeightedSearch(game, [1 << 60] * game.size)
