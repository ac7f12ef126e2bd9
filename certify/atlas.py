"""The atlas: the exact values of every game the engine reaches, from checked files (``certify atlas``).

For each game of the grid (pegs 2..6 x colours 2..10, with and without repetition, and the games of
more pegs up to 10,000 codes: BEYOND; a game of another feedback rule is a row of its own, "black"
in its name) five questions:

* ``worst``: the least worst case D (a lower-bound proof "every strategy needs >= D", a strategy
  within D);
* ``total``: the least total of guesses over all secrets (the mean is total / secrets);
* ``total within D``: the least total among strategies that never need more than D;
* ``count-first``: the fewest secrets that need D, then the least total;
* ``value``: the game value when the codemaker randomises too (docs/game-value.md).

Every figure comes from a file a trusted checker accepted, by the checker's reading of it (its
game, rule, claim and side): the strategies (verify.py), the lower-bound proofs (verify_bound.py),
the mixed strategies (verify_mixed.py), found through the manifests of certificates/ (index.json,
bounds/index.json, atlas/index.json, external/index.json), the value pairs of
certificates/value/ and the black-peg proofs and strategies of certificates/black-peg/. Every file is read through the checkers' bounded reader: a regular file
inside the repository (or the external store), never a device, a FIFO or a symlink leading out.

``build_table`` reads every file once, checks it and records, per file, its sha256 and what the
checker derived from it (its facts); the cells are computed from those facts. ``make atlas`` writes
that table to certificates/atlas/table.json. The table is a cache, never a result: ``certify atlas``
re-reads every file it names, compares its sha256 and its own header's claims with the recorded
facts, recomputes the cells from the facts and compares them with the table's; any difference is a
problem (exit 1) and the figures shown are the recomputed ones. ``--check`` runs the checkers
again instead (within the limits the user gives: ``--max-codes``, ``--max-work``; a manifest never
raises one). Files of certificates/external/index.json are not in the repository: one found in the
external store ($CERTIFY_EXTERNAL, default ../certify-external beside the repository) is read as
the others are; one that is not there is listed as external and unchecked, and never settles a cell.
"""

from __future__ import annotations

import hashlib
import os
import stat
from fractions import Fraction
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent / "certificates"
TABLE = ROOT / "atlas" / "table.json"
#: Where the files too big to commit are kept (certificates/external/index.json lists them).
EXTERNAL_STORE = Path(os.environ.get("CERTIFY_EXTERNAL", ROOT.parent.parent / "certify-external"))
GRID = [(pegs, colors, repetition) for repetition in (True, False) for pegs in range(2, 7)
        for colors in range(2, 11) if repetition or colors >= pegs]
#: Past the grid's pegs, every game of at most 10,000 codes (7..13 pegs of 2 colours, 7 and 8 pegs of
#: 3, 7 pegs of 7 colours without repetition; 7x4 has 16,384). Games of more than 10 colours (2 and 3
#: pegs up to 100 and 21 colours) are left out: the grid stops at 10 colours, and their worst cases
#: are published closed forms (Chen and Lin; Jäger and Peczarski).
BEYOND = [(pegs, 2, True) for pegs in range(7, 14)] + [(7, 3, True), (8, 3, True), (7, 7, False)]
GRID += BEYOND
COLUMNS = ("worst", "total", "total_within_worst", "count_first", "value")
HEADINGS = {"worst": "worst case", "total": "least total", "total_within_worst": "least total within D",
            "count_first": "fewest at D, then total", "value": "game value"}
#: Manifests: (path under certificates/, key of the list, folder of the files; None: external).
MANIFESTS = [("index.json", "certificates", ""), ("bounds/index.json", "proofs", "bounds"),
             ("atlas/index.json", "files", "atlas"), ("external/index.json", "certificates", None),
             ("external/index.json", "proofs", None)]
#: A manifest or the table is small JSON: at most this many bytes.
MAX_MANIFEST_BYTES = 16 << 20
#: The most bytes of a certificate read (the largest any checker takes, verify.MAX_BYTES).
MAX_FILE_BYTES = 256 << 20
TABLE_VERSION = 2

__all__ = ["GRID", "COLUMNS", "build_table", "load_table", "text", "markdown", "detail"]


class Unread(ValueError):
    """A file the atlas will not read (missing, not a regular file, outside the repository...)."""


def slug(game: dict) -> str:
    """The game's key: pegs, colours, repetition and rule ("2x4-norep", "3x6-black")."""
    return (f"{game['pegs']}x{game['colors']}" + ("" if game.get("repetition", True) else "-norep")
            + ("-black" if game.get("feedback", "black-white") == "black-only" else ""))


def parse_slug(g: str) -> dict:
    """The game of a key (slug's inverse); ValueError when it is not one."""
    import re

    m = re.fullmatch(r"(\d+)x(\d+)(-norep)?(-black)?", g)
    if m is None:
        raise ValueError(f"not a game: {g!r} (PxC, PxC-norep, PxC-black, PxC-norep-black)")
    game = {"pegs": int(m.group(1)), "colors": int(m.group(2)), "repetition": m.group(3) is None}
    if m.group(4):
        game["feedback"] = "black-only"
    return game


def codes(pegs: int, colors: int, repetition: bool) -> int:
    """The game's number of codes (the game module's count)."""
    from .game import _count_codes

    return _count_codes(pegs, colors, repetition)


# -- reading: every byte through the checkers' bounded reader ----------------------------------------

