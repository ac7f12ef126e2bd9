"""Compiled scoring loop for big games (numba), with early abandonment of hopeless guesses.

For each guess, in code order, the loop counts the candidates per feedback (the feedback
is a sum of small table look-ups, see ``Game.fb_tables``) and keeps the score up to date.
Scores only grow as candidates are added (largest class, sum of squared sizes, sum of
n log n), or for the number of classes can at most gain the candidates left; so a guess is
abandoned (score +inf) as soon as it cannot reach ``limit``. Once a guess is scored in
full, ``limit`` drops to just below its score: ties go to the earlier guess.

Entropy (sum of c log2 c over the classes) is kept in fixed point, each term rounded down:
a guess within ``tol`` (far above the rounding) of the best so far (the *reference*) is
dropped when its class sizes are those of the reference (an exact tie, which the earlier
guess wins), and kept otherwise for the caller to settle exactly.

The loops are compiled ahead of time by ``make setup`` (:mod:`certify.compiled`), else by numba
just in time (importing numba costs about 0.4 s): so only big games use them. Python hands them
guesses and candidates as read-only int64 arrays (:func:`readonly`): one signature each.
"""

from __future__ import annotations

import numpy as np

from ..compiled import njit
from .scoring import ENTROPY, MAX, PARTS, SCALE, SUMSQ, _entropy_verdict

KINDS = {"max": MAX, "sumsq": SUMSQ, "parts": PARTS, "entropy": ENTROPY}
#: From this many candidates on, :mod:`.bitkernel` (64 candidates per word, no early
#: abandonment within a word) beats the loops here (measured on 5x8). The largest class, the sum
#: of squares and entropy bound each guess by its colour multiset there first, which settles most
#: guesses at any size: from 8 candidates on, expected-size 5x8 1.68 -> 1.47 s and entropy 2.05 ->
#: 1.75 s against 16; knuth 1.79-1.81 s from 40, 1.59-1.62 from 16, 1.49-1.50 from 8.
#: (Most parts goes to :func:`.bitkernel.parts_scores` at any size, which bounds the classes
#: from the guess's colours first: 3x faster than the loops here on 5x8's nodes of under 16
#: candidates, 15-25x than the plain bit-sliced loop on larger ones; the entry here serves
#: games beyond the bit planes, see :meth:`Kernel._parts_tables`.)
BITS_FROM = {MAX: 8, SUMSQ: 8, PARTS: 16, ENTROPY: 8}
BITS_MAX_PEGS = 7


@njit(cache=True, nogil=True, inline="always")
def _feedback(flat, rows, g, r0, r1, r2, ckeys, k0, k1, k2, s):  # pragma: no cover
    """Feedback of guess g (its rows r0, r1, r2 in the first three tables) and candidate s."""
    f = np.int32(flat[r0 + k0[s]]) + flat[r1 + k1[s]] + flat[r2 + k2[s]]
    for j in range(3, ckeys.shape[0]):
        f += flat[rows[g, j] + ckeys[j, s]]
    return f


# One loop per kind (the kind is then a constant of the compiled code, not a test per pair).
# Each takes ``ckeys`` (groups, candidates), groups >= 3: the candidates' keys into each table;
# the feedback of guess g and candidate s is sum over j of flat[rows[g, j] + ckeys[j, s]].
# ``counts`` is cleared whole after each guess (a few cache lines, cheaper than remembering
# the classes touched).

@njit(cache=True, nogil=True)
def _max(flat, rows, ckeys, guesses, n_fb, ilimit, floor, out):  # pragma: no cover
    """Largest class; a guess is dropped as soon as a class exceeds ``ilimit``."""
    n = ckeys.shape[1]
    k0, k1, k2 = ckeys[0], ckeys[1], ckeys[2]
    counts = np.zeros(n_fb, dtype=np.int32)
    pairs = 0
    for i in range(guesses.shape[0]):
        g = guesses[i]
        r0, r1, r2 = rows[g, 0], rows[g, 1], rows[g, 2]
        top = 0
        s = 0
        hopeless = False
        while s < n:
            f = _feedback(flat, rows, g, r0, r1, r2, ckeys, k0, k1, k2, s)
            s += 1
            c = counts[f]
            counts[f] = c + 1
            if c >= ilimit:  # the class now holds c + 1 > limit
                hopeless = True
                break
            if c >= top:
                top = c + 1
        pairs += s
        counts[:] = 0
        if hopeless:
            out[i] = np.inf
        else:
            out[i] = top
            ilimit = top - 1
            if ilimit < floor:  # no guess scores below ``floor``: the others are hopeless
                out[i + 1:] = np.inf
                break
    return pairs


