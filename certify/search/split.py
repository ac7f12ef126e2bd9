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
"""

from __future__ import annotations

import numpy as np

from ..errors import Infeasible
from .proof import renumbered
from .total import INFEASIBLE, Entry, OptimalTotal, TotalSearch

_SPACES: dict = {}  # per process: game key -> Space (the feedback matrix is built once)


def class_task(game_key, max_guesses, cands: bytes, beta: int):
    """(value, proof nodes, strategy guesses) of one class (secrets as int64 bytes) one guess
    below the root, solved fail-soft against ``beta`` in a fresh search."""
    from ..game import Game
    from .space import Space

    game = Game(*game_key)
    space = _SPACES.get(game_key)
    if space is None:
        space = _SPACES[game_key] = Space(game)
    search = TotalSearch(game, max_guesses, space=space)
    search.top = 0  # everything in the compiled search, its memo this task's own
    secrets = np.frombuffer(cands, dtype=np.int64).copy()
    r = None if max_guesses is None else max_guesses - 1
    value = search.engine.solve(secrets, r, beta)
    nodes = search.prove_below(secrets, min(value, INFEASIBLE), None if r is None else 1)
    picks = _picks(search, secrets, r) if value < beta else {}
    return value, nodes, picks


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

    def __init__(self, game, max_guesses=None, run=None, progress=None) -> None:
        super().__init__(game, max_guesses)
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
            args = [(key, r, every[labels == f].tobytes(), int(best - (q - self.ctotal[m])))
                    for f, m in classes]
            self.say(f"first guess {sp.texts[g]}: {len(args)} classes as tasks")
            results = self.run(class_task, args)
            self.tasks += len(args)
            acc, used = q, {}
            for (f, m), a, result in zip(classes, args, results):
                v = min(int(result[0]), INFEASIBLE)
                kept = self.results.get(a[2])
                if kept is None or v > kept[0]:
                    self.results[a[2]] = (v,) + tuple(result[1:])
                qc = int(self.ctotal[m])
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
            found = self.results.get(c.tobytes())
            if f != sp.win and found is not None:
                self.picks.update(found[2])
        return best

    @property
    def nodes(self) -> int:
        return self.tasks

    def _bound_of(self, cands, r) -> int:
        found = self.results.get(cands.tobytes())
        return self._quick(len(cands), r) if found is None else found[0]

    def prove(self) -> dict:
        writer, depth = self._writer()
        root_key = writer.key(self._every, self.value, depth)
        writer.root(self._every, self.value, depth)
        writer.take_pending()
        guesses, blocks = self._node_guesses(self._every, self.value, depth, writer)
        writer.fill_key(root_key, self.value, guesses, blocks)
        for key, cands, bound, _ in writer.take_pending():  # the classes: their tasks' nodes
            nodes = self.results[cands.tobytes()][1]
            refs = [writer.refs[key]]
            for j, (d, size, b, _) in enumerate(nodes[1:], 1):
                k = ("task", key, j)
                refs.append(writer.extra(k, (d or 0, -size, -b)))
            for j, (_, _, b, body) in enumerate(nodes):
                writer.bodies[key if j == 0 else ("task", key, j)] = renumbered(body, refs.__getitem__)
        return writer.document()

    def strategy_certificate(self) -> dict:
        from ..certificate import make_certificate

        if self.value is None:
            self.solve()
        return make_certificate(_Stitched(self))


class _Stitched(OptimalTotal):
    """Plays the root's best guess, then the guesses the class tasks found."""

    def pick(self, candidates, history):
        if not history:
            return int(self.search.best_guess(self.search._every, self.search.max_guesses))
        if len(candidates) <= 2:
            return int(candidates[0])
        return int(self.search.picks[np.ascontiguousarray(candidates, dtype=np.int64).tobytes()])
