"""Counting bounds, the very formulas the checker computes (docs/lower-bound-format.md).

b = how many non-winning feedbacks the game allows: (B, W) with B + W <= p, less (p-1, 1)
and (p, 0); without repetition also B + W >= 2p - c (two codes of p distinct colours out of c
share at least 2p - c colours); under the black-only rule b = p (B from 0 to p - 1). One guess
wins at most 1 secret and splits the rest into at most b classes, so k guesses settle at most
N(k) = 1 + b + ... + b^(k-1) secrets.

The search may only ever rely on a bound the checker also computes: a stronger one here
would write proofs the checker rejects.
"""

from __future__ import annotations


def nonwinning_feedbacks(pegs: int, colors: int, repetition: bool, black_only: bool = False) -> int:
    if black_only:
        return pegs
    low = 0 if repetition else max(0, 2 * pegs - colors)
    return sum(1 for b in range(pegs + 1) for w in range(pegs + 1 - b)
               if low <= b + w and (b, w) not in ((pegs - 1, 1), (pegs, 0)))


class Counting:
    """N(k), the worst-case bound and the total bound for one game."""

    def __init__(self, pegs: int, colors: int, repetition: bool, black_only: bool = False) -> None:
        self.b = nonwinning_feedbacks(pegs, colors, repetition, black_only)  # >= 1: (0, 0) or another
        self.solved = [0]  # solved[k] = N(k)
        self._total: dict[int, int] = {}

    def N(self, k: int) -> int:
        """The most secrets any strategy settles within k guesses."""
        while k >= len(self.solved):
            self.solved.append(self.solved[-1] + self.b ** (len(self.solved) - 1))
        return self.solved[k]

    def worst(self, n: int) -> int:
        """Least k with N(k) >= n: guesses some secret of n needs (0 for none)."""
        k = 0
        while self.N(k) < n:
            k += 1
        return k

    def total(self, n: int) -> int:
        """Least possible total of guesses for n secrets: 1 at depth 1, b at depth 2, b^2 at 3..."""
        found = self._total.get(n)
        if found is not None:
            return found
        out, left, depth, level = 0, n, 1, 1
        while left > 0:
            take = min(left, level)
            out += take * depth
            left -= take
            depth += 1
            level *= self.b
        self._total[n] = out
        return out
