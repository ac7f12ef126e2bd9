"""One manifest of how every committed file under certificates/ is made and checked
(``certificates/rebuild/index.json``; ``python -m certify.rebuild write|run``, ``make rebuild-check``).

Each record: ``file`` (under certificates/), ``cwd`` (the folder the commands run in, under
certificates/), ``rebuild`` (the exact command that writes the file there under its stored name and
compression: followed literally it gives the committed bytes; it may write the file's partner too)
and ``check`` (the command that checks it, from the same folder); or ``rebuild`` null and ``how``,
where no single command rebuilds that file alone yet (the catalogue builders rebuild them all).
The commands come from the manifests the builders wrote (certificates/atlas/index.json, whose
``-o X.json`` for a file stored as ``X.json.gz`` is written here with the stored name), the
catalogue of strategies (certify/catalog.py), the black-peg and value builders' own commands.
``run`` follows records literally in a scratch folder and compares bytes (the tests run a sample).
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent / "certificates"
from .atlas import REBUILD_FORMAT as FORMAT, REBUILD_MANIFEST as MANIFEST  # noqa: E402  (read there: atlas shows the commands)


def _stored(folder: Path, token: str) -> str:
    """A command's file name as stored: ``X.json`` is ``X.json.gz`` when only that is there."""
    if token.endswith(".json") and not (folder / token).exists() and (folder / (token + ".gz")).exists():
        return token + ".gz"
    return token


def _check(name: str, codes: int, proof: bool = True) -> str:
    """The check command; past 10,000 codes a lower-bound proof needs the code limit raised (the
    strategy verifier takes up to 1,000,000 codes by itself)."""
    return f"certify verify {name}" + (f" --max-codes {codes}" if proof and codes > 10_000 else "")


def _codes(game: dict) -> int:
    from .atlas import codes

    return codes(game["pegs"], game["colors"], game.get("repetition", True))


def _flags(game: dict) -> str:
    return (f"--pegs {game['pegs']} --colors {game['colors']}" + ("" if game.get("repetition", True) else " --no-repetition")
            + (" --feedback black-only" if game.get("feedback") == "black-only" else ""))


def _atlas(root: Path) -> list:
    folder = root / "atlas"
    out = []
    for e in orjson.loads((folder / "index.json").read_bytes())["files"]:
        if "parts" in e:
            files = [e["file"]] + [p["file"] for p in e["parts"]]
            if "--proof-parts" in shlex.split(e["command"]):  # the search wrote the folder itself
                out += [{"file": f"atlas/{f}", "cwd": "atlas", "rebuild": e["command"] + " -q", "check": e["check"]}
                        for f in files]
            else:  # a build, then split-proof: no single command per file
                out += [{"file": f"atlas/{f}", "cwd": "atlas", "rebuild": None, "check": e["check"],
                         "how": e["command"]} for f in files]
            continue
        command = shlex.join(_stored(folder, t) for t in shlex.split(e["command"]))
        command = command.replace("'", "")  # shlex.join quotes nothing here: names and flags only
        # -q: the rebuild is quiet; the bytes are the same
        out.append({"file": f"atlas/{e['file']}", "cwd": "atlas", "rebuild": command + " -q",
                    # the check the search printed (adopt --check), else the default one
                    "check": e.get("check") or _check(e["file"], _codes(e["game"]), e["kind"] == "proof")})
    return out


def _catalog(root: Path) -> list:
    from .catalog import CATALOG, SEARCHED

    out = []
    for name, strategy, pegs, colors, repetition, options in CATALOG:
        game = {"pegs": pegs, "colors": colors, "repetition": repetition}
        if strategy == SEARCHED or options:
            out.append({"file": name, "cwd": ".", "rebuild": None, "check": _check(name, _codes(game), False),
                        "how": "python -m certify.search.catalog build (with its proof in certificates/bounds/)"})
            continue
        out.append({"file": name, "cwd": ".", "rebuild": f"certify build {strategy} {_flags(game)} -q -o {name}",
                    "check": _check(name, _codes(game), False)})
    return out


def _black_peg(root: Path) -> list:
    """certificates/black-peg/: rebuild.sh's command for each game and kind, stored names."""
    from .atlas import parse_slug

    folder = root / "black-peg"
    out = []
    for path in sorted(folder.glob("*.json*")):
        name = path.name
        stem = name.removesuffix(".gz").removesuffix(".json").removeprefix("optimal-")
        kind = "worst" if stem.startswith("worst-case-") else "total"
        g = stem.removeprefix("worst-case-").removeprefix("total-").removesuffix("-black")
        game = dict(parse_slug(g), feedback="black-only")
        proof = next((p for p in (f"{stem}.json", f"{stem}.json.gz") if (folder / p).exists()), f"{stem}.json")
        strategy = next((p for p in (f"optimal-{stem}.json", f"optimal-{stem}.json.gz") if (folder / p).exists()),
                        f"optimal-{stem}.json")
        out.append({"file": f"black-peg/{name}", "cwd": "black-peg",
                    "rebuild": f"certify bound --{kind} {_flags(game)} -q -o {proof} --strategy-out {strategy}",
                    "check": _check(name, _codes(game), not name.startswith("optimal-"))})
    return out


