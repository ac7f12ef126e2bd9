"""The game: codes, their text form, and the builder's (vectorised) feedback.

A code is stored as its index in *code order* (codes read as base-c numbers,
first peg most significant; without repetition the order is the same, restricted
to codes with distinct colours). Feedback (black, white) is encoded as the small
integer ``black * (pegs + 1) + white`` so that partitions can be counted with
``np.bincount``.

The feedback rule is part of the game: ``black-white`` (the classic answer, the default) or
``black-only`` (only the number of right colours in the right place: white is always 0, so the
encoding, the win and every partition loop stay the same; a tree's keys are then "B", not "B,W").
"""

from __future__ import annotations

import itertools
import math
from functools import cached_property

import numpy as np

from .errors import CertifyError

ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
MAX_COLORS = len(ALPHABET)
#: The builder refuses games with more codes than this: the same limit as the verifier's, so that
#: everything the builder writes can be checked independently.
MAX_CODES = 1_000_000
#: Games with at most this many (guess, secret) pairs keep the whole feedback matrix.
FULL_MATRIX_CELLS = 1 << 24

_TEXT = bytes.maketrans(bytes(range(MAX_COLORS)), ALPHABET.encode())

#: The feedback rules, the default first (a file without "feedback" in its game means it).
FEEDBACK_RULES = ("black-white", "black-only")

__all__ = ["ALPHABET", "FEEDBACK_RULES", "Game", "MAX_CODES", "MAX_COLORS", "typed"]


def typed(text: str) -> str:
    """A code as a person types it, without the white space between pegs or around it
    ("0 0 1 1", "0011 "): codes take spaces as answers do ("2, 0")."""
    return "".join(text.split())


def _count_codes(pegs: int, colors: int, repetition: bool) -> int:
    if repetition:
        return colors**pegs
    n = 1
    for k in range(pegs):
        n *= colors - k
    return n


