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
from .letters import Names
from .text import shown

#: Up to this many consistent secrets are listed without --list.
LIST_LIMIT = 20

__all__ = ["LIST_LIMIT", "parse_feedback", "parse_blacks", "parse_clue", "consistent", "minimal_conflict",
           "answer_text", "report"]

# ASCII digits only: \d would take any script's digits (full-width, Arabic-Indic...).
_PAIR = re.compile(r"\s*([0-9]+)\s*(?:,|\s)\s*([0-9]+)\s*")
_TWO = re.compile(r"\s*([0-9])([0-9])\s*")
#: Longest number of pegs an answer may state (int() refuses beyond 4300 digits anyway).
_DIGITS = 6


def parse_feedback(text: str, pegs: int) -> tuple[int, int]:
    """(black, white) from ``2,1``, ``2 1`` or ``21`` (the last only below 10 pegs).

    Raises CertifyError for text that is not an answer or an answer no code can give
    (more than ``pegs`` pegs in all, or ``pegs-1`` black with 1 white).
    """
    m = _PAIR.fullmatch(text) or (_TWO.fullmatch(text) if pegs < 10 else None)
    if not m:
        form = "2,1, 2 1 or 21" if pegs < 10 else "2,1 or 2 1"
        raise CertifyError(f"{shown(text.strip(), 40)!r} is not an answer: write black,white as two "
                           f"numbers ({form}: black pegs, then white pegs)")
    if max(len(m.group(1)), len(m.group(2))) > _DIGITS:
        raise CertifyError(f"{shown(text.strip(), 40)!r} is impossible: more pegs scored than the code "
                           f"has ({pegs})")
    black, white = int(m.group(1)), int(m.group(2))
    if black + white > pegs:
        raise CertifyError(f"{black},{white} is impossible: {black + white} pegs scored, "
                           f"the code has only {pegs}")
    if (black, white) == (pegs - 1, 1):
        raise CertifyError(f"{black},{white} is impossible: when {pegs - 1} pegs are right, "
                           "the last one cannot be a right colour in the wrong place")
    return black, white


def parse_blacks(text: str, pegs: int) -> tuple[int, int]:
    """(black, 0) from the answer of a black-peg game: one number, the black pegs (``2``), 0 to
    ``pegs``. The one parser of a black-peg answer (consistent, hint, play and the API):
    CertifyError for anything else, ``2,0`` included (there are no white pegs to give)."""
    digits = text.strip()
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 6 and int(digits) <= pegs):
        raise CertifyError(f"{shown(digits, 20)!r} is not an answer of black-peg Mastermind: the number of "
                           f"black pegs, 0 to {pegs} (e.g. 2)")
    return int(digits), 0


def parse_clue(game: Game, text: str, names: Names | None = None) -> tuple[int, int]:
    """An answer from ``GUESS=black,white`` (the guess in ``names``' letters when it has some);
    CertifyError naming the clue when malformed."""
    guess, sep, fb = text.partition("=")
    try:
        if not sep:
            raise CertifyError("expected GUESS=black (e.g. 0011=2: black pegs only)" if game.black_only
                               else "expected GUESS=black,white (e.g. 0011=2,1)")
        if names:
            guess = names.read(guess, game.pegs, game.repetition, str(game))
        index = game.parse(guess.strip())
        black, white = parse_blacks(fb, game.pegs) if game.black_only else parse_feedback(fb, game.pegs)
    except CertifyError as e:
        raise CertifyError(f"answer {shown(text, 60)!r}: {e}") from None
    return index, game.encode(black, white)


def consistent(game: Game, answers, candidates=None) -> np.ndarray:
    """Indices (in code order) of the secrets among ``candidates`` (default: all) that give
    every answer."""
    if candidates is None:
        game.check_size()
        candidates = np.arange(game.size, dtype=np.int64)
    seen = set()
    for answer in answers:
        if not len(candidates):
            break
        if answer in seen:  # a repeated answer filters nothing more
            continue
        seen.add(answer)
        guess, fb = answer
        candidates = candidates[game.feedback_row(guess, candidates) == fb]
    return candidates


def minimal_conflict(game: Game, answers) -> list[int]:
    """Positions of a subset of ``answers`` that no secret satisfies and that is minimal:
    drop any one of them and some secret fits. [] if the answers are consistent.

    Constructive search, one member per round: from the members found so far, filter the
    candidates by the answers in order; the first answer that leaves none is a member, and the
    next round only looks at the answers before it. Each round is one incremental pass, so the
    cost is (size of the conflict + 1) passes, not one pass per answer as deletion would be.
    Each member is needed: without it, the others lie within a set that was consistent.
    """
    answers = [(int(g), int(f)) for g, f in answers]
    game.check_size()
    found: list[int] = []
    scope = len(answers)
    while True:
        candidates = consistent(game, [answers[i] for i in found])
        if not len(candidates):
            return sorted(found)
        seen = set()
        for j in range(scope):
            if answers[j] in seen:  # the first copy of an answer is the one kept
                continue
            seen.add(answers[j])
            candidates = consistent(game, [answers[j]], candidates)
            if not len(candidates):
                found.append(j)
                scope = j
                break
        else:
            return []  # the first pass found no contradiction: the answers are consistent


def answer_text(game: Game, answer, names: Names | None = None) -> str:
    code = game.text(answer[0])
    return f"{names.name(code) if names else code}={game.key_text(answer[1])}"


def answer_json(game: Game, guess: int, fb: int) -> dict:
    """An answer in JSON: its guess and black pegs, and its white pegs unless the game is black-peg."""
    b, w = game.decode(fb)
    return {"guess": game.text(guess), "black": b, **({} if game.black_only else {"white": w})}


def _rows(codes: list[str], per_row: int = 10) -> list[str]:
    return ["  " + " ".join(codes[i:i + per_row]) for i in range(0, len(codes), per_row)]


def report(game: Game, clues, list_all: bool = False,
           letters: str | None = None) -> tuple[int, list[str], dict]:
    """``certify consistent``: (exit status, text lines, JSON document) for the clues. With
    ``letters`` the guesses are typed and the text shows codes in them; the document keeps the
    game's own codes and says which letters stand for them."""
    game.check_size()  # before the clues, so a huge game is named as such
    names = Names(letters, game.colors)
    answers = [parse_clue(game, c, names) for c in clues]
    found = consistent(game, answers)
    n = len(found)
    listed = list_all or n <= LIST_LIMIT
    doc = {
        "game": game.to_json(),
        "answers": [answer_json(game, g, f) for g, f in answers],
        "consistent": n,
        "secrets": game.texts(found) if listed else None,
        "conflict": None,
    }
    if names:
        doc["letters"] = names.letters
    given = f"{len(answers)} answer{'s' if len(answers) != 1 else ''}"
    if n == 0:
        conflict = minimal_conflict(game, answers)
        doc["conflict"] = [doc["answers"][i] for i in conflict]
        lines = [f"no secret of {game} is consistent with the {given}"]
        if len(conflict) == 1:
            lines.append("this answer alone is impossible (no code of the game gives it):")
        else:
            lines.append("these answers contradict each other (drop any one of them and some secret fits):")
        lines.append("  " + " ".join(answer_text(game, answers[i], names) for i in conflict))
        return 1, lines, doc
    lines = [f"{n} secret{'s' if n != 1 else ''} of {game} "
             f"{'are' if n != 1 else 'is'} consistent with the {given}"
             + (":" if listed else " (--list shows them)")]
    if listed:
        lines += _rows(names.names(doc["secrets"]))
    return 0, lines, doc
