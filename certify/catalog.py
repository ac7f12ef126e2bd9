"""The committed certificates: what `make certificates` builds and `make verify` checks.

``python -m certify.catalog build`` rebuilds every certificate under certificates/ and
writes the manifest ``certificates/index.json`` (game, strategy, claims, sha256 of each file);
``python -m certify.catalog verify`` runs the independent verifier on all of them and checks
the manifest against the files.

Certificates too big to commit (6 pegs x 9 colours: 2.4 MB gzipped each) are listed in
``certificates/external/index.json`` instead: figures, sha256 and the command that builds them.
Lower-bound proofs too big to commit (the least total of 4x8: 12 MB gzipped) are listed there too,
under "proofs", with the command that checks them beside their strategy.
``python -m certify.catalog add-external FILE COMMAND [CHECK]`` verifies FILE (a strategy, or a
proof with the lower-bound checker) and records it there;
``python -m certify.catalog verify-external DIR`` verifies the listed files found in DIR and
checks them against their entries.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import orjson

from .paths import CERTIFICATES

ROOT = CERTIFICATES
MANIFEST = "index.json"
EXTERNAL = "external/index.json"  # a folder of its own: certificates/*.json are all committed files

#: (file name, strategy id, pegs, colors, repetition, options)
CATALOG: list[tuple[str, str, int, int, bool, dict]] = [
    # Every strategy on the classic game, 4 pegs x 6 colours.
    ("knuth-4x6.json", "knuth", 4, 6, True, {}),
    ("minimax-lowest-4x6.json", "minimax-lowest", 4, 6, True, {}),
    ("minimax-candidates-4x6.json", "minimax-candidates", 4, 6, True, {}),
    ("expected-size-4x6.json", "expected-size", 4, 6, True, {}),
    ("entropy-4x6.json", "entropy", 4, 6, True, {}),
    ("most-parts-4x6.json", "most-parts", 4, 6, True, {}),
    ("consistent-first-4x6.json", "consistent-first", 4, 6, True, {}),
    ("last-guess-4x6.json", "last-guess", 4, 6, True, {}),
    ("greenwell-4x6.json", "greenwell", 4, 6, True, {}),
    ("viaud-4x6.json", "viaud", 4, 6, True, {}),
    # Knuth's rule on other games.
    ("knuth-3x3.json", "knuth", 3, 3, True, {}),
    ("knuth-4x4.json", "knuth", 4, 4, True, {}),
    ("knuth-4x5.json", "knuth", 4, 5, True, {}),
    ("knuth-4x7.json", "knuth", 4, 7, True, {}),
    ("knuth-4x10-norep.json", "knuth", 4, 10, False, {}),
    ("knuth-5x8.json.gz", "knuth", 5, 8, True, {}),
    ("knuth-4x8.json.gz", "knuth", 4, 8, True, {}),  # at most 6 guesses: meets worst-case-4x8
]

#: Strategies of the exact search (least total, see certificates/bounds/): built with their
#: lower-bound proofs by ``python -m certify.search.catalog build`` (this module never imports
#: the search), verified and listed here like the others.
SEARCHED = "optimal-total"
CATALOG += [
    (f"optimal-total-{slug}.json", SEARCHED, pegs, colors, repetition, {})
    for slug, pegs, colors, repetition in [
        ("2x2", 2, 2, True), ("2x3", 2, 3, True), ("2x4", 2, 4, True), ("2x5", 2, 5, True),
        ("2x6", 2, 6, True), ("2x7", 2, 7, True), ("2x8", 2, 8, True), ("3x2", 3, 2, True),
        ("3x3", 3, 3, True), ("3x4", 3, 4, True), ("3x5", 3, 5, True), ("4x3", 4, 3, True),
        ("4x4", 4, 4, True), ("4x5", 4, 5, True), ("3x4-norep", 3, 4, False),
        ("3x5-norep", 3, 5, False), ("3x6-norep", 3, 6, False), ("4x4-norep", 4, 4, False),
        ("4x5-norep", 4, 5, False), ("4x6-norep", 4, 6, False), ("4x6", 4, 6, True), ("4x6-max5", 4, 6, True), ("4x7", 4, 7, True),
        ("4x10-norep", 4, 10, False), ("2x5-max4", 2, 5, True),
        ("2x7-max5", 2, 7, True), ("4x4-max4", 4, 4, True), ("4x4-norep-max5", 4, 4, False),
        ("4x7-norep", 4, 7, False), ("4x8-norep", 4, 8, False), ("4x9-norep", 4, 9, False),
        ("4x9-norep-max6", 4, 9, False),
        # least total within D, then the fewest secrets needing D (certify.search.catalog)
        ("2x5-max4-count", 2, 5, True), ("3x3-max4-count", 3, 3, True),
        ("3x4-norep-max4-count", 3, 4, False), ("4x4-max4-count", 4, 4, True),
        ("4x6-norep-max5-count", 4, 6, False), ("4x6-max5-count", 4, 6, True),
        # the fewest secrets needing D, then the least total ("first": "at_max")
        ("2x5-max4-count-first", 2, 5, True), ("3x3-max4-count-first", 3, 3, True),
        ("3x4-norep-max4-count-first", 3, 4, False), ("4x4-max4-count-first", 4, 4, True),
        ("4x6-norep-max5-count-first", 4, 6, False), ("4x6-max5-count-first", 4, 6, True),
    ]
]

#: 4x8 (issue 22): the strategies are committed, their proofs (12 MB gzipped each) are listed in
#: certificates/external/index.json with the commands that rebuild and check them.
CATALOG += [("optimal-total-4x8.json.gz", SEARCHED, 4, 8, True, {}),
            ("optimal-total-4x8-max6.json.gz", SEARCHED, 4, 8, True, {})]

__all__ = ["CATALOG", "build_one", "build_all", "manifest", "verify_all"]


def build_one(entry, folder: Path = ROOT) -> bytes:
    """Build one catalogue entry and write it under ``folder``; return the file's bytes."""
    from .certificate import dumps, make_certificate
    from .files import write_output
    from .game import Game
    from .strategies import get_strategy

    name, strategy_id, pegs, colors, repetition, options = entry
    if strategy_id == SEARCHED:
        raise ValueError(f"{name} is built by python -m certify.search.catalog build")
    strategy = get_strategy(strategy_id)(Game(pegs, colors, repetition), **options)
    cert = make_certificate(strategy)
    path = folder / name
    write_output(path, dumps(cert, compact=name.endswith(".gz")))
    return path.read_bytes()