def _value(root: Path) -> list:
    from .atlas import parse_slug

    out = []
    for path in sorted((root / "value").glob("value-*")):
        g = path.name.removeprefix("value-").split("-code")[0]
        game = parse_slug(g)
        out.append({"file": f"value/{path.name}", "cwd": "value",
                    "rebuild": f"certify value {_flags(game)} -q --prefix value-{g}",
                    "check": _check(path.name, _codes(game), "codemaker" in path.name)})
    return out


def _others(root: Path, listed: set) -> list:
    """Every other committed file: its check, and how it is made when no single command is known."""
    hows = {"bounds": "python -m certify.search.catalog build (each proof with its strategy)",
            "static": "certify static build (docs/static.md; its table generator writes the set)"}
    out = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if not path.is_file() or rel in listed or not rel.endswith((".json", ".json.gz")):
            continue
        folder = rel.split("/")[0] if "/" in rel else "."
        if path.name in ("index.json", "table.json") or folder in ("external", "rebuild"):
            continue
        check = f"python -m certify.verify_static {path.name}" if folder == "static" else f"certify verify {path.name}"
        out.append({"file": rel, "cwd": folder, "rebuild": None, "check": check,
                    "how": hows.get(folder, "not recorded")})
    return out


def build(root: Path = ROOT) -> dict:
    records = _atlas(root) + _catalog(root) + _black_peg(root) + _value(root)
    records += _others(root, {r["file"] for r in records})
    records.sort(key=lambda r: r["file"])
    return {"format": FORMAT, "version": 1, "records": records}


def records(root: Path = ROOT) -> list:
    """The records of certificates/rebuild/index.json (ValueError when it is missing or damaged)."""
    from .atlas import rebuild_records

    return rebuild_records(root)


def _written(record: dict) -> Path:
    """Where a record's command writes its file, from the folder it runs in (a part of a split
    proof is in the proof's folder there)."""
    path = Path(record["file"])
    return path.relative_to(record["cwd"]) if record["cwd"] != "." else path


def run(record: dict, scratch: Path, certify: str = "certify", root: Path = ROOT) -> str | None:
    """Follow a record's rebuild command literally in ``scratch`` (``certify`` replaced by the
    given program); None when the bytes written are the committed ones, else why not."""
    import subprocess

    words = shlex.split(record["rebuild"])
    if words[0] == "certify":
        words = shlex.split(certify) + words[1:]
    scratch.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(words, cwd=scratch, capture_output=True, text=True)
    if done.returncode != 0:
        return f"exit {done.returncode}: {(done.stderr or done.stdout).strip().splitlines()[-1:]}"
    name = _written(record)
    if not (scratch / name).exists():
        return "the command did not write the file"
    if (scratch / name).read_bytes() != (root / record["file"]).read_bytes():
        return "other bytes"
    return None


def main(argv=None) -> int:
    import argparse
    import tempfile
    import time

    parser = argparse.ArgumentParser(prog="python -m certify.rebuild")
    parser.add_argument("command", choices=["write", "run"])
    parser.add_argument("files", nargs="*", help="run: only these records (paths under certificates/)")
    args = parser.parse_args(argv)
    if args.command == "write":
        from .files import write_output

        write_output(ROOT / MANIFEST, orjson.dumps(build(), option=orjson.OPT_INDENT_2) + b"\n")
        return 0
    certify = f"{sys.executable} -m certify"
    todo = [r for r in records() if r["rebuild"] and (not args.files or r["file"] in args.files)]
    bad, start, done = 0, time.monotonic(), set()
    with tempfile.TemporaryDirectory() as tmp:
        for i, r in enumerate(todo):
            key = (r["cwd"], r["rebuild"])
            scratch = Path(tmp) / str(abs(hash(key)))
            if key in done and (scratch / _written(r)).exists():  # a partner already written
                why = None if (scratch / _written(r)).read_bytes() == (ROOT / r["file"]).read_bytes() else "other bytes"
            else:
                why = run(r, scratch, certify)
                done.add(key)
            print(f"[{i + 1}/{len(todo)}] {r['file']}: {'same bytes' if why is None else why}", file=sys.stderr, flush=True)
            bad += why is not None
    print(f"{len(todo) - bad} of {len(todo)} files rebuilt byte for byte in {time.monotonic() - start:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
