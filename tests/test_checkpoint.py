"""Long searches survive a stop (`build optimal --checkpoint DIR`): killed mid-way and run again,
the search resumes from the finished tasks and writes the same bytes as a run never stopped."""

from __future__ import annotations

import gzip
import os
import signal
import subprocess
import sys
import time

import numpy as np
import orjson
import pytest

from certify.errors import CertifyError
from certify.game import Game
from certify.search import split
from certify.search.checkpoint import Checkpoint, decode, describe, encode, task_key

from conftest import ROOT, run_cli

COMMAND = ["build", "optimal", "--pegs", "4", "--colors", "6", "--proof", "p.json.gz", "-o", "s.json"]


def test_results_come_back_from_the_checkpoint_as_they_were_computed():
    game = Game(3, 4, True)
    every = np.arange(game.size, dtype=np.int64)
    result = split.class_task(game.key(), None, every[::3].tobytes(), 10**9)
    assert decode(orjson.loads(orjson.dumps(encode(result)))) == result
    odd = (b"\x00\xff", {3: (1, [2, None]), "3": True, (1, 2): {}}, [np.int64(7), False])
    back = decode(orjson.loads(orjson.dumps(encode(odd))))
    assert back == odd and type(back[1]["3"]) is bool and type(back[2][0]) is int
    assert task_key(split.class_task, (1, b"a")) != task_key(split.class_task, (1, b"b"))
    with pytest.raises(TypeError):
        encode(1.5j)


def test_a_folder_of_another_search_is_refused(tmp_path):
    Checkpoint(tmp_path, describe(Game(4, 6, True), None))
    Checkpoint(tmp_path, describe(Game(4, 6, True), None))  # the same search: resumed
    with pytest.raises(CertifyError, match="holds the checkpoint of another search"):
        Checkpoint(tmp_path, describe(Game(4, 6, True), 5))
    meta = tmp_path / "checkpoint.json"
    doc = orjson.loads(meta.read_bytes())
    meta.write_bytes(orjson.dumps(dict(doc, code="0.0/0000")))
    with pytest.raises(CertifyError, match="another version of the search.s code"):
        Checkpoint(tmp_path, describe(Game(4, 6, True), None))


def test_an_unreadable_task_file_is_computed_again(tmp_path):
    calls = []

    def task(x):
        calls.append(x)
        return (x, {b"k": [x]})

    run = Checkpoint(tmp_path, {"test": 1})
    assert run(task, [(1,), (2,)]) == [(1, {b"k": [1]}), (2, {b"k": [2]})] and calls == [1, 2]
    (tmp_path / f"task-{task_key(task, (2,))}.json.gz").write_bytes(b'{"t": [2, {"d"')
    assert run(task, [(1,), (2,)]) == [(1, {b"k": [1]}), (2, {b"k": [2]})] and calls == [1, 2, 2]
    assert run.reused == 1 and run.computed == 3


def test_checkpoint_goes_with_build_optimal_and_a_folder_with_its_objective(tmp_path):
    """Every objective of build optimal takes --checkpoint; a folder is bound to its objective
    (and a task's name to it): one objective's folder is refused to another's in one line."""
    done = run_cli("build", "knuth", "--pegs", "3", "--colors", "3", "--checkpoint", tmp_path / "c")
    assert done.returncode == 2 and "--checkpoint goes with 'build optimal'" in done.stderr
    base = ["build", "optimal", "--pegs", "3", "--colors", "3", "--max-guesses", "4"]
    done = run_cli(*base, "--objective", "max-count,total", "--checkpoint", tmp_path / "c",
                   "-o", tmp_path / "s.json", "--proof", tmp_path / "p.json")
    assert done.returncode == 0, done.stderr
    meta = orjson.loads((tmp_path / "c" / "checkpoint.json").read_bytes())
    assert meta["search"]["objective"] == "max-count,total"
    assert orjson.loads((tmp_path / "p.json").read_bytes())["claims"] == {
        "total": 73, "max_guesses": 4, "at_max": 1, "first": "at_max"}
    for objective in ("total,max-count", "total"):
        done = run_cli(*base, "--objective", objective, "--checkpoint", tmp_path / "c", "-o", tmp_path / "t.json")
        assert done.returncode == 2 and "holds the checkpoint of another search" in done.stderr, done.stderr
        assert done.stderr.count("\n") == 1 and not (tmp_path / "t.json").exists()
    game, cands = Game(3, 3, True), np.arange(9, dtype=np.int64).tobytes()
    keys = {task_key(split.class_task, split.SplitSearch(game, 4, at_max=at_max, first=first)._task(cands, 99))
            for at_max, first in ((False, "total"), (True, "total"), (True, "at_max"))}
    assert len(keys) == 3
    assert split.SplitSearch(game, 4)._task(cands, 99) == (game.key(), 4, cands, 99)  # the total's as before


