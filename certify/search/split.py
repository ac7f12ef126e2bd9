"""The least total in independent pieces, for several processes: each class of a first guess is
one task; the proof and the strategy are stitched from the tasks' results.

A task (:func:`class_task`) solves one class against a window fixed before it starts, in a
search of its own (a fresh memo), and returns the value, the nodes of its proof and the guesses
of its strategy. It depends on its inputs alone, so the stitched files have the same bytes
whoever runs the tasks, in whatever order: one process, or Dask workers (``run`` is given by
the caller; this module never imports Dask).

The root is searched as :class:`.total.TotalSearch` does (one guess per orbit of the whole
group, in increasing counting value), but a guess's classes are tasks of one round, so their
windows cannot tighten one another: the first guess's classes are solved exactly; a later
guess's class C against best - (q - counting(C)), the others taken at their counting values.
A guess whose classes all come back below their windows beats the best, exactly; one whose
values reach the best is refuted by them. On one core this does more work than the one-process
search (no window from a sibling, no shared memo); its proofs are valid but not the same bytes.

A class of ``SPLIT_AT`` secrets or more would alone keep a worker busy while the others wait
(Bulls and Cows: 1,440 of 5,040 secrets, three quarters of the time), so it is split once more,
as the root is. Its first guess's classes are tasks of the round (against the class's window W,
less the others' counting values), which gives U, its value through that guess. Then its other
guesses, those that counting puts below min(U, W), go out in ``GUESS_TASKS`` tasks (round robin
in search order, a memo each), each guess searched against min(U, W) and the best value its task
found so far. The least value wins, ties to the first in search order, as in the one-process
search; when every guess is at W or above, the class's value is the least bound, >= W. Its
node in the proof is written here, from the guesses' records, like the root's. The split costs
little work (4x7: 46 s of tasks either way) and cuts the longest task (9.9 s -> 3.2 s).

The counting objectives (``at_max``: the least total within D then the fewest secrets needing D,
or those two the other way round, ``first="at_max"``) are split the same way: their values are
integer costs (:mod:`.total`, W x total + count or (n D + 1) x count + total), a class's counting
value is ``costs(r)[m]`` as in the one-process search, and a task carries its objective as its
last argument (:data:`OBJECTIVES`), so a checkpoint names a counting task apart from a total one.
"""

from __future__ import annotations

import numpy as np

from ..errors import Infeasible
from .proof import renumbered
from .total import INFEASIBLE, Entry, OptimalTotal, TotalSearch

_SPACES: dict = {}  # per process: game key -> Space (the feedback matrix is built once)
#: A class this big (secrets) is split by its guesses (module doc).
SPLIT_AT = 400
#: The guesses of a split class after the first go out in this many tasks.
GUESS_TASKS = 8


#: The objectives a task may be given (its last argument; None: the plain total) as
#: :class:`.total.TotalSearch`'s (at_max, first): the counting ones value a class as a cost in the
#: same integer algebra (W x total + count, or (n D + 1) x count + total), so windows work alike.
OBJECTIVES = {None: (False, "total"), "total,max-count": (True, "total"), "max-count,total": (True, "at_max")}


def objective_of(at_max: bool, first: str = "total"):
    """The task argument of TotalSearch's (at_max, first): None for the plain total."""
    return {v: k for k, v in OBJECTIVES.items()}[(bool(at_max), first if at_max else "total")]


def _fresh(game_key, max_guesses, objective=None):
    """A search of its own (its memo this task's), all of it compiled, on this process's Space,
    for ``objective`` (OBJECTIVES)."""
    from ..game import Game
    from .space import Space

    game = Game(*game_key)
    space = _SPACES.get(game_key)
    if space is None:
        space = _SPACES[game_key] = Space(game)
    at_max, first = OBJECTIVES[objective]
    search = TotalSearch(game, max_guesses, space=space, at_max=at_max, first=first)
    search.top = 0
    return search


