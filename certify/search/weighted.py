"""Exact weighted best response for small games (issue 23, the game value).

Given an integer weight w(s) >= 0 for every code (constant on the orbits of the group G of peg
permutations x colour permutations), find the least, over every deterministic strategy (any code
of the game may be guessed), of sum_s w(s) * guesses(s). Only the secrets of positive weight
matter: the codebreaker knows the secret is in the support.

Plain memoised recursion over candidate sets held as bitmasks (Python ints: bit i = code i in code
order), every code of the game tried as a guess, guesses with identical partitions merged, and a
fail-soft branch and bound whose lower bound is the weighted counting bound countW (the secrets'
weights in decreasing order at the greedy depths 1, 2 (b times), 3 (b^2 times)...; b = the number
of non-winning feedbacks, as the lower-bound checker computes it). At the root, whose set is a
union of orbits with orbit-constant weights, only the lowest code of each orbit is tried (every
other code is the image of one of them under a permutation that fixes the set and the weights).

It also writes what the trusted checkers read: the optimal tree (the strategy certificates' tree
shape, ``{"guess": ..., "next": {"B,W": ...}}``) and the weighted lower-bound proof
(docs/lower-bound-format.md, claims ``{"total": T, "weights": {...}}``).

For games of at most about a hundred codes: sets are Python ints, partitions are cached per set.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
INF = float("inf")
#: Partitions are cached for this many sets at most (then the cache is emptied).
PARTITION_CACHE = 400_000

__all__ = ["Space", "Solver", "orbit_key", "count_weighted", "write_proof", "tree_depths"]


def orbit_key(code: str) -> tuple:
    """The G-orbit of a code: its colour multiplicities in decreasing order (two codes are images
    of each other under a peg and a colour permutation exactly when these agree)."""
    return tuple(sorted(Counter(code).values(), reverse=True))


def _feedback(g: str, s: str, black_only: bool = False) -> tuple[int, int]:
    black = sum(a == b for a, b in zip(g, s))
    if black_only:  # black-peg Mastermind: the answer is the black pegs alone
        return black, 0
    common = sum(min(g.count(c), s.count(c)) for c in set(g))
    return black, common - black


def non_winning_feedbacks(pegs: int, colors: int, repetition: bool, black_only: bool = False) -> int:
    """b, as the lower-bound checker counts it (docs/lower-bound-format.md, "Counting bounds"):
    under the black-only rule 0 .. pegs - 1 black pegs."""
    if black_only:
        return pegs
    low = 0 if repetition else max(0, 2 * pegs - colors)
    pairs = [(b, w) for b in range(pegs + 1) for w in range(pegs + 1 - b) if low <= b + w <= pegs]
    return sum(1 for p in pairs if p != (pegs - 1, 1) and p != (pegs, 0))


def count_weighted(b: int, pairs) -> int:
    """countW: ``pairs`` = [(weight, how many)] in decreasing order of weight; the weights at the
    greedy depths (1 secret at depth 1, b at depth 2, b^2 at depth 3, ...)."""
    total, depth, room = 0, 1, 1
    for w, c in pairs:
        while c:
            take = c if c < room else room
            total += w * depth * take
            c -= take
            room -= take
            if not room:
                depth += 1
                room = b ** (depth - 1)
    return total


class Space:
    """The codes of a game, their feedback masks and their orbits (weight-independent, shared by
    every solver of the game, with the partitions of the sets met so far)."""

    def __init__(self, pegs: int, colors: int, repetition: bool = True, black_only: bool = False) -> None:
        self.pegs, self.colors, self.repetition, self.black_only = pegs, colors, repetition, black_only
        letters = ALPHABET[:colors]
        if repetition:
            self.codes = ["".join(t) for t in itertools.product(letters, repeat=pegs)]
        else:
            self.codes = ["".join(t) for t in itertools.permutations(letters, pegs)]
        self.n = n = len(self.codes)
        self.index = {c: i for i, c in enumerate(self.codes)}
        self.all = (1 << n) - 1
        self.b = non_winning_feedbacks(pegs, colors, repetition, black_only)
        win = (pegs, 0)
        # fbmask[g] = [(key, mask of the codes s with feedback(g, s) = key)] over non-winning keys
        self.fbmask = []
        for g in self.codes:
            groups: dict = {}
            for i, s in enumerate(self.codes):
                f = _feedback(g, s, black_only)
                if f != win:
                    groups[f] = groups.get(f, 0) | (1 << i)
            self.fbmask.append(sorted(groups.items()))
        keys: dict = {}
        for i, c in enumerate(self.codes):
            keys.setdefault(orbit_key(c), []).append(i)
        # orbits in the code order of their lowest code
        order = sorted(keys.values(), key=lambda members: members[0])
        self.orbit_names = [self.codes[m[0]] for m in order]
        self.orbit_size = [len(m) for m in order]
        self.orbit_mask = [sum(1 << i for i in m) for m in order]
        self.orbit_of = [0] * n
        for o, members in enumerate(order):
            for i in members:
                self.orbit_of[i] = o
        self.k = len(order)
        self.reps = [m[0] for m in order]  # the lowest code of each orbit
        self._parts: dict = {}
        self._counts: dict = {}
        self._swaps: dict = {}

    def label(self) -> str:
        return (f"{self.pegs}x{self.colors}" + ("" if self.repetition else " without repetition")
                + (" black-only" if self.black_only else ""))

    def game_json(self) -> dict:
        """The files' "game": "feedback" only for black-only, as every certificate writes it."""
        out = {"pegs": self.pegs, "colors": self.colors, "repetition": self.repetition}
        return {**out, "feedback": "black-only"} if self.black_only else out

    def key(self, feedback) -> str:
        """A feedback's key in the files: "B,W", or "B" under the black-only rule."""
        b, w = feedback
        return str(b) if self.black_only else f"{b},{w}"

    def counts(self, mask: int) -> tuple:
        """How many codes of each orbit the set holds."""
        got = self._counts.get(mask)
        if got is None:
            got = self._counts[mask] = tuple((mask & m).bit_count() for m in self.orbit_mask)
        return got

    def classes(self, g: int, mask: int):
        """[(key, class)] of guess g at the set: the non-empty non-winning classes."""
        return [(f, m & mask) for f, m in self.fbmask[g] if m & mask]

    def partitions(self, mask: int, guesses=None):
        """The distinct partitions of the set by the guesses (default every code): [(guess, won,
        classes)], ``won`` = the guess is in the set, classes = the non-winning classes (sorted
        masks); a guess that leaves the whole set in one class, not winning, is left out (it
        gains nothing). The first guess in code order stands for each partition."""
        if guesses is None:
            got = self._parts.get(mask)
            if got is not None:
                return got
        seen = {}
        out = []
        for g in range(self.n) if guesses is None else guesses:
            won = (mask >> g) & 1
            classes = tuple(sorted(m & mask for _, m in self.fbmask[g] if m & mask))
            if not won and len(classes) == 1:
                continue
            key = (won, classes)
            if key not in seen:
                seen[key] = g
                out.append((g, won, classes))
        if guesses is None:
            if len(self._parts) >= PARTITION_CACHE:
                self._parts.clear()
            self._parts[mask] = out
        return out

    def _swap(self, a: int, b: int) -> list:
        """The index of each code with colours a and b exchanged."""
        key = (a, b)
        got = self._swaps.get(key)
        if got is None:
            table = str.maketrans(ALPHABET[a] + ALPHABET[b], ALPHABET[b] + ALPHABET[a])
            got = self._swaps[key] = [self.index[c.translate(table)] for c in self.codes]
        return got

    def interchangeable(self, mask: int) -> list:
        """The lower-bound format's interchangeable colours of a set: the classes (two colours or
        more) of colours whose exchange maps the set onto itself (exchanges that fix the set compose:
        (a c) = (a b)(b c)(a b), so the relation is an equivalence)."""
        members = [i for i in range(self.n) if (mask >> i) & 1]
        parent = list(range(self.colors))

        def find(x):
            while parent[x] != x:
                x = parent[x]
            return x

        for a in range(self.colors):
            for b in range(a + 1, self.colors):
                if find(a) == find(b):
                    continue
                swap = self._swap(a, b)
                if all((mask >> swap[i]) & 1 for i in members):
                    parent[find(b)] = find(a)
        groups: dict = {}
        for c in range(self.colors):
            groups.setdefault(find(c), []).append(c)
        return [g for g in groups.values() if len(g) > 1]

    @staticmethod
    def canon(code: str, lists) -> str:
        """The lowest code of the code's orbit under the permutations within ``lists`` (the
        format's canon: the lists' colours in order of first appearance renamed to each list's
        first colours)."""
        if not lists:
            return code
        which = {c: i for i, group in enumerate(lists) for c in group}
        used = [0] * len(lists)
        rename = {}
        out = []
        for ch in code:
            c = ALPHABET.index(ch)
            i = which.get(c)
            if i is not None:
                if c not in rename:
                    rename[c] = lists[i][used[i]]
                    used[i] += 1
                c = rename[c]
            out.append(ALPHABET[c])
        return "".join(out)

    def perm_to_rep(self, code: str) -> dict:
        """A permutation P (the lower-bound format's {"pegs": sigma, "colors": tau}, P(x)[sigma[i]] =
        tau[x[i]]) that maps the code to the lowest code of its orbit."""
        mult = Counter(code)
        first = {}
        for i, c in enumerate(code):
            first.setdefault(c, i)
        # colours by decreasing multiplicity, then first appearance: they become 0, 1, 2...
        colours = sorted(mult, key=lambda c: (-mult[c], first[c]))
        tau = [None] * self.colors
        for new, c in enumerate(colours):
            tau[ALPHABET.index(c)] = new
        rest = iter(range(len(colours), self.colors))
        for c in range(self.colors):
            if tau[c] is None:
                tau[c] = next(rest)
        pegs_order = sorted(range(self.pegs), key=lambda i: (tau[ALPHABET.index(code[i])], i))
        sigma = [0] * self.pegs
        for new, i in enumerate(pegs_order):
            sigma[i] = new
        return {"pegs": sigma, "colors": tau}


