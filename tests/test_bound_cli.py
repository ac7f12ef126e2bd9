"""The command line around lower bounds: `certify verify` on either kind, `certify verify S --optimal
B`, `certify stats S --bound B`. The command lines run in this process (conftest.run_here: the same
main, arguments, output and exit code, without an interpreter's start each); the process itself
is tested by test_cli_errors and test_foundation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_here

ROOT = Path(__file__).resolve().parent.parent
CERTS = ROOT / "certificates"
BOUNDS = ROOT / "tests" / "data" / "bounds"
WORST_4X6 = CERTS / "bounds" / "worst-case-4x6.json"


def certify(*args, cwd=None):
    return run_here(*args, cwd=cwd)


def test_verify_says_what_a_lower_bound_proves():
    proc = certify("verify", WORST_4X6)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"{WORST_4X6}: valid lower bound: every strategy for 4x6 needs >= 5 guesses for some secret\n"
    total = BOUNDS / "valid" / "total-2x6.json"
    proc = certify("verify", total)
    assert proc.returncode == 0
    assert "every strategy for 2x6 needs >= 132 guesses in total (mean 3.6667) over the 36 secrets" in proc.stdout
    within = BOUNDS / "valid" / "total-3x3-max4.json"
    assert "every strategy for 3x3 within 4 guesses needs >= 73 guesses in total" in certify("verify", within).stdout


def test_verify_takes_both_kinds_in_one_run_and_the_worst_status_wins(tmp_path):
    strategy, bound = CERTS / "knuth-4x6.json", CERTS / "bounds" / "worst-case-4x7.json.gz"
    proc = certify("verify", strategy, bound)
    assert proc.returncode == 0 and proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(f"{strategy}: valid: 1296 secrets of 4x6")
    assert lines[1] == f"{bound}: valid lower bound: every strategy for 4x7 needs >= 6 guesses for some secret"
    bad = BOUNDS / "invalid" / "child-set-wrong.json"
    proc = certify("verify", strategy, bad)
    assert proc.returncode == 1 and f"{bad}: invalid: node 0 (bound 4) at root: guess 002" in proc.stderr
    proc = certify("verify", bad, tmp_path / "missing.json")
    assert proc.returncode == 2 and "unusable: cannot read file" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_verify_json_has_a_kind_for_every_result():
    proc = certify("verify", "--json", CERTS / "knuth-3x3.json", BOUNDS / "valid" / "total-3x3.json",
                   BOUNDS / "invalid" / "perm-not-a-bijection.json")
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)
    assert doc["report_version"] == 1
    kinds = [(r["kind"], r["exit_code"]) for r in doc["results"]]
    assert kinds == [("strategy", 0), ("lower-bound", 0), ("lower-bound", 1)]
    assert doc["results"][1]["claims"] == {"total": 73} and doc["results"][1]["secrets"] == 27
    assert "not a permutation" in doc["results"][2]["error"]


def test_the_kind_is_found_wherever_the_format_field_is(tmp_path):
    # a lower bound whose "format" comes after 70 kB of metadata
    doc = json.loads((BOUNDS / "valid" / "worst-2x2.json").read_text())
    late = tmp_path / "late.json"
    late.write_text(json.dumps({"comment": "x" * 70000, **doc}))
    proc = certify("verify", late)
    assert proc.returncode == 0 and "valid lower bound" in proc.stdout
    # a strategy certificate that mentions the other format early, in its metadata
    cert = json.loads((CERTS / "knuth-3x3.json").read_text())
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps({"about": {"format": "mastermind-lower-bound-certificate"}, **cert}))
    proc = certify("verify", odd)
    assert proc.returncode == 0 and "valid: 27 secrets of 3x3" in proc.stdout


def test_optimal_when_the_strategy_meets_the_bound():
    proc = certify("verify", CERTS / "knuth-4x6.json", "--optimal", WORST_4X6)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "optimal: max 5 guesses = proven minimum 5"
    proc = certify("verify", CERTS / "knuth-4x7.json", "--optimal", CERTS / "bounds" / "worst-case-4x7.json.gz")
    assert proc.returncode == 0 and proc.stdout.splitlines()[-1] == "optimal: max 6 guesses = proven minimum 6"


def test_optimal_total_pairs_a_built_strategy_with_a_total_bound(tmp_path):
    strategy = tmp_path / "knuth-2x6.json"
    assert certify("build", "knuth", "--pegs", 2, "--colors", 6, "-o", strategy).returncode == 0
    proc = certify("verify", strategy, "--optimal", BOUNDS / "valid" / "total-2x6.json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "optimal: total 132 guesses = proven minimum 132"
    proc = certify("verify", CERTS / "knuth-3x3.json", "--optimal", BOUNDS / "valid" / "total-3x3-max4.json")
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[-1] == "gap: total 74 guesses (within 4), proven minimum 73 (gap 1)"


def test_optimal_names_the_gap():
    proc = certify("verify", CERTS / "entropy-4x6.json", "--optimal", WORST_4X6)
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[-1] == "gap: max 6 guesses, proven minimum 5 (gap 1)"
    proc = certify("verify", "--json", CERTS / "entropy-4x6.json", "--optimal", WORST_4X6)
    doc = json.loads(proc.stdout)
    assert proc.returncode == 1 and doc["report_version"] == 1
    assert doc["optimality"]["gap"] == 1 and doc["optimality"]["optimal"] is False
    assert doc["strategy"]["kind"] == "strategy" and doc["bound"]["kind"] == "lower-bound"


@pytest.mark.parametrize("args, status, message", [
    (["knuth-4x6.json", "--optimal", "bounds/worst-case-4x7.json.gz"], 2, "the strategy plays 4x6, the lower bound is for 4x7"),
    (["bounds/worst-case-4x6.json", "--optimal", "knuth-4x6.json"], 2, "is a lower-bound certificate, not a strategy certificate"),
    (["knuth-4x6.json", "--optimal", "knuth-4x6.json"], 2, "is a strategy certificate, not a lower-bound certificate"),
    (["knuth-4x6.json", "knuth-4x7.json", "--optimal", "bounds/worst-case-4x6.json"], 2, "one strategy certificate"),
    (["knuth-4x6.json", "--optimal", "missing.json"], 2, "cannot read file"),
    (["knuth-4x6.json", "--optimal", str(BOUNDS / "invalid" / "inflated-counting-leaf.json")], 1, "is not refuted"),
])
def test_optimal_refuses_what_cannot_be_compared(args, status, message):
    proc = certify("verify", *args, cwd=CERTS)
    assert proc.returncode == status, proc.stderr
    assert message in proc.stderr and "Traceback" not in proc.stderr
    assert "optimal:" not in proc.stdout


def test_optimal_within_max_guesses_refuses_a_strategy_that_needs_more(tmp_path):
    strategy = tmp_path / "last-guess-3x3.json"  # max 6 guesses on 3x3
    assert certify("build", "last-guess", "--pegs", 3, "--colors", 3, "-o", strategy).returncode == 0
    proc = certify("verify", strategy, "--optimal", BOUNDS / "valid" / "total-3x3-max4.json")
    assert proc.returncode == 2
    assert "the strategy needs 6 guesses for some secret; the lower bound is among strategies within 4" in proc.stderr
    proc = certify("verify", strategy, "--optimal", BOUNDS / "valid" / "total-3x3.json")
    assert proc.returncode == 1 and proc.stdout.splitlines()[-1] == "gap: total 94 guesses, proven minimum 73 (gap 21)"


def test_stats_shows_the_proven_bound_beside_the_figures():
    proc = certify("stats", CERTS / "knuth-4x6.json", "--bound", WORST_4X6)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-2] == f"proven lower bound ({WORST_4X6}): every strategy for 4x6 needs >= 5 guesses for some secret"
    assert lines[-1] == "this strategy: optimal: max 5 guesses = proven minimum 5"
    assert any(line.startswith("mean 4.476 guesses (5801/1296), max 5") for line in lines)
    doc = json.loads(certify("stats", "--json", CERTS / "entropy-4x6.json", "--bound", WORST_4X6).stdout)
    assert doc["lower_bound"]["proven_minimum"] == 5 and doc["lower_bound"]["gap"] == 1
    proc = certify("stats", CERTS / "knuth-4x6.json", "--bound", BOUNDS / "invalid" / "same-as-chain.json")
    assert proc.returncode == 1 and "has a same_as entry itself" in proc.stderr and proc.stdout == ""
