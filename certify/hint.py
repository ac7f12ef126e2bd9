"""What to play next, and why: ``certify hint`` and the papers' weight tables.

After some rows (guess, answer), a strategy (or a certificate whose guesses the rows follow)
names the next guess; the hint shows the candidates left, how that guess splits them (how many
secrets give each answer) and its score under the strategy's rule. ``table`` is the weight table
the papers work through by hand: for every code (or every candidate), the class sizes per answer
and the weight, i.e. the largest class; the codes of least weight are marked. ``up_to_symmetry`` keeps
one row per class of codes alike under the game's symmetries (see :func:`classes`).
With ``letters`` (one per colour, as ``play --letters``) the documents keep the game's own codes and
name the letters under "letters"; the text and CSV show every code in them.
"""

from __future__ import annotations

import math

import numpy as np

from .consistent import answer_json, answer_text, consistent, minimal_conflict
from .errors import CertifyError
from .game import Game
from .letters import Names
from .strategies.partition import partition_counts

__all__ = ["HINT_VERSION", "TABLE_VERSION", "TABLE_PAIRS", "SYMMETRY_WORK", "TIES", "feedback_keys",
           "follow", "hint", "classes", "table", "hint_lines", "table_lines", "table_csv"]

HINT_VERSION = 1
TABLE_VERSION = 1
#: Most (code, candidate) pairs a weight table scores (about 10 s): a bound on time, not memory.
TABLE_PAIRS = 200_000_000
#: Candidates listed by name in a hint when at most this many are left.
LIST = 20
#: Most work to group codes up to symmetry, (pegs! peg orders) x (codes + 2000): an index map over
#: every code per peg order and a little Python each. 5x8: 4.2M, 1.3 s; 5x9 1.7 s; 6x5 (12.7M)
#: 2.7 s; 6x6 (35M) would take 7 s and 7x3 (21M) 6 s, so they are refused.
SYMMETRY_WORK = 15_000_000
#: How rows of equal weight are ordered by --sort weight (Knuth's rule: a candidate if possible,
#: then the lowest code); the first row is the guess the rule picks.
TIES = "candidates first, then the lowest code"

# How each scored family's rule reads as a number a person can check (kernel_kind -> text).
_RULES = {
    "max": ("largest class", "least wins"),
    "sumsq": ("expected class size", "least wins"),
    "parts": ("number of classes", "most wins"),
    "entropy": ("entropy in bits", "most wins"),
}


def feedback_keys(game: Game) -> list[int]:
    """Encoded answers a code of the game can get, in (black, white) order."""
    p = game.pegs
    if game.black_only:  # the answer is the black pegs alone
        return [game.encode(b, 0) for b in range(p + 1)]
    return [game.encode(b, w) for b in range(p + 1) for w in range(p + 1 - b) if (b, w) != (p - 1, 1)]


def _key(game: Game, fb: int) -> str:
    """An answer as the game writes it (a tree's key): "2,1", or "2" under the black-only rule."""
    return game.key_text(fb)


def _check_consistent(game: Game, answers, candidates, letters: str | None = None) -> None:
    if not len(candidates):
        conflict = minimal_conflict(game, answers)
        names = Names(letters, game.colors)
        shown = " ".join(answer_text(game, answers[i], names) for i in conflict)
        raise CertifyError(f"no secret of {game} gives all these answers; these contradict each "
                           f"other: {shown}")


def follow(cert: dict, game: Game, answers) -> tuple[str | None, int]:
    """(the certificate's next guess, rows followed): None and the first row that leaves the tree
    when the rows are not the certificate's game."""
    node = cert["tree"]
    for i, (guess, fb) in enumerate(answers):
        if node is None or node["guess"] != game.text(guess):
            return None, i
        node = node.get("next", {}).get(_key(game, fb))
    return (None if node is None else node["guess"]), len(answers)


