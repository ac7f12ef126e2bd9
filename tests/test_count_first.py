"""The fewest secrets needing D first, then the least total (claim "first": "at_max",
docs/lower-bound-format.md "Lexicographic claims: at_max"; ``--objective max-count,total``).

The search's pairs are compared with the exhaustive oracle of tests/bound_reference.py (its own
recursion over (count, total) pairs, not the checker's weighted costs); both checkers must accept
the proofs and refuse them once a claim moves by one unit; 4x6 within 5 settles the published 539.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import bound_reference
from conftest import CERTS, run_here  # certify in this process
from certify import reader, verify_bound
from certify.game import Game
from certify.search import catalog
from certify.search.proof import dumps
from certify.search.total import TotalSearch

BOUNDS = CERTS / "bounds"
SMALL = ["total-2x5-max4-count-first.json", "total-3x3-max4-count-first.json",
         "total-3x4-norep-max4-count-first.json", "total-4x4-max4-count-first.json",
         "total-4x6-norep-max5-count-first.json"]


@pytest.mark.parametrize("pegs,colors,repetition,limit", [
    (2, 3, True, 3), (2, 4, True, 4), (2, 5, True, 4), (2, 5, True, 5), (3, 2, True, 3), (3, 3, True, 4),
    (3, 4, False, 5), (3, 4, False, 4), (2, 6, True, 5), (2, 7, True, 5)])
def test_search_meets_the_exhaustive_oracle_and_both_checkers(pegs, colors, repetition, limit):
    game = Game(pegs, colors, repetition)
    codes = bound_reference.codes_of(pegs, colors, repetition)
    truth = bound_reference.optimum(pegs, colors, repetition, frozenset(codes), "count", limit)
    search = TotalSearch(game, limit, at_max=True, first="at_max")
    total, count = search.pair(search.solve())
    assert (count, total) == truth
    raw = dumps(search.prove())
    report = verify_bound.check_bytes(raw)
    assert report.valid, report.line()
    assert report.claims == {"total": truth[1], "max_guesses": limit, "at_max": truth[0], "first": "at_max"}
    ref = bound_reference.check(raw)
    assert ref.valid, ref.reason
    assert bound_reference.true_bounds(ref) == []  # every node's cost is at most its set's optimum
    claims = search.strategy_certificate()["claims"]
    assert (claims["histogram"].get(str(limit), 0), claims["total_guesses"]) == truth
    assert claims["max_guesses"] <= limit


#: A set of 3x4 where the two orders part (no whole game the oracle can solve does: there the
#: least total and the fewest at the maximum are reached together): within 4 guesses, least total
#: 76 with 1 secret at the 4th, or no secret at the 4th with 77 in total.
PARTING = ("022 033 101 112 113 121 130 131 133 200 201 203 210 211 220 221 222 230 231 232 233 "
           "300 302 303 310 312 330 332").split()


def test_the_orders_part_on_a_set_and_the_search_follows_each():
    lex = bound_reference.optimum(3, 4, True, frozenset(PARTING), "lex", 4)
    count = bound_reference.optimum(3, 4, True, frozenset(PARTING), "count", 4)
    assert (lex, count) == ((76, 1), (0, 77))
    game = Game(3, 4, True)
    for first, pair in (("total", lex), ("at_max", count)):
        search = TotalSearch(game, 4, at_max=True, first=first)
        cands = np.array(sorted(game.parse(c) for c in PARTING), dtype=np.int64)
        value = search.engine.solve(cands, 4, 10 ** 8)
        unit = 4 * 64 + 1 if first == "at_max" else 65
        assert value == unit * pair[0] + pair[1], (first, value)


@pytest.mark.parametrize("pegs,colors,repetition,limit", [(3, 3, True, 4), (2, 6, True, 5), (3, 4, False, 4)])
def test_python_top_levels_meet_the_compiled_search(pegs, colors, repetition, limit):
    game = Game(pegs, colors, repetition)
    compiled = TotalSearch(game, limit, at_max=True, first="at_max")
    python = TotalSearch(game, limit, at_max=True, first="at_max")
    python.top = 2
    assert python.solve() == compiled.solve()
    assert verify_bound.check_bytes(dumps(python.prove())).valid


def _with(doc: dict, total: int, at_max: int) -> bytes:
    """The proof with another claim, the root's cost (n D + 1) K + T moved with it."""
    doc = json.loads(json.dumps(doc))
    n = len(bound_reference.codes_of(doc["game"]["pegs"], doc["game"]["colors"], doc["game"]["repetition"]))
    doc["claims"].update(total=total, at_max=at_max)
    doc["nodes"][0]["bound"] = (n * doc["claims"]["max_guesses"] + 1) * at_max + total
    return dumps(doc)


