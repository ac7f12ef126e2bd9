"""How long a worst-case search will take, before it runs: Knuth's random probes.

D. E. Knuth, "Estimating the efficiency of backtrack programs" (Math. Comp. 29, 1975): walk one
random path down the search tree; at a node with c children, go to one of them at random and weigh
what lies below by the product of the c's met on the way. The sum along the path, of the weights
times each node's count (1) or cost (its measured seconds), is an unbiased estimate of the tree's
size or time; the mean over probes converges, and the spread of the probes gives its standard error.

The worst-case search (:mod:`.worst`) is an AND/OR tree whose shape depends on answers not known
before it runs. A probe follows the search's own order and assumes, at each node (S, k), that the
first class the search tries for each guess (the largest) is the one that needs k - 1: the node's
children are those classes, one per representative guess, less duplicates and less those a shortcut
settles (counting, k <= 3, |S| < k), whose cost is counted at the node. That is the shape of a
proven node; a node some strategy settles stops at its first failing guess but tries all its
classes. Sets met again elsewhere in the tree (memo hits) are counted each time, so the estimate
leans high. The whole run asks needs(every code, k) for k from the counting bound + 1 up to D + 1;
the estimate is given for each k so that the sum up to any D can be read off.

The least-total search (:mod:`.total`, all of it the compiled branch and bound of :mod:`.engine`)
is estimated by :func:`estimate_total`, on the same walk (:func:`walk`); its model is described
there.
"""

from __future__ import annotations

import math
import time

import numpy as np

from .kernel import class_sizes, perfect_split


def _children(search, cands, k, proven: bool):
    """The children of the node (cands, k) under the probe's model, and the seconds it took.
    ``proven``: the node needs k (every guess answered by its largest class); otherwise some
    strategy settles it within k - 1 (the first guess the search tries, all of its classes)."""
    sp = search.space
    start = time.process_time()
    guesses = search.representatives(cands)[0]
    sizes = class_sizes(sp.fb, guesses, cands, sp.n_fb)
    sizes[:, sp.win] = 0
    limit = search.count.N(k - 2)
    order = np.argsort(sizes.max(axis=1), kind="stable").tolist()
    if proven:
        picked = [(i, int(np.argmax(sizes[i]))) for i in order]
    else:
        picked = [(order[0], int(f)) for f in np.flatnonzero(sizes[order[0]]).tolist()]
    seen, out = set(), []
    for i, f in picked:
        size = int(sizes[i, f])
        if size > limit or size < k - 1:
            continue  # counting settles the guess, or the class cannot need k - 1
        child = cands[sp.fb[int(guesses[i])][cands] == f]
        if k - 1 == 3:  # the search's compiled scan: a leaf, its cost is this node's
            perfect_split(sp.fb, child, sp.n_fb, sp.win)
            continue
        if k - 1 <= 2:
            continue
        key = child.astype(np.uint32).tobytes()
        if key not in seen:
            seen.add(key)
            out.append(child)
    return out, time.process_time() - start


def walk(root, step, rng) -> tuple[float, float]:
    """One random path down a tree (Knuth): ``step(node)`` is None where ``node`` is no node of the
    search, else (nodes, seconds, options): what the node stands for (1, or the exact size of a
    subtree searched whole) and its CPU seconds, and its children as a list whose items are
    children or callables that give a list of the same kind (a choice in stages: a guess, then
    one of its classes). One item is drawn uniformly at each stage, the weight multiplied by the
    number there. Returns (estimated nodes, estimated CPU seconds)."""
    node, weight, nodes, seconds = root, 1.0, 0.0, 0.0
    while True:
        got = step(node)
        if got is None:
            return nodes, seconds
        count, cost, options = got
        nodes += weight * count
        seconds += weight * cost
        while isinstance(options, list):
            if not options:
                return nodes, seconds
            weight *= len(options)
            options = options[int(rng.integers(len(options)))]
            if callable(options):
                options = options()
        node = options


