"""Mutations of valid lower-bound proofs: each single change is rejected unless it provably keeps the
proof valid.

The corpus writer (tests/data/bounds/make_corpus.py) knows, for every node, its set and whether its
bound is the exact optimum of that set, and it writes entries only where counting does not refute
a guess (for totals, the fewest children, largest gain first). So:

* raising an exact bound by one makes a false claim: it must be rejected;
* dropping a guess entry leaves that guess unrefuted (or a node unreferenced): rejected;
* dropping one child of a total entry leaves the guess below the bound: rejected;
* pointing a reference at a node whose set (through the permutation) differs from the class:
  rejected (a node stands for one set; of a proof's references at most POINTED, a fixed sample);
* changing the permutation of a reference (not the first one to its node, which defines the
  node's set: another image of the class is as good) to one that gives another set: rejected;
* adding to a node's interchangeable colours one that some swap tells apart: rejected; dropping
  the list where a code it stood for is not refuted by counting: rejected.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from certify import verify_bound
from conftest import bound_corpus

ROOT = Path(__file__).resolve().parent.parent
corpus = bound_corpus()  # loaded once per session (conftest)

NAMES = [n for n in corpus.PROOFS if len(corpus.proof(n)[0]["nodes"]) > 1 or
         corpus.proof(n)[0]["nodes"][0].get("guesses")]


def _check(doc) -> verify_bound.Report:
    return verify_bound.check_bytes(corpus.dumps(doc))


def _mutable(doc, i):
    """A copy of ``doc`` in which node ``i`` (its guesses, their entries, its interchangeable lists),
    the nodes list and the claims can be changed; the rest is shared, read-only (a deep copy of the
    whole proof for each of the ~1,700 mutants of total-2x5-max4 cost as much as checking them)."""
    out = dict(doc, claims=dict(doc["claims"]), nodes=list(doc["nodes"]))
    node = out["nodes"][i] = dict(doc["nodes"][i])
    if "guesses" in node:
        node["guesses"] = {g: dict(e) for g, e in node["guesses"].items()}
    if "interchangeable" in node:
        node["interchangeable"] = [list(lst) for lst in node["interchangeable"]]
    return out


@pytest.fixture(autouse=True)
def _proof_left_as_it_was(request):
    """Mutants share the unchanged parts of the shared proof (_mutable): it must come out as it went in."""
    name = getattr(request.node, "callspec", None) and request.node.callspec.params.get("name")
    before = corpus.dumps(corpus.proof(name)[0]) if name else None
    yield
    if name:
        assert corpus.dumps(corpus.proof(name)[0]) == before, f"{name}'s proof was changed in place"


def _perm(ref):
    if type(ref) is int:
        return None
    return tuple(ref["perm"]["pegs"]), tuple(ref["perm"]["colors"])


def _target(ref) -> int:
    return ref if type(ref) is int else ref["node"]


def _refs(doc):
    """(node, guess, key) of every reference."""
    for i, node in enumerate(doc["nodes"]):
        for g, entry in sorted(node.get("guesses", {}).items()):
            if "same_as" not in entry:
                for key in entry:
                    yield i, g, key


def test_the_mutated_proofs_are_not_trivial():
    assert len(NAMES) >= 8
    assert sum(len(list(_refs(corpus.proof(n)[0]))) for n in NAMES) >= 100


@pytest.mark.parametrize("name", NAMES)
def test_raising_an_exact_bound_is_rejected(name):
    doc, info = corpus.proof(name)
    assert _check(doc).valid
    exact = [j for j in range(len(doc["nodes"])) if info[j][1] is not None]
    assert exact and exact[0] == 0
    for j in exact:
        bad = _mutable(doc, j)
        bad["nodes"][j]["bound"] += 1
        if j == 0:  # with the claim, else the claim check alone would catch it
            key = "worst_case" if "worst_case" in bad["claims"] else "total"
            bad["claims"][key] += 1
        report = _check(bad)
        assert report.status == 1, (name, j)
        if j:
            assert f"node {j} " in report.error or "node" in report.error


@pytest.mark.parametrize("name", NAMES)
def test_dropping_a_guess_entry_is_rejected(name):
    doc, _ = corpus.proof(name)
    for i, node in enumerate(doc["nodes"]):
        for g in node.get("guesses", {}):
            bad = _mutable(doc, i)
            del bad["nodes"][i]["guesses"][g]
            if not bad["nodes"][i]["guesses"]:
                del bad["nodes"][i]["guesses"]
            report = _check(bad)
            assert report.status == 1, (name, i, g)
            assert f"guess {g} is not refuted" in report.error or "not referenced" in report.error, report.error


@pytest.mark.parametrize("name", [n for n in NAMES if n.startswith("total")])
def test_dropping_one_child_of_a_total_entry_is_rejected(name):
    doc, _ = corpus.proof(name)
    for i, g, key in _refs(doc):
        entry = doc["nodes"][i]["guesses"][g]
        if len(entry) < 2:
            continue  # dropping the only child is dropping the entry (above)
        bad = _mutable(doc, i)
        del bad["nodes"][i]["guesses"][g][key]
        report = _check(bad)
        assert report.status == 1 and ("is not refuted" in report.error or "not referenced" in report.error), (
            name, i, g, key, report.error)


#: Most references of one proof pointed elsewhere: past it a fixed-seed sample (the proof's name).
#: total-2x5-max4 has 440 of the corpus' ~640, each pointed at up to four other nodes: ~1,500
#: checks, 10 s of CPU, for the same rule checked again and again; every other proof has at most 30.
POINTED = 100


@pytest.mark.parametrize("name", NAMES)
def test_pointing_a_reference_at_another_set_is_rejected(name):
    doc, info = corpus.proof(name)
    game = corpus.game(corpus.PROOFS[name][0])
    last = len(doc["nodes"]) - 1
    refs = list(_refs(doc))
    if len(refs) > POINTED:
        refs = sorted(random.Random(name).sample(refs, POINTED))
    tried = 0
    for i, g, key in refs:
        ref = doc["nodes"][i]["guesses"][g][key]
        j, perm = _target(ref), _perm(ref)
        C = info[j][0] if perm is None else game.image(perm, info[j][0])  # the class, as written
        for k in sorted({i + 1, j - 1, j + 1, last} - {j}):
            if not i < k <= last:
                continue
            if (info[k][0] if perm is None else game.image(perm, info[k][0])) == C:
                continue  # the same set: may well stay valid
            bad = _mutable(doc, i)
            bad["nodes"][i]["guesses"][g][key] = k if perm is None else {"node": k, "perm": ref["perm"]}
            report = _check(bad)
            assert report.status == 1, (name, i, g, key, k)
            tried += 1
    assert tried or last <= 1  # one child node: nowhere else to point


@pytest.mark.parametrize("name", [n for n in NAMES if corpus.PROOFS[n][3] is True])
def test_changing_a_permutation_to_one_giving_another_set_is_rejected(name):
    doc, info = corpus.proof(name)
    game = corpus.game(corpus.PROOFS[name][0])
    tried, seen = 0, set()
    for i, g, key in _refs(doc):
        ref = doc["nodes"][i]["guesses"][g][key]
        j = _target(ref)
        if j not in seen:  # the first reference defines the node's set: another image is as good
            seen.add(j)
            continue
        was = _perm(ref) or (tuple(range(game.pegs)), tuple(range(game.colors)))
        for P in game.perms()[:12]:
            if game.image(P, info[j][0]) == game.image(was, info[j][0]):
                continue
            bad = _mutable(doc, i)
            bad["nodes"][i]["guesses"][g][key] = {"node": j, "perm": corpus._perm_json(P)}
            assert _check(bad).status == 1, (name, i, g, key, P)
            tried += 1
    if name == "total-2x6":  # where nodes are reached twice through permutations
        assert tried >= 10


@pytest.mark.parametrize("name", [n for n in NAMES if corpus.PROOFS[n][3] is True])
def test_a_same_as_with_another_target_or_permutation_is_rejected(name):
    doc, info = corpus.proof(name)
    game = corpus.game(corpus.PROOFS[name][0])
    tried = 0
    for i, node in enumerate(doc["nodes"]):
        for g, entry in sorted(node.get("guesses", {}).items()):
            if "same_as" not in entry:
                continue
            for P in game.perms()[:12]:
                h = game.apply(P, g)
                if game.image(P, info[i][0]) == info[i][0] and h == entry["same_as"]:
                    continue  # as good as the one written
                bad = _mutable(doc, i)
                bad["nodes"][i]["guesses"][g] = {"perm": corpus._perm_json(P), "same_as": entry["same_as"]}
                assert _check(bad).status == 1, (name, i, g, P)
                tried += 1
    assert tried


@pytest.mark.parametrize("name", [n for n in NAMES if corpus.PROOFS[n][3] == "colors"])
def test_interchangeable_colours_are_checked(name):
    doc, info = corpus.proof(name)
    game = corpus.game(corpus.PROOFS[name][0])
    grown = dropped = 0
    for i, node in enumerate(doc["nodes"]):
        if "interchangeable" not in node:
            continue
        lists = node["interchangeable"]
        assert lists == corpus.interchangeable(game, info[i][0])[0]
        free = [c for c in range(game.colors) if not any(c in lst for lst in lists)]
        for c in free:  # not interchangeable with the first list: the writer found no swap
            bad = _mutable(doc, i)
            bad["nodes"][i]["interchangeable"][0] = sorted(lists[0] + [c])
            assert _check(bad).status == 1, (name, i, c)
            grown += 1
        bad = _mutable(doc, i)
        del bad["nodes"][i]["interchangeable"]
        if _check(bad).status == 1:
            dropped += 1
    assert dropped  # somewhere a skipped code needed the list


def test_every_written_node_bound_is_true():
    """The oracle behind the mutations: each node's bound is at most the exact optimum of its set."""
    for name in corpus.PROOFS:
        doc, info = corpus.proof(name)
        spec, kind, max_guesses, _ = corpus.PROOFS[name]
        game = corpus.game(spec)
        for j, (S, exact) in enumerate(info):
            if exact is not None:
                assert doc["nodes"][j]["bound"] == exact
        truth = game.worst(game.all) if kind == "worst" else game.total(game.all, max_guesses)
        assert json.loads(corpus.dumps(doc))["nodes"][0]["bound"] == truth
