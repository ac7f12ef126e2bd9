"""Lexicographic objectives: least total within D, then the fewest secrets needing D (the at_max
claim, docs/lower-bound-format.md "Lexicographic claims: at_max"), and least worst case, then least
total (a worst-case proof and a total proof named together).

The search's pairs are compared with the exhaustive oracle of tests/bound_reference.py (its own
minimum over pairs, not the checker's weighted costs); both checkers must accept the proofs and
refuse them once a claim moves by one unit; the CLI writes and checks both objectives.
"""

from __future__ import annotations

import json

import pytest

import bound_reference
from conftest import CERTS, run_here  # certify in this process
from certify import reader, verify_bound
from certify.game import Game
from certify.search import catalog
from certify.search.proof import dumps
from certify.search.total import TotalSearch

BOUNDS = CERTS / "bounds"
#: Committed at_max proofs small enough to be checked several times here.
SMALL = ["total-2x5-max4-count.json", "total-3x3-max4-count.json", "total-3x4-norep-max4-count.json",
         "total-4x4-max4-count.json", "total-4x6-norep-max5-count.json"]


@pytest.mark.parametrize("pegs,colors,repetition,limit", [
    (2, 3, True, 3), (2, 4, True, 4), (2, 5, True, 4), (2, 5, True, 5), (3, 2, True, 3), (3, 3, True, 4),
    (3, 4, False, 4), (2, 6, True, 5)])
def test_search_meets_the_exhaustive_oracle_and_both_checkers(pegs, colors, repetition, limit):
    game = Game(pegs, colors, repetition)
    codes = bound_reference.codes_of(pegs, colors, repetition)
    truth = bound_reference.optimum(pegs, colors, repetition, frozenset(codes), "lex", limit)
    search = TotalSearch(game, limit, at_max=True)
    assert search.pair(search.solve()) == truth
    raw = dumps(search.prove())
    report = verify_bound.check_bytes(raw)
    assert report.valid, report.line()
    assert report.claims == {"total": truth[0], "max_guesses": limit, "at_max": truth[1]}
    ref = bound_reference.check(raw)
    assert ref.valid, ref.reason
    assert bound_reference.true_bounds(ref) == []  # every node's cost is at most its set's optimum
    claims = search.strategy_certificate()["claims"]
    assert (claims["total_guesses"], claims["histogram"].get(str(limit), 0)) == truth
    assert claims["max_guesses"] <= limit


@pytest.mark.parametrize("pegs,colors,repetition,limit", [(3, 3, True, 4), (2, 5, True, 4), (3, 4, False, 4)])
def test_python_top_levels_meet_the_compiled_search(pegs, colors, repetition, limit):
    """The levels searched in Python (top > 0, with the whole stabilizer) count the same costs."""
    game = Game(pegs, colors, repetition)
    compiled = TotalSearch(game, limit, at_max=True)
    python = TotalSearch(game, limit, at_max=True)
    python.top = 2
    assert python.solve() == compiled.solve()
    assert verify_bound.check_bytes(dumps(python.prove())).valid


def test_the_oracle_orders_pairs_not_totals():
    """2x5 within 4: the least total (81) is reached with 12 secrets at 4 by the committed least-total
    strategy, and with 11 at best: the tie-break is real."""
    codes = bound_reference.codes_of(2, 5, True)
    assert bound_reference.optimum(2, 5, True, frozenset(codes), "total", 4) == 81
    assert bound_reference.optimum(2, 5, True, frozenset(codes), "lex", 4) == (81, 11)
    plain = json.loads((CERTS / "optimal-total-2x5-max4.json").read_text())["claims"]["histogram"]
    assert plain["4"] == 12


def _with(doc: dict, total: int, at_max: int) -> bytes:
    """The proof with another claim, the root's cost moved with it."""
    doc = json.loads(json.dumps(doc))
    n = len(bound_reference.codes_of(doc["game"]["pegs"], doc["game"]["colors"], doc["game"]["repetition"]))
    doc["claims"].update(total=total, at_max=at_max)
    doc["nodes"][0]["bound"] = (n + 1) * total + at_max
    return dumps(doc)


