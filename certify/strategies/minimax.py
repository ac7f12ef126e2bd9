"""The one-step look-ahead family: score every guess by how it splits the candidates.

Every rule here picks the guess of best score; ties go to a candidate, then to the
lowest code (the reference's "ties as knuth"), except where the rule says otherwise.
"""

from __future__ import annotations

import math
import os

import numpy as np

from ..errors import CertifyError
from ..game import FULL_MATRIX_CELLS
from .base import Strategy
from .partition import partition_counts
from .symmetry import Symmetry


def _flag(name: str, default: str) -> str:
    return os.environ.get(name, default)


class Scored(Strategy):
    """Score all codes (or only the candidates); least score wins, then candidate, then code order.

    Two speed-ups leave the chosen guess unchanged (tests compare the trees):
    ``symmetry`` scores one code per set of alike guesses (:mod:`.symmetry`; needs a score
    that depends on the class sizes only, ``symmetric``), and ``engine="kernel"`` scores
    with the compiled loop of :mod:`.kernel`, which abandons hopeless guesses early (needs
    ``kernel_kind``). By default the kernel serves games too big for the full feedback
    matrix. Environment: ``CERTIFY_SYMMETRY=0``, ``CERTIFY_ENGINE=numpy|kernel``.
    """

    over_candidates_only = False
    prefer_candidates = True
    #: The score is a function of the class sizes (per feedback) alone.
    symmetric = True
    #: How the compiled kernel computes ``score`` ("max", "sumsq", "parts", "entropy"), if it can.
    kernel_kind: str | None = None

    def __init__(self, game, first=None, *, symmetry: bool | None = None, engine: str | None = None) -> None:
        super().__init__(game, first)
        self.symmetry = _flag("CERTIFY_SYMMETRY", "1") != "0" if symmetry is None else bool(symmetry)
        engine = engine or _flag("CERTIFY_ENGINE", "auto")
        if engine not in ("auto", "numpy", "kernel"):
            raise CertifyError(f"unknown engine {engine!r} (known: auto, numpy, kernel)")
        if engine == "auto":
            engine = "numpy" if game.size**2 <= FULL_MATRIX_CELLS else "kernel"
        self.engine = engine if self.kernel_kind else "numpy"
        self._sym = None
        self._kernel = None
        self._mask = self._mask_set = None

    def score(self, counts: np.ndarray, n_candidates: int) -> np.ndarray:
        """Integer score per guess, lower is better."""
        raise NotImplementedError

    def guesses(self, candidates, history) -> np.ndarray:
        """The codes to score, in code order."""
        pool = candidates if self.over_candidates_only else None
        if self.symmetry and self.symmetric:
            if self._sym is None:
                self._sym = Symmetry(self.game)
            return self._sym.guesses(candidates, history, pool)
        return np.arange(self.game.size, dtype=np.int64) if pool is None else np.asarray(pool)

    def _candidate_mask(self, candidates) -> np.ndarray:
        """A boolean array over the codes, True at the candidates (a reused buffer)."""
        mask = self._mask
        if mask is None:
            mask = self._mask = np.zeros(self.game.size, dtype=bool)
        else:
            mask[self._mask_set] = False
        mask[candidates] = True
        self._mask_set = candidates
        return mask

    def _ranked(self, guesses, candidates, keys) -> int:
        """Best of ``keys`` (scores), then a candidate if preferred, then the lowest code."""
        if self.prefer_candidates and not self.over_candidates_only:
            is_candidate = np.zeros(self.game.size, dtype=bool)
            is_candidate[candidates] = True
            keys = keys * 2 + ~is_candidate[guesses]
        best = keys.min()
        return int(guesses[keys == best].min())

    def pick(self, candidates, history):
        if len(candidates) == 1:
            return int(candidates[0])
        if len(candidates) == 2 and self.kernel_kind and self.prefer_candidates:
            # The first candidate splits two into singletons: the least score of every kind
            # here, and the first code that does among the candidates, which come first.
            return int(candidates[0])
        if self.engine == "kernel":
            return self._pick_kernel(candidates, history)
        guesses = self.guesses(candidates, history)
        counts = partition_counts(self.game, guesses, candidates)
        return self._ranked(guesses, candidates, self.score(counts, len(candidates)).astype(np.int64))

    def _kernel_of_game(self):
        if self._kernel is None:
            from . import kernel

            self._kernel = kernel.Kernel(self.game)
        return self._kernel

    def split(self, guess, candidates):
        if self.engine == "kernel":
            return self._kernel_of_game().split(guess, candidates)
        return super().split(guess, candidates)

    def _pick_kernel(self, candidates, history) -> int:
        from . import kernel

        self._kernel_of_game()
        kind = kernel.KINDS[self.kernel_kind]
        n = len(candidates)
        scores = self._kernel.scores
        if kind == kernel.ENTROPY:
            return self._pick_entropy(candidates, history, kernel)
        if not self.prefer_candidates or self.over_candidates_only:
            guesses = self.guesses(candidates, history)
            keys = scores(kind, guesses, candidates, np.inf)
            return int(guesses[np.flatnonzero(np.isfinite(keys))[-1]])  # strict improvements only
        # Candidates first (all of them when few, which may settle the choice without looking
        # further); then a guess must beat the best candidate outright.
        guesses = None
        mine = candidates
        if n > 256:
            guesses = self.guesses(candidates, history)
            mine = guesses[self._candidate_mask(candidates)[guesses]]
        s_mine = scores(kind, mine, candidates, np.inf)
        best = s_mine.min()
        choice = int(mine[s_mine == best].min())
        if best <= kernel.least_score(kind, n, self.game.pegs):
            return choice
        if guesses is None:
            guesses = self.guesses(candidates, history)
        # Candidates among them cannot beat ``best``: they come back +inf.
        better = np.flatnonzero(np.isfinite(scores(kind, guesses, candidates, best - 1)))
        return int(guesses[better[-1]]) if len(better) else choice


    def _pick_entropy(self, candidates, history, kernel) -> int:
        """The kernel's entropy scores are floats: near ties it cannot settle are settled
        exactly by :meth:`score` (the kernel drops exact ties of the earliest best guess)."""
        n = len(candidates)
        kind = kernel.ENTROPY
        tol = 1e-9 * max(1.0, n * math.log2(n))
        scores = self._kernel.scores
        ref = self._kernel.reference(n)
        if not self.prefer_candidates or self.over_candidates_only:
            guesses = self.guesses(candidates, history)
            keys = scores(kind, guesses, candidates, np.inf, tol, ref)
        else:
            guesses = None
            mine = candidates
            if n > 256:
                guesses = self.guesses(candidates, history)
                mine = guesses[self._candidate_mask(candidates)[guesses]]
            s_mine = scores(kind, mine, candidates, np.inf, tol, ref)
            best = self._kernel.reference_score(ref)
            if best <= kernel.least_score(kind, n, self.game.pegs):
                return int(mine[s_mine == best].min())  # all classes single: nothing does better
            if guesses is None:
                guesses = self.guesses(candidates, history)
            # The others, against the best candidate as reference (its exact ties lose).
            others = guesses[~self._candidate_mask(candidates)[guesses]]
            s_others = scores(kind, others, candidates, best + tol, tol, ref)
            guesses = np.concatenate([mine, others])
            keys = np.concatenate([s_mine, s_others])
        near = np.unique(guesses[keys <= keys.min() + tol])
        if len(near) == 1:  # nothing to settle
            return int(near[0])
        keys = self.score(partition_counts(self.game, near, candidates), n)
        return self._ranked(near, candidates, keys.astype(np.int64))


