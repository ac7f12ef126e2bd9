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

#: (file name, pegs, colors, repetition, kind, claim): kind "worst" proves the claim's D; kind
#: "total" proves the least total (within max_guesses if claimed) and writes the strategy that
#: reaches it to certificates/optimal-<name>.
CATALOG: list[tuple[str, int, int, bool, str, dict]] = [
    ("worst-case-3x3.json", 3, 3, True, "worst", {"worst_case": 4}),
    ("worst-case-4x4.json", 4, 4, True, "worst", {"worst_case": 4}),
    ("worst-case-4x5.json", 4, 5, True, "worst", {"worst_case": 5}),
    ("worst-case-4x6.json", 4, 6, True, "worst", {"worst_case": 5}),
    ("worst-case-4x6-norep.json", 4, 6, False, "worst", {"worst_case": 5}),
    ("worst-case-4x7.json.gz", 4, 7, True, "worst", {"worst_case": 6}),
    ("worst-case-4x10-norep.json.gz", 4, 10, False, "worst", {"worst_case": 7}),  # Bulls and Cows
    # 4x8 and 4xC without repetition (issue 22): none was checked before. knuth-4x8 and the
    # least-total strategies below meet them.
    ("worst-case-4x8.json.gz", 4, 8, True, "worst", {"worst_case": 6}),
    ("worst-case-4x7-norep.json.gz", 4, 7, False, "worst", {"worst_case": 6}),
    ("worst-case-4x8-norep.json.gz", 4, 8, False, "worst", {"worst_case": 6}),
    ("worst-case-4x9-norep.json.gz", 4, 9, False, "worst", {"worst_case": 6}),
    # Least totals: Goddard (2004), Mastermind revisited, gives 2x2..2x5, 3x2..3x5, 4x3..4x5
    # (as means); 4x6 without repetition is 1446 in the reference table.
    ("total-2x2.json", 2, 2, True, "total", {"total": 8}),
    ("total-2x3.json", 2, 3, True, "total", {"total": 21}),
    ("total-2x4.json", 2, 4, True, "total", {"total": 45}),
    ("total-2x5.json", 2, 5, True, "total", {"total": 81}),
    ("total-2x6.json", 2, 6, True, "total", {"total": 132}),
    ("total-2x7.json", 2, 7, True, "total", {"total": 198}),
    ("total-2x8.json", 2, 8, True, "total", {"total": 284}),
    ("total-3x2.json", 3, 2, True, "total", {"total": 18}),
    ("total-3x3.json", 3, 3, True, "total", {"total": 73}),
    ("total-3x4.json", 3, 4, True, "total", {"total": 206}),
    ("total-3x5.json", 3, 5, True, "total", {"total": 451}),
    ("total-4x3.json", 4, 3, True, "total", {"total": 246}),
    ("total-4x4.json", 4, 4, True, "total", {"total": 905}),
    ("total-4x5.json.gz", 4, 5, True, "total", {"total": 2463}),
    ("total-3x4-norep.json", 3, 4, False, "total", {"total": 72}),
    ("total-3x5-norep.json", 3, 5, False, "total", {"total": 196}),
    ("total-3x6-norep.json", 3, 6, False, "total", {"total": 436}),
    ("total-4x4-norep.json", 4, 4, False, "total", {"total": 86}),
    ("total-4x5-norep.json", 4, 5, False, "total", {"total": 462}),
    ("total-4x6-norep.json", 4, 6, False, "total", {"total": 1446}),
    ("total-4x6.json.gz", 4, 6, True, "total", {"total": 5625}),  # Koyama and Lai 1993
    ("total-4x6-max5.json.gz", 4, 6, True, "total", {"max_guesses": 5, "total": 5626}),  # idem
    # Ville (2013), An optimal Mastermind (4,7) strategy and more results in the expected case:
    # 11228. The proof is 2.9 MB gzipped (292,712 nodes): `make verify` checks it, the suite
    # does not (tens of seconds of CPU).
    ("total-4x7.json.gz", 4, 7, True, "total", {"total": 11228}),
    # Bulls and Cows: Tanaka (1996), 26274 (Slovesnov 2017 confirms it). About 5 min of search.
    ("total-4x10-norep.json.gz", 4, 10, False, "total", {"total": 26274}),
    # Claimed by the public C solver's trees (3639, 7817), never checked before; 4x9 without
    # repetition has no published figure we know of: 14914, which needs a 7th guess for some
    # secret, and 14916 within the least worst case, 6.
    ("total-4x7-norep.json.gz", 4, 7, False, "total", {"total": 3639}),
    ("total-4x8-norep.json.gz", 4, 8, False, "total", {"total": 7817}),
    ("total-4x9-norep.json.gz", 4, 9, False, "total", {"total": 14914}),
    ("total-4x9-norep-max6.json.gz", 4, 9, False, "total", {"max_guesses": 6, "total": 14916}),
    # Where the unlimited optimum above uses more guesses than the least worst case: the same
    # total within the least worst case.
    ("total-2x5-max4.json", 2, 5, True, "total", {"max_guesses": 4, "total": 81}),
    ("total-2x7-max5.json", 2, 7, True, "total", {"max_guesses": 5, "total": 198}),
    ("total-4x4-max4.json", 4, 4, True, "total", {"max_guesses": 4, "total": 905}),
    ("total-4x4-norep-max5.json", 4, 4, False, "total", {"max_guesses": 5, "total": 86}),
    # Least total within D, then the fewest secrets that need all D guesses (claim at_max, bounds
    # as costs: docs/lower-bound-format.md). 4x6 within 5: 5626 then 540, where Slovesnov's web
    # page has 539 (never checked before; the strategy meets 540, the proof shows none does
    # better). Bulls and Cows within 7: 26274 then 69 (published: 50); its proof, 9.6 MB gzipped,
    # is listed in certificates/external/index.json instead.
    ("total-2x5-max4-count.json", 2, 5, True, "total", {"max_guesses": 4, "total": 81, "at_max": 11}),
    ("total-3x3-max4-count.json", 3, 3, True, "total", {"max_guesses": 4, "total": 73, "at_max": 1}),
    ("total-3x4-norep-max4-count.json", 3, 4, False, "total", {"max_guesses": 4, "total": 72, "at_max": 6}),
    ("total-4x4-max4-count.json", 4, 4, True, "total", {"max_guesses": 4, "total": 905, "at_max": 150}),
    ("total-4x6-norep-max5-count.json", 4, 6, False, "total", {"max_guesses": 5, "total": 1446, "at_max": 89}),
    ("total-4x6-max5-count.json.gz", 4, 6, True, "total", {"max_guesses": 5, "total": 5626, "at_max": 540}),
    # The other order ("first": "at_max"): the fewest secrets that need all D guesses, then the
    # least total. 4x6 within 5: 539 then 5627, Slovesnov's 539: his count is of this objective,
    # and no strategy has both 5626 and 539 (the proof above).
    ("total-2x5-max4-count-first.json", 2, 5, True, "total",
     {"max_guesses": 4, "total": 81, "at_max": 11, "first": "at_max"}),
    ("total-3x3-max4-count-first.json", 3, 3, True, "total",
     {"max_guesses": 4, "total": 73, "at_max": 1, "first": "at_max"}),
    ("total-3x4-norep-max4-count-first.json", 3, 4, False, "total",
     {"max_guesses": 4, "total": 72, "at_max": 6, "first": "at_max"}),
    ("total-4x4-max4-count-first.json", 4, 4, True, "total",
     {"max_guesses": 4, "total": 905, "at_max": 150, "first": "at_max"}),
    ("total-4x6-norep-max5-count-first.json", 4, 6, False, "total",
     {"max_guesses": 5, "total": 1449, "at_max": 86, "first": "at_max"}),
    ("total-4x6-max5-count-first.json.gz", 4, 6, True, "total",
     {"max_guesses": 5, "total": 5627, "at_max": 539, "first": "at_max"}),
]