def class_task(game_key, max_guesses, cands: bytes, beta: int, depth: int = 1, objective=None):
    """(value, proof nodes, strategy guesses) of one class (secrets as int64 bytes) ``depth``
    guesses below the root, solved fail-soft against ``beta`` in a fresh search (values are
    ``objective``'s costs: OBJECTIVES)."""
    search = _fresh(game_key, max_guesses, objective)
    secrets = np.frombuffer(cands, dtype=np.int64).copy()
    r = None if max_guesses is None else max_guesses - depth
    value = search.engine.solve(secrets, r, beta)
    nodes = search.prove_below(secrets, min(value, INFEASIBLE), None if r is None else depth)
    picks = _picks(search, secrets, r) if value < beta else {}
    return value, nodes, picks


def guesses_task(game_key, max_guesses, cands: bytes, guesses: list, window: int, depth: int = 1,
                 objective=None):
    """Guesses [(guess, counting value)] at a class ``depth`` guesses below the root, in that
    order, each searched as :meth:`.total.TotalSearch._search` does against the least of
    ``window`` and the best value found so far in this task: per guess (value, used classes
    {feedback: value}, {class bytes: (value, proof nodes, strategy guesses)} of the used classes,
    and of every class of a guess that set a new best)."""
    search = _fresh(game_key, max_guesses, objective)
    sp = search.space
    secrets = np.frombuffer(cands, dtype=np.int64).copy()
    r = None if max_guesses is None else max_guesses - depth
    rc = None if r is None else r - 1
    below = None if r is None else depth + 1
    best, out = window, []
    for g, q in guesses:
        labels = sp.fb[g][secrets]
        sizes = np.bincount(labels, minlength=sp.n_fb)
        sizes[sp.win] = 0
        acc, used, solved = q, {}, {}
        for f in np.argsort(sizes, kind="stable").tolist():
            m = int(sizes[f])
            if m < 2 or acc >= best:
                continue
            qc = int(search.costs(rc)[m])
            v = min(search.engine.solve(secrets[labels == f], rc, best - (acc - qc)), INFEASIBLE)
            solved[f] = v
            if v > qc:
                used[f] = v
            acc += v - qc
        acc = min(acc, INFEASIBLE)
        new_best = acc < best
        classes = {}
        for f, v in solved.items():
            if f in used or new_best:
                sub = secrets[labels == f]
                classes[sub.tobytes()] = (v, search.prove_below(sub, v, below),
                                          _picks(search, sub, rc) if new_best else {})
        out.append((acc, used, classes))
        best = min(best, acc)
    return out


def _is_int(x, low: int = 0, high: int | None = None) -> bool:
    return type(x) is int and x >= low and (high is None or x < high)


def _shaped_class(result, game_key, max_guesses, cands, beta, depth=1, objective=None) -> bool:
    """Whether a class_task result read from a checkpoint has the shape class_task returns:
    (value, [proof node (depth, size, bound, body, digest)...], {secrets bytes: guess})."""
    from ..game import Game

    n = Game(*game_key).size
    if not (isinstance(result, tuple) and len(result) == 3 and _is_int(result[0])):
        return False
    nodes, picks = result[1], result[2]
    return (isinstance(nodes, list) and len(nodes) >= 1 and isinstance(picks, dict)
            and all(isinstance(x, tuple) and len(x) == 5 and (x[0] is None or _is_int(x[0]))
                    and _is_int(x[1], 1, n + 1) and _is_int(x[2]) and isinstance(x[3], dict)
                    and isinstance(x[4], bytes) for x in nodes)
            and all(isinstance(k, bytes) and len(k) % 8 == 0 and 0 < len(k) <= 8 * n and _is_int(g, 0, n)
                    for k, g in picks.items()))


def _shaped_guesses(result, game_key, max_guesses, cands, guesses, window, depth=1, objective=None) -> bool:
    """Whether a guesses_task result read from a checkpoint has its shape: per guess (value,
    {feedback: value}, {class bytes: a class_task result})."""
    return (isinstance(result, list) and len(result) == len(guesses)
            and all(isinstance(r, tuple) and len(r) == 3 and _is_int(r[0]) and isinstance(r[1], dict)
                    and all(_is_int(f) and _is_int(v) for f, v in r[1].items()) and isinstance(r[2], dict)
                    and all(isinstance(k, bytes) and _shaped_class(v, game_key, max_guesses, k, 0)
                            for k, v in r[2].items())
                    for r in result))


class_task.result_shape = _shaped_class
guesses_task.result_shape = _shaped_guesses


