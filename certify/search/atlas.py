"""Build the atlas's files: ``python -m certify.search.atlas build`` (``make atlas``).

For every game of the grid (pegs 2..6 x colours 2..10, with and without repetition, and the games of
more pegs up to 10,000 codes: certify.atlas.BEYOND) that the exact search reaches, four questions, each answered by a lower-bound proof and a strategy that meets it:

* ``worst``: the least worst case D (proof ``worst-case-G.json``; the strategy is the one below);
* ``worst,total``: the least total within D guesses (``total-G-maxD.json`` and its strategy
  ``optimal-total-G-maxD.json``), which also shows that D guesses suffice;
* ``total``: the least total (``total-G.json``, ``optimal-total-G.json``); when its strategy already
  stays within D, it answers ``worst,total`` too and that search is not run;
* ``count-first``: within D, the fewest secrets that need D, then the least total
  (``total-G-maxD-count-first.json`` and its strategy).

Files go to certificates/atlas/ (gzipped past 100 KB of JSON) unless the lower-bound catalogue
(certificates/bounds/, :mod:`.catalog`) already has that proof. Each search runs in a child process
with a time budget (``--budget SECONDS``, default 600); one that does not finish leaves no file and
is recorded in the manifest as unfinished (with the budget), so the atlas shows an interval and a
later run with a larger budget takes it up again. The run resumes by itself: a task whose files are
there is skipped. The manifest ``certificates/atlas/index.json`` lists every file with its game,
claims, sha256, the seconds its search took and the command that rebuilds it alone.
"""

from __future__ import annotations

import argparse
import gzip
import os
import hashlib
import multiprocessing
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import orjson

from ..atlas import GRID, codes
from .space import MAX_SEARCH_CODES
from .total import MAX_TOTAL_CODES

ROOT = Path(__file__).resolve().parent.parent.parent / "certificates"
FOLDER = ROOT / "atlas"
MANIFEST = "index.json"
#: Past this many bytes of JSON a file is written gzipped.
GZIP_BYTES = 100_000
TASKS = ("worst", "total", "worst,total", "count-first", "knuth", "value")
#: The game value (``certify value``: files certificates/value/value-G-codemaker/-codebreaker) up to
#: this many codes, the command's own limit.
MAX_VALUE_CODES = 1296
#: Knuth's strategy (an upper bound on the worst case and the total) is built for the games where the
#: total search is long (past Bulls and Cows' 5,040 codes: hours), up to this many codes (6x8: 262,144
#: codes, about a minute and 1 MB gzipped).
MIN_KNUTH_CODES = 5040
MAX_KNUTH_CODES = 300_000


def slug(pegs: int, colors: int, repetition: bool) -> str:
    return f"{pegs}x{colors}" + ("" if repetition else "-norep")




def reachable(pegs: int, colors: int, repetition: bool, task: str) -> bool:
    """Whether the exact search takes the game for this task (its caps on the number of codes)."""
    n = codes(pegs, colors, repetition)
    if task == "knuth":
        return MIN_KNUTH_CODES < n <= MAX_KNUTH_CODES
    if task == "value":
        return n <= MAX_VALUE_CODES
    return n <= (MAX_SEARCH_CODES if task == "worst" else MAX_TOTAL_CODES)


def _find(name: str, folders) -> Path | None:
    for folder in folders:
        for candidate in (name, name + ".gz"):
            if (folder / candidate).exists():
                return folder / candidate
    return None


def _external() -> set:
    """Names listed in certificates/external/index.json (too big to commit, built elsewhere)."""
    path = ROOT / "external" / "index.json"
    if not path.exists():
        return set()
    doc = orjson.loads(path.read_bytes())
    return {e["file"] for key in ("certificates", "proofs") for e in doc.get(key, [])}


def _read(path: Path) -> dict:
    raw = path.read_bytes()
    return orjson.loads(gzip.decompress(raw) if path.name.endswith(".gz") else raw)


def _flags(pegs: int, colors: int, repetition: bool) -> str:
    return f"--pegs {pegs} --colors {colors}" + ("" if repetition else " --no-repetition")


def _proof_name(game_slug: str, task: str, d: int | None) -> str:
    if task == "knuth":
        return f"knuth-{game_slug}.json.gz"
    if task == "worst":
        return f"worst-case-{game_slug}.json"
    if task == "total":
        return f"total-{game_slug}.json"
    if task == "worst,total":
        return f"total-{game_slug}-max{d}.json"
    return f"total-{game_slug}-max{d}-count-first.json"


