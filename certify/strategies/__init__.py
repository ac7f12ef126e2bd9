"""The registry of strategies, by CLI id."""

from __future__ import annotations

from ..errors import CertifyError
from .base import Strategy
from .greenwell import Greenwell
from .minimax import Entropy, ExpectedSize, Knuth, MinimaxCandidates, MinimaxLowest, MostParts
from .optimal import Optimal
from .simple import ConsistentFirst, LastGuess
from .viaud import Viaud
from .within import Within

STRATEGIES: dict[str, type[Strategy]] = {
    cls.id: cls
    for cls in (
        Knuth,
        MinimaxLowest,
        MinimaxCandidates,
        ExpectedSize,
        Entropy,
        MostParts,
        ConsistentFirst,
        LastGuess,
        Greenwell,
        Viaud,
        Optimal,
        Within,
    )
}

__all__ = ["STRATEGIES", "Strategy", "get_strategy"]


def get_strategy(name: str) -> type[Strategy]:
    try:
        return STRATEGIES[name]
    except KeyError:
        known = ", ".join(sorted(STRATEGIES))
        raise CertifyError(f"unknown strategy {name!r} (known: {known})") from None
