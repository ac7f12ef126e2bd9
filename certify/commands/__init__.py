"""The CLI's sub-commands, one module per family; ``certify.__main__`` assembles them.

Each family module has ``register(sub)``, which adds its sub-parsers with ``set_defaults(func=...)``.
Command functions return an exit status or raise ``CertifyError``; only ``__main__`` turns errors
into messages and exit codes.
"""

from __future__ import annotations

from . import atlas, bounding, building, checking, drawing, estimating, importing, playing, splitting, static, value

#: In the order they appear in ``certify --help``.
FAMILIES = (building, importing, checking, drawing, playing, bounding, estimating, splitting, value, atlas, static)

__all__ = ["FAMILIES"]
