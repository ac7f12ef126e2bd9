"""The worst-case search's memo on disk: a checkpoint that a stopped search resumes from.

needs(S, k) is a function of (S, k) alone, and a proven node's choices are the first class, in the
search's fixed order, that needs k - 1: an entry is the same whether it was computed in this run
or read back. A resumed search therefore writes the same proof and strategy bytes as one that was
never stopped; it only searches fewer nodes. The file is this program's own state, not evidence:
whatever it holds, the proof and strategy written at the end go to the trusted checkers as usual.

Format: one JSON header line (format, version, the game, the key width, the body's length and
sha256), then the entries: k (u8), n (u32), the set (n codes of the key width), then 0 (refuted)
or 2 (proven). Written to a temporary file
in the same folder and renamed over the old one, so a stop during a save keeps the last one.

A name ending in ``.gz`` is gzipped (no name or time in the gzip header: the same memo gives the
same bytes), the form a checkpoint is committed in (certificates/state/, docs/search.md): the
sets of codes compress several times over, and a search resumes from it on any machine.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import stat
import struct
import zlib

import numpy as np

FORMAT = "certify-worst-case-memo"
VERSION = 1


from ..errors import CertifyError
from ..text import shown


class MemoFileError(CertifyError):
    pass


def _header(game, width: int) -> dict:
    return {"format": FORMAT, "version": VERSION, "game": game.to_json(), "key_bytes": width}


def _entries(items, width: int):
    """The body's bytes, entry by entry, of ((set bytes, k), value) pairs."""
    for (key, k), value in items:
        head = struct.pack("<BI", k, len(key) // width)
        yield b"".join((head, key, b"\x02" if value else b"\x00"))


def save(path: str, memo: dict, game, width: int) -> int:
    """Write ``memo`` atomically to ``path``; returns the file's size in bytes. Two passes over the
    memo (the header's sha256 first, then the bytes) rather than a copy of it in memory."""
    if os.path.lexists(path) and not stat.S_ISREG(os.lstat(path).st_mode):
        raise MemoFileError(f"{path}: not a regular file (a checkpoint is renamed over, never written "
                            "through a link, device or FIFO)")
    try:
        return _save(path, memo, game, width)
    except OSError as e:
        raise MemoFileError(f"cannot write the checkpoint {path}: {e.strerror or e}") from None


def _save(path: str, memo: dict, game, width: int) -> int:
    body, size = hashlib.sha256(), 0
    for data in _entries(memo.items(), width):
        body.update(data)
        size += len(data)
    head = {**_header(game, width), "body_bytes": size, "sha256": body.hexdigest()}
    tmp = f"{path}.tmp-{os.getpid()}"
    try:
        with open(tmp, "wb") as raw:
            f = gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) if _gzipped(path) else raw
            f.write(json.dumps(head, sort_keys=True).encode() + b"\n")
            for data in _entries(memo.items(), width):
                f.write(data)
            if f is not raw:
                f.close()  # the gzip trailer; ``raw`` stays open for the fsync
            raw.flush()
            os.fsync(raw.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return os.path.getsize(path)


def dumps(items, game, width: int) -> bytes:
    """The bytes of a memo file holding ``items`` ((set bytes, k), value), as :func:`save` writes
    them uncompressed (the worst-case search's tasks exchange such batches: :mod:`.share`)."""
    body = b"".join(_entries(items, width))
    head = {**_header(game, width), "body_bytes": len(body), "sha256": hashlib.sha256(body).hexdigest()}
    return json.dumps(head, sort_keys=True).encode() + b"\n" + body


def loads(raw: bytes, name: str, game, width: int) -> dict:
    """The memo of the bytes ``raw`` (:func:`dumps`), read within the same bounds as a file;
    MemoFileError naming ``name`` otherwise."""
    import io

    return _read(io.BytesIO(raw), name, game, width, len(raw))


def load(path: str, game, width: int) -> dict:
    """The memo saved in ``path`` for this game (MemoFileError if it is another game's, or damaged)."""
    try:
        return _load(path, game, width)
    except OSError as e:
        raise MemoFileError(f"cannot read the checkpoint {path}: {e.strerror or e}") from None


def _gzipped(path: str) -> bool:
    return str(path).endswith(".gz")


def _load(path: str, game, width: int) -> dict:
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise MemoFileError(f"{path}: not a regular file")
    # Gzipped, the body's length is bounded by the header's (read no further), not the file's size.
    size = None if _gzipped(path) else os.path.getsize(path)
    with open(path, "rb") as f:
        try:
            return _read(gzip.GzipFile(fileobj=f, mode="rb") if size is None else f, path, game, width, size)
        except (gzip.BadGzipFile, EOFError, zlib.error):
            raise MemoFileError(f"{path}: damaged checkpoint (not a complete gzip stream)") from None


def _read(f, path: str, game, width: int, size) -> dict:
    line = f.readline(4096)
    try:
        head = json.loads(line)
    except ValueError:
        raise MemoFileError(f"{path}: not a worst-case search checkpoint") from None
    want = _header(game, width)
    if not isinstance(head, dict) or any(head.get(key) != value for key, value in want.items()):
        raise MemoFileError(f"{path}: a checkpoint of another game or format "
                            f"({shown(json.dumps(head.get('game') if isinstance(head, dict) else None), 200)})")
    length = head.get("body_bytes")
    if type(length) is not int or not 0 <= length <= (length if size is None else size):
        raise MemoFileError(f"{path}: damaged checkpoint (its header's body_bytes is not a length)")
    raw = f.read(length + 1)
    if len(raw) != length or hashlib.sha256(raw).hexdigest() != head.get("sha256"):
        raise MemoFileError(f"{path}: damaged checkpoint (its length or sha256 is not the header's)")
    return _entries_of(raw, path, game.size, width)


def _entries_of(raw: bytes, path: str, codes: int, width: int) -> dict:
    """The memo of a body whose sha256 matched, every entry read within bounds: a set of n codes
    (4 <= k <= n <= codes) in increasing order, each below ``codes``, then 0 or 2, each (set, k)
    once. A sha256 is no proof (anyone can recompute it): a file that breaks these is refused;
    one that keeps them but lies about a set is caught by the checkers at the end of the search."""
    memo, at, view = {}, 0, memoryview(raw)
    key_type = np.dtype(np.uint16 if width == 2 else np.uint32).newbyteorder("<")
    while at < len(raw):
        where = f"{path}: damaged checkpoint (the entry at byte {at} of the body"
        if at + 5 > len(raw):
            raise MemoFileError(f"{where} is cut short)")
        k, n = struct.unpack_from("<BI", raw, at)
        if not (4 <= k <= n <= codes):
            raise MemoFileError(f"{where}: a set of {n} codes at k = {k}, not 4 <= k <= n <= {codes})")
        end = at + 5 + n * width
        if end + 1 > len(raw):
            raise MemoFileError(f"{where} is cut short)")
        key = np.frombuffer(view[at + 5:end], dtype=key_type)
        if int(key[-1]) >= codes or (n > 1 and not bool((key[1:] > key[:-1]).all())):
            raise MemoFileError(f"{where}: its set is not increasing codes below {codes})")
        if raw[end] not in (0, 2):
            raise MemoFileError(f"{where} is neither refuted nor proven)")
        entry = (key.astype(key_type.newbyteorder("=")).tobytes(), k)
        if entry in memo:
            raise MemoFileError(f"{where} repeats a set)")
        memo[entry] = raw[end] == 2
        at = end + 1
    return memo