@pytest.mark.parametrize("name", SMALL)
def test_claims_moved_by_one_unit_are_refused(name):
    doc = json.loads((BOUNDS / name).read_bytes())
    claims = doc["claims"]
    t, k = claims["total"], claims["at_max"]
    assert verify_bound.check_bytes(_with(doc, t, k)).valid  # (the bytes as committed, rewritten)
    for total, at_max in ((t, k + 1), (t + 1, k), (t + 1, 0)):
        raw = _with(doc, total, at_max)
        report = verify_bound.check_bytes(raw)
        assert not report.valid and "is not refuted" in report.error, (total, at_max)
        assert not bound_reference.check(raw).valid
    if k:  # a weaker claim stays true (and proven)
        assert verify_bound.check_bytes(_with(doc, t, k - 1)).valid
    # the root's cost must be the claim's: one unit more or less is refused before any work
    bumped = json.loads(_with(doc, t, k))
    bumped["nodes"][0]["bound"] += 1
    report = verify_bound.check_bytes(dumps(bumped))
    assert not report.valid and "is not the claimed" in report.error
    # and the committed strategy meets the claim exactly
    strategy = json.loads((CERTS / catalog.strategy_name(name)).read_text())["claims"]
    assert (strategy["total_guesses"], strategy["histogram"].get(str(claims["max_guesses"]), 0)) == (t, k)


def test_4x6_within_5_is_5626_then_540_not_the_published_539():
    """Slovesnov's web page has 539 secrets needing 5 among the 5626 strategies within 5; the
    committed proof says at least 540, and the committed strategy has 540."""
    name = "total-4x6-max5-count.json.gz"
    assert catalog.CATALOG[[e[0] for e in catalog.CATALOG].index(name)][5] == \
        {"max_guesses": 5, "total": 5626, "at_max": 540}
    doc = json.loads(reader.text((BOUNDS / name).read_bytes(), verify_bound.MAX_BYTES))
    raw = _with(doc, 5626, 541)  # one more: refused at the root
    report = verify_bound.check_bytes(raw)
    assert not report.valid and report.error.startswith("node 0 (bound 7297463) at root: guess")
    r = run_here("verify", CERTS / "optimal-total-4x6-max5-count.json", "--optimal", BOUNDS / name)
    assert r.returncode == 0, r.stderr
    assert "optimal: total 5626 guesses, then 540 secrets needing 5 (within 5) = proven minimum 5626, then 540" \
        in r.stdout
    assert "one with exactly 5626 has >= 540 secrets needing 5 guesses" in r.stdout


@pytest.mark.parametrize("claims, message", [
    ({"total": 81, "at_max": 11}, "'at_max' goes only with 'total' and 'max_guesses'"),
    ({"worst_case": 4, "max_guesses": 4, "at_max": 0}, "'max_guesses' goes only with 'total'"),
    ({"total": 81, "max_guesses": 4, "at_max": 26}, "claims.at_max: 26 is more than the game's 25 secrets"),
    ({"total": 81, "max_guesses": 4, "at_max": -1}, "claims.at_max: must be >= 0"),
])
def test_misplaced_at_max_claims_are_refused(claims, message):
    doc = json.loads((BOUNDS / "total-2x5-max4-count.json").read_bytes())
    doc["claims"] = claims
    report = verify_bound.check_bytes(dumps(doc))
    assert not report.valid and message in report.error
    assert not bound_reference.check(dumps(doc)).valid


def test_build_optimal_total_then_max_count(tmp_path):
    out, proof = tmp_path / "s.json", tmp_path / "p.json"
    r = run_here("build", "optimal", "--pegs", 2, "--colors", 5, "--objective", "total,max-count",
                "--max-guesses", 4, "-q", "--proof", proof, "-o", out)
    assert r.returncode == 0, r.stderr
    assert "least total 81 (mean 3.2400), then 11 secrets needing 4 (the fewest)" in r.stdout
    assert json.loads(proof.read_text())["claims"] == {"at_max": 11, "max_guesses": 4, "total": 81}
    assert out.read_bytes() == (CERTS / "optimal-total-2x5-max4-count.json").read_bytes()
    v = run_here("verify", out, "--optimal", proof)
    assert v.returncode == 0
    assert v.stdout.splitlines()[-1] == \
        "optimal: total 81 guesses, then 11 secrets needing 4 (within 4) = proven minimum 81, then 11"
    # the least-total strategy within 4 has one secret more at 4: a gap in the second key
    v = run_here("verify", CERTS / "optimal-total-2x5-max4.json", "--optimal", proof, "--json")
    assert v.returncode == 1
    got = json.loads(v.stdout)["optimality"]
    assert not got["optimal"] and got["gap"] == 0 and got["at_max"] == \
        {"guesses": 4, "achieved": 12, "proven_minimum": 11, "gap": 1}
    assert got["text"].endswith("proven minimum 81, then 11 (gap 0, then 1)")


