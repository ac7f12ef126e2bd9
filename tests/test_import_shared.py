"""`certify import` on every real file of ../shared/data/ (peer-outputs: what the three compiled
peers wrote, with a README naming the program and command of each; external-strats: published
4x6 tables in Irving/Knuth notation). Each file has its expected outcome here: imported, with
the game, the distribution (secrets found in 1, 2, ... guesses) and what the certificate says it
read leniently (strategy.params), or refused with the named defect. A file added there without
an outcome here fails, so does a regression on any of them.

The largest: mastermind_run_stats_knuth-6p7c.json rebuilds Knuth's 6x7 tree (30-45 s CPU, the
suite's costliest test): it takes the same path as the three other knuth run records of the same
peer (3x4, 4x6, 5x8: a run record rebuilt by certify's Knuth and its totals compared), so it is left
out of the default run (ALL_ONLY). ``CERTIFY_IMPORT_SHARED=all`` imports every file, that one too;
its budget (tests/test_import_limits.py: the real 6x7 record is within it, and a 6x7 run goes on to
the build) is tested in every run."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from certify.__main__ import main

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
#: Files about the data, not data.
NOT_DATA = {"README.md"}


def valid(fmt, histogram, game, notes=None):
    """Imported: exit 0, the histogram [found in 1 guess, in 2, ...], the game as the verifier
    writes it, and the params beside format and sha256."""
    return {"format": fmt, "status": 0, "histogram": histogram, "game": game, "notes": notes or {}}


def refused(fmt, status, line):
    """Refused: the exit status and the one line printed after the file's name."""
    return {"format": fmt, "status": status, "line": line}


EXPECTED = {
    # -- published 4x6 tables (external-strats/README.md) -------------------------------------------------
    # Knuth (1977): 1/6/62/533/694, total 5801, once its trivial situations are completed.
    "external-strats/p4c6r-knuth.txt": valid("cpp-text", [1, 6, 62, 533, 694], "4x6",
                                             {"unmarked": 54, "completed": 106}),
    "external-strats/p4c6r-koyama-1.txt": valid("cpp-text", [1, 8, 86, 656, 544, 1], "4x6"),
    "external-strats/p4c6r-koyama-2.txt": valid("cpp-text", [1, 8, 86, 654, 547], "4x6"),
    # Checked by hand: 4551 and 4634 both score (1,1) against 3354. The file is wrong.
    "external-strats/p4c6r-neuwirth.txt": refused(
        "cpp-text", 1, "invalid: secret 4551: the file is wrong at line 28: its (3354) says every answer to "
        "3354 leaves one secret, but answer (1,1) to the guess 3354 after 1123 -(0,1)-> 2445 -(0,2)-> 5266 "
        "-(0,1)-> leaves 2 secrets (4551, 4634)"),
    # A results table of another program (4 digits of 10, no tree): not a strategy.
    "external-strats/Results.txt": refused("cpp-text", 2, ":1: expected a number of secrets, got '=========\\n R'"),
    # -- fancidev's mmstrat (C++) -----------------------------------------------------------------------
    "peer-outputs/fancidev/optimal-3x3.txt": valid("cpp-text", [1, 7, 18, 1], "3x3"),
    "peer-outputs/fancidev/optimal-4x6.txt": valid("cpp-text", [1, 8, 95, 644, 541, 7], "4x6"),
    "peer-outputs/fancidev/optimal-4x7.txt": valid("cpp-text", [1, 8, 89, 724, 1426, 153], "4x7"),
    "peer-outputs/fancidev/optimal-4x8.txt": valid("cpp-text", [1, 6, 82, 742, 2360, 891, 14], "4x8"),
    "peer-outputs/fancidev/optimal-bc.txt": valid("cpp-text", [1, 7, 63, 716, 2404, 1757, 92],
                                                  "4x10 without repetition"),
    "peer-outputs/fancidev/minmax-4x6.txt": valid("cpp-text", [1, 6, 54, 572, 663], "4x6"),
    "peer-outputs/fancidev/parts-4x6.txt": valid("cpp-text", [1, 12, 72, 635, 569, 7], "4x6"),
    "peer-outputs/fancidev/minmax-5x8.txt": valid("cpp-text", [1, 4, 55, 1231, 12607, 17814, 1056], "5x8"),
    "peer-outputs/fancidev/minavg-5x8.txt": valid("cpp-text", [1, 8, 105, 1477, 13804, 16584, 789], "5x8"),
    "peer-outputs/fancidev/entropy-5x8.txt": valid("cpp-text", [1, 10, 132, 1735, 13903, 15985, 1001, 1], "5x8"),
    "peer-outputs/fancidev/parts-5x8.txt": valid("cpp-text", [1, 14, 163, 1424, 12882, 16787, 1488, 9], "5x8"),
    # -- arfst23's mastermind.c: its current writer echoes the guess in the XXXX column -----------------
    "peer-outputs/arfst23/solution-4-6-5": valid("c-punchcard", [1, 8, 83, 660, 544], "4x6", {"echoes": 46}),
    "peer-outputs/arfst23/solution-4-6-6": valid("c-punchcard", [1, 8, 83, 663, 539, 2], "4x6", {"echoes": 43}),
    "peer-outputs/arfst23/solution-unique-4-6-6": valid("c-punchcard", [1, 6, 68, 196, 89],
                                                        "4x6 without repetition"),
    # -- mikemag's CUDA project: strategy dumps and run records -----------------------------------------
    "peer-outputs/mikemag/mastermind_strategy_knuth_3p4c.gv": valid("cuda-dot", [1, 4, 36, 23], "3x4",
                                                                    {"algorithm": "knuth"}),
    "peer-outputs/mikemag/mastermind_strategy_knuth_4p6c.gv": valid("cuda-dot", [1, 6, 62, 533, 694], "4x6",
                                                                    {"algorithm": "knuth"}),
    "peer-outputs/mikemag/mastermind_strategy_most_parts_4p6c.gv": valid(
        "cuda-dot", [1, 12, 72, 635, 569, 7], "4x6", {"algorithm": "most_parts"}),
    "peer-outputs/mikemag/mastermind_strategy_expected_size_5p8c.gv.gz": valid(
        "cuda-dot", [1, 11, 111, 1331, 14057, 16550, 707], "5x8", {"algorithm": "expected_size"}),
    "peer-outputs/mikemag/mastermind_run_stats_knuth-3p4c.json": valid("cuda-json", [1, 4, 36, 23], "3x4",
                                                                       {"first": "001"}),
    "peer-outputs/mikemag/mastermind_run_stats_knuth-4p6c.json": valid("cuda-json", [1, 6, 62, 533, 694], "4x6",
                                                                       {"first": "0011"}),
    "peer-outputs/mikemag/mastermind_run_stats_mostparts-4p6c.json": valid(
        "cuda-json", [1, 12, 72, 635, 569, 7], "4x6", {"first": "0012"}),
    "peer-outputs/mikemag/mastermind_run_stats_knuth-5p8c.json": valid(
        "cuda-json", [1, 9, 98, 1258, 11373, 18638, 1391], "5x8", {"first": "00112"}),
    "peer-outputs/mikemag/mastermind_run_stats_mostparts-5p8c.json": valid(
        "cuda-json", [1, 14, 163, 1424, 12882, 16787, 1488, 9], "5x8", {"first": "00112"}),
    "peer-outputs/mikemag/mastermind_run_stats_knuth-6p7c.json": valid(
        "cuda-json", [1, 5, 117, 3520, 36409, 67292, 10299, 6], "6x7", {"first": "001123"}),
    # The program ranks in single-precision floats: its runs are not certify's exact rule (its own
    # expected-size tree imports through the .gv dump above).
    "peer-outputs/mikemag/mastermind_run_stats_expsize-5p8c.json": refused(
        "cuda-json", 1, "invalid: run 1 (Expected Size 5p8c): the file claims 180214 guesses in all, "
        "certify's expected-size from 11223 takes 180200"),
    "peer-outputs/mikemag/mastermind_run_stats_entropy-5p8c.json": refused(
        "cuda-json", 1, "invalid: run 1 (Entropy 5p8c): the file claims 179747 guesses in all, "
        "certify's entropy from 11223 takes 179704"),
}


