"""Compiled scoring loop for big games (numba), with early abandonment of hopeless guesses.

For each guess, in code order, the loop counts the candidates per feedback (the feedback
is a sum of small table look-ups, see ``Game.fb_tables``) and keeps the score up to date.
Scores only grow as candidates are added (largest class, sum of squared sizes, sum of
n log n), or for the number of classes can at most gain the candidates left; so a guess is
abandoned (score +inf) as soon as it cannot reach ``limit``. Once a guess is scored in
full, ``limit`` drops to just below its score: ties go to the earlier guess.

Entropy is a float: a guess within ``tol`` (far above rounding errors) of the best so far
(the *reference*) is dropped when its class sizes are those of the reference (an exact
tie, which the earlier guess wins), and kept otherwise for the caller to settle exactly.

Importing this module imports numba (about 0.4 s), so only big games use it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

MAX, SUMSQ, PARTS, ENTROPY = 0, 1, 2, 3
KINDS = {"max": MAX, "sumsq": SUMSQ, "parts": PARTS, "entropy": ENTROPY}


@njit(cache=True, nogil=True)
def _sizes(counts, out):  # pragma: no cover
    """The class sizes, largest first, zero-padded: equal iff the multisets are equal."""
    out[:] = counts
    out.sort()
    out[:] = out[::-1].copy()


@njit(cache=True, nogil=True)
def _scores(flat, rows, ckeys, guesses, n_fb, kind, limit, tol, nlogn, ref, out):  # pragma: no cover
    """Fill ``out`` with each guess's score (+inf if abandoned); return the pairs looked at.

    ``ckeys`` is (groups, candidates), groups >= 3: the candidates' keys into each table;
    the feedback of guess g and candidate s is sum over j of flat[rows[g, j] + ckeys[j, s]].
    Entropy only: ``ref`` holds [score, sizes...] of the reference (score +inf if none);
    it is updated in place.
    """
    groups, n = ckeys.shape
    k0 = ckeys[0]
    k1 = ckeys[1]
    k2 = ckeys[2]
    counts = np.zeros(n_fb, dtype=np.int64)
    sizes = np.zeros(n_fb)
    fbs = np.empty(n, dtype=np.int64)
    big = np.int64(1) << 62
    ilimit = big if limit >= big else np.int64(np.floor(limit))
    pairs = 0
    for i in range(guesses.shape[0]):
        g = guesses[i]
        r0 = rows[g, 0]
        r1 = rows[g, 1]
        r2 = rows[g, 2]
        top = 0  # MAX: largest class; SUMSQ: sum of squares; PARTS: classes
        score = 0.0  # ENTROPY
        hopeless = False
        s = 0
        while s < n:
            f = flat[r0 + k0[s]] + flat[r1 + k1[s]] + flat[r2 + k2[s]]
            for j in range(3, groups):
                f += flat[rows[g, j] + ckeys[j, s]]
            fbs[s] = f
            s += 1
            c = counts[f]
            counts[f] = c + 1
            if kind == MAX:
                if c >= top:
                    top = c + 1
                    if top > ilimit:
                        hopeless = True
                        break
            elif kind == SUMSQ:
                top += 2 * c + 1
                if top > ilimit:
                    hopeless = True
                    break
            elif kind == PARTS:
                if c == 0:
                    top += 1
                elif -(top + n - s) > ilimit:  # even if every candidate left opened a class
                    hopeless = True
                    break
            else:
                score += nlogn[c + 1] - nlogn[c]
                if score > limit:
                    hopeless = True
                    break
        pairs += s
        if kind == PARTS and -top > ilimit:
            hopeless = True
        if hopeless:
            out[i] = np.inf
        elif kind == ENTROPY:
            out[i] = score
            if score < ref[0] - tol:  # clearly better: the new reference
                ref[0] = score
                _sizes(counts, ref[1:])
                limit = score + tol
            else:  # a near tie with the reference: an exact tie if the class sizes agree
                _sizes(counts, sizes)
                if np.all(sizes == ref[1:]):
                    out[i] = np.inf
        else:
            value = -top if kind == PARTS else top
            out[i] = value
            if value - 1 < ilimit:
                ilimit = value - 1
        for t in range(s):  # reset only the classes touched
            counts[fbs[t]] = 0
    return pairs


def least_score(kind: int, n: int, pegs: int) -> float:
    """A score no guess can beat with n candidates (-inf when unknown)."""
    m = (pegs + 1) * (pegs + 2) // 2 - 1  # feedbacks: black + white <= pegs, never (pegs-1, 1)
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
        self.n_fb = game.n_feedbacks
        tables = game.fb_tables
        offsets = np.cumsum([0] + [t.size for t, _ in tables])
        self.flat = np.concatenate([t.ravel() for t, _ in tables]).astype(np.uint8)
        self.keys = np.stack([k for _, k in tables], axis=1).astype(np.int64)
        self.rows = np.stack([off + k * t.shape[1] for off, (t, k) in zip(offsets, tables)], axis=1)
        self.rows = self.rows.astype(np.int64)
        if self.rows.shape[1] < 3:  # the loop reads three groups at least: add an empty one
            zero = len(self.flat)
            self.flat = np.concatenate([self.flat, np.zeros(1, dtype=np.uint8)])
            self.rows = np.concatenate([self.rows, np.full((len(self.rows), 1), zero)], axis=1)
            self.keys = np.concatenate([self.keys, np.zeros((len(self.keys), 1), np.int64)], axis=1)
        self.pairs = 0  # (guess, candidate) pairs looked at, for the benchmark

    def scores(self, kind: int, guesses: np.ndarray, candidates: np.ndarray, limit: float,
               tol: float = 0.0, ref: np.ndarray | None = None) -> np.ndarray:
        """Score of each guess (float64; +inf for guesses that cannot reach ``limit``).

        Entropy: ``ref`` (from :meth:`reference`) carries the reference between calls."""
        n = len(candidates)
        nlogn = np.zeros(n + 1)
        if kind == ENTROPY:
            k = np.arange(1, n + 1)
            nlogn[1:] = k * np.log2(k)
        if ref is None:
            ref = self.reference()
        out = np.empty(len(guesses))
        ckeys = np.ascontiguousarray(self.keys[candidates].T)
        self.pairs += _scores(self.flat, self.rows, ckeys, np.asarray(guesses, dtype=np.int64),
                              self.n_fb, kind, float(limit), float(tol), nlogn, ref, out)
        return out

    def reference(self) -> np.ndarray:
        """An empty entropy reference: [+inf, 0, 0, ...]."""
        ref = np.zeros(self.n_fb + 1)
        ref[0] = np.inf
        return ref