def apply_perm(code: str, perm: dict) -> str:
    sigma, tau = perm["pegs"], perm["colors"]
    out = [""] * len(code)
    for i, c in enumerate(code):
        out[sigma[i]] = ALPHABET[tau[ALPHABET.index(c)]]
    return "".join(out)


class Solver:
    """The weighted optimum of sets of one game for one weight vector (per orbit, integers >= 0):
    ``value(mask)`` is exact; the memo keeps every lower bound the search proved, which the proof
    writer reuses."""

    def __init__(self, space: Space, weights) -> None:
        if len(weights) != space.k or any(type(w) is not int or w < 0 for w in weights):
            raise ValueError("one non-negative integer weight per orbit")
        self.space = space
        self.w = list(weights)
        self.support = sum(m for m, w in zip(space.orbit_mask, self.w) if w > 0)
        # orbits in decreasing order of weight, for countW
        self._by_weight = sorted((o for o in range(space.k) if self.w[o] > 0), key=lambda o: -self.w[o])
        self.memo: dict = {}  # mask -> [lower bound, exact?, best guess]
        self._cw: dict = {}
        self.searched = 0

    def weight(self, mask: int) -> int:
        c = self.space.counts(mask)
        return sum(w * x for w, x in zip(self.w, c))

    def cw(self, mask: int) -> int:
        got = self._cw.get(mask)
        if got is None:
            c = self.space.counts(mask)
            got = self._cw[mask] = count_weighted(self.space.b, [(self.w[o], c[o]) for o in self._by_weight])
        return got

    def value(self, mask: int | None = None) -> int:
        """The least weighted total of the set (default: the support)."""
        if mask is None:
            mask = self.support
        if mask & ~self.support:
            raise ValueError("the set holds codes of weight 0")
        v = self._solve(mask, INF, mask == self.support)
        return v

    def _solve(self, mask: int, beta, root: bool = False):
        memo = self.memo.get(mask)
        if memo is not None:
            if memo[1] or memo[0] >= beta:
                return memo[0]
            lb = memo[0]
        else:
            lb = self.cw(mask)
            if lb >= beta:
                self.memo[mask] = [lb, False, None]
                return lb
        if mask & (mask - 1) == 0:  # one secret: guess it
            v = self.weight(mask)
            self.memo[mask] = [v, True, mask.bit_length() - 1]
            return v
        self.searched += 1
        space, cw = self.space, self.cw
        here = self.weight(mask)
        guesses = space.reps if (root and self._symmetric(mask)) else None
        options = []
        for g, won, classes in space.partitions(mask, guesses):
            quick = here + sum(cw(c) for c in classes)
            options.append((quick, g, classes))
        options.sort(key=lambda t: t[0])
        best, best_g, least = beta, None, INF
        for quick, g, classes in options:
            if quick >= best:
                least = min(least, quick)
                break
            lower = quick
            for c in sorted(classes, key=int.bit_count):
                if c & (c - 1) == 0:
                    continue  # a single secret: its countW is exact
                c0 = cw(c)
                v = self._solve(c, best - lower + c0)
                lower += v - c0
                if lower >= best:
                    break
            if lower < best:
                best, best_g = lower, g
            else:
                least = min(least, lower)
        if best_g is not None:
            self.memo[mask] = [best, True, best_g]
            return best
        least = max(least, lb)
        self.memo[mask] = [least, False, None]
        return least

    def _symmetric(self, mask: int) -> bool:
        """The set is a union of whole orbits (so every permutation of G maps it onto itself)."""
        return all(mask & m in (0, m) for m in self.space.orbit_mask)

    # -- the optimal tree --------------------------------------------------------------------------

    def tree(self, mask: int | None = None) -> dict:
        """The optimal tree for the set (default the support), as nested dicts."""
        if mask is None:
            mask = self.support
        self.value(mask)
        space = self.space
        root: dict = {}
        stack = [(mask, root)]
        while stack:
            m, out = stack.pop()
            entry = self.memo.get(m)
            if entry is None or not entry[1]:
                self._solve(m, INF)
                entry = self.memo[m]
            g = entry[2]
            out["guess"] = space.codes[g]
            classes = space.classes(g, m)
            if classes:
                nxt = out["next"] = {}
                for f, c in classes:
                    nxt[space.key(f)] = sub = {}
                    stack.append((c, sub))
        return root


