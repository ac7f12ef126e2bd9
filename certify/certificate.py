"""Certificate format v1: assemble, write (deterministically, atomically), read.

See docs/certificate-format.md and docs/certificate.schema.json.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path
from typing import TYPE_CHECKING

import orjson

from ._version import __version__
from .errors import CertifyError
from .files import write_output

if TYPE_CHECKING:  # the builder (numpy) is imported only when a certificate is built
    from .strategies.base import Strategy

FORMAT = "mastermind-strategy-certificate"
VERSION = 1

__all__ = ["FORMAT", "VERSION", "make_certificate", "wrap", "dumps", "write", "read"]


def make_certificate(strategy: Strategy, progress=None) -> dict:
    """Build the strategy's tree and wrap it in a v1 certificate."""
    from .build import build_tree

    tree, histogram = build_tree(strategy, progress=progress)
    return wrap(strategy, tree, histogram)


def wrap(strategy: Strategy, tree: dict, histogram: dict[int, int]) -> dict:
    """A v1 certificate around a built tree and its histogram {guesses: secrets}."""
    from .build import claims_of

    return {
        "format": FORMAT,
        "version": VERSION,
        "game": strategy.game.to_json(),
        "strategy": {"name": strategy.id, "params": strategy.params(), "reference": strategy.reference},
        "claims": claims_of(histogram),
        "generator": {"name": "certify", "version": __version__},
        "tree": tree,
    }


def dumps(cert: dict, compact: bool = False) -> bytes:
    """Deterministic bytes: dict order is the builder's canonical order; indented unless compact."""
    option = 0 if compact else orjson.OPT_INDENT_2
    return orjson.dumps(cert, option=option) + b"\n"


def write(cert: dict, path: str | os.PathLike) -> bytes:
    """Write a certificate (compact when gzipped) and return the bytes before compression."""
    data = dumps(cert, compact=str(path).endswith(".gz"))
    write_output(path, data)
    return data


def read(path: str | os.PathLike) -> dict:
    """Read a certificate file (plain or gzipped JSON) without checking it: use the verifier for that."""
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        raise CertifyError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        return orjson.loads(raw)
    except (OSError, EOFError, orjson.JSONDecodeError) as e:
        raise CertifyError(f"{path}: not a readable JSON certificate ({e})") from None
