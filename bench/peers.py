"""The compiled peers' running times, read from the vendored reference (tests/data/strategies.md,
a byte copy of ../shared/reference/strategies.md that a test keeps equal to it).

One source for every peer figure the benchmark prints: the table "Compiled solvers, re-measured on
this project's 2-core machine side by side" (median CPU of whole processes, one thread, peers built
``-O3 -DNDEBUG``). Nothing here is typed twice, so a re-measured table changes every printed ratio.

    python bench/peers.py        # the table as parsed, one line per workload
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

REFERENCE = Path(__file__).resolve().parent.parent / "tests" / "data" / "strategies.md"

#: The benchmark's workloads and the reference table's row for each (its first cell).
WORKLOADS = {
    "optimal 4x6": "optimal 4x6 (5625)",
    "optimal 4x6 max 5": "optimal 4x6 within 5 (5626)",
    "optimal 4x7": "optimal 4x7 (11228)",
    "optimal bulls and cows": "optimal Bulls and Cows (26274)",
    "knuth 5x8": "minimax 5x8, first guess 00112",
    "expected-size 5x8": "expected size 5x8",
    "entropy 5x8": "entropy 5x8",
    "most-parts 5x8": "most parts 5x8",
    "knuth 6x7": "minimax 6x7, first guess 001123",
}


def _number(cell: str) -> float:
    return float(cell.strip())


def table(text: str | None = None) -> dict[str, list[tuple[str, float]]]:
    """{workload cell: [(peer, CPU seconds), ...]} from the reference's peer table. A cell
    "3.20 / 2.35" beside peers "A / B" gives two entries; the same workload on two rows (the C++
    and the C solver for optimal 4x6) gives both."""
    text = REFERENCE.read_text() if text is None else text
    start = text.index("| workload | C/C++ peer | CPU s |")
    rows: dict[str, list[tuple[str, float]]] = {}
    for line in text[start:].splitlines()[2:]:
        line = line.strip()
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        workload, peers, seconds = cells[0], cells[1], cells[2]
        names = [p.strip() for p in peers.split(" / ")]
        values = [_number(s) for s in seconds.split("/")]
        if len(names) != len(values):
            raise ValueError(f"{REFERENCE.name}: row {workload!r}: {len(names)} peers, {len(values)} times")
        for name, value in zip(names, values):
            # "C++ (fancidev `mmstrat -s optimal`)" -> "C++ fancidev"
            match = re.match(r"(C\+\+|C)\s*\(([\w-]+)", name)
            rows.setdefault(workload, []).append((f"{match[1]} {match[2]}" if match else name, value))
    return rows


def fastest(workload: str, text: str | None = None) -> tuple[str, float]:
    """(peer, CPU s) of the fastest compiled peer on one of WORKLOADS."""
    return min(table(text)[WORKLOADS[workload]], key=lambda pv: pv[1])


def peers(workload: str, text: str | None = None) -> list[tuple[str, float]]:
    """Every peer's (name, CPU s) on one of WORKLOADS, fastest first."""
    return sorted(table(text)[WORKLOADS[workload]], key=lambda pv: pv[1])


if __name__ == "__main__":
    for key in WORKLOADS:
        print(f"{key:<24} " + ", ".join(f"{name} {s:g} s" for name, s in peers(key)), file=sys.stdout)
