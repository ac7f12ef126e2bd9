"""Independent verifier for Mastermind strategy certificates (format v1).

This module is the trusted core. It imports only the standard library (plus orjson
for fast --json output when present) and nothing from the rest of ``certify``: it
enumerates the game's codes itself and scores feedback with its own rule (mark the
exact matches, then match the remaining pegs one by one), which differs from the
builder's colour-count formula. It can run on its own::

    python certify/verify.py FILE [--max-guesses K] [--json]

It replays every secret of the game through the tree, top-down (each node splits the
secrets that reach it by their feedback), iteratively rather than recursively, and
checks the tree's shape and every claim. Exit status: 0 valid, 1 invalid, 2 unusable
(unreadable file, bad arguments).

Limits (docs/verifier-limits.md). Each is checked before the work it bounds, so no
input makes the verifier run out of memory, recurse without bound or run for ever:

* input size: at most 256 MiB (``MAX_BYTES``), counted after decompression; gzip is
  decompressed as a stream and cut off at the limit (no "zip bomb");
* game size: at most 1,000,000 codes (``MAX_CODES``), computed from pegs and colours
  before a single code is enumerated;
* tree depth: at most 256 guesses on any path (``MAX_DEPTH``); the walk is iterative
  and stops at the first node deeper than that, so the replay does at most
  ``MAX_DEPTH * MAX_CODES`` feedback computations;
* fields outside the tree: nested at most 32 levels, the document itself being level 1
  (``MAX_META_DEPTH``);
* numbers: integers of at most 100 digits (``MAX_INT_DIGITS``); NaN, Infinity and
  floats that overflow (1e999) are refused;
* JSON nesting: the standard parser recurses; it is given room for a ``MAX_DEPTH``
  tree (``2 * MAX_DEPTH + 2`` levels) plus a margin, and anything deeper is refused as
  "nested too deeply".
"""

from __future__ import annotations

import gzip
import io
import itertools
import json
import math
import os
import re
import stat
import sys
import zlib

FORMAT = "mastermind-strategy-certificate"
VERSION = 1
REPORT_VERSION = 1
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
#: Largest game the verifier enumerates (number of codes); larger ones are refused up front.
MAX_CODES = 1_000_000
#: Deepest tree accepted (guesses on one path); deeper trees are refused, not walked.
MAX_DEPTH = 256
#: Largest input accepted (bytes, read and after decompression).
MAX_BYTES = 256 << 20
#: Deepest nesting of the fields outside the tree (strategy params, generator...).
MAX_META_DEPTH = 32
#: Longest integer literal accepted (digits).
MAX_INT_DIGITS = 100
#: Nesting levels the JSON parser is given room for: a MAX_DEPTH tree plus a margin.
_PARSE_ROOM = 2 * MAX_DEPTH + 100

EXIT_VALID, EXIT_INVALID, EXIT_UNUSABLE = 0, 1, 2
_KEY = re.compile(r"(0|[1-9][0-9]{0,5}),(0|[1-9][0-9]{0,5})")
_COUNT = re.compile(r"[1-9][0-9]{0,5}")
_NODE_FIELDS = frozenset(("guess", "next"))

__all__ = ["Invalid", "Report", "codes", "feedback", "secret_depths", "verify_bytes",
           "verify_document", "verify_file", "main"]


class Invalid(Exception):
    """The certificate is wrong; the message says what and where."""


class _Dup(dict):
    """A JSON object that had a repeated key (kept so the error can name its place)."""

    duplicate = ""


def _pairs(pairs):
    d = dict(pairs)
    if len(d) != len(pairs):
        seen = set()
        d = _Dup(pairs)
        for k, _ in pairs:
            if k in seen:
                d.duplicate = k
                break
            seen.add(k)
    return d


