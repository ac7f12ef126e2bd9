"""``greenwell``: a static sequence of guesses, then the one code it leaves.

The guesses are fixed in advance; the answers only decide when to stop: on a win, or as
soon as exactly one candidate remains (that candidate is played next). The sequence must
determine every secret (no two secrets get the same answers to the whole sequence),
otherwise the strategy could run out of guesses; that is checked when it is created.
"""

from __future__ import annotations

import numpy as np

from ..errors import CertifyError
from ..game import Game
from .base import Strategy

#: Greenwell's static sequence for 4 pegs x 6 colours (the only game with a default).
GREENWELL_4X6 = ("0110", "1243", "2200", "3413", "4545", "5532")


def parse_sequence(game: Game, sequence) -> list[int]:
    """Code indices of a sequence given as "0110,1243,..." or as a list of code texts."""
    if isinstance(sequence, str):
        items = [s.strip() for s in sequence.split(",")]
    else:
        items = list(sequence)
    if not items or any(s == "" for s in items):
        raise CertifyError(f"--sequence {_shown(sequence)}: expected comma-separated codes, "
                           "e.g. 0110,1243,2200")
    codes = []
    for position, text in enumerate(items, 1):
        try:
            codes.append(game.parse(text))
        except CertifyError as e:
            raise CertifyError(f"--sequence, code {position}: {e}") from None
    seen = {}
    for position, code in enumerate(codes, 1):
        if code in seen:
            raise CertifyError(f"--sequence: code {position} ({game.text(code)}) repeats code "
                               f"{seen[code]}")
        seen[code] = position
    return codes


def _shown(sequence) -> str:
    return repr(sequence if isinstance(sequence, str) else ",".join(map(str, sequence)))


def check_determines(game: Game, codes: list[int]) -> None:
    """CertifyError naming two secrets the sequence cannot tell apart, if there are any."""
    answers = game.feedback(codes, np.arange(game.size)).T  # one row of answers per secret
    _, first, inverse = np.unique(answers, axis=0, return_index=True, return_inverse=True)
    if len(first) == game.size:
        return
    inverse = np.ravel(inverse)
    # The lowest secret that shares its answers with a lower one, and that lower one.
    dup = int(np.flatnonzero(first[inverse] != np.arange(game.size))[0])
    twin = int(first[inverse[dup]])
    seq = ",".join(game.texts(codes))
    raise CertifyError(f"sequence {seq} does not determine every secret of {game}: "
                       f"{game.text(twin)} and {game.text(dup)} get the same answers")


class Greenwell(Strategy):
    id = "greenwell"
    description = ("Static sequence (4x6: 0110 1243 2200 3413 4545 5532, else --sequence), "
                   "then the one candidate left")
    reference = ("D. L. Greenwell (1999-2000), Mastermind, J. Recreational Mathematics 30(3), 191-192; "
                 "figures: Bernard Langer, Mastermind : des preuves par ordinateur, Bulletin de l'APMEP n° 503 (2013), section 4")
    accepts_first = False
    options = ("sequence",)

    def __init__(self, game: Game, first: str | None = None, sequence=None) -> None:
        super().__init__(game, first)
        if sequence is None:
            if game.key() != (4, 6, True):
                raise CertifyError(f"strategy 'greenwell' has a built-in sequence only for 4x6; "
                                   f"give one for {game} with --sequence CODE,CODE,...")
            sequence = GREENWELL_4X6
        self.sequence = parse_sequence(game, sequence)
        check_determines(game, self.sequence)

    def params(self) -> dict:
        return {"sequence": self.game.texts(self.sequence)}

    def pick(self, candidates, history):
        if len(candidates) == 1:
            return int(candidates[0])
        # Every earlier guess came from the sequence (a lone candidate ends the game), and the
        # sequence determines every secret, so it cannot run out while two candidates remain.
        return self.sequence[len(history)]
