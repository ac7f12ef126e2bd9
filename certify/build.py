"""Expand a strategy into its explicit decision tree and compute the claims."""

from __future__ import annotations

import numpy as np

from .errors import CertifyError
from .game import Game
from .strategies.base import Strategy

#: A strategy that has not found every secret after this many guesses is broken (it loops).
MAX_DEPTH = 200

__all__ = ["MAX_DEPTH", "build_tree", "claims_of"]


def fb_key(game: Game, fb: int) -> str:
    b, w = game.decode(fb)
    return f"{b},{w}"


def build_tree(strategy: Strategy, progress=None) -> tuple[dict, dict[int, int]]:
    """Return (tree, histogram) for the strategy on its game.

    Only feedbacks that some remaining secret produces become branches. The tree is
    built depth-first with an explicit stack, children in numeric (black, white) order.
    ``progress``, if given, is called with the number of secrets settled at each leaf.
    """
    game = strategy.game
    game.check_size()
    histogram: dict[int, int] = {}
    root: dict = {}
    everything = np.arange(game.size, dtype=np.int64)
    keys = [fb_key(game, fb) for fb in range(game.n_feedbacks)]
    win = game.win
    stack = [(root, everything, ())]
    while stack:
        node, candidates, history = stack.pop()
        depth = len(history) + 1
        if depth > MAX_DEPTH:
            path = " ".join(f"{game.text(g)} -({fb_key(game, f)})->" for g, f in history)
            raise CertifyError(f"strategy {strategy.id!r} still has {len(candidates)} secrets after "
                               f"{MAX_DEPTH} guesses at {path}")
        guess = int(strategy.choose(candidates, history))
        if not 0 <= guess < game.size:
            raise CertifyError(f"strategy {strategy.id!r} chose an invalid guess index {guess}")
        node["guess"] = game.text(guess)
        if len(candidates) == 1 and guess == candidates[0]:  # the common last guess
            histogram[depth] = histogram.get(depth, 0) + 1
            if progress:
                progress(1)
            continue
        fbs = game.feedback_row(guess, candidates)
        sizes = np.bincount(fbs, minlength=game.n_feedbacks)
        order = np.argsort(fbs, kind="stable")  # stable: each class stays sorted
        children = []
        lo = 0
        for fb in np.flatnonzero(sizes).tolist():
            hi = lo + int(sizes[fb])
            if fb == win:
                histogram[depth] = histogram.get(depth, 0) + 1
                if progress:
                    progress(1)
            else:
                children.append((keys[fb], {}, candidates[order[lo:hi]], history + ((guess, fb),)))
            lo = hi
        if children:
            node["next"] = {key: child for key, child, _, _ in children}
            # Push in reverse so the lowest feedback is expanded first (deterministic, and any
            # error names the first failing path in tree order).
            for _, child, cand, hist in reversed(children):
                stack.append((child, cand, hist))
    return root, dict(sorted(histogram.items()))


def claims_of(histogram: dict[int, int]) -> dict:
    """The certificate's claims from the histogram {guesses: secrets}."""
    return {
        "secrets": sum(histogram.values()),
        "max_guesses": max(histogram),
        "total_guesses": sum(k * v for k, v in histogram.items()),
        "histogram": {str(k): v for k, v in sorted(histogram.items()) if v},
    }
