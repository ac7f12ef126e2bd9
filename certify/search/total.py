"""Total: the least sum of guesses over the secrets, by branch and bound, with proof.

T(S, r) = min over guesses g of |S| + sum of T(C, r - 1) over g's non-winning classes C
(r: guesses left, None when unlimited; T(S, 0) is infinite for S not empty). ``solve(S, r,
beta)`` is fail-soft: it returns T exactly when T < beta, else a lower bound >= beta. Every
bound it uses is one the checker can verify: counting (``Counting.total``, and |C| > N(r - 1)
for a class that no strategy settles in time) or the bound of a sub-search it has recorded.

Two layers. The nodes above depth ``top`` are searched here, one guess per orbit of the whole
stabilizer found by :mod:`.symmetry`, guesses with identical splits merged; each records, for
every representative guess, the value it gave and which classes were above counting. Everything
below is one compiled call per class (:mod:`.engine`), with its own memo. By default ``top`` is
0 (the compiled search does it all, the root too): the Python levels cost more than the bigger
orbits they find save (4x6: 1.9 s -> 1.1 s for the whole command, proof 2.1 -> 0.6 MB of JSON;
4x7 43 s -> 42 s). :mod:`.split` searches the root here and sends its classes out as tasks.

Tie-break (deterministic): at every node the guesses are tried in increasing counting value,
ties in code order (stable sort), and the first guess that reaches the best total is kept;
a guess's classes are searched smallest first (ties: lower feedback). The proof is laid out by
:mod:`.proof` (sorted keys, nodes in a fixed order): reruns give identical bytes.

Every recorded value is at least the node's final bound (a guess cut off against an earlier,
higher best is above the final best too), which is what the checker asks. A guess that does
not split S at all (one class, S itself) is never better than the best; without a guess
limit its proof refers to S itself with the bound less |S|, a copy of S's node ("chain"
nodes, until counting suffices), since a node cannot refer to itself.

With ``at_max`` (and max_guesses D) the value is lexicographic: W x total + the secrets found at
the D-th guess, W = n + 1 (:mod:`.engine`, docs/lower-bound-format.md "at_max"); ``pair``
splits it, and the proof's claim is {"total", "max_guesses", "at_max"}. With ``first="at_max"``
the other order: (n D + 1) x (the secrets at the D-th guess) + total, the claim adding
"first": "at_max".

References: Koyama and Lai (1993) for 4x6; G. Ville, "An optimal Mastermind (4,7) strategy
and more results in the expected case" (2013): depth-first branch and bound with a tight
bound, lower bounds per class and guess equivalence, as here.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from ..errors import CertifyError, Infeasible
from .counting import Counting
from .engine import Engine
from .kernel import class_sizes
from .proof import ProofWriter
from .space import Space
from .symmetry import Alike

#: Up to 5x6 (7,776 codes); 4x6 takes seconds, Bulls and Cows (5040) a minute, 4x8 (4096) with its
#: proof about a minute and 0.6 GB, bigger games minutes to hours (docs/atlas.md, "Limits").
MAX_TOTAL_CODES = 7776
#: The bound of a node no strategy can settle within its guesses left (every bound holds
#: there, vacuously): far above any total of a game the search takes.
INFEASIBLE = 10**9
#: Nodes above this depth are searched here with the whole stabilizer (:mod:`.symmetry`);
#: below, by the compiled search (:mod:`.engine`). The tests also run 2.
TOP = 0
#: The proof's nodes are filled in batches of at most this many nodes, or codes in their sets.
BATCH_NODES = 4096
BATCH_CODES = 8192


class Entry:
    __slots__ = ("lb", "exact", "best", "record")

    def __init__(self, lb, exact, best, record):
        self.lb = lb  # proven lower bound (the value itself when exact)
        self.exact = exact
        self.best = best  # a guess that reaches lb (exact only)
        self.record = record  # {representative guess: (value, {feedback: child bound})}


class TotalSearch:
    def __init__(self, game, max_guesses: int | None = None, progress: bool = False, space=None,
                 at_max: bool = False, first: str = "total", secrets=None) -> None:
        self.game = game
        self.max_guesses = max_guesses
        if at_max and max_guesses is None:
            raise CertifyError("the fewest secrets at the maximum needs a maximum: give max_guesses")
        if first not in ("total", "at_max") or (first == "at_max" and not at_max):
            raise CertifyError(f"first must be 'total', or 'at_max' with at_max, got {first!r}")
        self.at_max = at_max
        self.first = first
        game.check_size()
        if game.size > MAX_TOTAL_CODES:
            raise CertifyError(f"game {game} has {game.size} codes: the total search handles at most "
                               f"{MAX_TOTAL_CODES}")
        self.space = Space(game) if space is None else space  # (a Space of this game, shared)
        self.count = Counting(game.pegs, game.colors, game.repetition, game.black_only)
        self.alike = Alike(self.space)
        self._every = np.arange(self.space.n, dtype=np.int64)
        # The root's set: every code, or the codemaker's support (a union of orbits of the peg
        # and colour permutations, so the symmetries of the search keep it; weights 0 and 1).
        if secrets is not None:
            if at_max or max_guesses is not None:
                raise CertifyError("a set of secrets goes with the plain total (no max_guesses)")
            self._every = np.unique(np.asarray(secrets, dtype=np.int64))
            if not len(self._every):
                raise CertifyError("the set of secrets is empty")
        n = self.space.n
        self.ctotal = np.array([self.count.total(k) for k in range(n + 1)], dtype=np.int64)
        # The cost of a secret found at the l-th guess: A l, plus B when l is the last guess
        # allowed (docs/lower-bound-format.md, "at_max"): (1, 0) for the plain total, (n + 1, 1)
        # for total first, (1, n D + 1) for the secrets at the maximum first.
        if not at_max:
            self.weight, self.unit = 1, 0
        elif first == "at_max":
            self.weight, self.unit = 1, n * max_guesses + 1
        else:
            self.weight, self.unit = n + 1, 1
        self._costs: dict = {}
        self.memo: dict = {}
        self.engine = Engine(self.space, self.count, (self.weight, self.unit))
        if progress:
            self.engine.progress = lambda nodes: print(f"  total {game.slug}: {nodes} nodes searched",
                                                       file=sys.stderr, flush=True)
        self.top = TOP
        self.py_nodes = 0
        self.progress = progress
        self._last = time.monotonic()
        self.value = None

    @property
    def nodes(self) -> int:
        """Nodes searched: here and by the compiled search."""
        return self.py_nodes + self.engine.nodes

    def representatives(self, cands):
        return self.alike.representatives(cands)

    # -- the search ------------------------------------------------------------------

    def solve(self) -> int:
        """The least total (raises when no strategy fits within max_guesses)."""
        every = self._every
        self.value = self._solve(every, self.max_guesses, INFEASIBLE, 0)
        if self.value >= INFEASIBLE:
            raise Infeasible(f"no strategy solves {self.game} within {self.max_guesses} guesses")
        return self.value

    def solve_at_least(self, bound: int) -> int:
        """Prove "T >= bound" without looking for the least total (fail-soft: what is proven,
        >= bound), so that :meth:`prove` writes the proof of ``bound``; or return the least total
        itself when it is below ``bound`` (then there is no such proof). The plain total only."""
        if self.at_max:
            raise CertifyError("a bound on the total alone: no at_max")
        v = self._solve(self._every, self.max_guesses, int(bound), 0)
        if v >= INFEASIBLE:
            raise Infeasible(f"no strategy solves {self.game} within {self.max_guesses} guesses")
        if v >= bound:
            self.value = int(bound)
        return v

    def _quick(self, n, r) -> int:
        """Counting's bound for a class of n secrets with r guesses left."""
        if n == 0:
            return 0
        if r is not None and n > self.count.N(r):
            return INFEASIBLE
        return int(self.costs(r)[n])

    def costs(self, r):
        """Counting's bound on the cost of k secrets with r guesses left, for every k: the least
        total, weighted, and with at_max one more for each secret beyond the N(r - 1) that r - 1
        guesses can find (those need the r-th)."""
        found = self._costs.get(r)
        if found is None:
            found = self.weight * self.ctotal
            if self.at_max and r is not None and r >= 1:
                found = found + self.unit * np.maximum(0, np.arange(len(found)) - self.count.N(r - 1))
            self._costs[r] = found
        return found

    def pair(self, value: int):
        """(total, secrets at the maximum) of a cost (at_max), or (value, None)."""
        if not self.at_max:
            return value, None
        if self.first == "at_max":
            count, total = divmod(value, self.unit)
            return total, count
        return divmod(value, self.weight)

    def _solve(self, cands, r, beta, depth) -> int:
        if depth >= self.top:
            return self.engine.solve(cands, r, beta)
        n = len(cands)
        if n == 0:
            return 0
        if r is not None and (r <= 0 or n > self.count.N(r)):
            return INFEASIBLE
        if n == 1:
            return int(self.costs(r)[1])
        base = int(self.costs(r)[n])
        if base >= beta:
            return base
        key = (cands.tobytes(), r)
        entry = self.memo.get(key)
        if entry is not None and (entry.exact or entry.lb >= beta):
            return entry.lb
        self.py_nodes += 1
        self._tick(n)
        lb, best, record = self._search(cands, r, beta, depth)
        lb = min(lb, INFEASIBLE)
        exact = lb < beta
        if entry is None or lb > entry.lb or exact:
            self.memo[key] = Entry(lb, exact, best, record)
        return lb

    def guess_values(self, cands, rc):
        """(guesses, their class sizes, their counting values) at a node: one guess per orbit,
        rc guesses left after it (None: no limit)."""
        sp, n = self.space, len(cands)
        guesses = self.representatives(cands)[0]
        sizes = class_sizes(sp.fb, guesses, cands, sp.n_fb)
        sizes[:, sp.win] = 0
        quick = self.weight * n + self.costs(rc)[sizes].sum(axis=1)
        if rc is not None:
            quick[(sizes > self.count.N(rc)).any(axis=1)] = INFEASIBLE
        else:  # a guess that learns nothing is never better: a proof of its own (module doc)
            quick[sizes.max(axis=1) == n] = INFEASIBLE
        return guesses, sizes, quick

    def _search(self, cands, r, beta, depth):
        sp = self.space
        rc = None if r is None else r - 1
        guesses, sizes, quick = self.guess_values(cands, rc)
        best, best_g, record = beta, None, {}
        for i in np.argsort(quick, kind="stable").tolist():
            g = int(guesses[i])
            q = int(min(quick[i], INFEASIBLE))
            if q >= best:
                record[g] = (q, {})
                continue
            labels = sp.fb[g][cands]
            acc, used = q, {}
            for f in np.argsort(sizes[i], kind="stable").tolist():
                m = int(sizes[i, f])
                if m < 2:  # none, or one secret: 1 more guess, as counting says
                    continue
                qc = int(self.costs(rc)[m])
                v = self._solve(cands[labels == f], rc, best - (acc - qc), depth + 1)
                if v > qc:
                    used[f] = min(v, INFEASIBLE)
                acc += v - qc
                if acc >= best:
                    break
            record[g] = (min(acc, INFEASIBLE), used)
            if acc < best:
                best, best_g = acc, g
        if best_g is not None:
            return best, best_g, record
        return min(v for v, _ in record.values()), None, record

    def _tick(self, n):
        if self.progress and time.monotonic() - self._last > 2:
            self._last = time.monotonic()
            print(f"  total {self.game.slug}: {self.nodes} nodes searched, at |S| = {n}",
                  file=sys.stderr, flush=True)

    # -- the proof ----------------------------------------------------------------------

    def _writer(self):
        """(a proof writer for the least total, the root's depth), solving first if need be."""
        if self.value is None:
            self.solve()
        total, at_max = self.pair(self.value)
        claims = {"total": total}
        if self.max_guesses is not None:
            claims["max_guesses"] = self.max_guesses
        if at_max is not None:
            claims["at_max"] = at_max
            if self.first == "at_max":
                claims["first"] = "at_max"
        return ProofWriter(self.space, claims), None if self.max_guesses is None else 0

    def prove(self) -> dict:
        """The lower-bound certificate of the least total found by :meth:`solve`."""
        writer, root_depth = self._writer()
        writer.root(self._every, self.value, root_depth)
        self._fill(writer)
        return writer.document()

    def prove_below(self, cands, bound: int, depth) -> list:
        """The proof nodes of "T(cands) >= bound" (a set the compiled search solved, at this
        depth: None without max_guesses), laid out as in a document, node 0 first:
        [(depth, size, bound, body, digest of the node's set)], references as node numbers in
        this list. The digest lets whoever stitches such lists write a node once."""
        from hashlib import blake2b

        writer = ProofWriter(self.space, {})
        writer.root(np.ascontiguousarray(cands, dtype=np.int64), bound, depth)
        self._fill(writer)
        return [(d, size, b, body, blake2b(codes, digest_size=16).digest())
                for d, size, b, body, codes in writer.below()]

    def _fill(self, writer) -> None:
        held = self._memo_raw(writer)
        while writer.pending:
            # Nodes are filled in the order they were met (the refs they make keep it); the
            # compiled search's nodes of a batch are computed in one call. A batch is a slice
            # of the queue, not all of it: what one call returns is held at once (4x7's
            # third round alone refers to 2.5 million codes).
            batch = writer.take_pending(BATCH_NODES, BATCH_CODES)
            compiled, how = [], []
            for key, cands, bound, depth in batch:
                r = None if depth is None else self.max_guesses - depth
                if self._settled(cands, bound, r):
                    how.append(0)  # counting settles the node whole
                elif (cands.tobytes(), r) in self.memo:
                    how.append(1)  # a node searched here, above the compiled search
                else:
                    how.append(2)
                    compiled.append((cands, r, bound))
            make = self._compiled_entries(compiled, writer, held)
            i = 0
            for (key, cands, bound, depth), kind in zip(batch, how):
                if kind == 0:
                    guesses, blocks = {}, ()
                elif kind == 1:
                    guesses, blocks = self._node_guesses(cands, bound, depth, writer)
                else:
                    guesses, blocks = make(i, depth)
                    i += 1
                writer.fill_key(key, bound, guesses, blocks)

    def _settled(self, cands, bound, r) -> bool:
        return self._quick(len(cands), r) >= bound or (r is not None and r <= 0)

    def _compiled_entries(self, nodes, writer, held):
        """For the nodes (cands, r, bound) the compiled search proved, ``make(i, depth)``: node i's
        guess entries and interchangeable colours at that depth (:func:`.engine.entries_batch`,
        one compiled call for all), refs made in order. ``held``: the sets of the search above
        the compiled one (:meth:`_memo_raw`)."""
        if not nodes:
            return None
        sp = self.space
        rows, perms, kids, kpool, nblk = self.engine.entries_batch(nodes)
        p = sp.pegs
        node_of = rows[:, 0]
        lo = np.searchsorted(node_of, np.arange(len(nodes)), side="left").tolist()
        hi = np.searchsorted(node_of, np.arange(len(nodes)), side="right").tolist()
        klo = np.searchsorted(kids[:, 0], np.arange(len(rows)), side="left").tolist()
        khi = np.searchsorted(kids[:, 0], np.arange(len(rows)), side="right").tolist()
        # Columns, not rows: a list of ints each rather than a list per row (memory).
        code_l, kind_l, rep_l = rows[:, 1].tolist(), rows[:, 2].tolist(), rows[:, 3].tolist()
        texts, keys, ref, ref_raw = sp.texts, sp.keys, writer.ref, writer.ref_raw
        w = writer.dtype.itemsize
        kbytes = kpool.astype(writer.dtype).tobytes()  # the children's sets as the writer keys them
        kfb, ksize, kbound = kids[:, 1].tolist(), kids[:, 3].tolist(), kids[:, 4].tolist()
        # A child whose node will have no entries is written at once, not queued (most of a
        # proof's nodes: 289,457 of 4x7's 292,712), unless the search above the compiled one
        # holds its set (that node is written from the memo).
        kleaf = kids[:, 5].tolist()
        kfrom, kto = (kids[:, 2] * w).tolist(), ((kids[:, 2] + kids[:, 3]) * w).tolist()
        # The hashes that sharing needs (ProofWriter.ref_raw), of the children with entries.
        inner = np.flatnonzero(kids[:, 5] == 0)
        khash = np.zeros(len(kids), dtype=np.uint64)
        khash[inner] = writer.hashes(kpool, kids[inner, 2], kids[inner, 3])
        khash = khash.tolist()

        def child(t, depth):
            raw = kbytes[kfrom[t]:kto[t]]
            settled = kleaf[t] and (not held or (raw, None if depth is None else self.max_guesses - depth) not in held)
            return ref_raw(raw, ksize[t], kbound[t], depth, settled, khash[t] or None)

        def make(i, depth):
            child_depth = None if depth is None else depth + 1
            out = {}
            for j in range(lo[i], hi[i]):
                x, kind = code_l[j], kind_l[j]
                if kind == 1:
                    out[texts[x]] = {keys[kfb[t]]: child(t, child_depth) for t in range(klo[j], khi[j])}
                elif kind == 0:
                    rep, perm = rep_l[j], perms[j].tolist()
                    out[texts[x]] = {"same_as": texts[rep],
                                     "perm": {"colors": perm[p:], "pegs": perm[:p]}}
                elif kind == 2:  # x does not split S: S again, bound - n
                    cands, _, bound = nodes[i]
                    f = int(sp.fb[x][cands[0]])
                    out[texts[x]] = {keys[f]: ref(cands, bound - len(cands), None)}
                else:  # pragma: no cover - a search bug
                    raise AssertionError(f"the compiled search's proof fails at a node of "
                                         f"{len(nodes[i][0])} secrets (kind {kind})")
            return out, (_blocks(nblk[i].tolist()) if out else ())

        return make

    def _memo_raw(self, writer) -> set:
        """The sets the search above the compiled one holds, as the writer keys them: (bytes, r)."""
        return {(np.frombuffer(k, np.int64).astype(writer.dtype).tobytes(), r) for k, r in self.memo}

    def _node_guesses(self, cands, bound, depth, writer) -> dict:
        sp = self.space
        n = len(cands)
        r = None if depth is None else self.max_guesses - depth
        if self._quick(n, r) >= bound or (r is not None and r <= 0):
            return {}, ()  # counting settles the node whole
        rc = None if r is None else r - 1
        key = (cands.tobytes(), r)
        entry = self.memo.get(key)
        if entry is None:
            return self._engine_guesses(cands, bound, depth, writer)
        if entry.lb < bound:  # pragma: no cover - a reference never asks more than was proven
            raise AssertionError("proof asked for more than the search proved")
        _, gens, rep, same = self.representatives(cands)
        sizes = class_sizes(sp.fb, self._every, cands, sp.n_fb)
        sizes[:, sp.win] = 0
        value = self.weight * n + self.costs(rc)[sizes].sum(axis=1)
        if rc is not None:
            value[(sizes > self.count.N(rc)).any(axis=1)] = INFEASIBLE
        open_ = np.flatnonzero(value < bound)
        perms = self.alike.perms_to_rep(gens, rep, open_)
        child_depth = None if depth is None else depth + 1
        out = {}
        for x in open_.tolist():
            rx = int(rep[x])
            if rx != x:
                out[sp.texts[x]] = {"same_as": sp.texts[rx], "perm": writer.perm_json(perms[x])}
                continue
            row_x = sp.fb[x]
            if rc is None and sizes[x].max() == n:  # x does not split S: S again, bound - n
                f = int(row_x[cands[0]])
                out[sp.texts[x]] = {sp.keys[f]: writer.ref(cands, bound - n, None)}
                continue
            y = same[x]
            _, used = entry.record[y]
            row_y = sp.fb[y][cands]
            children = []  # (what the child adds to counting, feedback, child, its bound)
            for f in used:
                child = cands[row_y == f]
                b = self._bound_of(child, rc)
                children.append((b - int(self.costs(rc)[len(child)]), f, child, b))
            # A guess refuted with room to spare keeps only the children it needs: fewer nodes.
            children.sort(key=lambda t: (t[0], t[1]))
            spare = int(value[x]) + sum(t[0] for t in children) - bound
            while children and children[0][0] <= spare:
                spare -= children.pop(0)[0]
            refs = {}
            for _, f, child, b in sorted(children, key=lambda t: t[1]):
                fx = int(row_x[child[0]])
                refs[sp.keys[fx]] = writer.ref(child, b, child_depth)
            if refs:
                out[sp.texts[x]] = refs
        return out, ()

    def _engine_guesses(self, cands, bound, depth, writer):
        """The entries and interchangeable colours of a node the compiled search proved
        (:func:`.engine.node_entries`)."""
        sp = self.space
        n = len(cands)
        r = None if depth is None else self.max_guesses - depth
        found = self.engine.lookup(cands, r)
        if found is None or found[0] < bound:  # pragma: no cover - a search bug
            raise AssertionError("proof asked for more than the search proved")
        codes, kinds, blk, children, pool, full, rep, psig, ptau = self.engine.entries(cands, r, bound)
        if len(kinds) and kinds[-1] < 0:  # pragma: no cover - a search bug
            raise AssertionError(f"guess {sp.texts[int(codes[-1])]} is not refuted")
        child_depth = None if depth is None else depth + 1
        refs: dict = {}
        for at, f, start, size, b, _ in children.tolist():
            child = pool[start:start + size]
            refs.setdefault(at, {})[sp.keys[f]] = writer.ref(child, b, child_depth)
        out = {}
        for at, (x, kind) in enumerate(zip(codes.tolist(), kinds.tolist())):
            if kind == 1:
                out[sp.texts[x]] = refs[at]
            elif kind == 2:  # x does not split S: S again, bound - n
                f = int(sp.fb[x][cands[0]])
                out[sp.texts[x]] = {sp.keys[f]: writer.ref(cands, bound - n, None)}
            else:  # kind 0: only where peg permutations join the orbits
                perm = (tuple(psig[x].tolist()), tuple(ptau[x].tolist()))
                out[sp.texts[x]] = {"same_as": sp.texts[int(rep[x])], "perm": writer.perm_json(perm)}
        return out, (_blocks(blk.tolist()) if out else ())

    def best_guess(self, cands, r) -> int:
        """The guess the search kept at a set it solved exactly, with r guesses left."""
        entry = self.memo.get((cands.tobytes(), r))
        if entry is not None:
            return entry.best
        found = self.engine.lookup(cands, r)
        if found is None or not found[1]:  # pragma: no cover - a search bug
            raise AssertionError("the strategy reached a set the search did not solve")
        return found[2]

    def _bound_of(self, cands, r) -> int:
        """The bound proven for (cands, r): the memo's (chain nodes excepted)."""
        entry = self.memo.get((cands.tobytes(), r))
        if entry is not None:
            return entry.lb
        found = self.engine.lookup(cands, r)
        quick = self._quick(len(cands), r)
        return quick if found is None else max(found[0], quick)

    # -- the strategy ---------------------------------------------------------------------

    def strategy_certificate(self) -> dict:
        """A strategy certificate (docs/certificate-format.md) that reaches the least total."""
        from ..certificate import make_certificate

        if self.value is None:
            self.solve()
        cert = make_certificate(OptimalTotal(self))
        claims = cert["claims"]
        got = (claims["total_guesses"],
               claims["histogram"].get(str(self.max_guesses), 0) if self.at_max else None)
        if got != self.pair(self.value):  # pragma: no cover - a search bug
            raise AssertionError(f"the optimal strategy has (total, at the maximum) {got}, "
                                 f"not {self.pair(self.value)}")
        return cert


