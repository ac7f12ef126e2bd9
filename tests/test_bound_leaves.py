"""The lower-bound checker's batched leaves (``_Proof.outside_counted``, ``cheapest_split``,
``defer``, ``check_leaves``) and the leaf fast path of its reading (``_Nodes``, ``_node_stream``).

A leaf (no entries, no interchangeable colours) whose every guess outside its set counting refutes
by the cheapest split of |S| secrets is left to a batch, which counts the classes of the guesses of
S only, for many leaves at once. The tests hold the batch to the checker that checks every leaf
where it stands (``LEAF_BATCH = 0``): the same verdict, the same message (so the same first failing
node), the same work counted, on the committed proofs, the corpus and seeded mutants; and the
cheapest split to a brute-force minimum over every split.
"""

from __future__ import annotations

import gzip
import itertools
import json
from pathlib import Path

import numpy as np
import pytest

import bound_attack
from certify import verify_bound

ROOT = Path(__file__).resolve().parent.parent
CLAIMS = [{"total": 1}, {"total": 1, "max_guesses": 6}, {"total": 1, "max_guesses": 4},
          {"total": 1, "max_guesses": 5, "at_max": 1}, {"total": 1, "max_guesses": 5, "at_max": 1, "first": "at_max"}]


def verdict(raw: bytes, batch: int, monkeypatch) -> tuple:
    monkeypatch.setattr(verify_bound, "LEAF_BATCH", batch)
    report = verify_bound.verdict_bytes(raw)
    return report.status, report.error, report.checked


def splits(m: int, b: int):
    """Every way to put m secrets into at most b classes, as sorted size lists."""
    def parts(m, b, most):
        if m == 0:
            yield ()
            return
        if b == 0:
            return
        for first in range(min(m, most), 0, -1):
            for rest in parts(m - first, b - 1, first):
                yield (first,) + rest
    return parts(m, b, m)


@pytest.mark.parametrize("spec", [(2, 3, True), (3, 3, True), (3, 4, False), (4, 4, True)])
@pytest.mark.parametrize("claims", CLAIMS)
def test_the_cheapest_split_is_the_least_over_every_split(spec, claims):
    game = verify_bound.Game(*spec)
    proof = verify_bound._Proof(game, claims, [(1, {})])
    for r in (None, 0, 1, 2, 3, 4):
        cost = proof.cost_list(r)
        for m in range(0, min(game.n, 14) + 1):
            least = min(sum(cost[k] for k in split) for split in splits(m, game.win))
            assert proof.cheapest_split(m, r) == least, (spec, claims, r, m)


def test_a_cost_that_is_not_convex_gives_no_split_bound():
    """cheapest_split() relies on convexity: where the array is not convex it says 0 (never refutes)."""
    proof = verify_bound._Proof(verify_bound.Game(3, 3, True), {"total": 1}, [(1, {})])
    proof.costs_at[7] = np.array([0, 1, 5, 6, 7] + [100] * (proof.game.n - 4), np.int64)  # 1, 4, 1: not convex
    assert proof.cheapest_split(4, 7) == 0
    proof.costs_at[8] = np.array([1] + [2] * proof.game.n, np.int64)  # cost(0) != 0
    assert proof.cheapest_split(3, 8) == 0


def test_outside_counted_means_counting_refutes_every_guess_outside():
    """On random sets: when outside_counted() says so, counted() refutes every guess outside S."""
    rng = np.random.default_rng(3)
    seen = 0
    for spec in [(4, 6, True), (4, 10, False), (3, 5, True)]:
        game = verify_bound.Game(*spec)
        for claims, left in ((CLAIMS[0], None), (CLAIMS[1], 5), (CLAIMS[3], 4)):
            proof = verify_bound._Proof(game, claims, [(1, {})])
            for m in range(1, 40):
                S = np.sort(rng.choice(game.n, m, replace=False)).astype(verify_bound.SET)
                outside = np.setdiff1d(np.arange(game.n), S)
                for d in range(1, 400, 7):
                    if proof.outside_counted(m, d, left):
                        seen += 1
                        sizes = game.class_sizes(S, outside)[:game.win]
                        assert proof.counted(sizes, m, d, left).all(), (spec, claims, m, d)
    assert seen > 1000


def _sources():
    files = sorted((ROOT / "certificates" / "bounds").glob("total-[23]x*.json"))
    files += [ROOT / "certificates" / "bounds" / name for name in
              ("total-4x4.json", "total-4x4-max4-count.json", "total-4x6-norep-max5-count-first.json")]
    return files


