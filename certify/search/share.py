"""What the worst-case search's tasks share while they run: the sets they settled.

On a cluster each first guess is a task (:meth:`.worst.WorstSearch.fan_out`), and each worker keeps
one memo for all its tasks. needs(S, k) is a function of (S, k) alone, so an entry another task
settled can only save work, never change an answer. Each worker publishes the entries its own
search settled every :data:`SHARE_EVERY` seconds and at the end of a task, and imports the others'
before a task and every :data:`SHARE_EVERY` seconds during one (a time check where the search
stores an entry).

The exchange is one of two places (or ways), given as ``(kind, place)`` in the task's arguments:

* ``("folder", path)``: with ``--checkpoint FILE``, the folder ``FILE.shared`` beside it, on the
  filesystem the workers share. One file per batch, named by the sha256 of its bytes, written to a
  temporary name and renamed: a reader never sees half a batch, and a batch written twice is one.
* ``("push", None)``: without a checkpoint, the client itself: after each round it sends the
  entries the round's tasks returned to every worker (``run.broadcast``, a Dask ``client.run``;
  :meth:`.worst.WorstSearch.fan_out`), the same on a local cluster and a real one. No sharing
  within a round: a worker's client calling the scheduler from inside a task (Dask's published
  datasets) hung after a worker was killed and replaced, in the tests.

A batch is a memo file's bytes (:func:`.memofile.dumps`: the game, the body's sha256, each entry
read within bounds), gzipped. A batch that does not read so is skipped and named in one line.
Read from a folder, entries are hints (anyone could have written the file): a search that imported
some says so (``WorstSearch.hinted``), and its proof and strategy go to the trusted checkers as a
checkpoint's do.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import stat
import time
import zlib

from . import memofile

#: Seconds between two exchanges during a task (publish the new entries, import the others').
SHARE_EVERY = 5.0
#: The most bytes a batch may take, gzipped or not (a gzip bomb, or not ours, past it).
MAX_BATCH_BYTES = 1 << 30
#: The entries of one batch at most (a resumed checkpoint goes out in several).
BATCH_ENTRIES = 1 << 18
_NAME = re.compile(r"entries-[0-9a-f]{64}\.memo\.gz\Z")


def folder_beside(checkpoint: str) -> str:
    """The exchange folder of a checkpoint file: absolute, for workers whose working folder differs."""
    return os.path.abspath(checkpoint) + ".shared"


class Exchange:
    """One process's view of an exchange folder: what it published, which batches it read."""

    def __init__(self, where: tuple, game, width: int) -> None:
        self.where = tuple(where)
        self.kind, self.place = self.where
        if self.kind != "folder":
            raise ValueError(f"no exchange of kind {self.kind!r}")
        self.game, self.width = game, width
        self.seen: set = set()  # batches read, skipped or written here: never read again
        self.notes: list[str] = []  # one line per batch skipped or failure, for the client to say
        self.pushed = 0  # how many of the search's own entries went out
        self.at = time.monotonic()  # the last exchange
        self.off = False  # the exchange failed once: the search goes on sharing nothing

    # -- publish ----------------------------------------------------------------

    def publish(self, items) -> None:
        """Publish ((set bytes, k), value) pairs (none: nothing), in batches of BATCH_ENTRIES."""
        items = list(items)
        for at in range(0, len(items), BATCH_ENTRIES):
            if self.off:
                return
            raw = gzip.compress(memofile.dumps(items[at:at + BATCH_ENTRIES], self.game, self.width),
                                compresslevel=1, mtime=0)
            name = f"entries-{hashlib.sha256(raw).hexdigest()}.memo.gz"
            self.seen.add(name)
            try:
                self._put(name, raw)
            except Exception as e:  # sharing only saves work: a failure stops it, not the search
                self._fail(f"cannot publish to it ({type(e).__name__}: {e})")

    def _put(self, name: str, raw: bytes) -> None:
        target = os.path.join(self.place, name)
        if os.path.lexists(target):
            return  # the same bytes: its name is their sha256
        tmp = os.path.join(self.place, f".{name}.tmp-{os.getpid()}")
        try:
            with open(tmp, "wb") as f:
                f.write(raw)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, target)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)

    # -- import -----------------------------------------------------------------

    def fetch(self) -> list[dict]:
        """The memos of the batches not read yet (a damaged one skipped, named in ``notes``)."""
        if self.off:
            return []
        try:
            names = sorted(set(self._names()) - self.seen)
        except Exception as e:
            self._fail(f"cannot list it ({type(e).__name__}: {e})")
            return []
        out = []
        for name in names:
            self.seen.add(name)
            shown = os.path.join(self.place, name)
            try:
                raw = self._get(name)
                out.append(memofile.loads(_gunzip(raw), shown, self.game, self.width))
            except (memofile.MemoFileError, ValueError) as e:
                self.notes.append(f"shared sets: skipped {e}" if str(e).startswith(shown)
                                  else f"shared sets: skipped {shown}: {e}")
            except Exception as e:
                self._fail(f"cannot read {shown} ({type(e).__name__}: {e})")
                break
        return out

    def _names(self) -> list[str]:
        return [e.name for e in os.scandir(self.place) if _NAME.match(e.name)]

    def _get(self, name: str) -> bytes:
        path = os.path.join(self.place, name)
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError("not a regular file")
        if info.st_size > MAX_BATCH_BYTES:
            raise ValueError(f"more than {MAX_BATCH_BYTES} bytes")
        with open(path, "rb") as f:
            return f.read(MAX_BATCH_BYTES + 1)

    def _fail(self, why: str) -> None:
        self.off = True
        self.notes.append(f"shared sets: the exchange {self.place}: {why}; this worker shares nothing more")


def _gunzip(raw: bytes) -> bytes:
    """A whole gzip member, at most MAX_BATCH_BYTES once decompressed (ValueError otherwise)."""
    d = zlib.decompressobj(wbits=31)
    try:
        data = d.decompress(raw, MAX_BATCH_BYTES + 1)
    except zlib.error:
        raise ValueError("not a gzip stream") from None
    if len(data) > MAX_BATCH_BYTES or not d.eof or d.unused_data:
        raise ValueError("not one complete gzip stream of a batch")
    return data


__all__ = ["Exchange", "SHARE_EVERY", "folder_beside"]
