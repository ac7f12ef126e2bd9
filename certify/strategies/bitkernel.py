"""Bit-sliced scoring (numba): 64 candidates per machine word, for nodes of many candidates.

For the candidates of a node, bit i of a mask stands for candidate i. ``node_masks`` sets
two families of masks: ``pm[peg * colors + x]``, the candidates with colour x at that peg,
and ``cm[x * pegs + k]``, the candidates with more than k pegs of colour x. Against a guess
g, a candidate's black count is how many of the masks ``pm[peg * colors + g[peg]]`` hold
it, and its black + white count how many of ``cm[x * pegs + k]`` do, for each peg of g of
colour x, k counting the earlier pegs of g of that colour (sum over colours of the least
count). Both sums are added bit-wise into three bit planes (pegs <= 7), decoded into one
mask per value, and each class (black, black + white) is counted with one popcount: a word
of 64 candidates costs about as much as a handful of candidates in the loops of
:mod:`.kernel`.

The class sizes are exact, so each score is exact and the rules (limit, ties, the entropy
reference) are those of :mod:`.kernel`: the two paths return the same array.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from .kernel import ENTROPY, MAX, PARTS, SUMSQ, _entropy_verdict

#: The bit planes hold counts up to 7.
MAX_PEGS = 7


@intrinsic
def _popcount(typingctx, x):  # pragma: no cover
    """The number of bits set (one instruction where the CPU has it)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


def guess_tables(game) -> tuple[np.ndarray, np.ndarray]:
    """(size, pegs) uint8 arrays: the peg mask and the count mask each peg of every code uses."""
    d = game.digits.astype(np.int64)
    p, c = game.pegs, game.colors
    gp = np.arange(p)[None, :] * c + d
    earlier = np.zeros_like(d)  # pegs of the same colour further left
    for j in range(1, p):
        earlier[:, j] = (d[:, :j] == d[:, j:j + 1]).sum(axis=1)
    gc = d * p + earlier
    assert p * c <= 256
    return gp.astype(np.uint8), gc.astype(np.uint8)


@njit(cache=True, nogil=True)
def node_masks(digits, candidates, pegs, colors):  # pragma: no cover
    """(pm, cm): the masks of the module docstring, (pegs * colors, words) uint64 each."""
    n = candidates.shape[0]
    words = (n + 63) // 64
    pm = np.zeros((pegs * colors, words), dtype=np.uint64)
    cm = np.zeros((colors * pegs, words), dtype=np.uint64)
    seen = np.zeros(colors, dtype=np.int64)
    for i in range(n):
        w = i >> 6
        bit = np.uint64(1) << np.uint64(i & 63)
        seen[:] = 0
        for j in range(pegs):
            x = digits[candidates[i], j]
            pm[j * colors + x, w] |= bit
            cm[x * pegs + seen[x], w] |= bit
            seen[x] += 1
    return pm, cm


@njit(cache=True, nogil=True, inline="always")
def _add(kind, value, c, fcum):  # pragma: no cover
    """``value`` with one more class of size ``c`` taken in (entropy: in fixed point)."""
    if kind == MAX:
        return max(value, np.int64(c))
    if kind == SUMSQ:
        return value + np.int64(c) * c
    if kind == PARTS:
        return value + (1 if c > 0 else 0)
    return value + fcum[c]


@njit(cache=True, nogil=True)
def _score(kind, counts, classes, fcum):  # pragma: no cover
    """The score of the class sizes ``counts[classes]`` (entropy: in fixed point)."""
    value = np.int64(0)
    for f in classes:
        value = _add(kind, value, counts[f], fcum)
    return value


@njit(cache=True, nogil=True, inline="always")
def _decode(pm, cm, g_pegs, g_counts, w, pegs, eqb, eqt):  # pragma: no cover
    """Word w against one guess: eqb[v] (eqt[v]), the candidates with v blacks (v blacks + whites)."""
    b0 = b1 = b2 = t0 = t1 = t2 = np.uint64(0)
    # Add one bit per candidate into the planes (b2 b1 b0) and (t2 t1 t0). Written out twice:
    # an inline helper returning the three planes measured 7% slower on knuth 5x8.
    for j in range(pegs):
        m = pm[g_pegs[j], w]
        c0 = b0 & m
        b0 ^= m
        c1 = b1 & c0
        b1 ^= c0
        b2 ^= c1
        m = cm[g_counts[j], w]
        c0 = t0 & m
        t0 ^= m
        c1 = t1 & c0
        t1 ^= c0
        t2 ^= c1
    n0, n1, n2 = ~b0, ~b1, ~b2
    x0, x1, x2, x3 = n2 & n1, n2 & b1, b2 & n1, b2 & b1
    eqb[0], eqb[1], eqb[2], eqb[3] = x0 & n0, x0 & b0, x1 & n0, x1 & b0
    eqb[4], eqb[5], eqb[6], eqb[7] = x2 & n0, x2 & b0, x3 & n0, x3 & b0
    n0, n1, n2 = ~t0, ~t1, ~t2
    x0, x1, x2, x3 = n2 & n1, n2 & t1, t2 & n1, t2 & t1
    eqt[0], eqt[1], eqt[2], eqt[3] = x0 & n0, x0 & t0, x1 & n0, x1 & t0
    eqt[4], eqt[5], eqt[6], eqt[7] = x2 & n0, x2 & t0, x3 & n0, x3 & t0


