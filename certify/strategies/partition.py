"""Partition counting: how a guess splits the candidates by feedback."""

from __future__ import annotations

import numpy as np

from ..game import Game

# Bound on the (guesses x candidates) feedback block held at once.
_BLOCK_CELLS = 8_000_000


def partition_counts(game: Game, guesses: np.ndarray, candidates: np.ndarray) -> np.ndarray:
    """(len(guesses), n_feedbacks) int array: class sizes of the candidates under each guess."""
    F = game.n_feedbacks
    guesses = np.asarray(guesses, dtype=np.int64)
    out = np.empty((len(guesses), F), dtype=np.int64)
    block = max(1, _BLOCK_CELLS // max(1, len(candidates)))
    for lo in range(0, len(guesses), block):
        g = guesses[lo : lo + block]
        fb = game.feedback(g, candidates).astype(np.int64)
        fb += (np.arange(len(g), dtype=np.int64) * F)[:, None]
        out[lo : lo + block] = np.bincount(fb.ravel(), minlength=len(g) * F).reshape(len(g), F)
    return out