__all__ = ["CATALOG", "build_one", "build_all", "manifest"]


def strategy_name(name: str) -> str:
    """The strategy certificate paired with a total proof: total-3x3.json -> optimal-total-3x3.json."""
    return "optimal-" + name.removesuffix(".gz")


def build_one(entry, folder: Path = ROOT, progress: bool = False, strategies: Path | None = None) -> bytes:
    """Build one proof and write it under ``folder`` (a total's strategy under ``strategies``,
    by default certificates/); return the proof file's bytes."""
    from ..certificate import dumps as strategy_bytes
    from ..files import write_output
    from ..game import Game
    from .proof import dumps

    name, pegs, colors, repetition, kind, claim = entry
    game = Game(pegs, colors, repetition)
    strategy = None
    if kind == "worst":
        from .worst import WorstSearch

        doc = WorstSearch(game, progress=progress).prove(claim["worst_case"])
    elif kind == "total":
        from .total import TotalSearch

        search = TotalSearch(game, claim.get("max_guesses"), progress=progress, at_max="at_max" in claim,
                             first=claim.get("first", "total"))
        search.solve()
        doc = search.prove()
        strategy = search.strategy_certificate()
    else:  # pragma: no cover - guarded by the catalogue's own entries
        raise ValueError(f"unknown kind {kind!r}")
    if doc is None or doc["claims"] != claim:
        found = None if doc is None else doc["claims"]
        raise AssertionError(f"{name}: the search proves {found}, the catalogue says {claim}")
    path = folder / name
    write_output(path, dumps(doc))
    if strategy is not None:
        write_output((strategies or folder.parent) / strategy_name(name), strategy_bytes(strategy))
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
    if folder == ROOT:  # the strategies of the totals are in the main catalogue's manifest
        from .. import catalog as strategies

        write_output(strategies.ROOT / strategies.MANIFEST,
                     orjson.dumps(strategies.manifest(), option=orjson.OPT_INDENT_2) + b"\n")


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
