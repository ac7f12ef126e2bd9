"""``within``: a strategy that never needs more than D guesses, found by a direct search
(:mod:`certify.search.finder`): ``certify build within --max-guesses D``.

Without D it takes the least D the finder reaches, from the counting bound up, searching at most
AUTO_SETS sets for each D it passes (a D it misses may still be possible: the finder is not
exhaustive; ``certify bound --worst`` decides).
"""

from __future__ import annotations

import numpy as np

from ..errors import CertifyError, NotFound
from ..game import Game
from .base import Strategy

#: Sets searched for each D below the one taken, when D is not given.
AUTO_SETS = 20_000
#: The finder's own limit (certify.search.space.MAX_SEARCH_CODES), kept here so that a game too big
#: is refused without importing the search.
GAME_MAX = 46_656


class Within(Strategy):
    id = "within"
    description = "never more than D guesses (--max-guesses D): a direct search for such a strategy"
    accepts_first = False
    options = ("max_guesses", "width")

    def __init__(self, game: Game, first: str | None = None, max_guesses: int | None = None,
                 width: int | None = None, progress=None) -> None:
        super().__init__(game, first)
        if game.size > GAME_MAX:
            raise CertifyError(f"strategy 'within' plays games of at most {GAME_MAX} codes (the search's "
                               f"limit); {game} has {game.size}")
        for name, value in (("max_guesses", max_guesses), ("width", width)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise CertifyError(f"{name}: a whole number >= 1, got {value!r}")
        from ..search.finder import WIDTHS, DepthFinder

        self.finder = DepthFinder(game, width=width, progress=progress)
        self.width = width
        self.reference = ("direct search for a strategy within D guesses: OR over the guesses a heuristic "
                          "ranks best (smallest biggest class, least sum of squares, most classes; "
                          f"{width or '/'.join(map(str, WIDTHS))} tried at a set), AND over their classes, "
                          "counting bounds (certify.search.finder)")
        if max_guesses is None:  # the least D it reaches, from what counting forbids up
            d = max(1, self.finder.count.worst(game.size))
            # A D that is not found costs the most (every width at every level is tried): each
            # gets AUTO_SETS sets. Only which D is taken depends on it, not the strategy's bytes
            # (`--max-guesses D` searches D alone, without a limit, and finds the same).
            while not self.finder.find(d, AUTO_SETS if d < game.size else None):
                if progress is not None:
                    progress(f"within {d} {game.slug}: not found in {self.finder.nodes:,} sets; trying {d + 1}")
                d += 1  # d = every code one by one always works
        elif not self.finder.find(max_guesses):
            raise NotFound(f"no strategy for {game} within {max_guesses} guesses found by this search "
                           f"(it tries {width or 'a few dozen'} guesses at a set): not a proof that none exists; "
                           f"certify bound --pegs {game.pegs} --colors {game.colors} --worst decides")
        else:
            d = max_guesses
        self.d = d

    def params(self) -> dict:
        out = {"max_guesses": self.d}
        if self.width is not None:
            out["width"] = self.width
        return out

    def pick(self, candidates: np.ndarray, history: tuple) -> int:
        cands = np.ascontiguousarray(candidates, dtype=np.int64)
        t = self.d - len(history)
        g = self.finder.within(cands, t)
        if g < 0:  # pragma: no cover - the memo of the run that found the strategy says otherwise
            raise AssertionError(f"the finder lost a set it had settled within {t}")
        return g