def _blocks(blk) -> tuple:
    """The interchangeable colours of a node (blk[c]: the lowest colour of c's block): each block
    of two or more colours, in increasing order."""
    members: dict = {}
    for c, root in enumerate(blk):
        members.setdefault(root, []).append(c)
    return tuple(tuple(m) for _, m in sorted(members.items()) if len(m) > 1)


def _strategy_base():
    from ..strategies.base import Strategy

    return Strategy


class OptimalTotal(_strategy_base()):
    """Plays the guesses the total search found best."""

    id = "optimal-total"
    description = "exact search: least total of guesses (branch and bound, certify.search.total)"
    accepts_first = False

    def __init__(self, search: TotalSearch) -> None:
        super().__init__(search.game)
        self.search = search
        limit = search.max_guesses
        # The methods the search uses, and where they come from (the issue asks the certificate
        # to cite them, not only this module).
        self.reference = ("exact search: depth-first branch and bound with counting bounds per "
                          "class, guess equivalence and a memo of solved sets up to symmetry "
                          "(Koyama and Lai 1993; Ville 2013; Tanaka 1996 for Bulls and Cows); "
                          "the matching lower-bound proof is a certify lower-bound certificate"
                          + ("" if limit is None else f" (within {limit}"
                             + ((f"; the fewest secrets needing {limit}, then the least total)"
                                 if search.first == "at_max" else
                                 f"; then the fewest secrets needing {limit})") if search.at_max else ")")))

    def params(self) -> dict:
        limit = self.search.max_guesses
        out = {} if limit is None else {"max_guesses": limit}
        if self.search.at_max:
            out["objective"] = "max-count,total" if self.search.first == "at_max" else "total,max-count"
        return out

    def pick(self, candidates, history):
        if len(candidates) == 1:
            return int(candidates[0])
        if len(candidates) == 2:  # 3 in all, as the search counts it
            return int(candidates[0])
        limit = self.search.max_guesses
        r = None if limit is None else limit - len(history)
        return self.search.best_guess(np.ascontiguousarray(candidates, dtype=np.int64), r)
