"""The compiled exact search with a weight per secret: the codebreaker's best response to a
codemaker's distribution (the game value, docs/game-value.md), for games too big for the
bitmask search of :mod:`.weighted`.

The least over strategies (any code may be guessed, no limit on depth) of the sum over the
secrets of w(s) x guesses(s), the weights constant on the orbits of the peg and colour
permutations (so the symmetries the plain search uses keep them). It follows
:func:`.engine.solve` step for step, with three changes, each kept by its proof:

- a guess costs w(S), the weight of the set, instead of |S|;
- counting's bound countW gives the heaviest secrets the greedy depths (1, then 2 for b of them,
  3 for b^2, ...): with few distinct weights (one per orbit), a class's bound is the sum over the
  weight levels, heaviest first, of w x (countTotal(before + k) - countTotal(before)), k of that
  level and ``before`` heavier ones (docs/lower-bound-format.md, rule 11);
- the small-set shortcuts keep only n = 1 (its weight) and n = 2 (the heavier first: w(S) + the
  lighter, which is countW): a candidate that splits the others into singletons is optimal
  only when it is among the heaviest.

No proof is written here (the codemaker's side of the value is proven by :func:`.exact.support_total`
or :mod:`.weighted`); the trees this search returns are checked by ``certify/verify_mixed.py``.
"""

from __future__ import annotations

import numpy as np
from ..compiled import njit

from .engine import BEST, EXACT, FULL, LB, NODES, OVERFLOW, Engine, _store, find, guess_reps

#: Above any weighted total met (weights x guesses stay below 2^62).
WINF = 1 << 62


@njit(cache=True, nogil=True)
def wcount(ctotal, counts, wl, L):  # pragma: no cover
    """countW of a class whose counts[l] secrets have weight wl[l] (levels heaviest first)."""
    v = 0
    before = 0
    for lv in range(L):
        c = counts[lv]
        if c:
            v += wl[lv] * (ctotal[before + c] - ctotal[before])
            before += c
    return v


@njit(cache=True, nogil=True)
def wsolve(fb, n_fb, win, ctotal, digits, colors, swaps, pa, pb, mask, pperms, pows, vindex, nsym,
           table, E, pool, st, lev, wl, L, cands, beta):  # pragma: no cover
    """W(cands): the least weighted total, fail-soft against ``beta``. Memoised (r = -1)."""
    n = cands.shape[0]
    if n == 0:
        return 0
    if st[OVERFLOW]:
        return WINF
    if n == 1:
        return wl[lev[cands[0]]]
    counts = np.zeros(L, dtype=np.int64)
    ws = 0
    for s in cands:
        counts[lev[s]] += 1
        ws += wl[lev[s]]
    if n == 2:
        a = wl[lev[cands[0]]]
        c = wl[lev[cands[1]]]
        return ws + (a if a < c else c)
    base = wcount(ctotal, counts, wl, L)
    if base >= beta:
        return base
    e = find(table, E, pool, cands, -1)
    if e >= 0 and (E[e, EXACT] == 1 or E[e, LB] >= beta):
        return E[e, LB]
    st[NODES] += 1
    st[FULL] += 1
    n_codes = fb.shape[0]
    guesses = np.empty(n_codes, dtype=np.int64)
    m_all = guess_reps(cands, mask, swaps, pa, pb, colors, digits, pperms, pows, vindex, nsym, guesses,
                       np.zeros(0, dtype=np.int64))
    # Class compositions (by weight level) of every guess at once.
    cnt = np.zeros((m_all, n_fb, L), dtype=np.int32)
    size = np.zeros((m_all, n_fb), dtype=np.int32)
    for s in cands:
        row = fb[s]
        lv = lev[s]
        for j in range(m_all):
            f = row[guesses[j]]
            cnt[j, f, lv] += 1
            size[j, f] += 1
    quick = np.empty(m_all, dtype=np.int64)
    keep = np.empty(m_all, dtype=np.int64)
    lowest = np.int64(WINF)
    minq = np.int64(WINF)
    k = 0
    for j in range(m_all):
        q = ws
        big = 0
        for f in range(n_fb):
            if f != win and size[j, f]:
                q += wcount(ctotal, cnt[j, f], wl, L)
                if size[j, f] > big:
                    big = size[j, f]
        if q < minq:
            minq = q
        if big == n:
            continue  # learns nothing: never better
        if q >= beta:
            if q < lowest:
                lowest = q
            continue
        keep[k] = j
        quick[k] = q
        k += 1
    order = np.argsort(quick[:k], kind="mergesort")
    best = beta
    best_g = -1
    part = np.empty(n, dtype=cands.dtype)
    start = np.empty(n_fb + 1, dtype=np.int64)
    fill = np.empty(n_fb, dtype=np.int64)
    cls = np.empty(n_fb, dtype=np.int64)
    for t0 in range(k):
        i = order[t0]
        q = quick[i]
        if q >= best:
            if q < lowest:
                lowest = q
            break
        j = keep[i]
        g = guesses[j]
        row = fb[g]
        start[0] = 0
        nc = 0
        for f in range(n_fb):
            start[f + 1] = start[f] + size[j, f]
            if f != win and size[j, f] >= 2:
                t = nc
                while t > 0 and size[j, cls[t - 1]] > size[j, f]:
                    cls[t] = cls[t - 1]
                    t -= 1
                cls[t] = f
                nc += 1
        for f in range(n_fb):
            fill[f] = start[f]
        for s in cands:
            f = row[s]
            part[fill[f]] = s
            fill[f] += 1
        acc = q
        for t in range(nc):
            f = cls[t]
            qc = wcount(ctotal, cnt[j, f], wl, L)
            v = wsolve(fb, n_fb, win, ctotal, digits, colors, swaps, pa, pb, mask, pperms, pows, vindex, nsym,
                       table, E, pool, st, lev, wl, L, part[start[f]:start[f + 1]], best - (acc - qc))
            acc += v - qc
            if acc >= best:
                break
        if acc < best:
            best = acc
            best_g = g
        elif acc < lowest:
            lowest = acc
    if best_g >= 0:
        _store(table, E, pool, st, cands, -1, best, 1, best_g, -1)
        return best
    _store(table, E, pool, st, cands, -1, lowest, 0, -1, -1)
    return lowest


