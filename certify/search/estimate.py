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
