"""The value of Mastermind as a zero-sum game, certified from both sides (issue 23, part 2).

The codemaker draws the secret from a distribution, the codebreaker may randomise; the payoff is
the number of guesses. By averaging over the group G = (peg permutations) x (colour permutations),
which maps codes onto codes and keeps feedback, both players have optimal strategies that are
G-invariant: the codemaker's distribution is constant on each orbit of codes, and the codebreaker
plays a mixture of trees each composed with a uniformly random element of G, so a tree T pays
avg_{s in o} depth_T(s) against orbit o.

Double oracle (column generation on the codebreaker's side; the codemaker's side has one column
per orbit, at most a handful):

1. rows: trees found so far, with their exact payoffs per orbit (Fractions);
2. the restricted game is solved by HiGHS (scipy.optimize.linprog) for both players, then EXACTLY:
   the square system on the supports HiGHS found is solved with Fractions and checked, and an
   exact simplex (Fractions, Bland's rule) takes over when that check fails;
3. the codemaker's exact distribution becomes integer weights per code; the weighted search
   (certify/search/weighted.py) finds the best response: when it does no better than the restricted
   value v, the codemaker's weights prove v from below and the codebreaker's mixture from above;
   else the best responses (ties broken towards each orbit in turn) become new rows.

The search is imported lazily (as by the other commands that run it). Nothing here is trusted:
the two files it writes are checked by certify/verify_bound.py (the codemaker's weighted lower
bound) and certify/verify_mixed.py (the codebreaker's mixture).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from fractions import Fraction

MIXED_FORMAT = "mastermind-mixed-strategy"
MIX = "peg-and-colour-permutations"
#: Stop after this many rounds of the double oracle (each adds at least one new tree).
MAX_ROUNDS = 200

__all__ = ["ValueResult", "game_value", "exact_game", "mixed_document", "fraction_text"]


def fraction_text(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


# -- exact linear algebra ---------------------------------------------------------------------------

def _solve_linear(rows, rhs, n: int):
    """One solution of rows x = rhs (Fractions; free unknowns 0), or None when inconsistent."""
    m = [list(r) + [b] for r, b in zip(rows, rhs)]
    pivots, r = [], 0
    for c in range(n):
        p = next((i for i in range(r, len(m)) if m[i][c] != 0), None)
        if p is None:
            continue
        m[r], m[p] = m[p], m[r]
        inv = 1 / m[r][c]
        m[r] = [x * inv for x in m[r]]
        for i in range(len(m)):
            if i != r and m[i][c] != 0:
                f = m[i][c]
                m[i] = [a - f * b for a, b in zip(m[i], m[r])]
        pivots.append(c)
        r += 1
    if any(row[n] != 0 for row in m[r:]):
        return None
    x = [Fraction(0)] * n
    for i, c in enumerate(pivots):
        x[c] = m[i][n]
    return x


def _exact_simplex(A):
    """(v, p, q) of the matrix game A (rows minimise, columns maximise, entries > 0), exactly:
    max sum x s.t. x^T A <= 1, x >= 0 by a tableau simplex with Bland's rule; its dual y gives q."""
    m, k = len(A), len(A[0])
    tab = [[A[i][o] for i in range(m)] + [Fraction(int(j == o)) for j in range(k)] + [Fraction(1)]
           for o in range(k)]
    obj = [Fraction(-1)] * m + [Fraction(0)] * (k + 1)
    basis = [m + o for o in range(k)]
    while True:
        enter = next((j for j in range(m + k) if obj[j] < 0), None)
        if enter is None:
            break
        best = None
        for r in range(k):
            if tab[r][enter] > 0:
                ratio = tab[r][-1] / tab[r][enter]
                if best is None or ratio < best[0] or (ratio == best[0] and basis[r] < basis[best[1]]):
                    best = (ratio, r)
        r = best[1]  # bounded: the objective is at most 1 / min(A)
        inv = 1 / tab[r][enter]
        tab[r] = [x * inv for x in tab[r]]
        for i in range(k):
            if i != r and tab[i][enter] != 0:
                f = tab[i][enter]
                tab[i] = [a - f * b for a, b in zip(tab[i], tab[r])]
        f = obj[enter]
        obj = [a - f * b for a, b in zip(obj, tab[r])]
        basis[r] = enter
    x = [Fraction(0)] * m
    for r, j in enumerate(basis):
        if j < m:
            x[j] = tab[r][-1]
    s = obj[-1]
    v = 1 / s
    return v, [xi * v for xi in x], [obj[m + o] * v for o in range(k)]