def _no_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def _int(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > MAX_INT_DIGITS:
        raise ValueError(f"integer of {digits} digits (limit {MAX_INT_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    x = float(text)
    if not math.isfinite(x):
        raise ValueError(f"number {text[:20]}{'...' if len(text) > 20 else ''} is out of range")
    return x


def feedback(guess: str, secret: str) -> tuple[int, int]:
    """(black, white): exact matches first, then each remaining guess peg takes one
    remaining secret peg of its colour, if any is left."""
    black = 0
    rest_guess = []
    rest_secret = []
    for g, s in zip(guess, secret):
        if g == s:
            black += 1
        else:
            rest_guess.append(g)
            rest_secret.append(s)
    white = 0
    for g in rest_guess:
        if g in rest_secret:
            rest_secret.remove(g)
            white += 1
    return black, white


def codes(pegs: int, colors: int, repetition: bool) -> list[str]:
    """Every code of the game, in code order."""
    letters = ALPHABET[:colors]
    if repetition:
        return ["".join(t) for t in itertools.product(letters, repeat=pegs)]
    return ["".join(t) for t in itertools.permutations(letters, pegs)]


def _n_codes(pegs: int, colors: int, repetition: bool) -> int:
    if repetition:
        return colors**pegs
    n = 1
    for k in range(pegs):
        n *= colors - k
    return n


class Report:
    """Outcome of verifying one file."""

    def __init__(self, file: str) -> None:
        self.file = _display(file)
        self.status = EXIT_VALID
        self.error: str | None = None
        self.game: dict | None = None
        self.strategy: dict | None = None
        self.claims: dict | None = None
        self.replayed: dict | None = None
        self.max_guesses_bound: int | None = None
        #: The parsed document that was verified (only when asked for with ``keep``), so that a
        #: command uses exactly what the verifier checked.
        self.document: dict | None = None

    @property
    def valid(self) -> bool:
        return self.status == EXIT_VALID

    def __repr__(self) -> str:
        return f"<Report {self.file!r} status={self.status} error={self.error!r}>"

    def to_json(self) -> dict:
        return {
            "file": self.file,
            "valid": self.valid,
            "status": ("valid", "invalid", "unusable")[self.status],
            "exit_code": self.status,
            "error": self.error,
            "game": self.game,
            "strategy": self.strategy,
            "claims": self.claims,
            "replayed": self.replayed,
            "max_guesses_bound": self.max_guesses_bound,
        }

    def line(self) -> str:
        """One human line."""
        if self.valid:
            r = self.replayed
            g = self.game
            rep = "" if g["repetition"] else " without repetition"
            bound = "" if self.max_guesses_bound is None else f" (<= {self.max_guesses_bound} as asked)"
            return (f"{self.file}: valid: {r['secrets']} secrets of {g['pegs']}x{g['colors']}{rep}, "
                    f"max {r['max_guesses']} guesses{bound}, total {r['total_guesses']}")
        kind = "invalid" if self.status == EXIT_INVALID else "unusable"
        return f"{self.file}: {kind}: {self.error}"


def _typename(x) -> str:
    return {dict: "object", _Dup: "object", list: "array", str: "string", bool: "boolean",
            int: "integer", float: "number", type(None): "null"}.get(type(x), type(x).__name__)


def _need(obj, key: str, kind, where: str):
    if key not in obj:
        raise Invalid(f"{where}: missing field {key!r}")
    value = obj[key]
    field = key if where == "top level" else f"{where}.{key}"
    if type(value) is not kind and not (kind is dict and type(value) is _Dup):
        want = _typename(kind())
        raise Invalid(f"{field}: expected {want}, got {_what(value)}")
    if type(value) is _Dup:
        raise Invalid(f"{field}: duplicate key {_short(value.duplicate)}")
    return value


def _short(x) -> str:
    """A short, printable, one-line picture of an input value (never the whole of a big one)."""
    t = type(x)
    if t is dict or t is _Dup:
        return "{...}" if x else "{}"
    if t is list:
        return "[...]" if x else "[]"
    if t is str and len(x) > 40:
        x = x[:40]
    s = repr(x)
    return s if len(s) <= 40 else s[:37] + "..."


def _what(x) -> str:
    """Type and (for a scalar) value: "integer 3", "string '3'", "null", "array"."""
    t = type(x)
    if x is None or t is dict or t is _Dup or t is list:
        return _typename(x)
    return f"{_typename(x)} {_short(x)}"


def _display(path) -> str:
    """A file name fit to print on one line (undecodable bytes and control characters escaped)."""
    try:
        name = os.fsdecode(path)
    except (TypeError, ValueError):
        name = repr(path)
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in name)


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _field(where: str, key: str) -> str:
    if _NAME.fullmatch(key):
        return f"{where}.{key}" if where else key
    return f"{where}[{_short(key)}]"


def _check_text(s: str, where: str) -> None:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise Invalid(f"{where}: string {_short(s)} is not valid Unicode (lone surrogate)") from None


def _check_meta(doc: dict) -> None:
    """Fields outside the tree: no duplicate key, no lone surrogate, not nested too deeply.

    (The tree is checked node by node by the replay; the header fields by _check_header.)
    """
    stack = []
    for key, value in doc.items():
        _check_text(key, "top level")
        if key != "tree":
            stack.append((value, _field("", key), 1))
    while stack:
        value, where, depth = stack.pop()
        t = type(value)
        if t is str:
            _check_text(value, where)
            continue
        if t is not dict and t is not list and t is not _Dup:
            continue
        if depth >= MAX_META_DEPTH:
            raise Invalid(f"{where}: nested more than {MAX_META_DEPTH} levels deep")
        if t is _Dup:
            raise Invalid(f"{where}: duplicate key {_short(value.duplicate)}")
        if t is dict:
            for key, item in value.items():
                _check_text(key, where)
                stack.append((item, _field(where, key), depth + 1))
        else:
            for i, item in enumerate(value):
                stack.append((item, f"{where}[{i}]", depth + 1))


def _only(obj: dict, allowed, where: str) -> None:
    extra = sorted(set(obj) - set(allowed))
    if extra:
        raise Invalid(f"{where}: unknown field {_short(extra[0])}")


def _gunzip(raw: bytes) -> bytes:
    """Decompress gzip data (several members allowed), reading at most MAX_BYTES + 1 bytes."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(raw)) as f:
            data = f.read(MAX_BYTES + 1)
    except (OSError, EOFError, zlib.error) as e:
        raise Invalid(f"corrupt gzip data ({_one_line(e)})") from None
    if len(data) > MAX_BYTES:
        raise Invalid(f"gzip data decompresses to more than {MAX_BYTES} bytes (the limit)")
    return data


def _one_line(e) -> str:
    return " ".join(str(e).split()) or type(e).__name__


def _stack_depth() -> int:
    frame, n = sys._getframe(), 0
    while frame is not None:
        frame, n = frame.f_back, n + 1
    return n


def _parse(raw: bytes):
    if len(raw) > MAX_BYTES:
        raise Invalid(f"file larger than {MAX_BYTES} bytes (the limit)")
    if raw[:2] == b"\x1f\x8b":
        raw = _gunzip(raw)
    if not raw.strip():
        raise Invalid("empty file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Invalid(f"not UTF-8 text (byte {e.start})") from None
    # The parser recurses once per nesting level: make sure a MAX_DEPTH tree fits whatever
    # the caller's own stack depth; deeper input still ends in RecursionError, caught below.
    old = sys.getrecursionlimit()
    need = _stack_depth() + _PARSE_ROOM
    if need > old:
        sys.setrecursionlimit(need)
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_constant=_no_constant,
                          parse_int=_int, parse_float=_float)
    except RecursionError:
        raise Invalid("JSON nested too deeply") from None
    except json.JSONDecodeError as e:
        raise Invalid(f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except ValueError as e:  # NaN/Infinity, numbers out of range
        raise Invalid(f"not valid JSON: {_one_line(e)}") from None
    finally:
        if need > old:
            sys.setrecursionlimit(old)


def _check_header(doc, report: Report):
    if type(doc) is _Dup:
        raise Invalid(f"top level: duplicate key {_short(doc.duplicate)}")
    if type(doc) is not dict:
        raise Invalid(f"top level: expected object, got {_typename(doc)}")
    fmt = _need(doc, "format", str, "top level")
    if fmt != FORMAT:
        raise Invalid(f"format: expected {FORMAT!r}, got {_short(fmt)}")
    version = _need(doc, "version", int, "top level")
    if version != VERSION:
        raise Invalid(f"version: this verifier reads version {VERSION}, got {_short(version)}")

    game = _need(doc, "game", dict, "top level")
    _only(game, ("pegs", "colors", "repetition"), "game")
    pegs = _need(game, "pegs", int, "game")
    colors = _need(game, "colors", int, "game")
    repetition = _need(game, "repetition", bool, "game")
    if pegs < 1:
        raise Invalid(f"game.pegs: must be >= 1, got {_short(pegs)}")
    if not 2 <= colors <= len(ALPHABET):
        raise Invalid(f"game.colors: must be from 2 to {len(ALPHABET)}, got {_short(colors)}")
    if not repetition and pegs > colors:
        raise Invalid(f"game: {_short(pegs)} pegs without repetition need at least as many colors, got {colors}")
    if pegs > 64 or _n_codes(pegs, colors, repetition) > MAX_CODES:
        size = "more than 10^100" if pegs > 64 else str(_n_codes(pegs, colors, repetition))
        raise Invalid(f"game: {size} codes is too many to enumerate (limit {MAX_CODES})")
    report.game = {"pegs": pegs, "colors": colors, "repetition": repetition}

    strategy = _need(doc, "strategy", dict, "top level")
    name = _need(strategy, "name", str, "strategy")
    params = _need(strategy, "params", dict, "strategy") if "params" in strategy else None
    if "reference" in strategy:
        _need(strategy, "reference", str, "strategy")

    claims = _need(doc, "claims", dict, "top level")
    _only(claims, ("secrets", "max_guesses", "total_guesses", "histogram"), "claims")
    for key in ("secrets", "max_guesses", "total_guesses"):
        if _need(claims, key, int, "claims") < 0:
            raise Invalid(f"claims.{key}: must not be negative")
    hist = _need(claims, "histogram", dict, "claims")
    for k, v in hist.items():
        if not _COUNT.fullmatch(k):
            raise Invalid(f"claims.histogram: key {_short(k)} is not a positive decimal number")
        if type(v) is not int or v < 1:
            raise Invalid(f"claims.histogram[{k!r}]: expected a positive integer, got {_short(v)}")
    report.claims = {
        "secrets": claims["secrets"],
        "max_guesses": claims["max_guesses"],
        "total_guesses": claims["total_guesses"],
        "histogram": {k: hist[k] for k in sorted(hist, key=int)},
    }
    tree = _need(doc, "tree", dict, "top level")
    _check_meta(doc)
    report.strategy = {"name": name} if params is None else {"name": name, "params": params}
    return pegs, colors, repetition, tree


def _path_text(path) -> str:
    """The guesses and feedbacks leading to a node (the middle of a very long path elided)."""
    steps = [f"{g} -({k})->" for g, k in path]
    if len(steps) > 16:
        steps[8:-4] = [f"[{len(steps) - 12} more steps]"]
    return " ".join(steps) or "root"


def _replay(tree: dict, pegs: int, colors: int, repetition: bool, found=None) -> dict[int, int]:
    """Walk all secrets down the tree; return {guesses: secrets found}. Raises Invalid.

    If ``found`` is a dict, it receives {secret: guesses} for every secret.
    """
    secrets = codes(pegs, colors, repetition)
    letters = set(ALPHABET[:colors])
    win = (pegs, 0)
    histogram: dict[int, int] = {}
    # Each entry: node, the secrets reaching it, the path to it [(guess, key), ...].
    stack = [(tree, secrets, ())]
    while stack:
        node, reaching, path = stack.pop()
        depth = len(path) + 1
        where = _path_text(path)
        if type(node) is _Dup:
            raise Invalid(f"at {where}: duplicate key {_short(node.duplicate)} in node")
        if type(node) is not dict:
            raise Invalid(f"at {where}: a node must be an object, got {_typename(node)}")
        _only(node, _NODE_FIELDS, f"at {where}: node")
        if depth > MAX_DEPTH:
            raise Invalid(f"at {where}: tree deeper than {MAX_DEPTH} guesses")
        if "guess" not in node:
            raise Invalid(f"at {where}: node has no 'guess'")
        guess = node["guess"]
        if type(guess) is not str:
            raise Invalid(f"at {where}: guess must be a string, got {_what(guess)}")
        if len(guess) != pegs:
            raise Invalid(f"at {where}: guess {_short(guess)} has {len(guess)} pegs, the game has {pegs}")
        bad = [ch for ch in guess if ch not in letters]
        if bad:
            raise Invalid(f"at {where}: guess {_short(guess)} uses {bad[0]!r}, not a colour of the game "
                          f"({ALPHABET[0]}..{ALPHABET[colors - 1]})")
        if not repetition and len(set(guess)) != pegs:
            raise Invalid(f"at {where}: guess {guess!r} repeats a colour in a game without repetition")

        groups: dict[tuple[int, int], list[str]] = {}
        for s in reaching:
            fb = feedback(guess, s)
            group = groups.get(fb)
            if group is None:
                groups[fb] = [s]
            else:
                group.append(s)
        if groups.pop(win, None) is not None:
            histogram[depth] = histogram.get(depth, 0) + 1
            if found is not None:
                found[guess] = depth

        branches = node.get("next")
        if branches is None and "next" not in node:
            if groups:
                fb = min(groups)
                raise Invalid(f"at {where} {guess}: missing branch {fb[0]},{fb[1]} "
                              f"(reached by secret {groups[fb][0]})")
            continue
        if type(branches) is _Dup:
            raise Invalid(f"at {where} {guess}: duplicate feedback key {_short(branches.duplicate)}")
        if type(branches) is not dict:
            raise Invalid(f"at {where} {guess}: 'next' must be an object, got {_typename(branches)}")
        if not branches:
            raise Invalid(f"at {where} {guess}: 'next' is empty (omit it when the guess ends the game)")
        seen = set()
        children = []
        for key, child in branches.items():
            m = _KEY.fullmatch(key)
            if not m:
                raise Invalid(f"at {where} {guess}: malformed feedback key {_short(key)} (expected 'B,W')")
            fb = (int(m.group(1)), int(m.group(2)))
            if fb == win:
                raise Invalid(f"at {where} {guess}: feedback key {key!r} is the win: it ends the game "
                              "and must not have a branch")
            if fb[0] + fb[1] > pegs or fb == (pegs - 1, 1):
                raise Invalid(f"at {where} {guess}: feedback key {key!r} is impossible with {pegs} pegs")
            if fb not in groups:
                raise Invalid(f"at {where} {guess}: branch {key} is unreachable: no secret reaching "
                              "this node gives that feedback")
            seen.add(fb)
            children.append((child, groups[fb], path + ((guess, key),)))
        missing = sorted(set(groups) - seen)
        if missing:
            fb = missing[0]
            raise Invalid(f"at {where} {guess}: missing branch {fb[0]},{fb[1]} "
                          f"(reached by secret {groups[fb][0]})")
        # Reverse so the first key is checked first and errors name the first bad path.
        stack.extend(reversed(children))
    return histogram


def _first_deepest(tree: dict, depth: int, pegs: int, colors: int, repetition: bool):
    """A (secret, path) that needs ``depth`` guesses, for error messages (tree already valid)."""
    stack = [(tree, codes(pegs, colors, repetition), ())]
    win = (pegs, 0)
    while stack:
        node, reaching, path = stack.pop()
        guess = node["guess"]
        if len(path) + 1 == depth and guess in reaching:
            return guess, path + ((guess, None),)
        groups: dict = {}
        for s in reaching:
            groups.setdefault(feedback(guess, s), []).append(s)
        groups.pop(win, None)
        for key, child in reversed(list(node.get("next", {}).items())):
            b, w = map(int, key.split(","))
            stack.append((child, groups[(b, w)], path + ((guess, key),)))
    return None, ()


def secret_depths(doc) -> dict[str, int]:
    """{secret: guesses it takes} for a parsed certificate; raises Invalid if the tree is wrong."""
    pegs, colors, repetition, tree = _check_header(doc, Report("<document>"))
    found: dict[str, int] = {}
    _replay(tree, pegs, colors, repetition, found)
    return found


def verify_document(doc, report: Report, max_guesses: int | None = None) -> Report:
    """Check a parsed document (as read by _parse); the outcome is recorded in ``report``."""
    try:
        pegs, colors, repetition, tree = _check_header(doc, report)
        histogram = _replay(tree, pegs, colors, repetition)
        hist = {str(k): histogram[k] for k in sorted(histogram)}
        replayed = {
            "secrets": sum(histogram.values()),
            "max_guesses": max(histogram),
            "total_guesses": sum(k * v for k, v in histogram.items()),
            "histogram": hist,
        }
        report.replayed = replayed
        for key in ("secrets", "max_guesses", "total_guesses"):
            if report.claims[key] != replayed[key]:
                raise Invalid(f"claims.{key}: claimed {report.claims[key]}, replay gives {replayed[key]}")
        if report.claims["histogram"] != hist:
            for k in sorted(set(hist) | set(report.claims["histogram"]), key=int):
                a, b = report.claims["histogram"].get(k, 0), hist.get(k, 0)
                if a != b:
                    raise Invalid(f"claims.histogram[{k!r}]: claimed {a}, replay gives {b}")
        if max_guesses is not None:
            report.max_guesses_bound = max_guesses
            if replayed["max_guesses"] > max_guesses:
                secret, path = _first_deepest(tree, replayed["max_guesses"], pegs, colors, repetition)
                shown = " ".join(f"{g} -({k})->" if k else g for g, k in path)
                raise Invalid(f"secret {secret} needs {replayed['max_guesses']} guesses, more than "
                              f"--max-guesses {max_guesses}: {shown}")
    except Invalid as e:
        report.status = EXIT_INVALID
        report.error = str(e)
    return report


def verify_bytes(raw: bytes, file: str = "<bytes>", max_guesses: int | None = None,
                 keep: bool = False) -> Report:
    """Verify a certificate given as bytes (plain or gzipped JSON). With ``keep``, a valid
    report holds the verified document in ``report.document``."""
    report = Report(file)
    try:
        doc = _parse(raw)
        del raw
        verify_document(doc, report, max_guesses)
        if keep and report.valid:
            report.document = doc
        return report
    except Invalid as e:
        report.status = EXIT_INVALID
        report.error = str(e)
    except MemoryError:
        report.status = EXIT_UNUSABLE
        report.error = "out of memory"
    return report


def verify_file(path: str, max_guesses: int | None = None, keep: bool = False) -> Report:
    """Verify a certificate file, read once. Unreadable files give status 2 (unusable).
    With ``keep``, a valid report holds the verified document in ``report.document``."""
    try:
        with open(path, "rb") as f:
            info = os.fstat(f.fileno())
            if stat.S_ISDIR(info.st_mode):
                raise IsADirectoryError(21, "Is a directory")
            if stat.S_ISREG(info.st_mode) and info.st_size > MAX_BYTES:
                report = Report(path)
                report.status = EXIT_INVALID
                report.error = f"file larger than {MAX_BYTES} bytes (the limit)"
                return report
            raw = f.read(MAX_BYTES + 1)
    except (OSError, ValueError) as e:  # ValueError: a NUL byte in the name
        report = Report(path)
        report.status = EXIT_UNUSABLE
        report.error = f"cannot read file: {_one_line(getattr(e, 'strerror', None) or e)}"
        return report
    return verify_bytes(raw, path, max_guesses, keep)


def reports_json(reports, max_guesses=None) -> bytes:
    doc = {"report_version": REPORT_VERSION, "tool": "certify.verify",
           "results": [r.to_json() for r in reports]}
    try:
        import orjson

        return orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n"
    except ImportError:
        pass
    except TypeError:  # orjson.JSONEncodeError: integers beyond 64 bits in strategy params
        pass
    return (json.dumps(doc, indent=2, ensure_ascii=True) + "\n").encode()


def run(files, max_guesses=None, as_json=False, out=None, err=None) -> int:
    """Verify files, print one line each (or a JSON report); return the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    reports = [verify_file(f, max_guesses) for f in files]
    status = max((r.status for r in reports), default=EXIT_VALID)
    try:
        if as_json:
            out.buffer.write(reports_json(reports)) if hasattr(out, "buffer") else out.write(
                reports_json(reports).decode())
            out.flush()
        else:
            for r in reports:
                print(r.line(), file=out if r.valid else err)
    except BrokenPipeError:  # the reader went away (| head): the exit status still tells
        for stream in (out, err):
            try:
                os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
            except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
                pass
    return status


def _positive(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def main(argv=None) -> int:
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message):
            print(f"{self.prog}: error: {message} (see --help)", file=sys.stderr)
            sys.exit(EXIT_UNUSABLE)

    parser = Parser(prog="verify", description="Independently verify Mastermind strategy certificates.")
    parser.add_argument("files", nargs="+", metavar="FILE")
    parser.add_argument("--max-guesses", type=_positive, metavar="K")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        return run(args.files, args.max_guesses, args.json)
    except KeyboardInterrupt:
        print("verify: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
