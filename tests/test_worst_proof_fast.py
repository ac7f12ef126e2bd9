"""The worst-case proof writer's shortcuts agree with the plain computations they replace: the
compiled scan for nodes without entries, the level-at-a-time permutations to the representatives,
and whole proofs written the way the writer wrote them before (the search again at every node, the
representatives twice, every code's split)."""

from __future__ import annotations

import numpy as np
import pytest

from certify.game import Game
from certify.search.kernel import class_sizes, split_within
from certify.search.proof import ProofWriter, dumps
from certify.search.space import Space, compose, inverse
from certify.search import symmetry
from certify.search.symmetry import Alike
from certify.search.worst import WorstSearch

GAMES = [Game(3, 4, True), Game(4, 4, True), Game(3, 5, False), Game(4, 5, False), Game(2, 6, True),
         Game(3, 4, True, feedback="black-only")]


def _sets(space, rng, count):
    """Random sets of every size, and sets with symmetry (a colour left out, a peg fixed)."""
    out = []
    for t in range(count):
        if t % 3:
            out.append(np.sort(rng.choice(space.n, int(rng.integers(1, space.n)), replace=False)))
        else:
            keep = (space.digits[:, 0] != t % space.colors) | (space.digits[:, -1] == 1)
            out.append(np.flatnonzero(keep))
    return [s.astype(np.int64) for s in out if len(s)]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.slug)
def test_split_within_is_every_codes_biggest_class(game):
    sp, rng = Space(game), np.random.default_rng(7)
    every = np.arange(sp.n, dtype=np.int64)
    for cands in _sets(sp, rng, 30):
        sizes = class_sizes(sp.fb, every, cands, sp.n_fb)
        sizes[:, sp.win] = 0
        biggest = sizes.max(axis=1)
        for limit in sorted({0, 1, 2, 3, int(biggest.min()) - 1, int(biggest.min()), len(cands)} - {-1}):
            want = bool((biggest <= limit).any())
            assert split_within(sp.fb, cands, sp.n_fb, sp.win, limit) == want, (len(cands), limit)


def _walk(alike, gens, rep, wanted):
    """perms_to_rep as it was: a breadth-first walk code by code."""
    sp = alike.space
    ident = (tuple(range(sp.pegs)), tuple(range(sp.colors)))
    todo = set(int(x) for x in wanted if rep[x] != x)
    out, known = {}, {int(r): ident for r in set(int(rep[x]) for x in todo)}
    frontier = sorted(known)
    inverses = [(inverse(perm), image) for perm, image in gens]
    while todo and frontier:
        nxt = []
        for x in frontier:
            for inv, image in inverses:
                y = int(image[x])
                if y not in known:
                    known[y] = compose(known[x], inv)
                    nxt.append(y)
                    if y in todo:
                        out[y] = known[y]
                        todo.discard(y)
        frontier = nxt
    return out


@pytest.mark.parametrize("met", [None, 5], ids=["one-chunk", "chunks-of-5"])
@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.slug)
def test_perms_to_rep_are_the_code_by_code_walks(game, met, monkeypatch):
    if met is not None:  # a level met in many chunks: the same order
        monkeypatch.setattr(symmetry, "MET", met)
    sp, rng = Space(game), np.random.default_rng(11)
    alike = Alike(sp)
    mapped = 0
    for cands in _sets(sp, rng, 24):
        _, gens, rep, _ = alike.representatives(cands)
        wanted = np.flatnonzero(rng.random(sp.n) < 0.7)
        got = alike.perms_to_rep(gens, rep, wanted)
        assert got == _walk(alike, gens, rep, wanted)
        inside = np.zeros(sp.n, dtype=bool)
        inside[cands] = True
        for x, perm in got.items():  # each one fixes the set and maps x to its representative
            image = sp.image(*perm)
            assert image[x] == rep[x] and inside[image[cands]].all()
        mapped += len(got)
    assert mapped > 0  # some sets had symmetry


def _old_node_guesses(search, cands, k, writer):
    """WorstSearch._node_guesses before the shortcuts: the node searched again, its
    representatives computed twice, every code's split."""
    sp = search.space
    n = len(cands)
    if k <= 2 or n > search.count.N(k - 1) or k == 3:
        return {}
    # the node searched again, every class's answer in the memo (the old WorstSearch.choices)
    assert search.memo.get(search._key(cands, k)) is True
    choices = search._search(cands, k)
    assert choices is not None
    guesses, gens, rep, same = search.representatives(cands)
    sizes = class_sizes(sp.fb, search._every, cands, sp.n_fb)
    sizes[:, sp.win] = 0
    open_ = np.flatnonzero(sizes.max(axis=1) <= search.count.N(k - 2))
    # the scan the writer now runs first says whether there is any entry at all
    assert split_within(sp.fb, cands, sp.n_fb, sp.win, search.count.N(k - 2)) == (len(open_) > 0)
    perms = _walk(search.alike, gens, rep, open_)
    out = {}
    for x in open_.tolist():
        r = int(rep[x])
        if r != x:
            out[sp.texts[x]] = {"same_as": sp.texts[r], "perm": writer.perm_json(perms[x])}
            continue
        y = same[x]
        child = cands[sp.fb[y][cands] == choices[y]]
        out[sp.texts[x]] = {sp.keys[int(sp.fb[x][child[0]])]: writer.ref(child, k - 1)}
    return out


@pytest.mark.parametrize("game", [Game(3, 4, True), Game(4, 4, True), Game(4, 5, False), Game(3, 6, True),
                                  Game(4, 4, True, feedback="black-only")], ids=lambda g: g.slug)
def test_proofs_are_those_the_old_writer_wrote(game):
    search = WorstSearch(game)
    d = search.count.worst(game.size)
    while search.needs(search._every, d + 1):
        d += 1
    writer = ProofWriter(search.space, {"worst_case": d})
    writer.root(search._every, d)
    while writer.pending:
        cands, bound = writer.next_pending()
        writer.fill(_old_node_guesses(search, cands, bound, writer))
    assert dumps(search.prove(d)) == dumps(writer.document())


@pytest.mark.parametrize("game", [Game(3, 4, True), Game(4, 4, True), Game(3, 5, True), Game(4, 5, False),
                                  Game(3, 6, True)], ids=lambda g: g.slug)
def test_nodes_at_the_counting_edge_get_the_old_entries(game):
    """Proven nodes where the best code's biggest class is exactly N(k - 2), the limit at which
    counting settles a guess: the compiled scan that skips nodes without entries must keep them
    (a limit one off there was caught by no whole proof of the small games)."""
    search, rng = WorstSearch(game), np.random.default_rng(11)
    sp = search.space
    every = np.arange(sp.n, dtype=np.int64)
    edges = 0
    for cands in _sets(sp, rng, 120):
        sizes = class_sizes(sp.fb, every, cands, sp.n_fb)
        sizes[:, sp.win] = 0
        least = int(sizes.max(axis=1).min())
        for k in range(4, 8):
            if search.count.N(k - 2) != least or len(cands) > search.count.N(k - 1) or not search.needs(cands, k):
                continue
            edges += 1
            got = []
            for write in (search._node_guesses, lambda c, b, w: _old_node_guesses(search, c, b, w)):
                writer = ProofWriter(sp, {"worst_case": k})
                writer.root(cands, k)
                writer.next_pending()
                got.append((write(cands, k, writer), list(writer.pending), writer.keys))
            assert got[0][0] and got[0][0] == got[1][0], (len(cands), k)
            assert got[0][1:] == got[1][1:]  # the same children, queued in the same order
    assert edges > 0
