"""Bounds on the worst case (max guesses) from Viaud 1987 (RAIRO Rech. Op. 21(1), 87-100).

Standard library only, so the report (which trusts only the verifier) can use it.

- ``f(n, x)``: the paper's function of section III, the cost measure of its subset search.
- ``viaud_bound(n, m)``: the expression of Proposition V.1 (guesses to *find* the code).
- ``viaud_max_guesses(n, m)``: that bound rounded down, plus the guess that shows the code
  (Remarque V.1); every ``viaud`` certificate must stay within it.
- ``q0(n, m)``: the lower bound of section VI, smallest q with 1 + p + ... + p^q >= m^n,
  p = n(n+3)/2 (the feedbacks possible with n pegs).
"""

from __future__ import annotations

import math

__all__ = ["f", "feedback_count", "q0", "viaud_bound", "viaud_max_guesses"]


def f(n: float, x: float) -> float:
    """Section III: x log2(2n/x) for x <= n/2, (n-x) log2(2n/(n-x)) above, 0 at x = 0 or n."""
    if x <= 0 or x >= n:
        return 0.0
    y = x if x <= n / 2 else n - x
    return y * math.log2(2 * n / y)


def viaud_bound(n: int, m: int) -> float:
    """Proposition V.1: m/n + 2n log2 n + 2n + 1 if m > n, n log2 2m if m <= n."""
    if m > n:
        return m / n + 2 * n * math.log2(n) + 2 * n + 1
    return n * math.log2(2 * m)


def _floor_bound(n: int, m: int) -> int:
    """floor(viaud_bound(n, m)), computed exactly with integers (no rounding at integer values)."""
    if m <= n:
        # largest k with 2^k <= (2m)^n
        return ((2 * m) ** n).bit_length() - 1
    # largest k with k <= m/n + 2n log2 n + 2n + 1, i.e. 2^(n(k - 2n - 1) - m) <= n^(2n^2)
    k = math.floor(viaud_bound(n, m)) + 2
    while True:
        e = n * (k - 2 * n - 1) - m
        if e < 0 or (1 << e) <= n ** (2 * n * n):
            return k
        k -= 1


def viaud_max_guesses(n: int, m: int) -> int:
    """Max guesses Proposition V.1 allows, counting the final guess that shows the code."""
    return _floor_bound(n, m) + 1


def feedback_count(n: int) -> int:
    """p = n(n+3)/2: pairs (black, white) with black + white <= n, less the impossible (n-1, 1)."""
    return n * (n + 3) // 2


def q0(n: int, m: int, codes: int | None = None, answers: int | None = None) -> int:
    """Section VI: smallest q with 1 + p + ... + p^q >= m^n (or ``codes`` when given).

    A tree whose j-th level holds at most p^(j-1) guesses finds at most 1 + p + ... + p^(K-1)
    secrets within K guesses, so every strategy needs at least q0 + 1 guesses (counting the
    one that wins) on some secret.
    """
    target = m**n if codes is None else codes
    p = feedback_count(n) if answers is None else answers  # black-only: n + 1 answers
    q, total, power = 0, 1, 1
    while total < target:
        q += 1
        power *= p
        total += power
    return q
