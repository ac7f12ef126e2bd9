"""Compiled least-total search (numba): the whole depth-first branch and bound below a node.

``solve`` computes T(S, r) fail-soft (exact when below ``beta``, else a lower bound >= beta),
the recursion of :mod:`.total` in one compiled call:

- guesses: one per orbit of the permutations found to fix S. Every set: the colour
  transpositions that map S onto itself (free colours, colours absent from S, ...), whose
  orbits' lowest codes rename each block's colours in order of first appearance. Sets of
  ``NSYM`` or more also: for each peg permutation, a colour permutation that goes with it
  (matched by how often each colour sits on each peg, then checked on S), as :mod:`.symmetry`
  does; orbits then walked breadth first over the generators' maps (:func:`orbit_reps`);
- each guess's counting value (|S| + the counting bound of every class, or infeasible when a
  class exceeds N(r - 1)), for all guesses at once, from class counters built one row of the
  (symmetric) feedback matrix per secret (rows in order: the matrix does not fit in cache from
  4x7 on): 4-bit counters in one word per code up to b + 1 secrets, 8-bit ones in two words up
  to 255, else class sizes per guess;
  guesses in increasing value, ties in code order; the scan stops as soon as a value reaches
  the best total found (every later one is at least as high);
- a guess's classes smallest first, each searched with the window that is left (the small
  ones are cheap and narrow the window of the big ones: 4x6 searched 39,663 nodes biggest
  first, 9,207 smallest first);
- small sets (|S| <= b + 1, where counting gives 2|S| - 1): a candidate that splits the others
  into singletons settles S in 2|S| - 1 (the least possible); otherwise every guess costs at
  least 2|S| (a bound the checker confirms by counting alone), reached by a code that splits S
  into singletons. Sets of 1 and 2 cost 1 and 3 (counting's own values).

Results go to a memo of candidate sets (open addressing on numpy arrays): the exact value and
a best guess, or the best lower bound proven, and the least counting value of any code there
(a node of the proof whose bound is at most that has no entries: nothing to rescan). When the
memo is full the call stops, the caller grows the arrays and calls again (the memo kept).
``node_entries`` / ``entries_batch`` give proof nodes' guess entries from the memo (what
:mod:`.total` writes for the nodes below the top levels): the proof uses the same orbits as
the search (or more), so every representative's classes are in the memo or refuted by counting.

Lexicographic cost (``Engine(..., units=(A, B))``, the at_max claim of docs/lower-bound-format.md):
a secret found at the l-th guess of the r left costs A l, plus B when l = r, so a value is
A x total + B x (secrets at the last guess allowed), compared as one integer: total first with
(n + 1, 1), the secrets at the maximum first with (1, n D + 1). Every rule above holds for it
with counting's bound ``ccost`` (A countTotal(m) + B x the m - N(r - 1) secrets, if more, that
need the r-th guess) and the small-set costs of ``small_costs``: they only add per-secret costs
that are never negative. With (1, 0) (the default) the arithmetic is the plain total's.
"""

from __future__ import annotations

import numpy as np
from ..compiled import njit

#: The value of a set no strategy settles within the guesses left.
INF = 10**9
#: Memo entry columns.
HASH, R, LB, EXACT, BEST, OFF, LEN, MINQ = range(8)
NCOL = 8
#: State cells: entries used, pool used, overflow flag, nodes searched, nodes that scanned
#: every guess, guesses searched (below the best's bound), their classes searched.
USED, POOL, OVERFLOW, NODES, FULL, TRIED, CHILDREN = range(7)
#: Colour maps tried per peg permutation before giving up on it (as :mod:`.symmetry`).
MAX_TRIES = 24
#: Sets of at least this many secrets look for peg permutations too (smaller ones only for
#: colour transpositions: the search is cheaper than the stabilizer there).
NSYM = 10
#: Up to this many pegs the stabilizer tries every peg permutation (8! = 40,320, as 8x2's
#: committed proofs were searched); beyond, the transpositions of two pegs: 12! permutations
#: are 46 GB as int64 (12x2's search was killed at 23.9 GB building them), and a loop over 9!
#: or more at every set would be as slow as the search.
ENGINE_ALL_PEG_PERMS = 8
#: The nibble of each of 16 answers: its lowest bit, and its other three bits.
ONES = np.uint64(0x1111111111111111)
HIGH3 = np.uint64(0xEEEEEEEEEEEEEEEE)
#: The cache of :func:`canonical_codes` by colour blocks (:func:`guess_reps`): slots, each
#: (key + 1, offset, length), then the pool's used length, then the pool (codes).
GSLOTS = 1024
GPOOL = 1 << 20
#: Sets of at most this many secrets take their guesses' class sizes guess by guess (a small
#: array per guess), bigger ones secret by secret (one array row per guess).
SMALLN = 32


@njit(cache=True, nogil=True)
def _hash(cands, r):  # pragma: no cover
    h = np.uint64(1469598103934665603) ^ np.uint64(r + 7)
    for s in cands:
        h = (h ^ np.uint64(s)) * np.uint64(1099511628211)
    h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(0x3FFFFFFFFFFFFFFF))


@njit(cache=True, nogil=True)
def ccost(ctotal, ncap, mw, lexk, m, r):  # pragma: no cover
    """Counting's bound on the cost of m secrets with r guesses left (r = -1: no limit):
    mw x countTotal(m), plus lexk for each secret beyond the N(r - 1) that r - 1 guesses can
    find (those are found at the r-th guess, the last allowed)."""
    v = mw * ctotal[m]
    if lexk and r >= 1 and m > ncap[r - 1]:
        v += lexk * (m - ncap[r - 1])
    return v


@njit(cache=True, nogil=True)
def steps(dct, ncap, mw, lexk, n, r):  # pragma: no cover
    """dq[c] = ccost(c, r) - ccost(c - 1, r) for c = 1..n: what one more secret in a class
    with r guesses left adds to counting's bound."""
    dq = np.empty(n + 1, dtype=np.int64)
    cap = ncap[r - 1] if (lexk and r >= 1) else n + 1
    for c in range(n + 1):
        dq[c] = mw * dct[c] + (lexk if c > cap else 0)
    return dq


@njit(cache=True, nogil=True)
def small_costs(mw, lexk, n, r):  # pragma: no cover
    """A set of n <= b + 1 secrets with r guesses left: the cost when a candidate splits the
    others into singletons (2n - 1 guesses; the n - 1 found second are at the last guess
    allowed when r = 2), and the least cost otherwise (2n guesses, all n second)."""
    last = lexk if r == 2 else 0
    return mw * (2 * n - 1) + last * (n - 1), mw * 2 * n + last * n


@njit(cache=True, nogil=True)
def find(table, E, pool, cands, r):  # pragma: no cover
    """Memo index of (cands, r), or -1."""
    h = _hash(cands, r)
    mask = table.shape[0] - 1
    k = h & mask
    n = cands.shape[0]
    while True:
        e = table[k] - 1
        if e < 0:
            return -1
        if E[e, HASH] == h and E[e, R] == r and E[e, LEN] == n:
            off = E[e, OFF]
            same = True
            for i in range(n):
                if pool[off + i] != cands[i]:
                    same = False
                    break
            if same:
                return e
        k = (k + 1) & mask


