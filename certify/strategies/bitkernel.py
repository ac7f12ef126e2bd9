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

from ..compiled import AOT, njit
from .scoring import ENTROPY, MAX, PARTS, SUMSQ, _entropy_verdict

#: The bit planes hold counts up to 7.
MAX_PEGS = 7


if AOT is None:  # numba's JIT (the ahead-of-time module holds its own compiled copy)
    from numba import types
    from numba.extending import intrinsic

    @intrinsic
    def _popcount(typingctx, x):  # pragma: no cover
        """The number of bits set (one instruction where the CPU has it)."""
        sig = types.uint64(types.uint64)

        def codegen(context, builder, signature, args):
            return builder.ctpop(args[0])

        return sig, codegen
else:
    def _popcount(x):  # pragma: no cover - only compiled code calls it
        return bin(int(x)).count("1")


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
def _totals(cm, g_counts, words, pegs, last, ct, eqt):  # pragma: no cover
    """ct[t]: the candidates whose blacks + whites against a guess is t (g_counts: the guess's count
    masks, which depend on its colour multiset only); with one word, eqt[t] their mask too. Called
    once per multiset at a node, so a call (not written out in the loops, as _decode's adder is)."""
    zero = np.uint64(0)
    for t in range(pegs + 1):
        ct[t] = 0
    for w in range(words):
        t0 = t1 = t2 = zero
        for j in range(pegs):
            x = cm[g_counts[j], w]
            c0 = t0 & x
            t0 ^= x
            c1 = t1 & c0
            t1 ^= c0
            t2 ^= c1
        for t in range(pegs + 1):
            v = (t0 if t & 1 else ~t0) & (t1 if t & 2 else ~t1) & (t2 if t & 4 else ~t2)
            if t == 0 and w == words - 1:
                v &= last  # the bits past the last candidate read as total 0
            ct[t] += np.int64(_popcount(v))
            if words == 1:
                eqt[t] = v


@njit(cache=True, nogil=True)
def bit_scores(gp, gc, pm, cm, n, pegs, guesses, n_fb, kind, ilimit, floor, flimit, ftol, fcum,
               ref, ref_hist, gms, n_ms, fan_t, cost, out):  # pragma: no cover
    """Fill ``out`` as :func:`.kernel._scores` does; return the (guess, candidate) pairs counted.

    ``ilimit`` and ``floor`` as in the kernel's loops (integer kinds); entropy: ``flimit``
    and ``ftol`` in fixed point, ``fcum[c]`` the fixed-point term of a class of c (the sum
    of the kernel's rounded steps, so that both paths give the same values).

    With ``n_ms`` > 0 (largest class, sum of squares, entropy), each guess is first held to a
    bound shared by the guesses of its colour multiset (``gms[g]``): a candidate's blacks + whites
    t depend on the guess's colours only, so the ct[t] candidates of total t fall into at most
    ``fan_t[t]`` classes (b, t). One of them holds at least ceil(ct[t] / fan_t[t]); and since
    ``cost`` (the term of a class of c: c^2, or ``fcum``) is convex with cost(0) = 0, they cost at
    least the even split of ct[t] into fan_t[t] classes. A guess whose multiset's bound is past the
    limit could only score past it: +inf, as the loop would give it (on 5x8 the bound settles
    about 9 guesses in 10 at expected-size's and Knuth's nodes)."""
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
    if kind == ENTROPY and ref[0] == 0:  # (the loop below stops at the first guess it scores)
        n_ms = 0
    bound = np.full(max(n_ms, 1), -1, dtype=np.int64)  # per multiset met: its bound (-1: not yet)
    ct = np.zeros(P, dtype=np.int64)
    tmask = np.zeros(P, dtype=np.uint64)
    pairs = 0
    need = -ilimit  # PARTS: classes needed
    for i in range(guesses.shape[0]):
        g = guesses[i]
        g_pegs = gp[g]
        g_counts = gc[g]
        hopeless = False
        if n_ms > 0:
            m = gms[g]
            if bound[m] < 0:
                _totals(cm, g_counts, words, pegs, last, ct, tmask)
                lb = np.int64(0)
                for t in range(P):
                    q = ct[t] // fan_t[t]
                    r = ct[t] - q * fan_t[t]
                    if kind == MAX:  # some class of total t holds at least ceil(ct[t] / fan_t[t])
                        lb = max(lb, q + (1 if r > 0 else 0))
                        continue
                    lb += (fan_t[t] - r) * cost[q]
                    if r > 0:
                        lb += r * cost[q + 1]
                bound[m] = lb
                pairs += n
            if bound[m] > (flimit if kind == ENTROPY else ilimit):
                out[i] = np.inf
                continue
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


# -- most parts: bounds from the guess's colours first ---------------------------------------
#
# A candidate's black + white count t against a guess depends on the guess's colours only (its
# multiset), not on their order, and a class (b, t) needs b <= t. So with ct[t] candidates at
# total t, a guess has at most sum over t of min(ct[t], fan_t[t]) classes, fan_t[t] the classes
# (b, t) that can occur: a bound shared by every guess of those colours, computed once per node
# and multiset. Of the guesses that must beat the best candidate on 5x8 it settles 61% at
# nodes of under 16 candidates and 93-98% at larger ones; the rest get their black counts (one
# pass over the peg masks), two sharper bounds (classes per black count <= the totals present
# that it may pair with, and the same per total), and only then the classes themselves. The
# number of classes is exact whenever it decides, so the scores (and +inf) are the loops'.


def multisets(game) -> tuple[np.ndarray, int]:
    """(size,) int32 array, the index of every code's colour multiset; and how many there are."""
    rows = np.ascontiguousarray(np.sort(game.digits, axis=1))  # the colours, in order
    values, index = np.unique(rows.view(np.dtype((np.void, rows.shape[1]))).ravel(), return_inverse=True)
    return index.reshape(-1).astype(np.int32), len(values)