def read_file(path: Path, bases, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of ``path``, read once through the checkers' bounded reader, when it is a regular
    file whose real place (symlinks resolved) is inside one of ``bases``; else Unread (one line)."""
    from . import reader

    try:
        real = Path(os.path.realpath(path))
        info = os.stat(real)
    except (OSError, ValueError) as e:
        raise Unread(f"cannot read ({reader.one_line(getattr(e, 'strerror', None) or e)})") from None
    if not any(real == Path(b).resolve() or Path(b).resolve() in real.parents for b in bases):
        raise Unread("refused: it leads out of the repository")
    if not stat.S_ISREG(info.st_mode):
        raise Unread("refused: not a regular file (a device, a FIFO or a folder)")
    try:
        return reader.read_input(real, max_bytes)
    except (reader.Unreadable, reader.Invalid) as e:
        raise Unread(f"cannot read ({e})") from None


def _bases(root: Path) -> list:
    return [root.resolve().parent]


def _manifest(root: Path, rel: str, key: str, problems: list) -> list:
    """The entries of one manifest (dicts naming a "file"), or [] after listing why in ``problems``."""
    path = root / rel
    if not os.path.lexists(path):
        return []
    try:
        doc = orjson.loads(read_file(path, _bases(root), MAX_MANIFEST_BYTES))
    except (Unread, orjson.JSONDecodeError) as e:
        problems.append(f"{rel}: {e}")
        return []
    entries = doc.get(key, []) if isinstance(doc, dict) else None
    if not isinstance(entries, list) or not all(isinstance(e, dict) and isinstance(e.get("file"), str)
                                                 for e in entries):
        problems.append(f"{rel}: {key!r} is not a list of entries naming their file")
        return []
    return entries


def _safe_name(name: str) -> bool:
    return bool(name) and not name.startswith(("/", "\\")) and ".." not in Path(name).parts and "\0" not in name


def _listed(root: Path, problems: list):
    """(name, manifest entry or None, external) for every file the manifests list, and the value
    pairs of certificates/value/; names relative to certificates/ (external: to the store)."""
    seen = set()
    for manifest, key, folder in MANIFESTS:
        for entry in _manifest(root, manifest, key, problems):
            name = entry["file"] if folder is None else (f"{folder}/{entry['file']}" if folder else entry["file"])
            if not _safe_name(entry["file"]):
                problems.append(f"{manifest}: {entry['file']!r} is not a file name under its folder")
                continue
            if name in seen:
                continue
            seen.add(name)
            if "parts" in entry:  # a split proof: its part files, under the same folder
                entry = dict(entry, parts=_parts(manifest, entry, folder, problems))
                if entry["parts"] is None:
                    continue
            yield name, entry, folder is None
    folder = root / "value"
    names = sorted(e.name for e in os.scandir(folder)) if folder.is_dir() else []
    for name in names:
        if name.startswith("value-"):
            yield f"value/{name}", None, False
    # the black-peg games' proofs and strategies (docs/black-peg.md): rows of their own ("2x4 black")
    folder = root / "black-peg"
    names = sorted(e.name for e in os.scandir(folder)) if folder.is_dir() else []
    for name in names:
        if name.startswith(("worst-case-", "total-", "optimal-")) and name.endswith((".json", ".json.gz")):
            yield f"black-peg/{name}", None, False


def _parts(manifest: str, entry: dict, folder, problems: list):
    """The part files of a split proof's entry as [(name, sha256)] (names as the main file's), or
    None after listing why in ``problems``: each part names its file and its sha256."""
    parts = entry["parts"]
    if not isinstance(parts, list) or not parts or not all(
            isinstance(p, dict) and isinstance(p.get("file"), str) and _safe_name(p["file"])
            and isinstance(p.get("sha256"), str) for p in parts):
        problems.append(f"{manifest}: {entry['file']!r}: 'parts' is not a list of part files with their sha256")
        return None
    return [(p["file"] if folder is None else (f"{folder}/{p['file']}" if folder else p["file"]), p["sha256"])
            for p in parts]


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
    """What one checked file proves, by its checker's reading (game and rule included): (game slug,
    column, side, figure, detail) tuples. Figures are compared in the column's order: an int, or a
    (count, total) pair for count-first."""
    from .kinds import LOWER_BOUND, MIXED, STRATEGY

    g, extra = slug(report.game), {"file": name, "sha256": sha}
    if kind == STRATEGY:
        r = report.replayed
        return _strategy_facts(g, r["max_guesses"], r["total_guesses"], r["histogram"], extra)
    if kind == LOWER_BOUND:
        return _proof_facts(g, report.claims, report.weight_sum, extra)
    if kind == MIXED:  # the value it proves: its claim, which the checker found no secret above
        return [(g, "value", "upper", Fraction(report.claims["value"]), extra)]
    return []


def _header_facts(raw: bytes, name: str, sha: str):
    """The facts a file's own header states (its game, rule and claims), read without replaying
    it: the cheap path's comparison with what the checker derived when the table was written. A
    weighted proof's figure is its total over the sum of its weights on every code (summed by the
    lower-bound checker's own weights_of); a mixed strategy's, its claimed value. None for a kind
    the table has no figure for."""
    from . import reader
    from .kinds import FORMATS, LOWER_BOUND, MIXED, STRATEGY

    try:
        doc = _top_members(reader.text(raw, MAX_FILE_BYTES), ("format", "game", "claims", "weights"))
        kind = FORMATS.get(doc.get("format"))
        g, c, extra = slug(doc["game"]), doc["claims"], {"file": name, "sha256": sha}
        if kind == STRATEGY:
            return _strategy_facts(g, c["max_guesses"], c["total_guesses"], c["histogram"], extra)
        if kind == MIXED:
            return [(g, "value", "upper", Fraction(c["value"]), extra)]
        if kind == LOWER_BOUND and "weights" not in doc:
            return _proof_facts(g, c, _weight_sum(doc["game"], c) if "weights" in c else None, extra)
    except (ValueError, ArithmeticError, LookupError, TypeError, AttributeError):
        return []  # (reader.Invalid, JSON errors and the checker's Invalid are ValueErrors)
    return None


def _weight_sum(game: dict, claims: dict) -> int:
    """The sum of a weighted proof's weights over every code of its game, as the lower-bound
    checker sums them (its own weights_of on its own codes); the game's codes counted first, at
    most the checkers' ceiling (a forged header never makes the cheap path enumerate more)."""
    import math
    from types import SimpleNamespace

    from . import verify, verify_bound

    pegs, colors, repetition = game["pegs"], game["colors"], game["repetition"]
    if (type(pegs) is not int or type(colors) is not int or type(repetition) is not bool
            or not (0 < pegs and 0 < colors <= len(verify.ALPHABET))):
        raise ValueError("not a game the checkers take")
    if (colors ** pegs if repetition else math.perm(colors, pegs)) > verify_bound.CODES_CEILING:
        raise ValueError("more codes than any checker takes")
    codes = verify.codes(pegs, colors, repetition)
    return int(verify_bound.weights_of(claims, SimpleNamespace(codes=codes, by_text=set(codes), n=len(codes))).sum())


