"""Output files: atomic writes, what may be written where, formats by extension (standard
library only, cheap to import).

Every command that writes goes through :func:`write_output`:

* a regular file (or a new one) is replaced atomically: a temporary file in the same folder, then a
  rename; an existing file keeps its permissions (and, for root, its owner), a new one gets the
  umask's;
* a symbolic link is followed: its target is written (atomically), as ``cp`` does, and the link
  stays a link;
* a character device (``/dev/null``, a terminal) or a FIFO is written through, never renamed over;
  ``-`` is standard output; a directory, a block device or a socket is refused;
* an output that is the same file as one of the command's inputs is refused.
"""

from __future__ import annotations

import gzip
import os
import stat
import sys
import tempfile
from pathlib import Path

from .errors import CertifyError

__all__ = ["check_output", "write_output", "format_from_extension"]

_REFUSED = {stat.S_IFDIR: "a directory", stat.S_IFBLK: "a block device", stat.S_IFSOCK: "a socket"}


def _name(path) -> str:
    from .text import shown

    return shown(os.fsdecode(path))


def _stat(path):
    """os.stat (following links), or None when nothing is there."""
    try:
        return os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as e:
        raise CertifyError(f"cannot write {_name(path)}: {e.strerror or e}") from None


def check_output(path, inputs=()) -> None:
    """Refuse, before any long work, an output that cannot be written or is one of ``inputs``."""
    if os.fspath(path) == "-":
        return
    info = _stat(path)
    if info is not None:
        kind = _REFUSED.get(stat.S_IFMT(info.st_mode))
        if kind:
            raise CertifyError(f"cannot write {_name(path)}: it is {kind}")
        for source in inputs:
            if os.fspath(source) == "-":
                continue
            try:
                other = os.stat(source)
            except OSError:
                continue
            if (other.st_dev, other.st_ino) == (info.st_dev, info.st_ino):
                raise CertifyError(f"cannot write {_name(path)}: it is the input file {_name(source)}")
        if not stat.S_ISREG(info.st_mode):
            return  # a device or a FIFO: written through
    # A (possibly dangling) symbolic link is written at its target, so its target's folder counts.
    target = os.path.realpath(path) if os.path.islink(path) else os.fspath(path)
    folder = os.path.dirname(target) or "."
    if not os.path.isdir(folder):
        why = "is not a directory" if os.path.exists(folder) else "does not exist"
        raise CertifyError(f"cannot write {_name(path)}: folder {_name(folder)} {why}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise CertifyError(f"cannot write {_name(path)}: folder {_name(folder)} is not writable")


def check_distinct(*paths) -> None:
    """Refuse two outputs of one command that are the same file (existing or not yet)."""
    seen = {}
    for path in paths:
        if path is None or os.fspath(path) == "-":
            continue
        real = os.path.realpath(path)
        if real in seen:
            raise CertifyError(f"cannot write {_name(path)} twice: it is also {_name(seen[real])}")
        seen[real] = path


def write_output(path, data: bytes, inputs=()) -> None:
    """Write ``data`` to ``path`` as described in the module docstring. A name ending in ``.gz``
    is gzip-compressed with a fixed mtime so the bytes stay deterministic."""
    if os.fspath(path) == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    check_output(path, inputs)
    if os.fspath(path).endswith(".gz"):
        data = gzip.compress(data, compresslevel=9, mtime=0)
    info = _stat(path)
    if info is not None and not stat.S_ISREG(info.st_mode):
        try:
            with open(path, "wb") as f:  # a device or a FIFO: through it, never over it
                f.write(data)
        except OSError as e:
            raise CertifyError(f"cannot write {_name(path)}: {e.strerror or e}") from None
        return
    _replace(os.path.realpath(path), data, info, shown_as=path)


def _replace(target: str, data: bytes, info, shown_as) -> None:
    """Atomic replace of the regular file ``target`` (existing: ``info``, else None)."""
    folder = os.path.dirname(target) or "."
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=folder)
    except OSError as e:
        raise CertifyError(f"cannot write {_name(shown_as)}: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if info is None:
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o666 & ~mask)
        else:
            os.chmod(tmp, stat.S_IMODE(info.st_mode))
            if os.geteuid() == 0 and (info.st_uid, info.st_gid) != (0, 0):
                os.chown(tmp, info.st_uid, info.st_gid)
        os.replace(tmp, target)
    except BaseException as e:  # also KeyboardInterrupt and the CLI's SIGTERM/SIGHUP
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise CertifyError(f"cannot write {_name(shown_as)}: {e.strerror or e}") from None
        raise


def format_from_extension(path, formats: dict, what: str):
    """``formats[extension]`` for an output path; a one-line CertifyError naming the choices if unknown."""
    ext = Path(str(path)).suffix.lower()
    if ext not in formats:
        shown = ext or "no extension"
        raise CertifyError(f"{_name(path)}: cannot tell the {what} format from {shown!r} "
                           f"(use {', '.join(formats)})")
    return formats[ext]
