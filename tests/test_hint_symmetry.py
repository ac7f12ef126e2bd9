"""`certify hint --table --up-to-symmetry`: one row per class of alike codes, with its size.

The oracle: every permutation of the pegs and of the colours of 4x6 (24 x 720), applied with
numpy to the verifier's own enumeration of the codes; a class is an orbit of the permutations
that map the candidates (found with the verifier's feedback rule) onto themselves.
"""

from __future__ import annotations

import csv
import io
import itertools
import json

import numpy as np
import pytest

from conftest import run_here

from certify import verify
from certify.__main__ import main

CODES = verify.codes(4, 6, True)
DIGITS = np.array([[int(ch) for ch in code] for code in CODES])
INDEX = {code: i for i, code in enumerate(CODES)}


def certify(*args):
    """`certify ARGS` in this process (conftest.run_here: no interpreter start for each of the calls)."""
    return run_here(*args)


def table(capsys, *args) -> dict:
    assert main(["hint", *args, "--table", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def candidates_of(rows) -> np.ndarray:
    mask = np.ones(len(CODES), dtype=bool)
    for guess, (b, w) in rows:
        mask &= np.array([verify.feedback(guess, s) == (b, w) for s in CODES])
    return mask


def orbits(mask: np.ndarray) -> tuple[np.ndarray, int]:
    """(lowest code of each code's orbit, stabilizer size) under the permutations (pegs, colours)
    that map the candidates ``mask`` onto themselves, all 17,280 of them tried."""
    low = np.arange(len(CODES))
    kept = 0
    for pegs in itertools.permutations(range(4)):
        moved = DIGITS[:, list(pegs)]
        for colours in itertools.permutations(range(6)):
            image = np.array(colours)[moved] @ np.array([216, 36, 6, 1])  # base 6: the code's index
            if mask[image[mask]].all():
                kept += 1
                low = np.minimum(low, image)
    # The permutations kept form a group, so one pass gives every code its orbit's lowest code.
    return low, kept


def test_opening_is_knuths_five_classes(capsys):
    doc = table(capsys, "--up-to-symmetry")
    rows = {r["code"]: r["codes"] for r in doc["rows"]}
    assert list(rows) == ["0000", "0001", "0011", "0012", "0123"]
    assert sum(rows.values()) == 1296 == doc["codes"] and doc["classes"] == 5
    low, kept = orbits(np.ones(len(CODES), dtype=bool))
    assert kept == 24 * 720
    sizes = np.bincount(low, minlength=len(CODES))
    assert rows == {CODES[r]: int(sizes[r]) for r in np.flatnonzero(sizes)}
    assert rows == {"0000": 6, "0001": 120, "0011": 90, "0012": 720, "0123": 360}
    # Each class's row is its lowest code's row in the whole table.
    full = {r["code"]: r for r in table(capsys)["rows"]}
    for r in doc["rows"]:
        assert {k: r[k] for k in ("classes", "weight", "least", "candidate")} == \
            {k: full[r["code"]][k] for k in ("classes", "weight", "least", "candidate")}


@pytest.mark.parametrize("rows", [[("0011", (2, 0))], [("0123", (0, 2)), ("1045", (1, 1))]])
def test_classes_after_rows_are_the_candidates_orbits(capsys, rows):
    clues = [f"{g}={b},{w}" for g, (b, w) in rows]
    doc = table(capsys, *clues, "--up-to-symmetry")
    mask = candidates_of(rows)
    assert doc["candidates"] == int(mask.sum())
    low, kept = orbits(mask)
    assert kept > 1  # a case with symmetries to find
    sizes = np.bincount(low, minlength=len(CODES))
    assert {r["code"]: r["codes"] for r in doc["rows"]} == {CODES[r]: int(sizes[r]) for r in np.flatnonzero(sizes)}
    # Alike codes have identical rows: every code of an orbit, in the table of all codes.
    full = table(capsys, *clues)["rows"]
    assert len(full) == 1296
    grouped = {r["code"]: r for r in doc["rows"]}
    for r in full:
        rep = grouped[CODES[low[INDEX[r["code"]]]]]
        assert (r["classes"], r["weight"], r["least"], r["candidate"]) == \
            (rep["classes"], rep["weight"], rep["least"], rep["candidate"])
    # Candidates only: the classes of the candidates, which hold candidates only.
    only = table(capsys, *clues, "--up-to-symmetry", "--candidates-only")
    assert all(r["candidate"] for r in only["rows"])
    assert sum(r["codes"] for r in only["rows"]) == doc["candidates"]
    assert {r["code"]: r["codes"] for r in only["rows"]} == \
        {c: n for c, n in ((r["code"], r["codes"]) for r in doc["rows"]) if mask[INDEX[c]]}


def test_text_and_csv_show_the_count_and_the_tie_rule():
    run = certify("hint", "0011=1,1", "--table", "--up-to-symmetry", "--sort", "weight", "--csv")
    assert run.returncode == 0, run.stderr
    rows = list(csv.DictReader(io.StringIO(run.stdout)))
    assert list(rows[0])[:2] == ["code", "codes"]
    weights = [(int(r["weight"]), r["candidate"] == "0", r["code"]) for r in rows]
    assert weights == sorted(weights)  # least weight, then candidates, then the lowest code
    run = certify("hint", "--pegs", 3, "--colors", 3, "--table", "--up-to-symmetry", "--sort", "weight")
    lines = run.stdout.splitlines()
    assert "ties: candidates first, then the lowest code" in lines[0]
    assert "classes of 27 codes shown" in lines[0]
    assert lines[3].split()[:2] == ["code", "codes"]
    assert sum(int(line.split()[1]) for line in lines[4:]) == 27
    assert "ties broken by candidates first, then the lowest code" in " ".join(
        certify("hint", "--help").stdout.split())


def test_mistakes_are_one_line():
    for args, message in [(["--up-to-symmetry"], "--up-to-symmetry goes with --table"),
                          (["--table", "--up-to-symmetry", "--pegs", 6, "--colors", 6], "5x9 and 6x5 fit")]:
        run = certify("hint", *args)
        assert run.returncode == 2 and message in run.stderr, run.stderr
        assert len(run.stderr.splitlines()) == 1