def _valid_masks(pegs: int) -> tuple[np.ndarray, np.ndarray]:
    """(by_black, by_total): bit t of by_black[b] (bit b of by_total[t]) when the class
    (b blacks, t = blacks + whites) can occur: b <= t <= pegs, never (pegs - 1 blacks, 1 white)."""
    by_black = np.zeros(8, dtype=np.int64)
    by_total = np.zeros(8, dtype=np.int64)
    for b in range(pegs + 1):
        for t in range(b, pegs + 1):
            if not (b == pegs - 1 and t == pegs):
                by_black[b] |= 1 << t
                by_total[t] |= 1 << b
    return by_black, by_total


@njit(cache=True, nogil=True)
def parts_scores(gp, gc, gms, n_ms, fan_t, by_black, by_total, digits, candidates, pegs, colors, guesses,
                 ilimit, floor, out):  # pragma: no cover
    """What ``bit_scores`` fills in for PARTS (same ``out``), with the bounds above; returns the
    (guess, candidate) pairs of the guesses that got past the multiset's bound."""
    pm, cm = node_masks(digits, candidates, pegs, colors)
    n = candidates.shape[0]
    words = pm.shape[1]
    P = pegs + 1
    zero = np.uint64(0)
    one = np.uint64(1)
    ones = ~zero
    last = ones if n % 64 == 0 else (one << np.uint64(n % 64)) - one
    # Per multiset met: bound, totals present (bits), candidates per total, totals' masks (one word).
    unknown = -(np.int64(1) << 62) - 1  # below any number of classes needed
    bound = np.full(n_ms, unknown, dtype=np.int64)
    present_t = np.empty(n_ms, dtype=np.int64)
    ct = np.empty((n_ms, P), dtype=np.int64)
    eqt = np.empty((n_ms if words == 1 else 1, P), dtype=np.uint64)
    eqb = np.empty((words, P), dtype=np.uint64)
    cb = np.zeros(P, dtype=np.int64)
    tw = np.empty(P, dtype=np.uint64)
    need = max(-ilimit, unknown + 1)  # classes needed (minus the limit; never ``unknown``)
    pairs = 0
    out[:] = np.inf
    for i in range(guesses.shape[0]):
        g = guesses[i]
        m = gms[g]
        if bound[m] < need:
            if bound[m] != unknown:
                continue
            _totals(cm, gc[g], words, pegs, last, ct[m], eqt[m if words == 1 else 0])
            ub = 0
            seen = 0
            for t in range(P):
                ub += min(ct[m, t], fan_t[t])
                if ct[m, t] > 0:
                    seen |= 1 << t
            bound[m] = ub
            present_t[m] = seen
            if ub < need:
                continue
        pairs += n
        # Black counts: the candidates per number of blacks (word by word, kept in ``eqb``).
        # (The three-bit adder over the pegs is written out in the two loops per guess below, not
        # a helper: a numba call with array arguments counts a reference per array per call, which
        # cost a third of the exact search's time when it had such helpers in its hot loops; once
        # per multiset, above, the call costs nothing to speak of.)
        for b in range(P):
            cb[b] = 0
        for w in range(words):
            b0 = b1 = b2 = zero
            for j in range(pegs):
                x = pm[gp[g, j], w]
                c0 = b0 & x
                b0 ^= x
                c1 = b1 & c0
                b1 ^= c0
                b2 ^= c1
            for b in range(P):
                v = (b0 if b & 1 else ~b0) & (b1 if b & 2 else ~b1) & (b2 if b & 4 else ~b2)
                if b == 0 and w == words - 1:
                    v &= last
                eqb[w, b] = v
                cb[b] += np.int64(_popcount(v))
        # Two sharper bounds: per black count, the totals present; per total, the black counts.
        seen_t = present_t[m]
        seen_b = 0
        ub_b = 0
        for b in range(P):
            if cb[b] > 0:
                seen_b |= 1 << b
                ub_b += min(cb[b], np.int64(_popcount(np.uint64(by_black[b] & seen_t))))
        ub_t = 0
        for t in range(P):
            ub_t += min(ct[m, t], np.int64(_popcount(np.uint64(by_total[t] & seen_b))))
        ub = min(ub_b, ub_t)
        if ub < need:
            continue
        # The classes themselves: (b, t) is a class when some candidate is in both masks.
        value = 0
        if words == 1:
            for b in range(P):
                mb = eqb[0, b]
                for t in range(b, P):
                    if mb & eqt[m, t] != zero:
                        value += 1
        else:
            found = np.int64(0)  # bit b * P + t
            for w in range(words):
                t0 = t1 = t2 = zero
                for j in range(pegs):
                    x = cm[gc[g, j], w]
                    c0 = t0 & x
                    t0 ^= x
                    c1 = t1 & c0
                    t1 ^= c0
                    t2 ^= c1
                for t in range(P):
                    v = (t0 if t & 1 else ~t0) & (t1 if t & 2 else ~t1) & (t2 if t & 4 else ~t2)
                    if t == 0 and w == words - 1:
                        v &= last
                    tw[t] = v
                for b in range(P):
                    mb = eqb[w, b]
                    if mb != zero:
                        for t in range(b, P):
                            if mb & tw[t] != zero:
                                found |= np.int64(1) << (b * P + t)
                value = np.int64(_popcount(np.uint64(found)))
                if value == ub:  # as many classes as the bound: no more to find
                    break
        if value >= need:
            out[i] = -value
            need = value + 1
            if -need < floor:  # the later guesses cannot do better: they stay +inf
                break
    return pairs
