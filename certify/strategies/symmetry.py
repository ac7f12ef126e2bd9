"""Which guesses are worth scoring: drop codes that a lower code already stands for.

Two guesses are *alike* here when they split the current candidates into classes of the
same sizes for every feedback and are both candidates or both not. Every filter below
drops a guess g only when it knows a lower code (in code order) alike to g, so the lowest
code of every set of alike guesses survives. A rule that picks "best score, then (maybe)
a candidate, then the lowest code", with a score computed from the class sizes, therefore
picks the same guess from the survivors as from all codes (the winner is the lowest code
alike to itself). The equivalences (Ville 2013's "free" and "zero" colours, plus the
game's own symmetries):

- *free* colours, in no guess played so far: permuting them fixes every guess played and
  its feedback, so it fixes the candidates and maps the split by g onto the split by the
  permuted g. Kept: codes whose free colours appear, left to right, in increasing order.
- *zero* colours, in no candidate: a guess peg of a zero colour never scores against a
  candidate, so (with repetition) it may be changed to any other zero colour; without
  repetition zero colours may still be permuted. Kept: codes using only the lowest zero
  colour (without repetition: zero colours in increasing order of appearance).
- a permutation of the pegs together with a permutation of the colours that leaves every
  guess played so far unchanged (e.g. at the start every peg permutation): it fixes the
  candidates as above. Dropped: g when the permuted g is lower.
"""

from __future__ import annotations

import itertools

import numpy as np

from ..game import Game

#: Peg permutations are enumerated only up to this many pegs (7! = 5040).
MAX_PERMUTED_PEGS = 7
#: Memory for the cached colour masks (one byte per code each).
MASK_CACHE_BYTES = 1 << 27


class Symmetry:
    """Filter guesses for one game; remembers the peg symmetries of each history it saw."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._values = game._values  # base-c value of every code: increasing in code order
        self._stabilizers: dict[tuple, list] = {}
        self._masks: dict[tuple, np.ndarray] = {}
        # depth -> (guesses played, {zero colours: result}). The result depends on the history's
        # guesses (free colours, stabilizer) and the zero colours only, so siblings (same guesses,
        # another answer) share it; the builder visits siblings depth-first, one depth at a time.
        self._recent: dict[int, tuple] = {}

    def guesses(self, candidates: np.ndarray, history: tuple, pool: np.ndarray | None = None) -> np.ndarray:
        """The codes of ``pool`` (default: every code), in code order, minus those a lower
        code stands for."""
        game = self.game
        played = np.zeros(game.colors, dtype=bool)
        for guess, _ in history:
            played[game.digits[guess]] = True
        free = tuple(np.flatnonzero(~played).tolist())
        zero = tuple(np.flatnonzero(~game.counts[candidates].any(axis=0)).tolist())
        if pool is None:
            played_guesses = tuple(guess for guess, _ in history)
            level = self._recent.get(len(history))
            if level is None or level[0] != played_guesses:
                level = self._recent[len(history)] = (played_guesses, {})
            found = level[1].get(zero)
            if found is None:
                found = level[1][zero] = self._filter(candidates, history, free, zero, None)
                found.flags.writeable = False  # shared between siblings
            return found
        return self._filter(candidates, history, free, zero, pool)

    def _filter(self, candidates, history, free, zero, pool):
        game = self.game
        p, c = game.pegs, game.colors
        keep = self._mask(("free", free)) & self._mask(("zero", zero))
        if pool is None:
            pool = np.flatnonzero(keep)
        else:
            pool = np.asarray(pool, dtype=np.int64)
            pool = pool[keep[pool]]
        stabilizer = self._stabilizer(history)
        if stabilizer:
            digits = game.digits[pool]
            for perm, colour_map in stabilizer:
                moved = colour_map[digits[:, perm]].astype(np.int64)
                value = np.zeros(len(pool), dtype=np.int64)
                for i in range(p):
                    value = value * c + moved[:, i]
                keep = value >= self._values[pool]
                pool, digits = pool[keep], digits[keep]
        return pool

    def _mask(self, key: tuple) -> np.ndarray:
        """Codes kept by the free-colour or the zero-colour rule, over every code (cached)."""
        found = self._masks.get(key)
        if found is not None:
            return found
        game = self.game
        kind, colours = key
        colours = np.array(colours, dtype=np.int64)
        if len(colours) < 2:
            found = np.ones(game.size, dtype=bool)
        elif kind == "zero" and game.repetition:
            other_zero = np.zeros(game.colors, dtype=bool)
            other_zero[colours[1:]] = True
            found = ~other_zero[game.digits].any(axis=1)
        else:
            found = _in_order(game.digits, colours, game.colors)
        if len(self._masks) * game.size > MASK_CACHE_BYTES:
            self._masks.clear()
        self._masks[key] = found
        return found

    def _stabilizer(self, history: tuple) -> list:
        """[(peg permutation, colour map)]: the non-identity peg permutations that, with the
        colour map they force (identity on free colours), leave every guess of ``history``
        unchanged. Each entry maps a code g to colour_map[g[perm]]."""
        found = self._stabilizers.get(history)
        if found is not None:
            return found
        game = self.game
        p, c = game.pegs, game.colors
        if p > MAX_PERMUTED_PEGS:
            found = []
        elif not history:
            ident = np.arange(c, dtype=np.uint8)
            found = [(np.array(perm), ident) for perm in itertools.permutations(range(p))][1:]
        else:
            rows = [game.digits[guess].tolist() for guess, _ in history]
            found = []
            for perm, _ in self._stabilizer(history[:-1]):
                colour_map = list(range(c))
                fixed = [False] * c
                ok = True
                for row in rows:
                    for i in range(p):
                        a, b = row[perm[i]], row[i]  # colour a at peg perm[i] must become b
                        if fixed[a]:
                            if colour_map[a] != b:
                                ok = False
                                break
                        else:
                            fixed[a] = True
                            colour_map[a] = b
                    if not ok:
                        break
                # colours map onto played colours only: a bijection if injective there
                if ok and len({colour_map[a] for a in range(c) if fixed[a]}) == sum(fixed):
                    found.append((perm, np.array(colour_map, dtype=np.uint8)))
        self._stabilizers[history] = found
        return found


def _in_order(digits: np.ndarray, colours: np.ndarray, c: int) -> np.ndarray:
    """Rows whose pegs of these colours introduce them in increasing order, lowest first."""
    rank = np.full(c, -1, dtype=np.int16)
    rank[colours] = np.arange(len(colours), dtype=np.int16)
    seen = np.zeros(len(digits), dtype=np.int16)  # distinct colours of the set met so far
    ok = np.ones(len(digits), dtype=bool)
    for i in range(digits.shape[1]):
        r = rank[digits[:, i]]
        ok &= r <= seen  # -1 (not in the set), an old one, or exactly the next one
        seen += r == seen
    return ok
