"""Checkpoints for long exact searches: a search stopped at any point resumes where it stopped.

The split search (:mod:`.split`) hands its work out as tasks that depend on their arguments alone
(:func:`.split.class_task`, :func:`.split.guesses_task`), and stitches the proof and the strategy
from their results in a fixed order. :class:`Checkpoint` is a ``run(func, args)`` for it that keeps
every finished task's result in a folder, one file per task named by the sha256 of the task
(function and arguments), written atomically as soon as the task is done. Run again after a stop
(Ctrl-C, kill, the machine's time limit), the search finds those files, runs only the other tasks,
and writes the same bytes as a run that was never stopped (the tests kill one mid-way).

A folder belongs to one game, one limit, one objective and one version of the code (``checkpoint.json``: the
package's fingerprint, as for Dask workers); a folder of another search or another version is
refused in one line rather than mixed in. The results are stored as tagged JSON (never pickle:
a checkpoint folder is data, and loading it runs no code).
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from pathlib import Path

import numpy as np
import orjson

from ..errors import CertifyError

META = "checkpoint.json"
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
        from ..distributed import fingerprint

        self.folder = Path(folder)
        self.inner = inner
        self.say = say or (lambda line: None)
        self.reused = self.computed = 0
        meta = {"format": "certify-search-checkpoint", "version": 1, "search": search, "code": fingerprint()}
        path = self.folder / META
        if path.exists():
            try:
                found = orjson.loads(path.read_bytes())
            except (OSError, orjson.JSONDecodeError) as e:
                raise CertifyError(f"{path}: not a checkpoint ({e})") from None
            if found != meta:
                what = ("another search" if not isinstance(found, dict) or found.get("search") != search
                        else "another version of certify")
                raise CertifyError(f"{self.folder} holds the checkpoint of {what}: give a new folder "
                                   "(or delete it to start again)")
        else:
            from ..files import write_output

            self.folder.mkdir(parents=True, exist_ok=True)
            write_output(path, orjson.dumps(meta, option=orjson.OPT_INDENT_2) + b"\n")

    def _path(self, key: str) -> Path:
        return self.folder / f"task-{key}.json"

    def __call__(self, func, args) -> list:
        from ..files import write_output

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
                    if not stat.S_ISREG(os.lstat(path).st_mode):
                        raise ValueError("not a regular file")
                    found = decode(orjson.loads(path.read_bytes()))
                    if shaped is not None and not shaped(found, *a):
                        raise ValueError("not a result of its task")
                    results[i] = found
                    self.reused += 1
                    continue
                except (OSError, ValueError, TypeError, RecursionError, orjson.JSONDecodeError):
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
