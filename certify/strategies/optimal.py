"""``optimal``: the exact least-total search's guesses (:mod:`certify.search`) as a strategy.

Not a rule like Knuth's: at every position it plays a guess of a strategy that needs the least
total of guesses for the candidates left. Where the game has a committed least-total certificate
(``certificates/optimal-total-GAME.json``, verified once when first needed) and the rows follow
its tree, it plays the tree's guess: the bytes ``certify build optimal`` writes, with the proof
beside them under certificates/bounds/. Elsewhere (other games, or rows that left the tree) it
runs the exact search on the candidates left, when they are few enough (SEARCH_PAIRS); beyond, it
says so (CertifyError) rather than search for minutes. Every subtree of a least-total tree is
least-total for its own candidates, so the tree and the search agree on what they optimise.
"""

from __future__ import annotations

import numpy as np

from ..errors import CertifyError
from ..game import Game
from .base import Strategy

#: Most (candidate, guess) pairs the exact search is run on for one move off a committed tree:
#: the candidates times the game's codes. Measured here (`certify hint`, whole process, 2 shared
#: cores): 4x7 after 0000=0,0 (1296 x 2401) 9 s, after 0001=1,0 (591) 11 s; Bulls and Cows after
#: 1234=1,0 (480 x 5040) 7 s, after 1234=0,2 (1260) 39 s, which this refuses. The whole of 4x6
#: (1296 x 1296) is under a second (`build optimal`).
SEARCH_PAIRS = 3_200_000
#: The search's own limit (certify.search.total.MAX_TOTAL_CODES), kept here so that a game too
#: big is refused without importing the search.
GAME_MAX = 7776


class Optimal(Strategy):
    id = "optimal"
    description = "least total guesses (exact search), with a lower-bound proof (certify build optimal)"
    reference = ("exact search: depth-first branch and bound with counting bounds (Koyama and Lai "
                 "1993; Ville 2013; Tanaka 1996 for Bulls and Cows); certificates/bounds/ proves "
                 "each committed optimal-total certificate least")
    accepts_first = False

    def __init__(self, game: Game, first: str | None = None) -> None:
        super().__init__(game, first)
        if game.size > GAME_MAX:
            raise CertifyError(f"strategy 'optimal' plays games of at most {GAME_MAX} codes (the exact "
                               f"search's limit); {game} has {game.size}")
        self._tree = _committed_tree(game)
        if self._tree is None and game.size > self.search_max:
            raise CertifyError(f"strategy 'optimal' has no committed least-total certificate for {game} "
                               f"and searches at most {self.search_max} of its {game.size} codes per "
                               "move ('certify build optimal' builds its tree, 'hint --certificate' "
                               "follows it)")
        self._search = None

    @property
    def search_max(self) -> int:
        """Most candidates it searches for one move in this game."""
        return SEARCH_PAIRS // self.game.size

    def pick(self, candidates: np.ndarray, history: tuple) -> int:
        if len(candidates) <= 2:  # either candidate: 1 guess, or 3 for the two (as the search counts)
            return int(candidates[0])
        if self._tree is not None:
            guess = _follow(self._tree, self.game, history)
            if guess is not None:
                return guess
        n = len(candidates)
        if n > self.search_max:
            raise CertifyError(f"strategy 'optimal' has no move for these rows: they leave its committed "
                               f"tree with {n} candidates, and it searches at most {self.search_max} "
                               f"in {self.game}")
        return self._searched(np.ascontiguousarray(candidates, dtype=np.int64))

    def _searched(self, cands: np.ndarray) -> int:
        """The search's best guess for ``cands`` (no limit on guesses); one search and its memo
        serve every move of this strategy."""
        if self._search is None:
            from ..search.total import INFEASIBLE, TotalSearch

            self._search = TotalSearch(self.game)
            self._infeasible = INFEASIBLE
        self._search._solve(cands, None, self._infeasible, 0)
        return int(self._search.best_guess(cands, None))


def _committed_tree(game: Game):
    """The tree of certificates/optimal-total-GAME.json when the file exists, verified; None
    without one. CertifyError when it does not verify or is not the game's least-total strategy."""
    from .. import verify
    from ..paths import CERTIFICATES

    path = CERTIFICATES / f"optimal-total-{game.slug}.json"
    if not path.is_file():
        return None
    report = verify.verify_file(str(path), keep=True)
    cert = report.document if report.valid else None
    if cert is None:
        raise CertifyError(f"the committed {path.name} does not verify: {report.line()}")
    if (cert["game"] != game.to_json() or cert["strategy"].get("name") != "optimal-total"
            or cert["strategy"].get("params")):
        raise CertifyError(f"the committed {path.name} is not the least-total strategy of {game}")
    return cert["tree"]


def _follow(tree: dict, game: Game, history) -> int | None:
    """The tree's guess after ``history`` [(guess, feedback)], None when the rows leave it."""
    node = tree
    for guess, fb in history:
        if node is None or node["guess"] != game.text(guess):
            return None
        b, w = game.decode(fb)
        node = node.get("next", {}).get(f"{b},{w}")
    return None if node is None else game.parse(node["guess"])