def _command(pegs, colors, repetition, task: str, d, proof: str, strategy: str | None) -> str:
    flags = _flags(pegs, colors, repetition)
    if task == "knuth":
        return f"certify build knuth {flags} -o {proof}"
    if task == "worst":
        also = "" if strategy is None else f" --strategy-out {strategy}"
        return f"certify bound {flags} --worst{also} -o {proof}"
    objective = {"total": "", "worst,total": f" --max-guesses {d}",
                 "count-first": f" --objective max-count,total --max-guesses {d}"}[task]
    return f"certify build optimal {flags}{objective} --proof {proof} -o {strategy}"


def _run(pegs, colors, repetition, task, d, folder: str, conn) -> None:
    """In the child: one search, its files written (atomically), a summary sent back."""
    from ..certificate import dumps as strategy_bytes
    from ..files import write_output
    from ..game import Game
    from . import exact
    from .proof import dumps as proof_bytes

    game = Game(pegs, colors, repetition)
    start = time.process_time()
    if task == "knuth":
        from ..certificate import make_certificate
        from ..strategies import get_strategy

        cert = make_certificate(get_strategy("knuth")(game))
        name = _proof_name(game.slug, task, d)
        write_output(Path(folder) / name, strategy_bytes(cert, compact=True))
        conn.send({"files": [name], "cpu": round(time.process_time() - start, 2),
                   "seconds": round(time.process_time() - start, 2), "searched": 0})
        conn.close()
        return
    from ..errors import CertifyError

    try:
        if task == "worst":  # every strategy a search finds is kept: it is what settles the cell's upper side
            # (6x7 without repetition has exactly 5,040 codes and stayed at Knuth's 8 while this search had
            # found a strategy within 7: only games past 5,040 kept theirs)
            result = exact.worst_case(game, strategy=True)
        elif task == "total":
            result = exact.total(game)
        elif task == "worst,total":
            result = exact.total(game, d)
        else:
            result = exact.total(game, d, at_max=True, first="at_max")
    except CertifyError as e:  # e.g. a proof past its checker's limits: nothing found, the reason kept
        conn.send({"error": str(e), "cpu": round(time.process_time() - start, 2)})
        conn.close()
        return
    written = []
    name = _proof_name(game.slug, task, d)
    for stem, data in ((name, proof_bytes(result.proof)),
                       ("optimal-" + name, None if result.strategy is None else strategy_bytes(result.strategy))):
        if data is None:
            continue
        if len(data) > GZIP_BYTES:
            stem += ".gz"
            if result.strategy is not None and stem.startswith("optimal-"):
                data = strategy_bytes(result.strategy, compact=True)
        write_output(Path(folder) / stem, data)
        written.append(stem)
    conn.send({"files": written, "cpu": round(time.process_time() - start, 2),
               "seconds": round(result.seconds, 2), "searched": result.searched})
    conn.close()


def _attempt(pegs, colors, repetition, task, d, folder: Path, budget: float):
    """Run one search in a child process; its summary, or None when it ran past the budget."""
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_run, args=(pegs, colors, repetition, task, d, str(folder), child))
    proc.start()
    child.close()
    got = None
    if parent.poll(budget):
        try:
            got = parent.recv()
        except EOFError:
            got = None
    proc.join(0 if got is None else None)
    if proc.is_alive():
        proc.kill()
        proc.join()
    if got is None and proc.exitcode not in (0, None, -9):
        raise RuntimeError(f"{slug(pegs, colors, repetition)} {task}: the search failed (exit {proc.exitcode})")
    return got


def load_manifest(folder: Path = FOLDER) -> dict:
    path = folder / MANIFEST
    if path.exists():
        return orjson.loads(path.read_bytes())
    return {"format": "certify-atlas-index", "version": 1, "files": [], "unfinished": []}


def _entry(path: Path, kind: str, command: str, summary: dict) -> dict:
    raw = path.read_bytes()
    doc = orjson.loads(gzip.decompress(raw) if path.name.endswith(".gz") else raw)
    entry = {"file": path.name, "kind": kind, "game": doc["game"], "claims": doc["claims"],
             "sha256": hashlib.sha256(raw).hexdigest(), "bytes": len(raw)}
    if kind == "proof":
        entry["nodes"] = len(doc["nodes"])
    entry.update(cpu_seconds=summary["cpu"], command=command)
    return entry


