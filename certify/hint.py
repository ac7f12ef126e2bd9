"""What to play next, and why: ``certify hint`` and the papers' weight tables.

After some rows (guess, answer), a strategy (or a certificate whose guesses the rows follow)
names the next guess; the hint shows the candidates left, how that guess splits them (how many
secrets give each answer) and its score under the strategy's rule. ``table`` is the weight table
the papers work through by hand: for every code (or every candidate), the class sizes per answer
and the weight, i.e. the largest class; the codes of least weight are marked.
"""

from __future__ import annotations

import numpy as np

from .consistent import answer_text, consistent, minimal_conflict
from .errors import CertifyError
from .game import Game
from .strategies.partition import partition_counts

__all__ = ["HINT_VERSION", "TABLE_VERSION", "TABLE_PAIRS", "feedback_keys", "follow", "hint",
           "table", "hint_lines", "table_lines", "table_csv"]

HINT_VERSION = 1
TABLE_VERSION = 1
#: Most (code, candidate) pairs a weight table scores (about 10 s): a bound on time, not memory.
TABLE_PAIRS = 200_000_000
#: Candidates listed by name in a hint when at most this many are left.
LIST = 20

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
    return [game.encode(b, w) for b in range(p + 1) for w in range(p + 1 - b) if (b, w) != (p - 1, 1)]


def _key(game: Game, fb: int) -> str:
    b, w = game.decode(fb)
    return f"{b},{w}"


def _check_consistent(game: Game, answers, candidates) -> None:
    if not len(candidates):
        conflict = minimal_conflict(game, answers)
        shown = " ".join(answer_text(game, answers[i]) for i in conflict)
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


def hint(game: Game, answers, strategy_id: str = "knuth", cert: dict | None = None) -> dict:
    """The next guess after ``answers`` [(guess index, encoded feedback)], with the candidates and
    the guess's partition of them. JSON-ready; CertifyError when the answers contradict."""
    game.check_size()
    candidates = consistent(game, answers)
    _check_consistent(game, answers, candidates)
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
        "answers": [{"guess": game.text(g), "black": game.decode(f)[0], "white": game.decode(f)[1]}
                    for g, f in answers],
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
    n = doc["candidates"]
    rows = len(doc["answers"])
    lines = [f"{game}, after {rows} row{'s' if rows != 1 else ''}: "
             f"{n} candidate{'s' if n != 1 else ''} left"
             + (": " + " ".join(doc["secrets"]) if doc["secrets"] is not None else "")]
    who = (f"the certificate ({shown(doc['strategy'], 60)}) plays" if doc["source"] == "certificate"
           else f"{doc['strategy']} would play")
    if doc["left_certificate_at_row"]:
        lines.append(f"(the rows leave the certificate's game at row {doc['left_certificate_at_row']}: "
                     f"{doc['strategy']}'s choice instead)")
    mark = "a candidate" if doc["guess_is_candidate"] else "not a candidate: it cannot be the secret"
    lines.append(f"{who} {doc['guess']} ({mark})")
    parts = doc["partition"]
    lines.append(f"it splits the {n} candidate{'s' if n != 1 else ''} into {len(parts)} "
                 f"class{'es' if len(parts) != 1 else ''} by answer:")
    lines.append("  " + "  ".join(f"{k}: {v}" for k, v in parts.items()))
    if doc["score"]:
        s = doc["score"]
        lines.append(f"score under {shown(doc['strategy'], 60)}'s rule: {s['name']} {s['value']} ({s['order']})")
    return lines


def table(game: Game, answers, candidates_only: bool = False, sort: str = "code",
          top: int | None = None) -> dict:
    """The weight table after ``answers``: one row per code (or candidate), the candidates' class
    sizes per answer, the weight (largest class), and marks for least weight and candidates."""
    game.check_size()
    candidates = consistent(game, answers)
    _check_consistent(game, answers, candidates)
    codes = candidates if candidates_only else np.arange(game.size, dtype=np.int64)
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
    if sort == "weight":  # least weight first, candidates before the others, then code order
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
    return {"table_version": TABLE_VERSION, "game": game.to_json(),
            "answers": [{"guess": game.text(g), "black": game.decode(f)[0], "white": game.decode(f)[1]}
                        for g, f in answers],
            "candidates": len(candidates), "codes": len(codes), "least_weight": least,
            "feedbacks": [_key(game, fb) for fb in columns], "rows": rows}


def table_lines(doc: dict) -> list[str]:
    game = Game(**doc["game"])
    rows = len(doc["answers"])
    shown_rows = len(doc["rows"])
    what = "candidate" if doc["codes"] == doc["candidates"] and doc["codes"] < game.size else "code"
    head = [f"weight table of {game} after {rows} row{'s' if rows != 1 else ''}: "
            f"{doc['candidates']} candidate{'s' if doc['candidates'] != 1 else ''}; "
            f"{shown_rows} of {doc['codes']} {what}s shown",
            "columns: how many candidates give each answer B,W; weight = largest class; "
            f"* = least weight ({doc['least_weight']})"]
    names = ["code"] + doc["feedbacks"] + ["weight", "least", "candidate"]
    body = [[r["code"]] + [str(r["classes"][k]) for k in doc["feedbacks"]]
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
    writer.writerow(["code"] + doc["feedbacks"] + ["weight", "least", "candidate"])
    for r in doc["rows"]:
        writer.writerow([r["code"]] + [r["classes"][k] for k in doc["feedbacks"]]
                        + [r["weight"], int(r["least"]), int(r["candidate"])])
    return buf.getvalue()