class WeightedSearch(Engine):
    """The weighted best response for one game and one weight per code (non-negative integers,
    constant on the orbits of the peg and colour permutations; checked here)."""

    def __init__(self, game, weights) -> None:
        from .counting import Counting
        from .space import Space

        space = Space(game)
        super().__init__(space, Counting(game.pegs, game.colors, game.repetition, game.black_only))
        self.game = game
        values = [int(x) for x in weights]
        if len(values) != space.n or min(values) < 0:
            raise ValueError("one non-negative integer weight per code")
        if sum(values) * (space.n + 1) >= WINF:  # (in Python integers: no wrapping)
            raise ValueError("the weights are too large (their sum x (codes + 1) must stay below 2^62)")
        w = np.array(values, dtype=np.int64)
        keys = {}
        for i in range(space.n):
            key = tuple(sorted(np.bincount(space.digits[i]).tolist(), reverse=True))
            if keys.setdefault(key, w[i]) != w[i]:
                raise ValueError("the weights must be constant on the orbits of the peg and colour permutations")
        levels = sorted({int(x) for x in w[w > 0]}, reverse=True)
        if not levels:
            raise ValueError("every weight is 0")
        self.wl = np.array(levels, dtype=np.int64)
        self.lev = np.array([levels.index(int(x)) if x > 0 else 0 for x in w], dtype=np.int64)
        self.L = len(levels)
        self.w = w
        self.support = np.flatnonzero(w > 0).astype(np.int64)

    def wsolve(self, cands, beta=WINF) -> int:
        while True:
            v = self._watched(wsolve, self.fb, self.n_fb, self.win, self.ctotal, self.digits, self.colors,
                              self.swaps, self.pa, self.pb, self.mask, self.pperms, self.pows, self.vindex,
                              self.nsym, self.table, self.E, self.pool, self.st, self.lev, self.wl, self.L,
                              cands, int(beta))
            if not self.st[OVERFLOW]:
                return int(v)
            self._grow()

    def value(self) -> int:
        """The least weighted total over the support."""
        return self.wsolve(self.support)

    def best(self, cands) -> int:
        """An optimal first guess for the set (solving it first if need be)."""
        n = len(cands)
        if n == 1:
            return int(cands[0])
        if n == 2:
            a, b = int(cands[0]), int(cands[1])
            return b if self.w[b] > self.w[a] else a
        e = find(self.table, self.E, self.pool, cands, -1)
        if e < 0 or self.E[e, EXACT] != 1 or self.E[e, BEST] < 0:
            self.wsolve(cands)
            e = find(self.table, self.E, self.pool, cands, -1)
        return int(self.E[e, BEST])

    def tree(self) -> dict:
        """An optimal strategy for the support as nested dicts {"guess", "next": {"b,w": ...}}."""
        space, game = self.space, self.game
        self.value()
        root: dict = {}
        stack = [(self.support, root)]
        while stack:
            cands, out = stack.pop()
            g = self.best(cands)
            out["guess"] = game.text(g)
            labels = space.fb[g][cands]
            rest = {}
            for f in np.unique(labels).tolist():
                if f == space.win:
                    continue
                rest[space.keys[f]] = sub = {}
                stack.append((np.ascontiguousarray(cands[labels == f]), sub))
            if rest:
                out["next"] = rest
        return root
