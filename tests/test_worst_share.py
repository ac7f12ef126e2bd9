"""The worst-case search's first guesses as tasks (WorstSearch.fan_out), without Dask: the rounds go
in the one-process search's order, and the tasks share what they settled through an exchange."""

from __future__ import annotations

import numpy as np
import pytest

from certify.game import Game
from certify.search import worst
from certify.search.kernel import class_sizes
from certify.search.worst import WorstSearch


def _in_process(width, seen=None):
    """A run(func, args) that runs each task here, in order, recording the tasks' arguments."""
    def run(func, args):
        if seen is not None:
            seen.extend(args)
        return [func(*a) for a in args]
    run.width = width
    return run


@pytest.fixture(autouse=True)
def fresh_workers():
    """Each test starts with no worker memo (as a new cluster's workers)."""
    worst._WORKER.clear()
    yield
    worst._WORKER.clear()


@pytest.mark.parametrize("game", [Game(4, 5), Game(3, 5)], ids=str)
def test_fan_out_goes_in_the_search_order(game):
    """Rounds in _search's order (the smallest biggest class first): the client then finds every
    answer it needs in the tasks' entries (it searches the root only). In representatives' order
    4x7 at k = 7 searched two failing guesses in its first round and the client searched the
    guess _search tries first itself (942 sets against 441 in one process)."""
    search = WorstSearch(game)
    every = search._every
    d = search.count.worst(len(every))
    while True:
        seen = []
        search.fan_out(d + 1, _in_process(2, seen))
        if seen:
            sp = search.space
            guesses = search.representatives(every)[0]
            sizes = class_sizes(sp.fb, guesses, every, sp.n_fb)
            sizes[:, sp.win] = 0
            biggest = sizes.max(axis=1)
            order = [int(guesses[i]) for i in np.argsort(biggest, kind="stable") if biggest[i] <= search.count.N(d - 1)]
            assert [a[1] for a in seen] == order[:len(seen)]
        before = search.nodes
        found = search.needs(every, d + 1)
        assert search.nodes - before <= 1  # the root's own node, nothing below it
        if not found:
            break
        d += 1
    one = WorstSearch(game)
    assert one.prove(d) == search.prove(d)