def probe(search, k: int, rng, proven: bool = True) -> tuple[float, float]:
    """One random path from the root (every code, k): (estimated nodes, estimated CPU seconds)."""
    def step(node):
        cands, k = node
        n = len(cands)
        if k <= 3 or n < k or n > search.count.N(k - 1):
            return None
        kids, cost = _children(search, cands, k, proven)
        return 1, cost, [(child, k - 1) for child in kids]

    return walk((search._every, k), step, rng)


def _mean(draw, probes: int) -> dict:
    """Mean and standard error of ``probes`` draws of (nodes, seconds)."""
    got = np.array([draw() for _ in range(probes)])
    mean, err = got.mean(axis=0), got.std(axis=0, ddof=1) / math.sqrt(probes)
    return {"nodes": float(mean[0]), "nodes_stderr": float(err[0]),
            "cpu_seconds": float(mean[1]), "cpu_seconds_stderr": float(err[1])}


def _level(search, k, proven, probes, rng) -> dict:
    return _mean(lambda: probe(search, k, rng, proven), probes)


def _sum(parts) -> dict:
    # Independent probes: the standard errors add in quadrature.
    return {"nodes": sum(p["nodes"] for p in parts),
            "nodes_stderr": math.sqrt(sum(p["nodes_stderr"] ** 2 for p in parts)),
            "cpu_seconds": sum(p["cpu_seconds"] for p in parts),
            "cpu_seconds_stderr": math.sqrt(sum(p["cpu_seconds_stderr"] ** 2 for p in parts))}


def estimate(game, upto: int | None = None, probes: int = 20, seed: int = 0, at_least: int | None = None,
             say=lambda line: None) -> dict:
    """Estimated nodes and CPU seconds of the worst-case search, each with its standard error over
    ``probes`` random probes (seeded: the same figures each run). The search asks needs(every, k)
    for k = c + 1, c + 2, ... (c the counting bound) and stops at the first k some strategy meets,
    D + 1; as D is what it finds, the estimate is given for each D from c to ``upto`` (default
    c + 2): the levels up to D proven, D + 1 met. With ``at_least`` K: the proof of K alone."""
    from ..errors import CertifyError
    from .worst import WorstSearch

    if probes < 2:
        raise CertifyError(f"--probes must be at least 2 (a spread needs two probes), got {probes}")
    search = WorstSearch(game)
    low = search.count.worst(search.space.n)
    rng = np.random.default_rng(seed)
    out = {"game": game.to_json(), "search": "worst", "counting_bound": low, "probes": probes, "seed": seed}
    if at_least is not None:
        row = _level(search, at_least, True, probes, rng)
        say(_line(game, f"the proof of >= {at_least}", row, probes))
        return {**out, "runs": [{"at_least": at_least, **row}]}
    upto = low + 2 if upto is None else upto
    if upto < low:
        raise CertifyError(f"--upto {upto} is below the counting bound {low}: the least worst case is at least {low}")
    proven = {k: _level(search, k, True, probes, rng) for k in range(low + 1, upto + 1)}
    runs = []
    for d in range(low, upto + 1):
        row = _sum([proven[k] for k in range(low + 1, d + 1)] + [_level(search, d + 1, False, probes, rng)])
        say(_line(game, f"if D = {d}", row, probes))
        runs.append({"worst_case": d, **row})
    return {**out, "runs": runs}


def _line(game, what, row, probes) -> str:
    return (f"estimate {game.slug}, {what}: {row['nodes']:,.0f} ± {row['nodes_stderr']:,.0f} nodes, "
            f"{row['cpu_seconds']:,.1f} ± {row['cpu_seconds_stderr']:,.1f} s CPU ({probes} probes)")


# -- the least-total search -------------------------------------------------------------------

#: Sets of at most this many secrets are searched whole by the compiled search, on a memo of
#: their own, at the node the probe reaches: their nodes and seconds are measured, not modelled.
EXACT_SIZE = 40
#: Levels of the greedy look-ahead in the model's value of a set (:meth:`TotalModel.value`); None:
#: to the bottom (the greedy strategy's total). Measured (docs/exact-search.md): 1 level left 4x7's
#: estimate 54x low (the windows too narrow), the whole greedy total within 2.5x of 4x4..4x7.
LOOKAHEAD = None