def _picks(search, cands, r) -> dict:
    """{secrets bytes: guess} at every node of the strategy below (sets of 3 or more)."""
    sp, out, stack = search.space, {}, [(cands, r)]
    while stack:
        c, left = stack.pop()
        if len(c) <= 2:
            continue
        g = out[c.tobytes()] = search.best_guess(c, left)
        labels = sp.fb[g][c]
        for f in np.unique(labels).tolist():
            if f != sp.win:
                stack.append((c[labels == f], None if left is None else left - 1))
    return out


class SplitSearch(TotalSearch):
    """The least total with the classes of the first guesses as tasks: ``run(func, args)``
    returns ``[func(*a) for a in args]``, in order (in this process, or on a cluster)."""

    def __init__(self, game, max_guesses=None, run=None, progress=None, at_max: bool = False,
                 first: str = "total") -> None:
        super().__init__(game, max_guesses, at_max=at_max, first=first)
        self.objective = objective_of(at_max, first)
        self.run = run or (lambda func, args: [func(*a) for a in args])
        self.say = progress or (lambda line: None)
        self.results: dict = {}  # class bytes -> (value, nodes, picks), the highest value kept
        self.tasks = 0

    def solve(self) -> int:
        sp, every, r = self.space, self._every, self.max_guesses
        guesses, sizes, quick = self.guess_values(every, None if r is None else r - 1)
        best, best_g, record = INFEASIBLE, None, {}
        key = self.game.key()
        for i in np.argsort(quick, kind="stable").tolist():
            g, q = int(guesses[i]), int(min(quick[i], INFEASIBLE))
            if q >= best:
                record[g] = (q, {})
                continue
            labels = sp.fb[g][every]
            classes = [(f, int(sizes[i, f])) for f in np.argsort(sizes[i], kind="stable").tolist()
                       if sizes[i, f] >= 2]
            rc = None if r is None else r - 1
            cost = self.costs(rc)
            args = [self._task(every[labels == f].tobytes(), int(best - (q - cost[m])))
                    for f, m in classes]
            self.say(f"first guess {sp.texts[g]}: {len(args)} classes as tasks")
            results = self._round(args)
            acc, used = q, {}
            for (f, m), a, result in zip(classes, args, results):
                v = min(int(result[0]), INFEASIBLE)
                self._keep(a[2], rc, (v,) + tuple(result[1:]))
                qc = int(cost[m])
                if v > qc:
                    used[f] = v
                acc += v - qc
            record[g] = (min(acc, INFEASIBLE), used)
            if acc < best:
                best, best_g = acc, g
        self.memo[(every.tobytes(), r)] = Entry(best, best_g is not None, best_g, record)
        if best >= INFEASIBLE:
            raise Infeasible(f"no strategy solves {self.game} within {self.max_guesses} guesses")
        self.value = best
        self.picks = {}
        for f in range(sp.n_fb):
            c = every[sp.fb[best_g][every] == f]
            found = self.results.get((c.tobytes(), None if r is None else r - 1))
            if f != sp.win and found is not None:
                self.picks.update(found[2])
        return best

    def _task(self, cands: bytes, beta: int, depth: int = 1) -> tuple:
        """A class_task's arguments: the plain total's as they always were (its checkpoints'
        task names), a counting objective's with it (a task of one objective is never read as
        another's: the checkpoint names it by its arguments)."""
        args = (self.game.key(), self.max_guesses, cands, beta)
        if self.objective is not None:
            return args + (depth, self.objective)
        return args if depth == 1 else args + (depth,)

    def _keep(self, cands: bytes, r, result) -> None:
        """A class's (value, proof nodes or None when its node is in the memo, strategy guesses):
        of two results for one class (two rounds' windows), the higher value."""
        kept = self.results.get((cands, r))
        if kept is None or result[0] > kept[0]:
            self.results[(cands, r)] = result
        elif result[0] == kept[0] and result[2] and not kept[2]:
            # The same value, once as a fail-soft bound (no strategy guesses: its window was
            # passed) and once solved exactly (with them): keep the guesses, or the stitched
            # strategy has no guess for this class (seen on 4x8 with --workers 2: KeyError).
            # Guesses come only from exact solves, so they reach the value kept.
            self.results[(cands, r)] = kept[:2] + (result[2],)

    def _round(self, args) -> list:
        """The results of a round's class tasks ``args``, the big classes split by their
        guesses (module doc): their results (value, None, strategy guesses)."""
        key, mg = self.game.key(), self.max_guesses
        plans = {j: self._plan(a[2], a[3]) for j, a in enumerate(args) if len(a[2]) // 8 >= SPLIT_AT}
        plans = {j: plan for j, plan in plans.items() if plan is not None}
        tasks = [a for j, a in enumerate(args) if j not in plans]
        for plan in plans.values():
            cost = self.costs(plan["rc"])
            tasks += [self._task(sub, int(plan["w"] - (plan["q1"] - cost[m])), 2)
                      for _, m, sub in plan["first"]]
        done = self.run(class_task, tasks)
        self.tasks += len(tasks)
        results = dict(zip((j for j in range(len(args)) if j not in plans), done))
        at = len(results)
        batches = []  # (plan, guesses) per task
        for plan in plans.values():
            found = done[at:at + len(plan["first"])]
            at += len(plan["first"])
            acc, used, cost = plan["q1"], {}, self.costs(plan["rc"])
            for (f, m, sub), result in zip(plan["first"], found):
                v = min(int(result[0]), INFEASIBLE)
                self._keep(sub, plan["rc"], (v,) + tuple(result[1:]))
                qc = int(cost[m])
                if v > qc:
                    used[f] = v
                acc += v - qc
            plan["u"], plan["used1"] = min(acc, INFEASIBLE), used
            plan["limit"] = min(plan["u"], plan["w"])  # the other guesses' window
            rest = [(g, q) for g, q in plan["rest"] if q < plan["limit"]]
            batches += [(plan, rest[b::GUESS_TASKS]) for b in range(min(GUESS_TASKS, len(rest)))]
        if batches:
            self.say(f"  {len(plans)} big class{'' if len(plans) == 1 else 'es'}: {len(batches)} tasks "
                     f"of their other guesses")
        more = () if self.objective is None else (self.objective,)
        done = self.run(guesses_task, [(key, mg, plan["cands"].tobytes(), gs, plan["limit"], 1) + more
                                       for plan, gs in batches]) if batches else []
        self.tasks += len(batches)
        found = {}
        for (plan, gs), out in zip(batches, done):
            for (g, _), result in zip(gs, out):
                found[(id(plan), g)] = result
        for j, plan in plans.items():
            results[j] = self._split_class(plan, found)
        return [results[j] for j in range(len(args))]

    def _plan(self, cands: bytes, window: int):
        """A big class's guesses in search order, its first guess's classes; None when no
        guess settles it within the guesses left (it goes out whole)."""
        mg = self.max_guesses
        c = np.frombuffer(cands, dtype=np.int64).copy()
        r = None if mg is None else mg - 1
        rc = None if r is None else r - 1
        guesses, sizes, quick = self.guess_values(c, rc)
        order = np.argsort(quick, kind="stable").tolist()
        i1 = order[0]
        if quick[i1] >= INFEASIBLE:
            return None
        labels = self.space.fb[int(guesses[i1])][c]
        first = [(f, int(sizes[i1, f]), c[labels == f].tobytes())
                 for f in np.argsort(sizes[i1], kind="stable").tolist() if sizes[i1, f] >= 2]
        return {"cands": c, "r": r, "rc": rc, "w": window, "order": [(int(guesses[i]), int(min(quick[i], INFEASIBLE)))
                                                         for i in order],
                "q1": int(quick[i1]), "first": first,
                "rest": [(int(guesses[i]), int(min(quick[i], INFEASIBLE))) for i in order[1:]]}

    def _split_class(self, plan, found) -> tuple:
        """A split class's memo entry (every guess's record), and its result for the round."""
        rc, record = plan["rc"], {}
        g1 = plan["order"][0][0]
        # Scanned in search order, a value below the best so far is below its task's window
        # too (a task's earlier guesses come earlier here): exact.
        best, best_g, picks = plan["limit"], (g1 if plan["u"] < plan["w"] else None), {}
        for g, q in plan["order"]:
            if g == g1:
                record[g] = (plan["u"], plan["used1"])
                continue
            result = found.get((id(plan), g))
            if result is None:  # counting puts it at U or above
                record[g] = (q, {})
                continue
            acc, used, classes = result
            for sub, kept in classes.items():
                self._keep(sub, rc, kept)
            record[g] = (acc, used)
            if acc < best:
                best, best_g = acc, g
        c = plan["cands"]
        if best_g is None:  # every guess at the window or above: a lower bound
            best = min(v for v, _ in record.values())
            self.memo[(c.tobytes(), plan["r"])] = Entry(best, False, None, record)
            return best, None, {}
        self.memo[(c.tobytes(), plan["r"])] = Entry(best, True, best_g, record)
        labels = self.space.fb[best_g][c]
        for f in np.unique(labels).tolist():
            kept = self.results.get((c[labels == f].tobytes(), rc))
            if f != self.space.win and kept is not None:
                picks.update(kept[2])
        picks[c.tobytes()] = best_g
        return best, None, picks

    @property
    def nodes(self) -> int:
        return self.tasks

    def _bound_of(self, cands, r) -> int:
        found = self.results.get((cands.tobytes(), r))
        return self._quick(len(cands), r) if found is None else found[0]

    def prove(self) -> dict:
        writer, depth = self._writer()
        writer.root(self._every, self.value, depth)
        # A node of a task's list is written once, however many tasks proved it (the same set
        # below two guesses of a split class): found by (digest of its set, bound, depth).
        seen: dict = {}
        while writer.pending:
            for key, cands, bound, d in writer.take_pending():
                r = None if d is None else self.max_guesses - d
                if (cands.tobytes(), r) in self.memo:  # the root, a split class: written here
                    guesses, blocks = self._node_guesses(cands, bound, d, writer)
                    writer.fill_key(key, bound, guesses, blocks)
                    continue
                nodes = self.results[(cands.tobytes(), r)][1]  # a class: its task's nodes
                # One pass, parents first (a task's list refers forward): a node is placed if a
                # placed node of the list refers to it; one written before stands in for it
                # (its own children with it), else it is written, and its children are placed.
                placed = {}  # node number -> (writer key, its reference, written here)
                for j, (dj, size, b, body, digest) in enumerate(nodes):
                    if j == 0:
                        placed[0] = (key, writer.refs[key], True)
                        seen.setdefault((digest, b, dj), placed[0][:2])
                    elif j not in placed:
                        continue
                    elif placed[j] is None:
                        found = seen.get((digest, b, dj))
                        if found is not None:
                            placed[j] = found + (False,)
                            continue
                        k = ("task", digest, b, dj)
                        placed[j] = seen[(digest, b, dj)] = (k, writer.extra(k, (dj or 0, -size, -b)))
                        placed[j] += (True,)
                    if placed[j][2]:
                        for i in _references(body):
                            placed.setdefault(i, None)
                for j, (k, _, written) in sorted(placed.items()):
                    if written:
                        writer.bodies[k] = renumbered(nodes[j][3], lambda i: placed[i][1])
        return writer.document()

    def strategy_certificate(self) -> dict:
        from ..certificate import make_certificate

        if self.value is None:
            self.solve()
        cert = make_certificate(_Stitched(self))
        claims = cert["claims"]
        got = (claims["total_guesses"],
               claims["histogram"].get(str(self.max_guesses), 0) if self.at_max else None)
        if got != self.pair(self.value):  # a task's guesses that do not reach its value
            raise AssertionError(f"the stitched strategy has (total, at the maximum) {got}, "
                                 f"not {self.pair(self.value)}")
        return cert


def _references(body: dict):
    """The node numbers a node's body refers to."""
    for entry in body.get("guesses", {}).values():
        if "same_as" not in entry:
            for ref in entry.values():
                yield ref["node"] if isinstance(ref, dict) else ref


class _Stitched(OptimalTotal):
    """Plays the root's best guess, then the guesses the class tasks found."""

    def pick(self, candidates, history):
        if not history:
            return int(self.search.best_guess(self.search._every, self.search.max_guesses))
        if len(candidates) <= 2:
            return int(candidates[0])
        return int(self.search.picks[np.ascontiguousarray(candidates, dtype=np.int64).tobytes()])
