"""What both scoring loops share (:mod:`.kernel`'s and :mod:`.bitkernel`'s): the kinds of score,
entropy's fixed point and its verdict against the reference. Here, below both, so that the
kernel (which hands big nodes to the bit-sliced loops) and the bit-sliced loops (which take
these from it) need not import each other."""

from __future__ import annotations

import numpy as np

from ..compiled import njit

MAX, SUMSQ, PARTS, ENTROPY = 0, 1, 2, 3
#: Entropy's running sum is kept in fixed point (integer adds are faster than float adds
#: chained one on the other); each step rounded down, so the sum is a lower bound.
SCALE = float(1 << 36)


@njit(cache=True, nogil=True)
def _same_sizes(counts, hist, ref_hist):  # pragma: no cover
    """Whether the classes have the sizes of the reference: ``ref_hist[c]`` is how many
    classes of size c it has (``ref_hist[0]``: how many classes). ``hist`` is left zero."""
    classes = 0
    for c in counts:
        if c > 0:
            hist[c] += 1
            classes += 1
    same = classes == ref_hist[0]
    for c in counts:
        if c > 0 and hist[c] != ref_hist[c]:
            same = False
    for c in counts:
        hist[c] = 0
    return same


@njit(cache=True, nogil=True)
def _set_sizes(counts, ref_hist):  # pragma: no cover
    ref_hist[:] = 0
    for c in counts:
        if c > 0:
            ref_hist[c] += 1
            ref_hist[0] += 1


@njit(cache=True, nogil=True, inline="always")
def _entropy_verdict(value, counts, hist, ref, ref_hist, ftol, flimit):  # pragma: no cover
    """(score to record, new limit) of an entropy ``value`` (fixed point) within the limit: a
    clearly better value becomes the reference (``ref``, ``ref_hist`` updated in place); an
    exact tie with the reference (the same class sizes) is dropped."""
    if value < ref[0] - ftol:  # clearly better: the new reference
        ref[0] = value
        _set_sizes(counts, ref_hist)
        return value / SCALE, value + ftol
    if value == ref[0] and _same_sizes(counts, hist, ref_hist):  # an exact tie
        return np.inf, flimit
    return value / SCALE, flimit