def _top_members(text: bytes, wanted: tuple) -> dict:
    """The members ``wanted`` of a JSON text's top-level object, the others skipped unparsed.

    Parsing a whole proof builds millions of Python objects (~20 MB/s: 16 s CPU for the committed
    files) while the header is a few hundred bytes; this finds the top-level members' spans with
    numpy (quotes, then bracket depth outside strings) and parses only the wanted ones. A text with
    an escaped quote, or any the scan cannot split, is parsed whole. Duplicate keys: the last wins,
    as in a whole parse."""
    import numpy as np

    if b'\\"' in text or not text.lstrip().startswith(b"{"):
        doc = orjson.loads(text)
        return doc if isinstance(doc, dict) else {}
    first, commas, end = text.index(b"{"), [], None
    quoted, level, piece = 0, 0, 1 << 18  # a piece at a time: the arrays stay in the cache
    for lo in range(0, len(text), piece):
        b = np.frombuffer(text, dtype=np.uint8, count=min(piece, len(text) - lo), offset=lo)
        outside = ((np.cumsum(b == 34, dtype=np.uint8) + quoted) & 1) == 0  # '"': parity mod 256
        step = (b == 123).view(np.int8) + (b == 91).view(np.int8) - (b == 125).view(np.int8) - (b == 93).view(np.int8)
        step[~outside] = 0
        depth = np.cumsum(step, dtype=np.int32) + level
        commas += (np.flatnonzero(outside & (depth == 1) & (b == 44)) + lo).tolist()
        if end is None:
            closed = np.flatnonzero(depth[max(first - lo, 0):] == 0)
            end = max(first, lo) + int(closed[0]) if len(closed) else None
        quoted, level = (quoted + int(np.count_nonzero(b == 34))) & 1, int(depth[-1])
    if end is None or text[end] != ord("}") or text[end + 1:].strip() or text[:first].strip():
        return orjson.loads(text)
    cuts = [first] + [i for i in commas if i < end] + [end]
    out = {}
    for lo, hi in zip(cuts, cuts[1:]):
        member = text[lo + 1:hi]
        opening = member.find(b'"')
        closing = member.find(b'"', opening + 1)
        colon = member.find(b":", closing)
        if opening < 0 or closing < 0 or colon < 0:
            return orjson.loads(text)  # not an object's members (an empty object, or not JSON)
        key = orjson.loads(member[:closing + 1])
        if key in wanted:
            out[key] = orjson.loads(member[colon + 1:])
    return out


def _fact_json(f) -> list:
    return [f[0], f[1], f[2], _jsonable(f[3]), f[4]]


def _fact_back(f) -> tuple:
    g, column, side, figure, extra = f
    if column == "value":
        figure = Fraction(figure)
    elif column == "count_first":
        figure = tuple(figure)
    return (g, column, side, figure, extra)


def _limits_kwargs(max_codes, max_work, max_nodes=None) -> dict:
    """The limits the user chose, as the checkers take them."""
    out = {"max_codes": max_codes}
    if max_work is not None:
        out["max_work"] = max_work
    if max_nodes is not None:
        out["max_nodes"] = max_nodes
    return out


def _check_one(job, jobs: int = 1):
    """Read and check one file (in a worker with --jobs): a record of what its checker derived. A
    split proof (job with parts) is checked with its part files by the lower-bound checker's
    combine rule: every part read, its sha256 the listed one, every file checked, and the main
    file's claim accepted only when its lemmas are met by accepted parts."""
    name, path, bases, expected, external, limits, parts = job
    try:
        raw = read_file(path, bases)
    except Unread as e:
        return {"file": name, "status": 2 if external else 1, "error": str(e)}
    sha = hashlib.sha256(raw).hexdigest()
    if expected not in (None, sha):
        return {"file": name, "status": 1, "sha256": sha, "error": "its bytes are not those its manifest lists"}
    if parts:
        return _check_split(name, raw, sha, bases, external, limits, parts, jobs)
    from .kinds import check_bytes

    kind, report = check_bytes(raw, name, **limits)
    return _verdict(name, sha, kind, report, external)


def _verdict(name: str, sha: str, kind: str, report, external: bool = False) -> dict:
    """The record of one file from its checker's report on the bytes of sha256 ``sha``."""
    if not report.valid:
        return {"file": name, "status": report.status, "sha256": sha, "error": report.error}
    extra = {"external": True} if external else {}
    facts = [(g, c, s, fig, dict(x, **extra)) for g, c, s, fig, x in _facts_of(kind, report, name, sha)]
    return {"file": name, "status": 0, "sha256": sha, "kind": kind, "external": external,
            "facts": [_fact_json(f) for f in facts]}


