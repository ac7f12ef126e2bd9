"""Checkpoints for long exact searches: a search stopped at any point resumes where it stopped.

The split search (:mod:`.split`) hands its work out as tasks that depend on their arguments alone
(:func:`.split.class_task`, :func:`.split.guesses_task`), and stitches the proof and the strategy
from their results in a fixed order. :class:`Checkpoint` is a ``run(func, args)`` for it that keeps
every finished task's result in a folder, one file per task named by the sha256 of the task
(function and arguments), written atomically as soon as the task is done. Run again after a stop
(Ctrl-C, kill, the machine's time limit), the search finds those files, runs only the other tasks,
and writes the same bytes as a run that was never stopped (the tests kill one mid-way).

A folder belongs to one game, one limit, one objective and one version of the code its tasks run
(``checkpoint.json``: a sha256 over the files of :data:`TASK_MODULES` and of the package's modules
they import, :func:`certify.codehash.code_fingerprint`; an edit elsewhere in the package keeps it);
a folder of another search or another version of that code is refused in one line rather than
mixed in. The results are stored as gzipped tagged JSON, ``task-<key>.json.gz`` (never pickle: a
checkpoint folder is data, and loading it runs no code).
"""

from __future__ import annotations

import gzip
import hashlib
import os
import zlib
import stat
import time
from pathlib import Path

import numpy as np
import orjson

from ..errors import CertifyError

META = "checkpoint.json"
#: The meta's format: 2 since the folder is bound to the tasks' code (1: the whole package's) and
#: the task files are gzipped (1: plain JSON); a folder of version 1 is refused.
VERSION = 2
#: The modules whose code a task's result depends on: the tasks (:mod:`.split`) and how their
#: results are kept (this module); with what they import, they are what the folder is bound to.
TASK_MODULES = ("certify.search.split", "certify.search.checkpoint")
#: The most bytes a task file may decompress to (the biggest task seen, 4x10 without repetition
#: count-first: 33 MB of JSON): past it the file is unreadable (a gzip bomb, or not ours).
MAX_TASK_BYTES = 1 << 30
#: Tasks given to a cluster at once between two saves (a stop loses at most one batch).
BATCH = 16


def encode(x):
    """A task's result or arguments as JSON values, tagged so that :func:`decode` gives back the
    same Python values (tuples, bytes, dicts with any keys, numpy integers as ints)."""
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, np.bool_):
        return bool(x)
    if isinstance(x, bytes):
        return {"b": x.hex()}
    if isinstance(x, tuple):
        return {"t": [encode(v) for v in x]}
    if isinstance(x, list):
        return [encode(v) for v in x]
    if isinstance(x, dict):
        return {"d": [[encode(k), encode(v)] for k, v in x.items()]}
    raise TypeError(f"cannot keep a {type(x).__name__} in a checkpoint")


def decode(x):
    if isinstance(x, list):
        return [decode(v) for v in x]
    if isinstance(x, dict):
        (tag, v), = x.items()
        if tag == "b":
            return bytes.fromhex(v)
        if tag == "t":
            return tuple(decode(e) for e in v)
        if tag == "d":
            return {decode(k): decode(e) for k, e in v}
        raise ValueError(f"unknown tag {tag!r}")
    return x


def task_key(func, args) -> str:
    return hashlib.sha256(orjson.dumps(encode([func.__name__, list(args)]))).hexdigest()