def manifest(folder: Path = ROOT) -> dict:
    """The manifest for the catalogue's files as they are in ``folder``."""
    from .certificate import read

    entries = []
    for name, *_ in CATALOG:
        path = folder / name
        cert = read(path)
        entries.append({
            "file": name,
            "game": cert["game"],
            "strategy": cert["strategy"],
            "claims": cert["claims"],
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        })
    return {"format": "certify-certificate-index", "version": 1, "certificates": entries}


def build_all(folder: Path = ROOT) -> None:
    from .files import write_output

    folder.mkdir(parents=True, exist_ok=True)
    for entry in CATALOG:
        if entry[1] == SEARCHED:
            continue  # built with its proof by certify.search.catalog
        print(f"building {entry[0]}", file=sys.stderr)
        build_one(entry, folder)
    write_output(folder / MANIFEST, orjson.dumps(manifest(folder), option=orjson.OPT_INDENT_2) + b"\n")


def _check_once(path: Path, by_bytes, by_file):
    """(report, sha256 of the bytes checked): the file is read once, so the bytes the checker
    accepts are the bytes hashed. A file that cannot be read gets the checker's own report."""
    from . import verify

    try:
        raw = verify.read_input(str(path))
    except (verify.Unreadable, verify.Invalid):
        return by_file(str(path)), None
    return by_bytes(raw, str(path)), hashlib.sha256(raw).hexdigest()


def _check_listed(path: Path, entry, manifest_name: str, by_bytes, by_file) -> int:
    """Check one file and compare its claims and sha256 with its manifest entry; print the
    verdicts and return the exit status."""
    report, sha256 = _check_once(path, by_bytes, by_file)
    print(report.line(), flush=True)
    status = report.status
    if entry is None:
        print(f"{path}: not listed in {manifest_name}")
        status = max(status, 1)
    elif report.valid and (report.claims != entry["claims"] or sha256 != entry["sha256"]):
        print(f"{path}: does not match its {manifest_name} entry")
        status = max(status, 1)
    return status


