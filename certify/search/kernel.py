"""Compiled loops of the search (numba): class sizes, partition identity, perfect splits."""

from __future__ import annotations

import numpy as np
from .compiled import njit


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
def same_partitions(fb, a, b, cands, n_fb, win):  # pragma: no cover
    """same_partition for each pair (a[i], b[i])."""
    out = np.empty(a.shape[0], dtype=np.bool_)
    for i in range(a.shape[0]):
        out[i] = same_partition(fb, a[i], b[i], cands, n_fb, win)
    return out
