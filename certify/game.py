"""The game: codes, their text form, and the builder's (vectorised) feedback.

A code is stored as its index in *code order* (codes read as base-c numbers,
first peg most significant; without repetition the order is the same, restricted
to codes with distinct colours). Feedback (black, white) is encoded as the small
integer ``black * (pegs + 1) + white`` so that partitions can be counted with
``np.bincount``.
"""

from __future__ import annotations

import itertools
from functools import cached_property

import numpy as np

from .errors import CertifyError

ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
MAX_COLORS = len(ALPHABET)
#: The builder refuses games with more codes than this: the same limit as the verifier's, so that
#: everything the builder writes can be checked independently.
MAX_CODES = 1_000_000

__all__ = ["ALPHABET", "Game", "MAX_CODES", "MAX_COLORS"]


def _count_codes(pegs: int, colors: int, repetition: bool) -> int:
    if repetition:
        return colors**pegs
    n = 1
    for k in range(pegs):
        n *= colors - k
    return n


class Game:
    """A Mastermind variant: ``pegs`` positions, ``colors`` colours, with or without repetition."""

    __slots__ = ("pegs", "colors", "repetition", "__dict__")

    def __init__(self, pegs: int, colors: int, repetition: bool = True) -> None:
        if isinstance(pegs, bool) or not isinstance(pegs, int) or pegs < 1:
            raise CertifyError(f"pegs must be an integer >= 1, got {pegs!r}")
        if isinstance(colors, bool) or not isinstance(colors, int) or not 2 <= colors <= MAX_COLORS:
            raise CertifyError(f"colors must be an integer from 2 to {MAX_COLORS}, got {colors!r}")
        if not repetition and pegs > colors:
            raise CertifyError(
                f"a game without repetition needs pegs <= colors, got {pegs} pegs and {colors} colors"
            )
        self.pegs = pegs
        self.colors = colors
        self.repetition = bool(repetition)

    def __repr__(self) -> str:
        rep = "" if self.repetition else ", repetition=False"
        return f"Game(pegs={self.pegs}, colors={self.colors}{rep})"

    def __str__(self) -> str:
        return f"{self.pegs}x{self.colors}" + ("" if self.repetition else " without repetition")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def key(self) -> tuple[int, int, bool]:
        return (self.pegs, self.colors, self.repetition)

    @property
    def slug(self) -> str:
        """Short file-name form: ``4x6``, ``4x10-norep``."""
        return f"{self.pegs}x{self.colors}" + ("" if self.repetition else "-norep")

    def to_json(self) -> dict:
        return {"pegs": self.pegs, "colors": self.colors, "repetition": self.repetition}

    # -- codes ---------------------------------------------------------------

    @property
    def size(self) -> int:
        """Number of codes of the game."""
        return _count_codes(self.pegs, self.colors, self.repetition)

    def check_size(self) -> None:
        # 2**21 > MAX_CODES: beyond 21 pegs, do not even compute the (possibly astronomical) size.
        if self.pegs > 21 or self.size > MAX_CODES:
            size = f"{self.size}" if self.pegs <= 64 else f"more than 10^{int(self.pegs * 0.301)}"
            raise CertifyError(
                f"game {self} has {size} codes, more than the builder's limit of {MAX_CODES}"
            )

    @cached_property
    def digits(self) -> np.ndarray:
        """(size, pegs) uint8 array: the colours of every code, in code order."""
        self.check_size()
        p, c = self.pegs, self.colors
        if self.repetition:
            n = np.arange(c**p, dtype=np.int64)
            out = np.empty((c**p, p), dtype=np.uint8)
            for i in range(p - 1, -1, -1):
                out[:, i] = n % c
                n //= c
            return out
        rows = list(itertools.permutations(range(c), p))  # lexicographic == code order
        return np.array(rows, dtype=np.uint8).reshape(len(rows), p)

    @cached_property
    def counts(self) -> np.ndarray:
        """(size, colors) uint8 array: how often each colour occurs in each code."""
        d = self.digits
        out = np.zeros((len(d), self.colors), dtype=np.uint8)
        for i in range(self.pegs):
            out[np.arange(len(d)), d[:, i]] += 1
        return out

    @cached_property
    def _values(self) -> np.ndarray:
        """Base-c value of every code (sorted, since codes are in code order)."""
        v = np.zeros(len(self.digits), dtype=np.int64)
        for i in range(self.pegs):
            v = v * self.colors + self.digits[:, i]
        return v

    def parse(self, text: str) -> int:
        """Index of the code written ``text``; CertifyError if it is not a code of this game."""
        if not isinstance(text, str):
            raise CertifyError(f"a code must be a string, got {text!r}")
        if len(text) != self.pegs:
            raise CertifyError(f"{text!r} is not a code of {self}: it needs {self.pegs} pegs")
        value = 0
        for ch in text:
            k = ALPHABET.find(ch.lower()) if ch.isascii() else -1
            if not 0 <= k < self.colors:
                raise CertifyError(
                    f"{text!r} is not a code of {self}: colour {ch!r} is not one of "
                    f"{ALPHABET[0]}..{ALPHABET[self.colors - 1]}"
                )
            value = value * self.colors + k
        if not self.repetition and len(set(text.lower())) != len(text):
            raise CertifyError(f"{text!r} is not a code of {self}: a colour is repeated")
        if self.repetition:
            return value
        return int(np.searchsorted(self._values, value))

    def text(self, index: int) -> str:
        """Text form of the code with this index."""
        return "".join(ALPHABET[k] for k in self.digits[index])

    def texts(self, indices) -> list[str]:
        table = np.frombuffer(ALPHABET.encode(), dtype=np.uint8)
        chars = table[self.digits[np.asarray(indices, dtype=np.int64)]]
        return [row.tobytes().decode() for row in chars]

    # -- feedback --------------------------------------------------------------

    @property
    def win(self) -> int:
        """Encoded feedback of a win: (pegs, 0)."""
        return self.pegs * (self.pegs + 1)

    @property
    def fb_dtype(self):
        """Smallest unsigned dtype that holds every encoded feedback."""
        return np.uint8 if self.n_feedbacks <= 256 else np.uint16

    @property
    def n_feedbacks(self) -> int:
        """Size of the encoded feedback range (some values never occur)."""
        return (self.pegs + 1) ** 2

    def encode(self, black: int, white: int) -> int:
        return black * (self.pegs + 1) + white

    def decode(self, fb: int) -> tuple[int, int]:
        return divmod(int(fb), self.pegs + 1)

    def feedback(self, guesses, secrets) -> np.ndarray:
        """Encoded feedback of every guess against every secret: (len(guesses), len(secrets)).

        black = equal pegs; black + white = sum over colours of min(counts).
        Work is done in blocks of guesses to bound the temporary arrays.
        """
        g = np.atleast_1d(np.asarray(guesses, dtype=np.int64))
        s = np.atleast_1d(np.asarray(secrets, dtype=np.int64))
        dg, ds = self.digits[g], self.digits[s]
        cg, cs = self.counts[g], self.counts[s]
        dt = self.fb_dtype
        out = np.empty((len(g), len(s)), dtype=dt)
        width = max(self.pegs, self.colors)
        block = max(1, 4_000_000 // max(1, len(s) * width))
        scale = self.pegs + 1
        for lo in range(0, len(g), block):
            hi = lo + block
            black = (dg[lo:hi, None, :] == ds[None, :, :]).sum(axis=2, dtype=dt)
            total = np.minimum(cg[lo:hi, None, :], cs[None, :, :]).sum(axis=2, dtype=dt)
            out[lo:hi] = black * (scale - 1) + total  # b*(p+1) + (total - b)
        return out

    def feedback_pair(self, a: str, b: str) -> tuple[int, int]:
        """(black, white) of two codes given as text."""
        return self.decode(self.feedback([self.parse(a)], [self.parse(b)])[0, 0])
