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
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import struct

import numpy as np

FORMAT = "certify-worst-case-memo"
VERSION = 1


from ..errors import CertifyError


class MemoFileError(CertifyError):
    pass


def _header(game, width: int) -> dict:
    return {"format": FORMAT, "version": VERSION, "game": game.to_json(), "key_bytes": width}


def _entries(memo: dict, width: int):
    for (key, k), value in memo.items():
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
    for data in _entries(memo, width):
        body.update(data)
        size += len(data)
    head = {**_header(game, width), "body_bytes": size, "sha256": body.hexdigest()}
    tmp = f"{path}.tmp-{os.getpid()}"
    try:
        with open(tmp, "wb") as f:
            f.write(json.dumps(head, sort_keys=True).encode() + b"\n")
            for data in _entries(memo, width):
                f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return os.path.getsize(path)


def load(path: str, game, width: int) -> dict:
    """The memo saved in ``path`` for this game (MemoFileError if it is another game's, or damaged)."""
    try:
        return _load(path, game, width)
    except OSError as e:
        raise MemoFileError(f"cannot read the checkpoint {path}: {e.strerror or e}") from None


def _load(path: str, game, width: int) -> dict:
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise MemoFileError(f"{path}: not a regular file")
    with open(path, "rb") as f:
        line = f.readline(4096)
        try:
            head = json.loads(line)
        except ValueError:
            raise MemoFileError(f"{path}: not a worst-case search checkpoint") from None
        want = _header(game, width)
        if not isinstance(head, dict) or any(head.get(key) != value for key, value in want.items()):
            raise MemoFileError(f"{path}: a checkpoint of another game or format "
                                f"({json.dumps(head.get('game') if isinstance(head, dict) else None)})")
        raw = f.read(int(head.get("body_bytes", 0)) + 1)
    if len(raw) != head["body_bytes"] or hashlib.sha256(raw).hexdigest() != head.get("sha256"):
        raise MemoFileError(f"{path}: damaged checkpoint (its length or sha256 is not the header's)")
    memo, at, view = {}, 0, memoryview(raw)
    key_type = np.dtype(np.uint16 if width == 2 else np.uint32).newbyteorder("<")
    while at < len(raw):
        k, n = struct.unpack_from("<BI", raw, at)
        at += 5
        key = np.frombuffer(view[at:at + n * width], dtype=key_type).astype(key_type.newbyteorder("="))
        at += n * width
        if raw[at] not in (0, 2):
            raise MemoFileError(f"{path}: damaged checkpoint (an entry is neither refuted nor proven)")
        value, at = raw[at] == 2, at + 1
        memo[(key.tobytes(), k)] = value
    return memo
