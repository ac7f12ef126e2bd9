"""Which guesses are alike at a node: orbits under permutations that fix the candidates.

The search needs one guess per orbit of the candidate set's stabilizer (a permutation P of
pegs and colours with P(S) = S maps the split by g onto the split by P(g)); the proof needs,
for every other guess x, a P with P(S) = S and P(x) = its orbit's representative (the
lowest code), which the checker verifies. Only *generators* of (part of) the stabilizer are
found, from S alone (so a node is treated the same however it is reached):

- colour transpositions (a b) that fix S (free colours, colours absent from S, ...);
- for each permutation of the pegs (up to 7 pegs; beyond, each transposition of two pegs),
  one colour permutation that goes with it, if any is found: colours are matched by how often they sit on each peg of S, then the whole map is
  checked on S (a bounded back-tracking).

Missing part of the stabilizer costs speed only, never soundness: every permutation used is
checked on S here, and again by the checker.
"""

from __future__ import annotations

import itertools

import numpy as np

from .kernel import partition_hashes, same_partitions
from .space import Space, compose, inverse

#: Colour maps tried per peg permutation before giving up on it.
MAX_TRIES = 24


#: Up to this many pegs every peg permutation is tried for the stabilizer of a set (7! = 5,040).
MAX_ALL_PEG_PERMS = 7


def peg_permutations(pegs: int, every_up_to: int = MAX_ALL_PEG_PERMS) -> list:
    """The peg permutations tried for a set's stabilizer, identity left out: every one up to
    ``every_up_to`` pegs; beyond, p! is too many to try at every set (8! = 40,320; 12! tuples do
    not fit in 24 GB), so the transpositions of two pegs, which generate a part of the stabilizer
    only (its orbits are finer: still one guess of each kept, a few alike guesses searched twice)."""
    if pegs <= every_up_to:
        return [tuple(s) for s in itertools.permutations(range(pegs))][1:]
    out = []
    for i, j in itertools.combinations(range(pegs), 2):
        sigma = list(range(pegs))
        sigma[i], sigma[j] = j, i
        out.append(tuple(sigma))
    return out