@njit(cache=True, nogil=True)
def _sumsq(flat, rows, ckeys, guesses, n_fb, ilimit, floor, out):  # pragma: no cover
    """Sum of squared class sizes = n + 2 * (sum of the class size met at each addition):
    the candidates left add 1 each at least, so only that excess is compared."""
    n = ckeys.shape[1]
    k0, k1, k2 = ckeys[0], ckeys[1], ckeys[2]
    counts = np.zeros(n_fb, dtype=np.int32)
    pairs = 0
    room = ilimit - n
    for i in range(guesses.shape[0]):
        g = guesses[i]
        r0, r1, r2 = rows[g, 0], rows[g, 1], rows[g, 2]
        excess = np.int64(0)
        s = 0
        hopeless = False
        while s < n:
            f = _feedback(flat, rows, g, r0, r1, r2, ckeys, k0, k1, k2, s)
            s += 1
            c = counts[f]
            counts[f] = c + 1
            excess += 2 * c
            if excess > room:
                hopeless = True
                break
        pairs += s
        counts[:] = 0
        if hopeless:
            out[i] = np.inf
        else:
            out[i] = excess + n
            room = excess - 1
            if room + n < floor:
                out[i + 1:] = np.inf
                break
    return pairs


@njit(cache=True, nogil=True)
def _parts(flat, rows, ckeys, guesses, n_fb, ilimit, floor, out):  # pragma: no cover
    """Number of classes (score: minus it); dropped when even the candidates left, each
    opening a class, could not reach ``-ilimit`` classes."""
    n = ckeys.shape[1]
    k0, k1, k2 = ckeys[0], ckeys[1], ckeys[2]
    counts = np.zeros(n_fb, dtype=np.int32)
    pairs = 0
    need = -ilimit
    for i in range(guesses.shape[0]):
        g = guesses[i]
        r0, r1, r2 = rows[g, 0], rows[g, 1], rows[g, 2]
        top = 0
        s = 0
        hopeless = False
        while s < n:
            f = _feedback(flat, rows, g, r0, r1, r2, ckeys, k0, k1, k2, s)
            s += 1
            c = counts[f]
            counts[f] = c + 1
            if c == 0:
                top += 1
            elif top + n - s < need:
                hopeless = True
                break
        pairs += s
        counts[:] = 0
        if hopeless or top < need:
            out[i] = np.inf
        else:
            out[i] = -top
            need = top + 1
            if -need < floor:
                out[i + 1:] = np.inf
                break
    return pairs