class Checkpoint:
    """``run(func, args)`` that keeps each finished task in ``folder`` (see the module doc).
    ``inner`` runs a batch of tasks (a Dask cluster's run), or None: one at a time here."""

    def __init__(self, folder, search: dict, inner=None, say=None) -> None:
        from ..codehash import files_fingerprint, import_closure, module_name

        self.folder = Path(folder)
        self.inner = inner
        self.say = say or (lambda line: None)
        self.reused = self.computed = 0
        files = import_closure(TASK_MODULES)  # read once: the tasks' modules and the folder's key
        self.modules = {module_name(p) for p in files}
        code = {"modules": list(TASK_MODULES), "sha256": files_fingerprint(files)}
        meta = {"format": "certify-search-checkpoint", "version": VERSION, "search": search, "code": code}
        path = self.folder / META
        if path.exists():
            try:
                found = orjson.loads(path.read_bytes())
            except (OSError, orjson.JSONDecodeError) as e:
                raise CertifyError(f"{path}: not a checkpoint ({e})") from None
            if found != meta:
                what = ("another search" if not isinstance(found, dict) or found.get("search") != search
                        else "an older format of checkpoint" if found.get("version") != VERSION
                        else "another version of the search's code")
                raise CertifyError(f"{self.folder} holds the checkpoint of {what}: give a new folder "
                                   "(or delete it to start again)")
        else:
            from ..files import write_output

            self.folder.mkdir(parents=True, exist_ok=True)
            write_output(path, orjson.dumps(meta, option=orjson.OPT_INDENT_2) + b"\n")

    def _path(self, key: str) -> Path:
        return self.folder / f"task-{key}.json.gz"

    def _read(self, path: Path):
        """The result kept in ``path``: a regular file (not followed if a link), at most
        MAX_TASK_BYTES once decompressed; raises on anything else."""
        if not stat.S_ISREG(os.lstat(path).st_mode):
            raise ValueError("not a regular file")
        with open(path, "rb") as raw, gzip.GzipFile(fileobj=raw, mode="rb") as f:
            data = f.read(MAX_TASK_BYTES + 1)  # to its end: the gzip's CRC and length are checked
        if len(data) > MAX_TASK_BYTES:
            raise ValueError(f"more than {MAX_TASK_BYTES} bytes decompressed")
        return decode(orjson.loads(data))

    def __call__(self, func, args) -> list:
        from ..files import write_output

        if func.__module__.startswith("certify.") and func.__module__ not in self.modules:
            # its code is not in the folder's fingerprint: an edit of it would not void the folder
            raise ValueError(f"{func.__module__}.{func.__name__} is not a task of TASK_MODULES")
        args = list(args)
        results: list = [None] * len(args)
        missing = []
        shaped = getattr(func, "result_shape", None)  # the task's check of a result's shape
        for i, a in enumerate(args):
            path = self._path(task_key(func, a))
            if path.exists():
                # A kept result is a hint (issue 46): read only from a regular file, decoded, its
                # shape checked; anything else is computed again. What it says is checked when the
                # proof and the strategy stitched from it go to the checkers.
                try:
                    found = self._read(path)
                    if shaped is not None and not shaped(found, *a):
                        raise ValueError("not a result of its task")
                    results[i] = found
                    self.reused += 1
                    continue
                except (OSError, EOFError, zlib.error, ValueError, TypeError, RecursionError):
                    self.say(f"  {path.name}: unreadable or not a result of its task: computed again")
            missing.append(i)
        if len(missing) < len(args):
            self.say(f"  {len(args) - len(missing)} of {len(args)} tasks of this round from the checkpoint")
        start, done = time.monotonic(), 0
        step = 1 if self.inner is None else BATCH
        for at in range(0, len(missing), step):
            chunk = missing[at:at + step]
            out = ([func(*args[i]) for i in chunk] if self.inner is None
                   else self.inner(func, [args[i] for i in chunk]))
            for i, result in zip(chunk, out):
                write_output(self._path(task_key(func, args[i])), orjson.dumps(encode(result)))
                results[i] = result
            done += len(chunk)
            self.computed += len(chunk)
            left = len(missing) - done
            if left:
                eta = (time.monotonic() - start) / done * left
                self.say(f"  {done} of {len(missing)} tasks of this round done, about {eta:.0f} s left in it")
        return results


def describe(game, max_guesses, objective: str = "total") -> dict:
    """The search a folder belongs to: the game, the limit and the objective ("total", or a
    counting one, "total,max-count" or "max-count,total": a folder of one is refused to another)."""
    return {"game": game.to_json(), "max_guesses": max_guesses, "objective": objective}


__all__ = ["Checkpoint", "encode", "decode", "task_key", "describe"]
