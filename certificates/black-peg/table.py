"""The rows of docs/black-peg.md's table, from the committed files, each pair checked here: the proof
by the lower-bound checker (its CPU time is the "check" column) and the strategy by the verifier.

    .venv/bin/python certificates/black-peg/table.py
"""

import gzip
import json
import re
import time
from pathlib import Path

from certify import verify, verify_bound

FOLDER = Path(__file__).resolve().parent
NAME = re.compile(r"(worst-case|total)-(\d+)x(\d+)(-norep)?-black\.json(\.gz)?")


def main() -> None:
    rows = []
    for p in FOLDER.glob("*.json*"):
        m = NAME.fullmatch(p.name)
        if not m:
            continue
        kind, pegs, colors, norep = m[1], int(m[2]), int(m[3]), bool(m[4])
        start = time.process_time()
        bound = verify_bound.check_file(str(p))
        seconds = time.process_time() - start
        strategy = verify.verify_file(str(FOLDER / f"optimal-{p.name.removesuffix('.gz')}"))
        if not (bound.valid and strategy.valid):
            raise SystemExit(f"{p.name}: {bound.error or strategy.error}")
        raw = p.read_bytes()
        nodes = len(json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)["nodes"])
        value = bound.claims["worst_case"] if kind == "worst-case" else bound.claims["total"]
        rows.append((norep, pegs, colors, kind, value, nodes, len(raw), seconds, strategy.replayed, p.name))
    for norep, pegs, colors, kind, value, nodes, size, seconds, r, name in sorted(rows):
        game = f"{pegs}x{colors}" + (" no rep." if norep else "")
        what, published = (("worst case", "formula not found (below)") if kind == "worst-case"
                           else ("least total", "not published"))
        beside = (f"total {r['total_guesses']}" if kind == "worst-case"
                  else f"mean {r['total_guesses'] / r['secrets']:.4f}, max {r['max_guesses']}")
        print(f"| {game} | {what} | {value} | {beside} | {published} | {nodes:,} | {size / 1000:,.0f} KB | "
              f"{seconds:.1f} s | `{name}` |")


if __name__ == "__main__":
    main()
