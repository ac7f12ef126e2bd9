"""Partition counting: how a guess splits the candidates by feedback."""

from __future__ import annotations

import numpy as np

from ..game import Game

# (guess, candidate) pairs handled per block: small enough for the cache, large enough
# that numpy's per-call overhead does not matter.
_BLOCK_PAIRS = 1 << 17


def partition_counts(game: Game, guesses: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """(len(guesses), n_feedbacks) int64 array: class sizes of the candidates under each guess."""
    F = game.n_feedbacks
    guesses = np.asarray(guesses, dtype=np.int64)
    candidates = np.asarray(candidates, dtype=np.int64)
    out = np.empty((len(guesses), F), dtype=np.int64)
    block = max(1, _BLOCK_PAIRS // max(1, len(candidates)))
    offsets = (np.arange(block, dtype=np.intp) * F)[:, None]
    for lo in range(0, len(guesses), block):
        g = guesses[lo : lo + block]
        # Class (row, feedback) -> row * F + feedback, counted in one bincount.
        fb = game.feedback(g, candidates).astype(np.intp)
        fb += offsets[: len(g)]
        out[lo : lo + len(g)] = np.bincount(fb.ravel(), minlength=len(g) * F).reshape(len(g), F)
    return out