@njit(cache=True, nogil=True, inline="always")
def _add_counts(counts, eqb, eqt, P):  # pragma: no cover
    for b in range(P):
        mb = eqb[b]
        if mb != 0:
            for t in range(b, P):
                counts[b * P + t - b] += _popcount(mb & eqt[t])


@njit(cache=True, nogil=True)
def bit_scores(gp, gc, pm, cm, n, pegs, guesses, n_fb, kind, ilimit, floor, flimit, ftol, fcum,
               ref, ref_hist, out):  # pragma: no cover
    """Fill ``out`` as :func:`.kernel._scores` does; return the (guess, candidate) pairs counted.

    ``ilimit`` and ``floor`` as in the kernel's loops (integer kinds); entropy: ``flimit``
    and ``ftol`` in fixed point, ``fcum[c]`` the fixed-point term of a class of c (the sum
    of the kernel's rounded steps, so that both paths give the same values)."""
    words = pm.shape[1]
    P = pegs + 1
    eqb = np.zeros(8, dtype=np.uint64)
    eqt = np.zeros(8, dtype=np.uint64)
    counts = np.zeros(n_fb, dtype=np.int64)
    hist = np.zeros(n + 1, dtype=np.int64)
    classes = np.empty(P * (P + 1) // 2, dtype=np.int64)  # (black, total) -> black * P + white
    k = 0
    for b in range(P):
        for t in range(b, P):
            classes[k] = b * P + t - b
            k += 1
    ones = ~np.uint64(0)
    last = ones if n % 64 == 0 else (np.uint64(1) << np.uint64(n % 64)) - np.uint64(1)
    pairs = 0
    need = -ilimit  # PARTS: classes needed
    for i in range(guesses.shape[0]):
        g = guesses[i]
        g_pegs = gp[g]
        g_counts = gc[g]
        hopeless = False
        if words == 1:  # the score straight from the popcounts; ``counts`` only if needed
            _decode(pm, cm, g_pegs, g_counts, 0, pegs, eqb, eqt)
            eqb[0] &= last  # the bits past the last candidate read as class (0, 0)
            value = np.int64(0)
            for b in range(P):
                mb = eqb[b]
                if mb == 0:
                    continue
                for t in range(b, P):
                    value = _add(kind, value, np.int64(_popcount(mb & eqt[t])), fcum)
            if kind == ENTROPY and value <= flimit:
                counts[:] = 0
                _add_counts(counts, eqb, eqt, P)
        else:
            counts[:] = 0
            for w in range(words):
                _decode(pm, cm, g_pegs, g_counts, w, pegs, eqb, eqt)
                if w == words - 1:
                    eqb[0] &= last
                _add_counts(counts, eqb, eqt, P)
                if w + 1 < words:  # scores only grow with candidates: stop once out of reach
                    left = n - 64 * (w + 1)
                    value = _score(kind, counts, classes, fcum)
                    if kind == MAX:
                        hopeless = value > ilimit
                    elif kind == SUMSQ:
                        hopeless = value + left > ilimit
                    elif kind == PARTS:
                        hopeless = value + left < need
                    else:
                        hopeless = value > flimit
                    if hopeless:
                        pairs += 64 * (w + 1)
                        break
            if hopeless:
                out[i] = np.inf
                continue
            value = _score(kind, counts, classes, fcum)
        pairs += n
        if kind == ENTROPY:
            if value > flimit:
                out[i] = np.inf
            else:
                score, flimit = _entropy_verdict(value, counts, hist, ref, ref_hist, ftol, flimit)
                out[i] = score
            if ref[0] == 0:  # all classes single: any later guess ties at best
                out[i + 1:] = np.inf
                break
        elif kind == PARTS:
            if value < need:
                out[i] = np.inf
            else:
                out[i] = -value
                need = value + 1
                if -need < floor:
                    out[i + 1:] = np.inf
                    break
        else:
            if value > ilimit:
                out[i] = np.inf
            else:
                out[i] = value
                ilimit = value - 1
                if ilimit < floor:
                    out[i + 1:] = np.inf
                    break
    return pairs