def _strategy_guess(game: Game, strategy_id: str, answers, candidates) -> int:
    from .strategies import get_strategy

    cls = get_strategy(strategy_id)
    try:
        strategy = cls(game)
        return int(strategy.choose(candidates, tuple(answers)))
    except (CertifyError, SystemError):  # SystemError: e.g. a signal caught inside numba (see __main__)
        raise
    except Exception as e:  # a scripted strategy (viaud) that cannot resume from another game
        raise CertifyError(f"strategy {strategy_id!r} cannot continue from these rows "
                           f"({type(e).__name__})") from None


def _score(game: Game, strategy_id: str, counts: np.ndarray, n: int) -> dict | None:
    """The guess's score under its strategy's rule, as a readable number (None: no score)."""
    from .strategies import get_strategy

    kind = getattr(get_strategy(strategy_id), "kernel_kind", None)
    if kind not in _RULES:
        return None
    sizes = counts[counts > 0]
    if kind == "max":
        value = int(sizes.max())
    elif kind == "sumsq":
        value = round(float((sizes * sizes).sum() / n), 3)
    elif kind == "parts":
        value = int(len(sizes))
    else:
        p = sizes / n
        value = round(float(-(p * np.log2(p)).sum()), 3)
    name, order = _RULES[kind]
    return {"name": name, "value": value, "order": order}


def hint(game: Game, answers, strategy_id: str = "knuth", cert: dict | None = None,
         letters: str | None = None) -> dict:
    """The next guess after ``answers`` [(guess index, encoded feedback)], with the candidates and
    the guess's partition of them. JSON-ready; CertifyError when the answers contradict."""
    game.check_size()
    candidates = consistent(game, answers)
    _check_consistent(game, answers, candidates, letters)
    source, left_at = "strategy", None
    guess = None
    if cert is not None:
        text, followed = follow(cert, game, answers)
        if text is not None:
            guess, source = game.parse(text), "certificate"
        else:
            left_at = followed + 1
    if guess is None:
        guess = _strategy_guess(game, strategy_id, answers, candidates)
    counts = partition_counts(game, [guess], candidates)[0]
    n = len(candidates)
    from .strategies import STRATEGIES

    # A certificate's guess is scored by its strategy's rule when the name is one we know.
    scorer = strategy_id if source == "strategy" else cert["strategy"]["name"]
    scorer = scorer if isinstance(scorer, str) and scorer in STRATEGIES else None
    return {
        "hint_version": HINT_VERSION,
        "game": game.to_json(),
        **({"letters": letters[:game.colors]} if letters else {}),
        "answers": [answer_json(game, g, f) for g, f in answers],
        "candidates": n,
        "secrets": game.texts(candidates) if n <= LIST else None,
        "source": source,
        "strategy": strategy_id if source == "strategy" else cert["strategy"]["name"],
        "left_certificate_at_row": left_at,
        "guess": game.text(guess),
        "guess_is_candidate": bool(np.isin(guess, candidates)),
        "partition": {_key(game, fb): int(counts[fb]) for fb in np.flatnonzero(counts).tolist()},
        "score": _score(game, scorer, counts, n) if scorer else None,
    }


def hint_lines(doc: dict) -> list[str]:
    from .text import shown

    game = Game(**doc["game"])
    names = Names(doc.get("letters"), game.colors)
    n = doc["candidates"]
    rows = len(doc["answers"])
    lines = [f"{game}, after {rows} row{'s' if rows != 1 else ''}: "
             f"{n} candidate{'s' if n != 1 else ''} left"
             + (": " + " ".join(names.names(doc["secrets"])) if doc["secrets"] is not None else "")]
    who = (f"the certificate ({shown(doc['strategy'], 60)}) plays" if doc["source"] == "certificate"
           else f"{doc['strategy']} would play")
    if doc["left_certificate_at_row"]:
        lines.append(f"(the rows leave the certificate's game at row {doc['left_certificate_at_row']}: "
                     f"{doc['strategy']}'s choice instead)")
    mark = "a candidate" if doc["guess_is_candidate"] else "not a candidate: it cannot be the secret"
    lines.append(f"{who} {names.name(doc['guess'])} ({mark})")
    parts = doc["partition"]
    lines.append(f"it splits the {n} candidate{'s' if n != 1 else ''} into {len(parts)} "
                 f"class{'es' if len(parts) != 1 else ''} by answer:")
    lines.append("  " + "  ".join(f"{k}: {v}" for k, v in parts.items()))
    if doc["score"]:
        s = doc["score"]
        lines.append(f"score under {shown(doc['strategy'], 60)}'s rule: {s['name']} {s['value']} ({s['order']})")
    return lines


