"""Which secrets fit a set of answers: the Mastermind satisfiability check.

An *answer* is ``(guess_index, encoded_feedback)`` as in a strategy's history. The
secrets consistent with answers are filtered with the builder's vectorised
``Game.feedback``; when none is, :func:`minimal_conflict` finds a smallest-by-deletion
subset of the answers that already has no secret (every answer in it is needed).
"""

from __future__ import annotations

import re

import numpy as np

from .errors import CertifyError
from .game import Game

#: Up to this many consistent secrets are listed without --list.
LIST_LIMIT = 20

__all__ = ["LIST_LIMIT", "parse_feedback", "parse_clue", "consistent", "minimal_conflict",
           "answer_text", "report"]

_PAIR = re.compile(r"\s*(\d+)\s*(?:,|\s)\s*(\d+)\s*")
_TWO = re.compile(r"\s*(\d)(\d)\s*")


def parse_feedback(text: str, pegs: int) -> tuple[int, int]:
    """(black, white) from ``B,W``, ``B W`` or ``BW`` (the last only below 10 pegs).

    Raises CertifyError for text that is not an answer or an answer no code can give
    (more than ``pegs`` pegs in all, or ``pegs-1`` black with 1 white).
    """
    m = _PAIR.fullmatch(text) or (_TWO.fullmatch(text) if pegs < 10 else None)
    if not m:
        form = "B,W, B W or BW" if pegs < 10 else "B,W or B W"
        raise CertifyError(f"{text.strip()!r} is not an answer: write {form} "
                           f"(B black pegs, W white pegs)")
    black, white = int(m.group(1)), int(m.group(2))
    if black + white > pegs:
        raise CertifyError(f"{black},{white} is impossible: {black + white} pegs scored, "
                           f"the code has only {pegs}")
    if (black, white) == (pegs - 1, 1):
        raise CertifyError(f"{black},{white} is impossible: when {pegs - 1} pegs are right, "
                           "the last one cannot be a right colour in the wrong place")
    return black, white


def parse_clue(game: Game, text: str) -> tuple[int, int]:
    """An answer from ``GUESS=B,W``; CertifyError naming the clue when malformed."""
    guess, sep, fb = text.partition("=")
    try:
        if not sep:
            raise CertifyError("expected GUESS=B,W")
        index = game.parse(guess.strip())
        black, white = parse_feedback(fb, game.pegs)
    except CertifyError as e:
        raise CertifyError(f"answer {text!r}: {e}") from None
    return index, game.encode(black, white)


def consistent(game: Game, answers, candidates=None) -> np.ndarray:
    """Indices (in code order) of the secrets among ``candidates`` (default: all) that give
    every answer."""
    if candidates is None:
        game.check_size()
        candidates = np.arange(game.size, dtype=np.int64)
    for guess, fb in answers:
        if not len(candidates):
            break
        candidates = candidates[game.feedback([guess], candidates)[0] == fb]
    return candidates


def minimal_conflict(game: Game, answers) -> list[int]:
    """Positions of a subset of ``answers`` that no secret satisfies and that is minimal:
    drop any one of them and some secret fits. Deletion-based: try to drop each answer in
    turn, keep it only when the rest become satisfiable. [] if the answers are consistent."""
    answers = list(answers)
    if len(consistent(game, answers)):
        return []
    keep = list(range(len(answers)))
    for i in list(keep):
        rest = [j for j in keep if j != i]
        if not len(consistent(game, [answers[j] for j in rest])):
            keep = rest
    return keep


def answer_text(game: Game, answer) -> str:
    b, w = game.decode(answer[1])
    return f"{game.text(answer[0])}={b},{w}"


def _rows(codes: list[str], per_row: int = 10) -> list[str]:
    return ["  " + " ".join(codes[i:i + per_row]) for i in range(0, len(codes), per_row)]


def report(game: Game, clues, list_all: bool = False) -> tuple[int, list[str], dict]:
    """``certify consistent``: (exit status, text lines, JSON document) for the clues."""
    answers = [parse_clue(game, c) for c in clues]
    found = consistent(game, answers)
    n = len(found)
    listed = list_all or n <= LIST_LIMIT
    doc = {
        "game": game.to_json(),
        "answers": [{"guess": game.text(g), "black": game.decode(f)[0], "white": game.decode(f)[1]}
                    for g, f in answers],
        "consistent": n,
        "secrets": game.texts(found) if listed else None,
        "conflict": None,
    }
    given = f"{len(answers)} answer{'s' if len(answers) != 1 else ''}"
    if n == 0:
        conflict = minimal_conflict(game, answers)
        doc["conflict"] = [doc["answers"][i] for i in conflict]
        lines = [f"no secret of {game} is consistent with the {given}"]
        if len(conflict) == 1:
            lines.append("this answer alone is impossible (no code of the game gives it):")
        else:
            lines.append("these answers contradict each other (drop any one of them and some secret fits):")
        lines.append("  " + " ".join(answer_text(game, answers[i]) for i in conflict))
        return 1, lines, doc
    lines = [f"{n} secret{'s' if n != 1 else ''} of {game} "
             f"{'are' if n != 1 else 'is'} consistent with the {given}"
             + (":" if listed else " (--list shows them)")]
    if listed:
        lines += _rows(doc["secrets"])
    return 0, lines, doc
