"""Issue 16: ``certify build optimal`` writes a strategy of least total and, with --proof, the
lower-bound proof of that total; the independent checkers accept both and ``verify --optimal``
says optimal. The figures come from the plain brute force of test_search_plain, not from the
search under test."""

from __future__ import annotations

import json

import pytest

from conftest import run_here  # certify in this process
from test_search_plain import plain_optima


@pytest.mark.parametrize("pegs,colors,repetition", [(3, 3, True), (2, 4, True), (3, 4, False)])
def test_optimal_strategy_and_proof_match_brute_force(tmp_path, pegs, colors, repetition):
    worst, total, _ = plain_optima(pegs, colors, repetition)
    game = ["--pegs", pegs, "--colors", colors] + ([] if repetition else ["--no-repetition"])
    out, proof = tmp_path / "s.json", tmp_path / "p.json"
    r = run_here("build", "optimal", *game, "-q", "--proof", proof, "-o", out)
    assert r.returncode == 0, r.stderr
    assert f"least total {total}" in r.stdout
    assert json.loads(out.read_text())["claims"]["total_guesses"] == total
    assert json.loads(proof.read_text())["claims"] == {"total": total}
    v = run_here("verify", out, "--optimal", proof)
    assert v.returncode == 0, v.stdout + v.stderr
    assert f"optimal: total {total} guesses = proven minimum {total}" in v.stdout


def test_within_the_least_worst_case_and_byte_identical_reruns(tmp_path):
    worst, _, within = plain_optima(3, 3, True, 4)
    assert worst == 4
    files = []
    for i in range(2):
        out, proof = tmp_path / f"s{i}.json", tmp_path / f"p{i}.json"
        r = run_here("build", "optimal", "--pegs", 3, "--colors", 3, "--max-guesses", 4, "-q",
                    "--proof", proof, "-o", out, "--json")
        assert r.returncode == 0, r.stderr
        summary = json.loads(r.stdout)
        assert list(summary)[0] == "build_version"
        assert summary["feasible"] and summary["claims"]["total_guesses"] == within
        assert summary["claims"]["max_guesses"] <= 4
        assert summary["proof_claims"] == {"max_guesses": 4, "total": within}
        files.append((out.read_bytes(), proof.read_bytes()))
    assert files[0] == files[1]
    assert run_here("verify", tmp_path / "s0.json", "--optimal", tmp_path / "p0.json").returncode == 0


def test_no_strategy_within_too_few_guesses_comes_with_the_worst_case_proof(tmp_path):
    out, proof = tmp_path / "s.json", tmp_path / "p.json"
    r = run_here("build", "optimal", "--pegs", 3, "--colors", 3, "--max-guesses", 3, "-q",
                "--proof", proof, "-o", out)
    assert r.returncode == 1
    assert "no strategy for 3x3 settles every secret within 3 guesses" in r.stdout
    assert "every strategy needs 4" in r.stdout
    assert not out.exists()
    assert json.loads(proof.read_text())["claims"] == {"worst_case": 4}
    v = run_here("verify", proof)
    assert v.returncode == 0 and "needs >= 4 guesses for some secret" in v.stdout


@pytest.mark.parametrize("extra, message", [
    (["--first", "012"], "does not take --first"),
    (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "not both"),
    (["--proof", "-"], "--proof needs a file"),
])
def test_options_that_do_not_apply_are_refused(tmp_path, extra, message):
    r = run_here("build", "optimal", "--pegs", 2, "--colors", 2, *extra, "-o", tmp_path / "s.json")
    assert r.returncode == 2 and message in r.stderr and r.stderr.count("\n") == 1
    assert not (tmp_path / "s.json").exists()


def test_proof_over_the_strategy_is_refused_and_heuristics_refuse_proof_options(tmp_path):
    out = tmp_path / "s.json"
    r = run_here("build", "optimal", "--pegs", 2, "--colors", 2, "--proof", out, "-o", out)
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    for option in (["--proof", tmp_path / "p.json"], ["--max-guesses", "5"]):
        r = run_here("build", "knuth", *option, "-o", out)
        assert r.returncode == 2 and "goes with 'build optimal'" in r.stderr
    assert not out.exists()


def test_bound_refuses_the_strategy_over_the_proof(tmp_path):
    out = tmp_path / "p.json"
    r = run_here("bound", "--pegs", 2, "--colors", 2, "--total", "--strategy-out", out, "-o", out)
    assert r.returncode == 2 and "twice" in r.stderr and r.stderr.count("\n") == 1
    assert not out.exists()


def test_verify_optimal_honours_max_guesses():
    """--max-guesses with --optimal applies to the strategy (it was ignored: 'optimal', exit 0)."""
    from conftest import CERTS

    strategy, bound = CERTS / "optimal-total-3x3.json", CERTS / "bounds" / "total-3x3.json"
    most = json.loads(strategy.read_text())["claims"]["max_guesses"]
    r = run_here("verify", strategy, "--optimal", bound, "--max-guesses", most - 1)
    assert r.returncode == 1 and "optimal" not in r.stdout
    assert f"more than --max-guesses {most - 1}" in r.stderr
    r = run_here("verify", strategy, "--optimal", bound, "--max-guesses", most)
    assert r.returncode == 0 and "optimal: total" in r.stdout


@pytest.mark.parametrize("strategy", ["knuth", "optimal"])
def test_json_and_the_certificate_on_stdout_are_refused(strategy):
    r = run_here("build", strategy, "--pegs", 2, "--colors", 2, "-o", "-", "--json")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "--json and -o - both want standard output" in r.stderr
