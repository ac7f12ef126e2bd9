"""Shared sub-proofs: the proof writer refers to a node through a permutation when a set it needs
is the image of a node's set (docs/lower-bound-format.md, "Candidate sets"). The map is searched
by the writer (kernel.find_map) and checked by the checker: a wrong map costs validity, a missed
one only size."""

from __future__ import annotations

import itertools
import random

import numpy as np
import orjson
import pytest

import bound_reference as ref
from certify import verify_bound
from certify.game import Game
from certify.search import exact, proof
from certify.search.kernel import find_map, set_hashes
from certify.search.proof import ProofWriter, dumps
from certify.search.space import Space

GAMES = [(3, 3, True), (4, 4, True), (4, 6, False), (3, 5, True), (5, 3, True)]


def _random_perm(rng, p, c):
    sigma, tau = list(range(p)), list(range(c))
    rng.shuffle(sigma)
    rng.shuffle(tau)
    return tuple(sigma), tuple(tau)


def _image(space, perm, S):
    return np.sort(space.image(*perm)[S])


@pytest.mark.parametrize("pegs,colors,rep", GAMES)
def test_find_map_finds_images_and_only_true_maps(pegs, colors, rep):
    space = Space(Game(pegs, colors, rep))
    writer = ProofWriter(space, {})
    rng = random.Random(pegs * 100 + colors)
    found = tried = 0
    for _ in range(300):
        size = rng.randint(1, min(40, space.n))
        S = np.sort(np.array(rng.sample(range(space.n), size), dtype=np.int64))
        T = _image(space, _random_perm(rng, pegs, colors), S)
        # An image has the same hash, and a map is found; a set one code off may be an image
        # too (small sets, small games): any map found for it must be true.
        h = writer.hashes(np.concatenate([S, T]), np.array([0, size]), np.array([size, size]))
        assert h[0] == h[1] != 0
        for target, image in ((T, True), (_off_by_one(rng, space, T), False)):
            if target is None:
                continue
            out = np.zeros(pegs + colors, dtype=np.int64)
            ok = find_map(S, target, writer._digits, colors, writer._perms, space.pows,
                          space.vindex, writer._mark, out)
            assert not writer._mark.any()  # left all False, as the writer needs it
            if ok:  # whatever it says, a map it gives is one
                perm = (tuple(out[:pegs].tolist()), tuple(out[pegs:].tolist()))
                assert sorted(perm[0]) == list(range(pegs)) and sorted(perm[1]) == list(range(colors))
                assert np.array_equal(_image(space, perm, S), target)
            if image:
                tried += 1
                found += ok
    assert found >= 0.95 * tried  # (a map may be missed after MAP_TRIES colour maps)


def _off_by_one(rng, space, T):
    """T with one code swapped for one outside it (same size), or None if T is every code."""
    outside = np.setdiff1d(np.arange(space.n), T)
    if not len(outside):
        return None
    U = T.copy()
    U[rng.randrange(len(U))] = outside[rng.randrange(len(outside))]
    return np.sort(U)


def test_set_hashes_skip_big_sets_and_tell_sizes_apart():
    space = Space(Game(3, 3, True))
    every = np.arange(space.n, dtype=np.int64)
    h = set_hashes(space.fb, every, np.array([0, 0, 0]), np.array([3, 4, 27]), space.n_fb, 10)
    assert h[2] == 0 and h[0] != h[1] and h[0] and h[1]


def _proof(kind, pegs, colors, rep, limit, monkeypatch, share) -> dict:
    if not share:
        monkeypatch.setattr(proof, "SHARE_CAP", 0)  # no set is small enough to be shared
    game = Game(pegs, colors, rep)
    result = exact.worst_case(game) if kind == "worst" else exact.total(game, limit)
    monkeypatch.undo()
    return orjson.loads(dumps(result.proof))


def _permuted_refs(doc) -> list:
    """(node, guess, key) of every permuted reference to a node."""
    return [(i, g, key) for i, node in enumerate(doc["nodes"])
            for g, entry in node.get("guesses", {}).items() if "same_as" not in entry
            for key, r in entry.items() if isinstance(r, dict)]


#: Games whose proofs share sub-proofs (the committed ones: 17, 4, 2, 21 and 11 references).
SHARED = [("total", 2, 8, True, None), ("total", 4, 4, False, None), ("total", 2, 7, True, 5),
          ("worst", 4, 7, False, None), ("total", 4, 6, True, None)]


@pytest.mark.parametrize("kind,pegs,colors,rep,limit", SHARED)
def test_shared_proofs_are_smaller_and_accepted_by_both_checkers(kind, pegs, colors, rep, limit, monkeypatch):
    shared = _proof(kind, pegs, colors, rep, limit, monkeypatch, True)
    plain = _proof(kind, pegs, colors, rep, limit, monkeypatch, False)
    assert shared["claims"] == plain["claims"]
    assert not _permuted_refs(plain)
    assert _permuted_refs(shared)
    assert len(shared["nodes"]) < len(plain["nodes"])
    for doc in (shared, plain):
        raw = orjson.dumps(doc)
        assert verify_bound.check_bytes(raw).valid
        if kind == "total" and len(doc["nodes"]) < 1000:  # (pure Python: 10 s on 4x7's worst case)
            assert ref.check(raw).valid


@pytest.mark.parametrize("kind,pegs,colors,rep,limit", SHARED[:3])
def test_a_wrong_permutation_in_a_shared_reference_is_refused(kind, pegs, colors, rep, limit, monkeypatch):
    """Each permuted reference given another colour map (two colours of tau swapped), or
    another peg map: the checker refuses what the reference checker refuses, and accepts only
    what it accepts (a swap of colours the set does not use still maps it right)."""
    doc = _proof(kind, pegs, colors, rep, limit, monkeypatch, True)
    refused = 0
    for i, g, key in _permuted_refs(doc):
        for what, a, b in (("colors", 0, 1), ("colors", 1, colors - 1), ("pegs", 0, pegs - 1)):
            bad = orjson.loads(orjson.dumps(doc))
            moved = bad["nodes"][i]["guesses"][g][key]["perm"][what]
            moved[a], moved[b] = moved[b], moved[a]
            raw = orjson.dumps(bad)
            mine, theirs = verify_bound.check_bytes(raw), ref.check(raw)
            assert mine.valid == theirs.valid
            refused += not mine.valid
    assert refused >= len(_permuted_refs(doc))


def test_every_peg_and_colour_permutation_is_tried():
    """A set whose only images need a peg permutation and a colour permutation at once."""
    space = Space(Game(4, 4, True))
    writer = ProofWriter(space, {})
    codes = {t: i for i, t in enumerate(space.texts)}
    S = np.array(sorted(codes[t] for t in ("0012", "0112", "3012")), dtype=np.int64)
    for sigma in itertools.permutations(range(4)):
        perm = (sigma, (2, 0, 3, 1))
        T = _image(space, perm, S)
        out = np.zeros(8, dtype=np.int64)
        assert find_map(S, T, writer._digits, 4, writer._perms, space.pows, space.vindex,
                        writer._mark, out)
        got = (tuple(out[:4].tolist()), tuple(out[4:].tolist()))
        assert np.array_equal(_image(space, got, S), T)
