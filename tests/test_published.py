"""The published 4x6 figures, read from the reference file, are the oracle.

Each strategy is built, its certificate checked by the independent verifier, and the
verifier's replay compared with the reference table: the whole distribution where one is
published, otherwise max and mean to the published precision.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from certify import verify
from certify.certificate import dumps, make_certificate
from certify.game import Game
from certify.strategies import get_strategy

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "reference" / "strategies.md"
VENDORED = Path(__file__).resolve().parent / "data" / "strategies.md"
REFERENCE = SHARED if SHARED.exists() else VENDORED

SECTION = "## Published figures for 4 pegs, 6 colours"
ROW_ID = re.compile(r"`([a-z-]+)`(?:\s*\(first (\w+)\))?")
DISTRIBUTION = re.compile(r"\d+(?:\s*,\s*\d+)*")


def published(text: str) -> dict[str, dict]:
    """{strategy id: {"first", "distribution" (or None), "max", "mean" (text)}} from the table."""
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        m = ROW_ID.fullmatch(cells[0])
        assert m, f"unreadable strategy cell {cells[0]!r} in {REFERENCE}"
        dist = cells[1]
        rows[m.group(1)] = {
            "first": m.group(2),
            "distribution": [int(x) for x in dist.split(",")] if DISTRIBUTION.fullmatch(dist) else None,
            "max": int(cells[3]),
            "mean": cells[4],
        }
    return rows


FIGURES = published(REFERENCE.read_text(encoding="utf-8"))


def test_reference_table_read_completely():
    # Guards against a parser that silently drops rows (the tests below would then not run).
    assert set(FIGURES) == {"knuth", "minimax-lowest", "minimax-candidates", "consistent-first",
                            "last-guess", "greenwell"}
    for sid in ("knuth", "minimax-lowest", "consistent-first", "greenwell"):
        assert FIGURES[sid]["distribution"], sid
    assert FIGURES["last-guess"]["first"] == "0011"


def test_vendored_reference_is_the_shared_one():
    if not SHARED.exists():
        pytest.skip(f"{SHARED} is absent (repo not next to ../shared); the vendored copy is used")
    assert VENDORED.read_bytes() == SHARED.read_bytes(), "tests/data/strategies.md is out of date"


@pytest.mark.parametrize("sid", sorted(FIGURES))
def test_published_figures(sid):
    row = FIGURES[sid]
    strategy = get_strategy(sid)(Game(4, 6), first=row["first"])
    report = verify.verify_bytes(dumps(make_certificate(strategy)), f"{sid}-4x6")
    assert report.valid, report.error
    stats = report.replayed
    assert stats["secrets"] == 1296
    if row["distribution"]:
        hist = [stats["histogram"].get(str(k), 0) for k in range(1, stats["max_guesses"] + 1)]
        assert hist == row["distribution"]
    assert stats["max_guesses"] == row["max"]
    decimals = len(row["mean"].split(".")[1]) if "." in row["mean"] else 0
    assert f"{stats['total_guesses'] / stats['secrets']:.{decimals}f}" == row["mean"]
    if row["first"]:
        assert report.strategy["params"]["first"] == row["first"]
