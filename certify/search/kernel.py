"""Compiled loops of the search (numba): class sizes, partition identity, perfect splits."""

from __future__ import annotations

import numpy as np
from ..compiled import njit


@njit(cache=True, nogil=True)
def class_sizes(fb, guesses, cands, n_fb):  # pragma: no cover
    """(len(guesses), n_fb) int32: how many candidates get each feedback from each guess."""
    out = np.zeros((guesses.shape[0], n_fb), dtype=np.int32)
    for i in range(guesses.shape[0]):
        row = fb[guesses[i]]
        for s in cands:
            out[i, row[s]] += 1
    return out


@njit(cache=True, nogil=True)
def partition_hashes(fb, guesses, cands, n_fb, win):  # pragma: no cover
    """A 64-bit hash per guess of its partition of the candidates as a set of classes
    (labels renumbered by first appearance, the win class labelled apart): equal
    partitions, equal hashes."""
    out = np.empty(guesses.shape[0], dtype=np.uint64)
    label = np.full(n_fb, -1, dtype=np.int64)
    for i in range(guesses.shape[0]):
        row = fb[guesses[i]]
        label[win] = 0
        nxt = 1
        h = np.uint64(1469598103934665603)
        for s in cands:
            f = row[s]
            if label[f] < 0:
                label[f] = nxt
                nxt += 1
            h = (h ^ np.uint64(label[f] + 1)) * np.uint64(1099511628211)
        out[i] = h
        for f in range(n_fb):
            label[f] = -1
    return out


@njit(cache=True, nogil=True)
def same_partition(fb, a, b, cands, n_fb, win):  # pragma: no cover
    """Whether guesses a and b split the candidates into the same classes, the win class
    (if any) being the same too."""
    ab = np.full(n_fb, -1, dtype=np.int64)
    ba = np.full(n_fb, -1, dtype=np.int64)
    ra = fb[a]
    rb = fb[b]
    for s in cands:
        x = ra[s]
        y = rb[s]
        if (x == win) != (y == win):
            return False
        if ab[x] < 0 and ba[y] < 0:
            ab[x] = y
            ba[y] = x
        elif ab[x] != y or ba[y] != x:
            return False
    return True


@njit(cache=True, nogil=True)
def perfect_split(fb, cands, n_fb, win):  # pragma: no cover
    """Whether some code splits the candidates into classes of at most one (then two more
    guesses at most settle every secret). Scans every code."""
    seen = np.zeros(n_fb, dtype=np.int64)
    for g in range(fb.shape[0]):
        row = fb[g]
        ok = True
        for s in cands:
            f = row[s]
            if f != win:
                if seen[f] == g + 1:
                    ok = False
                    break
                seen[f] = g + 1
        if ok:
            return True
    return False


@njit(cache=True, nogil=True)
def split_within(fb, cands, n_fb, win, limit):  # pragma: no cover
    """Whether some code splits the candidates into non-winning classes of at most ``limit``
    each (perfect_split is limit 1). Every code's classes are counted at once, a candidate's row
    of the (symmetric) matrix read in order (code by code, each read a cache miss per
    candidate: twice as long on 5x9 without repetition); stops when every code has passed."""
    n = fb.shape[0]
    count = np.zeros((n, n_fb), dtype=np.int32)
    over = np.zeros(n, dtype=np.bool_)
    alive = n
    for s in cands:
        row = fb[s]  # fb[s, g] = fb[g, s]
        for g in range(n):
            f = row[g]
            if f != win:
                c = count[g, f] + 1
                count[g, f] = c
                if c == limit + 1 and not over[g]:
                    over[g] = True
                    alive -= 1
        if alive == 0:
            return False
    return alive > 0


@njit(cache=True, nogil=True)
def same_partitions(fb, a, b, cands, n_fb, win):  # pragma: no cover
    """same_partition for each pair (a[i], b[i])."""
    out = np.empty(a.shape[0], dtype=np.bool_)
    for i in range(a.shape[0]):
        out[i] = same_partition(fb, a[i], b[i], cands, n_fb, win)
    return out


#: Colour maps checked per peg permutation by :func:`find_map` before it tries the next one.
MAP_TRIES = 24


