"""Expand a strategy into its explicit decision tree and compute the claims.

The tree below any node depends only on the strategy and the node's history (the secrets
left there are the ones consistent with it), so subtrees can be built apart and grafted:
:func:`split_node` expands one node, :func:`build_subtree` a whole subtree from its
history. ``certify.distributed`` ships those as tasks; nothing here knows about it.
"""

from __future__ import annotations

import numpy as np

from .errors import CertifyError
from .game import Game
from .strategies.base import Strategy

#: A strategy that has not found every secret after this many guesses is broken (it loops).
MAX_DEPTH = 200

__all__ = ["MAX_DEPTH", "build_tree", "build_subtree", "candidates_after", "claims_of",
           "merge_histogram", "split_node"]


def fb_key(game: Game, fb: int) -> str:
    return game.key_text(fb)


def candidates_after(game: Game, history: tuple) -> np.ndarray:
    """The secrets (indices, in code order) that give every answer of ``history``."""
    candidates = np.arange(game.size, dtype=np.int64)
    for guess, fb in history:
        candidates = candidates[game.feedback_row(guess, candidates) == fb]
    return candidates


def split_node(strategy: Strategy, candidates: np.ndarray, history: tuple):
    """One node: (guess, whether it wins here, [(feedback, candidates)] of the children).

    Children come in numeric feedback order, each with its candidates in code order."""
    game = strategy.game
    if len(history) + 1 > MAX_DEPTH:
        path = " ".join(f"{game.text(g)} -({fb_key(game, f)})->" for g, f in history)
        raise CertifyError(f"strategy {strategy.id!r} still has {len(candidates)} secrets after "
                           f"{MAX_DEPTH} guesses at {path}")
    guess = int(strategy.choose(candidates, history))
    if not 0 <= guess < game.size:
        raise CertifyError(f"strategy {strategy.id!r} chose an invalid guess index {guess}")
    if len(candidates) == 1 and guess == candidates[0]:  # the common last guess
        return guess, True, []
    ordered, sizes = strategy.split(guess, candidates)
    children = []
    won = False
    lo = 0
    for fb in np.flatnonzero(sizes).tolist():
        hi = lo + int(sizes[fb])
        if fb == game.win:
            won = True
        else:
            children.append((fb, ordered[lo:hi]))
        lo = hi
    return guess, won, children


def build_subtree(strategy: Strategy, candidates: np.ndarray | None = None, history: tuple = (),
                  progress=None) -> tuple[dict, dict[int, int]]:
    """(subtree, histogram) below ``history`` (its candidates computed when not given).

    Built depth-first with an explicit stack, children in numeric (black, white) order.
    ``progress``, if given, is called with the number of secrets settled at each leaf.
    """
    game = strategy.game
    if candidates is None:
        candidates = candidates_after(game, history)
    histogram: dict[int, int] = {}
    keys = [fb_key(game, fb) for fb in range(game.n_feedbacks)]
    root: dict = {}
    stack = [(root, candidates, history)]
    while stack:
        node, candidates, history = stack.pop()
        guess, won, children = split_node(strategy, candidates, history)
        node["guess"] = game.text(guess)
        if won:
            depth = len(history) + 1
            histogram[depth] = histogram.get(depth, 0) + 1
            if progress:
                progress(1)
        if children:
            nodes = [{} for _ in children]
            node["next"] = {keys[fb]: child for (fb, _), child in zip(children, nodes)}
            # Push in reverse so the lowest feedback is expanded first (deterministic, and any
            # error names the first failing path in tree order).
            for (fb, cand), child in zip(reversed(children), reversed(nodes)):
                stack.append((child, cand, history + ((guess, fb),)))
    return root, histogram


def build_tree(strategy: Strategy, progress=None) -> tuple[dict, dict[int, int]]:
    """Return (tree, histogram) for the strategy on its game.

    Only feedbacks that some remaining secret produces become branches.
    """
    game = strategy.game
    game.check_size()
    tree, histogram = build_subtree(strategy, np.arange(game.size, dtype=np.int64), (), progress)
    return tree, dict(sorted(histogram.items()))


def merge_histogram(into: dict[int, int], other: dict[int, int]) -> None:
    for depth, n in other.items():
        into[depth] = into.get(depth, 0) + n


def claims_of(histogram: dict[int, int]) -> dict:
    """The certificate's claims from the histogram {guesses: secrets}."""
    return {
        "secrets": sum(histogram.values()),
        "max_guesses": max(histogram),
        "total_guesses": sum(k * v for k, v in histogram.items()),
        "histogram": {str(k): v for k, v in sorted(histogram.items()) if v},
    }
