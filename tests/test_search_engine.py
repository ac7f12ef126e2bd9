"""The compiled least-total search (certify/search/engine.py) against the plain brute force.

The engine alone from the root (every level compiled), with its symmetry on at every size
and off, with and without a guess limit: the optimum must be the plain one, fail-soft
answers must be bounds on the right side, and the proofs it writes must pass the checker.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from certify import verify, verify_bound
from certify.certificate import dumps as strategy_bytes
from certify.game import Game
from certify.search.counting import Counting
from certify.search.engine import INF, Engine, orbit_reps, stabilizer
from certify.search.proof import dumps
from certify.search.space import Space
from certify.search.total import TotalSearch

from test_search_plain import SMALL, plain_optima

plain_optima = lru_cache(maxsize=None)(plain_optima)  # noqa: F811 - shared between parameters
#: Small games (a second or two with the plain search), plus 4x4 without repetition.
GAMES = SMALL + [(4, 4, False)]
#: Goddard (2004): 3x4 has least total 206 (mean 3.219); too slow for the plain search here.
GODDARD_3X4 = 206


def engine(game, nsym):
    e = Engine(Space(game), Counting(game.pegs, game.colors, game.repetition))
    e.nsym = nsym
    return e


@pytest.mark.parametrize("nsym", [0, 10**6])  # the whole stabilizer at every node, or colours only
@pytest.mark.parametrize("pegs,colors,repetition", GAMES)
def test_engine_optimum_is_the_plain_one(pegs, colors, repetition, nsym):
    game = Game(pegs, colors, repetition)
    worst, total, _ = plain_optima(pegs, colors, repetition)
    every = np.arange(game.size, dtype=np.int64)
    assert engine(game, nsym).solve(every, None, INF) == total
    for limit in (worst, worst + 1):
        within = plain_optima(pegs, colors, repetition, limit)[2]
        assert engine(game, nsym).solve(every, limit, INF) == within
    assert engine(game, nsym).solve(every, worst - 1, INF) >= INF  # no strategy fits


@pytest.mark.parametrize("pegs,colors,repetition", [(3, 3, True), (2, 5, True), (3, 4, False)])
def test_fail_soft_answers_bound_the_optimum(pegs, colors, repetition):
    """Below the optimum, solve(beta) answers a bound in [beta, optimum]; above, the optimum;
    a fresh engine and one that remembers earlier windows agree."""
    game = Game(pegs, colors, repetition)
    total = plain_optima(pegs, colors, repetition)[1]
    every = np.arange(game.size, dtype=np.int64)
    shared = engine(game, 0)
    for beta in range(total - 6, total + 3):
        for e in (engine(game, 0), shared):
            v = e.solve(every, None, beta)
            if beta > total:
                assert v == total
            else:
                assert beta <= v <= total


@pytest.mark.parametrize("nsym", [0, 10**6])  # same_as by the whole stabilizer, or colour blocks only
@pytest.mark.parametrize("pegs,colors,repetition,limit", [(3, 3, True, None), (3, 3, True, 4),
                                                          (4, 4, False, None), (4, 4, False, 5),
                                                          (2, 5, True, 4), (3, 4, True, None)])
def test_all_compiled_proofs_pass_the_checker(pegs, colors, repetition, limit, nsym):
    """Every node compiled (top = 0): the proof comes from node_entries alone."""
    game = Game(pegs, colors, repetition)
    search = TotalSearch(game, limit)
    search.top = 0
    search.engine.nsym = nsym
    value = search.solve()
    if (pegs, colors) == (3, 4):
        assert value == GODDARD_3X4
    else:
        assert value == plain_optima(pegs, colors, repetition, limit)[2 if limit else 1]
    proof = search.prove()
    report = verify_bound.check_bytes(dumps(proof))
    assert report.valid, report.line()
    same = [e["perm"] for node in proof["nodes"] for e in node.get("guesses", {}).values() if "same_as" in e]
    moved = [p for p in same if p["pegs"] != sorted(p["pegs"])]
    if (pegs, colors, nsym) == (3, 4, 0):  # the checker saw peg permutations from the engine
        assert moved
    if nsym:  # colour blocks only: the nodes list them, and no guess needs a same_as
        assert not same
        assert any("interchangeable" in node for node in proof["nodes"])
    checked = verify.verify_bytes(strategy_bytes(search.strategy_certificate()))
    assert checked.valid and checked.claims["total_guesses"] == value


@pytest.mark.parametrize("pegs,colors,repetition", [(4, 4, True), (3, 5, False), (4, 6, True)])
def test_stabilizer_generators_fix_the_set(pegs, colors, repetition):
    """Every generator found maps S onto itself, on sets made symmetric on purpose (the
    classes of a guess) and on random ones."""
    game = Game(pegs, colors, repetition)
    e = engine(game, 0)
    sp = e.space
    rng = np.random.default_rng(7)
    sets = [np.flatnonzero(sp.fb[g] == f) for g in (0, 1, game.size - 1) for f in range(sp.n_fb)]
    sets += [np.sort(rng.choice(game.size, size=k, replace=False)) for k in (3, 8, 30)]
    found = 0
    for cands in sets:
        if len(cands) < 2:
            continue
        cands = cands.astype(np.int64)
        blk = np.arange(colors)
        gsig, gtau = stabilizer(cands, e.mask, e.digits, colors, e.pperms, e.pows, e.vindex, blk)
        rep, img = orbit_reps(gsig, gtau, e.digits, e.pows, e.vindex)
        inside = set(cands.tolist())
        for k in range(len(gsig)):
            assert set(img[k][cands].tolist()) == inside
            found += 1
        assert (rep <= np.arange(game.size)).all() and (rep[rep] == rep).all()
    assert found > 0  # the classes of 0000-like guesses are symmetric: something was found


@pytest.mark.parametrize("pegs,colors,repetition,limit", [(3, 3, True, None), (3, 3, True, 4), (4, 4, False, 5),
                                                          (2, 5, True, 4), (3, 4, True, None)])
def test_python_top_levels_agree_with_the_compiled_search(pegs, colors, repetition, limit):
    """The default search is compiled from the root (top = 0); the Python levels (whole
    stabilizer, :mod:`.symmetry`) above depth 2 must give the same least total, a proof the
    checker accepts and a strategy that reaches it."""
    game = Game(pegs, colors, repetition)
    compiled = TotalSearch(game, limit)
    assert compiled.top == 0
    value = compiled.solve()
    python = TotalSearch(game, limit)
    python.top = 2
    assert python.solve() == value and python.py_nodes > 0
    report = verify_bound.check_bytes(dumps(python.prove()))
    assert report.valid, report.line()
    checked = verify.verify_bytes(strategy_bytes(python.strategy_certificate()))
    assert checked.valid and checked.claims["total_guesses"] == value
