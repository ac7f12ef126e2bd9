"""`certify compare`: certificates side by side, from what the verifier replayed.

Every number comes from the independent verifier's replay of the tree (``verify_file``),
never from the file's claims. Only the standard library and the verifier are used.
"""

from __future__ import annotations

import os

from . import verify

#: Share of the secrets for the "guesses needed" column, as a fraction (numerator, denominator).
SHARE = (9, 10)

#: Columns 1..K shown by the text table unless --max-columns says otherwise.
MAX_COLUMNS = 8
#: Orders of --sort: the key of a row (ties keep the files' order).
SORTS = {
    "file": None,
    "strategy": lambda r: (r["strategy"]["name"] if isinstance(r["strategy"]["name"], str) else "",),
    "mean": lambda r: (r["total_guesses"] * 1.0 / r["secrets"],),
    "max": lambda r: (r["max_guesses"], r["total_guesses"] / r["secrets"]),
    "total": lambda r: (r["total_guesses"],),
}

__all__ = ["SHARE", "MAX_COLUMNS", "SORTS", "check", "row", "sort", "table", "csv_text", "plot", "to_json"]


def check(paths, max_work: int | None = None) -> tuple[list, list]:
    """Verify every file; return (valid reports, invalid or unreadable reports), in order."""
    reports = [verify.verify_file(str(p), max_work=max_work) for p in paths]
    return [r for r in reports if r.valid], [r for r in reports if not r.valid]


def game_label(game: dict) -> str:
    """The game as the other commands write it (Game's text form): "4x6", "5x8 without repetition",
    "3x4 black-only"."""
    from .game import Game

    return str(Game(game["pegs"], game["colors"], game["repetition"], game.get("feedback", "black-white")))


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
        "histogram": dict(stats["histogram"]),
        "cumulative": cumulative,
        "guesses_for_90_percent": needed,
    }


def _labels(rows) -> list[str]:
    """Strategy names; the file name is added where a (strategy, game) pair occurs twice."""
    from .text import shown

    keys = [(shown(r["strategy"]["name"], 40), game_label(r["game"])) for r in rows]
    return [name + (f" ({shown(os.path.basename(r['file']))})" if keys.count((name, g)) > 1 else "")
            for r, (name, g) in zip(rows, keys)]


def sort(rows, by: str = "file") -> list:
    """Rows in the order ``by`` (a key of SORTS); stable, so ties keep the files' order."""
    from .errors import CertifyError

    if by not in SORTS:
        raise CertifyError(f"unknown sort {by!r} (known: {', '.join(SORTS)})")
    return list(rows) if SORTS[by] is None else sorted(rows, key=SORTS[by])


def table(rows, max_columns: int | None = MAX_COLUMNS) -> str:
    """Text table: one row per certificate; columns 1..K are secrets found within k guesses
    (at most ``max_columns`` of them; '...' ends a row that goes further)."""
    if not rows:
        return ""
    top = max(r["max_guesses"] for r in rows)
    shown_top = top if max_columns is None else min(top, max_columns)
    head = ["strategy", "game", "max", "mean", "total", "90%"] + [str(k) for k in range(1, shown_top + 1)]
    body = []
    for label, r in zip(_labels(rows), rows):
        cells = [label, game_label(r["game"]), str(r["max_guesses"]), f"{r['mean']:.3f}",
                 str(r["total_guesses"]), str(r["guesses_for_90_percent"])]
        # Past a row's own max every secret is found: leave those cells blank.
        cut = r["cumulative"][:shown_top]
        cells += [str(c) for c in cut] + [""] * (shown_top - len(cut))
        if shown_top < top:  # one more column: '...' where the row goes past the last shown
            cells.append("..." if r["max_guesses"] > shown_top else "")
        body.append(cells)
    if shown_top < top:
        head.append("")
    widths = [max(len(line[i]) for line in [head] + body) for i in range(len(head))]
    out = ["secrets found within k guesses (columns 1..%d%s); 90%% = guesses needed for 90%% of "
           "the secrets; all figures replayed by the verifier"
           % (shown_top, f" of {top}, --max-columns shows more" if shown_top < top else "")]
    for line in [head] + body:
        out.append("  ".join(c.ljust(w) if i < 2 else c.rjust(w)
                             for i, (c, w) in enumerate(zip(line, widths))).rstrip())
    return "\n".join(out)


def csv_text(rows) -> str:
    """CSV: one line per certificate, every column 1..K (secrets found within k guesses)."""
    import csv
    import io

    from .text import shown

    top = max((r["max_guesses"] for r in rows), default=0)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["file", "strategy", "game", "secrets", "max", "mean", "total", "guesses_for_90_percent"]
               + [f"within_{k}" for k in range(1, top + 1)])
    for r in rows:
        cum = r["cumulative"] + [r["secrets"]] * (top - len(r["cumulative"]))
        w.writerow([shown(r["file"]), shown(r["strategy"]["name"], 80), game_label(r["game"]), r["secrets"],
                    r["max_guesses"], f"{r['mean']:.6f}", r["total_guesses"], r["guesses_for_90_percent"]]
                   + cum)
    return buf.getvalue()


def plot(rows, out, inputs=()) -> None:
    """The cumulative curves (% of the secrets found within k guesses) of every row on one chart."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from .plot import plot_format, save
    from .render import PALETTE

    fmt = plot_format(out)
    top = max(r["max_guesses"] for r in rows)
    fig = Figure(figsize=(7.5, 4.5), dpi=120)
    ax = fig.subplots()
    styles = ["-", "--", "-.", ":"]
    for i, (label, r) in enumerate(zip(_labels(rows), rows)):
        ks = list(range(0, top + 1))
        cum = [0] + r["cumulative"] + [r["secrets"]] * (top - r["max_guesses"])
        ax.step(ks, [100 * c / r["secrets"] for c in cum], where="post", color=PALETTE[i % len(PALETTE)],
                linestyle=styles[(i // 8) % len(styles)], linewidth=1.8,
                label=f"{label} {game_label(r['game'])} (mean {r['mean']:.3f}, max {r['max_guesses']})")
    ax.axhline(90, color="#999999", linewidth=0.8, linestyle=":")
    ax.set_xlim(0, top)
    ax.set_ylim(0, 101)
    ax.set_xticks(range(0, top + 1, 1 if top <= 15 else 2))
    ax.set_xlabel("guesses")
    ax.set_ylabel("secrets found within k guesses (%)")
    ax.grid(color="#eeeeee")
    ax.spines[["top", "right"]].set_visible(False)
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title("cumulative distributions, replayed by the verifier", fontsize=11)
    fig.tight_layout()
    save(fig, out, fmt, inputs)


def to_json(rows, refused=()) -> dict:
    """The rows, and the reports of the files refused (invalid, or unusable: over a limit); a
    table is shown only when none is refused, so one of the two lists is empty."""
    return {"compare_version": 1, "rows": rows, "refused": [r.to_json() for r in refused]}
