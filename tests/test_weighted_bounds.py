"""Weighted lower bounds (claims {"total": T, "weights": {...}}, docs/lower-bound-format.md
"Weighted claims"): the codemaker's side of the game value.

Proofs are written here from the exhaustive oracle of tests/bound_reference.py (exact weighted
optima of every set), independently of certify's search; both checkers must accept them, refuse
them when the claim or a weight moves by one unit, and refuse malformed weights with one line.
"""

from __future__ import annotations

import json
import random

import pytest

import bound_reference as ref
from certify import verify_bound

FORMAT = "mastermind-lower-bound-certificate"


class _Writer:
    """A weighted proof from the oracle: each node's bound is its set's exact optimum; a guess gets
    children only when counting does not refute it, the classes with the largest gap first."""

    def __init__(self, pegs, colors, rep, weights):
        self.spec, self.w = (pegs, colors, rep), weights
        self.codes = ref.codes_of(pegs, colors, rep)
        self.b = ref.b_of(pegs, colors, rep)
        self.win = (pegs, 0)
        self.fb = ref.Feedback(self.codes, colors)
        self.nodes = []

    def opt(self, S):
        return ref.optimum(*self.spec, S, "weighted", weights=self.w)

    def build(self, S) -> int:
        i = len(self.nodes)
        d = self.opt(S)
        node = {"bound": d}
        self.nodes.append(node)
        if ref.count_weighted(self.b, [self.w[s] for s in S]) >= d:
            return i
        here = sum(self.w[s] for s in S)
        todo = []
        for g in self.codes:
            classes = {}
            for s in S:
                f = self.fb(g, s)
                if f != self.win:
                    classes.setdefault(f, []).append(s)
            counted = {f: ref.count_weighted(self.b, [self.w[s] for s in C]) for f, C in classes.items()}
            value = here + sum(counted.values())
            if value >= d:
                continue
            need = []
            for f, C in sorted(classes.items(), key=lambda fc: counted[fc[0]] - self.opt(frozenset(fc[1]))):
                if value >= d:
                    break
                exact = self.opt(frozenset(C))
                if exact > counted[f]:
                    need.append((f, frozenset(C)))
                    value += exact - counted[f]
            assert value >= d, "the oracle's optimum is a minimum over guesses"
            todo.append((g, need))
        entries = {}
        for g, need in todo:
            entries[g] = {f"{f[0]},{f[1]}": self.build(C) for f, C in need}
        if entries:
            node["guesses"] = entries
        return i

    def doc(self, given) -> dict:
        support = frozenset(c for c in self.codes if self.w[c] > 0)
        self.nodes = []
        self.build(support)
        return {"format": FORMAT, "version": 1,
                "game": {"pegs": self.spec[0], "colors": self.spec[1], "repetition": self.spec[2]},
                "claims": {"total": self.nodes[0]["bound"], "weights": given}, "nodes": self.nodes}


def _lowest(pegs, colors, rep):
    out = {}
    for c in ref.codes_of(pegs, colors, rep):
        out.setdefault(ref.orbit_of(c), c)
    return out


def _proof(pegs, colors, rep, given):
    weights = ref._weights(given, pegs, colors, rep)
    return _Writer(pegs, colors, rep, weights).doc(given)


CASES = [(2, 3, True, {"00": 1, "01": 1}), (2, 3, True, {"00": 0, "01": 1}), (2, 3, True, {"00": 5, "01": 2}),
         (3, 2, True, {"000": 1, "001": 3}), (2, 4, True, {"00": 3, "01": 1}), (2, 4, True, {"00": 0, "01": 7}),
         (3, 3, True, {"000": 0, "001": 1, "012": 1}), (3, 3, True, {"000": 2, "001": 3, "012": 5}),
         (3, 4, False, {"012": 1})]