def _least_worst(pegs, colors, repetition, folders) -> int | None:
    path = _find(f"worst-case-{slug(pegs, colors, repetition)}.json", folders)
    return None if path is None else _read(path)["claims"]["worst_case"]


def build(games=None, tasks=TASKS, budget: float = 600, folder: Path = FOLDER, say=print) -> dict:
    """Run every missing task of the grid (or of ``games``, slugs); return the manifest."""
    from . import exact, total, worst  # noqa: F401  (imported once, before the children fork)

    folder.mkdir(parents=True, exist_ok=True)
    folders = [folder, ROOT / "bounds"]
    external = _external()
    unfinished = {(u["game"], u["task"]): u for u in load_manifest(folder)["unfinished"]}
    for pegs, colors, repetition in sorted(GRID, key=lambda g: (codes(*g), g)):
        game_slug = slug(pegs, colors, repetition)
        if games and game_slug not in games:
            continue
        for task in tasks:
            if not reachable(pegs, colors, repetition, task):
                continue
            d = None
            if task in ("worst,total", "count-first"):
                d = _least_worst(pegs, colors, repetition, folders)
                if d is None:
                    continue  # the least worst case first
                total = _find(f"optimal-total-{game_slug}.json", [folder, ROOT])
                if task == "worst,total" and total is not None and _read(total)["claims"]["max_guesses"] <= d:
                    continue  # the least total's strategy stays within D: it answers this too
            if task == "value":
                _value(pegs, colors, repetition, budget, unfinished, say)
                with _updating(folder) as now:
                    _note_unfinished(now, unfinished, game_slug, task)
                continue
            name = _proof_name(game_slug, task, d)
            if name in external or name + ".gz" in external:
                continue
            if _find(name.removesuffix(".gz"), folders + [ROOT]) is not None:
                continue
            if (folder / name.removesuffix(".gz").removesuffix(".json")).is_dir():
                continue  # a split proof (adopt_split): its main file and parts are in that folder
            tried = unfinished.get((game_slug, task))
            if tried is not None and tried["budget"] >= budget:
                continue  # not finished within this budget before: a larger one takes it up
            say(f"{game_slug} {task}: searching (budget {budget:.0f} s)")
            got = _attempt(pegs, colors, repetition, task, d, folder, budget)
            if got is None:
                say(f"{game_slug} {task}: unfinished after {budget:.0f} s")
                unfinished[(game_slug, task)] = {"game": game_slug, "task": task, "budget": budget}
            elif "error" in got:  # the search ended without a checked file: recorded with its reason
                say(f"{game_slug} {task}: nothing found after {got['cpu']} s CPU: {got['error']}")
                unfinished[(game_slug, task)] = {"game": game_slug, "task": task, "budget": budget,
                                                 "reason": got["error"]}
                got = None
            else:
                unfinished.pop((game_slug, task), None)
                say(f"{game_slug} {task}: {', '.join(got['files'])} ({got['cpu']} s CPU)")
                strategy = next((f for f in got["files"] if f.startswith("optimal-")), None)
                proof = next((f for f in got["files"] if not f.startswith("optimal-")), name)
                command = _command(pegs, colors, repetition, task, d, proof, strategy)
            with _updating(folder) as now:
                if got is not None:
                    mine = {e["file"] for e in now["files"]}
                    for f in got["files"]:
                        if f not in mine:
                            kind = "strategy" if f.startswith(("optimal-", "knuth-")) else "proof"
                            now["files"].append(_entry(folder / f, kind, command, got))
                _note_unfinished(now, unfinished, game_slug, task)
    return load_manifest(folder)


def _note_unfinished(manifest: dict, unfinished: dict, game_slug: str, task: str) -> None:
    """This build's verdict on one task (unfinished within its budget, or done) written into the
    manifest as it is now, the others' entries kept."""
    rest = [u for u in manifest["unfinished"] if (u["game"], u["task"]) != (game_slug, task)]
    if (game_slug, task) in unfinished:
        rest.append(unfinished[(game_slug, task)])
    manifest["unfinished"] = sorted(rest, key=lambda u: (u["game"], u["task"]))