@njit(cache=True, nogil=True)
def _store(table, E, pool, st, cands, r, lb, exact, best, minq):  # pragma: no cover
    """Record (cands, r): its lower bound (exact or not), a best guess, and minq, a bound on
    every code's counting value there (-1: unknown)."""
    if st[OVERFLOW]:
        return
    e = find(table, E, pool, cands, r)
    if e >= 0:
        if exact or lb > E[e, LB]:
            E[e, LB] = lb
            E[e, EXACT] = exact
            E[e, BEST] = best
        if minq > E[e, MINQ]:
            E[e, MINQ] = minq
        return
    n = cands.shape[0]
    if st[USED] >= E.shape[0] or st[POOL] + n > pool.shape[0] or 2 * (st[USED] + 1) > table.shape[0]:
        st[OVERFLOW] = 1
        return
    e = st[USED]
    st[USED] += 1
    h = _hash(cands, r)
    E[e, HASH] = h
    E[e, R] = r
    E[e, LB] = lb
    E[e, EXACT] = exact
    E[e, BEST] = best
    E[e, OFF] = st[POOL]
    E[e, LEN] = n
    E[e, MINQ] = minq
    pool[st[POOL]:st[POOL] + n] = cands
    st[POOL] += n
    mask = table.shape[0] - 1
    k = h & mask
    while table[k] != 0:
        k = (k + 1) & mask
    table[k] = e + 1


@njit(cache=True, nogil=True)
def rehash(table, E, used):  # pragma: no cover
    """Fill an empty (bigger) table with the first ``used`` entries."""
    mask = table.shape[0] - 1
    for e in range(used):
        k = E[e, HASH] & mask
        while table[k] != 0:
            k = (k + 1) & mask
        table[k] = e + 1


@njit(cache=True, nogil=True)
def blocks(cands, mask, swaps, pa, pb, colors):  # pragma: no cover
    """rank[c]: colour c's place among the colours of its block (colours linked by
    transpositions that fix S), in increasing order; blk[c]: the block's lowest colour."""
    for s in cands:
        mask[s] = True
    blk = np.arange(colors)
    for k in range(pa.shape[0]):
        a = pa[k]
        b = pb[k]
        ra = a
        while blk[ra] != ra:
            ra = blk[ra]
        rb = b
        while blk[rb] != rb:
            rb = blk[rb]
        if ra == rb:
            continue
        img = swaps[k]
        ok = True
        for s in cands:
            if not mask[img[s]]:
                ok = False
                break
        if ok:
            if ra < rb:
                blk[rb] = ra
            else:
                blk[ra] = rb
    for s in cands:
        mask[s] = False
    for c in range(colors):
        r = c
        while blk[r] != r:
            r = blk[r]
        blk[c] = r
    rank = np.zeros(colors, dtype=np.int64)
    count = np.zeros(colors, dtype=np.int64)
    for c in range(colors):
        rank[c] = count[blk[c]]
        count[blk[c]] += 1
    return blk, rank, count


@njit(cache=True, nogil=True)
def canonical_codes(digits, blk, rank, out):  # pragma: no cover
    """Writes to out the codes that are the lowest of their orbit under the permutations of each
    colour block (each block's colours appear in the code, in order of first appearance, as the
    block's lowest colours in increasing order); returns how many. One call per node, the test
    written in the loop: a helper called per code (inlined or not) costs numba a reference
    count per array argument and call, which was half the search's time on 4x7."""
    p = digits.shape[1]
    colors = blk.shape[0]
    nxt = np.zeros(colors, dtype=np.int64)
    seen = np.zeros(colors, dtype=np.bool_)
    m = 0
    for x in range(digits.shape[0]):
        ok = True
        for i in range(p):
            c = digits[x, i]
            if not seen[c]:
                seen[c] = True
                if rank[c] != nxt[blk[c]]:
                    ok = False
                    break
                nxt[blk[c]] += 1
        for i in range(p):
            c = digits[x, i]
            seen[c] = False
            nxt[blk[c]] = 0
        if ok:
            out[m] = x
            m += 1
    return m


@njit(cache=True, nogil=True)
def stabilizer(cands, mask, digits, colors, pperms, pows, vindex, blk):  # pragma: no cover
    """Generators (pegs, colours) of part of the stabilizer of S: a transposition linking each
    colour to its block's lowest colour (``blk``), then, for each peg permutation, one colour
    permutation that goes with it if any is found (colours matched by how often they sit on
    each peg of S, at most MAX_TRIES complete maps checked on S), and its inverse."""
    p = digits.shape[1]
    ng = 0
    cap = colors + 2 * pperms.shape[0]
    gsig = np.empty((cap, p), dtype=np.int64)
    gtau = np.empty((cap, colors), dtype=np.int64)
    for c in range(colors):
        if blk[c] != c:
            for i in range(p):
                gsig[ng, i] = i
            for a in range(colors):
                gtau[ng, a] = a
            gtau[ng, c] = blk[c]
            gtau[ng, blk[c]] = c
            ng += 1
    sig = np.zeros((colors, p), dtype=np.int64)
    for s in cands:
        for i in range(p):
            sig[digits[s, i], i] += 1
    for s in cands:
        mask[s] = True
    tau = np.empty(colors, dtype=np.int64)
    used = np.zeros(colors, dtype=np.bool_)
    opt = np.zeros((colors, colors), dtype=np.bool_)
    optlist = np.zeros((colors, colors), dtype=np.int64)
    optlen = np.zeros(colors, dtype=np.int64)
    idx = np.zeros(colors, dtype=np.int64)
    for k in range(pperms.shape[0]):
        sg = pperms[k]
        possible = True
        for a in range(colors):
            anyb = False
            for b in range(colors):
                ok = True
                for i in range(p):
                    if sig[b, sg[i]] != sig[a, i]:
                        ok = False
                        break
                opt[a, b] = ok
                anyb = anyb or ok
            if not anyb:
                possible = False
                break
        if not possible:
            continue
        # Depth-first over colours, each trying itself first, then the others in order.
        for a in range(colors):
            m = 0
            if opt[a, a]:
                optlist[a, 0] = a
                m = 1
            for bb in range(colors):
                if bb != a and opt[a, bb]:
                    optlist[a, m] = bb
                    m += 1
            optlen[a] = m
            used[a] = False
            idx[a] = 0
        tries = 0
        found = False
        level = 0
        while level >= 0:
            if level == colors:
                tries += 1
                good = True
                for s in cands:
                    v = 0  # the image of s: colour tau[s[i]] on peg sg[i]
                    for i in range(p):
                        v += tau[digits[s, i]] * pows[sg[i]]
                    if not mask[vindex[v]]:
                        good = False
                        break
                if good:
                    found = True
                    break
                if tries >= MAX_TRIES:
                    break
                level -= 1
                used[tau[level]] = False
                idx[level] += 1
                continue
            while idx[level] < optlen[level] and used[optlist[level, idx[level]]]:
                idx[level] += 1
            if idx[level] == optlen[level]:
                level -= 1
                if level >= 0:
                    used[tau[level]] = False
                    idx[level] += 1
                continue
            tau[level] = optlist[level, idx[level]]
            used[tau[level]] = True
            level += 1
            if level < colors:
                idx[level] = 0
        if not found:
            continue
        for i in range(p):
            gsig[ng, i] = sg[i]
        for c in range(colors):
            gtau[ng, c] = tau[c]
        ng += 1
        inv_same = True
        for i in range(p):
            if sg[sg[i]] != i:
                inv_same = False
        for c in range(colors):
            if tau[tau[c]] != c:
                inv_same = False
        if not inv_same:
            for i in range(p):
                gsig[ng, sg[i]] = i
            for c in range(colors):
                gtau[ng, tau[c]] = c
            ng += 1
    for s in cands:
        mask[s] = False
    return gsig[:ng], gtau[:ng]


