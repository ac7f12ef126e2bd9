"""The least total in independent tasks (certify/search/split.py), the exact search that runs
on Dask (`build optimal --workers N`): the same least total and strategy as the one-process
search, a proof the checker accepts, and bytes that do not depend on who runs the tasks, in what
order. Small games only (the suite's time); `make bench BENCH_ARGS=--big` times 4x7 and Bulls and
Cows on 1 and 2 workers."""

from __future__ import annotations

import pytest

from certify import verify, verify_bound
from certify.certificate import dumps as strategy_bytes
from certify.game import Game
from certify.search.proof import dumps
from certify.search.split import SplitSearch, class_task
from certify.search.total import TotalSearch

from conftest import run_cli

GAMES = [(3, 3, True, None), (4, 4, True, None), (4, 4, True, 4), (3, 4, True, None), (4, 5, False, None),
         (3, 5, False, 4)]


def _split(game, limit, run=None):
    search = SplitSearch(game, limit, run=run)
    value = search.solve()
    return value, dumps(search.prove()), strategy_bytes(search.strategy_certificate()), search


@pytest.mark.parametrize("pegs,colors,repetition,limit", GAMES)
def test_split_meets_the_one_process_search(pegs, colors, repetition, limit):
    game = Game(pegs, colors, repetition)
    serial = TotalSearch(game, limit)
    total = serial.solve()
    value, proof, strategy, search = _split(game, limit)
    assert value == total and search.tasks > 1
    report = verify_bound.check_bytes(proof)
    assert report.valid, report.line()
    assert report.claims == ({"total": total} if limit is None else {"total": total, "max_guesses": limit})
    # Not always the serial search's strategy: one guess below the root, the serial search decides
    # in Python (first guess of least value), a task in the compiled search, whose rule for small
    # sets takes the first code that splits them into singletons (3x4: 121, where 120 ties).
    checked = verify.verify_bytes(strategy)
    assert checked.valid and checked.claims["total_guesses"] == total


def test_bytes_do_not_depend_on_the_order_tasks_run_in():
    game = Game(4, 4)
    calls = []

    def backwards(func, args):  # run the last task first, return the results in order
        calls.append(len(args))
        return list(reversed([func(*a) for a in reversed(args)]))

    assert _split(game, None, backwards)[1:3] == _split(game, None)[1:3]
    assert sum(calls) > 1


def test_a_task_depends_on_its_inputs_alone():
    """The same task twice in one process (the second finds the first's Space cached) gives the
    same result: no memo survives between tasks."""
    import numpy as np

    game = Game(4, 4)
    space = TotalSearch(game).space
    row = space.fb[space.texts.index("0011")]
    every = np.arange(game.size, dtype=np.int64)
    cls = every[row == row[space.texts.index("0123")]].tobytes()
    first = class_task(game.key(), None, cls, 10**9)
    assert class_task(game.key(), None, cls, 10**9) == first
    narrow = class_task(game.key(), None, cls, first[0])  # a window at the value: a bound, no strategy
    assert narrow[0] >= first[0] and narrow[2] == {}


def test_workers_give_the_bytes_of_one_worker_and_of_one_process(tmp_path):
    files = {}
    for workers in ("1", "2"):
        s, p = tmp_path / f"s{workers}.json", tmp_path / f"p{workers}.json"
        r = run_cli("build", "optimal", "--pegs", 3, "--colors", 4, "--workers", workers, "--proof", p, "-o", s)
        assert r.returncode == 0, r.stderr
        assert "tasks" in r.stdout
        files[workers] = (s.read_bytes(), p.read_bytes())
    assert files["1"] == files["2"]
    _, proof, strategy, _ = _split(Game(3, 4), None)
    assert files["2"] == (strategy, proof)
    v = run_cli("verify", tmp_path / "s2.json", "--optimal", tmp_path / "p2.json")
    assert v.returncode == 0 and "optimal: total 206 guesses = proven minimum 206" in v.stdout


@pytest.mark.parametrize("pegs,colors,repetition,limit", GAMES + [(4, 5, True, None)])
def test_big_classes_split_by_their_guesses_meet_the_one_process_search(monkeypatch, pegs, colors,
                                                                        repetition, limit):
    """SPLIT_AT lowered so that small games split their classes by guesses too (4x7 and Bulls and
    Cows do at 400): the least total, a proof the checker accepts, a strategy that reaches it."""
    from certify.search import split

    monkeypatch.setattr(split, "SPLIT_AT", 20)
    game = Game(pegs, colors, repetition)
    total = TotalSearch(game, limit).solve()
    funcs = []

    def run(func, args):
        funcs.append(func.__name__)
        return [func(*a) for a in args]

    value, proof, strategy, search = _split(game, limit, run)
    assert value == total
    report = verify_bound.check_bytes(proof)
    assert report.valid, report.line()
    assert report.claims["total"] == total
    checked = verify.verify_bytes(strategy)
    assert checked.valid and checked.claims["total_guesses"] == total
    if game.size >= 200:  # 4x4, 4x5: classes of 20 and more
        assert "guesses_task" in funcs
    if (pegs, colors, limit) == (4, 4, 4):  # windows below a class's value: bounds, not values
        assert any(not entry.exact for entry in search.memo.values())