@pytest.mark.parametrize("name", SMALL)
def test_claims_moved_by_one_unit_are_refused(name):
    doc = json.loads((BOUNDS / name).read_bytes())
    claims = doc["claims"]
    assert claims["first"] == "at_max"
    t, k = claims["total"], claims["at_max"]
    assert verify_bound.check_bytes(_with(doc, t, k)).valid
    for total, at_max in ((t + 1, k), (t, k + 1), (0, k + 1)):
        raw = _with(doc, total, at_max)
        report = verify_bound.check_bytes(raw)
        assert not report.valid and "is not refuted" in report.error, (total, at_max)
        assert not bound_reference.check(raw).valid
    assert verify_bound.check_bytes(_with(doc, t - 1, k)).valid  # weaker claims stay proven
    if k:
        assert verify_bound.check_bytes(_with(doc, t + 5, k - 1)).valid
    # the same bounds read in the other order (no "first") are different costs: refused
    other = json.loads(_with(doc, t, k))
    del other["claims"]["first"]
    report = verify_bound.check_bytes(dumps(other))
    assert not report.valid
    strategy = json.loads((CERTS / catalog.strategy_name(name)).read_text())["claims"]
    assert (strategy["histogram"].get(str(claims["max_guesses"]), 0), strategy["total_guesses"]) == (k, t)


def test_4x6_within_5_the_published_539_is_the_count_first_optimum():
    """Slovesnov's 539 secrets needing 5: the fewest possible (proven), reached only with a total of
    5627 or more; with the least total 5626 the fewest is 540 (the other committed proof)."""
    name = "total-4x6-max5-count-first.json.gz"
    doc = json.loads(reader.text((BOUNDS / name).read_bytes(), verify_bound.MAX_BYTES))
    assert doc["claims"] == {"max_guesses": 5, "total": 5627, "at_max": 539, "first": "at_max"}
    for total, count in ((5627, 540), (5628, 539)):  # one unit more, either key: refused
        report = verify_bound.check_bytes(_with(doc, total, count))
        assert not report.valid and "is not refuted" in report.error
    r = run_here("verify", CERTS / "optimal-total-4x6-max5-count-first.json", "--optimal", BOUNDS / name)
    assert r.returncode == 0, r.stderr
    assert ("optimal: 539 secrets needing 5, then total 5627 guesses (within 5) = proven minimum 539, "
            "then 5627") in r.stdout
    assert "has >= 539 secrets needing 5 guesses; one with exactly 539 needs >= 5627" in r.stdout
    # the two orders together: 539 at 5 costs a guess in total, 5626 costs a secret at 5
    first = json.loads(reader.text((BOUNDS / "total-4x6-max5-count.json.gz").read_bytes(), verify_bound.MAX_BYTES))["claims"]
    assert (first["total"], first["at_max"]) == (5626, 540)


@pytest.mark.parametrize("claims, message", [
    ({"total": 81, "max_guesses": 4, "first": "at_max"}, "'first' goes only with 'at_max'"),
    ({"total": 81, "max_guesses": 4, "at_max": 11, "first": "count"}, "claims.first: must be"),
    ({"total": 81, "max_guesses": 4, "at_max": 11, "first": 1}, "claims.first"),
    ({"total": 101, "max_guesses": 4, "at_max": 11, "first": "at_max"}, "is more than 100, the most"),
    ({"total": 81, "max_guesses": 10 ** 17, "at_max": 11, "first": "at_max"}, "too large"),
    ({"total": 81, "max_guesses": 4, "at_max": 26, "first": "at_max"}, "claims.at_max: 26 is more than"),
])
def test_misplaced_first_claims_are_refused(claims, message):
    doc = json.loads((BOUNDS / "total-2x5-max4-count-first.json").read_bytes())
    doc["claims"] = claims
    report = verify_bound.check_bytes(dumps(doc))
    assert not report.valid and message in report.error, report.error
    assert "\n" not in report.error
    assert not bound_reference.check(dumps(doc)).valid


def test_build_optimal_max_count_then_total(tmp_path):
    out, proof = tmp_path / "s.json", tmp_path / "p.json"
    r = run_here("build", "optimal", "--pegs", 2, "--colors", 6, "--objective", "max-count,total",
                "--max-guesses", 5, "-q", "--proof", proof, "-o", out)
    assert r.returncode == 0, r.stderr
    codes = frozenset(bound_reference.codes_of(2, 6, True))
    k, t = bound_reference.optimum(2, 6, True, codes, "count", 5)
    assert f"fewest secrets needing 5: {k}, then least total {t}" in r.stdout
    assert json.loads(proof.read_bytes())["claims"] == {"total": t, "max_guesses": 5, "at_max": k,
                                                      "first": "at_max"}
    assert json.loads(out.read_bytes())["strategy"]["params"]["objective"] == "max-count,total"
    r = run_here("verify", out, "--optimal", proof)
    assert r.returncode == 0 and f"= proven minimum {k}, then {t}" in r.stdout, r.stdout + r.stderr
    r = run_here("build", "optimal", "--pegs", 2, "--colors", 6, "--objective", "max-count,total", "-q",
                "-o", tmp_path / "x.json")
    assert r.returncode == 2 and "give --max-guesses D" in r.stderr