@pytest.mark.parametrize("pegs,colors,rep,given", CASES)
def test_oracle_proofs_are_accepted_by_both_checkers_and_are_tight(pegs, colors, rep, given):
    doc = _proof(pegs, colors, rep, given)
    raw = json.dumps(doc).encode()
    report = verify_bound.check_bytes(raw)
    assert report.valid, report.error
    weights = ref._weights(given, pegs, colors, rep)
    assert report.weight_sum == sum(weights.values())
    assert report.support == sum(1 for w in weights.values() if w)
    result = ref.check(raw)
    assert result.valid, result.reason
    assert ref.true_bounds(result) == []
    # one more at the root: refused by both (the root's bound is the exact optimum)
    doc["claims"]["total"] += 1
    doc["nodes"][0]["bound"] += 1
    raw = json.dumps(doc).encode()
    report = verify_bound.check_bytes(raw)
    assert not report.valid and "is not refuted" in report.error
    assert not ref.check(raw).valid


def test_uniform_weights_give_the_plain_total():
    """All weights 1: the weighted optimum is the least total (3x3: 73, committed)."""
    doc = _proof(3, 3, True, {"000": 1, "001": 1, "012": 1})
    assert doc["claims"]["total"] == 73
    assert verify_bound.check_bytes(json.dumps(doc).encode()).valid


@pytest.mark.parametrize("pegs,colors,rep,given", CASES[:6])
def test_a_weight_moved_by_one_unit_is_caught(pegs, colors, rep, given):
    """The proof of weights w, checked with one orbit's weight lowered by one: the bounds are no
    longer all true, so some node must fail (the claim kept), or the claim must be lower."""
    doc = _proof(pegs, colors, rep, given)
    for code in given:
        if given[code] == 0:
            continue
        lowered = dict(given, **{code: given[code] - 1})
        if not any(lowered.values()):
            continue
        truth = ref.optimum(pegs, colors, rep,
                            frozenset(c for c, w in ref._weights(lowered, pegs, colors, rep).items() if w),
                            "weighted", weights=ref._weights(lowered, pegs, colors, rep))
        moved = json.loads(json.dumps(doc))
        moved["claims"]["weights"] = lowered
        raw = json.dumps(moved).encode()
        report = verify_bound.check_bytes(raw)
        if doc["claims"]["total"] > truth:
            assert not report.valid, (code, report.statement() if report.valid else "")
        assert report.valid == ref.check(raw).valid


@pytest.mark.parametrize("weights, message", [
    ({"00": 1}, "no weight for the orbit of 01"),
    ({"00": 1, "01": 1, "02": 1}, "02 is not the lowest code of its orbit (write 01)"),
    ({"00": 1, "10": 1}, "10 is not the lowest code of its orbit"),
    ({"00": 1, "0x": 1}, "is not a code of the game"),
    ({"00": 0, "01": 0}, "every weight is 0"),
    ({"00": -1, "01": 1}, "must be an integer >= 0"),
    ({"00": 1.5, "01": 1}, "must be an integer >= 0"),
    ({"00": 1, "01": 10 ** 17}, "too large"),
    ([1, 1], "claims.weights"),
])
def test_malformed_weights_are_refused_in_one_line(weights, message):
    doc = {"format": FORMAT, "version": 1, "game": {"pegs": 2, "colors": 3, "repetition": True},
           "claims": {"total": 1, "weights": weights}, "nodes": [{"bound": 1}]}
    report = verify_bound.check_bytes(json.dumps(doc).encode())
    assert not report.valid and message in report.error and "\n" not in report.error, report.error
    if message != "too large":  # (a resource limit of the checker's 64-bit arithmetic only)
        assert not ref.check(json.dumps(doc).encode()).valid


@pytest.mark.parametrize("extra", [{"max_guesses": 4}, {"at_max": 0, "max_guesses": 4}, {"worst_case": 3}])
def test_weights_go_only_with_a_plain_total(extra):
    doc = {"format": FORMAT, "version": 1, "game": {"pegs": 2, "colors": 3, "repetition": True},
           "claims": {"total": 1, "weights": {"00": 1, "01": 1}, **extra}, "nodes": [{"bound": 1}]}
    report = verify_bound.check_bytes(json.dumps(doc).encode())
    assert not report.valid and "'weights' goes only with 'total'" in report.error


