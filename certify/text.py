"""Text from files, made safe to show: control characters escaped, so a certificate cannot move
the cursor, clear the screen, colour the terminal or print a fake line (standard library only)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["shown", "from_here"]


def _escape(ch: str) -> str:
    code = ord(ch)
    if ch in "\n\t\r":
        return {"\n": "\\n", "\t": "\\t", "\r": "\\r"}[ch]
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def shown(value, limit: int | None = None) -> str:
    """``value`` as one printable line: every character that is not printable (ANSI escapes,
    newlines, bidirectional overrides, lone surrogates...) written as a backslash escape, a
    backslash itself doubled. With ``limit``, at most that many characters, then ``...``."""
    text = value if isinstance(value, str) else str(value)
    if limit is not None and len(text) > limit:
        text = text[:limit]
        more = "..."
    else:
        more = ""
    out = "".join(ch if ch.isprintable() and ch != "\\" else ("\\\\" if ch == "\\" else _escape(ch))
                  for ch in text)
    return out + more


def from_here(path) -> str:
    """``path`` as the user can type it where they stand: relative to the current folder when it
    lies under it, else absolute (a path relative to the repository fails from any other folder)."""
    full = Path(path).resolve()
    try:
        return str(full.relative_to(Path(os.getcwd()).resolve()))
    except ValueError:
        return str(full)
