"""The committed lower-bound proofs: ``python -m certify.search.catalog build``.

Rebuilds every proof under certificates/bounds/ (and the optimal-total strategies they pair
with under certificates/), then writes the manifest certificates/bounds/index.json: each
proof's game, claim, node count and sha256. ``list`` prints the entries.
"""

from __future__ import annotations

import hashlib
import sys
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent.parent / "certificates" / "bounds"
MANIFEST = "index.json"

#: (file name, pegs, colors, repetition, kind, options): kind "worst" proves the claim's D.
CATALOG: list[tuple[str, int, int, bool, str, dict]] = [
    ("worst-case-3x3.json", 3, 3, True, "worst", {"worst_case": 4}),
    ("worst-case-4x4.json", 4, 4, True, "worst", {"worst_case": 4}),
    ("worst-case-4x5.json", 4, 5, True, "worst", {"worst_case": 5}),
    ("worst-case-4x6.json", 4, 6, True, "worst", {"worst_case": 5}),
    ("worst-case-4x6-norep.json", 4, 6, False, "worst", {"worst_case": 5}),
    ("worst-case-4x7.json.gz", 4, 7, True, "worst", {"worst_case": 6}),
    ("worst-case-4x10-norep.json.gz", 4, 10, False, "worst", {"worst_case": 7}),  # Bulls and Cows
]

__all__ = ["CATALOG", "build_one", "build_all", "manifest"]


def build_one(entry, folder: Path = ROOT, progress: bool = False) -> bytes:
    """Build one proof and write it under ``folder``; return the file's bytes."""
    from ..files import write_output
    from ..game import Game
    from .proof import dumps

    name, pegs, colors, repetition, kind, claim = entry
    game = Game(pegs, colors, repetition)
    if kind == "worst":
        from .worst import WorstSearch

        doc = WorstSearch(game, progress=progress).prove(claim["worst_case"])
    else:  # pragma: no cover - guarded by the catalogue's own entries
        raise ValueError(f"unknown kind {kind!r}")
    if doc is None or doc["claims"] != claim:
        raise AssertionError(f"{name}: the search does not prove {claim}")
    path = folder / name
    write_output(path, dumps(doc))
    return path.read_bytes()


def manifest(folder: Path = ROOT) -> dict:
    """The manifest for the proofs as they are in ``folder``."""
    import gzip

    entries = []
    for name, *_ in CATALOG:
        raw = (folder / name).read_bytes()
        doc = orjson.loads(gzip.decompress(raw) if name.endswith(".gz") else raw)
        entries.append({
            "file": name,
            "game": doc["game"],
            "claims": doc["claims"],
            "nodes": len(doc["nodes"]),
            "sha256": hashlib.sha256(raw).hexdigest(),
        })
    return {"format": "certify-lower-bound-index", "version": 1, "proofs": entries}


def build_all(folder: Path = ROOT, names=None) -> None:
    from ..files import write_output

    folder.mkdir(parents=True, exist_ok=True)
    for entry in CATALOG:
        if names and entry[0] not in names:
            continue
        start = time.perf_counter()
        data = build_one(entry, folder, progress=True)
        print(f"built {entry[0]}: {len(data)} bytes in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    write_output(folder / MANIFEST, orjson.dumps(manifest(folder), option=orjson.OPT_INDENT_2) + b"\n")


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["build"]:
        build_all(names=set(argv[1:]))
        return 0
    if argv == ["list"]:
        for name, *_, claim in CATALOG:
            print(name, orjson.dumps(claim).decode())
        return 0
    print("usage: python -m certify.search.catalog build [FILE...] | list", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