def test_the_vectorised_weighted_counting_equals_a_plain_loop():
    """wclasses (every guess's classes, sorted and summed as arrays) against count_weighted."""
    rng = random.Random(5)
    for pegs, colors, rep in ((3, 3, True), (2, 5, True), (3, 4, False)):
        lowest = _lowest(pegs, colors, rep)
        given = {c: rng.randint(0, 4) for c in lowest.values()}
        given[next(iter(given))] += 1
        doc = {"format": FORMAT, "version": 1, "game": {"pegs": pegs, "colors": colors, "repetition": rep},
               "claims": {"total": 0, "weights": given}, "nodes": [{"bound": 0}]}
        game, claims = verify_bound._header(doc)
        proof = verify_bound._Proof(game, claims, [(0, {}, [])])
        weights = ref._weights(given, pegs, colors, rep)
        codes = ref.codes_of(pegs, colors, rep)
        fb = ref.Feedback(codes, colors)
        b = ref.b_of(pegs, colors, rep)
        for _ in range(5):
            S = sorted(rng.sample(range(len(codes)), rng.randint(1, len(codes))))
            import numpy as np
            got = proof.wclasses(np.array(S, dtype=verify_bound.SET), np.arange(len(codes)))
            for g, code in enumerate(codes):
                want = {}
                for k in S:
                    f = fb(code, codes[k])
                    if f != (pegs, 0):
                        want.setdefault(f"{f[0]},{f[1]}", []).append(weights[codes[k]])
                row = {game.keys[k]: int(v) for k, v in enumerate(got[g]) if v}
                assert row == {key: ref.count_weighted(b, ws) for key, ws in want.items() if sum(ws)}


def test_mutants_of_weighted_proofs_give_no_false_acceptance():
    """Seeded mutants of the oracle's proofs (a bound raised, a weight moved by one, an entry or a
    child dropped, a child pointed elsewhere): whatever the checker accepts, the oracle confirms,
    and the reference checker agrees on every verdict."""
    rng = random.Random(23)
    docs = [_proof(*case) for case in CASES]
    accepted = rejected = 0
    for k in range(400):
        doc = json.loads(json.dumps(rng.choice(docs)))
        for _ in range(rng.randint(1, 3)):
            q, nodes = rng.random(), doc["nodes"]
            i = rng.randrange(len(nodes))
            if q < 0.35:
                nodes[i]["bound"] += rng.choice([1, 1, 2, 5])
                if i == 0:
                    doc["claims"]["total"] = nodes[0]["bound"]
            elif q < 0.6:
                code = rng.choice(sorted(doc["claims"]["weights"]))
                doc["claims"]["weights"][code] = max(0, doc["claims"]["weights"][code] + rng.choice([-1, 1]))
            elif q < 0.8 and nodes[i].get("guesses"):
                g = rng.choice(sorted(nodes[i]["guesses"]))
                entry = nodes[i]["guesses"][g]
                if entry and rng.random() < 0.5:
                    del entry[rng.choice(sorted(entry))]
                if not entry or rng.random() < 0.5:
                    del nodes[i]["guesses"][g]
            elif nodes[i].get("guesses") and i + 1 < len(nodes):
                g = rng.choice(sorted(nodes[i]["guesses"]))
                entry = nodes[i]["guesses"][g]
                if entry:
                    entry[rng.choice(sorted(entry))] = rng.randrange(i + 1, len(nodes))
        raw = json.dumps(doc).encode()
        report = verify_bound.check_bytes(raw)
        result = ref.check(raw)
        assert report.valid == result.valid, (k, report.error, result.reason)
        if report.valid:
            accepted += 1
            assert ref.true_bounds(result) == [], k
        else:
            rejected += 1
    assert accepted > 40 and rejected > 40, (accepted, rejected)


def test_weighted_proofs_fit_the_schema():
    import jsonschema
    from pathlib import Path

    schema = json.loads((Path(__file__).resolve().parent.parent / "docs" / "lower-bound.schema.json").read_text())
    jsonschema.validate(_proof(2, 3, True, {"00": 0, "01": 1}), schema)