def _value(pegs, colors, repetition, budget, unfinished, say) -> None:
    """The game value by ``certify value`` (which checks both files it writes), in a child process
    stopped at the budget; its files go to certificates/value/ beside the others."""
    import subprocess

    game_slug = slug(pegs, colors, repetition)
    prefix = ROOT / "value" / f"value-{game_slug}"
    if any(Path(f"{prefix}-codemaker{ext}").exists() for ext in (".json", ".json.gz")):
        unfinished.pop((game_slug, "value"), None)  # (made since by `certify value` itself: done)
        return
    tried = unfinished.get((game_slug, "value"))
    if tried is not None and tried["budget"] >= budget:
        return
    say(f"{game_slug} value: searching (budget {budget:.0f} s)")
    command = [sys.executable, "-m", "certify", "value", *_flags(pegs, colors, repetition).split(), "-q",
               "-o", str(prefix)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=budget)
    except subprocess.TimeoutExpired:
        say(f"{game_slug} value: unfinished after {budget:.0f} s")
        unfinished[(game_slug, "value")] = {"game": game_slug, "task": "value", "budget": budget}
        return
    lines = (done.stdout.strip() or done.stderr.strip() or f"(exit {done.returncode}, no output)").splitlines()
    say(f"{game_slug} value: {lines[-1]}")
    if any(Path(f"{prefix}-codemaker{ext}").exists() for ext in (".json", ".json.gz")):
        unfinished.pop((game_slug, "value"), None)
    else:  # refused (e.g. a weighted proof it cannot write yet): recorded with its reason
        unfinished[(game_slug, "value")] = {"game": game_slug, "task": "value", "budget": budget,
                                            "reason": lines[-1].removeprefix("certify value: error: ")}


#: Files bigger than this are not committed: they go to EXTERNAL_STORE and are listed in
#: certificates/external/index.json (figures, sha256, the command that rebuilds each, the one that
#: checks it), as the other big files are.
MAX_COMMIT_BYTES = 1_500_000
EXTERNAL_STORE = Path(os.environ.get("CERTIFY_EXTERNAL", ROOT.parent.parent / "certify-external"))


def externalise(folder: Path = FOLDER, store: Path = EXTERNAL_STORE, say=print) -> None:
    """Move the atlas's files past MAX_COMMIT_BYTES out of the repository (to ``store``), each
    checked and recorded in certificates/external/index.json (catalog.add_external)."""
    with _updating(folder) as manifest:
        _externalise(manifest, folder, store, say)


def _externalise(manifest: dict, folder: Path, store: Path, say) -> None:
    """externalise's work on the manifest it holds locked."""
    import shutil

    from .. import catalog

    by_command: dict = {}
    for e in manifest["files"]:
        by_command.setdefault(e["command"], []).append(e)
    keep = []
    for e in manifest["files"]:
        if e["bytes"] <= MAX_COMMIT_BYTES or "parts" in e or e.get("adopted"):  # (committed by choice: adopt)
            keep.append(e)
            continue
        partner = next((p["file"] for p in by_command[e["command"]] if p["file"] != e["file"]), None)
        check = None
        if e["kind"] == "proof" and partner is not None:
            where = partner if any(p["file"] == partner and p["bytes"] > MAX_COMMIT_BYTES
                                   for p in manifest["files"]) else f"certificates/atlas/{partner}"
            check = f"certify verify {where} --optimal {e['file']}"
        status = catalog.add_external(str(folder / e["file"]), e["command"], check=check)
        if status:
            raise RuntimeError(f"{e['file']}: refused by its checker (status {status})")
        store.mkdir(parents=True, exist_ok=True)
        shutil.move(str(folder / e["file"]), str(store / e["file"]))
        say(f"{e['file']}: {e['bytes']:,} bytes, moved to {store} and listed in certificates/external/index.json")
    manifest["files"] = keep