def _check_split(name: str, raw: bytes, sha: str, bases, external: bool, limits: dict, parts, jobs: int = 1) -> dict:
    """_check_one of a split proof: the main file's bytes ``raw`` with its ``parts`` [(path, name,
    expected sha256)], each part read once and its sha256 compared, then :func:`split_verdict`."""
    from .kinds import LOWER_BOUND

    shas, read = {}, {}
    for path, part, expected in parts:
        try:
            read[part] = read_file(path, bases)  # gzipped: the parts' bytes together are small
        except Unread as e:
            return {"file": name, "status": 2 if external else 1, "sha256": sha, "error": f"part {part}: {e}"}
        shas[part] = hashlib.sha256(read[part]).hexdigest()
        if shas[part] != expected:
            return {"file": name, "status": 1, "sha256": sha,
                    "error": f"part {part}: its bytes are not those its manifest lists"}
    report = split_verdict(raw, name, read, jobs, **limits)
    if not report.valid:
        return {"file": name, "status": report.status, "sha256": sha, "error": report.error}
    extra = {"external": True} if external else {}
    facts = [(g, c, s, fig, dict(x, **extra)) for g, c, s, fig, x in _facts_of(LOWER_BOUND, report, name, sha)]
    return {"file": name, "status": 0, "sha256": sha, "kind": LOWER_BOUND, "external": external,
            "facts": [_fact_json(f) for f in facts], "parts": shas}


def split_verdict(raw_main: bytes, main_name: str, parts: dict, jobs: int = 1, **limits):
    """The lower-bound checker's verdict on a split proof given as bytes (its main file, and
    {part name: bytes}), within the checker's keyword ``limits``: every file checked (in ``jobs``
    processes), the main claim accepted by the combine rule. The atlas's check of a listed split
    proof, and ``python -m certify.search.atlas adopt --parts`` (the search never imports a
    checker itself)."""
    from . import verify_bound
    from .optimality import part_verdicts

    limits = dict(limits, max_codes=limits.get("max_codes") or verify_bound.MAX_CODES)
    main = verify_bound.verdict_bytes(raw_main, main_name, **limits)
    return verify_bound.combine(main, part_verdicts(list(parts.items()), limits, jobs))


def _cores() -> int:
    """The cores this process may run on (for the search's adopt, which imports no checker)."""
    from . import verify_bound

    return verify_bound.cores()


def part_files(folder) -> list:
    """The part files of a split proof's folder, as the lower-bound checker lists them."""
    from . import verify_bound

    return verify_bound.part_files(folder)


def _record(got: dict) -> dict:
    """What the table keeps of a checked file (a split proof: its parts' sha256 too)."""
    return {k: got[k] for k in ("sha256", "kind", "external", "facts", "parts") if k in got}


def _external_facts(name: str, entry: dict) -> list:
    """The figures an external entry records (never checked here: shown as unchecked)."""
    try:
        g, c = slug(entry["game"]), entry["claims"]
        extra = {"file": name, "sha256": entry.get("sha256"), "external": True}
        if "max_guesses" in c and "total_guesses" in c:  # a strategy
            return _strategy_facts(g, c["max_guesses"], c["total_guesses"], c.get("histogram", {}), extra)
        return _proof_facts(g, c, None, extra)
    except (KeyError, TypeError, AttributeError):
        return []


def _jobs(root: Path, problems: list, limits: dict, store: Path):
    """(job, entry) for every listed file; the external ones missing from the store are None."""
    for name, entry, external in _listed(root, problems):
        expected = entry.get("sha256") if entry is not None else None
        base = store if external else root
        parts = [(base / part, part, want) for part, want in (entry or {}).get("parts") or ()]
        if external:
            path = store / name
            if not os.path.lexists(path):
                yield None, (name, entry)
                continue
            yield (name, path, [store], expected, True, limits, parts), (name, entry)
        else:
            yield (name, root / name, _bases(root), expected, False, limits, parts), (name, entry)


def collect(root: Path = ROOT, progress=None, max_codes=None, max_work=None, jobs: int = 1,
            store: Path | None = None, max_nodes=None) -> dict:
    """Every listed file read once and checked, within the user's limits: {"files": {name:
    record}, "problems": [...], "unusable": [...], "unchecked": [...]}. A file that is missing,
    changed since its manifest was written, or refused by its checker is a problem, never a fact;
    one refused by a limit is unusable (not checked); an external entry with no file is unchecked."""
    store = EXTERNAL_STORE if store is None else store
    problems, unusable, unchecked, files = [], [], [], {}
    limits = _limits_kwargs(max_codes, max_work, max_nodes)
    work = list(_jobs(root, problems, limits, store))
    todo = [job for job, _ in work if job is not None]
    for job, (name, entry) in work:
        if job is None:
            unchecked += [_fact_json(f) for f in _external_facts(name, entry)]
    if jobs > 1 and len(todo) > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
            results = []
            for i, got in enumerate(pool.map(_check_one, todo)):
                if progress:
                    progress(i, len(todo), got["file"])
                results.append(got)
    else:
        results = []
        for i, job in enumerate(todo):
            if progress:
                progress(i, len(todo), job[0])
            results.append(_check_one(job))
    for got in results:
        if got["status"] == 0:
            files[got["file"]] = _record(got)
        elif got["status"] == 2:
            unusable.append(f"{got['file']}: not checked: {got['error']}")
        else:
            problems.append(f"{got['file']}: {got['error']}")
    return {"files": files, "problems": problems, "unusable": unusable, "unchecked": unchecked}


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