def classes(game: Game, candidates: np.ndarray) -> np.ndarray:
    """rep[x]: the lowest code alike to x, for every code x. Two codes are alike when a
    permutation of the pegs together with one of the colours maps one onto the other AND the
    candidates onto themselves: such a P keeps every answer (feedback(Pg, Ps) = feedback(g, s)),
    so it maps the split of the candidates by g onto the split by Pg, answer by answer, and g is
    a candidate exactly when Pg is: alike codes have identical rows in the weight table. Only the
    candidates matter, not the rows played: they alone decide the table (and the rest of the
    game). The permutations are the exact search's (certify.search.symmetry): generators of the
    candidates' stabilizer, each checked on the candidates; at the start of a game that is every
    permutation (4x6: Knuth's five openings 0000 0001 0011 0012 0123), later a symmetry it misses
    can only leave two alike classes apart, never put unlike codes together."""
    from .search.space import Space
    from .search.symmetry import Alike

    work = math.factorial(game.pegs) * (game.size + 2000)
    if work > SYMMETRY_WORK:
        raise CertifyError(f"--up-to-symmetry: {game} has {game.pegs}! peg orders x {game.size:,} codes, "
                           f"too many to map (limit {SYMMETRY_WORK:,} for pegs! x (codes + 2000); "
                           "5x9 and 6x5 fit): leave it out")
    # A Space without its (codes x codes) feedback matrix: the orbits need only the codes'
    # digits and the index maps of permutations (Space.image).
    space = Space.__new__(Space)
    space.game, space.n, space.pegs, space.colors = game, game.size, game.pegs, game.colors
    space.digits, space.values = game.digits, game._values
    alike = Alike(space)
    return alike.orbits(alike.generators(np.asarray(candidates, dtype=np.int64)))


def table(game: Game, answers, candidates_only: bool = False, sort: str = "code",
          top: int | None = None, up_to_symmetry: bool = False, letters: str | None = None) -> dict:
    """The weight table after ``answers``: one row per code (or candidate), the candidates' class
    sizes per answer, the weight (largest class), and marks for least weight and candidates.
    ``up_to_symmetry``: one row per class of alike codes (:func:`classes`), its lowest code
    standing for it, with how many codes it stands for."""
    game.check_size()
    candidates = consistent(game, answers)
    _check_consistent(game, answers, candidates, letters)
    codes = candidates if candidates_only else np.arange(game.size, dtype=np.int64)
    n_codes = len(codes)
    members = None
    if up_to_symmetry:
        rep = classes(game, candidates)
        # A candidate's class holds candidates only (its permutations fix the candidates).
        members = np.bincount(rep[codes], minlength=game.size)
        codes = codes[rep[codes] == codes]
        members = members[codes]
    if len(codes) * len(candidates) > TABLE_PAIRS:
        raise CertifyError(f"the table would score {len(codes):,} codes against {len(candidates):,} "
                           f"candidates, more than {TABLE_PAIRS:,} pairs: give more rows or "
                           "--candidates-only")
    counts = partition_counts(game, codes, candidates)
    weights = counts.max(axis=1)
    least = int(weights.min())
    is_candidate = np.isin(codes, candidates)
    columns = [fb for fb in feedback_keys(game) if counts[:, fb].any()]
    order = np.arange(len(codes))
    if sort == "weight":  # least weight first, then TIES: candidates before the others, then code order
        order = np.lexsort((codes, ~is_candidate, weights))
    elif sort != "code":
        raise CertifyError(f"unknown sort {sort!r} (weight or code)")
    if top is not None:
        order = order[:top]
    texts = game.texts(codes[order])
    rows = [{"code": text, "classes": {_key(game, fb): int(counts[i, fb]) for fb in columns},
             "weight": int(weights[i]), "least": bool(weights[i] == least),
             "candidate": bool(is_candidate[i])}
            for text, i in zip(texts, order.tolist())]
    if members is not None:
        for row, i in zip(rows, order.tolist()):
            row["codes"] = int(members[i])
    return {"table_version": TABLE_VERSION, "game": game.to_json(),
            **({"letters": letters[:game.colors]} if letters else {}),
            "answers": [answer_json(game, g, f) for g, f in answers],
            "candidates": len(candidates), "codes": n_codes, "least_weight": least,
            "sort": sort, "ties": TIES if sort == "weight" else None,
            "up_to_symmetry": up_to_symmetry, "classes": len(codes) if up_to_symmetry else None,
            "feedbacks": [_key(game, fb) for fb in columns], "rows": rows}