def adopt(path: str, command: str, folder: Path = FOLDER, cpu_seconds: float | None = None,
          max_codes: int | None = None, max_work: int | None = None, table: bool = True,
          check: str | None = None) -> dict:
    """Add a cell from a file written by hand (a command run outside the builder: a search longer
    than any budget, or a partial bound such as ``certify bound --worst --at-least K``): the file is
    checked within the user's limits, copied here (the bytes checked, not the file read again),
    listed in certificates/atlas/index.json with ``command``, the command that rebuilds it (it must
    write the file's own name: ``-o NAME`` or ``--strategy-out NAME``), and put into the atlas's
    table and docs/atlas.md (certify.atlas.add). ``check``: the check command the search printed
    (``certify verify NAME --max-codes N --max-work W``), recorded when the defaults do not check the
    file. Raises ValueError when refused."""
    import shlex

    from .. import atlas
    from ..files import write_output
    from ..kinds import STRATEGY, check_bytes

    name = Path(path).name
    if name not in shlex.split(command):
        raise ValueError(f"{path}: the rebuild command must write {name} under that name (-o {name}), "
                         "so that following it gives these bytes")
    if check is not None and (shlex.split(check)[:2] != ["certify", "verify"] or name not in shlex.split(check)):
        raise ValueError(f"{path}: the check command must be `certify verify {name} ...`, got {check!r}")
    raw = atlas.read_file(Path(path), [Path(path).resolve().parent])
    limits = atlas._limits_kwargs(max_codes, max_work)
    kind, report = check_bytes(raw, path, **limits)
    if not report.valid:
        raise ValueError(f"{path}: {report.error}")
    target = folder / name
    if target.resolve() != Path(path).resolve():
        write_output(target, gzip.decompress(raw) if target.name.endswith(".gz") else raw)
        if target.read_bytes() != raw:
            target.unlink()
            raise ValueError(f"{path}: not the bytes certify writes under this name (write it with -o {name})")
    entry = _entry(target, "strategy" if kind == STRATEGY else "proof", command, {"cpu": cpu_seconds})
    entry["adopted"] = True  # committed by choice: externalise never moves it out, whatever its size
    # (and out of the external index if it was listed there: see drop_external below)
    if check is not None:
        entry["check"] = check
    with _updating(folder) as manifest:
        manifest["files"] = [e for e in manifest["files"] if e["file"] != target.name] + [entry]
    if folder == FOLDER:
        from .. import catalog

        catalog.drop_external(name)  # committed now: no longer looked for in the external store
        if table:  # (the bytes checked above, not checked again)
            atlas.add([f"atlas/{name}"], max_codes=max_codes, max_work=max_work,
                      checked={f"atlas/{name}": (raw, kind, report)})
    return entry


def adopt_split(main: str, parts_dir: str, command: str, folder: Path = FOLDER, cpu_seconds: float | None = None,
                check: str | None = None, max_codes: int | None = None, max_work: int | None = None,
                table: bool = True) -> dict:
    """Add a cell from a split lower-bound proof (``certify split-proof P --parts N -o DIR``: a proof
    too big for the reader whole): the main file ``main`` and every part file of ``parts_dir`` are
    read once and checked by the lower-bound checker, the main file's claim accepted by its combine
    rule (every lemma met by an accepted part); the bytes checked are copied to a folder of the same
    name under certificates/atlas/ and listed in its manifest as one entry: the main file with
    "parts" (each part's name and sha256), ``command`` (which must write the folder's name) and
    ``check``. Raises ValueError when refused."""
    import shlex

    from .. import atlas
    from ..files import write_output

    src = Path(parts_dir)
    name = src.name
    if name not in shlex.split(command):
        raise ValueError(f"{parts_dir}: the rebuild command must write the folder {name} under that name (-o {name})")
    if Path(main).resolve().parent != src.resolve():
        raise ValueError(f"{main}: the main file must be in its parts folder {parts_dir} (split-proof writes it there)")
    bases = [src.resolve()]
    raw_main = atlas.read_file(Path(main), bases)
    parts = {}
    for path in atlas.part_files(src):
        if Path(path).resolve() == Path(main).resolve():
            continue
        parts[Path(path).name] = atlas.read_file(Path(path), bases)
    combined = atlas.split_verdict(raw_main, Path(main).name, parts, atlas._cores(), max_codes=max_codes,
                                   max_work=max_work)
    if not combined.valid:
        raise ValueError(f"{main}: {combined.error}")
    target = folder / name
    target.mkdir(parents=True, exist_ok=True)
    for file, raw in [(Path(main).name, raw_main), *parts.items()]:
        write_output(target / file, gzip.decompress(raw) if file.endswith(".gz") else raw)
        if (target / file).read_bytes() != raw:
            raise ValueError(f"{file}: not the bytes certify writes under this name")
    doc = orjson.loads(gzip.decompress(raw_main) if main.endswith(".gz") else raw_main)
    entry = {"file": f"{name}/{Path(main).name}", "kind": "proof", "game": doc["game"], "claims": doc["claims"],
             "sha256": hashlib.sha256(raw_main).hexdigest(), "bytes": len(raw_main), "nodes": len(doc["nodes"]),
             "parts": [{"file": f"{name}/{part}", "sha256": hashlib.sha256(raw).hexdigest(), "bytes": len(raw)}
                       for part, raw in sorted(parts.items())],
             "cpu_seconds": cpu_seconds, "command": command,
             "check": check or f"certify verify {name}/{Path(main).name} --parts {name} --jobs 2"}
    c = doc["claims"]
    task = ("worst" if "worst_case" in c else "total" if "max_guesses" not in c
            else "count-first" if c.get("first") == "at_max" else "worst,total")
    with _updating(folder) as manifest:
        manifest["files"] = [e for e in manifest["files"] if e["file"] != entry["file"]] + [entry]
        manifest["unfinished"] = [u for u in manifest["unfinished"]
                                  if (u["game"], u["task"]) != (atlas.slug(doc["game"]), task)]
    if table and folder == FOLDER:
        atlas.add([f"atlas/{entry['file']}"], max_codes=max_codes, max_work=max_work)
    return entry