def _payoffs_ok(A, p, q):
    """The exact value when p (rows) and q (columns) are optimal for A: max_o (pA)_o = min_i (Aq)_i."""
    if any(x < 0 for x in p) or any(x < 0 for x in q) or sum(p) != 1 or sum(q) != 1:
        return None
    k = len(q)
    upper = max(sum(p[i] * A[i][o] for i in range(len(A))) for o in range(k))
    lower = min(sum(q[o] * A[i][o] for o in range(k)) for i in range(len(A)))
    return upper if upper == lower else None


def _highs(A):
    """Float optima (p, q) of the restricted game by HiGHS, for both players."""
    import numpy as np
    from scipy.optimize import linprog

    M = np.array([[float(x) for x in row] for row in A])
    m, k = M.shape
    # codebreaker: min v s.t. sum_i p_i A[i][o] <= v, sum p = 1
    c = np.r_[np.zeros(m), 1.0]
    res = linprog(c, A_ub=np.c_[M.T, -np.ones(k)], b_ub=np.zeros(k), A_eq=np.r_[np.ones(m), 0.0][None, :],
                  b_eq=[1.0], bounds=[(0, None)] * m + [(None, None)], method="highs")
    # codemaker: max u s.t. sum_o q_o A[i][o] >= u, sum q = 1
    res2 = linprog(np.r_[np.zeros(k), -1.0], A_ub=np.c_[-M, np.ones(m)], b_ub=np.zeros(m),
                   A_eq=np.r_[np.ones(k), 0.0][None, :], b_eq=[1.0], bounds=[(0, None)] * k + [(None, None)],
                   method="highs")
    if res.status != 0 or res2.status != 0:
        return None
    return res.x[:m], res2.x[:k]


def exact_game(A, tol: float = 1e-9):
    """(v, p, q, how) for the matrix game A (Fractions; rows = codebreaker's trees, minimising;
    columns = orbits, maximising): exact optimal strategies. HiGHS proposes the supports; the
    square system on them is solved with Fractions and checked exactly; when that fails, an exact
    simplex solves the game. ``how`` says which."""
    m, k = len(A), len(A[0])
    floats = _highs(A)
    if floats is not None:
        fp, fq = floats
        rows = [i for i in range(m) if fp[i] > tol]
        cols = [o for o in range(k) if fq[o] > tol]
        # q on cols and u: sum_{o in cols} A[i][o] q_o - u = 0 (i in rows), sum q = 1
        eq = [[A[i][o] for o in cols] + [Fraction(-1)] for i in rows] + [[Fraction(1)] * len(cols) + [Fraction(0)]]
        sq = _solve_linear(eq, [Fraction(0)] * len(rows) + [Fraction(1)], len(cols) + 1)
        eq = [[A[i][o] for i in rows] + [Fraction(-1)] for o in cols] + [[Fraction(1)] * len(rows) + [Fraction(0)]]
        sp = _solve_linear(eq, [Fraction(0)] * len(cols) + [Fraction(1)], len(rows) + 1)
        if sq is not None and sp is not None:
            q = [Fraction(0)] * k
            for o, x in zip(cols, sq):
                q[o] = x
            p = [Fraction(0)] * m
            for i, x in zip(rows, sp):
                p[i] = x
            v = _payoffs_ok(A, p, q)
            if v is not None:
                return v, p, q, "highs supports, solved exactly"
    v, p, q = _exact_simplex(A)
    if _payoffs_ok(A, p, q) != v:
        raise AssertionError("the exact simplex did not solve the game")
    return v, p, q, "exact simplex"


# -- the double oracle ------------------------------------------------------------------------------

@dataclass
class Row:
    tree: dict
    depths: list
    payoff: list  # Fraction per orbit


@dataclass
class ValueResult:
    space: "Space"  # certify.search.weighted.Space
    value: Fraction
    weights: list  # integer per orbit (per code of the orbit)
    total: int  # the least weighted total against the weights
    weight_sum: int  # sum over every code of its weight
    mixture: list  # [(Fraction, Row)], positive probabilities
    proof: dict  # the codemaker's lower-bound certificate
    least_total: int  # the least (unweighted) total of the game
    rounds: int
    trees_tried: int
    how: str
    seconds: float
    cpu_seconds: float
    log: list = field(default_factory=list)

    @property
    def uniform_optimal(self) -> bool:
        return Fraction(self.least_total, self.space.n) == self.value

    @property
    def orbit_probabilities(self) -> dict:
        """The codemaker's distribution as the probability of each orbit."""
        sp = self.space
        return {name: Fraction(w * size, self.weight_sum)
                for name, w, size in zip(sp.orbit_names, self.weights, sp.orbit_size)}


def _payoff(space, depths) -> list:
    sums = [0] * space.k
    for i, d in enumerate(depths):
        sums[space.orbit_of[i]] += d
    return [Fraction(s, n) for s, n in zip(sums, space.orbit_size)]


