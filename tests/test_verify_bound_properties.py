"""Properties of the lower-bound checker on random small games.

* Its bit-set feedback equals verify.feedback on every pair of codes.
* It accepts what the corpus writer makes (exact proofs), and the proven bound equals the optimum
  that a second, plain brute force below computes (no memo on sets, no symmetry, lists only).
* Soundness under random damage: whatever random changes are made to a proof, when the checker
  still accepts it, the claim is at most the brute-force optimum.
"""

from __future__ import annotations

import copy
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
import numpy as np

from certify import verify, verify_bound
from conftest import bound_corpus

ROOT = Path(__file__).resolve().parent.parent
corpus = bound_corpus()  # loaded once per session (conftest)

# Games of at most 27 codes (pegs, colors, repetition).
GAMES = [(1, 2, True), (1, 4, True), (2, 2, True), (2, 3, True), (2, 4, True), (3, 2, True), (3, 3, True),
         (2, 3, False), (2, 4, False), (3, 3, False), (2, 5, False), (3, 4, False)]


def plain_optimum(pegs, colors, repetition, kind, max_guesses=None):
    """Exact optimum by the plainest search: every guess that splits, recursively."""
    codes = verify.codes(pegs, colors, repetition)
    win = (pegs, 0)
    memo = {}

    def classes(g, S):
        out = {}
        for s in S:
            fb = verify.feedback(g, s)
            if fb != win:
                out.setdefault(fb, []).append(s)
        return [c for c in out.values()]

    def best(S, left):
        key = (tuple(S), left)
        if key in memo:
            return memo[key]
        if left is not None and left <= 0:
            return float("inf")
        if len(S) == 1:
            return 1
        values = []
        for g in codes:
            parts = classes(g, S)
            if len(parts) == 1 and len(parts[0]) == len(S):
                continue
            nxt = None if left is None else left - 1
            if kind == "worst":
                values.append(1 + max((best(c, None) for c in parts), default=0))
            else:
                values.append(len(S) + sum(best(c, nxt) for c in parts))
        memo[key] = min(values)
        return memo[key]

    return best(codes, max_guesses)


def test_feedback_table_is_verify_feedback_on_every_pair():
    for spec in GAMES + [(4, 4, True), (3, 5, False), (4, 6, False), (2, 6, True)]:
        game = verify_bound.Game(*spec)
        keys = game.keys + [f"{spec[0]},0"]  # class b is the win
        for g in range(game.n):
            for s in range(game.n):
                b, w = verify.feedback(game.codes[g], game.codes[s])
                assert keys[game.table[g, s]] == f"{b},{w}", (spec, game.codes[g], game.codes[s])


def plain_class_sizes(game, S):
    """sizes[g][k], one step per line: every guess, every secret of S, its feedback's class."""
    keys = game.keys + [f"{game.pegs},0"]
    sizes = [[0] * len(keys) for _ in game.codes]
    for g, guess in enumerate(game.codes):
        for s in S:
            b, w = verify.feedback(guess, game.codes[s])
            sizes[g][keys.index(f"{b},{w}")] += 1
    return sizes


def plain_refuted_by_counting(tiny, size, classes, kind, d, left):
    """Is a guess whose non-winning classes have these sizes refuted by counting alone, at a node
    of ``size`` secrets, bound d, ``left`` guesses left? (docs: "What the checker does", 3 and 4)"""
    classes = [c for c in classes if c]
    if kind == "worst":
        return d <= 1 or any(tiny.count_worst(c) >= d - 1 for c in classes)
    if left is not None and (left <= 0 or any(c > tiny.N(left - 1) for c in classes)):
        return True
    return size + sum(tiny.count_total(c) for c in classes) >= d


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=st.sampled_from(GAMES + [(4, 3, True), (3, 4, True), (4, 5, False)]), data=st.data(),
       block=st.sampled_from([1, 7, 1 << 22]))
def test_fast_class_sizes_and_counting_match_a_plain_loop(spec, data, block):
    """The vectorised counting (numpy bincount, by blocks of secrets) against one step per line."""
    game, tiny = verify_bound.Game(*spec), corpus.Tiny(*spec)
    S = sorted(data.draw(st.sets(st.integers(0, game.n - 1), min_size=1, max_size=game.n)))
    old, verify_bound.BLOCK = verify_bound.BLOCK, block * game.n  # blocks of 1, 7 or all secrets
    try:
        sizes = game.class_sizes(np.array(S))
    finally:
        verify_bound.BLOCK = old
    plain = plain_class_sizes(game, S)
    assert sizes.T.tolist() == plain
    kind = data.draw(st.sampled_from(["worst", "total"]))
    if kind == "worst":
        d = data.draw(st.integers(0, 5))
    else:  # at, just below or just above what some guess gives, where a wrong comparison shows
        values = sorted({len(S) + sum(map(tiny.count_total, row[:-1])) for row in plain})
        d = data.draw(st.sampled_from(values)) + data.draw(st.sampled_from([-1, 0, 0, 1]))
        d = data.draw(st.sampled_from([d, d, 10**30]))  # beyond int64: only max_guesses can refute
    left = data.draw(st.sampled_from([None, 0, 1, 2, 3])) if kind == "total" else None
    claims = {"worst_case": d} if kind == "worst" else {"total": d, "max_guesses": 9}
    proof = verify_bound._Proof(game, claims, [(d, {})])
    fast = proof.counted(sizes[:game.win], len(S), d, left).tolist()
    for g in range(game.n):
        refuted = plain_refuted_by_counting(tiny, len(S), plain[g][:-1], kind, d, left)
        assert fast[g] == refuted, (spec, S, game.codes[g], kind, d, left)