#: The lock a manifest's writers take (a file beside it, never committed: .gitignore).
LOCK = ".index.lock"


@contextmanager
def _updating(folder: Path):
    """The manifest as it is on disk now, saved on leaving, under an exclusive lock: a build, an
    adopt and an externalise run at once (a long build holds its copy for an hour) each change
    what the others saved last, so that none loses the others' entries (2026-11-29: a build's
    save dropped two files an adopt had listed meanwhile)."""
    import fcntl

    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / LOCK, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        manifest = load_manifest(folder)
        yield manifest
        _save(manifest, folder)


def _save(manifest: dict, folder: Path) -> None:
    from ..files import write_output

    manifest["files"].sort(key=lambda e: e["file"])
    write_output(folder / MANIFEST, orjson.dumps(manifest, option=orjson.OPT_INDENT_2) + b"\n")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m certify.search.atlas",
                                     description="build the atlas's missing proofs and strategies")
    parser.add_argument("command", choices=["build", "externalise", "adopt"])
    parser.add_argument("--file", help="adopt: the file (checked, then copied here)")
    parser.add_argument("--parts", help="adopt: the parts folder of a split proof (--file: its main file)")
    parser.add_argument("--rebuild", help="adopt: the command that rebuilds it")
    parser.add_argument("--cpu", type=float, help="adopt: the CPU seconds it took")
    parser.add_argument("--check", help="adopt: the check command the search printed (certify verify NAME "
                                        "with the options it needs), recorded in the manifests")
    parser.add_argument("--max-codes", type=int, help="adopt: the lower-bound checker's code limit")
    parser.add_argument("--max-work", type=int, help="adopt: the checkers' work limit")
    parser.add_argument("games", nargs="*", metavar="GAME", help="only these games (4x6, 4x10-norep...)")
    parser.add_argument("--budget", type=float, default=600, help="seconds a search may take (default 600)")
    parser.add_argument("--task", action="append", choices=TASKS, help="only these questions")
    args = parser.parse_args(argv)
    say = lambda line: print(line, file=sys.stderr, flush=True)  # noqa: E731
    if args.command == "adopt":
        if not args.file or not args.rebuild:
            parser.error("adopt needs --file FILE and --rebuild COMMAND")
        try:
            if args.parts:
                entry = adopt_split(args.file, args.parts, args.rebuild, cpu_seconds=args.cpu, check=args.check,
                                    max_codes=args.max_codes, max_work=args.max_work)
            else:
                entry = adopt(args.file, args.rebuild, cpu_seconds=args.cpu, max_codes=args.max_codes,
                              max_work=args.max_work, check=args.check)
        except ValueError as e:
            print(f"python -m certify.search.atlas adopt: {e}", file=sys.stderr)
            return 1
        say(f"{entry['file']}: checked, listed in certificates/atlas/index.json and in the atlas's table")
        return 0
    if args.command == "build":
        build(set(args.games), tuple(args.task or TASKS), args.budget, say=say)
    externalise(say=say)
    return 0


if __name__ == "__main__":
    sys.exit(main())