@pytest.mark.parametrize("path", _sources(), ids=lambda p: p.name)
def test_committed_proofs_batched_as_unbatched(path, monkeypatch):
    raw = path.read_bytes()
    whole = verdict(raw, 0, monkeypatch)
    assert whole[0] == verify_bound.EXIT_VALID
    for batch in (1, 1 << 18):
        assert verdict(raw, batch, monkeypatch) == whole


def test_the_batch_is_taken(monkeypatch):
    """The 4x6 least-total proof: 1,436 of its 3,405 leaves are deferred (else the tests above
    compare a path with itself)."""
    deferred = []
    original = verify_bound._Proof.defer

    def count(self, i, S, d, left):
        deferred.append(i)
        return original(self, i, S, d, left)

    monkeypatch.setattr(verify_bound._Proof, "defer", count)
    raw = (ROOT / "certificates" / "bounds" / "total-4x6.json.gz").read_bytes()
    report = verify_bound.verdict_bytes(raw)
    assert report.valid
    leaves = sum(set(node) == {"bound"} for node in json.loads(gzip.decompress(raw))["nodes"])
    assert len(deferred) > leaves // 3


@pytest.mark.parametrize("path", sorted((ROOT / "tests" / "data" / "bounds").glob("*/*.json")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_corpus_batched_as_unbatched(path, monkeypatch):
    raw = path.read_bytes()
    assert verdict(raw, 1, monkeypatch) == verdict(raw, 0, monkeypatch) == verdict(raw, 1 << 18, monkeypatch)


def test_mutants_batched_as_unbatched(monkeypatch):
    """Seeded mutants of small proofs (tests/bound_attack.py): raised bounds, dropped children,
    references moved... The same verdict and message leaf by leaf, in one batch, or unbatched; many
    rejected by a leaf, so the first failing node matters."""
    sources = bound_attack.load_sources(small=True)
    rejected = 0
    for k in range(400):
        _, doc, _ = bound_attack.mutant(sources, 91, k)
        raw = bound_attack.dumps(doc)
        whole = verdict(raw, 0, monkeypatch)
        assert verdict(raw, 1, monkeypatch) == whole, k
        assert verdict(raw, 1 << 18, monkeypatch) == whole, k
        rejected += whole[0] == verify_bound.EXIT_INVALID
    assert 40 < rejected < 360


def _leaf_failures():
    """The 4x4 least-total proof with one leaf's bound raised by one, for several leaves, and a
    later non-leaf node broken too: the first failing node must be named whatever the batching."""
    doc = json.loads((ROOT / "certificates" / "bounds" / "total-4x4.json").read_text())
    leaves = [i for i, node in enumerate(doc["nodes"]) if set(node) == {"bound"}]
    inner = [i for i, node in enumerate(doc["nodes"]) if i and "guesses" in node]
    out = []
    for i, j in itertools.product(leaves[::3], inner[::2]):
        mutant = json.loads(json.dumps(doc))
        mutant["nodes"][i]["bound"] += 1
        mutant["nodes"][j]["bound"] += 3
        out.append(bound_attack.dumps(mutant))
    return out


def test_the_first_failing_node_is_named_whatever_the_batching(monkeypatch):
    cases, named = _leaf_failures(), {True: 0, False: 0}
    assert len(cases) > 10
    for raw in cases:
        whole = verdict(raw, 0, monkeypatch)
        assert whole[0] == verify_bound.EXIT_INVALID
        assert verdict(raw, 1, monkeypatch) == whole
        assert verdict(raw, 1 << 18, monkeypatch) == whole
        node = json.loads(raw)["nodes"][int(whole[1].split()[1])]
        named[set(node) == {"bound"}] += 1
    assert min(named.values()) >= 3, named  # leaves named, and inner nodes after a deferred leaf


@pytest.mark.parametrize("text", ['{"bound":7}', '{"bound":0}', '{"bound": 7}', '{"bound":7 }', '{ "bound":7}',
                                  '{"bound":7,"guesses":{}}', '{"guesses":{},"bound":7}'])
def test_a_leaf_is_read_as_the_decoder_reads_it(text):
    """The reading's leaf fast path (a regular expression for {"bound":N}) gives what the JSON
    decoder gives, and nodes spelled otherwise take the decoder."""
    full = f'[{text},{text}]'.encode()
    got = list(verify_bound._spans(full, 0)[0])
    assert got == [json.loads(text)] * 2
    game = verify_bound.Game(2, 2, True)
    assert list(verify_bound._node_stream(got, 2, game)) == [(7 if "7" in text else 0, {}, ())] * 2
