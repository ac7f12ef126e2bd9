"""The lower-bound checker's faster ways: counting by the bits of the classes
(``_Proof.counted_small``), and the nodes read one at a time as the check reaches them.

Where counting is a straight line over the class sizes (cost(m) = A m + C for 1 <= m <= |S|), the
checker decides a guess from the bits of its classes instead of their sizes. These tests hold it
to the general rule (``counted`` over ``class_sizes``, itself compared with a plain loop in
test_verify_bound_properties.py) on every claim kind, at the bounds where a wrong comparison
shows, and check that it is taken where it should be (else the comparison would test nothing).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
import numpy as np
import pytest

from certify import verify_bound

GAMES = [(2, 3, True), (3, 3, True), (3, 4, False), (4, 4, True), (4, 5, False), (5, 3, True), (6, 2, True),
         (7, 2, True)]  # 16, 32 and 64 bits
CLAIMS = [{"total": 1}, {"total": 1, "max_guesses": 6}, {"total": 1, "max_guesses": 5, "at_max": 1},
          {"total": 1, "max_guesses": 5, "at_max": 1, "first": "at_max"}, {"worst_case": 1}]


def general(proof, S, d, left):
    return proof.counted(proof.game.class_sizes(S)[:proof.game.win], len(S), d, left)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=st.sampled_from(GAMES), claims=st.sampled_from(CLAIMS), data=st.data())
def test_small_sets_counted_as_by_class_sizes(spec, claims, data):
    game = verify_bound.Game(*spec)
    S = np.array(sorted(data.draw(st.sets(st.integers(0, game.n - 1), min_size=1,
                                          max_size=min(game.n, 3 * game.win)))), verify_bound.SET)
    left = data.draw(st.sampled_from([None] if "max_guesses" not in claims else [0, 1, 2, 3, 4]))
    proof = verify_bound._Proof(game, claims, [(1, {})])
    r = None if left is None else left - 1
    values = sorted(set((proof.weight * len(S) + proof.costs(r)[game.class_sizes(S)[:game.win]].sum(axis=0)).tolist()))
    d = data.draw(st.sampled_from(values)) + data.draw(st.sampled_from([-1, 0, 0, 1]))
    d = data.draw(st.sampled_from([d, d, d, 0, 10**30]))
    fast = proof.counted_small(S, len(S), d, left)
    if fast is not None:
        assert fast.tolist() == general(proof, S, d, left).tolist(), (spec, claims, S.tolist(), d, left)


@pytest.mark.parametrize("spec", [(4, 6, True), (4, 10, False), (5, 4, True), (7, 3, True)])
def test_the_shortcut_is_taken_for_small_total_nodes_and_agrees(spec):
    """Sets of 1 to b + 1 secrets (exact by the bits) and bigger ones (the bits, then class sizes),
    total claims: every verdict equal to the general rule's, at bounds that split the guesses."""
    game = verify_bound.Game(*spec)
    rng = np.random.default_rng(7)
    for claims, left in ((CLAIMS[0], None), (CLAIMS[1], 4), (CLAIMS[2], 4)):
        proof = verify_bound._Proof(game, claims, [(1, {})])
        for m in list(range(1, game.win + 2)) + [game.win + 2, 2 * game.win, 60]:
            S = np.sort(rng.choice(game.n, m, replace=False)).astype(verify_bound.SET)
            r = None if left is None else left - 1
            values = proof.weight * m + proof.costs(r)[game.class_sizes(S)[:game.win]].sum(axis=0)
            for d in (int(values.min()), int(np.median(values)), int(values.max()), int(values.max()) + 1):
                fast = proof.counted_small(S, m, d, left)
                assert fast is not None, (spec, claims, m)
                assert fast.tolist() == general(proof, S, d, left).tolist(), (spec, claims, m, d)
                assert fast.tolist() == (values >= d).tolist()