class TotalModel:
    """The probe's model of :class:`.total.TotalSearch` (the compiled search from the root).

    A node is (S, r, beta): a set, the guesses left (None: no limit) and the window the search
    gives it. As the search, a set of 2 or fewer secrets, one no strategy settles within r, or one
    whose counting bound reaches beta is no node. At a node, the guesses are the compiled
    search's (one per orbit of the permutations it finds to fix S, :func:`.engine.guess_reps`)
    with its counting values (:func:`.engine.node_scan`, timed as the node's own seconds). The
    search tries the guesses in increasing counting value while the value is below the best total
    found so far: the model takes that best to be beta for the first guess and B = min(beta, V(S))
    for the others, V the model's value of S (:meth:`value`, the greedy total, an upper bound).
    The children are the guesses whose counting value q is below it (the first one always, if
    below beta) and under each, its classes of 3 or more secrets in the search's order, each
    given the window left (its counting bound + best - the guess's value so far), until the
    classes' values (V) use up the window. Sets of at most ``exact_size`` secrets are searched
    whole by the compiled search with that window, their nodes and seconds counted as measured.
    What the model leaves out: the memo (a set met twice is counted twice: high) and better
    guesses found later, which narrow the windows (high); where V errs, the windows err with it."""

    def __init__(self, search, exact_size: int = EXACT_SIZE, lookahead: int | None = LOOKAHEAD) -> None:
        from .engine import Engine

        self.search = search
        self.engine = e = search.engine
        self.exact = Engine(search.space, search.count, (search.weight, search.unit))
        self.exact_size = max(exact_size, e.b + 1)
        self.lookahead = 10**9 if lookahead is None else lookahead
        self._values: dict = {}

    def counting(self, cands, r):
        """(guesses, their counting values) at S with r guesses left, less those that cannot
        help (a class beyond N(r - 1), or no split without a limit): the compiled search's scan."""
        return self.engine.scan(cands, r)

    def _base(self, n, r) -> int:
        return int(self.search._quick(n, r))

    def value(self, cands, r, depth: int | None = None) -> int:
        """The model's value of S: the total of the greedy strategy that plays the search's first
        guess (the least counting value, ties in code order) at every set of more than
        ``exact_size`` secrets and the optimum (the compiled search's) at the smaller ones; with
        ``lookahead`` L, only L levels down, the least counting value of a guess below. An upper
        bound on T(S) (L = None), the best the search holds after its first guess."""
        from .total import INFEASIBLE

        n = len(cands)
        depth = self.lookahead if depth is None else depth
        if r is not None and (r <= 0 or n > self.search.count.N(r)):
            return INFEASIBLE
        if n <= 2:
            return self._base(n, r)
        if n <= self.exact_size:  # small: the compiled search's exact value (its memo kept)
            return self.engine.solve(cands, r, INFEASIBLE)
        key = (cands.tobytes(), r, depth)
        found = self._values.get(key)
        if found is not None:
            return found
        guesses, q = self.counting(cands, r)
        if not len(q):
            v = INFEASIBLE
        elif depth == 0:
            v = int(q.min())
        else:
            i = int(np.argmin(q))  # the first least: the search's first guess
            rc = None if r is None else r - 1
            labels = self.engine.fb[int(guesses[i])][cands]
            v = int(q[i])
            for f in np.unique(labels).tolist():
                if f == self.engine.win:
                    continue
                child = cands[labels == f]
                v += self.value(child, rc, depth - 1) - self._base(len(child), rc)
            v = min(v, INFEASIBLE)
        if len(self._values) < 100_000:
            self._values[key] = v
        return v

    def step(self, node):
        from .total import INFEASIBLE

        cands, r, beta = node
        n = len(cands)
        if n <= 2 or (r is not None and (r <= 0 or n > self.search.count.N(r))):
            return None
        if self._base(n, r) >= beta:
            return None
        if n <= self.exact_size:
            ex = self.exact
            ex.st[:] = 0
            ex.table[:] = 0
            start = time.process_time()
            ex.solve(cands, r, beta)
            return int(ex.st[3]), time.process_time() - start, []
        start = time.process_time()
        guesses, q = self.counting(cands, r)
        cost = time.process_time() - start
        bound = min(beta, self.value(cands, r))
        open_ = q < bound
        first = int(np.argmin(q)) if len(q) else -1  # the first tried (stable order)
        if first >= 0 and q[first] < beta:
            open_[first] = True
        open_ = np.flatnonzero(open_)
        rc = None if r is None else r - 1
        fb = self.engine.fb

        def classes(g, qg, best):
            # The search's order (smallest first, ties: lower feedback), each with the window
            # left; the guess is cut off once its classes' values (the model's) reach the best.
            labels = fb[g][cands]
            sizes = np.bincount(labels, minlength=fb.shape[1] if fb.ndim > 1 else 0)
            out, acc = [], qg
            for f in np.argsort(sizes, kind="stable").tolist():
                m = int(sizes[f])
                if m < 3 or f == self.engine.win:
                    continue  # (a class of 2 costs its counting bound, 3: no node)
                child = cands[labels == f]
                base = self._base(m, rc)
                out.append((child, rc, min(base + best - acc, INFEASIBLE)))
                acc += self.value(child, rc) - base
                if acc >= best:
                    break
            return out

        # The first guess is searched against beta itself (nothing better is known yet), the
        # others against the best the model expects.
        return 1, cost, [lambda g=int(guesses[i]), qg=int(q[i]), best=(beta if i == first else bound):
                         classes(g, qg, best) for i in open_.tolist()]

    def root(self):
        from .total import INFEASIBLE

        return (self.search._every, self.search.max_guesses, INFEASIBLE)