def table_lines(doc: dict) -> list[str]:
    game = Game(**doc["game"])
    rows = len(doc["answers"])
    shown_rows = len(doc["rows"])
    what = "candidate" if doc["codes"] == doc["candidates"] and doc["codes"] < game.size else "code"
    grouped = doc.get("up_to_symmetry")
    counted = (f"{shown_rows} of {doc['classes']} classes of {doc['codes']} {what}s shown" if grouped
               else f"{shown_rows} of {doc['codes']} {what}s shown")
    if doc.get("sort") == "weight":
        counted += f", least weight first (ties: {doc['ties']})"
    head = [f"weight table of {game} after {rows} row{'s' if rows != 1 else ''}: "
            f"{doc['candidates']} candidate{'s' if doc['candidates'] != 1 else ''}; {counted}",
            f"columns: how many candidates give each answer {'black' if game.black_only else 'black,white'}; "
            "weight = largest class; "
            f"* = least weight ({doc['least_weight']})"]
    if grouped:
        head.append("one row per class of codes alike up to symmetry (pegs and colours permuted, the "
                    f"candidates kept: same row), shown by its lowest code; codes = how many {what}s")
    names = ["code"] + (["codes"] if grouped else []) + doc["feedbacks"] + ["weight", "least", "candidate"]
    look = Names(doc.get("letters"), game.colors)
    if look:
        head.append(f"codes written in the letters {look.colours()}")
    body = [[look.name(r["code"])] + ([str(r["codes"])] if grouped else []) + [str(r["classes"][k]) for k in doc["feedbacks"]]
            + [str(r["weight"]), "*" if r["least"] else "", "yes" if r["candidate"] else "no"]
            for r in doc["rows"]]
    widths = [max(len(line[i]) for line in [names] + body) for i in range(len(names))]
    out = head + ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in
                            enumerate(zip(line, widths))).rstrip() for line in [names] + body]
    return out


def table_csv(doc: dict) -> str:
    import csv
    import io

    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    grouped = doc.get("up_to_symmetry")
    names = Names(doc.get("letters"), doc["game"]["colors"])
    writer.writerow(["code"] + (["codes"] if grouped else []) + doc["feedbacks"] + ["weight", "least", "candidate"])
    for r in doc["rows"]:
        writer.writerow([names.name(r["code"])] + ([r["codes"]] if grouped else []) + [r["classes"][k] for k in doc["feedbacks"]]
                        + [r["weight"], int(r["least"]), int(r["candidate"])])
    return buf.getvalue()
