"""`certify compare`: certificates side by side, from what the verifier replayed.

Every number comes from the independent verifier's replay of the tree (``verify_file``),
never from the file's claims. Only the standard library and the verifier are used.
"""

from __future__ import annotations

import os

from . import verify

#: Share of the secrets for the "guesses needed" column, as a fraction (numerator, denominator).
SHARE = (9, 10)

__all__ = ["SHARE", "check", "row", "table", "to_json"]


def check(paths) -> tuple[list, list]:
    """Verify every file; return (valid reports, invalid or unreadable reports), in order."""
    reports = [verify.verify_file(str(p)) for p in paths]
    return [r for r in reports if r.valid], [r for r in reports if not r.valid]


def game_label(game: dict) -> str:
    return f"{game['pegs']}x{game['colors']}" + ("" if game["repetition"] else "-norep")


def row(report) -> dict:
    """The comparison figures of one valid report."""
    stats = report.replayed
    n, top = stats["secrets"], stats["max_guesses"]
    cumulative, running = [], 0
    for k in range(1, top + 1):
        running += stats["histogram"].get(str(k), 0)
        cumulative.append(running)
    num, den = SHARE
    # Exact integer test: found * den >= secrets * num.
    needed = next(k for k, found in enumerate(cumulative, 1) if found * den >= n * num)
    return {
        "file": report.file,
        "strategy": report.strategy,
        "game": report.game,
        "secrets": n,
        "max_guesses": top,
        "total_guesses": stats["total_guesses"],
        "mean": stats["total_guesses"] / n,
        "cumulative": cumulative,
        "guesses_for_90_percent": needed,
    }


def _labels(rows) -> list[str]:
    """Strategy names; the file name is added where a (strategy, game) pair occurs twice."""
    from .text import shown

    keys = [(shown(r["strategy"]["name"], 40), game_label(r["game"])) for r in rows]
    return [name + (f" ({shown(os.path.basename(r['file']))})" if keys.count((name, g)) > 1 else "")
            for r, (name, g) in zip(rows, keys)]


def table(rows) -> str:
    """Text table: one row per certificate; columns 1..K are secrets found within k guesses."""
    if not rows:
        return ""
    top = max(r["max_guesses"] for r in rows)
    head = ["strategy", "game", "max", "mean", "total", "90%"] + [str(k) for k in range(1, top + 1)]
    body = []
    for label, r in zip(_labels(rows), rows):
        cells = [label, game_label(r["game"]), str(r["max_guesses"]), f"{r['mean']:.3f}",
                 str(r["total_guesses"]), str(r["guesses_for_90_percent"])]
        # Past a row's own max every secret is found: leave those cells blank.
        cells += [str(c) for c in r["cumulative"]] + [""] * (top - r["max_guesses"])
        body.append(cells)
    widths = [max(len(line[i]) for line in [head] + body) for i in range(len(head))]
    out = ["secrets found within k guesses (columns 1..%d); 90%% = guesses needed for 90%% of "
           "the secrets; all figures replayed by the verifier" % top]
    for line in [head] + body:
        out.append("  ".join(c.ljust(w) if i < 2 else c.rjust(w)
                             for i, (c, w) in enumerate(zip(line, widths))).rstrip())
    return "\n".join(out)


def to_json(rows) -> dict:
    return {"compare_version": 1, "rows": rows}
