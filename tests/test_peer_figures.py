"""Every compiled peer's figure the speed page (docs/speed.md, once the README's Speed section)
prints, and every ratio beside it, agrees with the vendored reference table (tests/data/strategies.md,
kept equal to the shared one by test_published.py): a re-measured peer table that the page does not
follow fails here."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import peers  # noqa: E402  (bench/peers.py: the benchmark reads its targets from the same table)

README_ROWS = {  # README's first cell -> bench/peers.py workload
    "optimal 4x6 with its proof (5625)": "optimal 4x6",
    "optimal 4x6 within 5 (5626)": "optimal 4x6 max 5",
    "optimal 4x7 (11228)": "optimal 4x7",
    "optimal Bulls and Cows (26274)": "optimal bulls and cows",
    "most-parts 5x8": "most-parts 5x8",
    "knuth (minimax) 5x8": "knuth 5x8",
    "expected-size 5x8": "expected-size 5x8",
    "entropy 5x8": "entropy 5x8",
    "knuth (minimax) 6x7": "knuth 6x7",
}


HEADER = "| workload | ours | fastest compiled peer | ours / peer |"


def readme_tables() -> list[dict[str, list[str]]]:
    """Every table of docs/speed.md that starts with HEADER (the peers' day's, and today's with more
    columns)."""
    text = (ROOT / "docs" / "speed.md").read_text()
    tables, at = [], text.find(HEADER)
    while at >= 0:
        rows = {}
        for line in text[at:].splitlines()[2:]:
            if not line.startswith("|"):
                break
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0]] = cells[1:]
        tables.append(rows)
        at = text.find(HEADER, at + 1)
    return tables


def readme_rows() -> dict[str, list[str]]:
    return readme_tables()[0]


def seconds(cell: str) -> list[float]:
    """"31-33 s" -> [31, 33]; "0.86 s" -> [0.86]."""
    m = re.fullmatch(r"([\d.]+)(?:-([\d.]+))? s", cell)
    assert m, cell
    return [float(x) for x in m.groups() if x]


def test_the_reference_table_parses_with_every_workload():
    table = peers.table()
    for workload, row in peers.WORKLOADS.items():
        assert row in table, workload
        assert all(s > 0 for _, s in table[row])
    assert peers.fastest("optimal 4x6")[0] == "C++ fancidev"


def test_a_retimed_reference_changes_the_parsed_figure():
    text = peers.REFERENCE.read_text().replace("| C++ (fancidev) | 14.2 |", "| C++ (fancidev) | 7.1 |")
    assert peers.fastest("optimal 4x7", text) == ("C++ fancidev", 7.1)


def test_readme_lists_every_workload():
    assert len(readme_tables()) == 2
    for rows in readme_tables():
        assert set(rows) == set(README_ROWS)


@pytest.mark.parametrize("table", [0, 1])
@pytest.mark.parametrize("label", sorted(README_ROWS))
def test_readme_peer_figures_and_ratios_follow_the_reference(label, table):
    ours_cell, peer_cell, ratio_cell = readme_tables()[table][label][:3]
    known = peers.peers(README_ROWS[label])
    printed = re.findall(r"([\d.]+) s \(([^)]+)\)", peer_cell)
    # The fastest peer is printed, and every printed figure is the reference's for that peer.
    assert printed and float(printed[0][0]) == known[0][1]
    reference = {name: s for name, s in known}
    for value, name in printed:
        assert reference[name] == float(value), (label, name)
    # Each printed ratio is ours / that peer, rounded as printed, for each end of our range.
    ours = seconds(ours_cell)
    for (value, _), ratio in zip(printed, ratio_cell.split(" / ")):
        expected = [x / float(value) for x in ours]
        parts = [float(r) for r in ratio.split("-")]
        tol = 0.5 * 10 ** -len(ratio.split("-")[0].partition(".")[2]) + 1e-9
        if len(parts) == 1:  # one ratio for a range of ours: it lies within the range's ratios
            assert min(expected) - tol <= parts[0] <= max(expected) + tol, (label, parts, expected)
        else:
            assert len(parts) == len(expected), label
            for got, want in zip(parts, expected):
                assert abs(got - want) <= tol, (label, got, want)
