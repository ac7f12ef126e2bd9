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
from .space import Space, inverse

#: Colour maps tried per peg permutation before giving up on it.
MAX_TRIES = 24


#: Entries (8 bytes each) of the table of a frontier's images that perms_to_rep builds at once.
MET = 1 << 18

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
        for sigma in self.peg_perms:
            # tau(a) = b needs colour b on peg sigma(i) as often as a on peg i (fits[a, b]); a
            # itself first, then the others in order.
            fits = (sig[None, :, list(sigma)] == sig[:, None, :]).all(axis=2)
            if not fits.any(axis=1).all():
                continue
            options = [([a] if row[a] else []) + [b for b in range(c) if row[b] and b != a]
                       for a, row in enumerate(fits.tolist())]
            tau = self._colour_map(sigma, options, cands, mask, digits)
            if tau is not None:
                perm = (sigma, tau)
                gens.append((perm, sp.image(*perm)))
                inv = inverse(perm)
                if inv != perm:
                    gens.append((inv, sp.image(*inv)))
        return gens

    def _colour_map(self, sigma, options, cands, mask, digits):
        """A colour permutation tau, among the options per colour, with (sigma, tau)(S) = S
        (at most MAX_TRIES complete maps are checked). ``digits``: the set's codes' digits (a map
        is checked on the set's images alone, not on every code's)."""
        sp = self.space
        c = sp.colors
        tau = [0] * c
        used = [False] * c
        tries = [0]
        pegs = list(sigma)
        moved = np.empty_like(digits)

        def extend(a):
            if a == c:
                tries[0] += 1
                moved[:, pegs] = np.asarray(tau, dtype=np.uint8)[digits]  # as Space.image moves them
                return mask[sp.index_of(moved)].all()
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
        todo = np.unique(np.asarray(wanted, dtype=np.int64))
        todo = todo[rep[todo] != todo]
        if not len(todo):
            return {}
        # Breadth first from the representatives: P_y = P_x . g^-1 for y = g(x), the first path
        # met giving y's P. A level at once (numpy), in the order a walk code by code meets them
        # (frontier order, then generator order): the very permutations it found.
        inverses = [inverse(perm) for perm, _ in gens]
        inv_s = np.array([s for s, _ in inverses], dtype=np.int64).reshape(len(gens), sp.pegs)
        inv_t = np.array([t for _, t in inverses], dtype=np.int64).reshape(len(gens), sp.colors)
        sig = np.zeros((sp.n, sp.pegs), dtype=np.int64)
        tau = np.zeros((sp.n, sp.colors), dtype=np.int64)
        known = np.zeros(sp.n, dtype=bool)
        wanted_ = np.zeros(sp.n, dtype=bool)
        wanted_[todo] = True
        frontier = np.unique(rep[todo])
        known[frontier] = True
        sig[frontier] = np.arange(sp.pegs)
        tau[frontier] = np.arange(sp.colors)
        left = len(todo)
        # (a level in chunks of frontier codes: frontier x generators stays within MET entries)
        step = max(1, MET // max(1, len(gens)))
        while left and len(frontier) and len(gens):
            level = []
            for c0 in range(0, len(frontier), step):
                part = frontier[c0:c0 + step]
                met = np.empty((len(part), len(gens)), dtype=np.int64)
                for j, (_, image) in enumerate(gens):  # (not stacked: the generators' images are n each)
                    met[:, j] = image[part]
                met = met.reshape(-1)  # x by x, each x's images in generator order
                fresh = np.flatnonzero(~known[met])
                _, first = np.unique(met[fresh], return_index=True)
                at = fresh[np.sort(first)]  # the first meeting of each new code, in meeting order
                new = met[at]
                src, g = part[at // len(gens)], at % len(gens)
                known[new] = True
                sig[new] = np.take_along_axis(sig[src], inv_s[g], axis=1)
                tau[new] = np.take_along_axis(tau[src], inv_t[g], axis=1)
                left -= int(wanted_[new].sum())
                level.append(new)
            frontier = np.concatenate(level)
        if left:  # pragma: no cover - the orbits come from the same generators
            raise AssertionError("orbit without a path to its representative")
        s_rows, t_rows = sig[todo].tolist(), tau[todo].tolist()
        return {x: (tuple(s_rows[i]), tuple(t_rows[i])) for i, x in enumerate(todo.tolist())}