class Alike:
    """Stabilizer generators and orbits of guesses for candidate sets of one game."""

    def __init__(self, space: Space) -> None:
        self.space = space
        p, c = space.pegs, space.colors
        ident = tuple(range(p))
        self.swaps = []  # (perm, index map) of every colour transposition
        for a, b in itertools.combinations(range(c), 2):
            tau = list(range(c))
            tau[a], tau[b] = b, a
            perm = (ident, tuple(tau))
            self.swaps.append((a, b, perm, space.image(*perm)))
        self.peg_perms = peg_permutations(p)
        self._every = np.arange(space.n)

    def representatives(self, cands):
        """(guesses to search, generators, orbit representatives, identical-split map).

        Guesses: the orbit representatives (lowest code of each orbit), less those whose split
        equals an earlier one's (the same classes, the win class the same too); ``same[x]``
        names, for a representative x, the searched guess with x's very split (-1 elsewhere)."""
        sp = self.space
        gens = self.generators(cands)
        rep = self.orbits(gens)
        reps = np.flatnonzero(rep == self._every)
        hashes = partition_hashes(sp.fb, reps, cands, sp.n_fb, sp.win)
        # Guesses with equal hashes: the first (lowest) stands for the others once their splits
        # are compared in full (a hash collision only keeps both).
        _, first, inverse = np.unique(hashes, return_index=True, return_inverse=True)
        leader = reps[first[inverse.reshape(-1)]]
        dup = np.flatnonzero(leader != reps)
        ok = same_partitions(sp.fb, reps[dup], leader[dup], cands, sp.n_fb, sp.win)
        leader[dup[~ok]] = reps[dup[~ok]]
        same = np.full(sp.n, -1, dtype=np.int64)
        same[reps] = leader
        keep = reps[leader == reps]
        return keep.astype(np.int64), gens, rep, same

    def generators(self, cands: np.ndarray) -> list:
        """[(perm, index map)] generating part of the stabilizer of the set, with inverses."""
        sp = self.space
        mask = np.zeros(sp.n, dtype=bool)
        mask[cands] = True
        gens = []
        c = sp.colors
        parent = list(range(c))  # colours linked by a transposition found

        def find(a):
            while parent[a] != a:
                a = parent[a]
            return a

        for a, b, perm, image in self.swaps:
            if find(a) != find(b) and mask[image[cands]].all():
                gens.append((perm, image))
                parent[find(b)] = find(a)
        digits = sp.digits[cands]
        sig = np.zeros((c, sp.pegs), dtype=np.int64)  # sig[a, i]: candidates with colour a at peg i
        for i in range(sp.pegs):
            sig[:, i] = np.bincount(digits[:, i], minlength=c)
        rows = [sig[a].tobytes() for a in range(c)]
        for sigma in self.peg_perms:
            moved = [sig[b, list(sigma)].tobytes() for b in range(c)]
            # tau(a) = b needs colour b on peg sigma(i) as often as a on peg i; a itself first.
            options = [sorted((b for b in range(c) if moved[b] == rows[a]), key=lambda b: b != a)
                       for a in range(c)]
            if any(not o for o in options):
                continue
            tau = self._colour_map(sigma, options, cands, mask)
            if tau is not None:
                perm = (sigma, tau)
                gens.append((perm, sp.image(*perm)))
                inv = inverse(perm)
                if inv != perm:
                    gens.append((inv, sp.image(*inv)))
        return gens

    def _colour_map(self, sigma, options, cands, mask):
        """A colour permutation tau, among the options per colour, with (sigma, tau)(S) = S
        (at most MAX_TRIES complete maps are checked)."""
        sp = self.space
        c = sp.colors
        tau = [0] * c
        used = [False] * c
        tries = [0]

        def extend(a):
            if a == c:
                tries[0] += 1
                return mask[sp.image(sigma, tau)[cands]].all()
            for b in options[a]:
                if not used[b]:
                    tau[a], used[b] = b, True
                    if extend(a + 1):
                        return True
                    used[b] = False
                    if tries[0] >= MAX_TRIES:
                        return False
            return False

        return tuple(tau) if extend(0) else None

    def orbits(self, gens) -> np.ndarray:
        """rep[x]: the lowest code of x's orbit under the generators."""
        n = self.space.n
        rep = np.arange(n)
        if not gens:
            return rep
        while True:
            new = rep
            for _, image in gens:
                new = np.minimum(new, new[image])
            new = new[new]
            if np.array_equal(new, rep):
                return rep
            rep = new

    def perms_to_rep(self, gens, rep: np.ndarray, wanted) -> dict:
        """{x: P} with P(S) = S and P(x) = rep[x], for each x of ``wanted``."""
        sp = self.space
        ident = (tuple(range(sp.pegs)), tuple(range(sp.colors)))
        todo = set(int(x) for x in wanted if rep[x] != x)
        out = {}
        if not todo:
            return out
        # Breadth first from the representatives: P_y = P_x . g^-1 for y = g(x).
        known = {int(r): ident for r in set(int(rep[x]) for x in todo)}
        frontier = sorted(known)
        inverses = [(inverse(perm), image) for perm, image in gens]
        while todo and frontier:
            nxt = []
            for x in frontier:
                px = known[x]
                for inv, image in inverses:
                    y = int(image[x])
                    if y not in known:
                        known[y] = compose(px, inv)
                        nxt.append(y)
                        if y in todo:
                            out[y] = known[y]
                            todo.discard(y)
            frontier = nxt
        if todo:  # pragma: no cover - the orbits come from the same generators
            raise AssertionError("orbit without a path to its representative")
        return out
