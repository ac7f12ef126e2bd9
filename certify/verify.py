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
* JSON nesting: at most ``_PARSE_ROOM`` levels (room for a ``MAX_DEPTH`` tree plus a
  margin); deeper input is refused as "JSON nested too deeply";
* memory: the JSON is read by the verifier's own tokenizer (below), which never builds Python
  objects for the tree or for unknown fields: the tree becomes five integer arrays (20 bytes a
  node), unknown fields are only scanned, and the header fields (``format``, ``version``,
  ``game``, ``strategy``, ``claims``) are built only when at most ``MAX_FIELD_BYTES`` long;
  objects have at most ``MAX_KEYS`` keys (the set that catches repeated keys stays small).
  Peak memory is therefore the input, about as much again for the tree, and the game's codes.
"""

from __future__ import annotations

import codecs
import gzip
import io
import itertools
import json
import math
import os
import re
import select
import stat
import sys
import zlib
from array import array

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
#: Nesting levels the JSON reader accepts: a MAX_DEPTH tree plus a margin.
_PARSE_ROOM = 2 * MAX_DEPTH + 100
#: Largest header field (format, version, game, strategy, claims), in bytes of JSON.
MAX_FIELD_BYTES = 64 << 10
#: Most keys in one JSON object.
MAX_KEYS = 10_000
_HEADER = ("format", "version", "game", "strategy", "claims")

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
        self.header: dict = {}  # the header fields as read (format, version, game, strategy, claims)

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
    if type(x) is _Container:
        return x.kind
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
    if t is _Container:
        return "{...}" if x.kind == "object" else "[...]"
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
    if x is None or t is dict or t is _Dup or t is list or t is _Container:
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


def _check_meta(header: dict, doc: "_Doc") -> None:
    """Fields outside the tree: no duplicate key, no lone surrogate, not nested too deeply.

    The header fields (small, built) are scanned here; every other field was checked while it
    was read (``doc.meta_error``); the tree is checked node by node by the replay.
    """
    stack = [(value, _field("", key), 1) for key, value in header.items()]
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
    if doc.meta_error is not None:
        raise Invalid(doc.meta_error)


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


# -- reading the JSON ---------------------------------------------------------------------
#
# The standard json module builds a Python object for every value (a tree node costs ~300
# bytes, an empty list in an unknown field ~60), so memory would grow to tens of times the
# input. The reader below is a tokenizer and an explicit stack instead: the tree becomes five
# integer arrays, other values are only checked, and only the small header fields are built.

_TOKEN = re.compile(
    rb'[ \t\n\r]*(?:'
    rb'([][{}:,])'                                                  # 1 punctuation
    rb'|("(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*")'  # 2 string
    rb'(?:[ \t\n\r]*(:))?'                                          # 3 ':' after it: a key
    rb'|(-?(?:0|[1-9][0-9]*))((?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)'  # 4 integer part, 5 the rest
    rb'|(true|false|null)'                                          # 6 literal
    rb'|(NaN|-?Infinity)'                                           # 7 not JSON: named in the error
    rb')')
_SPACE = re.compile(rb'[ \t\n\r]*')
# The usual shape of a branch, read in one step: a feedback key, then a node that is a leaf
# (``"1,2":{"guess":"0123"}``, group 3 absent) or opens its branches (``... ,"next":{``).
_BRANCH = re.compile(rb'[ \t\n\r]*("[0-9]+,[0-9]+")[ \t\n\r]*:[ \t\n\r]*\{[ \t\n\r]*"guess"[ \t\n\r]*:'
                     rb'[ \t\n\r]*("[0-9a-z]*")[ \t\n\r]*(?:\}|(,[ \t\n\r]*"next"[ \t\n\r]*:[ \t\n\r]*\{))')
# Many plain values in an array outside the tree, read in one step: each a small integer, a
# string without escapes, commas or brackets, a literal, an empty container or a flat array of
# those, followed by a comma (the last value before ']' takes the general path). Without it a
# long array of small numbers costs a loop turn per token (minutes for 64 MiB).
_W = rb'[ \t\n\r]*'
_PLAIN = (rb'(?:-?(?:0|[1-9][0-9]{0,%d})(?![0-9.eE])|"[^"\\\x00-\x1f,\[\]]*"|true|false|null)'
          % (MAX_INT_DIGITS - 1))
_RUN = re.compile(rb'(?:' + _W + rb'(?:' + _PLAIN + rb'|\{' + _W + rb'\}|\[' + _W + rb'(?:' + _PLAIN
                  + rb'(?:' + _W + rb',' + _W + _PLAIN + rb')*' + _W + rb')?\])' + _W + rb',){1,4096}')
_INNER = re.compile(rb'\[[^\]]*\]')
_LONE = re.compile(rb'\\u[dD][89a-fA-F]')  # an escaped surrogate: maybe a lone one
_PUNCT, _STRING, _KEY_TOKEN, _NUMBER, _LITERAL, _CONSTANT = 1, 2, 3, 5, 6, 7
# What a value is for, from where it stands: the document, a header field, another top-level
# field ("meta", checked with its path), a tree node, a node's 'next', a guess, anything else.
_DOC, _HEAD, _META, _NODE, _NEXT, _GUESS, _JUNK = range(7)
_KIND = {ord("{"): "object", ord("["): "array", ord('"'): "string", ord("t"): "boolean",
         ord("f"): "boolean", ord("n"): "null"}


class _Frame:
    """An open object or array."""

    __slots__ = ("is_object", "role", "state", "key", "keys", "node", "last", "where", "index", "start")

    def __init__(self, is_object, role, node=-1, where=""):
        self.is_object = is_object
        self.role = role
        # object: 0 key or '}', 2 value, 3 ',' or '}', 4 key; array: 0 value or ']', 2 value, 3 ',' or ']'
        self.state = 0
        self.key = None
        self.keys = set() if is_object and role in (_DOC, _META, _NODE, _NEXT) else None
        self.node = node  # _NODE: its id; _NEXT: the id of the node it belongs to
        self.last = -1  # _NEXT: the child read last
        self.where = where  # _META: the path shown in errors
        self.index = 0  # arrays: the item being read
        self.start = -1  # _DOC: where the current field's value starts


class _Doc:
    """What the reader keeps of a document: the bytes, the header fields' spans, the tree as
    arrays indexed by node id (ids in document order, which is the replay's order), and the
    first problem seen where the replay will look for it."""

    def __init__(self, buf: bytes) -> None:
        self.buf = buf
        self.kind = "object"  # of the top-level value
        self.duplicate = None  # a repeated top-level key
        self.fields = {}  # header field -> (start, end) of its JSON text
        self.keys = []  # top-level keys, in order
        self.tree_at = -1  # where the tree's value starts
        self.meta_error = None  # first problem in a field outside the header and the tree
        # Per node: where its guess's value starts, where its 'next' value starts, its first
        # child, its next sibling, where its feedback key (in its parent's 'next') starts.
        self.guess, self.next, self.child, self.sibling, self.key = (array("i") for _ in range(5))
        # The first node with a problem found while reading (an early one is checked before the
        # node's guess, a late one, a repeated feedback key, where its branches are), or -1.
        self.bad_node, self.early, self.early_rank, self.late = -1, None, 9, None

    def add_node(self, key_at: int) -> int:
        for column in (self.guess, self.next, self.child, self.sibling):
            column.append(-1)
        self.key.append(key_at)
        return len(self.key) - 1

    def problem(self, node: int, text: str, rank: int) -> None:
        """Remember a node's problem if it comes first (lower node id, then lower rank)."""
        if self.bad_node != -1 and node > self.bad_node:
            return
        if node != self.bad_node:
            self.bad_node, self.early, self.early_rank, self.late = node, None, 9, None
        if rank < 0:
            self.late = self.late or text
        elif rank < self.early_rank:
            self.early, self.early_rank = text, rank

    def string(self, at: int) -> str:
        """The string whose token starts at ``at``."""
        token = _TOKEN.match(self.buf, at).group(_STRING)
        return _decode_string(token)

    def value(self, at: int):
        """The scalar at ``at`` (a string, number, boolean or null), or its type's name for an
        object or array (never built: it may be huge)."""
        first = self.buf[at]
        if first in (ord("{"), ord("[")):
            return _Container(_KIND[first])
        m = _TOKEN.match(self.buf, at)
        kind = m.lastindex
        if kind == _STRING:
            return _decode_string(m.group(_STRING))
        if kind == _NUMBER:
            return _number(m.group(4), m.group(5))
        return {b"true": True, b"false": False, b"null": None}[m.group(_LITERAL)]


class _Container:
    """An object or array inside the tree, known by its type only."""

    def __init__(self, kind: str) -> None:
        self.kind = kind


def _decode_string(token: bytes) -> str:
    if b"\\" not in token:
        return token[1:-1].decode("utf-8")
    return json.loads(token)


def _number(integer: bytes, rest: bytes):
    if not rest:
        digits = len(integer) - integer.startswith(b"-")
        if digits > MAX_INT_DIGITS:
            raise Invalid(f"not valid JSON: integer of {digits} digits (limit {MAX_INT_DIGITS})")
        return int(integer)
    text = (integer + rest).decode()
    x = float(text)
    if not math.isfinite(x):
        raise Invalid(f"not valid JSON: number {text[:20]}{'...' if len(text) > 20 else ''} is out of range")
    return x


def _syntax(buf: bytes, pos: int, what: str):
    """Invalid: a JSON syntax error at byte ``pos``, with its line and column (in characters)."""
    line = buf.count(b"\n", 0, pos) + 1
    start = buf.rfind(b"\n", 0, pos) + 1
    column = len(buf[start:pos].decode("utf-8", "replace")) + 1
    return Invalid(f"not valid JSON: {what} at line {line} column {column}")


def _check_utf8(buf: bytes) -> None:
    """Refuse bytes that are not UTF-8, a piece at a time (no copy of the whole text)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    view = memoryview(buf)
    step = 1 << 20
    for lo in range(0, len(buf), step):
        try:
            decoder.decode(view[lo:lo + step], final=lo + step >= len(buf))
        except UnicodeDecodeError as e:
            raise Invalid(f"not UTF-8 text (byte {lo + e.start})") from None


def _parse(raw: bytes) -> _Doc:
    if len(raw) > MAX_BYTES:
        raise Invalid(f"file larger than {MAX_BYTES} bytes (the limit)")
    if raw[:2] == b"\x1f\x8b":
        raw = _gunzip(raw)
    if not raw.strip():
        raise Invalid("empty file")
    _check_utf8(raw)
    if raw.startswith(b"\xef\xbb\xbf"):
        raise Invalid("not valid JSON: Unexpected UTF-8 BOM (decode using utf-8-sig) at line 1 column 1")
    return _read(raw)


def _read(buf: bytes) -> _Doc:
    """One pass over the tokens with an explicit stack (see _Frame and _Doc)."""
    doc = _Doc(buf)
    match = _TOKEN.match
    stack: list[_Frame] = []
    pos, done = 0, False
    branch = _BRANCH.match
    while True:
        top = stack[-1] if stack else None
        if top is not None and top.role == _NEXT and top.state in (0, 4) and len(stack) + 2 < _PARSE_ROOM:
            m = branch(buf, pos)
            if m is not None:  # the same as token by token, in one step
                _key(doc, top, m.group(1), m.start(1))
                top.state = 3
                node = _role(doc, top, m.start(1), "object")[1]
                doc.guess[node] = m.start(2)
                pos = m.end()
                if m.group(3):
                    frame = _Frame(True, _NODE, node)
                    frame.keys.update(("guess", "next"))
                    frame.key, frame.state = "next", 3
                    doc.next[node] = m.end() - 1
                    stack.append(frame)
                    stack.append(_Frame(True, _NEXT, node))
                continue
        if (top is not None and not top.is_object and top.state in (0, 2)
                and top.role in (_META, _JUNK, _HEAD) and len(stack) + 1 < MAX_META_DEPTH):
            m = _RUN.match(buf, pos)
            if m is not None:  # the same as token by token, in one step
                run = m.group()
                top.index += run.count(b",") - sum(x.count(b",") for x in _INNER.findall(run))
                top.state = 2
                pos = m.end()
                continue
        m = match(buf, pos)
        if m is None:
            at = _SPACE.match(buf, pos).end()
            if at == len(buf) and done:
                return doc
            if done:
                raise _syntax(buf, at, "Extra data")
            what = "Unterminated string or invalid character in it" if buf[at:at + 1] == b'"' else "Expecting value"
            raise _syntax(buf, at, what)
        kind = m.lastindex
        start = m.start(4 if kind == _NUMBER else 2 if kind == _KEY_TOKEN else kind)
        pos = m.end()
        if done:
            raise _syntax(buf, start, "Extra data")
        char = buf[start]

        if kind == _PUNCT:
            if char in b"}]":
                if top is None or top.is_object != (char == ord("}")) or top.state not in (0, 3):
                    raise _syntax(buf, start, _closing_error(top))
                stack.pop()
                done = _end_value(doc, stack, pos)
                continue
            if char == ord(","):
                if top is None or top.state != 3:
                    raise _syntax(buf, start, "Expecting value")
                top.state = 4 if top.is_object else 2
                if not top.is_object:
                    top.index += 1
                continue
            if char == ord(":"):  # (a key's ':' is read with the key)
                raise _syntax(buf, start, _closing_error(top))
            # '{' or '[': a value that opens a container
        elif kind == _CONSTANT:
            raise Invalid(f"not valid JSON: {m.group(kind).decode()} is not a JSON number")

        if top is not None and top.is_object and top.state in (0, 4):  # a key is expected
            if kind != _KEY_TOKEN:
                raise _syntax(buf, start, "Expecting ':' delimiter" if kind == _STRING
                              else "Expecting property name enclosed in double quotes")
            _key(doc, top, m.group(_STRING), start)
            top.state = 2
            continue
        if kind == _KEY_TOKEN:  # a string and a ':' where no key can be
            raise _syntax(buf, m.start(3), "Expecting ',' delimiter")
        if top is not None and top.state not in (0, 2):
            raise _syntax(buf, start, "Expecting ',' delimiter")

        # A value starts here: what is it for?
        if kind == _PUNCT:
            vkind = "object" if char == ord("{") else "array"
        elif kind == _NUMBER:
            vkind = "number" if m.group(5) else "integer"
        else:
            vkind = _KIND[char]
        role, node, where = _role(doc, top, start, vkind)
        if kind == _PUNCT:  # '{' or '['
            if len(stack) >= _PARSE_ROOM:
                raise Invalid("JSON nested too deeply")
            is_object = vkind == "object"
            if role == _META and len(stack) >= MAX_META_DEPTH and doc.meta_error is None:
                doc.meta_error = f"{where}: nested more than {MAX_META_DEPTH} levels deep"
            if role == _GUESS or not is_object and role in (_NODE, _NEXT):
                role = _JUNK
            if top is not None:
                top.state = 3
            stack.append(_Frame(is_object, role, node, where))
            continue
        # A scalar.
        if kind == _NUMBER:
            _number(m.group(4), m.group(5))
        elif kind == _STRING and role == _META and _LONE.search(m.group(_STRING)):
            _meta_check(doc, _decode_string(m.group(_STRING)), where)
        if top is not None:
            top.state = 3
        done = _end_value(doc, stack, pos)


def _closing_error(top) -> str:
    """What was expected where a '}' or ']' does not fit."""
    if top is None or top.state == 2:
        return "Expecting value"
    if top.is_object and top.state == 4:
        return "Expecting property name enclosed in double quotes"
    return "Expecting ',' delimiter"


def _meta_check(doc: _Doc, s: str, where: str) -> None:
    if doc.meta_error is None:
        try:
            _check_text(s, where)
        except Invalid as e:
            doc.meta_error = str(e)


def _key(doc: _Doc, frame: _Frame, token: bytes, at: int) -> None:
    """A key was read in an object: remember it, catch repeats and unknown node fields."""
    key = _decode_string(token)
    frame.key = key
    role = frame.role
    if frame.keys is None:
        return
    if len(frame.keys) >= MAX_KEYS and key not in frame.keys:
        where = {_DOC: "top level", _META: frame.where}.get(role, "tree")
        raise Invalid(f"{where}: an object with more than {MAX_KEYS} keys (the limit)")
    repeated = key in frame.keys
    frame.keys.add(key)
    if role == _DOC:
        doc.keys.append(key)
        _meta_check(doc, key, "top level")
        if repeated and doc.duplicate is None:
            doc.duplicate = key
    elif role == _META:
        _meta_check(doc, key, frame.where)
        if repeated and doc.meta_error is None:
            doc.meta_error = f"{frame.where}: duplicate key {_short(key)}"
    elif role == _NODE:
        if repeated:
            doc.problem(frame.node, f"duplicate key {_short(key)} in node", 0)
        elif key not in _NODE_FIELDS:
            doc.problem(frame.node, f"node: unknown field {_short(key)}", 2)
    elif role == _NEXT:
        if repeated:
            doc.problem(frame.node, f"duplicate feedback key {_short(key)}", -1)
        frame.start = at  # the child about to be read is stored with its key's position


def _role(doc: _Doc, top, at: int, kind: str):
    """(role, node id, path) of a value of type ``kind`` starting at byte ``at`` inside ``top``."""
    if top is None:
        doc.kind = kind
        return (_DOC if kind == "object" else _JUNK), -1, ""
    role = top.role
    if role == _DOC:
        key = top.key
        top.start = at
        if key == "tree":
            doc.tree_at = at
            if kind == "object":
                return _NODE, doc.add_node(-1), ""
            return _JUNK, -1, ""
        if key in _HEADER:
            return _HEAD, -1, ""
        return _META, -1, _field("", key)
    if role == _META:
        return _META, -1, _field(top.where, top.key) if top.is_object else f"{top.where}[{top.index}]"
    if role == _NODE:
        if top.key == "guess":
            doc.guess[top.node] = at
            return _GUESS, -1, ""
        if top.key == "next":
            doc.next[top.node] = at
            return _NEXT, top.node, ""
        return _JUNK, -1, ""
    if role == _NEXT:
        node = doc.add_node(top.start)
        parent = top.node
        if top.last == -1:
            doc.child[parent] = node
        else:
            doc.sibling[top.last] = node
        top.last = node
        if kind != "object":
            doc.problem(node, f"a node must be an object, got {kind}", 1)
        return _NODE, node, ""
    return role, -1, ""  # inside a header field or anything else: more of the same


def _end_value(doc: _Doc, stack, end: int) -> bool:
    """A value ended at ``end``; True when it was the document itself."""
    if not stack:
        return True
    top = stack[-1]
    if top.role == _DOC and top.key in _HEADER and top.start >= 0:
        doc.fields.setdefault(top.key, (top.start, end))
    return False


def _header(doc: _Doc) -> dict:
    """The header fields, built (each at most MAX_FIELD_BYTES of JSON), in document order."""
    out = _Dup() if doc.duplicate is not None else {}
    if doc.duplicate is not None:
        out.duplicate = doc.duplicate
    for key in doc.keys:
        if key not in doc.fields or key in out:
            continue
        start, end = doc.fields[key]
        if end - start > MAX_FIELD_BYTES:
            raise Invalid(f"{key}: more than {MAX_FIELD_BYTES} bytes of JSON (the limit for this field)")
        out[key] = json.loads(doc.buf[start:end], object_pairs_hook=_pairs, parse_int=_int,
                              parse_float=_float)
    if doc.tree_at >= 0:
        out["tree"] = doc.value(doc.tree_at)
    return out


def _check_header(doc: _Doc, report: Report):
    if doc.kind != "object":
        raise Invalid(f"top level: expected object, got {doc.kind}")
    header = _header(doc)
    if type(header) is _Dup:
        raise Invalid(f"top level: duplicate key {_short(header.duplicate)}")
    meta = {k: v for k, v in header.items() if k != "tree"}
    doc_fields = header
    fmt = _need(doc_fields, "format", str, "top level")
    if fmt != FORMAT:
        raise Invalid(f"format: expected {FORMAT!r}, got {_short(fmt)}")
    version = _need(doc_fields, "version", int, "top level")
    if version != VERSION:
        raise Invalid(f"version: this verifier reads version {VERSION}, got {_short(version)}")

    game = _need(doc_fields, "game", dict, "top level")
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
        # beyond 64 pegs the exact number is not worth computing (pegs may have 100 digits)
        # (c^p >= 10^floor(p log10 c); past 1000 pegs that floor is for 1000 pegs, still true)
        size = (f"more than 10^{math.floor(min(pegs, 1000) * math.log10(colors))}" if pegs > 64
                else str(_n_codes(pegs, colors, repetition)))
        raise Invalid(f"game: {size} codes is too many to enumerate (limit {MAX_CODES})")
    report.game = {"pegs": pegs, "colors": colors, "repetition": repetition}

    strategy = _need(doc_fields, "strategy", dict, "top level")
    name = _need(strategy, "name", str, "strategy")
    params = _need(strategy, "params", dict, "strategy") if "params" in strategy else None
    if "reference" in strategy:
        _need(strategy, "reference", str, "strategy")

    claims = _need(doc_fields, "claims", dict, "top level")
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
    if "tree" not in doc_fields:
        raise Invalid("top level: missing field 'tree'")
    if type(doc_fields["tree"]) is not _Container or doc_fields["tree"].kind != "object":
        raise Invalid(f"tree: expected object, got {_what(doc_fields['tree'])}")
    _check_meta(meta, doc)
    report.strategy = {"name": name} if params is None else {"name": name, "params": params}
    report.header = meta
    return pegs, colors, repetition


def _path_text(path) -> str:
    """The guesses and feedbacks leading to a node (the middle of a very long path elided)."""
    steps = [f"{g} -({k})->" for g, k in path]
    if len(steps) > 16:
        steps[8:-4] = [f"[{len(steps) - 12} more steps]"]
    return " ".join(steps) or "root"


def _replay(doc: _Doc, pegs: int, colors: int, repetition: bool, found=None) -> dict[int, int]:
    """Walk all secrets down the tree; return {guesses: secrets found}. Raises Invalid.

    If ``found`` is a dict, it receives {secret: guesses} for every secret.
    """
    secrets = codes(pegs, colors, repetition)
    letters = set(ALPHABET[:colors])
    win = (pegs, 0)
    histogram: dict[int, int] = {}
    buf, guess_at, next_at, first, sibling, key_at = (doc.buf, doc.guess, doc.next, doc.child,
                                                      doc.sibling, doc.key)
    # Each entry: node id, the secrets reaching it, the path to it [(guess, key), ...].
    stack = [(0, secrets, ())]
    while stack:
        node, reaching, path = stack.pop()
        depth = len(path) + 1
        where = _path_text(path)
        if node == doc.bad_node and doc.early is not None:
            raise Invalid(f"at {where}: {doc.early}")
        if depth > MAX_DEPTH:
            raise Invalid(f"at {where}: tree deeper than {MAX_DEPTH} guesses")
        if guess_at[node] < 0:
            raise Invalid(f"at {where}: node has no 'guess'")
        guess = doc.value(guess_at[node])
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

        if next_at[node] < 0:
            if groups:
                fb = min(groups)
                raise Invalid(f"at {where} {guess}: missing branch {fb[0]},{fb[1]} "
                              f"(reached by secret {groups[fb][0]})")
            continue
        if node == doc.bad_node and doc.late is not None:
            raise Invalid(f"at {where} {guess}: {doc.late}")
        if buf[next_at[node]] != ord("{"):
            raise Invalid(f"at {where} {guess}: 'next' must be an object, "
                          f"got {_typename(doc.value(next_at[node]))}")
        if first[node] < 0:
            raise Invalid(f"at {where} {guess}: 'next' is empty (omit it when the guess ends the game)")
        seen = set()
        children = []
        child = first[node]
        while child >= 0:
            key = doc.string(key_at[child])
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
            child = sibling[child]
        missing = sorted(set(groups) - seen)
        if missing:
            fb = missing[0]
            raise Invalid(f"at {where} {guess}: missing branch {fb[0]},{fb[1]} "
                          f"(reached by secret {groups[fb][0]})")
        # Reverse so the first key is checked first and errors name the first bad path.
        stack.extend(reversed(children))
    return histogram


def _first_deepest(doc: _Doc, depth: int, pegs: int, colors: int, repetition: bool):
    """A (secret, path) that needs ``depth`` guesses, for error messages (tree already valid)."""
    stack = [(0, codes(pegs, colors, repetition), ())]
    win = (pegs, 0)
    while stack:
        node, reaching, path = stack.pop()
        guess = doc.string(doc.guess[node])
        if len(path) + 1 == depth and guess in reaching:
            return guess, path + ((guess, None),)
        groups: dict = {}
        for s in reaching:
            groups.setdefault(feedback(guess, s), []).append(s)
        groups.pop(win, None)
        children = []
        child = doc.child[node] if doc.next[node] >= 0 else -1
        while child >= 0:
            key = doc.string(doc.key[child])
            b, w = map(int, key.split(","))
            children.append((child, groups[(b, w)], path + ((guess, key),)))
            child = doc.sibling[child]
        stack.extend(reversed(children))
    return None, ()


def _tree(doc: _Doc) -> dict:
    """The (verified) tree as nested dicts ``{"guess": ..., "next": {...}}``, for the commands."""
    root: dict = {}
    stack = [(0, root)]
    while stack:
        node, out = stack.pop()
        out["guess"] = doc.string(doc.guess[node])
        if doc.next[node] >= 0:
            branches = out["next"] = {}
            child = doc.child[node]
            while child >= 0:
                branches[doc.string(doc.key[child])] = sub = {}
                stack.append((child, sub))
                child = doc.sibling[child]
    return root


def _encode(doc) -> bytes:
    """A parsed document (dicts and lists) as JSON bytes, for checking documents made in memory."""
    return json.dumps(doc, ensure_ascii=False).encode("utf-8", "surrogatepass")


def secret_depths(doc) -> dict[str, int]:
    """{secret: guesses it takes} for a certificate given as a dict; raises Invalid if it is wrong."""
    parsed = _parse(_encode(doc))
    pegs, colors, repetition = _check_header(parsed, Report("<document>"))
    found: dict[str, int] = {}
    _replay(parsed, pegs, colors, repetition, found)
    return found


def verify_document(doc, report: Report, max_guesses: int | None = None) -> Report:
    """Check a certificate given as a dict (made in memory); the outcome is recorded in ``report``."""
    try:
        raw = _encode(doc)
    except (TypeError, ValueError) as e:
        report.status, report.error = EXIT_INVALID, f"not a JSON document ({_one_line(e)})"
        return report
    return _verify(raw, report, max_guesses)


def _verify(raw: bytes, report: Report, max_guesses: int | None, keep: bool = False) -> Report:
    try:
        doc = _parse(raw)
        del raw
        pegs, colors, repetition = _check_header(doc, report)
        histogram = _replay(doc, pegs, colors, repetition)
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
                secret, path = _first_deepest(doc, replayed["max_guesses"], pegs, colors, repetition)
                shown = " ".join(f"{g} -({k})->" if k else g for g, k in path)
                raise Invalid(f"secret {secret} needs {replayed['max_guesses']} guesses, more than "
                              f"--max-guesses {max_guesses}: {shown}")
        if keep:
            report.document = dict(report.header, tree=_tree(doc))
    except Invalid as e:
        report.status = EXIT_INVALID
        report.error = str(e)
    except MemoryError:
        report.status = EXIT_UNUSABLE
        report.error = "out of memory"
    return report


def verify_bytes(raw: bytes, file: str = "<bytes>", max_guesses: int | None = None,
                 keep: bool = False) -> Report:
    """Verify a certificate given as bytes (plain or gzipped JSON). With ``keep``, a valid
    report holds the verified document in ``report.document`` (the tree as nested dicts)."""
    return _verify(raw, Report(file), max_guesses, keep)


class Unreadable(Exception):
    """The file cannot be read (missing, a directory, no permission...)."""


def read_input(path, on_wait=None) -> bytes:
    """The bytes of a file, read once, at most MAX_BYTES + 1 of them (larger is refused by the
    caller). A FIFO that gives nothing for a second makes ``on_wait(message)`` be called, then
    is waited for (Ctrl-C stops it). Raises Unreadable."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO with no writer must not block here
    except (OSError, ValueError) as e:  # ValueError: a NUL byte in the name
        raise Unreadable(_one_line(getattr(e, "strerror", None) or e)) from None
    info = os.fstat(fd)
    if stat.S_ISDIR(info.st_mode):
        os.close(fd)
        raise Unreadable("Is a directory")
    with os.fdopen(fd, "rb") as f:
        try:
            if stat.S_ISREG(info.st_mode) and info.st_size > MAX_BYTES:
                raise Invalid(f"file larger than {MAX_BYTES} bytes (the limit)")
            if stat.S_ISFIFO(info.st_mode) and not select.select([fd], [], [], 1.0)[0]:
                if on_wait is not None:
                    on_wait(f"{_display(path)}: waiting for data from the pipe (Ctrl-C to stop)")
                select.select([fd], [], [])
            os.set_blocking(fd, True)
            return f.read(MAX_BYTES + 1)
        except OSError as e:
            raise Unreadable(_one_line(e.strerror or e)) from None


def verify_file(path: str, max_guesses: int | None = None, keep: bool = False, on_wait=None) -> Report:
    """Verify a certificate file, read once. Unreadable files give status 2 (unusable).
    With ``keep``, a valid report holds the verified document in ``report.document``."""
    report = Report(path)
    try:
        raw = read_input(path, on_wait)
    except Unreadable as e:
        report.status, report.error = EXIT_UNUSABLE, f"cannot read file: {e}"
        return report
    except Invalid as e:
        report.status, report.error = EXIT_INVALID, str(e)
        return report
    return _verify(raw, report, max_guesses, keep)


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
    reports = [verify_file(f, max_guesses, on_wait=lambda note: print(note, file=err, flush=True))
               for f in files]
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