def _rows(files: dict) -> list:
    """The table's rows from the files' facts: every game of the grid, then any other game (or
    rule) with files; each cell marked (marks())."""
    facts = [_fact_back(f) for name in sorted(files) for f in files[name]["facts"]]
    found = cells(facts)
    games = [f"{p}x{c}" + ("" if r else "-norep") for p, c, r in GRID]
    games += sorted(set(found) - set(games), key=_row_order)
    rows = []
    for g in games:
        game = parse_slug(g)
        empty = {"lower": None, "upper": None, "settled": False}
        row = found.get(g, {c: dict(empty) for c in COLUMNS})
        out = {"game": game, "codes": codes(game["pegs"], game["colors"], game["repetition"]), **_jsonable(row)}
        for column in COLUMNS:
            out[column]["mark"] = marks(g, column, out[column])
        rows.append(out)
    return rows


def _assemble(got: dict) -> dict:
    return {"format": "certify-atlas", "version": TABLE_VERSION, "games": _rows(got["files"]),
            "files": got["files"], "unchecked": got["unchecked"], "problems": got["problems"],
            "unusable": got["unusable"]}


def build_table(root: Path = ROOT, progress=None, max_codes=None, max_work=None, jobs: int = 1,
                store: Path | None = None, max_nodes=None) -> dict:
    """The atlas as a JSON-ready dict, every file checked now (``--check``, ``make atlas``):
    every game of the grid (and any other game with files), its number of codes and its cells;
    per file what its checker derived; the problems (files missing, changed or refused), the files
    not checked (a limit) and the external entries with no file (unchecked)."""
    return _assemble(collect(root, progress, max_codes, max_work, jobs, store, max_nodes))


def load_table(path: Path = TABLE, root: Path = ROOT, store: Path | None = None) -> dict:
    """The table ``make atlas`` wrote, verified against the files (the cache's cheap path): every
    file the manifests list is read through the bounded reader; its sha256 and its own header's
    claims must be those recorded; the cells are recomputed from the recorded facts and compared
    with the table's. Every difference is a problem; the rows returned are the recomputed ones."""
    store = EXTERNAL_STORE if store is None else store
    problems: list = []
    try:
        table = orjson.loads(read_file(path, _bases(root) + [path.parent], MAX_MANIFEST_BYTES))
    except (Unread, orjson.JSONDecodeError) as e:
        raise ValueError(f"{path.name}: {e}") from None
    if not isinstance(table, dict) or table.get("version") != TABLE_VERSION or not isinstance(table.get("files"), dict):
        raise ValueError(f"{path.name}: not an atlas table of version {TABLE_VERSION} (make atlas writes it)")
    recorded, files, unchecked = table["files"], {}, []
    for job, (name, entry) in _jobs(root, problems, {}, store):
        if job is None:
            unchecked += [_fact_json(f) for f in _external_facts(name, entry)]
            continue
        try:
            raw = read_file(job[1], job[2])
        except Unread as e:
            problems.append(f"{name}: {e}")
            continue
        sha = hashlib.sha256(raw).hexdigest()
        mine = recorded.get(name)
        if not isinstance(mine, dict) or not isinstance(mine.get("facts"), list):
            problems.append(f"{name}: not in the table (make atlas checks it and writes the table)")
            continue
        if sha != mine.get("sha256") or job[3] not in (None, sha):
            problems.append(f"{name}: not the bytes that were checked (make atlas, or certify atlas --check)")
            continue
        changed = _changed_parts(job, mine)
        if changed is not None:
            problems.append(f"{name}: {changed}")
            continue
        try:
            facts = [_fact_back(f) for f in mine["facts"]]
        except (ValueError, TypeError, ZeroDivisionError):
            problems.append(f"{name}: the table's record of it is damaged")
            continue
        stated = _header_facts(raw, name, sha)
        if stated is not None and [_fact_json(f) for f in stated] != [
                [f[0], f[1], f[2], _jsonable(f[3]), {k: v for k, v in f[4].items() if k != "external"}]
                for f in facts]:
            problems.append(f"{name}: the table's figures for it are not what the file says")
            continue
        files[name] = mine
    for name in sorted(set(recorded) - set(files)):
        if not any(p.startswith(f"{name}:") for p in problems):
            problems.append(f"{name}: in the table but listed by no manifest")
    got = _assemble({"files": files, "unchecked": unchecked, "problems": problems, "unusable": []})
    shown = {slug(r["game"]): r for r in table.get("games", []) if isinstance(r, dict) and isinstance(r.get("game"), dict)}
    for row in got["games"]:
        g = slug(row["game"])
        theirs = shown.get(g)
        for column in COLUMNS:
            if theirs is None or _plain(theirs.get(column)) != _plain(row[column]):
                problems.append(f"table.json: {g} {HEADINGS[column]}: the table says "
                                f"{_words(column, theirs.get(column)) if theirs else 'nothing'}, "
                                f"its files give {_words(column, row[column])}")
    for g in sorted(set(shown) - {slug(r["game"]) for r in got["games"]}):
        problems.append(f"table.json: {g}: a row no file gives")
    return got


def _row_order(slug: str) -> tuple:
    """A game's place among the rows past the grid: by rule, repetition, pegs, colours."""
    g = parse_slug(slug)
    return g.get("feedback", ""), not g["repetition"], g["pegs"], g["colors"]


def _changed_parts(job, mine: dict) -> str | None:
    """Why a split proof's part files are not those its record was checked with (each read, its
    sha256 compared with the manifest's and the table's), else None; None too for a whole file
    recorded as a whole file."""
    parts, recorded = job[6], mine.get("parts")
    if not parts and recorded is None:
        return None
    if not isinstance(recorded, dict) or sorted(recorded) != sorted(part for _, part, _ in parts):
        return "its part files are not those that were checked (make atlas, or certify atlas --check)"
    for path, part, want in parts:
        try:
            raw = read_file(path, job[2])
        except Unread as e:
            return f"part {part}: {e}"
        if hashlib.sha256(raw).hexdigest() != want or recorded[part] != want:
            return f"part {part}: not the bytes that were checked (make atlas, or certify atlas --check)"
    return None


