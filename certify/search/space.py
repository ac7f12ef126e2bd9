"""The search's view of a game: every feedback in one matrix, and permutations of codes.

A permutation P = (pegs sigma, colours tau) maps the code x to y with y[sigma[i]] = tau[x[i]]
(the proof format's convention); feedback(P x, P y) = feedback(x, y).
"""

from __future__ import annotations

import functools

import numpy as np

from ..errors import CertifyError
from ..game import Game

#: The search keeps the whole (codes x codes) feedback matrix, one byte a pair: 5040 codes are 25 MB,
#: 5x7 (16,807 codes) 282 MB, 5x8 (32,768) 1 GiB, 6x6 (46,656 codes, the limit) 2.2 GB.
MAX_SEARCH_CODES = 46_656
#: Without repetition, codes are looked up in :attr:`Space.vindex` (8 bytes a value below
#: colors^pegs: 5x9, 472 KB) up to this many values, by binary search beyond (8x8: 16.8 million).
MAX_VINDEX = 1 << 21


class Space:
    """Feedback matrix (uint8, symmetric), digits and code values of one game."""

    def __init__(self, game: Game) -> None:
        game.check_size()
        if game.size > MAX_SEARCH_CODES:
            raise CertifyError(f"game {game} has {game.size} codes: the exact search handles at most "
                               f"{MAX_SEARCH_CODES}")
        self.game = game
        self.n = game.size
        self.pegs, self.colors = game.pegs, game.colors
        every = np.arange(self.n, dtype=np.int64)
        self.fb = np.ascontiguousarray(game.feedback(every, every).astype(np.uint8))
        self.win = game.win
        self.n_fb = game.n_feedbacks
        self.digits = game.digits
        self.values = game._values
        self.keys = [game.key_text(f) for f in range(self.n_fb)]
        self.texts = game.texts(every)

    @functools.cached_property
    def pows(self) -> np.ndarray:
        """int64 weights of the pegs in a code's value: sum(digit[i] * pows[i]) (peg 0 first)."""
        p, c = self.pegs, self.colors
        return np.array([c ** (p - 1 - i) for i in range(p)], dtype=np.int64)

    @functools.cached_property
    def vindex(self) -> np.ndarray:
        """int64 code index of every value below colors^pegs, -1 where the value is no code of
        the game (a repeated colour without repetition): what compiled loops map images with."""
        out = np.full(self.colors ** self.pegs, -1, dtype=np.int64)
        out[self.values] = np.arange(self.n)
        return out

    def index_of(self, digits: np.ndarray) -> np.ndarray:
        """Code indices of rows of digits (every row a code of the game)."""
        value = np.zeros(len(digits), dtype=np.int64)
        for i in range(self.pegs):
            value = value * self.colors + digits[:, i]
        if self.game.repetition:
            return value
        if self.colors ** self.pegs <= MAX_VINDEX:  # a table look-up, not a binary search (same index)
            return self.vindex[value]
        return np.searchsorted(self.values, value)

    def image(self, pegs, colors) -> np.ndarray:
        """Index map of the permutation (pegs, colors) over every code."""
        tau = np.asarray(colors, dtype=np.uint8)
        moved = np.empty_like(self.digits)
        moved[:, list(pegs)] = tau[self.digits]
        return self.index_of(moved)


def compose(q, p):
    """The permutation 'p, then q' (each a (pegs, colors) pair of tuples)."""
    (qs, qt), (ps, pt) = q, p
    return tuple(qs[i] for i in ps), tuple(qt[a] for a in pt)


def inverse(p):
    s, t = p
    si = [0] * len(s)
    ti = [0] * len(t)
    for i, j in enumerate(s):
        si[j] = i
    for a, b in enumerate(t):
        ti[b] = a
    return tuple(si), tuple(ti)