#: Imported only with CERTIFY_IMPORT_SHARED=all (the module's docstring says why).
ALL_ONLY = {"peer-outputs/mikemag/mastermind_run_stats_knuth-6p7c.json"}
IMPORTED = sorted(EXPECTED) if os.environ.get("CERTIFY_IMPORT_SHARED") == "all" else sorted(set(EXPECTED) - ALL_ONLY)


def test_the_default_run_keeps_every_format_and_outcome():
    """What ALL_ONLY leaves out is covered by what stays: every (format, outcome) pair, and for each
    file left out a file of its format and rule (its notes' algorithm or first guess's length aside)."""
    assert ALL_ONLY <= set(EXPECTED)
    def shape(name):
        return EXPECTED[name]["format"], EXPECTED[name]["status"]
    assert {shape(n) for n in IMPORTED} == {shape(n) for n in EXPECTED}
    for name in ALL_ONLY:
        rule = name.rsplit("_", 1)[-1].split("-")[0]  # (knuth)
        assert any(shape(n) == shape(name) and f"_{rule}-" in n for n in set(IMPORTED) - ALL_ONLY), name


def shared_files() -> set[str]:
    return {p.relative_to(SHARED).as_posix() for p in SHARED.rglob("*")
            if p.is_file() and p.name not in NOT_DATA}


def test_every_shared_file_has_an_expected_outcome():
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is absent (repo not next to ../shared)")
    files = shared_files()
    assert not files - set(EXPECTED), "files in ../shared/data with no expected outcome here"
    assert not set(EXPECTED) - files, "expected outcomes for files no longer in ../shared/data"


@pytest.mark.parametrize("name", IMPORTED, ids=[n.rsplit("/", 1)[-1] for n in IMPORTED])
def test_each_shared_file_imports_as_expected(capsys, tmp_path, name):
    want = EXPECTED[name]
    path = SHARED / name
    if not path.exists():
        pytest.skip(f"{path} is absent (repo not next to ../shared)")
    out = tmp_path / "out.json"
    fmt = want["format"]
    status = main(["import", fmt, str(path), "-o", str(out)])
    stdout, stderr = capsys.readouterr()
    assert status == want["status"], stderr
    if status:
        prefix = f"certify import: error: {path}" if status == 2 else f"{path}: "
        assert stdout == "" and stderr == f"{prefix}{want['line']}\n" and not out.exists()
        return
    cert = json.loads(out.read_text())
    histogram = want["histogram"]
    total = sum(k * n for k, n in enumerate(histogram, 1))
    assert stdout == (f"{path} ({fmt}) -> {out}: valid: {sum(histogram)} secrets of {want['game']}, "
                      f"max {len(histogram)} guesses, total {total}\n")
    assert cert["claims"]["histogram"] == {str(k): n for k, n in enumerate(histogram, 1) if n}
    params = cert["strategy"]["params"]
    assert {k: v for k, v in params.items() if k not in ("format", "sha256")} == want["notes"]
    from certify import importers

    assert stderr == "".join(f"{path}: note: {line}\n" for line in importers.note_lines(params))