@njit(cache=True, nogil=True)
def _entropy(flat, rows, ckeys, guesses, n_fb, limit, tol, nlogn, ref, ref_hist, out):  # pragma: no cover
    """Sum of c log2 c over the classes, in fixed point (see the module docstring).

    ``nlogn[c]`` is c log2 c; ``ref[0]`` is the reference's score in fixed point (huge if
    none) and ``ref_hist`` its class sizes (see ``scoring._same_sizes``); both are updated in place.
    """
    n = ckeys.shape[1]
    k0, k1, k2 = ckeys[0], ckeys[1], ckeys[2]
    counts = np.zeros(n_fb, dtype=np.int32)
    hist = np.zeros(n + 1, dtype=np.int64)
    big = np.int64(1) << 62
    flimit = big if limit * SCALE >= big else np.int64(np.floor(limit * SCALE))
    ftol = np.int64(np.ceil(tol * SCALE))
    step = np.empty(n + 1, dtype=np.int64)  # (c+1) log(c+1) - c log c, fixed point
    for c in range(min(n, nlogn.shape[0] - 2) + 1):
        step[c] = np.int64(np.floor((nlogn[c + 1] - nlogn[c]) * SCALE))
    pairs = 0
    for i in range(guesses.shape[0]):
        g = guesses[i]
        r0, r1, r2 = rows[g, 0], rows[g, 1], rows[g, 2]
        fixed = np.int64(0)
        s = 0
        hopeless = False
        while s < n:
            f = _feedback(flat, rows, g, r0, r1, r2, ckeys, k0, k1, k2, s)
            s += 1
            c = counts[f]
            counts[f] = c + 1
            fixed += step[c]  # rounded down: a lower bound of the exact sum so far
            if fixed > flimit:
                hopeless = True
                break
        pairs += s
        if hopeless:
            out[i] = np.inf
        else:
            # ``fixed`` is a sum of per-class terms, so equal class sizes give equal values.
            score, flimit = _entropy_verdict(fixed, counts, hist, ref, ref_hist, ftol, flimit)
            out[i] = score
        counts[:] = 0
        if ref[0] == 0:  # all classes single: any later guess ties at best (or is worse)
            out[i + 1:] = np.inf
            break
    return pairs


@njit(cache=True, nogil=True)
def _split(flat, rows, keys, g, candidates, n_fb):  # pragma: no cover
    """(candidates in feedback order, each class in code order; class sizes by feedback)."""
    n = candidates.shape[0]
    groups = rows.shape[1]
    fbs = np.empty(n, dtype=np.int32)
    sizes = np.zeros(n_fb, dtype=np.int64)
    for i in range(n):
        s = candidates[i]
        f = 0
        for j in range(groups):
            f += flat[rows[g, j] + keys[s, j]]
        fbs[i] = f
        sizes[f] += 1
    start = np.zeros(n_fb, dtype=np.int64)
    for f in range(1, n_fb):
        start[f] = start[f - 1] + sizes[f - 1]
    ordered = np.empty(n, dtype=np.int64)
    for i in range(n):  # a counting sort: stable
        f = fbs[i]
        ordered[start[f]] = candidates[i]
        start[f] += 1
    return ordered, sizes


def readonly(codes) -> np.ndarray:
    """``codes`` as a C-contiguous int64 array that cannot be written (a view if need be): the
    type every compiled loop here is called with (the symmetry filter's guesses are read-only,
    so all are: one signature to compile and to load)."""
    codes = np.ascontiguousarray(codes, dtype=np.int64)
    if codes.flags.writeable:
        codes = codes.view()
        codes.flags.writeable = False
    return codes


def _int_limit(limit: float) -> int:
    big = 1 << 62
    return big if limit >= big else int(np.floor(limit))


def _scores(flat, rows, ckeys, guesses, n_fb, kind, limit, floor, tol, nlogn, ref, ref_hist, out):
    """Fill ``out`` with each guess's score (+inf if abandoned); return the pairs looked at.

    ``floor``: a score no guess can beat (once reached, the later guesses are hopeless).
    Scores come back as floats (entropy: off the exact value by rounding only)."""
    guesses = readonly(guesses)
    if kind == ENTROPY:
        return _entropy(flat, rows, ckeys, guesses, n_fb, limit, tol, nlogn, ref, ref_hist, out)
    loop = _max if kind == MAX else _sumsq if kind == SUMSQ else _parts
    return loop(flat, rows, ckeys, guesses, n_fb, _int_limit(limit), int(floor), out)


def feedback_count(pegs: int) -> int:
    """How many feedbacks there are: black + white <= pegs, never (pegs - 1, 1)."""
    return (pegs + 1) * (pegs + 2) // 2 - 1


def least_score(kind: int, n: int, pegs: int) -> float:
    """A score no guess can beat with n candidates (-inf when unknown)."""
    m = feedback_count(pegs)
    q, r = divmod(n, m)
    if kind == MAX:
        return q + (r > 0)
    if kind == SUMSQ:
        return r * (q + 1) ** 2 + (m - r) * q * q
    if kind == PARTS:
        return -min(n, m)
    return 0.0 if n <= m else -np.inf  # entropy: exactly 0 for all-singleton classes