def tree_depths(space: Space, tree: dict) -> list[int]:
    """The guesses the tree needs for each code (0 when the tree does not find it)."""
    depths = [0] * space.n
    stack = [(tree, space.all, 1)]
    while stack:
        node, mask, d = stack.pop()
        g = space.index[node["guess"]]
        if (mask >> g) & 1:
            depths[g] = d
        nxt = node.get("next", {})
        for f, c in space.classes(g, mask):
            child = nxt.get(space.key(f))
            if child is not None:
                stack.append((child, c, d + 1))
    return depths


# -- the weighted lower-bound proof ----------------------------------------------------------------

def write_proof(solver: Solver, generator: dict | None = None) -> dict:
    """The lower-bound certificate: claims {"total": T, "weights": {orbit: weight}}, T = the optimum
    of the support. Each node (set S, bound d <= opt(S)) gives, for every guess that counting does
    not refute, children whose bounds (lower bounds the search proved, exact values when those
    fall short) make w(S) + the sum over the non-winning classes of max(countW, bound) reach d. At
    the root (the support, a union of orbits) the other codes of an orbit point to its lowest code
    with ``same_as`` and a permutation that fixes the support."""
    space = solver.space
    root = solver.support
    total = solver.value(root)
    bodies: dict = {}
    order: list = []
    todo = [(root, total)]
    while todo:
        key = todo.pop()
        if key in bodies:
            continue
        mask, d = key
        body = {"bound": d}
        bodies[key] = body
        order.append(key)
        if solver.cw(mask) >= d:
            continue
        here = solver.weight(mask)
        entries: dict = {}
        at_root = mask == root
        lists = space.interchangeable(mask)
        if lists:
            body["interchangeable"] = lists
        # only the lowest code of each orbit of the interchangeable colours needs refuting
        canonical = [g for g in range(space.n) if space.canon(space.codes[g], lists) == space.codes[g]]
        codes = space.reps if at_root else canonical
        for g in codes:
            refs = _refute(solver, mask, d, here, g)
            if refs is None:
                continue
            entries[space.codes[g]] = {space.key(f): ref for f, ref in refs}
            todo.extend(ref for _, ref in refs)
        if at_root:  # the other canonical codes: the same as their orbit's lowest code
            for g in canonical:
                code = space.codes[g]
                rep = space.codes[space.reps[space.orbit_of[g]]]
                if code != rep and rep in entries:
                    entries[code] = {"same_as": rep, "perm": space.perm_to_rep(code)}
        if entries:
            body["guesses"] = {c: entries[c] for c in sorted(entries, key=space.index.__getitem__)}
    # forward references: bigger sets first, then (same set) the higher bound
    order.sort(key=lambda k: (-k[0].bit_count(), -k[1], k[0]))
    number = {k: i for i, k in enumerate(order)}
    nodes = []
    for k in order:
        body = bodies[k]
        if "guesses" in body:
            body["guesses"] = {c: (e if "same_as" in e else {f: number[r] for f, r in e.items()})
                               for c, e in body["guesses"].items()}
        nodes.append(body)
    weights = {name: w for name, w in zip(space.orbit_names, solver.w)}
    doc = {"format": "mastermind-lower-bound-certificate", "version": 1, "game": space.game_json(),
           "claims": {"total": total, "weights": weights}}
    if generator is not None:
        doc["generator"] = generator
    doc["nodes"] = nodes
    return doc


def _refute(solver: Solver, mask: int, d: int, here: int, g: int):
    """None when counting refutes guess g at the set for bound d; else [(key, (class, bound))]: the
    children that make it refuted."""
    space, cw = solver.space, solver.cw
    classes = space.classes(g, mask)
    counted = here + sum(cw(c) for _, c in classes)
    if counted >= d:
        return None
    if len(classes) == 1 and classes[0][1] == mask:  # the whole set again: a lower bound of it
        need = d - here
        return [(classes[0][0], (mask, need))]
    vals = {}
    for f, c in classes:
        m = solver.memo.get(c)
        vals[f] = max(cw(c), m[0] if m else 0)
    if here + sum(vals.values()) < d:
        for f, c in classes:
            m = solver.memo.get(c)
            if c & (c - 1) and not (m and m[1]):
                vals[f] = max(vals[f], solver._solve(c, INF))
    if here + sum(vals.values()) < d:
        raise AssertionError("a bound above the optimum")  # the search's values are exact
    # only the classes whose bound beats counting need a child
    return [(f, (c, vals[f])) for f, c in classes if vals[f] > cw(c)]