def _words(column: str, cell) -> str:
    """A cell as a problem names it: both sides, and "settled" when it says so."""
    if not isinstance(cell, dict):
        return "nothing"
    try:
        shown = figure_text(column, dict(cell, settled=False))
    except (KeyError, TypeError, IndexError):
        return "a damaged cell"
    return shown + (" (marked settled)" if cell.get("settled") else "")


def _plain(cell) -> dict | None:
    """A cell as compared: its figures, files and settled flag."""
    if not isinstance(cell, dict):
        return None
    return {k: v for k, v in cell.items() if k != "mark"}


# -- marks: new, published (with its source), external ----------------------------------------------

def _published() -> dict:
    """{(game, column): (figure, source)}: the figures published before this project (docs/atlas.md,
    "Published values beside ours"); the atlas shows each beside its cell."""
    chen = "Chen and Lin, 2xc Mastermind, Computer Journal 47(5), 2004"
    chen_ab = "Chen and Lin, 2xc AB game, J. Inf. Sci. Eng. 20(1), 2004"
    out = {}
    for c in range(2, 11):
        out[(f"2x{c}", "worst")] = (c // 2 + 2, chen)
        out[(f"2x{c}-norep", "worst")] = (-(-c // 2) + 1, chen_ab)
        num = 4 * c ** 3 + 21 * c ** 2 + (-76 * c + 72 if c % 2 == 0 else -82 * c + 105)
        out[(f"2x{c}-norep", "total")] = (num // 12, chen_ab)
        if c >= 3:  # the formula holds from 3 colours on (2x2: it gives 7, the least total is 8)
            num = 8 * c ** 3 + 51 * c ** 2 + (-74 * c + 48 if c % 2 == 0 else -80 * c + 69)
            out[(f"2x{c}", "total")] = (num // 24, chen)
    for c in range(5, 11):
        out[(f"3x{c}", "worst")] = ((c - 1) // 3 + 4, "Jäger and Peczarski, IPL 109, 2009 (Theorem 1)")
    goddard = "Goddard, Mastermind revisited, JCMCC 51, 2004 (averages)"
    for g, total in {"2x2": 8, "3x2": 18, "3x3": 73, "3x4": 206, "3x5": 451, "4x2": 44, "4x3": 246,
                     "4x4": 905, "4x5": 2463, "5x2": 97, "5x3": 816, "6x2": 224, "7x2": 496}.items():
        out[(g, "total")] = (total, goddard)
    out.update({("4x6", "worst"): (5, "Knuth 1977"), ("4x6", "total"): (5625, "Koyama and Lai 1993"),
                ("4x6", "total_within_worst"): (5626, "Koyama and Lai 1993"),
                ("4x6", "count_first"): ([539, 5627], "Slovesnov (539 secrets need 5)"),
                ("4x6", "value"): ("560/129", "Wiener 1995"), ("4x7", "total"): (11228, "Ville 2013"),
                ("4x8", "total"): (20471, "a public C solver, 2023"),
                ("4x8", "total_within_worst"): (20473, "a public C solver, 2023"),
                ("4x6-norep", "total"): (1446, "public solver output"),
                ("4x7-norep", "total"): (3639, "public C solver trees"),
                ("4x8-norep", "total"): (7817, "public C solver trees"),
                ("4x10-norep", "worst"): (7, "Tanaka 1996"), ("4x10-norep", "total"): (26274, "Slovesnov 2017")})
    return out


PUBLISHED = _published()


def marks(g: str, column: str, cell: dict) -> dict:
    """A cell's marks: "external" when a side comes from a file outside the repository;
    "published" (figure and source) when a figure was published before; "new" when it is settled
    and none was."""
    out = {"new": False, "published": None, "external": any(
        (cell.get(side) or {}).get("external") for side in ("lower", "upper"))}
    pub = PUBLISHED.get((g, column))
    if pub is not None:
        figure, source = pub
        ours = (cell.get("upper") or {}).get("figure") if cell.get("settled") else None
        out["published"] = {"figure": figure, "source": source,
                            "agrees": None if ours is None else _same(column, ours, figure)}
    elif cell.get("settled"):
        out["new"] = True
    return out


def _same(column: str, ours, theirs) -> bool:
    if column == "value":
        return Fraction(ours) == Fraction(theirs)
    return ours == theirs


def _tag(cell: dict) -> str:
    m = cell.get("mark") or {}
    tags = (["ext"] if m.get("external") else []) + (["pub"] if m.get("published") else []) + \
        (["new"] if m.get("new") else [])
    return f" [{','.join(tags)}]" if tags else ""


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
    return (f"{game['pegs']}x{game['colors']}" + ("" if game["repetition"] else " norep")
            + (" black" if game.get("feedback") == "black-only" else ""))


def _unchecked_lines(table: dict) -> list:
    """The external entries with no file, in words (never in a cell)."""
    out = []
    for g, column, side, figure, extra in table.get("unchecked", []):
        what = {"lower": "a proof of at least", "upper": "a strategy of"}[side]
        fig = ", ".join(map(str, figure)) if isinstance(figure, list) else figure
        out.append(f"{g} {column}: {what} {fig} (external {extra.get('file')}, sha256 "
                   f"{str(extra.get('sha256'))[:12]}...: no file here, unchecked)")
    return out


def text(table: dict) -> str:
    """The atlas as an aligned text table, each cell marked ([ext], [pub], [new])."""
    head = ["game", "codes"] + [HEADINGS[c] for c in COLUMNS]
    lines = [head]
    for row in table["games"]:
        within = row["total_within_worst"]
        d = within.get("max_guesses")
        cells_ = [figure_text(c, row[c]) for c in COLUMNS]
        if d is not None:
            cells_[2] = f"{cells_[2]} (D={d})"
        cells_ = [shown + _tag(row[c]) for shown, c in zip(cells_, COLUMNS)]
        lines.append([_label(row["game"]), f"{row['codes']:,}"] + cells_)
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    out = ["  ".join(cell.ljust(w) for cell, w in zip(line, widths)).rstrip() for line in lines]
    settled = sum(row[c]["settled"] for row in table["games"] for c in COLUMNS)
    total = len(table["games"]) * len(COLUMNS)
    out.append(f"{settled} of {total} cells settled; 'a .. b': proven at least a, a strategy reaches b; "
               "'?': no checked file on that side; 'needs D': waits for the least worst case")
    out.append("[new]: settled here, no published figure known; [pub]: a figure was published "
               "(certify atlas GAME names it and its source); [ext]: from a file outside the repository, "
               "checked from the external store")
    out += [f"external, unchecked: {line}" for line in _unchecked_lines(table)]
    out += [f"not checked: {p}" for p in table.get("unusable", [])]
    out += [f"problem: {p}" for p in table["problems"]]
    return "\n".join(out) + "\n"


def markdown(table: dict) -> str:
    """The atlas as a Markdown table whose cells link their files, each marked (new, published
    with its source, external)."""
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
            m = cell.get("mark") or {}
            if m.get("external"):
                links.append("*external*")
            if m.get("published"):
                pub = m["published"]
                fig = ", ".join(map(str, pub["figure"])) if isinstance(pub["figure"], list) else pub["figure"]
                links.append(f"*published {fig}: {pub['source']}*")
            elif m.get("new"):
                links.append("**new**")
            cells_.append(shown + (" " + " ".join(links) if links else ""))
        out.append("| " + " | ".join([_label(row["game"]), f"{row['codes']:,}"] + cells_) + " |")
    out += ["", *[f"- external, unchecked: {line}" for line in _unchecked_lines(table)]]
    return "\n".join(out).rstrip() + "\n"


def _commands(root: Path = ROOT) -> dict:
    """{file name under certificates/ (external: its bare name): (rebuild, check)} from the manifests
    (certificates/rebuild/index.json first, then the commands the manifests record)."""
    problems: list = []
    out = {}
    for name, entry, external in _listed(root, problems):
        if entry is not None and entry.get("command"):
            out[name] = (entry.get("command"), entry.get("check"))
    try:
        for record in rebuild_records(root):
            where = "certificates" + ("" if record["cwd"] == "." else f"/{record['cwd']}")
            out[record["file"]] = (f"(in {where}) {record['rebuild']}" if record["rebuild"] else
                                   f"(no single command: {record.get('how')})",
                                   f"(in {where}) {record['check']}")
    except ValueError:
        pass
    return out


REBUILD_MANIFEST = "rebuild/index.json"  # a folder of its own: certificates/*.json are all certificates
REBUILD_FORMAT = "certify-rebuild-index"


def rebuild_records(root: Path = ROOT) -> list:
    """The records of certificates/rebuild/index.json (ValueError when it is missing or damaged).
    Read here, not in certify.rebuild (which imports this module), so imports flow one way."""
    try:
        doc = orjson.loads(read_file(root / REBUILD_MANIFEST, _bases(root), MAX_MANIFEST_BYTES))
    except (Unread, orjson.JSONDecodeError) as e:
        raise ValueError(f"{REBUILD_MANIFEST}: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != REBUILD_FORMAT or not isinstance(doc.get("records"), list):
        raise ValueError(f"{REBUILD_MANIFEST}: not a {REBUILD_FORMAT}")
    return doc["records"]


def detail(table: dict, g: str, root: Path = ROOT) -> str:
    """One game's cells in full: each side's file, sha256, the command that rebuilds it and the one
    that checks it, the marks and the published figure with its source."""
    row = next((r for r in table["games"] if slug(r["game"]) == g), None)
    if row is None:
        raise ValueError(f"no game {g} in the atlas (games: PxC, PxC-norep, PxC-black, e.g. 5x7, 4x10-norep)")
    commands = _commands(root)
    out = [f"{_label(row['game'])}: {row['codes']:,} codes"]
    for c in COLUMNS:
        cell = row[c]
        shown = figure_text(c, cell)
        if cell.get("max_guesses") is not None:
            shown += f" (D={cell['max_guesses']})"
        out.append(f"{HEADINGS[c]}: {shown}{_tag(cell)}")
        m = cell.get("mark") or {}
        if m.get("published"):
            pub = m["published"]
            agrees = {True: "agrees", False: "DIFFERS", None: "not settled here"}[pub["agrees"]]
            out.append(f"  published: {pub['figure']} ({pub['source']}; {agrees})")
        for side, word in (("lower", "proof"), ("upper", "strategy")):
            found = cell.get(side)
            if found is None:
                continue
            name = found["file"]
            where = f"external store: {name}" if found.get("external") else f"certificates/{name}"
            rebuild, check = commands.get(name, (None, None))
            out.append(f"  {word} ({side}): {where}")
            out.append(f"    sha256 {found['sha256']}")
            out.append(f"    rebuild: {rebuild or '(no command recorded)'}")
            out.append(f"    check:   {check or _check_command(name, found, row)}")
    for line in _unchecked_lines(table):
        if line.startswith(g + " "):
            out.append(f"external, unchecked: {line}")
    return "\n".join(out) + "\n"


def _check_command(name: str, found: dict, row: dict) -> str:
    where = name if found.get("external") else f"certificates/{name}"
    extra = f" --max-codes {row['codes']}" if row["codes"] > 10_000 and not name.split("/")[-1].startswith(("optimal-", "knuth-", "expected-")) else ""
    return f"certify verify {where}{extra}"


DOC = Path(__file__).resolve().parent.parent / "docs" / "atlas.md"
_DOC_START, _DOC_END = "<!-- atlas table: written by make atlas -->", "<!-- end of the atlas table -->"


def write(root: Path = ROOT, table_path: Path = TABLE, doc: Path = DOC, say=None, max_codes=None,
          max_work=None, jobs: int = 1) -> dict:
    """Check every file, then write the table (JSON) and the Markdown table into docs/atlas.md
    (between its two markers); returns the table."""
    from .files import write_output

    table = build_table(root, progress=say, max_codes=max_codes, max_work=max_work, jobs=jobs)
    write_output(table_path, orjson.dumps(table, option=orjson.OPT_INDENT_2) + b"\n")
    _write_doc(doc, table)
    return table


def add(names, root: Path = ROOT, table_path: Path = TABLE, doc: Path = DOC, max_codes=None,
        max_work=None, checked: dict | None = None) -> dict:
    """Check the listed files ``names`` (under certificates/, as the manifests list them) with the
    checkers, within the user's limits, and put what each proves into the table (its other files
    as recorded): the step that adds a cell from a checked file without checking every file again.
    ``checked``: {name: (bytes, kind, report)} of files the caller has just checked within the same
    limits (adopt: the bytes it checked and copied), taken as they are when their sha256 is the
    one the manifest lists, so that no file is checked twice. Raises ValueError when a file is not
    listed or its checker does not accept it."""
    from .files import write_output

    table = orjson.loads(read_file(table_path, _bases(root) + [table_path.parent], MAX_MANIFEST_BYTES))
    problems: list = []
    listed = list(_jobs(root, problems, _limits_kwargs(max_codes, max_work), EXTERNAL_STORE))
    jobs = {job[0]: job for job, _ in listed if job is not None}
    # The external entries with no file, as the external index lists them now (an entry adopted
    # into the repository has left it).
    table["unchecked"] = [_fact_json(f) for job, (name, entry) in listed if job is None
                          for f in _external_facts(name, entry)]
    for name in names:
        if name not in jobs:
            raise ValueError(f"{name}: listed by no manifest of certificates/ (adopt it first)")
        if checked and name in checked and not jobs[name][6]:
            raw, kind, report = checked[name]
            sha = hashlib.sha256(raw).hexdigest()
            if jobs[name][3] not in (None, sha):
                raise ValueError(f"{name}: the bytes checked are not those its manifest lists")
            got = _verdict(name, sha, kind, report)
        else:
            got = _check_one(jobs[name], _cores())  # (one file at a time here: its parts in parallel)
        if got["status"] != 0:
            raise ValueError(f"{name}: {'not checked' if got['status'] == 2 else 'refused'}: {got['error']}")
        table["files"][name] = _record(got)
    table["games"] = _rows(table["files"])
    write_output(table_path, orjson.dumps(table, option=orjson.OPT_INDENT_2) + b"\n")
    _write_doc(doc, table)
    return table


#: The rows docs/atlas.md shows "at a glance" (written from the table by make atlas; tested).
GLANCE = ("3x7", "4x6", "5x6", "5x7", "5x8", "3x7-norep", "4x6-norep", "5x6-norep", "5x7-norep", "5x8-norep")
_GLANCE_START, _GLANCE_END = "<!-- atlas glance: written by make atlas -->", "<!-- end of the glance -->"


def glance(table: dict) -> str:
    """The few rows of docs/atlas.md's "At a glance", as `certify atlas` prints them."""
    lines = text(table).splitlines()
    labels = {_label(parse_slug(g)) for g in GLANCE}
    rows = [line for line in lines[1:] if any(line.startswith(label + "  ") for label in labels)]
    pattern = "|".join(g.replace("-norep", " norep") for g in GLANCE)
    return "\n".join(["```", f'$ certify atlas | grep -E "^(game|{pattern})  "', lines[0], *rows, "```"]) + "\n"


def _between(page: str, start_mark: str, end_mark: str, content: str) -> str:
    start, end = page.find(start_mark), page.find(end_mark)
    if 0 <= start < end:
        return page[:start + len(start_mark)] + "\n" + content + page[end:]
    return page


def _write_doc(doc: Path, table: dict) -> None:
    from .files import write_output

    if doc.exists():
        page = doc.read_text(encoding="utf-8")
        page = _between(page, _DOC_START, _DOC_END, markdown(table))
        page = _between(page, _GLANCE_START, _GLANCE_END, glance(table))
        write_output(doc, page.encode())


def main(argv=None) -> int:
    import argparse
    import sys

    parser = argparse.ArgumentParser(prog="python -m certify.atlas",
                                     description="check every file the atlas names and write its table")
    parser.add_argument("command", choices=["write"])
    parser.add_argument("--max-codes", type=int, help="the lower-bound checker's code limit (default 10,000)")
    parser.add_argument("--max-work", type=int, help="the checkers' work limit")
    parser.add_argument("--jobs", type=int, default=1, help="files checked at once (default 1)")
    args = parser.parse_args(argv)

    def say(i, n, name):
        print(f"  checking {i + 1}/{n}: {name}", file=sys.stderr, flush=True)

    table = write(say=say, max_codes=args.max_codes, max_work=args.max_work, jobs=args.jobs)
    for line in table["unusable"]:
        print(f"not checked: {line}", file=sys.stderr)
    for problem in table["problems"]:
        print(f"problem: {problem}", file=sys.stderr)
    return 1 if table["problems"] else 2 if table["unusable"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