def total_run(search, probes: int, rng, **model) -> dict:
    """Estimated nodes and CPU seconds of ``search.solve()`` (a :class:`.total.TotalSearch`)."""
    m = TotalModel(search, **model)
    return _mean(lambda: walk(m.root(), m.step, rng), probes)


def estimate_total(game, max_guesses: int | None = None, objective: str | None = None, probes: int = 20,
                   seed: int = 0, say=lambda line: None, **model) -> dict:
    """Estimated nodes and CPU seconds of the least-total search (``build optimal``, within
    ``max_guesses`` D if given, for the counting ``objective`` of :data:`.split.OBJECTIVES`),
    with their standard errors over ``probes`` random probes (seeded)."""
    from ..errors import CertifyError
    from .split import OBJECTIVES
    from .total import TotalSearch

    if probes < 2:
        raise CertifyError(f"--probes must be at least 2 (a spread needs two probes), got {probes}")
    if objective == "total":
        objective = None
    if objective not in OBJECTIVES:
        raise CertifyError(f"--objective must be total, total,max-count or max-count,total, got {objective}")
    at_max, first = OBJECTIVES[objective]
    if at_max and max_guesses is None:
        raise CertifyError(f"--objective {objective} counts the secrets at the maximum: give --max-guesses D")
    search = TotalSearch(game, max_guesses, at_max=at_max, first=first)
    n = search.space.n
    low = search.count.total(n)
    if max_guesses is not None and n > search.count.N(max_guesses):
        raise CertifyError(f"no strategy solves {game} within {max_guesses} guesses (counting: "
                           f"{max_guesses} guesses tell at most {search.count.N(max_guesses)} codes apart)")
    rng = np.random.default_rng(seed)
    row = total_run(search, probes, rng, **model)
    name = objective or "total"
    what = "the least total" + ("" if max_guesses is None else f" within {max_guesses}") + \
        ("" if objective is None else f", objective {name}")
    say(_line(game, what, row, probes))
    return {"game": game.to_json(), "search": "total", "counting_bound": low, "probes": probes, "seed": seed,
            "runs": [{"objective": name, "max_guesses": max_guesses, **row}]}