class Game:
    """A Mastermind variant: ``pegs`` positions, ``colors`` colours, with or without repetition,
    and its feedback rule (one of :data:`FEEDBACK_RULES`)."""

    __slots__ = ("pegs", "colors", "repetition", "feedback_rule", "__dict__")

    def __init__(self, pegs: int, colors: int, repetition: bool = True, feedback: str = "black-white") -> None:
        if isinstance(pegs, bool) or not isinstance(pegs, int) or pegs < 1:
            raise CertifyError(f"pegs must be an integer >= 1, got {pegs!r}")
        if isinstance(colors, bool) or not isinstance(colors, int) or not 2 <= colors <= MAX_COLORS:
            raise CertifyError(f"colors must be an integer from 2 to {MAX_COLORS}, got {colors!r}")
        if not repetition and pegs > colors:
            raise CertifyError(
                f"a game without repetition needs pegs <= colors, got {pegs} pegs and {colors} colors"
            )
        if feedback not in FEEDBACK_RULES:
            raise CertifyError(f"unknown feedback rule {str(feedback)[:40]!r}: expected one of "
                               + ", ".join(FEEDBACK_RULES))
        self.pegs = pegs
        self.colors = colors
        self.repetition = bool(repetition)
        self.feedback_rule = feedback

    @property
    def black_only(self) -> bool:
        return self.feedback_rule == "black-only"

    def __repr__(self) -> str:
        rep = "" if self.repetition else ", repetition=False"
        rule = ", feedback='black-only'" if self.black_only else ""
        return f"Game(pegs={self.pegs}, colors={self.colors}{rep}{rule})"

    def __str__(self) -> str:
        return (f"{self.pegs}x{self.colors}" + ("" if self.repetition else " without repetition")
                + (" black-only" if self.black_only else ""))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def key(self) -> tuple:
        """(pegs, colors, repetition), and the rule after them only when it is black-only (so the
        classic games keep their keys, in checkpoints too); ``Game(*key)`` gives the game back."""
        return (self.pegs, self.colors, self.repetition) + (("black-only",) if self.black_only else ())

    @property
    def slug(self) -> str:
        """Short file-name form: ``4x6``, ``4x10-norep``, ``4x6-black``."""
        return (f"{self.pegs}x{self.colors}" + ("" if self.repetition else "-norep")
                + ("-black" if self.black_only else ""))

    def to_json(self) -> dict:
        """The certificate's "game": "feedback" only for black-only (a file without it is black-white,
        so the classic games' files stay byte-identical)."""
        out = {"pegs": self.pegs, "colors": self.colors, "repetition": self.repetition}
        if self.black_only:
            out["feedback"] = self.feedback_rule
        return out

    # -- codes ---------------------------------------------------------------

    @property
    def size(self) -> int:
        """Number of codes of the game."""
        return _count_codes(self.pegs, self.colors, self.repetition)

    def check_size(self) -> None:
        # 2**21 > MAX_CODES: beyond 21 pegs, do not even compute the (possibly astronomical) size.
        if self.pegs > 21 or self.size > MAX_CODES:
            # Integer arithmetic: a float overflows for a --pegs of 310 digits (log10(2) > 0.301).
            size = f"{self.size}" if self.pegs <= 64 else f"more than 10^{self.pegs * 301 // 1000}"
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
        text = typed(text)
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
        return self.digits[index].tobytes().translate(_TEXT).decode()

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

    def key_text(self, fb: int) -> str:
        """A feedback as a tree's key: "B,W", or "B" under the black-only rule."""
        b, w = self.decode(fb)
        return str(b) if self.black_only else f"{b},{w}"

    def feedback(self, guesses, secrets) -> np.ndarray:
        """Encoded feedback of every guess against every secret: (len(guesses), len(secrets)).

        black = equal pegs; black + white = sum over colours of min(counts); the encoding
        b*(p+1) + w equals p*black + (black + white), a sum of table look-ups (see
        :attr:`fb_tables`). Small games read a precomputed full matrix instead.
        """
        g = np.atleast_1d(np.asarray(guesses, dtype=np.int64))
        s = np.atleast_1d(np.asarray(secrets, dtype=np.int64))
        matrix = self.fb_matrix
        if matrix is not None:
            return matrix[np.ix_(g, s)]
        return self._feedback_tables(g, s)

    def feedback_row(self, guess: int, secrets: np.ndarray) -> np.ndarray:
        """Encoded feedback of one guess against each secret (1-d)."""
        matrix = self.fb_matrix
        if matrix is not None:
            return matrix[guess].take(secrets)
        return self._feedback_tables(np.array([guess]), np.asarray(secrets, dtype=np.int64))[0]

    def _feedback_tables(self, g: np.ndarray, s: np.ndarray) -> np.ndarray:
        out = np.empty((len(g), len(s)), dtype=self.fb_dtype)
        block = max(1, (1 << 18) // max(1, len(s)))
        parts = [(table, keys[g], keys[s]) for table, keys in self.fb_tables]
        for lo in range(0, len(g), block):
            hi = min(lo + block, len(g))
            view = out[lo:hi]
            for i, (table, kg, ks) in enumerate(parts):
                rows = table[kg[lo:hi]]
                if i == 0:
                    np.take(rows, ks, axis=1, out=view)
                else:
                    view += np.take(rows, ks, axis=1)
        return out

    @cached_property
    def fb_tables(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """[(table, keys)]: feedback(g, s) = sum of table[keys[g], keys[s]] over the list.

        Pegs are cut into groups (key: the group's digits; table: pegs * equal pegs) and
        colours into groups (key: the group's colour counts; table: sum of min counts), each
        group small enough that its table stays in cache.
        """
        p, c = self.pegs, self.colors
        d = self.digits
        dt = self.fb_dtype
        out = []
        n_groups = 1
        while c ** -(-p // n_groups) > 1296:
            n_groups += 1
        bounds = np.linspace(0, p, n_groups + 1).round().astype(int)
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            width = int(hi - lo)
            keys = np.zeros(len(d), dtype=np.int64)
            for i in range(lo, hi):
                keys = keys * c + d[:, i]
            every = np.arange(c**width, dtype=np.int64)
            table = np.zeros((len(every), len(every)), dtype=dt)
            for k in range(width):
                digit = (every // c ** (width - 1 - k)) % c
                table += digit[:, None] == digit[None, :]
            table *= dt(p + 1 if self.black_only else p)  # black-only: b (p + 1), white 0
            out.append((table, keys.astype(np.intp)))
        if self.black_only:
            return out
        counts = self.counts
        start = 0
        while start < c:  # the most colours whose count vectors stay few (<= 1024)
            stop = start + 1
            while stop < c and self._count_vectors(stop + 1 - start, start == 0 and stop + 1 == c) <= 1024:
                stop += 1
            code = np.zeros(len(d), dtype=np.int64)
            for k in range(start, stop):
                code = code * (p + 1) + counts[:, k]
            values, keys = np.unique(code, return_inverse=True)
            vectors = np.stack([(values // (p + 1) ** (stop - 1 - k)) % (p + 1)
                                for k in range(start, stop)], axis=1)
            vectors = vectors.astype(dt)
            table = np.zeros((len(values), len(values)), dtype=dt)
            for k in range(stop - start):
                table += np.minimum(vectors[:, None, k], vectors[None, :, k])
            out.append((table, keys.reshape(-1).astype(np.intp)))
            start = stop
        return out

    def _count_vectors(self, k: int, every_colour: bool) -> int:
        """How many colour-count vectors k colours can have (bound)."""
        p = self.pegs
        if every_colour:  # the counts sum to p exactly
            return math.comb(k, p) if not self.repetition else math.comb(k + p - 1, p)
        return math.comb(k + p, p)

    @cached_property
    def fb_matrix(self) -> np.ndarray | None:
        """The full (size, size) feedback matrix when it is small (else None)."""
        n = self.size
        if n * n > FULL_MATRIX_CELLS:
            return None
        every = np.arange(n, dtype=np.int64)
        return self._feedback_tables(every, every)

    def feedback_pair(self, a: str, b: str) -> tuple[int, int]:
        """(black, white) of two codes given as text."""
        return self.decode(self.feedback([self.parse(a)], [self.parse(b)])[0, 0])
