"""The lower-bound checker's shortcuts attacked together (tests/bound_attack.py): seeded mutants of
valid small proofs (same_as chains, cycles and targets in orbits of interchangeable colours,
references redirected into shared nodes through permutations, max_guesses at mixed depths, vacuous
nodes as children, raised bounds, ...), each judged by the checker and by the reference checker
and exhaustive oracle (tests/bound_reference.py). No false bound may be accepted, and the two
checkers must agree on every mutant. The long run (hundreds of thousands of mutants) is
``python tests/bound_attack.py --count 150000 --seed 7``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import bound_attack
import bound_reference
from certify import verify_bound

ROOT = Path(__file__).resolve().parent.parent


#: Mutants judged in the suite: 2,000 (5,000 until the suite had to fit in ten minutes) run each of
#: the 18 kinds of change at least 40 times (asserted below); the long run above judges 150,000.
COUNT = 2000


def test_seeded_mutants_give_no_false_acceptance_and_no_disagreement():
    summary = bound_attack.attack(COUNT, seed=2024, small=True)
    shown = [{k: e[k] for k in ("k", "source", "ops", "accepted", "reference", "false_bounds", "error",
                                "reference_reason")} for e in summary["examples"][:3]]
    assert summary["false"] == 0, shown
    assert summary["disagree"] == 0, shown
    # the attack is not vacuous: some mutants pass (the checker is not just rejecting everything)
    assert summary["generated"] == COUNT and COUNT // 25 < summary["accepted"] < COUNT - COUNT // 25
    # and every kind of change is made, many times over
    kinds = {f.__name__.removeprefix("m_") for f in bound_attack._FUNCS}
    assert len(kinds) == 18  # (m_rule: the feedback rule relabelled, issue 37)
    assert {kind: summary.get(f"op {kind}", 0) for kind in kinds if summary.get(f"op {kind}", 0) < 40} == {}


def test_mutants_are_deterministic():
    sources = bound_attack.load_sources(small=True)
    assert [bound_attack.mutant(sources, 5, k)[1:] for k in range(40)] == \
        [bound_attack.mutant(sources, 5, k)[1:] for k in range(40)]


def test_the_issues_one_node_exploit_is_rejected():
    """Every colour interchangeable at the root, every lowest code of an orbit same_as its image under
    a swap of two colours: one node claiming any bound (3x2 needs 3 guesses, it claims 9)."""
    doc = bound_attack.exploit_doc(3, 2, True, "worst", 9)
    assert bound_reference.optimum(3, 2, True, frozenset(bound_attack.game_of((3, 2, True)).codes), "worst") == 3
    report = verify_bound.check_bytes(bound_attack.dumps(doc))
    assert not report.valid
    assert "(through interchangeable colours, " in report.error
    assert "has a same_as entry itself: a same_as target must be refuted by its own partition" in report.error
    assert not bound_reference.check(bound_attack.dumps(doc)).valid


def _orbit_mutants():
    """Mutants of the committed 2x6 least-total proof: at a node with interchangeable colours, every
    lowest code g of an orbit given same_as P(g) (P a swap of two neighbours of a list moving g;
    P(g) without an entry, so the target is P(g)'s lowest code, g itself), the children left
    unreferenced dropped, and the node's bound raised: (node, bound, truth, document)."""
    src = bound_attack.Source("total-2x6", json.loads((ROOT / "certificates" / "bounds" / "total-2x6.json").read_bytes()))
    game = src.game
    for i, node in enumerate(src.doc["nodes"]):
        blocks = node.get("interchangeable")
        if not blocks:
            continue
        m = bound_attack.Mutant(src, random.Random(0))
        guesses = m.nodes[i].setdefault("guesses", {})
        moved = True
        for x in range(game.n):
            if not game.is_lowest(x, blocks):
                continue
            for a, b in ((a, b) for block in blocks for a, b in zip(block, block[1:])):
                h = game.apply(game.swap(a, b), x)
                if h != x:
                    guesses[game.codes[x]] = {"perm": bound_attack.perm_json(game.swap(a, b)), "same_as": game.codes[h]}
                    guesses.pop(game.codes[h], None)
                    break
            else:
                moved = False  # (a code no swap moves, such as 00 with lists [[2, 3, 4, 5]])
        if not moved:
            continue
        truth = bound_reference.optimum(2, 6, True, [game.codes[x] for x in src.sets[i]], "total")
        m.set_bound(i, truth + 1)
        m.gc()
        yield i, truth + 1, truth, m.doc


def test_a_committed_proof_with_same_as_entries_into_an_orbit_is_rejected():
    """The checker before the fix accepted both false bounds (each node at its optimum + 1)."""
    mutants = list(_orbit_mutants())
    assert [(i, bound, truth) for i, bound, truth, _ in mutants] == [(0, 133, 132), (1, 46, 45)]
    for i, bound, truth, doc in mutants:
        raw = bound_attack.dumps(doc)
        report = verify_bound.check_bytes(raw)
        assert not report.valid, (i, bound, truth)
        assert "(through interchangeable colours, " in report.error, report.error
        assert "has a same_as entry itself: a same_as target must be refuted by its own partition" in report.error
        assert not bound_reference.check(raw).valid
