"""Smaller fixes of issue 14: build's summary as k:count pairs, compare's --max-columns, --csv,
--sort and --plot, and the Langer reference wherever it is cited."""

from __future__ import annotations

import csv
import functools
import io
import json
import re
from pathlib import Path

import pytest

from conftest import run_here

ROOT = Path(__file__).resolve().parent.parent
CERTS = ROOT / "certificates"
LANGER = "Bernard Langer, Mastermind : des preuves par ordinateur, Bulletin de l'APMEP n° 503 (2013)"


def certify(*args):
    """`certify ARGS` in this process (conftest.run_here: no interpreter start for each of the calls)."""
    return run_here(*args)


def test_build_summary_pairs_line_up_with_the_claims(tmp_path):
    out = tmp_path / "lg.json"
    run = certify("build", "last-guess", "-q", "-o", out)
    assert run.returncode == 0, run.stderr
    claims = json.loads(out.read_text())["claims"]
    assert len(claims["histogram"]) < claims["max_guesses"]  # some counts are zero
    line = next(x for x in run.stdout.splitlines() if x.startswith("distribution"))
    pairs = dict(p.split(":") for p in line.split(": ", 1)[1].split())
    assert pairs == {k: str(v) for k, v in claims["histogram"].items()}


FILES = sorted(str(p) for p in CERTS.glob("*4x6*.json"))


@functools.lru_cache(maxsize=None)
def _rows_json(args: tuple) -> str:
    return certify("compare", *FILES, *args, "--json").stdout


def rows_json(*args):
    """compare's JSON rows for the 4x6 certificates; each run (verifying every file again, ~0.7 s of
    CPU) once per test process: the unsorted rows were run by five tests."""
    return json.loads(_rows_json(args))["rows"]


@pytest.mark.parametrize("key", ["mean", "max", "total", "strategy"])
def test_compare_sort(key):
    rows = rows_json("--sort", key)
    given = rows_json()
    assert sorted(r["file"] for r in rows) == sorted(r["file"] for r in given)
    value = {"mean": lambda r: r["total_guesses"] / r["secrets"], "max": lambda r: (r["max_guesses"], r["mean"]),
             "total": lambda r: r["total_guesses"], "strategy": lambda r: r["strategy"]["name"]}[key]
    assert [value(r) for r in rows] == sorted(value(r) for r in given)


def test_compare_max_columns_and_csv():
    rows = rows_json()
    top = max(r["max_guesses"] for r in rows)
    text = certify("compare", *FILES, "--max-columns", 5).stdout.splitlines()
    head = text[1].split()
    assert head[6:] == ["1", "2", "3", "4", "5"]
    for line, r in zip(text[2:], rows):
        cells = line.split()
        assert cells[-1] == "..." if r["max_guesses"] > 5 else cells[-1] == str(r["cumulative"][-1])
    assert f"columns 1..5 of {top}" in text[0]
    table = list(csv.DictReader(io.StringIO(certify("compare", *FILES, "--csv").stdout)))
    assert [t["file"] for t in table] == [r["file"] for r in rows]
    for t, r in zip(table, rows):
        cum = [int(t[f"within_{k}"]) for k in range(1, top + 1)]
        assert cum[:r["max_guesses"]] == r["cumulative"] and set(cum[r["max_guesses"]:]) <= {r["secrets"]}
        assert int(t["total"]) == r["total_guesses"]
    run = certify("compare", *FILES, "--csv", "--json")
    assert run.returncode == 2 and "not both" in run.stderr


def test_compare_plot(tmp_path):
    out = tmp_path / "curves.png"
    run = certify("compare", *FILES[:3], "--plot", out)
    assert run.returncode == 0, run.stderr
    png = out.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    svg = tmp_path / "curves.svg"
    certify("compare", *FILES[:3], "--plot", svg)
    text = svg.read_text()
    names = [json.loads(Path(f).read_text())["strategy"]["name"] for f in FILES[:3]]
    assert all(name in text for name in names)  # one labelled curve per certificate
    bad = certify("compare", *FILES[:1], "--plot", tmp_path / "x.gif")
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1


def test_langer_is_cited_by_his_paper_everywhere():
    pattern = re.compile(r"Langer")
    files = [p for p in list((ROOT / "certify").rglob("*.py")) + list(CERTS.glob("*.json")) + [ROOT / "README.md"]
             + sorted((ROOT / "docs").glob("*.md"))]
    cited = 0
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if pattern.search(line):
                cited += 1
                assert LANGER in line, f"{path.name}: {line.strip()[:120]}"
    assert cited >= 5
    listed = json.loads(certify("strategies", "--json").stdout)["strategies"]
    assert sum(LANGER in s["reference"] for s in listed) == 3
