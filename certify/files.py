"""Output files: atomic writes and formats chosen by extension (standard library only, cheap to import)."""

from __future__ import annotations

import gzip
import os
import tempfile
from pathlib import Path

from .errors import CertifyError

__all__ = ["write_atomic", "format_from_extension"]


def write_atomic(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and a rename.

    A ``.gz`` path is gzip-compressed with a fixed mtime so the bytes stay deterministic.
    Either the whole file appears or nothing does (also on KeyboardInterrupt).
    """
    path = Path(path)
    if path.suffix == ".gz":
        data = gzip.compress(data, compresslevel=9, mtime=0)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as e:
        raise CertifyError(f"cannot write {path}: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise CertifyError(f"cannot write {path}: {e.strerror or e}") from None
        raise


def format_from_extension(path, formats: dict, what: str):
    """``formats[extension]`` for an output path; a one-line CertifyError naming the choices if unknown."""
    ext = Path(str(path)).suffix.lower()
    if ext not in formats:
        shown = ext or "no extension"
        raise CertifyError(f"{path}: cannot tell the {what} format from {shown!r} "
                           f"(use {', '.join(formats)})")
    return formats[ext]