def test_split_classes_give_bytes_that_do_not_depend_on_the_task_order(monkeypatch):
    from certify.search import split

    monkeypatch.setattr(split, "SPLIT_AT", 20)
    game = Game(4, 4)

    def backwards(func, args):
        return list(reversed([func(*a) for a in reversed(args)]))

    forwards = _split(game, 4)
    assert _split(game, 4, backwards)[1:3] == forwards[1:3]
    serial = TotalSearch(game)
    serial.solve()
    assert _split(game, None)[2] == strategy_bytes(serial.strategy_certificate())


#: The counting objectives (issue 45): least total within D then fewest secrets needing D, and
#: the other order; D at the least worst case and above.
COUNTING = [(3, 3, True, 4), (3, 3, True, 5), (2, 5, True, 4), (3, 4, True, 4), (3, 4, True, 5), (4, 4, True, 4),
            (4, 4, True, 5), (3, 5, False, 4), (3, 4, False, 4), (4, 5, False, 5), (4, 5, False, 6)]


@pytest.mark.parametrize("first", ["at_max", "total"])
@pytest.mark.parametrize("split_at", [400, 20])
@pytest.mark.parametrize("pegs,colors,repetition,limit", COUNTING)
def test_counting_objectives_split_meet_the_one_process_search(monkeypatch, pegs, colors, repetition, limit,
                                                               split_at, first):
    """The split search on the costs of the counting objectives: the one-process pair (total,
    secrets needing D), a proof the checker accepts with the one-process claims, a strategy
    that reaches the pair; SPLIT_AT 20 also splits classes by their guesses (guesses_task)."""
    from certify.search import split

    monkeypatch.setattr(split, "SPLIT_AT", split_at)
    game = Game(pegs, colors, repetition)
    serial = TotalSearch(game, limit, at_max=True, first=first)
    pair = serial.pair(serial.solve())
    funcs = []

    def run(func, args):
        funcs.append(func.__name__)
        return [func(*a) for a in args]

    search = SplitSearch(game, limit, run=run, at_max=True, first=first)
    assert search.pair(search.solve()) == pair and search.tasks > 1
    assert all(a[-1] == split.objective_of(True, first) for a in _task_args(search, game, limit))
    report = verify_bound.check_bytes(dumps(search.prove()))
    assert report.valid, report.line()
    assert report.claims == verify_bound.check_bytes(dumps(serial.prove())).claims
    assert (report.claims["total"], report.claims["at_max"]) == pair
    claims = verify.verify_bytes(strategy_bytes(search.strategy_certificate())).claims
    assert (claims["total_guesses"], claims["histogram"].get(str(limit), 0)) == pair
    if split_at == 20 and game.size >= 200:
        assert "guesses_task" in funcs


def _task_args(search, game, limit):
    """A class task's arguments as the search gives them (its objective last)."""
    import numpy as np

    return [search._task(np.arange(3, dtype=np.int64).tobytes(), 10, depth) for depth in (1, 2)]


def test_the_orders_differ_and_each_split_search_finds_its_own():
    """4x5 without repetition within 5: fewest secrets needing 5 first (21, then 464) is not the
    least total first (462, then 23): the split search keeps the objective of its tasks apart."""
    game = Game(4, 5, False)
    found = {}
    for first in ("at_max", "total"):
        search = SplitSearch(game, 5, at_max=True, first=first)
        found[first] = search.pair(search.solve())
    assert found == {"at_max": (464, 21), "total": (462, 23)}


@pytest.mark.parametrize("first", ["at_max", "total"])
def test_counting_bytes_do_not_depend_on_the_order_tasks_run_in(monkeypatch, first):
    from certify.search import split

    monkeypatch.setattr(split, "SPLIT_AT", 20)
    game = Game(4, 4)

    def backwards(func, args):
        return list(reversed([func(*a) for a in reversed(args)]))

    def files(run):
        search = SplitSearch(game, 4, run=run, at_max=True, first=first)
        search.solve()
        return dumps(search.prove()), strategy_bytes(search.strategy_certificate())

    assert files(backwards) == files(None)
