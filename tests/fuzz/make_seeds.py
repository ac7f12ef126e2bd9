"""Rebuild the seed corpora tests/fuzz/seeds/<target>/ from the committed files (and, for the
importers, the peers' files under ../shared/data (beside the repository) when that folder is there): small files only,
each folder under about 2 MB. Gzip files are kept as they are for a few and decompressed for the
rest. Run from the repository's root: python tests/fuzz/make_seeds.py (docs/fuzzing.md).

The import seeds start with one byte that chooses the format (tests/fuzz/fuzz_import.py)."""

from __future__ import annotations

import gzip
import json
import shutil
import sys
import zlib
from pathlib import Path

from fuzzlib import import_prefix as prefix  # (beside this script)

ROOT = Path(__file__).resolve().parents[2]
SEEDS = Path(__file__).resolve().parent / "seeds"
SHARED = ROOT.parent / "shared" / "data"  # ../shared beside the repository, as the tests read it
BIGGEST = 48 << 10  # bytes of one seed, as stored and after decompression
FOLDER_LIMIT = 2 << 20
KEEP_GZ = 3  # gzip seeds kept compressed per target (the others decompressed)


def _format(raw: bytes) -> str | None:
    try:
        doc = json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
    except (ValueError, OSError, EOFError):
        return None
    return doc.get("format") if isinstance(doc, dict) else None


class Folder:
    def __init__(self, target: str) -> None:
        self.path = SEEDS / target
        shutil.rmtree(self.path, ignore_errors=True)
        self.path.mkdir(parents=True)
        self.size = 0
        self.gz = 0

    def add(self, name: str, raw: bytes, prefix: bytes = b"") -> None:
        if raw[:2] == b"\x1f\x8b" and name.endswith(".gz"):
            if self.gz < KEEP_GZ and len(raw) <= BIGGEST:
                self.gz += 1
                self._write(name, prefix + raw)
            try:
                raw = gzip.decompress(raw)
            except (OSError, EOFError, zlib.error):
                return  # (a broken gzip seed is kept only as it is)
            name = name[:-3]
        self._write(name, prefix + raw)

    def _write(self, name: str, data: bytes) -> None:
        if len(data) > BIGGEST or self.size + len(data) > FOLDER_LIMIT or (self.path / name).exists():
            return
        (self.path / name).write_bytes(data)
        self.size += len(data)


def files(folder: Path):
    return sorted(p for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from certify.proofparts import split

    strategy, bound, mixed = Folder("verify"), Folder("verify_bound"), Folder("verify_mixed")
    by_format = {"mastermind-strategy-certificate": strategy, "mastermind-lower-bound-certificate": bound,
                 "mastermind-mixed-strategy": mixed}
    # the committed certificates, smallest first, each to the checker of its format
    committed = [*files(ROOT / "certificates"), *files(ROOT / "certificates" / "bounds"),
                 *files(ROOT / "certificates" / "value")]
    for path in sorted(committed, key=lambda p: p.stat().st_size):
        raw = path.read_bytes()
        folder = by_format.get(_format(raw))
        if folder is not None:
            folder.add(f"{path.parent.name}-{path.name}", raw)
    for path in [*files(ROOT / "tests/data/valid"), *files(ROOT / "tests/data/invalid")]:
        strategy.add(f"{path.parent.name}-{path.name}", path.read_bytes())
    for path in [*files(ROOT / "tests/data/bounds/valid"), *files(ROOT / "tests/data/bounds/invalid")]:
        bound.add(f"bounds-{path.parent.name}-{path.name}", path.read_bytes())
    # split proofs: a main file with lemma references, and parts with a root path
    for name, how in (("total-3x3.json", {"depth": 1}), ("total-4x4-max4.json", {"depth": 2}),
                      ("worst-case-3x3.json", {"parts": 3})):
        doc = json.loads((ROOT / "certificates/bounds" / name).read_bytes())
        main_file, parts = split(doc, **how)
        stem = name.removesuffix(".json")
        bound.add(f"split-{stem}-main.json", main_file)
        for k, part in enumerate(parts[:4], 1):
            bound.add(f"split-{stem}-part-{k}.json", part)
    # mixed strategies: also a few strategy certificates and bounds (other formats, same JSON)
    for path in sorted(files(SEEDS / "verify"))[:5]:
        mixed.add(f"other-{path.name}", path.read_bytes())

    imports = Folder("import")
    suffixes = {".txt": "cpp-text", ".cards": "c-punchcard", ".yml": "c-yaml", ".gv": "cuda-dot",
                ".json": "cuda-json"}
    found = [*files(ROOT / "tests/data/import"), *sorted(SHARED.glob("*/*/*")), *sorted(SHARED.glob("*/*"))]
    for path in sorted(found, key=lambda p: p.stat().st_size if p.is_file() else 0):
        if not path.is_file():
            continue
        name = path.name.removesuffix(".gz")
        fmt = ("c-punchcard" if name.startswith("solution-")
               else next((f for s, f in suffixes.items() if name.endswith(s)), None))
        if fmt is None or (fmt == "cpp-text" and name in ("README.md", "Results.txt")):
            continue
        raw = path.read_bytes()
        runs = raw.count(b'"run"') if fmt == "cuda-json" else 0
        imports.add(f"{fmt}-{path.parent.name}-{path.name}", raw, prefix(fmt, 2 if runs > 1 else None))
    # and each format's file under every other format (a parser on another's syntax)
    small = sorted(files(ROOT / "tests/data/import"), key=lambda p: p.stat().st_size)[:6]
    for path in small:
        for fmt in suffixes.values():
            imports.add(f"as-{fmt}-{path.name}", path.read_bytes(), prefix(fmt))

    for folder in (strategy, bound, mixed, imports):
        print(f"{folder.path.relative_to(ROOT)}: {len(list(folder.path.iterdir()))} files, {folder.size} bytes")


if __name__ == "__main__":
    main()