def _killed_and_resumed(tmp_path, command):
    """``command`` run whole with ``--checkpoint tasks``, and again killed (SIGKILL: nothing runs
    after it) once a few tasks are kept, then resumed: asserts the resumed run kept and found every
    task and wrote the whole run's bytes; returns the resumed run's folder."""
    whole, stopped = tmp_path / "whole", tmp_path / "stopped"
    whole.mkdir()
    stopped.mkdir()
    done = run_cli(*command, "--checkpoint", "tasks", cwd=whole)
    assert done.returncode == 0, done.stderr
    tasks = len(list((whole / "tasks").glob("task-*.json.gz")))
    assert tasks > 20
    proc = subprocess.Popen([sys.executable, "-m", "certify", *command, "--checkpoint", "tasks"], cwd=stopped,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    deadline = time.monotonic() + 120
    while len(list((stopped / "tasks").glob("task-*.json.gz"))) < 3 and time.monotonic() < deadline:
        time.sleep(0.002)
    proc.send_signal(signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL
    kept = len(list((stopped / "tasks").glob("task-*.json.gz")))
    assert 3 <= kept < tasks and not (stopped / "s.json").exists()
    done = run_cli(*command, "--checkpoint", "tasks", cwd=stopped)
    assert done.returncode == 0, done.stderr
    assert "tasks of this round from the checkpoint" in done.stderr
    assert len(list((stopped / "tasks").glob("task-*.json.gz"))) == tasks
    for name in ("s.json", "p.json.gz"):
        assert (stopped / name).read_bytes() == (whole / name).read_bytes(), name
    return stopped


def test_a_search_killed_mid_way_resumes_and_writes_the_same_bytes(tmp_path):
    stopped = _killed_and_resumed(tmp_path, COMMAND)
    # and the same bytes as the split search without a checkpoint (on two workers: test_search_split)
    done = run_cli("verify", "s.json", "--optimal", "p.json.gz", cwd=stopped)
    assert done.returncode == 0 and "optimal: total 5625 guesses = proven minimum 5625" in done.stdout


def _alone_then_on_two_workers(tmp_path, args) -> list:
    """``args`` with --checkpoint in one process (folder alone/) and on a local cluster of two
    (workers/): the same s.json and p.json, the same task files kept; then, s.json removed, a
    one-process run on workers/ runs no task again and writes the same bytes. The kept names."""
    for name in ("alone", "workers"):
        (tmp_path / name).mkdir()
    done = run_cli(*args, "--checkpoint", "tasks", cwd=tmp_path / "alone")
    assert done.returncode == 0, done.stderr
    done = run_cli(*args, "--checkpoint", "tasks", "--workers", "2", cwd=tmp_path / "workers")
    assert done.returncode == 0, done.stderr
    for name in ("s.json", "p.json"):
        assert (tmp_path / "workers" / name).read_bytes() == (tmp_path / "alone" / name).read_bytes()
    kept = sorted(p.name for p in (tmp_path / "workers" / "tasks").iterdir())
    assert kept == sorted(p.name for p in (tmp_path / "alone" / "tasks").iterdir())
    (tmp_path / "workers" / "s.json").unlink()
    done = run_cli(*args, "--checkpoint", "tasks", cwd=tmp_path / "workers")  # every task kept: none run
    assert done.returncode == 0 and "tasks of this round done" not in done.stderr
    assert (tmp_path / "workers" / "s.json").read_bytes() == (tmp_path / "alone" / "s.json").read_bytes()
    return kept


def test_on_two_workers_the_checkpoint_gives_the_same_bytes_and_resumes_from_one_process(tmp_path):
    """Tasks kept by a run on a local Dask cluster are the same tasks: a one-process run on the same
    folder finds them all, and both write the bytes of a one-process run from scratch."""
    args = ["build", "optimal", "--pegs", "4", "--colors", "4", "--proof", "p.json", "-o", "s.json"]
    _alone_then_on_two_workers(tmp_path, args)


#: The count-first search of 4x5 within 5 (68 secrets needing 5, then 2465): 46 tasks, ~1 s.
COUNT_FIRST = ["build", "optimal", "--pegs", "4", "--colors", "5", "--objective", "max-count,total",
               "--max-guesses", "5", "--proof", "p.json.gz", "-o", "s.json"]


def test_a_count_first_search_killed_mid_way_resumes_and_writes_the_same_bytes(tmp_path):
    """As for the total: the counting objectives' split search, killed once a few tasks are
    kept, resumes from them and writes the bytes of a run never stopped, which the checker
    accepts with the one-process search's claims."""
    stopped = _killed_and_resumed(tmp_path, COUNT_FIRST)
    done = run_cli("verify", "s.json", "--optimal", "p.json.gz", cwd=stopped)
    assert done.returncode == 0, done.stdout
    assert "optimal: 68 secrets needing 5, then total 2465 guesses (within 5) = proven minimum 68, then 2465" \
        in done.stdout
    # the one-process search (no checkpoint) proves the same claims, with other bytes
    done = run_cli(*COUNT_FIRST[:-4], "--proof", "one.json.gz", "-o", "one.json", cwd=stopped)
    assert done.returncode == 0, done.stderr
    with gzip.open(stopped / "one.json.gz") as one, gzip.open(stopped / "p.json.gz") as split_proof:
        assert orjson.loads(one.read())["claims"] == orjson.loads(split_proof.read())["claims"] == {
            "total": 2465, "max_guesses": 5, "at_max": 68, "first": "at_max"}


def test_counting_objectives_on_two_workers_give_the_checkpointed_bytes_and_resume_from_one_process(tmp_path):
    """--workers 2 with the counting objectives: the bytes of the one-process split run, the same
    tasks kept, and a one-process run on that folder runs none of them again."""
    args = ["build", "optimal", "--pegs", "4", "--colors", "4", "--max-guesses", "4", "--objective",
            "total,max-count", "--proof", "p.json", "-o", "s.json"]
    kept = _alone_then_on_two_workers(tmp_path, args)
    assert len(kept) > 10
    assert orjson.loads((tmp_path / "alone" / "p.json").read_bytes())["claims"] == {
        "total": 905, "max_guesses": 4, "at_max": 150}
    done = run_cli(*args, "--workers", "2", cwd=tmp_path / "workers")  # no checkpoint: the same bytes
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "workers" / "p.json").read_bytes() == (tmp_path / "alone" / "p.json").read_bytes()


def test_a_proof_past_the_checkers_size_is_a_limit_not_the_checkpoints_fault(tmp_path, monkeypatch):
    """A proof past the checker's size is a limit of the checker (its reader says so: unusable, not
    invalid), so the search says it could not be checked (nothing shown), not that the checkpoint
    is inconsistent (seen on Bulls and Cows count-first: a proof of 236 MB of JSON)."""
    from certify import verify_bound
    from certify.errors import Inconsistent
    from certify.search import exact

    game = Game(2, 4)
    size = len(exact.total(game, 4, at_max=True, first="at_max").data)  # fits the real limit
    monkeypatch.setattr(verify_bound, "MAX_BYTES", size // 2)  # (the split proof is no smaller)
    for kept in (None, tmp_path / "c"):
        run = None if kept is None else Checkpoint(kept, describe(game, 4, "max-count,total"))
        with pytest.raises(CertifyError, match=r"could not be checked \(file larger than") as e:
            exact.total(game, 4, at_max=True, first="at_max", run=run,
                        checkpoint=None if kept is None else str(kept))
        assert not isinstance(e.value, Inconsistent) and "inconsistent" not in str(e.value)