def test_build_optimal_worst_then_total(tmp_path):
    out, proof, worst = tmp_path / "s.json", tmp_path / "t.json", tmp_path / "w.json"
    r = run_here("build", "optimal", "--pegs", 3, "--colors", 3, "--objective", "worst,total", "-q",
                "--proof", proof, "--worst-proof", worst, "-o", out, "--json")
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert list(summary)[0] == "build_version"
    assert summary["objective"] == "worst,total" and summary["least_worst_case"] == 4
    assert json.loads(worst.read_text())["claims"] == {"worst_case": 4}
    assert json.loads(proof.read_text())["claims"] == {"max_guesses": 4, "total": 73}
    v = run_here("verify", out, "--optimal", worst, "--optimal", proof)
    assert v.returncode == 0, v.stderr
    assert v.stdout.splitlines()[-1] == \
        "optimal: max 4 guesses = proven minimum 4, then total 73 guesses (within 4) = proven minimum 73"
    # either order; a total bound over all strategies covers those within 4
    v = run_here("verify", CERTS / "optimal-total-3x3.json", "--optimal", BOUNDS / "total-3x3.json",
                "--optimal", BOUNDS / "worst-case-3x3.json")
    assert v.returncode == 0 and v.stdout.splitlines()[-1].startswith("optimal: max 4 guesses")


def test_worst_then_total_gaps_and_mistakes(tmp_path):
    knuth = CERTS / "knuth-3x3.json"
    worst, total = BOUNDS / "worst-case-3x3.json", BOUNDS / "total-3x3.json"
    v = run_here("verify", knuth, "--optimal", worst, "--optimal", total)
    have = json.loads((CERTS / "knuth-3x3.json").read_text())["claims"]
    assert have["max_guesses"] == 4 and have["total_guesses"] > 73
    assert v.returncode == 1
    assert v.stdout.splitlines()[-1] == (f"gap: max 4 guesses = proven minimum 4, then total "
                                         f"{have['total_guesses']} guesses, proven minimum 73 "
                                         f"(gap {have['total_guesses'] - 73})")
    for bounds, message in (([total, total], "one worst-case bound and one total bound"),
                            ([worst, total, worst], "one lower bound, or two"),
                            ([worst, BOUNDS / "total-2x5-max4.json"], "the strategy plays 3x3")):
        args = [a for b in bounds for a in ("--optimal", b)]
        r = run_here("verify", knuth, *args)
        assert r.returncode == 2 and message in r.stderr and r.stderr.count("\n") == 1, r.stderr


@pytest.mark.parametrize("extra, message", [
    (["--objective", "total,max-count"], "give --max-guesses D"),
    (["--objective", "worst,total", "--max-guesses", "4"], "drop --max-guesses"),
    (["--worst-proof", "w.json"], "--worst-proof goes with --objective worst,total"),
    (["--objective", "max-count,total", "--workers", "2"], "give --max-guesses D"),
    (["--objective", "least"], "invalid choice"),
])
def test_objective_mistakes_are_one_line(tmp_path, extra, message):
    r = run_here("build", "optimal", "--pegs", 3, "--colors", 3, *extra, "-o", tmp_path / "s.json")
    assert r.returncode == 2 and message in r.stderr and r.stderr.count("\n") == 1, r.stderr
    assert not (tmp_path / "s.json").exists()
    r = run_here("build", "knuth", "--objective", "worst,total", "-o", tmp_path / "s.json")
    assert r.returncode == 2 and "goes with 'build optimal'" in r.stderr