class Kernel:
    """The game's feedback tables flattened for the compiled loop."""

    def __init__(self, game) -> None:
        self.game = game
        self.n_fb = game.n_feedbacks
        self.pegs = game.pegs
        self._guess_tables = None  # for the bit-sliced loop, made on first use
        self._parts = None  # for the most-parts loop, made on first use
        self._multisets = None  # for the bit-sliced loop's bound, made on first use
        tables = game.fb_tables
        offsets = np.cumsum([0] + [t.size for t, _ in tables])
        self.flat = np.concatenate([t.ravel() for t, _ in tables]).astype(np.uint8)
        self.keys = np.stack([k for _, k in tables], axis=1).astype(np.int64)
        self.rows = np.stack([off + k * t.shape[1] for off, (t, k) in zip(offsets, tables)], axis=1)
        self.rows = self.rows.astype(np.int64)
        self.keys = self.keys.astype(np.int32)  # keys < 2**31: half the bytes to read per candidate
        while self.rows.shape[1] < 3:  # the loop reads three groups at least: add empty ones (a
            # black-only game may have a single group: no colour-count tables)
            zero = len(self.flat)
            self.flat = np.concatenate([self.flat, np.zeros(1, dtype=np.uint8)])
            self.rows = np.concatenate([self.rows, np.full((len(self.rows), 1), zero)], axis=1)
            self.keys = np.concatenate([self.keys, np.zeros((len(self.keys), 1), np.int32)], axis=1)
        self.pairs = 0  # (guess, candidate) pairs looked at, for the benchmark

    def scores(self, kind: int, guesses: np.ndarray, candidates: np.ndarray, limit: float,
               tol: float = 0.0, ref: np.ndarray | None = None) -> np.ndarray:
        """Score of each guess (float64; +inf for guesses that cannot reach ``limit``).

        Entropy: ``ref`` (from :meth:`reference`) carries the reference between calls."""
        n = len(candidates)
        guesses, candidates = readonly(guesses), readonly(candidates)
        out = np.empty(len(guesses))
        floor = least_score(kind, n, self.pegs)
        if kind == PARTS and self._parts_tables() is not None:
            self.pairs += self._parts_scores(guesses, candidates, limit, floor, out)
            return out
        if ref is None:
            ref = self.reference(n)
        if n >= BITS_FROM[kind] and self.game.pegs <= BITS_MAX_PEGS and not self.game.black_only:
            self.pairs += self._bit_scores(kind, guesses, candidates, limit, floor, tol, ref, out)
            return out
        nlogn = np.zeros(n + 2)  # c log2 c for a class of c
        if kind == ENTROPY:
            k = np.arange(2, n + 2, dtype=np.float64)
            nlogn[2:] = k * np.log2(k)
        ckeys = np.ascontiguousarray(self.keys[candidates].T)  # (groups, n)
        self.pairs += _scores(self.flat, self.rows, ckeys, guesses, self.n_fb, kind, float(limit),
                              floor, float(tol), nlogn, ref[0], ref[1], out)
        return out

    def _bit_scores(self, kind, guesses, candidates, limit, floor, tol, ref, out) -> int:
        if kind == PARTS and self._parts_tables() is not None:
            return self._parts_scores(guesses, candidates, limit, floor, out)
        from . import bitkernel

        if self._guess_tables is None:
            self._guess_tables = bitkernel.guess_tables(self.game)
        gp, gc = self._guess_tables
        game = self.game
        n = len(candidates)
        pm, cm = bitkernel.node_masks(game.digits, readonly(candidates), game.pegs, game.colors)
        fcum = np.zeros(n + 1, dtype=np.int64)  # the fixed-point term of a class of c
        flimit = ftol = 0
        if kind == ENTROPY:
            k = np.arange(n + 2, dtype=np.float64)
            nlogn = np.zeros(n + 2)
            nlogn[2:] = k[2:] * np.log2(k[2:])
            # The same steps, rounded the same way, as the loop of ``_entropy``.
            fcum[1:] = np.cumsum(np.floor((nlogn[1:n + 1] - nlogn[:n]) * SCALE).astype(np.int64))
            flimit = _int_limit(limit * SCALE)
            ftol = int(np.ceil(tol * SCALE))
        ilimit = 0 if kind == ENTROPY else _int_limit(limit)
        gms, n_ms, fan_t = self._multiset_tables()
        cost = np.arange(n + 1, dtype=np.int64) ** 2 if kind == SUMSQ else fcum  # (the largest class: unused)
        if kind == PARTS:  # (games beyond parts_scores' tables: no bound here)
            n_ms = 0
        return bitkernel.bit_scores(gp, gc, pm, cm, n, game.pegs, readonly(guesses), self.n_fb, kind, ilimit,
                                    0 if kind == ENTROPY else int(floor), flimit, ftol, fcum,
                                    ref[0], ref[1], gms, n_ms, fan_t, cost, out)

    def _multiset_tables(self):
        """(the index of every code's colour multiset, how many, fan_t: the classes (b, t) each
        blacks + whites t allows): what :func:`.bitkernel.bit_scores` and
        :func:`.bitkernel.parts_scores` bound a guess by before scoring it."""
        if self._multisets is None:
            from . import bitkernel

            gms, n_ms = bitkernel.multisets(self.game)
            by_total = bitkernel._valid_masks(self.game.pegs)[1]
            fan_t = np.array([bin(int(by_total[t])).count("1") for t in range(self.game.pegs + 1)], np.int64)
            self._multisets = (gms.astype(np.int64), n_ms, fan_t)
        return self._multisets

    def _parts_tables(self):
        """What :func:`.bitkernel.parts_scores` reads of the game (None: the game is beyond
        the bit planes, see :data:`BITS_MAX_PEGS`)."""
        tables = self._parts
        if tables is None:
            game = self.game
            # (the bit planes count black + white: a black-only game scores in the loops here)
            if game.pegs > BITS_MAX_PEGS or game.pegs * game.colors > 256 or game.black_only:
                tables = self._parts = ()
            else:
                from . import bitkernel

                if self._guess_tables is None:
                    self._guess_tables = bitkernel.guess_tables(game)
                by_black, by_total = bitkernel._valid_masks(game.pegs)
                tables = self._parts = (bitkernel.parts_scores, *self._guess_tables, *self._multiset_tables(),
                                        by_black, by_total, game.digits, game.pegs, game.colors)
        return tables or None

    def _parts_scores(self, guesses, candidates, limit, floor, out) -> int:
        run, gp, gc, gms, n_ms, fan_t, by_black, by_total, digits, pegs, colors = self._parts
        return run(gp, gc, gms, n_ms, fan_t, by_black, by_total, digits, readonly(candidates),
                   pegs, colors, readonly(guesses), _int_limit(limit), int(floor), out)

    def split(self, guess: int, candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """What :meth:`certify.strategies.base.Strategy.split` returns, compiled."""
        return _split(self.flat, self.rows, self.keys, int(guess), readonly(candidates), self.n_fb)

    @staticmethod
    def reference(n: int) -> tuple[np.ndarray, np.ndarray]:
        """An empty entropy reference for n candidates: no score yet, no class sizes."""
        return np.full(1, np.int64(1) << 62), np.zeros(n + 1, dtype=np.int64)

    @staticmethod
    def reference_score(ref) -> float:
        return float(ref[0][0]) / SCALE


def warm_up() -> None:
    """Compile the loops now (numba caches it on disk), so a first big build does not wait."""
    from ..game import Game

    game = Game(3, 4)
    kern = Kernel(game)
    every = np.arange(game.size)
    shared = every.copy()
    shared.flags.writeable = False  # (the symmetry filter's guesses: read-only, as readonly() makes all)
    for kind in KINDS.values():
        for guesses in (every, shared):
            for candidates in (every[:4], every):  # the loops here (below every BITS_FROM), and the bit-sliced one
                kern.scores(kind, guesses, candidates, np.inf, 1e-9)
    kern._parts = ()  # most-parts as games beyond the bit planes score it (the loops here)
    for candidates in (every[:4], every):
        kern.scores(PARTS, every, candidates, np.inf)
    kern.split(0, every)


if __name__ == "__main__":
    warm_up()
