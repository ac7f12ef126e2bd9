"""Strategies that scan the codes in code order: ``consistent-first`` and ``last-guess``.

Both open with a fixed first guess, a parameter (``--first``). The default is the
published one for 4x6, 0011, generalised by :func:`default_first`.
"""

from __future__ import annotations

import numpy as np

from ..game import ALPHABET, Game
from .base import Strategy


def default_first(game: Game) -> str:
    """The 0011-like opening: the lowest code in code order that splits its pegs as evenly as
    possible between two colours, i.e. ceil(p/2) zeros then ones (3x*: 001, 4x*: 0011,
    5x*: 00011). Without repetition such a code does not exist; the opening is then the
    first code, 0123..., which is what the rule itself would play."""
    p = game.pegs
    if not game.repetition:
        return ALPHABET[:p]
    zeros = (p + 1) // 2
    return "0" * zeros + "1" * (p - zeros)


class _FixedOpening(Strategy):
    """A strategy whose first guess is a parameter with a default; it always goes into params."""

    def __init__(self, game: Game, first: str | None = None) -> None:
        super().__init__(game, first)
        if self.first is None:
            self.first = game.parse(default_first(game))

    def params(self) -> dict:
        return {"first": self.game.text(self.first)}


class ConsistentFirst(_FixedOpening):
    id = "consistent-first"
    description = ("First code in code order consistent with all feedback; opens with --first "
                   "(default 0011, generally ceil(p/2) zeros then ones)")
    reference = "Bernard Langer, Mastermind : des preuves par ordinateur, Bulletin de l'APMEP n° 503 (2013), section 2.3"

    def pick(self, candidates, history):
        # The builder passes the candidates sorted in code order.
        return int(candidates[0])


class LastGuess(_FixedOpening):
    """Elimination against the last answer only, scanning the codes in code order (wrapping).

    The next guess depends only on (last guess, its answer, whether it was the opening), so
    the choice is memoised on that triple; the builder asks the same question many times.
    """

    id = "last-guess"
    description = ("Next code after the last guess in code order (wrapping) that gives the last "
                   "answer against it; opens like consistent-first")
    reference = "Arnauld, TIPE study of Mastermind strategies, 'Force brute'"

    def __init__(self, game: Game, first: str | None = None) -> None:
        super().__init__(game, first)
        self._memo: dict[tuple[int, int, bool], int] = {}

    def pick(self, candidates, history):
        guess, answer = history[-1]
        opening = len(history) == 1
        key = (guess, answer, opening)
        nxt = self._memo.get(key)
        if nxt is None:
            row = self.game.feedback([guess], np.arange(self.game.size))[0]
            matches = np.flatnonzero(row == answer)  # never empty: the secret itself matches
            # The very first scan starts at the first code; later ones just after the guess.
            start = 0 if opening else guess + 1
            at = int(np.searchsorted(matches, start))
            nxt = int(matches[at]) if at < len(matches) else int(matches[0])
            self._memo[key] = nxt
        return nxt
