"""A strategy within D guesses, looked for directly (``certify build within --max-guesses D``).

The worst-case search (:mod:`.worst`) decides whether D guesses suffice; to answer no it refutes
every guess at every set it meets, and a set it first tries that needs one guess more costs it all
of that. This finder only looks for a yes. At a set S with t guesses left it ranks the guesses by a
heuristic (the smallest biggest class, then the least sum of squared class sizes, then the most
classes, then a candidate, which may win) and tries the ``width`` best: a guess works when every
class of its split is settled, biggest first, within t - 1 (the same question, one level down).
Results are kept per (S, t). Shortcuts: one candidate; |S| <= t (the candidates one by one);
|S| above the counting bound N(t) (no strategy); t = 2 (a code that splits S into classes of at most
one, a compiled scan). At the top two levels the guesses are one per set of alike guesses (the
symmetry of :mod:`.symmetry`, worth its cost where the sets are few and big, up to 7 pegs); below,
one per distinct split of S.

Incomplete by design: "not found" proves nothing (a wider search or another ranking may find
one); ``certify bound --worst`` decides. What it finds is a strategy certificate, checked by the
independent verifier before the command says so. Measured (2 shared cores, CPU): a strategy within
6 for 5x7 in ~14 s, 6x5 in ~17 s (the worst-case search: 77 s and 743 s), within 7 for 4x9 in ~3 s.
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np

from .counting import Counting
from .kernel import class_sizes, partition_hashes, perfect_split
from .space import Space
from .symmetry import Alike

#: Guesses tried at a set, by guesses left (t = 3, 4, 5, ...; the last for every larger t): narrow
#: near the leaves, where the sets are many and a failure is cheap to redo higher up.
WIDTHS = (40, 60, 80, 200)


class DepthFinder:
    """The finder for one game; ``width`` replaces the widths below the top two levels."""

    def __init__(self, game, width: int | None = None, progress=None) -> None:
        self.game = game
        self.space = Space(game)
        self.count = Counting(game.pegs, game.colors, game.repetition, game.black_only)
        # The symmetry pays at the top two levels while its peg permutations are few: 7! = 5,040
        # (it lists them all; 13! would not fit in memory).
        self.alike = Alike(self.space) if math.factorial(game.pegs) <= 5040 else None
        self.every = np.arange(self.space.n, dtype=np.int64)
        self.width = width
        self.memo: dict = {}  # (S as bytes, t) -> the guess, or -1: none of the tried works
        self.nodes = 0  # sets searched (memo misses past the shortcuts)
        self.top = 0  # the D of the current run: the top two levels use the symmetry
        self.say = progress  # a function taking one line, or None
        self._budget = None
        self._started = self._last = time.monotonic()
        self._settled = 0  # secrets in the root's classes found within D - 1 so far
        self._key_type = np.uint16 if self.space.n <= 1 << 16 else np.uint32

    def find(self, d: int, max_sets: int | None = None) -> bool:
        """Whether a strategy within ``d`` guesses for every code was found (searching at most
        ``max_sets`` sets, when given: past them, not found)."""
        # A fresh memo: which guesses a set is offered depends on d (the symmetry at the top two
        # levels), and the strategy's bytes must not depend on the runs before this one.
        self.top, self._settled, self.memo, self.nodes = d, 0, {}, 0
        self._budget = max_sets
        try:
            return self.within(self.every, d) >= 0
        except _OutOfSets:
            self.memo = {}
            return False
        finally:
            self._budget = None

    def within(self, cands: np.ndarray, t: int) -> int:
        """A guess that starts a strategy settling every code of ``cands`` within ``t`` guesses
        (that guess included), or -1 if none of those tried does."""
        n = len(cands)
        if n == 1 or (1 < n <= t):
            return int(cands[0])
        if t <= 1 or n > self.count.N(t):
            return -1
        if t == 2:
            return self.perfect(cands)
        key = (cands.astype(self._key_type).tobytes(), t)
        found = self.memo.get(key)
        if found is None:
            self.nodes += 1
            if self._budget is not None and self.nodes > self._budget:
                raise _OutOfSets
            self._tick(n, t)
            found = self.memo[key] = self._search(cands, t)
        return found

    def perfect(self, cands: np.ndarray) -> int:
        """A code that splits ``cands`` into classes of at most one (a candidate first: it may win),
        or -1."""
        sp = self.space
        if len(cands) > self.count.b + 1 or not perfect_split(sp.fb, cands, sp.n_fb, sp.win):
            return -1
        for pool in (cands, self.every):
            sizes = class_sizes(sp.fb, pool, cands, sp.n_fb)
            sizes[:, sp.win] = 0
            ok = np.flatnonzero(sizes.max(axis=1) <= 1)
            if len(ok):
                return int(pool[ok[0]])
        raise AssertionError("perfect_split found a code that class_sizes does not")  # pragma: no cover

    def _search(self, cands: np.ndarray, t: int) -> int:
        sp = self.space
        if t >= self.top - 1 and self.alike is not None:
            guesses = self.alike.representatives(cands)[0]
        else:  # one guess per distinct split: the lowest code of each
            hashes = partition_hashes(sp.fb, self.every, cands, sp.n_fb, sp.win)
            guesses = np.sort(np.unique(hashes, return_index=True)[1]).astype(np.int64)
        sizes = class_sizes(sp.fb, guesses, cands, sp.n_fb)
        wins = sizes[:, sp.win].copy()
        sizes[:, sp.win] = 0
        biggest = sizes.max(axis=1)
        open_ = np.flatnonzero(biggest <= self.count.N(t - 1))
        if not len(open_):
            return -1
        s = sizes[open_].astype(np.int64)
        order = np.lexsort((-wins[open_], -(s > 0).sum(axis=1), (s * s).sum(axis=1), biggest[open_]))
        width = self.width if self.width is not None and t < self.top - 1 else WIDTHS[min(t - 3, len(WIDTHS) - 1)]
        for i in open_[order[:width]].tolist():
            g = int(guesses[i])
            labels = sp.fb[g][cands]
            row = sizes[i]
            if all(self.within(cands[labels == f], t - 1) >= 0
                   for f in np.argsort(-row, kind="stable").tolist() if row[f]):
                if t == self.top - 1:
                    self._settled += len(cands)
                return g
        return -1

    def _tick(self, n: int, t: int) -> None:
        now = time.monotonic()
        if self.say is None or now - self._last < 5:
            return
        self._last = now
        done, total = self._settled, self.space.n
        eta = ""
        if done:  # the root's classes are searched biggest first: an upper bound, roughly
            eta = f", ~{(now - self._started) * (total - done) / done:.0f} s to go if the rest goes as well"
        self.say(f"within {self.top} {self.game.slug}: {self.nodes} sets searched, {done} of {total} "
                 f"secrets settled{eta}; at |S| = {n}, {t} guesses left")


class _OutOfSets(Exception):
    """The sets ``find`` may search are spent."""