def verify_all(folder: Path = ROOT) -> int:
    """Verify every catalogued certificate and the manifest; return an exit status."""
    from . import verify

    listed = orjson.loads((folder / MANIFEST).read_bytes())
    by_file = {e["file"]: e for e in listed["certificates"]}
    return max([_check_listed(folder / name, by_file.get(name), MANIFEST, verify.verify_bytes,
                              verify.verify_file) for name, *_ in CATALOG], default=0)


def verify_bounds(folder: Path = ROOT / "bounds") -> int:
    """Check every lower-bound proof listed in certificates/bounds/index.json with the independent
    checker, and its claims and sha256 against the manifest; return an exit status. (The proofs
    are built by ``python -m certify.search.catalog build``.)"""
    from . import verify_bound

    entries = orjson.loads((folder / MANIFEST).read_bytes())["proofs"]
    return max([_check_listed(folder / e["file"], e, MANIFEST, verify_bound.check_bytes,
                              verify_bound.check_file) for e in entries], default=0)


def _external(folder: Path) -> dict:
    path = folder / EXTERNAL
    if not path.exists():
        return {"format": "certify-external-index", "version": 1, "certificates": []}
    return orjson.loads(path.read_bytes())


def add_external(file: str, command: str, folder: Path = ROOT, check: str | None = None) -> int:
    """Verify ``file`` and record its figures and sha256 in certificates/external/index.json: a
    strategy under "certificates", a lower-bound proof (checked by verify_bound) under "proofs",
    with ``check``, the command that checks it beside its strategy."""
    from . import verify, verify_bound
    from .kinds import LOWER_BOUND, kind_of

    data = verify.read_input(file)  # read once: the bytes verified are the bytes hashed
    proof = kind_of(data) == LOWER_BOUND
    report = verify_bound.check_bytes(data, file) if proof else verify.verify_bytes(data, file, keep=True)
    print(report.line())
    if not report.valid:
        return report.status
    if proof:
        entry = {"file": Path(file).name, "game": report.game, "claims": report.claims,
                 "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data), "command": command,
                 "check": check or f"certify verify {Path(file).name}"}
    else:
        cert = report.document
        entry = {"file": Path(file).name, "game": cert["game"], "strategy": cert["strategy"],
                 "claims": cert["claims"], "sha256": hashlib.sha256(data).hexdigest(),
                 "bytes": len(data), "command": command}
    index = _external(folder)
    key = "proofs" if proof else "certificates"
    index[key] = sorted([e for e in index.get(key, []) if e["file"] != entry["file"]] + [entry],
                        key=lambda e: e["file"])
    _save_external(index, folder)
    return 0


def drop_external(name: str, folder: Path = ROOT) -> bool:
    """Take ``name`` out of certificates/external/index.json (it is committed now: the atlas's
    adopt); True if it was listed."""
    index = _external(folder)
    listed = False
    for key in ("certificates", "proofs"):
        kept = [e for e in index.get(key, []) if e["file"] != name]
        listed |= len(kept) != len(index.get(key, []))
        index[key] = kept
    if listed:
        _save_external(index, folder)
    return listed


def _save_external(index: dict, folder: Path) -> None:
    from .files import write_output

    write_output(folder / EXTERNAL, orjson.dumps(index, option=orjson.OPT_INDENT_2) + b"\n")


def verify_external(where: str, folder: Path = ROOT) -> int:
    """Verify the listed big certificates and proofs found in ``where`` against their entries."""
    from . import verify, verify_bound

    status = 0
    index = _external(folder)
    for key, by_bytes, by_file in (("certificates", verify.verify_bytes, verify.verify_file),
                                   ("proofs", verify_bound.check_bytes, verify_bound.check_file)):
        for entry in index.get(key, []):
            path = Path(where) / entry["file"]
            if not path.exists():
                print(f"{path}: absent (build it with: {entry['command']})")
                continue
            status = max(status, _check_listed(path, entry, EXTERNAL, by_bytes, by_file))
    return status


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["build"]:
        build_all()
        return 0
    if argv == ["verify"]:
        return verify_all()
    if argv == ["verify-bounds"]:
        return verify_bounds()
    if len(argv) in (3, 4) and argv[0] == "add-external":
        return add_external(*argv[1:3], check=argv[3] if len(argv) == 4 else None)
    if len(argv) == 2 and argv[0] == "verify-external":
        return verify_external(argv[1])
    print("usage: python -m certify.catalog build|verify|verify-bounds|add-external FILE COMMAND [CHECK]"
          "|verify-external DIR", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
