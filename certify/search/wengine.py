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

It also writes the codemaker's weighted lower-bound proof (:meth:`WeightedSearch.prove`,
docs/lower-bound-format.md "Weighted claims") from its memo, as :mod:`.total` does for the plain
search: :func:`wnode_entries` gives a node's guess entries (the same orbits of guesses as the
search, the classes' bounds from the memo), :class:`.proof.ProofWriter` lays the nodes out. The
trees this search returns are checked by ``certify/verify_mixed.py``, the proof by
``certify/verify_bound.py``.
"""

from __future__ import annotations

import numpy as np
from ..compiled import njit

from .engine import (BEST, EXACT, FULL, LB, MINQ, NODES, OVERFLOW, Engine, _full_orbits, _keep_needed,
                     _packed_entries, _store, blocks, canonical_codes, find, guess_reps)

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
        _store(table, E, pool, st, cands, -1, best, 1, best_g, minq)
        return best
    _store(table, E, pool, st, cands, -1, lowest, 0, -1, minq)
    return lowest


@njit(cache=True, nogil=True)
def wnode_entries(fb, n_fb, win, ctotal, digits, colors, swaps, pa, pb, mask, pperms, pows, vindex, nsym,
                  table, E, pool, lev, wl, L, cands, bound):  # pragma: no cover
    """The guess entries of the weighted proof's node (cands, bound): :func:`.engine.node_entries`
    with weights. Every code that is the lowest of its orbit under the colour blocks'
    permutations (the node lists its blocks as interchangeable colours) and whose counting value
    w(S) + sum of countW over its non-winning classes is below ``bound``: kind 0 (same_as its
    orbit's lowest code, when peg permutations join the orbits), 1 (classes with their proven
    bounds, from the memo) or 2 (learns nothing: S again, bound - w(S)). Returns (codes, kinds,
    blk, per child: code's position, feedback, start, size, bound, 1 if its own node will have no
    entries, and the children's secrets, full, rep, psig, ptau), or a kind -1 last when a guess
    is not refuted (a search bug)."""
    n = cands.shape[0]
    n_codes = fb.shape[0]
    counts = np.zeros(L, dtype=np.int64)
    ws = 0
    for s in cands:
        counts[lev[s]] += 1
        ws += wl[lev[s]]
    e = find(table, E, pool, cands, -1)
    # Nothing to write when counting settles the node (sets of 1 and 2: countW is their value),
    # or when the search saw every code's counting value reach the bound.
    skip = n <= 2 or wcount(ctotal, counts, wl, L) >= bound or (e >= 0 and E[e, MINQ] >= bound)
    codes = []
    kinds = []
    c_at = []
    c_f = []
    c_start = []
    c_len = []
    c_lb = []
    c_leaf = []
    cpool = []
    full = False
    rep = np.zeros(1, dtype=np.int64)
    blk = np.arange(colors)
    lowest = np.empty(n_codes, dtype=np.int64)
    m = 0
    qs = np.full(n_codes, np.int64(WINF), dtype=np.int64)
    cnt = np.zeros((n_fb, L), dtype=np.int64)
    sz = np.zeros(n_fb, dtype=np.int64)
    if not skip:
        blk, rank, _ = blocks(cands, mask, swaps, pa, pb, colors)
        m = canonical_codes(digits, blk, rank, lowest)
        skip = True
        for j in range(m):
            x = lowest[j]
            row = fb[x]
            for s in cands:
                cnt[row[s], lev[s]] += 1
            q = ws
            for f in range(n_fb):
                if f != win:
                    q += wcount(ctotal, cnt[f], wl, L)
                for lv in range(L):
                    cnt[f, lv] = 0
            qs[j] = q
            if q < bound:
                skip = False
        if not skip:
            full, rep = _full_orbits(cands, mask, digits, colors, pperms, pows, vindex, blk, nsym)
    part = np.empty(n, dtype=np.int64)
    start = np.zeros(n_fb + 1, dtype=np.int64)
    fill = np.zeros(n_fb, dtype=np.int64)
    extra = np.zeros(n_fb, dtype=np.int64)
    lbs = np.zeros(n_fb, dtype=np.int64)
    leaf = np.zeros(n_fb, dtype=np.int64)
    for j in range(m):
        if skip:
            break
        q = qs[j]
        if q >= bound:
            continue  # refuted by counting
        x = lowest[j]
        row = fb[x]
        for f in range(n_fb):
            sz[f] = 0
            for lv in range(L):
                cnt[f, lv] = 0
        for s in cands:
            sz[row[s]] += 1
            cnt[row[s], lev[s]] += 1
        big = 0
        for f in range(n_fb):
            if f != win and sz[f] > big:
                big = sz[f]
        if big == n:  # learns nothing (x is not in S: S again)
            codes.append(x)
            kinds.append(2)
            continue
        if full and rep[x] != x:
            codes.append(x)
            kinds.append(0)
            continue
        start[0] = 0
        for f in range(n_fb):
            start[f + 1] = start[f] + sz[f]
            fill[f] = start[f]
        for s in cands:
            f = row[s]
            part[fill[f]] = s
            fill[f] += 1
        total = q
        for f in range(n_fb):
            extra[f] = 0
            if f == win or sz[f] < 3:
                continue  # 1 or 2 secrets: countW is their value
            c = part[start[f]:start[f] + sz[f]]
            ec = find(table, E, pool, c, -1)
            qc = wcount(ctotal, cnt[f], wl, L)
            lb = qc
            if ec >= 0 and E[ec, LB] > lb:
                lb = E[ec, LB]
            lbs[f] = lb
            leaf[f] = 1 if (ec >= 0 and E[ec, MINQ] >= lb) else 0
            extra[f] = lb - qc
            total += extra[f]
        if total < bound:
            codes.append(x)
            kinds.append(-1)
            break
        _keep_needed(extra, n_fb, total - bound)
        at = len(codes)
        codes.append(x)
        kinds.append(1)
        for f in range(n_fb):
            if extra[f] > 0:
                c_at.append(at)
                c_f.append(f)
                c_start.append(len(cpool))
                c_len.append(sz[f])
                c_lb.append(lbs[f])
                c_leaf.append(leaf[f])
                for i in range(start[f], start[f] + sz[f]):
                    cpool.append(part[i])
    return _packed_entries(codes, kinds, c_at, c_f, c_start, c_len, c_lb, c_leaf, cpool, blk, full, rep, cands,
                           mask, digits, colors, pperms, pows, vindex)


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

    def entries(self, cands, bound):
        """:func:`wnode_entries` of the node (cands, bound)."""
        return wnode_entries(self.fb, self.n_fb, self.win, self.ctotal, self.digits, self.colors, self.swaps,
                             self.pa, self.pb, self.mask, self.pperms, self.pows, self.vindex, self.nsym,
                             self.table, self.E, self.pool, self.lev, self.wl, self.L,
                             np.ascontiguousarray(cands, dtype=np.int64), int(bound))

    def count_weighted(self, cands) -> int:
        """countW of a set (the weighted counting bound)."""
        counts = np.bincount(self.lev[cands], minlength=self.L).astype(np.int64)
        return int(wcount(self.ctotal, counts, self.wl, self.L))

    def weights_by_orbit(self) -> dict:
        """{lowest code of each orbit: its weight}, as the proof's claims write them."""
        out = {}
        for i in range(self.space.n):  # (the orbit: the colours' multiplicities, decreasing)
            key = tuple(sorted((x for x in np.bincount(self.space.digits[i]).tolist() if x), reverse=True))
            out.setdefault(key, (self.game.text(i), int(self.w[i])))
        return dict(sorted(out.values(), key=lambda t: t[0]))

    def prove(self) -> dict:
        """The weighted lower-bound certificate (claims {"total": T, "weights": per orbit}) of the
        least weighted total T over the support, laid out by :class:`.proof.ProofWriter` (shared
        permuted sets, forward references). Each node (S, d): no entries when countW(S) >= d,
        else :func:`wnode_entries`' (every guess the checker enumerates is refuted by counting,
        by its classes' proven bounds, through ``same_as`` or an interchangeable colour, or, when
        it learns nothing, by S again with the bound d - w(S))."""
        from .proof import ProofWriter
        from .total import _blocks

        sp = self.space
        total = self.value()
        writer = ProofWriter(sp, {"total": total, "weights": self.weights_by_orbit()})
        writer.root(self.support, total)
        texts, keys, p = sp.texts, sp.keys, sp.pegs
        while writer.pending:
            for key, cands, bound, _ in writer.take_pending(4096, 8192):
                if self.count_weighted(cands) >= bound:
                    writer.fill_key(key, bound, {})
                    continue
                codes, kinds, blk, children, pool, full, rep, psig, ptau = self.entries(cands, bound)
                if len(kinds) and kinds[-1] < 0:  # pragma: no cover - a search bug
                    raise AssertionError(f"the weighted proof: guess {texts[int(codes[-1])]} is not refuted "
                                         f"at a set of {len(cands)} secrets")
                refs: dict = {}
                for at, f, start, size, b, leaf in children.tolist():
                    raw = pool[start:start + size].astype(writer.dtype).tobytes()
                    refs.setdefault(at, {})[keys[f]] = writer.ref_raw(raw, size, b, None, bool(leaf))
                out = {}
                for at, (x, kind) in enumerate(zip(codes.tolist(), kinds.tolist())):
                    if kind == 1:
                        out[texts[x]] = refs[at]
                    elif kind == 0:
                        out[texts[x]] = {"same_as": texts[int(rep[x])],
                                         "perm": {"colors": ptau[x].tolist(), "pegs": psig[x].tolist()}}
                    else:  # x does not split S: S again, bound - w(S)
                        f = int(sp.fb[x][cands[0]])
                        out[texts[x]] = {keys[f]: writer.ref(cands, bound - int(self.w[cands].sum()), None)}
                writer.fill_key(key, bound, out, _blocks(blk.tolist()) if out else ())
        return writer.document()

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
