"""The atlas: the exact values of every game the engine reaches, from checked files (``certify atlas``).

For each game of the grid (pegs 2..6 x colours 2..10, with and without repetition) five questions:

* ``worst``: the least worst case D (a lower-bound proof "every strategy needs >= D", a strategy
  within D);
* ``total``: the least total of guesses over all secrets (the mean is total / secrets);
* ``total within D``: the least total among strategies that never need more than D;
* ``count-first``: the fewest secrets that need D, then the least total;
* ``value``: the game value when the codemaker randomises too (docs/game-value.md).

Every figure comes from a file a trusted checker accepted: the strategies (verify.py), the
lower-bound proofs (verify_bound.py), the mixed strategies (verify_mixed.py), found through the
manifests of certificates/ (index.json, bounds/index.json, atlas/index.json, external/index.json)
and the value pairs of certificates/value/. A cell that is not settled shows the interval proven:
the best lower bound checked and the best strategy found; "?" on a side means no checked file.

``build_table`` reads every file once, checks it and keeps what the checker reported (with the
file's sha256); ``make atlas`` writes that table to certificates/atlas/table.json. ``certify atlas``
prints the table after confirming that every file it names still has the bytes that were checked
(``--check`` runs the checkers again instead). Files of certificates/external/index.json are not in
the repository: their figures are those recorded when ``catalog add-external`` checked them, and the
cell says so.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent / "certificates"
TABLE = ROOT / "atlas" / "table.json"
GRID = [(pegs, colors, repetition) for repetition in (True, False) for pegs in range(2, 7)
        for colors in range(2, 11) if repetition or colors >= pegs]
COLUMNS = ("worst", "total", "total_within_worst", "count_first", "value")
HEADINGS = {"worst": "worst case", "total": "least total", "total_within_worst": "least total within D",
            "count_first": "fewest at D, then total", "value": "game value"}
#: Manifests: (path under certificates/, key of the list, folder of the files).
MANIFESTS = [("index.json", "certificates", ""), ("bounds/index.json", "proofs", "bounds"),
             ("atlas/index.json", "files", "atlas"), ("external/index.json", "certificates", None),
             ("external/index.json", "proofs", None)]

__all__ = ["GRID", "COLUMNS", "build_table", "load_table", "text", "markdown"]


def slug(game: dict) -> str:
    return f"{game['pegs']}x{game['colors']}" + ("" if game["repetition"] else "-norep")


def codes(pegs: int, colors: int, repetition: bool) -> int:
    """The game's number of codes (the game module's count)."""
    from .game import _count_codes

    return _count_codes(pegs, colors, repetition)


def _listed(root: Path):
    """(path relative to certificates/, manifest entry, local) for every file the manifests list,
    and the value pairs of certificates/value/."""
    seen = set()
    for manifest, key, folder in MANIFESTS:
        path = root / manifest
        if not path.exists():
            continue
        for entry in orjson.loads(path.read_bytes()).get(key, []):
            name = entry["file"] if folder is None else (f"{folder}/{entry['file']}" if folder else entry["file"])
            if name in seen:
                continue
            seen.add(name)
            yield name, entry, folder is not None
    for path in sorted((root / "value").glob("value-*")):
        yield f"value/{path.name}", None, True


def _strategy_facts(g: str, top: int, total: int, histogram: dict, extra: dict) -> list:
    """What a strategy of maximum ``top`` and total ``total`` shows: upper bounds."""
    within = dict(extra, max_guesses=top)
    return [(g, "worst", "upper", top, extra), (g, "total", "upper", total, extra),
            (g, "within", "upper", total, within),
            (g, "count_first", "upper", (histogram.get(str(top), 0), total), within)]


def _proof_facts(g: str, c: dict, weight_sum, extra: dict) -> list:
    """What a lower-bound proof with claims ``c`` shows (``weight_sum``: with weights, the game
    value's lower side)."""
    if "worst_case" in c:
        return [(g, "worst", "lower", c["worst_case"], extra)]
    if weight_sum is not None:
        return [(g, "value", "lower", Fraction(c["total"], weight_sum), extra)]
    if c.get("first") == "at_max":
        return [(g, "count_first", "lower", (c["at_max"], c["total"]), dict(extra, max_guesses=c["max_guesses"]))]
    # the least total within D' is at least this for every D' <= the proof's maximum
    out = [(g, "within", "lower", c["total"], dict(extra, max_guesses=c.get("max_guesses")))]
    if "max_guesses" not in c:
        out.append((g, "total", "lower", c["total"], extra))
    return out


def _facts_of(kind: str, report, name: str, sha: str) -> list:
    """What one checked file proves: (game slug, column, side, figure, detail) tuples. Figures are
    compared in the column's order: an int, or a (count, total) pair for count-first."""
    from .optimality import LOWER_BOUND, MIXED, STRATEGY

    g, extra = slug(report.game), {"file": name, "sha256": sha}
    if kind == STRATEGY:
        r = report.replayed
        return _strategy_facts(g, r["max_guesses"], r["total_guesses"], r["histogram"], extra)
    if kind == LOWER_BOUND:
        return _proof_facts(g, report.claims, report.weight_sum, extra)
    if kind == MIXED:
        return [(g, "value", "upper", report.maximum, extra)]
    return []


def _external_facts(name: str, entry: dict) -> list:
    """Figures of a file listed in certificates/external/index.json (not in the repository), as
    recorded when it was checked."""
    g, c = slug(entry["game"]), entry["claims"]
    extra = {"file": name, "sha256": entry["sha256"], "external": True}
    if "max_guesses" in c and "total_guesses" in c:  # a strategy
        return _strategy_facts(g, c["max_guesses"], c["total_guesses"], c["histogram"], extra)
    return _proof_facts(g, c, None, extra)


def collect(root: Path = ROOT, progress=None) -> tuple[list, list]:
    """(facts, problems): every listed file read once and checked; a file that is missing, changed
    since its manifest was written, or refused by its checker is a problem, never a fact."""
    from .optimality import check_bytes
    from .verify_bound import CODES_CEILING

    facts, problems = [], []
    listed = list(_listed(root))
    for i, (name, entry, local) in enumerate(listed):
        if progress:
            progress(i, len(listed), name)
        if not local:
            facts += _external_facts(name, entry)
            continue
        path = root / name
        try:
            raw = path.read_bytes()
        except OSError as e:
            problems.append(f"{name}: cannot read ({e.strerror or e})")
            continue
        sha = hashlib.sha256(raw).hexdigest()
        if entry is not None and entry.get("sha256") not in (None, sha):
            problems.append(f"{name}: its bytes are not those its manifest lists")
            continue
        kind, report = check_bytes(raw, name, max_codes=CODES_CEILING)  # (the atlas's own games, up to 6x6)
        if not report.valid:
            problems.append(f"{name}: {report.error}")
            continue
        facts += _facts_of(kind, report, name, sha)
    return facts, problems


def _best(facts, side: str, key=lambda f: f[3]):
    if not facts:
        return None
    pick = max(facts, key=key) if side == "lower" else min(facts, key=key)
    return {"figure": pick[3], **pick[4]}


def cells(facts) -> dict:
    """{game slug: {column: {"lower": ..., "upper": ..., "settled": bool}}}."""
    by_game: dict = {}
    for f in facts:
        by_game.setdefault(f[0], []).append(f)
    out = {}
    for g, fs in by_game.items():
        row = {}
        for column in ("worst", "total", "value"):
            row[column] = _cell([f for f in fs if f[1] == column and f[2] == "lower"],
                                [f for f in fs if f[1] == column and f[2] == "upper"])
        worst = row["worst"]
        d = worst["upper"]["figure"] if worst["settled"] else None
        if d is None:  # the questions "within D" wait for D
            row["total_within_worst"] = row["count_first"] = {"lower": None, "upper": None, "settled": False,
                                                              "waits_for": "the least worst case"}
        else:
            # within D: a strategy within D gives an upper bound; a proof of the least total within
            # D' >= D (or with no maximum) a lower bound (fewer guesses allowed cost no less)
            row["total_within_worst"] = _cell(
                [f for f in fs if f[1] == "within" and f[2] == "lower"
                 and (f[4]["max_guesses"] is None or f[4]["max_guesses"] >= d)],
                [f for f in fs if f[1] == "within" and f[2] == "upper" and f[4]["max_guesses"] <= d])
            row["count_first"] = _cell(
                [f for f in fs if f[1] == "count_first" and f[2] == "lower" and f[4]["max_guesses"] == d],
                [f for f in fs if f[1] == "count_first" and f[2] == "upper" and f[4]["max_guesses"] <= d])
            for cell in (row["total_within_worst"], row["count_first"]):
                cell["max_guesses"] = d
        out[g] = row
    return out


def _cell(lower, upper) -> dict:
    lo, hi = _best(lower, "lower"), _best(upper, "upper")
    settled = lo is not None and hi is not None and lo["figure"] == hi["figure"]
    return {"lower": lo, "upper": hi, "settled": settled}


def _jsonable(x):
    if isinstance(x, Fraction):
        return str(x)
    if isinstance(x, tuple):
        return list(x)
    if isinstance(x, dict):
        return {k: _jsonable(v) for k, v in x.items()}
    return x


def build_table(root: Path = ROOT, progress=None) -> dict:
    """The atlas as a JSON-ready dict: every game of the grid (and any other game with files),
    its number of codes and its cells; the problems found (files missing, changed or refused)."""
    facts, problems = collect(root, progress)
    found = cells(facts)
    games = [f"{p}x{c}" + ("" if r else "-norep") for p, c, r in GRID]
    games += sorted(set(found) - set(games))
    rows = []
    for g in games:
        pegs, rest = g.split("x")
        colors, repetition = int(rest.split("-")[0]), not rest.endswith("-norep")
        empty = {"lower": None, "upper": None, "settled": False}
        row = found.get(g, {c: dict(empty) for c in COLUMNS})
        rows.append({"game": {"pegs": int(pegs), "colors": colors, "repetition": repetition},
                     "codes": codes(int(pegs), colors, repetition), **_jsonable(row)})
    return {"format": "certify-atlas", "version": 1, "games": rows, "problems": problems}


def load_table(path: Path = TABLE, root: Path = ROOT) -> dict:
    """The table ``make atlas`` wrote, after confirming every local file it names still has the
    bytes that were checked; a file that changed or went missing is listed under "problems"."""
    table = orjson.loads(path.read_bytes())
    shas: dict = {}
    for row in table["games"]:
        for column in COLUMNS:
            for side in ("lower", "upper"):
                found = row[column].get(side)
                if found and not found.get("external"):
                    shas[found["file"]] = found["sha256"]
    for name, sha in sorted(shas.items()):
        try:
            ok = hashlib.sha256((root / name).read_bytes()).hexdigest() == sha
        except OSError:
            ok = False
        if not ok:
            table["problems"].append(f"{name}: missing, or not the bytes that were checked (make atlas)")
    return table


def figure_text(column: str, cell: dict) -> str:
    """A cell in words: the value when settled, else the interval proven ("?" for a missing side)."""
    if cell.get("waits_for"):
        return "needs D"

    def one(side):
        found = cell.get(side)
        if found is None:
            return "?"
        f = found["figure"]
        if column == "count_first":
            return f"{f[0]}, {f[1]}"
        return str(f)

    lo, hi = one("lower"), one("upper")
    if cell["settled"]:
        return hi
    if column == "count_first":
        return f"({lo}) .. ({hi})"
    return f"{lo} .. {hi}"


def _label(game: dict) -> str:
    return f"{game['pegs']}x{game['colors']}" + ("" if game["repetition"] else " norep")


def text(table: dict) -> str:
    """The atlas as an aligned text table."""
    head = ["game", "codes"] + [HEADINGS[c] for c in COLUMNS]
    lines = [head]
    for row in table["games"]:
        within = row["total_within_worst"]
        d = within.get("max_guesses")
        cells_ = [figure_text(c, row[c]) for c in COLUMNS]
        if d is not None:
            cells_[2] = f"{cells_[2]} (D={d})"
        lines.append([_label(row["game"]), f"{row['codes']:,}"] + cells_)
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    out = ["  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip() for line in lines]
    settled = sum(row[c]["settled"] for row in table["games"] for c in COLUMNS)
    total = len(table["games"]) * len(COLUMNS)
    out.append(f"{settled} of {total} cells settled; 'a .. b': proven at least a, a strategy reaches b; "
               "'?': no checked file on that side; 'needs D': waits for the least worst case")
    out += [f"problem: {p}" for p in table["problems"]]
    return "\n".join(out) + "\n"


def markdown(table: dict) -> str:
    """The atlas as a Markdown table whose cells link their files."""
    head = ["game", "codes"] + [HEADINGS[c] for c in COLUMNS]
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in table["games"]:
        cells_ = []
        for c in COLUMNS:
            cell = row[c]
            shown = figure_text(c, cell)
            if c == "total_within_worst" and cell.get("max_guesses") is not None:
                shown += f" (D={cell['max_guesses']})"
            links = []
            for side, word in (("lower", "proof"), ("upper", "strategy")):
                found = cell.get(side)
                if found is not None:
                    where = ("external/index.json" if found.get("external") else found["file"])
                    links.append(f"[{word}](../certificates/{where})")
            cells_.append(shown + (" " + " ".join(links) if links else ""))
        out.append("| " + " | ".join([_label(row["game"]), f"{row['codes']:,}"] + cells_) + " |")
    return "\n".join(out) + "\n"


DOC = Path(__file__).resolve().parent.parent / "docs" / "atlas.md"
_DOC_START, _DOC_END = "<!-- atlas table: written by make atlas -->", "<!-- end of the atlas table -->"


def write(root: Path = ROOT, table_path: Path = TABLE, doc: Path = DOC, say=None) -> dict:
    """Check every file, then write the table (JSON) and the Markdown table into docs/atlas.md
    (between its two markers); returns the table."""
    from .files import write_output

    table = build_table(root, progress=say)
    write_output(table_path, orjson.dumps(table, option=orjson.OPT_INDENT_2) + b"\n")
    if doc.exists():
        page = doc.read_text(encoding="utf-8")
        start, end = page.find(_DOC_START), page.find(_DOC_END)
        if 0 <= start < end:
            page = page[:start + len(_DOC_START)] + "\n" + markdown(table) + page[end:]
            write_output(doc, page.encode())
    return table


def main(argv=None) -> int:
    import sys

    argv = sys.argv[1:] if argv is None else argv
    if argv != ["write"]:
        print("usage: python -m certify.atlas write", file=sys.stderr)
        return 2

    def say(i, n, name):
        print(f"  checking {i + 1}/{n}: {name}", file=sys.stderr, flush=True)

    table = write(say=say)
    for problem in table["problems"]:
        print(f"problem: {problem}", file=sys.stderr)
    return 1 if table["problems"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