@njit(cache=True, nogil=True)
def orbit_reps(gsig, gtau, digits, pows, vindex):  # pragma: no cover
    """rep[x]: the lowest code of x's orbit under the generators; img[k]: generator k's map
    (colour gtau[k][x[i]] on peg gsig[k][i]; written in the loop, as in :func:`stabilizer`:
    a helper called per code costs numba a reference count per array argument)."""
    n = digits.shape[0]
    p = digits.shape[1]
    k = gsig.shape[0]
    img = np.empty((k, n), dtype=np.int64)
    for g in range(k):
        for x in range(n):
            v = 0
            for i in range(p):
                v += gtau[g, digits[x, i]] * pows[gsig[g, i]]
            img[g, x] = vindex[v]
    # Breadth first from each code not yet reached, in increasing order: the first of an orbit
    # is its lowest (one pass; iterating every generator's whole map to a fixed point took a
    # third of Bulls and Cows' search).
    rep = np.full(n, -1, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    for x in range(n):
        if rep[x] >= 0:
            continue
        rep[x] = x
        queue[0] = x
        head = 0
        tail = 1
        while head < tail:
            y = queue[head]
            head += 1
            for g in range(k):
                z = img[g, y]
                if rep[z] < 0:
                    rep[z] = x
                    queue[tail] = z
                    tail += 1
    return rep, img


@njit(cache=True, nogil=True)
def _packed(fbc, cands, n_codes):  # pragma: no cover
    """W[g]: the class sizes of code g at S as 4-bit counters, counter f for (compact) answer f
    (|S| < 16, at most 16 answers): one shift and add per (secret, code), the rows of S read in
    order (the matrix is symmetric), a loop the compiler vectorizes."""
    W = np.zeros(n_codes, dtype=np.uint64)
    four = np.uint64(4)
    for s in cands:
        row = fbc[s]
        for g in range(n_codes):
            W[g] += np.uint64(1) << (np.uint64(row[g]) * four)
    return W


@njit(cache=True, nogil=True)
def _packed8(fbc, cands, n_codes):  # pragma: no cover
    """(lo, hi): the class sizes of every code at S as 8-bit counters (|S| < 256, at most 16
    answers), answer f's counter in lo when f < 8, else in hi, at bits 8 (f mod 8)."""
    lo = np.zeros(n_codes, dtype=np.uint64)
    hi = np.zeros(n_codes, dtype=np.uint64)
    one = np.uint64(1)
    for s in cands:
        row = fbc[s]
        for g in range(n_codes):
            f = np.uint64(row[g])
            inc = one << ((f & np.uint64(7)) << np.uint64(3))
            sel = np.uint64(0) - (f >> np.uint64(3))  # every bit when f >= 8
            lo[g] += inc & ~sel
            hi[g] += inc & sel
    return lo, hi


@njit(cache=True, nogil=True, inline="always")
def _packs(n, b, n_fc):  # pragma: no cover
    """Whether a set of n secrets takes the 4-bit counters of :func:`_packed`: at most b + 1
    secrets (a class's counting total is then 2c - 1), fewer than 16 (a counter's range), at
    most 16 answers (a word's)."""
    return n <= b + 1 and n < 16 and n_fc <= 16


@njit(cache=True, nogil=True)
def _counting_values(fb, n_fb, win, dct, W, fbc, cands, guesses, m, mw, lexk, ctotal, ncap, rc, limit,
                     n_fc, winc):  # pragma: no cover
    """(qall, big): each of guesses[:m]'s counting value at S = cands and its largest
    non-winning class (or 0 where no test needs it, with ``W``), rc guesses left after it.
    From the 4-bit counters W when S has them (an empty W: it has not); else, below 256 secrets
    and with the compact matrix, from 8-bit counters (:func:`_packed8`); else, for a few secrets,
    guess by guess with its class sizes in one small array (cache resident), reading fb[s, g]
    from the n rows of S side by side; else one row of the (symmetric) feedback matrix per
    secret, read in order, the counting value growing with each secret added to a class."""
    n = cands.shape[0]
    qall = np.full(m, mw * n, dtype=np.int64)
    big = np.zeros(m, dtype=np.int32)
    if W.shape[0] > 0:
        # The counters w of a code, n = |S| <= b + 1: every class then has at most b + 1
        # secrets, whose counting total is 2c - 1, so the value is mw (n + 2 (n - i) - k), k the
        # non-empty non-winning classes, i = 1 if the code is in S; with lexk, plus lexk per
        # secret beyond the cap. The largest class is read only where a test needs it: against
        # a limit below n, or whether one class holds all of S. (Written in the loop, not in a
        # helper: numba counts a reference per array argument and call.)
        winsh = np.uint64(4 * winc)
        nonwin = ONES & ~(np.uint64(15) << winsh)
        scan = lexk != 0 or (limit >= 0 and limit < n)
        for j in range(m):
            w = W[guesses[j]]
            nz = (w | (w >> np.uint64(1)) | (w >> np.uint64(2)) | (w >> np.uint64(3))) & nonwin
            kk = np.int64((nz * ONES) >> np.uint64(60))
            inw = np.int64((w >> winsh) & np.uint64(15))
            q = mw * (3 * n - 2 * inw - kk)
            bg = 0
            if scan:
                for f in range(n_fc):
                    if f != winc:
                        c = np.int64((w >> (np.uint64(f) * np.uint64(4))) & np.uint64(15))
                        if c > bg:
                            bg = c
                        if lexk and c > 0:
                            q += ccost(ctotal, ncap, mw, lexk, c, rc) - mw * (2 * c - 1)
            elif kk == 1 and inw == 0:
                bg = n  # one class: S itself
            qall[j] = q
            big[j] = bg
        return qall, big
    if n < 256 and fbc.shape[0] == fb.shape[0] and n_fc <= 16:
        # 8-bit counters, answers 0-7 in one word and 8-15 in another, every code's built
        # secret by secret (one row of the compact matrix each, a loop the compiler
        # vectorizes); then each guess's value from its classes' counting costs.
        lo, hi = _packed8(fbc, cands, fb.shape[0])
        cc = np.zeros(n + 1, dtype=np.int64)
        for c in range(1, n + 1):
            cc[c] = ccost(ctotal, ncap, mw, lexk, c, rc)
        for j in range(m):
            g = guesses[j]
            q = mw * n
            bg = 0
            w = lo[g]
            for f in range(n_fc):
                if f == 8:
                    w = hi[g]
                c = np.int64((w >> (np.uint64(f & 7) * np.uint64(8))) & np.uint64(255))
                if f != winc:
                    q += cc[c]
                    if c > bg:
                        bg = c
            qall[j] = q
            big[j] = bg
        return qall, big
    dq = steps(dct, ncap, mw, lexk, n, rc)
    if n <= SMALLN:
        loc = np.zeros(n_fb, dtype=np.int64)
        for j in range(m):
            g = guesses[j]
            q = mw * n
            bg = 0
            for s in cands:
                f = fb[s, g]
                if f != win:
                    c = loc[f] + 1
                    loc[f] = c
                    q += dq[c]
                    if c > bg:
                        bg = c
            for s in cands:
                loc[fb[s, g]] = 0
            qall[j] = q
            big[j] = bg
        return qall, big
    cnt = np.zeros((m, n_fb), dtype=np.int32)
    for s in cands:
        row = fb[s]
        for j in range(m):
            f = row[guesses[j]]
            if f != win:
                c = cnt[j, f] + 1
                cnt[j, f] = c
                qall[j] += dq[c]
                if c > big[j]:
                    big[j] = c
    return qall, big


@njit(cache=True, nogil=True, inline="always")
def _stable_order(vals, k):  # pragma: no cover
    """np.argsort(vals[:k], kind="mergesort"): by value, ties in index order. A counting sort
    when the values span little more than k (small sets: their values lie between 2n and 3n),
    else the merge sort."""
    if k == 0:
        return np.zeros(0, dtype=np.int64)
    lo = vals[0]
    hi = vals[0]
    for i in range(k):
        if vals[i] < lo:
            lo = vals[i]
        if vals[i] > hi:
            hi = vals[i]
    if hi - lo > 4 * k + 64:
        return np.argsort(vals[:k], kind="mergesort")
    at = np.zeros(hi - lo + 2, dtype=np.int64)
    for i in range(k):
        at[vals[i] - lo + 1] += 1
    for v in range(hi - lo + 1):
        at[v + 1] += at[v]
    order = np.empty(k, dtype=np.int64)
    for i in range(k):
        v = vals[i] - lo
        order[at[v]] = i
        at[v] += 1
    return order


@njit(cache=True, nogil=True)
def solve(fb, n_fb, win, b, ctotal, dct, ncap, mw, lexk, digits, colors, swaps, pa, pb, mask,
          pperms, pows, vindex, nsym, table, E, pool, st, cands, r, beta, fbc, n_fc, winc,
          gcache):  # pragma: no cover
    """T(cands, r) fail-soft against ``beta`` (r = -1: no limit). Memoised. The cost of a secret
    found at the l-th guess from here is mw * l, plus lexk when l = r (the last allowed)."""
    n = cands.shape[0]
    if n == 0:
        return 0
    if st[OVERFLOW]:
        return INF
    if r >= 0 and (r == 0 or n > ncap[r]):
        return INF
    if n == 1:
        return mw + (lexk if r == 1 else 0)
    if n == 2:
        return 3 * mw + (lexk if r == 2 else 0)
    base = ccost(ctotal, ncap, mw, lexk, n, r)
    if base >= beta:
        return base
    e = find(table, E, pool, cands, r)
    if e >= 0 and (E[e, EXACT] == 1 or E[e, LB] >= beta):
        return E[e, LB]
    st[NODES] += 1
    n_codes = fb.shape[0]
    sz = np.zeros(n_fb + 1, dtype=np.int64)
    W = np.zeros(0, dtype=np.uint64)  # the 4-bit counters of a small set (_packs), else empty
    # Small sets: 2n - 1 through a candidate that splits the others into singletons, else
    # at least 2n (every guess's counting value), reached by a code that splits S so.
    if n <= b + 1:
        small1, small2 = small_costs(mw, lexk, n, r)
        stamp = 0
        for c in cands:
            stamp += 1
            row = fb[c]
            ok = True
            for s in cands:
                f = row[s]
                if f != win:
                    if sz[f] == stamp:
                        ok = False
                        break
                    sz[f] = stamp
            if ok:
                _store(table, E, pool, st, cands, r, small1, 1, c, -1)
                return small1
        if small2 >= beta:
            _store(table, E, pool, st, cands, r, small2, 0, -1, small2)
            return small2
        # Every code's class sizes as 4-bit counters in one word (n < 16, at most 16 answers):
        # one shift and add per (secret, code), the n rows of the (symmetric) feedback matrix
        # read in order. A code splits S into singletons when no counter exceeds 1.
        if _packs(n, b, n_fc):
            W = _packed(fbc, cands, n_codes)
            for g in range(n_codes):
                if W[g] & HIGH3 == 0:
                    _store(table, E, pool, st, cands, r, small2, 1, g, small2)
                    return small2
        else:
            for g in range(n_codes):
                seen = np.int64(0)
                ok = True
                for s in cands:
                    bit = np.int64(1) << fb[s, g]
                    if seen & bit:
                        ok = False
                        break
                    seen |= bit
                if ok:
                    _store(table, E, pool, st, cands, r, small2, 1, g, small2)
                    return small2
        sz[:] = 0
    st[FULL] += 1
    guesses = np.empty(n_codes, dtype=np.int64)
    m_all = guess_reps(cands, mask, swaps, pa, pb, colors, digits, pperms, pows, vindex, nsym, guesses, gcache)
    quick = np.empty(n_codes, dtype=np.int64)
    rc = -1 if r < 0 else r - 1
    limit = -1 if r < 0 else ncap[rc]
    lowest = np.int64(INF)  # the least lower bound among guesses no better than beta (fail-soft)
    qall, big = _counting_values(fb, n_fb, win, dct, W, fbc, cands, guesses, m_all, mw, lexk, ctotal, ncap, rc,
                                 limit, n_fc, winc)
    k = 0
    minq = np.int64(INF)  # the least counting value of a code not refuted by a class size (orbits share it)
    for j in range(m_all):
        if limit >= 0 and big[j] > limit:
            continue  # infeasible
        q = qall[j]
        if q < minq:
            minq = q
        if r < 0 and big[j] == n:
            continue  # learns nothing: never better (its proof refers to S)
        if q >= beta:
            if q < lowest:
                lowest = q
            continue
        guesses[k] = guesses[j]
        quick[k] = q
        k += 1
    order = _stable_order(quick, k)
    best = beta
    best_g = -1
    part = np.empty(n, dtype=cands.dtype)
    start = np.empty(n_fb + 1, dtype=np.int64)
    fill = np.empty(n_fb, dtype=np.int64)
    cls = np.empty(n_fb, dtype=np.int64)
    for j in range(k):
        i = order[j]
        q = quick[i]
        if q >= best:
            if q < lowest:
                lowest = q
            break
        g = guesses[i]
        row = fb[g]
        st[TRIED] += 1
        for f in range(n_fb):
            fill[f] = 0
        for s in cands:
            fill[row[s]] += 1
        start[0] = 0
        nc = 0
        for f in range(n_fb):
            start[f + 1] = start[f] + fill[f]
            if f != win and fill[f] >= 2:
                # insertion by size, smallest first (ties: lower feedback first)
                t = nc
                while t > 0 and fill[cls[t - 1]] > fill[f]:
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
            m = start[f + 1] - start[f]
            qc = ccost(ctotal, ncap, mw, lexk, m, rc)
            st[CHILDREN] += 1
            v = solve(fb, n_fb, win, b, ctotal, dct, ncap, mw, lexk, digits, colors, swaps, pa, pb, mask,
                      pperms, pows, vindex, nsym, table, E, pool, st, part[start[f]:start[f] + m], rc,
                      best - (acc - qc), fbc, n_fc, winc, gcache)
            acc += v - qc
            if acc >= best:
                break
        if acc < best:
            best = acc
            best_g = g
        elif acc < lowest:
            lowest = acc
    if best_g >= 0:
        _store(table, E, pool, st, cands, r, best, 1, best_g, minq)
        return best
    if lowest > INF:
        lowest = np.int64(INF)
    _store(table, E, pool, st, cands, r, lowest, 0, -1, minq)
    return lowest


@njit(cache=True, nogil=True)
def node_scan(fb, n_fb, win, dct, ctotal, ncap, mw, lexk, digits, colors, swaps, pa, pb, mask, pperms, pows,
              vindex, nsym, fbc, n_fc, winc, gcache, cands, r):  # pragma: no cover
    """(guesses, counting values) at a node (cands, r) as :func:`solve` scans it (r = -1: no
    limit): one guess per orbit, less those with a class beyond N(r - 1) or, without a limit,
    that leave S whole. For :mod:`.estimate`, which times it as the node's own work."""
    n = cands.shape[0]
    guesses = np.empty(fb.shape[0], dtype=np.int64)
    m = guess_reps(cands, mask, swaps, pa, pb, colors, digits, pperms, pows, vindex, nsym, guesses, gcache)
    rc = -1 if r < 0 else r - 1
    limit = -1 if r < 0 else ncap[rc]
    qall, big = _counting_values(fb, n_fb, win, dct, np.zeros(0, dtype=np.uint64), fbc, cands, guesses, m, mw,
                                 lexk, ctotal, ncap, rc, limit, n_fc, winc)
    k = 0
    q = np.empty(m, dtype=np.int64)
    for j in range(m):
        if (limit >= 0 and big[j] > limit) or (r < 0 and big[j] == n):
            continue
        guesses[k] = guesses[j]
        q[k] = qall[j]
        k += 1
    return guesses[:k].copy(), q[:k].copy()


@njit(cache=True, nogil=True)
def _no_entries(E, e, bound, n, b, mw, lexk, r):  # pragma: no cover
    """Whether the proof node of a set of n secrets (memo entry e, or -1), bound ``bound``, r
    guesses left, has no guess entries: the search saw every code there refuted by counting, or
    it is a small set proven at 2n (no candidate splits it into singletons: every guess costs 2n
    or more by counting). :func:`node_entries` skips such a node, and says so of its children."""
    return (e >= 0 and E[e, MINQ] >= bound) or (n <= b + 1 and bound <= small_costs(mw, lexk, n, r)[1])


@njit(cache=True, nogil=True)
def node_entries(fb, n_fb, win, b, ctotal, dct, ncap, mw, lexk, digits, colors, swaps, pa, pb, mask,
                 pperms, pows, vindex, nsym,
                 table, E, pool, cands, r, bound, fbc, n_fc, winc):  # pragma: no cover
    """The guess entries of the proof node (cands, bound) with r guesses left (-1: none).

    Every code whose counting value is below ``bound`` and that is the lowest of its orbit
    under the permutations of each colour block (``blk``: the node lists its blocks as
    interchangeable colours, and the checker skips the other codes): kind 0 (same_as its
    orbit's lowest code, when peg permutations join the orbits), 1 (classes with their proven
    bounds, from the memo) or 2 (learns nothing: S again). Returns (codes, kinds, blk, per
    child: code's position, feedback, start, size, bound, 1 if its own node will have no
    entries (counting settles it, or a small set proven at 2m), and the children's secrets), or a
    negative kind when a guess is not refuted."""
    n = cands.shape[0]
    n_codes = fb.shape[0]
    e = find(table, E, pool, cands, r)
    rc = -1 if r < 0 else r - 1
    limit = -1 if r < 0 else ncap[rc]
    codes = []
    kinds = []
    c_at = []
    c_f = []
    c_start = []
    c_len = []
    c_lb = []
    c_leaf = []
    cpool = []
    sz = np.zeros(n_fb, dtype=np.int64)
    fill = np.zeros(n_fb, dtype=np.int64)
    start = np.zeros(n_fb + 1, dtype=np.int64)
    part = np.empty(n, dtype=np.int64)
    extra = np.zeros(n_fb, dtype=np.int64)
    lbs = np.zeros(n_fb, dtype=np.int64)
    leaf = np.zeros(n_fb, dtype=np.int64)
    skip = _no_entries(E, e, bound, n, b, mw, lexk, r)
    # The counting value of every code that is the lowest of its orbit under the colour
    # blocks' permutations (the others have no entry; the permutations fix S, so the values
    # are those of the orbits' lowest codes), all at once (:func:`_counting_values`).
    full = False
    rep = np.zeros(1, dtype=np.int64)
    blk = np.arange(colors)
    qall = np.full(n_codes, INF, dtype=np.int64)
    bigall = np.zeros(n_codes, dtype=np.int32)
    if not skip:
        blk, rank, _ = blocks(cands, mask, swaps, pa, pb, colors)
        lowest = np.empty(n_codes, dtype=np.int64)
        m = canonical_codes(digits, blk, rank, lowest)
        W = _packed(fbc, cands, n_codes) if _packs(n, b, n_fc) else np.zeros(0, dtype=np.uint64)
        q, big = _counting_values(fb, n_fb, win, dct, W, fbc, cands, lowest, m, mw, lexk, ctotal, ncap, rc, limit,
                                  n_fc, winc)
        skip = True
        for j in range(m):
            qall[lowest[j]] = q[j]
            bigall[lowest[j]] = big[j]
            if q[j] < bound:
                skip = False  # some code is not refuted by counting: entries to write
        if not skip:
            full, rep = _full_orbits(cands, mask, digits, colors, pperms, pows, vindex, blk, nsym)
    for x in range(n_codes):
        if skip:
            break
        q = qall[x]
        big = bigall[x]
        if q >= bound:
            continue  # refuted by counting, or not the lowest of its orbit (INF)
        row = fb[x]
        for s in cands:
            sz[row[s]] += 1
        sz[win] = 0
        if limit >= 0 and big > limit:
            for s in cands:
                sz[row[s]] = 0
            continue  # a class no strategy settles in time: refuted by counting
        if r < 0 and big == n:
            codes.append(x)
            kinds.append(2)
            for s in cands:
                sz[row[s]] = 0
            continue
        if full and rep[x] != x:
            codes.append(x)
            kinds.append(0)
            for s in cands:
                sz[row[s]] = 0
            continue
        start[0] = 0
        for f in range(n_fb):
            start[f + 1] = start[f] + sz[f]
            fill[f] = start[f]
        for s in cands:
            f = row[s]
            if f != win:
                part[fill[f]] = s
                fill[f] += 1
        total = q
        for f in range(n_fb):
            extra[f] = 0
            m = sz[f]
            if m < 2:
                continue
            e = find(table, E, pool, part[start[f]:start[f] + m], rc)
            qc = ccost(ctotal, ncap, mw, lexk, m, rc)
            lb = qc
            if e >= 0 and E[e, LB] > lb:
                lb = E[e, LB]
            lbs[f] = lb
            leaf[f] = _no_entries(E, e, lb, m, b, mw, lexk, rc)  # its own node is skipped
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
        for s in cands:
            sz[row[s]] = 0
    return _packed_entries(codes, kinds, c_at, c_f, c_start, c_len, c_lb, c_leaf, cpool, blk, full, rep, cands,
                           mask, digits, colors, pperms, pows, vindex)


@njit(cache=True, nogil=True)
def _keep_needed(extra, n_fb, spare):  # pragma: no cover
    """Keep only the children a node's bound needs (shared by :func:`node_entries` and the
    weighted twin): zero the smallest extras while they fit in the spare (ties: lower feedback
    first)."""
    while True:
        pick = -1
        for f in range(n_fb):
            if extra[f] > 0 and (pick < 0 or extra[f] < extra[pick]):
                pick = f
        if pick < 0 or extra[pick] > spare:
            return
        spare -= extra[pick]
        extra[pick] = 0


@njit(cache=True, nogil=True)
def _packed_entries(codes, kinds, c_at, c_f, c_start, c_len, c_lb, c_leaf, cpool, blk, full, rep, cands, mask,
                    digits, colors, pperms, pows, vindex):  # pragma: no cover
    """A node's entries, gathered in lists, as the arrays :func:`node_entries` returns (shared
    with the weighted twin), with the peg and colour permutations that take each code to its
    orbit's representative when peg permutations join the orbits."""
    children = np.empty((len(c_at), 6), dtype=np.int64)
    for i in range(len(c_at)):
        children[i, 0] = c_at[i]
        children[i, 1] = c_f[i]
        children[i, 2] = c_start[i]
        children[i, 3] = c_len[i]
        children[i, 4] = c_lb[i]
        children[i, 5] = c_leaf[i]
    out_pool = np.empty(len(cpool), dtype=np.int64)
    for i in range(len(cpool)):
        out_pool[i] = cpool[i]
    out_codes = np.empty(len(codes), dtype=np.int64)
    out_kinds = np.empty(len(codes), dtype=np.int64)
    for i in range(len(codes)):
        out_codes[i] = codes[i]
        out_kinds[i] = kinds[i]
    psig = np.zeros((0, digits.shape[1]), dtype=np.int64)
    ptau = np.zeros((0, colors), dtype=np.int64)
    if full:
        psig, ptau = _perms_to_rep(cands, mask, digits, colors, pperms, pows, vindex, blk, rep)
    return out_codes, out_kinds, blk, children, out_pool, full, rep, psig, ptau


@njit(cache=True, nogil=True)
def _full_orbits(cands, mask, digits, colors, pperms, pows, vindex, blk, nsym):  # pragma: no cover
    """(True, rep) when S is big enough (>= nsym) and some peg permutation fixes it (with a
    colour permutation): rep[x], the lowest code of x's orbit; else (False, unused)."""
    if cands.shape[0] < nsym or pperms.shape[0] == 0:
        return False, np.zeros(1, dtype=np.int64)
    gsig, gtau = stabilizer(cands, mask, digits, colors, pperms, pows, vindex, blk)
    swaps = 0
    for c in range(colors):
        if blk[c] != c:
            swaps += 1
    if gsig.shape[0] == swaps:
        return False, np.zeros(1, dtype=np.int64)
    rep, _ = orbit_reps(gsig, gtau, digits, pows, vindex)
    return True, rep


@njit(cache=True, nogil=True)
def guess_reps(cands, mask, swaps, pa, pb, colors, digits, pperms, pows, vindex, nsym, out,
               gcache):  # pragma: no cover
    """Writes to out the guesses worth trying at S, one per orbit (the lowest code): of the
    permutations found to fix S (:func:`_full_orbits`) when peg permutations are among them,
    else of the colour blocks' permutations (:func:`canonical_codes`, cached in ``gcache``:
    see :func:`_canonical_cached`), else every code; returns how many."""
    blk, rank, count = blocks(cands, mask, swaps, pa, pb, colors)
    full, rep = _full_orbits(cands, mask, digits, colors, pperms, pows, vindex, blk, nsym)
    n_codes = digits.shape[0]
    if full:
        m = 0
        for g in range(n_codes):
            if rep[g] == g:
                out[m] = g
                m += 1
        return m
    for c in range(colors):
        if count[c] > 1:
            return _canonical_cached(digits, blk, rank, out, gcache)
    for g in range(n_codes):
        out[g] = g
    return n_codes


@njit(cache=True, nogil=True)
def _canonical_cached(digits, blk, rank, out, gcache):  # pragma: no cover
    """:func:`canonical_codes`, kept in ``gcache`` by the colour blocks (``rank`` follows from
    ``blk``): few block structures occur, each in many nodes. An empty cache, or more than 15
    colours (the key would overflow), or a full pool: computed each time."""
    colors = blk.shape[0]
    if gcache.shape[0] == 0 or colors > 15:
        return canonical_codes(digits, blk, rank, out)
    key = 0
    for c in range(colors):
        key = key * colors + blk[c]
    key += 1
    head = 3 * GSLOTS
    k = (key * 40503) & (GSLOTS - 1)
    for _ in range(GSLOTS):
        if gcache[3 * k] == key:
            off = gcache[3 * k + 1]
            m = gcache[3 * k + 2]
            for i in range(m):
                out[i] = gcache[off + i]
            return m
        if gcache[3 * k] == 0:
            m = canonical_codes(digits, blk, rank, out)
            off = head + 1 + gcache[head]
            if off + m <= gcache.shape[0]:
                gcache[3 * k] = key
                gcache[3 * k + 1] = off
                gcache[3 * k + 2] = m
                for i in range(m):
                    gcache[off + i] = out[i]
                gcache[head] += m
            return m
        k = (k + 1) & (GSLOTS - 1)
    return canonical_codes(digits, blk, rank, out)


@njit(cache=True, nogil=True)
def _perms_to_rep(cands, mask, digits, colors, pperms, pows, vindex, blk, rep):  # pragma: no cover
    """psig[x], ptau[x]: a permutation P with P(S) = S and P(x) = rep[x] (breadth first from
    the representatives: P_y = P_x . g^-1 for y = g(x))."""
    gsig, gtau = stabilizer(cands, mask, digits, colors, pperms, pows, vindex, blk)
    _, img = orbit_reps(gsig, gtau, digits, pows, vindex)
    n = digits.shape[0]
    p = digits.shape[1]
    k = gsig.shape[0]
    isig = np.empty((k, p), dtype=np.int64)
    itau = np.empty((k, colors), dtype=np.int64)
    for g in range(k):
        for i in range(p):
            isig[g, gsig[g, i]] = i
        for c in range(colors):
            itau[g, gtau[g, c]] = c
    psig = np.empty((n, p), dtype=np.int64)
    ptau = np.empty((n, colors), dtype=np.int64)
    known = np.zeros(n, dtype=np.bool_)
    queue = np.empty(n, dtype=np.int64)
    head = 0
    tail = 0
    for x in range(n):
        if rep[x] == x:
            known[x] = True
            for i in range(p):
                psig[x, i] = i
            for c in range(colors):
                ptau[x, c] = c
            queue[tail] = x
            tail += 1
    while head < tail:
        x = queue[head]
        head += 1
        for g in range(k):
            y = img[g, x]
            if not known[y]:
                known[y] = True
                for i in range(p):
                    psig[y, i] = psig[x, isig[g, i]]
                for c in range(colors):
                    ptau[y, c] = ptau[x, itau[g, c]]
                queue[tail] = y
                tail += 1
    return psig, ptau


@njit(cache=True, nogil=True)
def entries_batch(fb, n_fb, win, b, ctotal, dct, ncap, mw, lexk, digits, colors, swaps, pa, pb, mask,
                  pperms, pows, vindex, nsym, table, E, pool, bpool, boff, brs, bbounds, fbc, n_fc,
                  winc):  # pragma: no cover
    """:func:`node_entries` of many nodes in one call (node i: secrets bpool[boff[i]:boff[i+1]],
    r brs[i], bound bbounds[i]). Returns flat rows: per entry (node, code, kind, same_as code
    or -1), its permutation (pegs then colours; kind 0 only), per child (entry row, feedback,
    start, size, bound, whether its node has no entries) with the children's secrets, and each node's colour blocks."""
    p = digits.shape[1]
    r_node = []
    r_code = []
    r_kind = []
    r_rep = []
    r_perm = []
    ch = []
    ch_pool = []
    nblk = np.empty((boff.shape[0] - 1, colors), dtype=np.int64)
    for i in range(boff.shape[0] - 1):
        for c in range(colors):
            nblk[i, c] = c
        cands = bpool[boff[i]:boff[i + 1]]
        e = find(table, E, pool, cands, brs[i])
        if e < 0 or E[e, LB] < bbounds[i]:  # asked more than the search proved: a bug
            r_node.append(i)
            r_code.append(-1)
            r_kind.append(-2)
            r_rep.append(-1)
            for t in range(p + colors):
                r_perm.append(0)
            continue
        codes, kinds, blk, children, cp, full, rep, psig, ptau = node_entries(
            fb, n_fb, win, b, ctotal, dct, ncap, mw, lexk, digits, colors, swaps, pa, pb, mask,
            pperms, pows, vindex, nsym, table, E, pool, cands, brs[i], bbounds[i], fbc, n_fc, winc)
        base_row = len(r_code)
        base_pool = len(ch_pool)
        nblk[i] = blk
        for j in range(codes.shape[0]):
            x = codes[j]
            r_node.append(i)
            r_code.append(x)
            r_kind.append(kinds[j])
            if kinds[j] != 0:
                r_rep.append(-1)
                for t in range(p + colors):
                    r_perm.append(0)
                continue
            r_rep.append(rep[x])  # kind 0 only where peg permutations join the orbits (full)
            for t in range(p):
                r_perm.append(psig[x, t])
            for t in range(colors):
                r_perm.append(ptau[x, t])
        for j in range(children.shape[0]):
            ch.append(base_row + children[j, 0])
            ch.append(children[j, 1])
            ch.append(base_pool + children[j, 2])
            ch.append(children[j, 3])
            ch.append(children[j, 4])
            ch.append(children[j, 5])
        for t in range(cp.shape[0]):
            ch_pool.append(cp[t])
    m = len(r_code)
    rows = np.empty((m, 4), dtype=np.int64)
    perms = np.empty((m, p + colors), dtype=np.int64)
    for j in range(m):
        rows[j, 0] = r_node[j]
        rows[j, 1] = r_code[j]
        rows[j, 2] = r_kind[j]
        rows[j, 3] = r_rep[j]
        for t in range(p + colors):
            perms[j, t] = r_perm[j * (p + colors) + t]
    kids = np.empty((len(ch) // 6, 6), dtype=np.int64)
    for j in range(len(ch) // 6):
        for t in range(6):
            kids[j, t] = ch[6 * j + t]
    kpool = np.empty(len(ch_pool), dtype=np.int64)
    for j in range(len(ch_pool)):
        kpool[j] = ch_pool[j]
    return rows, perms, kids, kpool, nblk


class Engine:
    """The compiled search's constant tables and its memo, for one game. With ``units`` (A, B)
    the cost is lexicographic (docs/lower-bound-format.md, "at_max"): a secret found at depth l
    costs A l, plus B when l is the last guess allowed; the memo is then of those costs."""

    def __init__(self, space, count, units: tuple = (1, 0)) -> None:
        import itertools

        self.space = space
        n = space.n
        self.mw, self.lexk = (int(units[0]), int(units[1]))
        self.fb = space.fb
        self.n_fb = int(space.n_fb)
        self.win = int(space.win)
        # The feedbacks that occur, numbered 0..n_fc-1 (4 pegs: 14 of the 25 codes), for the
        # 4-bit counters of small sets (at most 16 answers fit a word).
        seen = np.zeros(256, dtype=np.bool_)
        seen[self.fb.ravel()] = True  # (np.unique sorts the whole matrix: 22 ms of a 4x6 build)
        used = np.flatnonzero(seen)
        lut = np.zeros(self.n_fb, dtype=np.uint8)
        lut[used] = np.arange(len(used))
        self.fbc = np.ascontiguousarray(lut[self.fb]) if len(used) <= 16 else np.zeros((1, 1), np.uint8)
        self.n_fc = int(len(used))
        self.winc = int(lut[self.win])
        self.b = int(count.b)
        self.ctotal = np.array([count.total(k) for k in range(n + 1)], dtype=np.int64)
        self.dct = np.diff(self.ctotal, prepend=0)
        ncap = []
        k = 0
        while True:
            v = count.N(k)
            ncap.append(min(v, 1 << 62))
            if v > n:
                break
            k += 1
        self.ncap = np.array(ncap + [ncap[-1]] * 64, dtype=np.int64)
        self.digits = np.ascontiguousarray(space.digits, dtype=np.int64)
        self.colors = int(space.colors)
        pairs = list(itertools.combinations(range(space.colors), 2))
        self.pa = np.array([a for a, _ in pairs], dtype=np.int64)
        self.pb = np.array([b for _, b in pairs], dtype=np.int64)
        ident = tuple(range(space.pegs))
        images = []
        for a, b in pairs:
            tau = list(range(space.colors))
            tau[a], tau[b] = b, a
            images.append(space.image(ident, tuple(tau)))
        self.swaps = np.ascontiguousarray(np.array(images, dtype=np.int64).reshape(len(pairs), n))
        self.mask = np.zeros(n, dtype=np.bool_)
        p, c = space.pegs, space.colors
        from .symmetry import peg_permutations

        self.pperms = np.array(peg_permutations(p, ENGINE_ALL_PEG_PERMS), dtype=np.int64).reshape(-1, p)
        self.pows, self.vindex = space.pows, space.vindex
        self.nsym = NSYM
        self.table = np.zeros(1 << 16, dtype=np.int64)
        self.E = np.zeros((1 << 14, NCOL), dtype=np.int64)
        self.pool = np.zeros(1 << 18, dtype=np.int32)
        self.st = np.zeros(8, dtype=np.int64)
        self.gcache = np.zeros(3 * GSLOTS + 1 + min(GPOOL, 64 * n), dtype=np.int64)
        #: Called with the nodes searched so far, every 2 s of a long call (None: no thread).
        self.progress = None

    @property
    def nodes(self) -> int:
        return int(self.st[NODES])

    def _grow(self) -> None:
        st = self.st
        used = int(st[USED])
        E = np.zeros((2 * len(self.E), NCOL), dtype=np.int64)
        E[:used] = self.E[:used]
        self.E = E
        if st[POOL] * 2 >= len(self.pool):
            pool = np.zeros(2 * len(self.pool), dtype=np.int32)
            pool[:st[POOL]] = self.pool[:st[POOL]]
            self.pool = pool
        self.table = np.zeros(2 * len(self.E), dtype=np.int64)
        rehash(self.table, self.E, used)
        st[OVERFLOW] = 0

    def solve(self, cands, r, beta) -> int:
        """T(cands, r) fail-soft against beta (r None: no limit)."""
        rr = -1 if r is None else int(r)
        while True:
            v = self._watched(solve, self.fb, self.n_fb, self.win, self.b, self.ctotal, self.dct, self.ncap,
                              self.mw, self.lexk, self.digits, self.colors, self.swaps, self.pa, self.pb,
                              self.mask, self.pperms, self.pows, self.vindex, self.nsym, self.table, self.E,
                              self.pool, self.st, cands, rr, int(beta), self.fbc, self.n_fc, self.winc,
                              self.gcache)
            if not self.st[OVERFLOW]:
                return int(v)
            self._grow()

    def _watched(self, func, *args):
        """func(*args); with ``progress``, in a thread (the compiled code releases the GIL)
        while this one reports the nodes searched every 2 s: the search itself is unchanged."""
        if self.progress is None:
            return func(*args)
        import threading

        out = []

        def work():
            try:
                out.append((True, func(*args)))
            except BaseException as e:  # pragma: no cover - raised again below
                out.append((False, e))
        thread = threading.Thread(target=work, name="certify-search", daemon=True)
        thread.start()
        while thread.is_alive():
            thread.join(2.0)
            if thread.is_alive():
                self.progress(int(self.st[NODES]))
        ok, value = out[0]
        if not ok:  # pragma: no cover
            raise value
        return value

    def lookup(self, cands, r):
        """(lower bound, exact, best guess) from the memo, or None."""
        e = find(self.table, self.E, self.pool, cands, -1 if r is None else int(r))
        if e < 0:
            return None
        row = self.E[e]
        return int(row[LB]), bool(row[EXACT]), int(row[BEST])

    def entries_batch(self, nodes):
        """Entries of many nodes [(cands, r, bound)] in one compiled call."""
        sizes = [len(c) for c, _, _ in nodes]
        boff = np.zeros(len(nodes) + 1, dtype=np.int64)
        np.cumsum(sizes, out=boff[1:])
        bpool = np.concatenate([c for c, _, _ in nodes]) if nodes else np.zeros(0, dtype=np.int64)
        brs = np.array([-1 if r is None else r for _, r, _ in nodes], dtype=np.int64)
        bbounds = np.array([bd for _, _, bd in nodes], dtype=np.int64)
        return entries_batch(self.fb, self.n_fb, self.win, self.b, self.ctotal, self.dct, self.ncap,
                             self.mw, self.lexk, self.digits, self.colors, self.swaps, self.pa, self.pb,
                             self.mask, self.pperms, self.pows, self.vindex, self.nsym, self.table, self.E,
                             self.pool, bpool.astype(np.int64), boff, brs, bbounds, self.fbc, self.n_fc,
                             self.winc)

    def scan(self, cands, r):
        """(guesses, counting values) at (cands, r) as the search scans the node (:func:`node_scan`)."""
        return node_scan(self.fb, self.n_fb, self.win, self.dct, self.ctotal, self.ncap, self.mw, self.lexk,
                         self.digits, self.colors, self.swaps, self.pa, self.pb, self.mask, self.pperms,
                         self.pows, self.vindex, self.nsym, self.fbc, self.n_fc, self.winc, self.gcache,
                         cands, -1 if r is None else int(r))

    def entries(self, cands, r, bound):
        return node_entries(self.fb, self.n_fb, self.win, self.b, self.ctotal, self.dct, self.ncap,
                            self.mw, self.lexk, self.digits,
                            self.colors, self.swaps, self.pa, self.pb, self.mask, self.pperms,
                            self.pows, self.vindex, self.nsym, self.table,
                            self.E, self.pool, cands, -1 if r is None else int(r), int(bound), self.fbc,
                            self.n_fc, self.winc)


def warm_up() -> None:
    """Compile (or load from numba's disk cache) every compiled function once."""
    from ..game import Game
    from .counting import Counting
    from .space import Space

    game = Game(3, 3, True)
    engine = Engine(Space(game), Counting(3, 3, True))
    every = np.arange(game.size, dtype=np.int64)
    engine.solve(every, None, INF)
    engine.lookup(every, None)
    engine.entries(every, None, engine.lookup(every, None)[0])
    engine.entries_batch([(every, None, engine.lookup(every, None)[0])])
    engine.scan(every, None)


if __name__ == "__main__":
    warm_up()
