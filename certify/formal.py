"""Untrusted translation of certificates into the verified checker's simple format, and running it.

The verified checker (formal/: Coq definitions and proofs, extracted to OCaml) reads
whitespace-separated integers (formal/README.md). This module writes them from a strategy
certificate or a worst-case lower-bound proof. It is *not* part of the trusted core: a wrong
translation can make the verified checker refuse a good file or check another claim than the
file's, so the checker prints the claim it proved (game, D, histogram) and `certify verify
--formal` compares that line with the file's claims. Nothing in certify/verify*.py imports it.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


class Untranslatable(ValueError):
    """The file cannot be written in the simple format (its shape is wrong)."""


def load(path) -> dict:
    raw = Path(path).read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    try:
        doc = json.loads(raw)
    except (ValueError, RecursionError) as e:
        raise Untranslatable(f"not JSON ({e.__class__.__name__})") from None
    if not isinstance(doc, dict):
        raise Untranslatable("not a JSON object")
    return doc


def _int(x, what) -> int:
    if type(x) is not int or x < 0:
        raise Untranslatable(f"{what} is not a non-negative integer")
    return x


def game_of(doc) -> tuple[int, int, bool, bool]:
    g = doc.get("game")
    if not isinstance(g, dict):
        raise Untranslatable("no game")
    pegs, colors = _int(g.get("pegs"), "game.pegs"), _int(g.get("colors"), "game.colors")
    rep = g.get("repetition")
    fb = g.get("feedback", "black-white")
    if type(rep) is not bool or fb not in ("black-white", "black-only"):
        raise Untranslatable("game.repetition or game.feedback is malformed")
    if not 1 <= pegs <= 12 or not 1 <= colors <= 36:
        raise Untranslatable("game out of range")
    return pegs, colors, rep, fb == "black-only"


def _code(s, pegs, colors) -> list[int]:
    if not isinstance(s, str) or len(s) != pegs or any(ch not in DIGITS[:colors] for ch in s):
        raise Untranslatable(f"not a code of the game: {s!r:.40}")
    return [DIGITS.index(ch) for ch in s]


def _answer(key, pegs, black_only) -> tuple[int, int]:
    parts = key.split(",") if isinstance(key, str) else []
    if (len(parts) != (1 if black_only else 2)
            or not all(p.isdigit() and p.isascii() and str(int(p)) == p for p in parts)):
        raise Untranslatable(f"not an answer: {key!r:.40}")
    nums = [int(p) for p in parts]
    return nums[0], (0 if black_only else nums[1])


def strategy_text(doc) -> str:
    """The simple format of a strategy certificate: header, claims, then the tree in prefix order."""
    if doc.get("format") != "mastermind-strategy-certificate":
        raise Untranslatable("not a strategy certificate")
    pegs, colors, rep, black_only = game_of(doc)
    claims = doc.get("claims")
    if not isinstance(claims, dict):
        raise Untranslatable("no claims")
    depth = _int(claims.get("max_guesses"), "claims.max_guesses")
    secrets = _int(claims.get("secrets"), "claims.secrets")
    total = _int(claims.get("total_guesses"), "claims.total_guesses")
    hist = claims.get("histogram")
    if not isinstance(hist, dict) or depth < 1:
        raise Untranslatable("claims.histogram or max_guesses is malformed")
    counts = [0] * depth
    for key, n in hist.items():
        if not (key.isdigit() and key.isascii() and str(int(key)) == key and 1 <= int(key) <= depth):
            raise Untranslatable(f"histogram key {key!r:.20} is not a guess count 1..max_guesses")
        counts[int(key) - 1] = _int(n, "a histogram count")
        if n == 0:
            raise Untranslatable("a histogram count is 0 (zero counts are omitted)")
    out = ["mastermind-strategy", str(pegs), str(colors), str(int(rep)), str(int(black_only)),
           str(depth), " ".join(map(str, counts)), str(secrets), str(total)]
    stack = [doc.get("tree")]  # iterative: a deep tree must not exhaust Python's stack
    while stack:
        node = stack.pop()
        if isinstance(node, tuple):  # an answer written before its subtree
            out.append(f"{node[0]} {node[1]}")
            continue
        if not isinstance(node, dict) or set(node) - {"guess", "next"}:
            raise Untranslatable("a tree node is malformed")
        nxt = node.get("next", {})
        if not isinstance(nxt, dict) or ("next" in node and not nxt):
            raise Untranslatable("a node's next is malformed")
        out.append(" ".join(map(str, _code(node.get("guess"), pegs, colors))) + f" {len(nxt)}")
        for key, child in reversed(list(nxt.items())):
            stack.append(child)
            stack.append(_answer(key, pegs, black_only))
    return "\n".join(out) + "\n"


def binary() -> Path:
    """The extracted checker built by `make formal` (CERTIFY_FORMAL overrides the path)."""
    return Path(os.environ.get("CERTIFY_FORMAL") or Path(__file__).resolve().parent.parent / "build" / "formal" / "mmcheck")


def translate(path) -> str:
    doc = load(path)
    fmt = doc.get("format")
    if fmt == "mastermind-strategy-certificate":
        return strategy_text(doc)
    if fmt == "mastermind-lower-bound-certificate":
        from certify.formal_bound import bound_text  # noqa: PLC0415 (step 2; see below)
        return bound_text(doc)
    raise Untranslatable("neither a strategy certificate nor a lower-bound certificate")


def check_text(text: str, exe=None) -> tuple[int, str]:
    """Run the verified checker on simple-format text; (exit code, its output line)."""
    exe = Path(exe or binary())
    if not exe.exists():
        raise FileNotFoundError(f"{exe} is not built: run `make formal`")
    tmp = exe.parent / f"input-{os.getpid()}.txt"
    try:
        tmp.write_text(text)
        p = subprocess.run([str(exe), str(tmp)], capture_output=True, text=True)
    finally:
        tmp.unlink(missing_ok=True)
    return p.returncode, (p.stdout + p.stderr).strip().replace(str(tmp), "input")


def main(argv=None) -> int:
    """python -m certify.formal [--text] FILE: translate and check (or only print the translation)."""
    args = list(sys.argv[1:] if argv is None else argv)
    only_text = "--text" in args
    args = [a for a in args if a != "--text"]
    if len(args) != 1:
        print("usage: python -m certify.formal [--text] FILE", file=sys.stderr)
        return 2
    try:
        text = translate(args[0])
    except (Untranslatable, OSError) as e:
        print(f"refused: {args[0]}: {e}", file=sys.stderr)
        return 1 if isinstance(e, Untranslatable) else 2
    if only_text:
        sys.stdout.write(text)
        return 0
    code, line = check_text(text)
    print(line)
    return code


if __name__ == "__main__":
    sys.exit(main())
