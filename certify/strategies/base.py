"""What a strategy is: a policy that names the next guess from the game's history.

The builder (``certify.build``) calls :meth:`Strategy.choose` once per node of the
decision tree with the candidates left there (indices in code order, sorted) and
the history of (guess, encoded feedback) pairs that led there.
"""

from __future__ import annotations

import numpy as np

from ..errors import CertifyError
from ..game import Game


class Strategy:
    """Base class. Subclasses set ``id``, ``description``, ``reference`` and implement ``choose``."""

    id: str = ""
    description: str = ""
    reference: str = ""
    #: Whether ``--first CODE`` may override the opening guess.
    accepts_first: bool = True

    def __init__(self, game: Game, first: str | None = None) -> None:
        self.game = game
        self.first_text = first
        self.first = None if first is None else game.parse(first)
        if first is not None and not self.accepts_first:
            raise CertifyError(f"strategy {self.id!r} does not take --first")

    def __repr__(self) -> str:
        first = "" if self.first_text is None else f", first={self.first_text!r}"
        return f"{type(self).__name__}({self.game!r}{first})"

    def params(self) -> dict:
        """Parameters written into the certificate (JSON-ready, deterministic)."""
        return {} if self.first_text is None else {"first": self.game.text(self.first)}

    def choose(self, candidates: np.ndarray, history: tuple) -> int:
        """Index of the next guess. ``history`` is a tuple of (guess, feedback) pairs."""
        if not history and self.first is not None:
            return self.first
        return self.pick(candidates, history)

    def pick(self, candidates: np.ndarray, history: tuple) -> int:
        raise NotImplementedError

    def split(self, guess: int, candidates: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(the candidates sorted by their feedback to ``guess``, each class kept in code order;
        the class sizes, indexed by feedback). The builder's partition of a node."""
        fbs = self.game.feedback_row(guess, candidates)
        sizes = np.bincount(fbs, minlength=self.game.n_feedbacks)
        return candidates[np.argsort(fbs, kind="stable")], sizes
