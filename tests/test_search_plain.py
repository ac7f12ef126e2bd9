"""The exact search against a second, deliberately plain implementation.

The plain one: codes as strings, feedback counted peg by peg, a recursive minimum over EVERY
code as the next guess (no symmetry, no pruning, no counting), memoised on the candidate set
only. It finishes in seconds on the smallest games, where both must agree exactly.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import pytest

from certify.game import Game
from certify.search.total import TotalSearch
from certify.search.worst import WorstSearch

ALPHABET = "0123456789"


def plain_codes(pegs, colors, repetition):
    digits = ALPHABET[:colors]
    if repetition:
        return tuple("".join(t) for t in itertools.product(digits, repeat=pegs))
    return tuple("".join(t) for t in itertools.permutations(digits, pegs))


def plain_feedback(guess, secret):
    black = sum(a == b for a, b in zip(guess, secret))
    common = sum(min(guess.count(ch), secret.count(ch)) for ch in set(guess))
    return black, common - black


def plain_classes(guess, secrets):
    """Non-winning classes of the split (None if the guess does not split the secrets)."""
    classes = {}
    for s in secrets:
        classes.setdefault(plain_feedback(guess, s), []).append(s)
    pegs = len(guess)
    rest = [frozenset(c) for f, c in classes.items() if f != (pegs, 0)]
    if len(rest) == 1 and len(rest[0]) == len(secrets):
        return None  # learns nothing: never part of an optimal strategy
    return rest


def plain_optima(pegs, colors, repetition, max_guesses=None):
    """(least worst case, least total, least total within max_guesses) by brute force."""
    worst, total, codes = _plain_search(pegs, colors, repetition)
    every = frozenset(codes)
    limit = max_guesses if max_guesses is not None else len(codes)
    return worst(every), total(every, len(codes)), total(every, limit)


@lru_cache(maxsize=None)
def _plain_search(pegs, colors, repetition):
    """(worst, total, codes): the plain search's memoised functions of one game, kept for the test
    process. Four test files ask for the optima of the same small games, and
    test_engine_optimum_is_the_plain_one three times per game and symmetry setting (within no
    limit, the least worst case and one more): each call searched the game again from nothing."""
    codes = plain_codes(pegs, colors, repetition)
    inf = float("inf")

    @lru_cache(maxsize=None)
    def worst(secrets):
        best = inf
        for g in codes:
            rest = plain_classes(g, secrets)
            if rest is not None:
                best = min(best, 1 + max((worst(c) for c in rest), default=0))
        return best

    @lru_cache(maxsize=None)
    def total(secrets, left):
        if left == 0:
            return inf
        best = inf
        for g in codes:
            rest = plain_classes(g, secrets)
            if rest is not None:
                best = min(best, len(secrets) + sum(total(c, left - 1) for c in rest))
        return best

    return worst, total, codes


#: Games where the plain search takes at most a few seconds.
SMALL = [(2, 2, True), (2, 3, True), (2, 4, True), (2, 5, True), (3, 2, True), (3, 3, True),
         (2, 3, False), (2, 4, False), (2, 5, False), (3, 3, False), (3, 4, False)]


@pytest.mark.parametrize("pegs,colors,repetition", SMALL)
def test_worst_case_agrees_with_plain_search(pegs, colors, repetition):
    plain = plain_optima(pegs, colors, repetition)[0]
    search = WorstSearch(Game(pegs, colors, repetition))
    every = search._every
    assert search.needs(every, plain)
    assert not search.needs(every, plain + 1)
    proof = search.prove(plain)
    assert proof["claims"] == {"worst_case": plain}
    assert search.prove(plain + 1) is None


@pytest.mark.parametrize("pegs,colors,repetition", SMALL)
def test_total_agrees_with_plain_search(pegs, colors, repetition):
    worst, total, _ = plain_optima(pegs, colors, repetition)
    search = TotalSearch(Game(pegs, colors, repetition))
    assert search.solve() == total
    cert = search.strategy_certificate()
    assert cert["claims"]["total_guesses"] == total
    assert search.prove()["claims"] == {"total": total}
    # Within the least worst case, and within one guess less (impossible: no strategy).
    _, _, within = plain_optima(pegs, colors, repetition, worst)
    limited = TotalSearch(Game(pegs, colors, repetition), worst)
    assert limited.solve() == within
    assert limited.strategy_certificate()["claims"]["max_guesses"] <= worst
    with pytest.raises(ValueError, match="no strategy solves"):
        TotalSearch(Game(pegs, colors, repetition), worst - 1).solve()


#: Goddard (2004), "Mastermind revisited", J. Combin. Math. Combin. Comput. 51: the least mean
#: number of guesses r(n, k), as quoted (3 decimals) in S. Pokutta, "Mastermind - five
#: questions do suffice" (blog, 2011). (pegs, colours): mean.
GODDARD = {(2, 2): 2.0, (3, 2): 2.250, (2, 3): 2.333, (3, 3): 2.704, (4, 3): 3.037,
           (2, 4): 2.813, (3, 4): 3.219, (4, 4): 3.535, (2, 5): 3.240, (3, 5): 3.608}


@pytest.mark.parametrize("pegs,colors", sorted(GODDARD))
def test_total_matches_goddard(pegs, colors):
    game = Game(pegs, colors)
    mean = TotalSearch(game).solve() / game.size
    assert abs(mean - GODDARD[pegs, colors]) <= 0.0005 + 1e-12  # 45/16 = 2.8125 is quoted 2.813


def test_plain_feedback_matches_the_published_examples():
    assert plain_feedback("2330", "3132") == (1, 2)
    assert plain_feedback("0401", "2412") == (1, 1)
    assert plain_feedback("0001", "0011") == (3, 0)
