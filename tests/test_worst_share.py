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
def fresh_workers(monkeypatch):
    """Each test starts with no worker memo (as a new cluster's workers)."""
    monkeypatch.setattr(worst, "_WORKER", {})
    monkeypatch.setattr(worst, "_PENDING", {})


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


# -- sharing ------------------------------------------------------------------------------

GAME = Game(4, 5)
K = 6  # 4x5's first guesses at k = 6 (all fail: 4x5 needs 5) search dozens of sets each


def _first_guesses(k=K):
    search = WorstSearch(GAME)
    sp, every = search.space, search._every
    guesses = search.representatives(every)[0]
    sizes = class_sizes(sp.fb, guesses, every, sp.n_fb)
    sizes[:, sp.win] = 0
    return [int(guesses[i]) for i in np.argsort(sizes.max(axis=1), kind="stable")]


def _task(guess, share=None, k=K):
    return worst.first_guess_task(GAME.key(), guess, k, share)


def test_a_task_run_again_elsewhere_takes_what_the_first_run_published(tmp_path):
    """A worker killed mid-task, its task run again on a fresh worker: the second run imports the
    first's entries from the folder and searches nothing, with the same answer and entries the
    client already has. Imported from a file, the entries are hints (hinted)."""
    share = ("folder", str(tmp_path))
    g = _first_guesses()[0]
    chosen, entries, nodes, info = _task(g, share)
    assert nodes > 20 and len(entries) == nodes and info == {"imported": 0, "hinted": False, "notes": []}
    assert len(list(tmp_path.glob("entries-*.memo.gz"))) == 1
    worst._WORKER.clear()  # another worker (or the one started in place of the dead one)
    again = _task(g, share)
    assert again[0] == chosen and again[2] == 0 and again[1] == []
    assert again[3]["imported"] == len(entries) and again[3]["hinted"] is True
    worst._WORKER.clear()
    alone = _task(g)  # no exchange: the same answer, the same sets searched again
    assert alone[0] == chosen and alone[2] == nodes and alone[1] == entries


def test_a_worker_publishes_during_a_long_task(tmp_path, monkeypatch):
    """Every SHARE_EVERY seconds (here: at every set) a worker publishes what it settled and
    imports the others': a task killed mid-way leaves its finished sets to the task run again."""
    monkeypatch.setattr(worst, "SHARE_EVERY", 0.0)
    share = ("folder", str(tmp_path))
    g = _first_guesses()[0]
    _task(g, share)
    assert len(list(tmp_path.glob("entries-*.memo.gz"))) > 2


def test_the_client_sends_a_round_to_the_workers(tmp_path):
    """Without a checkpoint the client sends each round's entries to every worker (take_entries):
    a worker that did not run a task of the round searches none of its sets again."""
    from certify.search.memofile import dumps

    g = _first_guesses()[0]
    chosen, entries, nodes, _ = _task(g, ("push", None))
    width = np.dtype(WorstSearch(GAME)._key_type).itemsize
    raw = dumps(entries, GAME, width)
    assert worst.take_entries(GAME.key(), raw) == 0  # this worker has them all already
    worst._WORKER.clear()
    # a worker without the game's search keeps them for its first task (Dask runs take_entries
    # in the worker's event loop: no tables built there)
    assert worst.take_entries(GAME.key(), raw) == 0 and worst._PENDING[GAME.key()] == [raw]
    again = _task(g, ("push", None))
    assert again[0] == chosen and again[2] == 0 and again[3]["imported"] == len(entries)
    assert worst._WORKER[GAME.key()].hinted is False and not worst._PENDING  # the client's: no hints


def test_fan_out_with_an_exchange_gives_the_one_process_proof(tmp_path):
    """Rounds of two on two 'workers' (each task on a fresh memo unless it imports): the client's
    proof and strategy are the one-process ones, and the workers did take each other's sets."""
    from certify.certificate import dumps as cert_bytes

    for share in [("folder", str(tmp_path)), ("push", None)]:
        memos = [({}, {}), ({}, {})]  # two workers' _WORKER and _PENDING, task i on worker i % 2

        def run(func, args):
            out = []
            for i, a in enumerate(args):
                worst._WORKER, worst._PENDING = memos[i % 2]
                out.append(func(*a))
            return out

        def broadcast(func, *args):
            taken = {}
            for i, memo in enumerate(memos):
                worst._WORKER, worst._PENDING = memo
                taken[i] = func(*args)
            return taken
        run.width, run.broadcast = 2, broadcast
        search = WorstSearch(GAME)
        every, d = search._every, search.count.worst(search.space.n)
        while True:
            search.fan_out(d + 1, run, share)
            if not search.needs(every, d + 1):
                break
            d += 1
        one = WorstSearch(GAME)
        assert d == 5 and one.prove(d) == search.prove(d)
        assert cert_bytes(one.strategy_certificate(d)) == cert_bytes(search.strategy_certificate(d))
        assert search.hinted is (share[0] == "folder")
        assert search.imported > 0  # each worker took the other's sets


