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

from conftest import ROOT, run_cli, run_here

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
    # every task file gzipped, deterministically (the same bytes in both folders); smaller than its
    # JSON but for the smallest (gzip's 18 bytes of header and trailer), and far smaller in all
    sizes = []
    for path in (whole / "tasks").glob("task-*"):
        data = path.read_bytes()
        assert path.name.endswith(".json.gz") and data[:2] == b"\x1f\x8b"
        assert data == (stopped / "tasks" / path.name).read_bytes()
        json = gzip.decompress(data)
        assert orjson.loads(json) and (len(data) < len(json) or len(json) < 200)
        sizes.append((len(data), len(json)))
    gz, json = map(sum, zip(*sizes))
    assert 4 * gz < json, (gz, json)
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


# -- what a folder is bound to: the code of its tasks -------------------------------------------

def test_the_fingerprint_covers_the_tasks_import_closure_and_only_it(tmp_path):
    """The folder's code is the import closure of TASK_MODULES (the import graph test_imports reads,
    the same modules): an edit outside it (a command, the renderer, the version) keeps the fingerprint,
    one inside it (also a file reached by an import inside a function only) changes it."""
    import shutil

    import networkx as nx

    from certify.codehash import code_fingerprint, import_closure, module_name
    from certify.search.checkpoint import TASK_MODULES
    from test_imports import import_graph

    real = ROOT / "certify"
    closure = import_closure(TASK_MODULES)
    graph = import_graph()
    expected = set(TASK_MODULES).union(*(nx.descendants(graph, m) for m in TASK_MODULES))
    assert {module_name(p) for p in closure} == expected
    names = [p.relative_to(real).as_posix() for p in closure]
    assert names == sorted(names) and len(names) < len(list(real.rglob("*.py"))) / 3
    for name in ("search/split.py", "search/total.py", "search/engine.py", "search/checkpoint.py", "game.py"):
        assert name in names
    for name in ("__init__.py", "render.py", "atlas.py", "commands/optimal.py", "distributed.py", "search/exact.py"):
        assert name not in names

    pkg = tmp_path / "certify"
    shutil.copytree(real, pkg, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    base = code_fingerprint(TASK_MODULES, pkg)
    assert base == code_fingerprint(TASK_MODULES) and len(base) == 16  # paths below the root: any copy

    def edited(rel, text):
        path = pkg / rel
        before = path.read_bytes()
        path.write_bytes(before + text.encode())
        try:
            return code_fingerprint(TASK_MODULES, pkg)
        finally:
            path.write_bytes(before)

    for rel in ("render.py", "commands/optimal.py", "search/exact.py", "distributed.py", "__init__.py"):
        assert edited(rel, "\n# a comment\n") == base, rel
    assert edited("_version.py", "__version__ = '9.9'\n") == base  # a release alone keeps the tasks
    changed = {edited(rel, "\n# a comment\n") for rel in ("search/split.py", "search/total.py", "certificate.py",
                                                          "search/checkpoint.py", "codehash.py")}
    assert base not in changed and len(changed) == 5
    # a module imported only inside a function of a module of the closure joins it
    (pkg / "lazy.py").write_text("X = 1\n")
    assert code_fingerprint(TASK_MODULES, pkg) == base  # imported by none: not in it
    split = pkg / "search" / "split.py"
    split.write_bytes(split.read_bytes() + b"\n\ndef f():\n    if True:\n        from ..lazy import X\n")
    assert pkg / "lazy.py" in import_closure(TASK_MODULES, pkg)
    lazy = code_fingerprint(TASK_MODULES, pkg)
    assert lazy != base and edited("lazy.py", "Y = 2\n") != lazy


def test_a_task_whose_code_is_not_in_the_fingerprint_is_refused(tmp_path):
    from certify.search import worst

    run = Checkpoint(tmp_path, {"test": 1})
    with pytest.raises(ValueError, match="not a task of TASK_MODULES"):
        run(worst.first_guess_task, [])


def test_an_old_format_folder_is_refused_in_one_line(tmp_path):
    """A folder of checkpoint version 1 (bound to the whole package, plain JSON task files): refused,
    in one line, never read."""
    old = tmp_path / "old"
    old.mkdir()
    meta = {"format": "certify-search-checkpoint", "version": 1, "search": describe(Game(2, 4), None),
            "code": "0.1.0/0123456789abcdef"}
    (old / "checkpoint.json").write_bytes(orjson.dumps(meta))
    (old / f"task-{'0' * 64}.json").write_bytes(b'{"t": [1, [], {"d": []}]}')
    with pytest.raises(CertifyError, match="holds the checkpoint of an older format"):
        Checkpoint(old, describe(Game(2, 4), None))
    done = run_here("build", "optimal", "--pegs", "2", "--colors", "4", "--checkpoint", old, "-o", tmp_path / "s.json")
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert "holds the checkpoint of an older format" in done.stderr and not (tmp_path / "s.json").exists()
    assert orjson.loads((old / "checkpoint.json").read_bytes()) == meta


def _bomb(size: int) -> bytes:
    """A gzip stream of ``size`` zero bytes, made without holding them."""
    import io

    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", mtime=0) as f:
        for _ in range(size >> 20):
            f.write(bytes(1 << 20))
    return out.getvalue()


BROKEN = {  # a task file's gzipped bytes -> other bytes, each read as unreadable: computed again
    "truncated": lambda data: data[:len(data) // 2],
    "cut before its trailer": lambda data: data[:-4],
    "a flipped byte": lambda data: data[:len(data) // 2] + bytes([data[len(data) // 2] ^ 0xFF]) + data[len(data) // 2 + 1:],
    "a wrong CRC": lambda data: data[:-8] + bytes(4) + data[-4:],
    "trailing garbage": lambda data: data + b"garbage",
    "plain JSON": lambda data: gzip.decompress(data),
    "empty": lambda data: b"",
    "a gzip bomb": lambda data: _bomb(64 << 20),
    "gzipped JSON that is not a result": lambda data: gzip.compress(b'{"t": [1]}'),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_broken_gzip_task_file_is_computed_again_and_the_bytes_are_the_same(tmp_path, monkeypatch, name):
    import tracemalloc

    from certify.search import checkpoint, exact

    game = Game(2, 4)
    fresh = exact.total(game, run=Checkpoint(tmp_path / "c", describe(game, None)), checkpoint=str(tmp_path / "c"))
    tasks = sorted((tmp_path / "c").glob("task-*.json.gz"))
    assert len(tasks) > 2
    target = max(tasks, key=lambda p: p.stat().st_size)
    good = target.read_bytes()
    target.write_bytes(BROKEN[name](good))
    monkeypatch.setattr(checkpoint, "MAX_TASK_BYTES", 1 << 20)  # the bomb: 64 times that
    run = Checkpoint(tmp_path / "c", describe(game, None))
    tracemalloc.start()
    try:
        again = exact.total(game, run=run, checkpoint=str(tmp_path / "c"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 32 << 20  # the bomb was not decompressed whole
    assert (run.computed, run.reused) == (1, len(tasks) - 1)
    assert again.data == fresh.data and again.strategy == fresh.strategy
    assert target.read_bytes() == good  # written again, the same bytes


def test_a_task_file_past_the_size_limit_is_computed_again(tmp_path, monkeypatch):
    """A true task file whose JSON is longer than MAX_TASK_BYTES is not read (the limit holds for ours too)."""
    from certify.search import checkpoint

    calls = []

    def task(x):
        calls.append(x)
        return [x] * 1000

    run = Checkpoint(tmp_path, {"test": 1})
    assert run(task, [(1,), (2,)]) == [[1] * 1000, [2] * 1000] and calls == [1, 2]
    size = len(gzip.decompress((tmp_path / f"task-{task_key(task, (1,))}.json.gz").read_bytes()))
    monkeypatch.setattr(checkpoint, "MAX_TASK_BYTES", size - 1)
    assert run(task, [(1,), (2,)]) == [[1] * 1000, [2] * 1000] and calls == [1, 2, 1, 2]
    monkeypatch.setattr(checkpoint, "MAX_TASK_BYTES", size)
    assert run(task, [(1,), (2,)]) == [[1] * 1000, [2] * 1000] and calls == [1, 2, 1, 2]