def test_permutations_follow_the_documented_convention():
    game = verify_bound.Game(4, 6, True)
    perm = ((1, 0, 2, 3), (0, 2, 1, 3, 4, 5))
    assert game.codes[game.moved(perm, [game.by_text["0012"]])[0]] == "0021"
    game = verify_bound.Game(3, 4, True)
    perm = ((2, 0, 1), (1, 2, 3, 0))  # y[sigma[i]] = tau[x[i]]: 012 -> y[2]=1, y[0]=2, y[1]=3
    assert game.codes[game.moved(perm, [game.by_text["012"]])[0]] == "231"
    everything = np.arange(game.n)
    assert game.image(perm, everything).tolist() == everything.tolist()
    # every code, one by one, as the definition says
    for x, code in enumerate(game.codes):
        y = [""] * 3
        for i, ch in enumerate(code):
            y[perm[0][i]] = str(perm[1][int(ch)])
        assert game.codes[game.moved(perm, [x])[0]] == "".join(y)
        assert game.codes[game.moved_one(perm, x)] == "".join(y)  # (a same_as's P(g), one code)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=st.sampled_from(GAMES), kind=st.sampled_from(["worst", "total"]), symmetric=st.booleans(),
       extra=st.sampled_from([None, 0, 1]))
def test_the_written_proof_is_accepted_and_proves_the_brute_force_optimum(spec, kind, symmetric, extra):
    game = corpus.game(spec)
    max_guesses = None
    if kind == "total" and extra is not None:
        max_guesses = plain_optimum(*spec, "worst") + extra
    doc, _ = corpus.write_proof(game, kind, max_guesses, symmetric)
    report = verify_bound.check_bytes(corpus.dumps(doc))
    assert report.valid, report.error
    claim = doc["claims"]["worst_case" if kind == "worst" else "total"]
    assert claim == plain_optimum(*spec, kind, max_guesses)


def _damage(doc, data):
    """Random changes: bounds moved, references retargeted, entries dropped or added."""
    nodes = doc["nodes"]
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(nodes) - 1))
        node = nodes[i]
        what = data.draw(st.sampled_from(["bound", "retarget", "drop", "claim", "add"]))
        if what == "bound":
            node["bound"] = max(0, node["bound"] + data.draw(st.integers(-2, 3)))
        elif what == "claim":
            key = "worst_case" if "worst_case" in doc["claims"] else "total"
            doc["claims"][key] = nodes[0]["bound"] = nodes[0]["bound"] + data.draw(st.integers(1, 3))
        elif what in ("retarget", "drop") and node.get("guesses"):
            g = data.draw(st.sampled_from(sorted(node["guesses"])))
            entry = node["guesses"][g]
            if what == "drop" or "same_as" in entry:
                del node["guesses"][g]
            else:
                key = data.draw(st.sampled_from(sorted(entry)))
                entry[key] = data.draw(st.integers(i + 1, len(nodes))) if i + 1 <= len(nodes) else 0
        elif what == "add" and i + 1 < len(nodes):
            g = data.draw(st.sampled_from(sorted(verify.codes(doc["game"]["pegs"], doc["game"]["colors"],
                                                              doc["game"]["repetition"]))))
            key = data.draw(st.sampled_from(["0,0", "1,0", "0,1", "1,1", "0,2"]))
            node.setdefault("guesses", {})[g] = {key: data.draw(st.integers(i + 1, len(nodes) - 1))}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=st.sampled_from(GAMES[:9]), kind=st.sampled_from(["worst", "total"]), data=st.data())
def test_whatever_the_damage_an_accepted_claim_is_true(spec, kind, data):
    doc = copy.deepcopy(corpus.write_proof(corpus.game(spec), kind, None, data.draw(st.booleans()))[0])
    _damage(doc, data)
    report = verify_bound.check_bytes(corpus.dumps(doc))
    assert report.status in (0, 1) or (report.status == 2 and report.limit is not None)  # 2: over a limit
    if report.valid:
        claim = doc["claims"]["worst_case" if kind == "worst" else "total"]
        assert claim <= plain_optimum(*spec, kind)
    else:
        assert "\n" not in report.error