def test_a_damaged_batch_is_skipped_and_named(tmp_path):
    """Batches that are not ours (garbage, cut short, another game's, a link) are skipped, each
    named in one line; the task's answer does not change."""
    import gzip
    import os

    from certify.search.memofile import dumps

    g = _first_guesses()[0]
    expected = _task(g)
    worst._WORKER.clear()
    share = ("folder", str(tmp_path))
    _task(_first_guesses()[1], share)  # a good batch
    good = next(tmp_path.glob("entries-*.memo.gz")).read_bytes()
    worst._WORKER.clear()
    other = Game(4, 4)
    bad = {
        "a" * 64: b"not gzip at all",
        "b" * 64: good[: len(good) // 2],
        "c" * 64: gzip.compress(dumps([], other, 2), mtime=0),
        "d" * 64: gzip.compress(gzip.decompress(good)[:-3], mtime=0),
    }
    for name, data in bad.items():
        (tmp_path / f"entries-{name}.memo.gz").write_bytes(data)
    os.symlink("/dev/zero", tmp_path / f"entries-{'e' * 64}.memo.gz")
    (tmp_path / "unrelated.txt").write_text("not a batch: not read")
    chosen, entries, nodes, info = _task(g, share)
    assert chosen == expected[0]
    assert info["imported"] > 0  # the good batch
    assert len(info["notes"]) == 5 and all(n.startswith("shared sets: skipped ") and "\n" not in n
                                           for n in info["notes"])
    for name in "abcde":
        assert sum(name * 64 in n for n in info["notes"]) == 1
    again = _task(g, share)  # named once: a skipped batch is not read again
    assert again[3]["notes"] == []


def test_an_exchange_that_fails_stops_sharing_not_the_search(tmp_path):
    """The folder is gone on this worker (another machine without the shared filesystem): the
    task runs, sharing nothing, and says so once."""
    g = _first_guesses()[0]
    expected = _task(g)
    worst._WORKER.clear()
    chosen, _, nodes, info = _task(g, ("folder", str(tmp_path / "missing")))
    assert (chosen, nodes) == (expected[0], expected[2])
    assert len(info["notes"]) == 1 and "shares nothing more" in info["notes"][0]


def test_a_forged_exchange_folder_is_caught_and_named(tmp_path):
    """The folder's entries are hints: a batch that says the sets of 3x7 that need 4 (those the
    search meets) are settled within 3 makes the workers find 3x7 within 5 (it needs 6); the
    strategy is then built and checked, as from a checkpoint, and the search stops in one line
    naming the checkpoint and its folder. The same without the forged batch: the true 6."""
    import os

    from certify.errors import CertifyError
    from certify.search import exact
    from certify.search.share import Exchange, folder_beside

    game = Game(3, 7)
    honest = WorstSearch(game)
    assert honest.prove(6) is not None
    forged = {key: False for key, value in honest.memo.items() if key[1] == 4 and value}
    assert forged
    memo = str(tmp_path / "memo.bin")
    folder = folder_beside(memo)
    os.makedirs(folder)
    Exchange(("folder", folder), game, 2).publish(forged.items())
    with pytest.raises(CertifyError) as e:
        exact.worst_case(game, checkpoint=memo, run=_in_process(2))
    assert "memo.bin (and " in str(e.value) and ".shared)" in str(e.value) and "\n" not in str(e.value)
    worst._WORKER.clear()
    good = str(tmp_path / "good.bin")
    found = exact.worst_case(game, checkpoint=good, run=_in_process(2), strategy=True)
    assert found.proof == honest.prove(6)


def test_a_checkpoint_resumed_on_a_cluster_is_shared_with_the_workers(tmp_path):
    """A run resumed from a checkpoint on a cluster first writes the checkpoint's sets into the
    folder: the workers search none of them again (here every set of a one-process run but the
    roots), and the bytes are the one-process run's."""
    from certify.search import exact
    from certify.search.memofile import save

    game = Game(3, 7)
    honest = WorstSearch(game)
    assert [honest.needs(honest._every, k) for k in (5, 6, 7)] == [True, True, False]
    assert honest.nodes > 50
    every = honest._key(honest._every, 0)[0]
    memo = str(tmp_path / "memo.bin")
    save(memo, {key: v for key, v in honest.memo.items() if key[0] != every}, game, 2)
    found = exact.worst_case(game, checkpoint=memo, run=_in_process(2), strategy=True)
    assert found.proof == honest.prove(6)
    # From scratch the same run searches 134 sets, one process 78: the tasks searched only what
    # the checkpoint lacked (the round's second guess at k = 7, which one process never searches).
    # Before the folder, the workers knew nothing of the client's checkpoint and searched it all.
    assert found.searched < honest.nodes
    assert list((tmp_path / "memo.bin.shared").glob("entries-*.memo.gz"))
