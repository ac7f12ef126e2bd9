"""The one-step look-ahead family: score every guess by how it splits the candidates.

Every rule here picks the guess of best score; ties go to a candidate, then to the
lowest code (the reference's "ties as knuth"), except where the rule says otherwise.
"""

from __future__ import annotations

import math

import numpy as np

from .base import Strategy
from .partition import partition_counts


def _first_best(keys: np.ndarray, guesses: np.ndarray) -> int:
    """Lowest-index guess among those of least key (``guesses`` is in code order)."""
    return int(guesses[int(np.argmin(keys))])


class Scored(Strategy):
    """Score all codes (or only the candidates); least score wins, then candidate, then code order."""

    over_candidates_only = False
    prefer_candidates = True

    def score(self, counts: np.ndarray, n_candidates: int) -> np.ndarray:
        """Integer score per guess, lower is better."""
        raise NotImplementedError

    def pick(self, candidates, history):
        if len(candidates) == 1:
            return int(candidates[0])
        game = self.game
        guesses = candidates if self.over_candidates_only else np.arange(game.size)
        counts = partition_counts(game, guesses, candidates)
        keys = self.score(counts, len(candidates)).astype(np.int64)
        if self.prefer_candidates and not self.over_candidates_only:
            not_candidate = np.ones(len(guesses), dtype=np.int64)
            not_candidate[candidates] = 0
            keys = keys * 2 + not_candidate
        return _first_best(keys, guesses)


class Knuth(Scored):
    id = "knuth"
    description = "Knuth's five-guess minimax: least worst-case class over all codes, candidates first"
    reference = "D. E. Knuth (1977), The computer as master mind, J. Recreational Mathematics 9(1), 1-6"

    def score(self, counts, n):
        return counts.max(axis=1)


class MinimaxLowest(Knuth):
    id = "minimax-lowest"
    description = "Minimax over all codes, first code of least weight, no preference for candidates"
    reference = "J.-F. Langer (2013), Le Mastermind, APMEP, section 3.3"
    prefer_candidates = False


class MinimaxCandidates(Knuth):
    id = "minimax-candidates"
    description = "Minimax restricted to the candidates ('six-guess'): first candidate of least weight"
    reference = "Arnauld, TIPE study of Mastermind strategies, 'Six-Guess'"
    over_candidates_only = True


class ExpectedSize(Scored):
    id = "expected-size"
    description = "Irving: least expected class size (sum of squared class sizes) over all codes"
    reference = "R. W. Irving (1978), Towards an optimum Mastermind strategy, J. Recreational Mathematics 11(2), 81-87"

    def score(self, counts, n):
        # sum(n_i^2) / n, and n is the same for every guess: compare the integer numerator.
        return (counts * counts).sum(axis=1)


class MostParts(Scored):
    id = "most-parts"
    description = "Kooi: most non-empty classes over all codes"
    reference = "B. Kooi (2005), Yet another Mastermind strategy, ICGA Journal 28(1), 13-20"

    def score(self, counts, n):
        return -(counts > 0).sum(axis=1)


class Entropy(Scored):
    """Greatest entropy of the class sizes, compared exactly.

    With n candidates, entropy = log n - (1/n) * sum n_i log n_i, so the best guess has the
    least sum n_i log n_i = log prod n_i^n_i. Floats rank the guesses; any guesses within
    rounding distance of the best are then compared exactly on the integer prod n_i^n_i,
    so rounding can neither invent a tie nor break one.
    """

    id = "entropy"
    description = "Neuwirth: greatest entropy of the class sizes over all codes (compared exactly)"
    reference = "E. Neuwirth (1982), Some strategies for Mastermind, Zeitschrift fuer Operations Research 26, B257-B278"

    def score(self, counts, n):
        table = np.zeros(n + 1)
        k = np.arange(1, n + 1)
        table[1:] = k * np.log2(k)
        # Sum in a canonical order (sorted sizes) so equal multisets give equal floats.
        x = table[np.sort(counts, axis=1)].sum(axis=1)
        best = x.min()
        near = np.flatnonzero(x <= best + 1e-9 * max(1.0, abs(best)))
        rank = np.full(len(x), len(near), dtype=np.int64)  # everything else ranks after
        if len(near) == 1:
            rank[near] = 0
            return rank
        rows = np.sort(counts[near], axis=1)
        uniq, inverse = np.unique(rows, axis=0, return_inverse=True)
        exact = [math.prod(int(c) ** int(c) for c in row if c > 1) for row in uniq]
        order = sorted(set(exact))
        position = {v: i for i, v in enumerate(order)}
        rank[near] = [position[exact[j]] for j in np.ravel(inverse)]
        return rank
