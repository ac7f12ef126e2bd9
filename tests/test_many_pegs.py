"""Games of more than 7 pegs (8x2 .. 13x2 in the atlas): the symmetry tries the 28 transpositions
of two pegs, not the 40,320 permutations of 8 (which made one set cost seconds), and what it finds
still holds: generators fix their sets, and the proof and strategy the search writes pass the
checkers."""

from __future__ import annotations

import numpy as np

from certify import verify, verify_bound
from certify.game import Game
from certify.search.proof import dumps as proof_bytes
from certify.search.space import Space
from certify.search.symmetry import MAX_ALL_PEG_PERMS, Alike
from certify.search.worst import WorstSearch


def test_past_seven_pegs_only_the_transpositions_are_tried():
    assert MAX_ALL_PEG_PERMS == 7
    assert len(Alike(Space(Game(7, 2))).peg_perms) == 5040 - 1
    perms = Alike(Space(Game(8, 2))).peg_perms
    assert len(perms) == 28 and all(sum(a != b for a, b in enumerate(s)) == 2 for s in perms)


def test_the_generators_found_fix_their_sets_and_8x2_needs_6():
    game = Game(8, 2)
    search = WorstSearch(game)
    sp, rng = search.space, np.random.default_rng(3)
    sets = [np.flatnonzero(sp.fb[g] == f) for g in (0, 3, 15) for f in range(sp.n_fb)]
    sets += [np.sort(rng.choice(game.size, size=k, replace=False)) for k in (5, 40)]
    found = 0
    for cands in sets:
        cands = cands.astype(np.int64)
        for perm, image in search.alike.generators(cands):
            assert set(image[cands].tolist()) == set(cands.tolist())
            found += 1
    assert found > 0
    proof = search.prove(6)  # the least worst case (the atlas's proof and strategy say both)
    report = verify_bound.check_bytes(proof_bytes(proof))
    assert report.valid and report.claims == {"worst_case": 6}
    assert not search.needs(search._every, 7)
    from certify.certificate import dumps

    assert verify.verify_bytes(dumps(search.strategy_certificate(6))).claims["max_guesses"] == 6


def test_past_nine_pegs_the_proof_writer_tries_the_transpositions():
    """The proof writer tries every peg permutation to share a set with an alike one: 10! of them
    for each candidate made 10x2's proof take longer than its search. Past 9 pegs it tries the
    identity and the transpositions (fewer sets shared, the same verdicts); 8x2's sharing,
    committed in the atlas, is unchanged."""
    import math

    from certify.search.proof import SHARE_PEGS, ProofWriter

    assert SHARE_PEGS == 9
    assert ProofWriter(Space(Game(9, 2)), {"worst_case": 6})._perms.shape == (math.factorial(9), 9)
    perms = ProofWriter(Space(Game(10, 2)), {"worst_case": 7})._perms
    assert perms.shape == (1 + 45, 10) and list(perms[0]) == list(range(10))
    assert all(sorted(p) == list(range(10)) and sum(a != b for a, b in zip(p, range(10))) in (0, 2) for p in perms.tolist())
    assert len({tuple(p) for p in perms.tolist()}) == 46