def _weights(space, q) -> list:
    """Integer weights per code (constant on orbits) for orbit probabilities q."""
    per_code = [x / n for x, n in zip(q, space.orbit_size)]
    lcm = 1
    for x in per_code:
        lcm = lcm * x.denominator // math.gcd(lcm, x.denominator)
    w = [int(x * lcm) for x in per_code]
    g = 0
    for x in w:
        g = math.gcd(g, x)
    return [x // g for x in w]


#: Games of at most this many codes use the bitmask search (certify/search/weighted.py); larger
#: ones the compiled one (certify/search/wengine.py).
BITMASK_CODES = 256


def _engine_responses(space, weights, variants: bool, cache: dict | None = None):
    """(T or None, trees) by the compiled weighted search. T is exact when the weights fit its
    64-bit arithmetic (None otherwise: the loop then only gathers trees). The trees (every code
    found) come from M w' + eps with w' the weights rounded to 4 significant digits and a small
    M: they are candidates for the restricted game, whose exact solution and the exact best
    response decide; they need not be best responses themselves. ``cache`` (one per game_value
    run) keeps the trees by their weights and the last exact search: a round asks for the exact
    total and the first tree twice (the check, then the variants), and the proof asks for the last
    exact search again; the answers are the same, only not searched twice."""
    from .game import Game
    from .search.wengine import WINF, WeightedSearch

    game = Game(space.pegs, space.colors, space.repetition, _rule(space))
    n = space.n

    def per_code(per_orbit):
        return [per_orbit[space.orbit_of[i]] for i in range(n)]

    cache = {} if cache is None else cache
    trees_by = cache.setdefault("trees", {})
    total = None
    if sum(w * s for w, s in zip(weights, space.orbit_size)) * (n + 1) < WINF:
        exact = cache.get("exact")
        if exact is None or exact[0] != tuple(weights):
            search = WeightedSearch(game, per_code(weights))
            exact = cache["exact"] = (tuple(weights), search, search.value())
        total = exact[2]
    top = max(weights)
    rounded = [0 if w == 0 else max(1, round(w * 10 ** 4 / top)) for w in weights]
    eps_list = [[1] * space.k]
    if variants:
        for j in range(space.k):
            eps_list.append([n if o == j else 1 for o in range(space.k)])
    trees = []
    for eps in eps_list:
        M = 16 * sum(e * s for e, s in zip(eps, space.orbit_size)) + 1
        key = tuple(M * w + e for w, e in zip(rounded, eps))
        if key not in trees_by:
            trees_by[key] = WeightedSearch(game, per_code(key)).tree()
        trees.append(trees_by[key])
    return total, trees


def _responses(space, weights, variants: bool, cache: dict | None = None):
    """(T, trees): the least weighted total against ``weights`` (per orbit) and optimal trees for
    it that find every code (weight-0 codes too). Ties are broken by a secondary weight eps
    (1 on every orbit; with ``variants`` also n on one orbit, for each orbit in turn): the search
    runs with M w + eps, M larger than any difference of the eps-weighted totals. ``cache``: the
    answers by their weights (a round asks for the first one twice)."""
    from .search.weighted import Solver

    if space.n > BITMASK_CODES:
        return _engine_responses(space, weights, variants, cache)
    solved = {} if cache is None else cache.setdefault("bitmask", {})
    n = space.n
    eps_list = [[1] * space.k]
    if variants:
        for j in range(space.k):
            eps_list.append([n if o == j else 1 for o in range(space.k)])
    out, total = [], None
    for eps in eps_list:
        M = n * sum(e * s for e, s in zip(eps, space.orbit_size)) + 1
        key = tuple(M * w + e for w, e in zip(weights, eps))
        if key not in solved:
            solver = Solver(space, list(key))
            solved[key] = (solver.value(), solver.tree())
        v, tree = solved[key]
        t = v // M
        assert total is None or t == total
        total = t
        out.append(tree)
    return total, out


def _rule(space) -> str:
    return "black-only" if space.black_only else "black-white"


def game_value(pegs: int, colors: int, repetition: bool = True, say=None, generator=None,
               feedback: str = "black-white") -> ValueResult:
    """The game value with both certificates' contents (see the module's docstring); ``feedback``
    "black-only" plays black-peg Mastermind (a peg and colour permutation keeps the black pegs
    too, so the orbits and the argument are the same)."""
    from .search.weighted import Solver, Space, tree_depths, write_proof

    t0, c0 = time.perf_counter(), time.process_time()
    say = say or (lambda line: None)
    from .errors import CertifyError

    if feedback not in ("black-white", "black-only"):
        raise CertifyError(f"feedback: 'black-white' or 'black-only', got {feedback!r}")
    size = colors ** pegs if repetition else math.perm(colors, pegs)
    if feedback == "black-only" and size > BITMASK_CODES:
        # Past the bitmask search the codemaker's proof comes from the plain total search: for 3x7
        # black-only (343 codes) it ran 44 min and wrote a proof past the checker's 128 MiB.
        raise CertifyError(f"the black-peg game value is computed for games of at most {BITMASK_CODES} codes "
                           f"(this one has {size}; past that the codemaker's proof outgrew the checker's 128 MiB in 3x7)")
    space = Space(pegs, colors, repetition, feedback == "black-only")
    rows: list[Row] = []
    seen = set()

    def add(trees):
        added = 0
        for tree in trees:
            depths = tree_depths(space, tree)
            assert min(depths) >= 1
            payoff = _payoff(space, depths)
            key = tuple(payoff)
            if key not in seen:
                seen.add(key)
                rows.append(Row(tree, depths, payoff))
                added += 1
        return added

    uniform = [1] * space.k
    cache: dict = {}
    least, trees = _responses(space, uniform, variants=True, cache=cache)
    add(trees)
    log = []
    rounds = 0
    while True:
        rounds += 1
        if rounds > MAX_ROUNDS:
            raise RuntimeError(f"no equilibrium after {MAX_ROUNDS} rounds")
        A = [r.payoff for r in rows]
        v, p, q, how = exact_game(A)
        weights = _weights(space, q)
        wsum = sum(w * s for w, s in zip(weights, space.orbit_size))
        total, trees = _responses(space, weights, variants=False, cache=cache)
        response = None if total is None else Fraction(total, wsum)
        log.append({"round": rounds, "trees": len(rows), "restricted_value": v, "weights": weights,
                    "best_response": response})
        say(f"round {rounds}: {len(rows)} trees, restricted value {fraction_text(v)} ({float(v):.6f}), "
            + ("best response: weights too large for the exact search" if response is None
               else f"best response {float(response):.6f}"))
        if response is not None and response >= v:
            break
        _, more = _responses(space, weights, variants=True, cache=cache)
        if not add(trees + more):
            raise AssertionError("no new tree, yet the restricted value is not proven "
                                 "(the best response beats it, or the weights were too large)")
    if Fraction(least, space.n) == v and weights != uniform:
        # the uniform codemaker is optimal too: it is the simpler certificate (2x6: both are)
        weights, total, wsum = uniform, least, space.n
        log.append({"note": "uniform is optimal too: the codemaker's certificate uses it"})
    # the codemaker's certificate: the support's search with the pure weights
    if space.n > BITMASK_CODES:
        proof = _support_proof(space, weights, generator, cache.get("exact"))
    else:
        solver = Solver(space, weights)
        proof = write_proof(solver, generator)
    if proof["claims"]["total"] != total:
        raise AssertionError("the support's optimum differs from the best response's")
    mixture = [(x, r) for x, r in zip(p, rows) if x > 0]
    return ValueResult(space=space, value=v, weights=weights, total=total, weight_sum=wsum, mixture=mixture,
                       proof=proof, least_total=least, rounds=rounds, trees_tried=len(rows), how=how,
                       seconds=time.perf_counter() - t0, cpu_seconds=time.process_time() - c0, log=log)


def _support_proof(space, weights, generator, last=None) -> dict:
    """The codemaker's proof for a game past the bitmask search. Weights 0 and 1 (uniform over a
    union of orbits): the plain compiled search from the support (certify/search/exact.py,
    support_total; 4x6's committed proof). Other weights: the compiled weighted search's own
    proof (certify/search/wengine.py, WeightedSearch.prove), from ``last`` (the double oracle's
    last exact search: (weights, search, total)) when it is for these weights."""
    from .game import Game
    from .search import exact

    import orjson

    from .search.proof import dumps

    game = Game(space.pegs, space.colors, space.repetition, _rule(space))
    if set(weights) <= {0, 1}:
        orbits = [name for name, w in zip(space.orbit_names, weights) if w]
        proof = exact.support_total(game, orbits).proof
    else:
        from .search.wengine import WeightedSearch

        search = last[1] if last is not None and last[0] == tuple(weights) else \
            WeightedSearch(game, [weights[space.orbit_of[i]] for i in range(space.n)])
        proof = search.prove()
    # (the writer's node references become plain numbers, as in the file)
    proof = orjson.loads(dumps(proof))
    if generator is not None:
        proof = {**proof, "generator": generator}
    return proof


def mixed_document(result: ValueResult, generator=None) -> dict:
    """The codebreaker's certificate (docs/game-value.md): the mixture of trees, each played through
    a uniformly random peg-and-colour permutation, and the value it guarantees."""
    doc = {"format": MIXED_FORMAT, "version": 1, "game": result.space.game_json(), "mix": MIX,
           "claims": {"value": fraction_text(result.value)}}
    if generator is not None:
        doc["generator"] = generator
    doc["strategies"] = [{"probability": fraction_text(x), "tree": r.tree} for x, r in result.mixture]
    return doc