def test_the_line_and_where_it_is_only_a_lower_bound():
    """countTotal is 2m - 1 up to b + 1 secrets, then above that line (convex): bigger sets get the
    line as a filter and the guesses it leaves are counted exactly (compared in the tests above)."""
    game = verify_bound.Game(4, 6, True)
    total = verify_bound._Proof(game, {"total": 1}, [(1, {})])
    assert total.line(None) == (2, -1, game.win + 1, game.n)
    # b + 2 secrets without colour 0: all in one class of 0000, where counting is 1 above the line
    S = np.array([x for x in range(game.n) if 0 not in game.code_digits[x]][:game.win + 2], verify_bound.SET)
    d = len(S) + game.total[len(S)]
    assert game.total[len(S)] == 2 * len(S)  # 2m - 1, plus one secret found at the third guess
    fast = total.counted_small(S, len(S), d, None)
    assert fast[0] and fast.tolist() == general(total, S, d, None).tolist()
    worst = verify_bound._Proof(game, {"worst_case": 1}, [(1, {})])
    S = np.arange(5, dtype=verify_bound.SET)
    assert worst.counted_small(S, 5, 3, None) is None  # largest class: not in the bits
    lexicographic = verify_bound._Proof(game, CLAIMS[2], [(1, {})])  # cap about n^3: beyond 32 bits
    assert lexicographic.counted_small(S, 5, 10**30, 4) is None
    assert lexicographic.counted_small(S, 5, 50_000, 4) is not None


@pytest.mark.parametrize("claims", CLAIMS[1:4])
def test_few_guesses_left_agree_at_every_size(claims):
    """With 1 to 4 guesses left a class may not fit (N(r - 1) small): wherever the shortcut answers
    it must agree, up to one above the largest value (where only "does not fit" refutes)."""
    game = verify_bound.Game(4, 4, True)
    rng = np.random.default_rng(3)
    proof = verify_bound._Proof(game, claims, [(1, {})])
    for left in (1, 2, 3, 4):
        for m in range(1, game.win + 3):
            S = np.sort(rng.choice(game.n, m, replace=False)).astype(verify_bound.SET)
            values = proof.weight * m + proof.costs(left - 1)[game.class_sizes(S)[:game.win]].sum(axis=0)
            for d in (int(values.min()), int(values.max()), int(values.max()) + 1):
                fast = proof.counted_small(S, m, d, left)
                assert fast is not None and fast.tolist() == general(proof, S, d, left).tolist(), (claims, left, m, d)


DATA = Path(__file__).resolve().parent / "data" / "bounds" / "valid"


def _verdict(doc) -> tuple:
    report = verify_bound.check_bytes(json.dumps(doc).encode())
    return report.status, report.error, report.checked


def test_nodes_written_in_another_key_order_are_read_whole_first_and_agree():
    """A node whose first key is not "bound": the checker reads every node before checking (the
    other way), with the same verdict; and a wrong bound is still refused that way."""
    doc = json.loads((DATA / "total-3x3.json").read_text())
    reordered = copy.deepcopy(doc)
    reordered["nodes"] = [dict(sorted(node.items(), reverse=True)) for node in doc["nodes"]]
    assert list(reordered["nodes"][0])[0] != "bound"
    assert _verdict(reordered) == _verdict(doc) and _verdict(doc)[0] == verify_bound.EXIT_VALID
    reordered["nodes"][0]["bound"] += 1
    reordered["claims"]["total"] += 1
    status, error, _ = _verdict(reordered)
    assert status == verify_bound.EXIT_INVALID and "is not refuted" in error


def test_a_malformed_node_is_named_when_the_check_reaches_it():
    doc = json.loads((DATA / "total-3x3.json").read_text())
    last = len(doc["nodes"]) - 1
    for damage, reason in ((lambda node: node.update(extra=1), "unknown field 'extra'"),
                           (lambda node: node.update(bound="12"), "expected integer"),
                           (lambda node: node.update(bound=-1), "must be >= 0")):
        bad = copy.deepcopy(doc)
        damage(bad["nodes"][last])
        status, error, _ = _verdict(bad)
        assert status == verify_bound.EXIT_INVALID and error.startswith(f"node {last}") and reason in error, error