@njit(cache=True, nogil=True)
def set_hashes(fb, pool, starts, sizes, n_fb, cap):  # pragma: no cover
    """A 64-bit hash per set pool[starts[t]:starts[t] + sizes[t]] that every peg and colour
    permutation keeps (feedback is invariant: each code's histogram of feedback against the
    set, the histograms' hashes sorted); 0 for sets of more than ``cap`` codes (not hashed:
    their sharing would cost |S|^2)."""
    out = np.zeros(starts.shape[0], dtype=np.uint64)
    hist = np.zeros(n_fb, dtype=np.int64)
    vals = np.empty(cap, dtype=np.uint64)
    prime = np.uint64(1099511628211)
    for t in range(starts.shape[0]):
        m = sizes[t]
        if m > cap:
            continue
        s0 = starts[t]
        for a in range(m):
            row = fb[pool[s0 + a]]
            for f in range(n_fb):
                hist[f] = 0
            for b in range(m):
                hist[row[pool[s0 + b]]] += 1
            h = np.uint64(1469598103934665603)
            for f in range(n_fb):
                h = (h ^ np.uint64(hist[f] + 1)) * prime
            vals[a] = h
        v = np.sort(vals[:m])
        h = np.uint64(m) * prime
        for a in range(m):
            h = (h ^ v[a]) * prime
        out[t] = h | np.uint64(1)
    return out


@njit(cache=True, nogil=True)
def find_map(R, T, digits, colors, perms, pows, vindex, mark, out):  # pragma: no cover
    """Whether some permutation P of pegs and colours maps the set R onto the set T (both of
    one size); if so, out[:p] = its pegs sigma, out[p:] = its colours tau, with
    y[sigma[i]] = tau[x[i]]. Colours are matched by how often they sit on each peg (at most
    MAP_TRIES complete maps checked per peg permutation, so a map may be missed: then the
    sets are not shared, which costs size, never soundness). ``mark``: n booleans, all False
    (and left so).

    The walk over colour maps is :func:`.engine.stabilizer`'s, written again on purpose: that
    one maps a set onto itself over every colour, each colour trying itself first, and the
    order it finds maps in decides the committed proofs' bytes; this one maps one set onto
    another over the colours they use, and restarts a colour's options on backtracking."""
    p = digits.shape[1]
    sr = np.zeros((colors, p), dtype=np.int64)
    st = np.zeros((colors, p), dtype=np.int64)
    for s in R:
        for i in range(p):
            sr[digits[s, i], i] += 1
    for s in T:
        mark[s] = True
        for i in range(p):
            st[digits[s, i], i] += 1
    # The colours R uses, and those T uses (the others are mapped onto each other in order:
    # the image does not depend on them).
    used_r = np.zeros(colors, dtype=np.int64)
    used_t = np.zeros(colors, dtype=np.int64)
    nr = 0
    nt = 0
    for a in range(colors):
        if sr[a].sum() > 0:
            used_r[nr] = a
            nr += 1
        if st[a].sum() > 0:
            used_t[nt] = a
            nt += 1
    found = False
    if nr == nt:
        tau = np.empty(colors, dtype=np.int64)
        taken = np.zeros(colors, dtype=np.bool_)
        optlist = np.zeros((nr, nr), dtype=np.int64)
        optlen = np.zeros(nr, dtype=np.int64)
        idx = np.zeros(nr, dtype=np.int64)
        for k in range(perms.shape[0]):
            sg = perms[k]
            possible = True
            for la in range(nr):
                a = used_r[la]
                m = 0
                for lb in range(nr):
                    b = used_t[lb]
                    ok = True
                    for i in range(p):
                        if st[b, sg[i]] != sr[a, i]:
                            ok = False
                            break
                    if ok:
                        optlist[la, m] = b
                        m += 1
                optlen[la] = m
                idx[la] = 0
                if m == 0:
                    possible = False
                    break
            if not possible:
                continue
            for b in range(colors):
                taken[b] = False
            tries = 0
            level = 0
            while level >= 0:
                if level == nr:
                    tries += 1
                    good = True
                    for s in R:
                        v = 0  # the image of s: colour tau[s[i]] on peg sg[i]
                        for i in range(p):
                            v += tau[digits[s, i]] * pows[sg[i]]
                        w = vindex[v]
                        if w < 0 or not mark[w]:
                            good = False
                            break
                    if good:
                        found = True
                        break
                    if tries >= MAP_TRIES:
                        break
                    level -= 1
                    taken[tau[used_r[level]]] = False
                    idx[level] += 1
                    continue
                while idx[level] < optlen[level] and taken[optlist[level, idx[level]]]:
                    idx[level] += 1
                if idx[level] == optlen[level]:
                    idx[level] = 0
                    level -= 1
                    if level >= 0:
                        taken[tau[used_r[level]]] = False
                        idx[level] += 1
                    continue
                b = optlist[level, idx[level]]
                tau[used_r[level]] = b
                taken[b] = True
                level += 1
            if found:
                # The unused colours of R onto those of T, in order.
                b = 0
                for a in range(colors):
                    if sr[a].sum() == 0:
                        while st[b].sum() > 0 or taken[b]:
                            b += 1
                        tau[a] = b
                        taken[b] = True
                for i in range(p):
                    out[i] = sg[i]
                for a in range(colors):
                    out[p + a] = tau[a]
                break
    for s in T:
        mark[s] = False
    return found