class Knuth(Scored):
    id = "knuth"
    description = "Knuth's five-guess minimax: least worst-case class over all codes, candidates first"
    reference = "D. E. Knuth (1977), The computer as master mind, J. Recreational Mathematics 9(1), 1-6"

    kernel_kind = "max"

    def score(self, counts, n):
        return counts.max(axis=1)


class MinimaxLowest(Knuth):
    id = "minimax-lowest"
    description = "Minimax over all codes, first code of least weight, no preference for candidates"
    reference = "Bernard Langer, Mastermind : des preuves par ordinateur, Bulletin de l'APMEP n° 503 (2013), section 3.3"
    prefer_candidates = False


class MinimaxCandidates(Knuth):
    id = "minimax-candidates"
    description = "Minimax restricted to the candidates ('six-guess'): first candidate of least weight"
    reference = "Arnauld, TIPE study of Mastermind strategies, 'Six-Guess'"
    over_candidates_only = True


class ExpectedSize(Scored):
    id = "expected-size"
    description = "Irving: least expected class size (sum of squared class sizes) over all codes"
    reference = "R. W. Irving (1978), Towards an optimum Mastermind strategy, J. Recreational Mathematics 11(2), 81-87"

    kernel_kind = "sumsq"

    def score(self, counts, n):
        # sum(n_i^2) / n, and n is the same for every guess: compare the integer numerator.
        return (counts * counts).sum(axis=1)


class MostParts(Scored):
    id = "most-parts"
    description = "Kooi: most non-empty classes over all codes"
    reference = "B. Kooi (2005), Yet another Mastermind strategy, ICGA Journal 28(1), 13-20"

    kernel_kind = "parts"

    def score(self, counts, n):
        return -(counts > 0).sum(axis=1)


class Entropy(Scored):
    """Greatest entropy of the class sizes, compared exactly.

    With n candidates, entropy = log n - (1/n) * sum n_i log n_i, so the best guess has the
    least sum n_i log n_i = log prod n_i^n_i. Floats rank the guesses; any guesses within
    rounding distance of the best are then compared exactly on the integer prod n_i^n_i,
    so rounding can neither invent a tie nor break one.
    """

    id = "entropy"
    description = "Neuwirth: greatest entropy of the class sizes over all codes (compared exactly)"
    reference = "E. Neuwirth (1982), Some strategies for Mastermind, Zeitschrift fuer Operations Research 26, B257-B278"

    kernel_kind = "entropy"

    def score(self, counts, n):
        table = np.zeros(n + 1)
        k = np.arange(1, n + 1)
        table[1:] = k * np.log2(k)
        # Summed in feedback order, so alike class sizes in another order may differ by a
        # rounding error: far below the tolerance below.
        x = table[counts].sum(axis=1)
        best = x.min()
        near = np.flatnonzero(x <= best + 1e-9 * max(1.0, abs(best)))
        rank = np.full(len(x), len(near), dtype=np.int64)  # everything else ranks after
        if len(near) == 1:
            rank[near] = 0
            return rank
        # Equal class sizes in any order are one exact value: compute it once per shape.
        rows = np.ascontiguousarray(np.sort(counts[near], axis=1))
        shapes, inverse = np.unique(rows.view(np.dtype((np.void, rows.strides[0]))).ravel(),
                                    return_inverse=True)
        exact = [math.prod(v**v for v in np.frombuffer(shape.tobytes(), dtype=rows.dtype).tolist() if v > 1)
                 for shape in shapes]
        position = {v: i for i, v in enumerate(sorted(set(exact)))}
        rank[near] = np.array([position[v] for v in exact], dtype=np.int64)[inverse.reshape(-1)]
        return rank
