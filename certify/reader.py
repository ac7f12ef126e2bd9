"""The trusted checkers' one reader: a file's bytes in, checked JSON pieces out (standard library only).

``verify.py``, ``verify_bound.py`` and ``verify_mixed.py`` read every file through this module and
share nothing else of their reading. It never builds a Python object for a value it was not asked
to build: it checks JSON with its own tokenizer and an explicit stack (no recursion), and hands
the checker the *spans* of the values it interprets. What it promises, each limit checked before
the work it bounds (docs/verifier-limits.md):

* bytes: a file of at most the checker's ``max_bytes`` (also after gzip decompression, which is a
  stream cut off at the limit: no "zip bomb"); UTF-8 without a byte order mark; one JSON value and
  nothing after it;
* JSON: no repeated key, no lone surrogate, no NaN or Infinity, integers of at most
  ``MAX_INT_DIGITS`` digits, strings of at most ``MAX_STRING`` bytes, objects of at most
  ``MAX_KEYS`` keys, nesting at most the caller's room;
* metadata (the top-level fields a checker does not interpret): at most ``MAX_META_BYTES`` bytes
  of JSON over all of them, nested at most ``MAX_META_DEPTH`` levels; checked, never built, so
  they cost time in proportion to at most 1 MiB and no memory;
* header fields (the few a checker builds, ``format``, ``game``, ``claims``...): at most
  ``MAX_FIELD_BYTES`` of JSON each, then built by ``build`` (the standard decoder with the rules
  above), so at most a few MB of objects.

The node data (a strategy's tree, a proof's nodes) is read by each checker itself from the spans
this module gives, into arrays it keeps: memory is then a small multiple of what the checker keeps.
"""

from __future__ import annotations

import codecs
import contextlib
import gzip
import io
import json
import math
import os
import re
import select
import stat
import zlib

#: Longest integer literal (digits), anywhere.
MAX_INT_DIGITS = 100
#: Longest string, in bytes of JSON (its quotes and escapes included), anywhere: the most a checker
#: ever decodes at once.
MAX_STRING = 1 << 20
#: Most keys in one JSON object.
MAX_KEYS = 10_000
#: Deepest nesting of metadata, the document itself being level 1.
MAX_META_DEPTH = 32
#: All metadata of a file together, in bytes of JSON.
MAX_META_BYTES = 1 << 20
#: One header field, in bytes of JSON.
MAX_FIELD_BYTES = 64 << 10
#: Nesting the tokenizer accepts outside the node data (room for any header and metadata).
ROOM = 612


class Invalid(ValueError):
    """The file is wrong; the message says what and where (one line)."""


class Limit(Exception):
    """The file is over a limit of the checker (codes, work): it was not checked, which is no
    verdict on it (status 2, unusable). ``option`` names the option that raises the limit
    (``--max-codes``, ``--max-work``; None for a ceiling no option passes), ``needed`` the least
    value that would pass this check when it is known."""

    def __init__(self, message: str, option: str | None = None, limit: int | None = None,
                 needed: int | None = None, enough: bool = True) -> None:
        super().__init__(message)
        self.option, self.limit, self.needed = option, limit, needed
        self.enough = enough  # ``needed`` passes the whole check (else only this one)

    def advice(self) -> str:
        """How to get the file checked, for the end of a message."""
        if self.option is None:
            return "not checked: the checker's ceiling, no option raises it"
        if self.needed is None:
            return f"not checked: {self.option} N with N > {self.limit} raises it"
        return f"not checked: {self.option} {self.needed}{'' if self.enough else ' or more'} raises it"


class SizeLimit(Limit, Invalid):
    """More bytes than the checker reads (the file, or its gzip data decompressed): not checked, no
    verdict (status 2, unusable). An Invalid too, so that a caller that refuses bad files refuses it."""


class Unreadable(Exception):
    """The file cannot be read (missing, a directory, no permission...)."""


# -- presentation: input values shown on one line, never whole ----------------------------------

class Dup(dict):
    """A JSON object that had a repeated key (kept so the error can name its place)."""

    duplicate = ""


class Span:
    """A value known by its type and place only (an object or array not built: it may be huge)."""

    __slots__ = ("kind", "start", "end")

    def __init__(self, kind: str, start: int = -1, end: int = -1) -> None:
        self.kind, self.start, self.end = kind, start, end


def typename(x) -> str:
    if type(x) is Span:
        return x.kind
    return {dict: "object", Dup: "object", list: "array", str: "string", bool: "boolean",
            int: "integer", float: "number", type(None): "null"}.get(type(x), type(x).__name__)


def short(x) -> str:
    """A short, printable, one-line picture of an input value (never the whole of a big one)."""
    t = type(x)
    if t is Span:
        return "{...}" if x.kind == "object" else "[...]"
    if t is dict or t is Dup:
        return "{...}" if x else "{}"
    if t is list:
        return "[...]" if x else "[]"
    if t is str and len(x) > 40:
        x = x[:40]
    s = repr(x)
    return s if len(s) <= 40 else s[:37] + "..."


def what(x) -> str:
    """Type and (for a scalar) value: "integer 3", "string '3'", "null", "array"."""
    t = type(x)
    if x is None or t in (dict, Dup, list, Span):
        return typename(x)
    return f"{typename(x)} {short(x)}"


def display(path) -> str:
    """A file name fit to print on one line (undecodable bytes and control characters escaped)."""
    if path == "-":
        return "standard input"
    try:
        name = os.fsdecode(path)
    except (TypeError, ValueError):
        name = repr(path)
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in name)


def one_line(e) -> str:
    return " ".join(str(e).split()) or type(e).__name__


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def field(where: str, key: str) -> str:
    """The path of member ``key`` of the object at ``where``: ``a.b``, or ``a['x y']``."""
    if _NAME.fullmatch(key):
        return f"{where}.{key}" if where else key
    return f"{where}[{short(key)}]"


# -- bytes ----------------------------------------------------------------------------------------

def read_input(path, max_bytes: int, on_wait=None) -> bytes:
    """The bytes of a file (``-``: standard input), read once, at most ``max_bytes`` + 1 of them (a
    regular file larger than that is refused by its size before it is read). A FIFO that gives nothing for a second
    makes ``on_wait(message)`` be called, then is waited for (Ctrl-C stops it). Raises Unreadable,
    or SizeLimit for a file over the limit."""
    try:
        if path == "-":  # standard input, read as a file is (a pipe waited for, the same limit)
            fd = os.dup(0)
            os.set_blocking(fd, False)
        else:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO with no writer must not block here
    except (OSError, ValueError) as e:  # ValueError: a NUL byte in the name
        raise Unreadable(one_line(getattr(e, "strerror", None) or e)) from None
    info = os.fstat(fd)
    if stat.S_ISDIR(info.st_mode):
        os.close(fd)
        raise Unreadable("Is a directory")
    with os.fdopen(fd, "rb") as f:
        try:
            if stat.S_ISREG(info.st_mode) and info.st_size > max_bytes:
                raise SizeLimit(f"file larger than {max_bytes} bytes (the limit)")
            if stat.S_ISFIFO(info.st_mode) and not select.select([fd], [], [], 1.0)[0]:
                if on_wait is not None:
                    on_wait(f"{display(path)}: waiting for data from the pipe (Ctrl-C to stop)")
                select.select([fd], [], [])
            os.set_blocking(fd, True)
            return f.read(max_bytes + 1)
        except OSError as e:
            raise Unreadable(one_line(e.strerror or e)) from None


def load(path, max_bytes: int, report, on_wait=None):
    """The bytes of a file (read_input), or None after recording why not in ``report``: status 2
    (unusable) and "cannot read file: ..." when it cannot be read, or when it is over the limit (not
checked)."""
    try:
        return read_input(path, max_bytes, on_wait)
    except Unreadable as e:
        report.status, report.error = 2, f"cannot read file: {e}"
    except SizeLimit as e:
        report.status, report.error = 2, f"{e}; {e.advice()}"
    except Invalid as e:
        report.status, report.error = 1, str(e)
    return None


def gunzip(raw: bytes, max_bytes: int) -> bytes:
    """gzip data decompressed (several members allowed), reading at most ``max_bytes`` + 1 bytes."""
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(raw)) as f:
            data = f.read(max_bytes + 1)
    except (OSError, EOFError, zlib.error) as e:
        raise Invalid(f"corrupt gzip data ({one_line(e)})") from None
    if len(data) > max_bytes:
        raise SizeLimit(f"gzip data decompresses to more than {max_bytes} bytes (the limit)")
    return data


def text(raw: bytes, max_bytes: int) -> bytes:
    """The JSON text of a file's bytes (plain or gzip, detected by its magic bytes), checked to be
    at most ``max_bytes``, not empty, UTF-8 without a byte order mark. Bytes, not str: byte
    offsets are the spans' unit."""
    if len(raw) > max_bytes:
        raise SizeLimit(f"file larger than {max_bytes} bytes (the limit)")
    if raw[:2] == b"\x1f\x8b":
        raw = gunzip(raw, max_bytes)
    if not raw.strip():
        raise Invalid("empty file")
    decoder = codecs.getincrementaldecoder("utf-8")()  # a piece at a time: no copy of the text
    view, step = memoryview(raw), 1 << 20
    for lo in range(0, len(raw), step):
        try:
            decoder.decode(view[lo:lo + step], final=lo + step >= len(raw))
        except UnicodeDecodeError as e:
            raise Invalid(f"not UTF-8 text (byte {lo + e.start})") from None
    if raw.startswith(b"\xef\xbb\xbf"):
        raise Invalid("not valid JSON: Unexpected UTF-8 BOM (decode using utf-8-sig) at line 1 column 1")
    return raw


# -- the JSON rules, for the values that are built ----------------------------------------------

def pairs(items):
    d = dict(items)
    if len(d) != len(items):
        seen = set()
        d = Dup(items)
        for k, _ in items:
            if k in seen:
                d.duplicate = k
                break
            seen.add(k)
    return d


def _no_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def _int(digits: str) -> int:
    count = len(digits) - digits.startswith("-")
    if count > MAX_INT_DIGITS:
        raise ValueError(f"integer of {count} digits (limit {MAX_INT_DIGITS})")
    return int(digits)


def _float(digits: str) -> float:
    x = float(digits)
    if not math.isfinite(x):
        raise ValueError(f"number {digits[:20]}{'...' if len(digits) > 20 else ''} is out of range")
    return x


#: The standard decoder with the rules: repeated keys kept for the error (Dup), integers of at most
#: MAX_INT_DIGITS digits, finite numbers only. Only for spans already checked by this module.
DECODER = json.JSONDecoder(object_pairs_hook=pairs, parse_int=_int, parse_float=_float,
                           parse_constant=_no_constant)


def encode(doc) -> bytes:
    """A document made in memory (dicts and lists) as JSON bytes, to be checked as a file's are."""
    return json.dumps(doc, ensure_ascii=False).encode("utf-8", "surrogatepass")


def encoded(doc, report):
    """encode(doc), or None after recording in ``report`` why it is not a JSON document (status 1)."""
    try:
        return encode(doc)
    except (TypeError, ValueError) as e:
        report.status, report.error = 1, f"not a JSON document ({one_line(e)})"
    return None


def build(buf: bytes, start: int, end: int):
    """The value of ``buf[start:end]``, a span this module checked (bounded: a header field)."""
    try:
        return DECODER.decode(buf[start:end].decode("utf-8", "surrogatepass"))
    except (ValueError, RecursionError) as e:  # (checked already: cannot happen)
        raise Invalid(f"not valid JSON: {one_line(e)}") from None


_NAMES = {dict: "object", list: "array", str: "string", int: "integer", bool: "boolean"}


def get(obj, key: str, kind, where: str = ""):
    """obj[key], which must exist and be of type ``kind`` (an object: with no repeated key)."""
    if key not in obj:
        raise Invalid(f"{where or 'top level'}: missing field {key!r}")
    return typed(obj[key], kind, f"{where}.{key}" if where else key)


def typed(value, kind, where: str):
    """``value``, which must be of type ``kind`` (booleans are not integers; an object with a
    repeated key is refused here)."""
    if not (type(value) is kind or kind is dict and type(value) is Dup):
        raise Invalid(f"{where}: expected {_NAMES[kind]}, got {what(value)}")
    if type(value) is Dup:
        raise Invalid(f"{where}: duplicate key {short(value.duplicate)}")
    return value


def only(obj: dict, allowed, where: str) -> None:
    """No field but ``allowed`` (the first other one, in document order, is named)."""
    extra = [k for k in obj if k not in allowed]
    if extra:
        raise Invalid(f"{where}: unknown field {short(extra[0])}")


def value(buf: bytes, start: int, end: int = -1):
    """The value of a span this module checked: built when a scalar (short: a string of at most
    MAX_STRING bytes, a number of at most MAX_INT_DIGITS digits; ``end`` found here when not given),
    its type and span (a Span) when an object or array, which may be huge."""
    kind = KIND.get(buf[start])
    if kind in ("object", "array"):
        return Span(kind, start, end)
    return build(buf, start, end if end >= 0 else TOKEN.match(buf, start).end())


def checked_object(fields: dict, repeated):
    """``fields`` as the object they were read from: a Dup naming its first repeated key, if any."""
    if repeated is None:
        return fields
    out = Dup(fields)
    out.duplicate = repeated
    return out


def check_text(s: str, where: str) -> None:
    """A decoded string must be valid Unicode (no lone surrogate from a \\ud800 escape)."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise Invalid(f"{where}: string {short(s)} is not valid Unicode (lone surrogate)") from None


# -- the tokenizer ----------------------------------------------------------------------------------

TOKEN = re.compile(
    rb'[ \t\n\r]*(?:'
    rb'([][{}:,])'                                                  # 1 punctuation
    rb'|("[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*")'  # 2 string (unrolled: linear)
    rb'(?:[ \t\n\r]*(:))?'                                          # 3 ':' after it: a key
    rb'|(-?(?:0|[1-9][0-9]*))((?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)'  # 4 integer part, 5 the rest
    rb'|(true|false|null)'                                          # 6 literal
    rb'|(NaN|-?Infinity)'                                           # 7 not JSON: named in the error
    rb')')
PUNCT, STRING, KEY, NUMBER, LITERAL, CONSTANT = 1, 2, 3, 5, 6, 7
SPACE = re.compile(rb'[ \t\n\r]*')
LONE = re.compile(rb'\\u[dD][89a-fA-F]')  # an escaped surrogate: maybe a lone one
KIND = {ord("{"): "object", ord("["): "array", ord('"'): "string", ord("t"): "boolean",
        ord("f"): "boolean", ord("n"): "null", ord("-"): "number"}
KIND.update((ord(d), "number") for d in "0123456789")
# Many plain values in an array, read in one step: each a small integer, a string without
# escapes, commas or brackets, a literal, an empty container or a flat array of those, followed
# by a comma (the last value before ']' takes the general path). Without it a long array of small
# numbers costs a loop turn per token.
_W = rb'[ \t\n\r]*'
_PLAIN = (rb'(?:-?(?:0|[1-9][0-9]{0,%d})(?![0-9.eE])|"[^"\\\x00-\x1f,\[\]]{0,%d}"|true|false|null)'
          % (MAX_INT_DIGITS - 1, MAX_STRING - 2))
RUN = re.compile(rb'(?:' + _W + rb'(?:' + _PLAIN + rb'|\{' + _W + rb'\}|\[' + _W + rb'(?:' + _PLAIN
                 + rb'(?:' + _W + rb',' + _W + _PLAIN + rb')*' + _W + rb')?\])' + _W + rb',){1,4096}')
_INNER = re.compile(rb'\[[^\]]*\]')


def place(buf: bytes, pos: int) -> str:
    """Byte ``pos`` as "line L column C" (C counted in characters)."""
    line = buf.count(b"\n", 0, pos) + 1
    start = buf.rfind(b"\n", 0, pos) + 1
    return f"line {line} column {len(buf[start:pos].decode('utf-8', 'replace')) + 1}"


def syntax(buf: bytes, pos: int, message: str) -> Invalid:
    """Invalid: a JSON syntax error at byte ``pos``."""
    return Invalid(f"not valid JSON: {message} at {place(buf, pos)}")


def start_of(m) -> int:
    """Where a token starts (after the white space before it)."""
    kind = m.lastindex
    return m.start(4 if kind == NUMBER else STRING if kind == KEY else kind)


def decode_string(token: bytes) -> str:
    if b"\\" not in token:
        return token[1:-1].decode("utf-8")
    return json.loads(token)


def number(integer: bytes, rest: bytes):
    """The number of a token (checked: at most MAX_INT_DIGITS digits, finite)."""
    if not rest:
        digits = len(integer) - integer.startswith(b"-")
        if digits > MAX_INT_DIGITS:
            raise Invalid(f"not valid JSON: integer of {digits} digits (limit {MAX_INT_DIGITS})")
        return int(integer)
    digits = (integer + rest).decode()
    x = float(digits)
    if not math.isfinite(x):
        raise Invalid(f"not valid JSON: number {digits[:20]}{'...' if len(digits) > 20 else ''} is out of range")
    return x


def token(buf: bytes, pos: int, stop: int):
    """The token at ``pos`` (white space first), matched within ``buf[:stop]``, its string checked
    against MAX_STRING; None when none is there (a syntax error, or the end of the text)."""
    m = TOKEN.match(buf, pos, stop)
    if m is not None and m.lastindex in (STRING, KEY) and m.end(STRING) - m.start(STRING) > MAX_STRING:
        raise Invalid(f"the string at {place(buf, m.start(STRING))} is longer than {MAX_STRING} bytes (the limit)")
    if m is not None and m.lastindex == CONSTANT:
        raise Invalid(f"not valid JSON: {m.group(CONSTANT).decode()} is not a JSON number")
    return m


def no_token(buf: bytes, pos: int, top_expects: str = "Expecting value") -> Invalid:
    """The syntax error where no token could be read at ``pos``."""
    at = SPACE.match(buf, pos).end()
    if at == len(buf):
        return syntax(buf, at, top_expects)
    if buf[at:at + 1] == b'"':
        return syntax(buf, at, "Unterminated string or invalid character in it")
    return syntax(buf, at, "Expecting value")


def closing_error(is_object, state) -> str:
    """What was expected where a '}' or ']' does not fit."""
    if is_object is None or state == 2:
        return "Expecting value"
    if is_object and state == 4:
        return "Expecting property name enclosed in double quotes"
    return "Expecting ',' delimiter"


def skip(buf: bytes, pos: int, *, stop: int | None = None, where: str = "", level: int = 1,
         deepest: int = ROOM, room: int = ROOM, over: str = ""):
    """Check the JSON value at ``buf[pos]`` (after white space) without building it: its syntax
    and every rule of this module. Returns (end, problem): where the value ends, and the first
    repeated key, lone surrogate or container deeper than level ``deepest`` met, as a message
    naming its path (None if none), for the caller to raise when its turn comes. ``level``: the
    value's own nesting level (the document is level 1); past level ``room`` the input is refused
    as too deeply nested. ``stop``: the value must end before this byte, else Invalid(``over``)."""
    end_text = len(buf)
    stop = end_text if stop is None or stop > end_text else stop
    problem = None
    # An open container: [is_object, state, keys (objects), path, key, index (arrays)];
    # object state: 0 key or '}', 2 value, 3 ',' or '}', 4 key; array: 0 value or ']', 2 value, 3 ',' or ']'
    stack: list = []
    while True:
        top = stack[-1] if stack else None
        if top is not None and not top[0] and top[1] != 3 and level + len(stack) < deepest:
            m = RUN.match(buf, pos, stop)
            if m is not None:  # the same as token by token, in one step
                run = m.group()
                top[5] += run.count(b",") - sum(x.count(b",") for x in _INNER.findall(run))
                top[1], pos = 2, m.end()
                continue
        m = token(buf, pos, stop)
        if m is None:
            if stop < end_text and TOKEN.match(buf, pos) is not None or SPACE.match(buf, pos).end() >= stop < end_text:
                raise Invalid(over)
            raise no_token(buf, pos)
        kind, start, pos = m.lastindex, start_of(m), m.end()
        char = buf[start]
        if kind == PUNCT:
            if char in b"}]":
                if top is None or top[0] != (char == 125) or top[1] not in (0, 3):
                    raise syntax(buf, start, closing_error(None if top is None else top[0],
                                                          None if top is None else top[1]))
                stack.pop()
                if not stack:
                    return pos, problem
                stack[-1][1] = 3
                continue
            if char == 44:  # ','
                if top is None or top[1] != 3:
                    raise syntax(buf, start, "Expecting value")
                top[1] = 4 if top[0] else 2
                if not top[0]:
                    top[5] += 1
                continue
            if char == 58:  # ':' (a key's ':' is read with the key)
                raise syntax(buf, start, closing_error(None if top is None else top[0],
                                                      None if top is None else top[1]))
        if top is not None and top[0] and top[1] in (0, 4):  # a key is expected
            if kind != KEY:
                raise syntax(buf, start, "Expecting ':' delimiter" if kind == STRING
                             else "Expecting property name enclosed in double quotes")
            key = decode_string(m.group(STRING))
            keys = top[2]
            if key in keys:
                problem = problem or f"{top[3] or 'top level'}: duplicate key {short(key)}"
            elif len(keys) >= MAX_KEYS:
                raise Invalid(f"{top[3] or 'top level'}: an object with more than {MAX_KEYS} keys (the limit)")
            else:
                keys.add(key)
            if problem is None and LONE.search(m.group(STRING)):
                problem = _lone(key, top[3] or "top level")
            top[4], top[1] = key, 2
            continue
        if kind == KEY:  # a string and a ':' where no key can be
            raise syntax(buf, m.start(3), "Expecting ',' delimiter")
        if top is not None and top[1] not in (0, 2):
            raise syntax(buf, start, "Expecting ',' delimiter")
        # A value starts here.
        if kind == PUNCT:  # '{' or '['
            depth = level + len(stack)
            if depth > room:
                raise Invalid("JSON nested too deeply")
            path = where if top is None else field(top[3], top[4]) if top[0] else f"{top[3]}[{top[5]}]"
            if depth > deepest and problem is None:
                problem = f"{path or 'top level'}: nested more than {deepest} levels deep"
            if top is not None:
                top[1] = 3
            stack.append([char == 123, 0, set() if char == 123 else None, path, None, 0])
            continue
        if kind == NUMBER:
            number(m.group(4), m.group(5))
        elif kind == STRING and problem is None and LONE.search(m.group(STRING)):
            path = where if top is None else field(top[3], top[4]) if top[0] else f"{top[3]}[{top[5]}]"
            problem = _lone(decode_string(m.group(STRING)), path or "top level")
        if top is None:
            return pos, problem
        top[1] = 3


def _lone(s: str, where: str):
    try:
        check_text(s, where)
    except Invalid as e:
        return str(e)
    return None


def members(buf: bytes, pos: int, value, where: str = "top level", meta: "Meta | None" = None):
    """Read the object at ``buf[pos]`` (after white space), calling ``value(key, start)`` for each
    member, or the array there, calling ``value(index, start)`` for each item: ``start`` is where
    the value starts (after white space), and ``value`` reads it and returns where it ends. Returns
    (end, keys or indices in order, the first repeated key or None). The container's own syntax is
    checked here; at most MAX_KEYS distinct keys, each paid for from ``meta``'s budget when given
    (a key is metadata until a checker reads its value)."""
    m = TOKEN.match(buf, pos)
    opening = m.group(PUNCT) if m is not None else None
    if opening not in (b"{", b"["):
        raise no_token(buf, pos)
    is_object, close = opening == b"{", b"}" if opening == b"{" else b"]"
    pos, keys, seen, repeated = m.end(), [], set(), None
    while True:
        m = token(buf, pos, len(buf))
        if m is None:
            raise no_token(buf, pos)
        if m.group(PUNCT) == close and not keys:
            return m.end(), keys, repeated
        if not is_object:
            key, start = len(keys), start_of(m)
            if m.group(PUNCT) in (b",", b":", b"]", b"}"):
                raise syntax(buf, start, "Expecting value")
        elif m.lastindex != KEY:
            raise syntax(buf, start_of(m), "Expecting ':' delimiter" if m.lastindex == STRING
                         else "Expecting property name enclosed in double quotes")
        else:
            if meta is not None:
                meta.pay(m.end(STRING) - m.start(STRING), where)
            key = decode_string(m.group(STRING))
            if key in seen:
                repeated = repeated or key
            elif len(seen) >= MAX_KEYS:
                raise Invalid(f"{where}: an object with more than {MAX_KEYS} keys (the limit)")
            seen.add(key)
            start = SPACE.match(buf, m.end()).end()
            if start == len(buf):
                raise syntax(buf, start, "Expecting value")
        keys.append(key)
        pos = value(key, start)
        m = token(buf, pos, len(buf))
        if m is None:
            raise no_token(buf, pos, "Expecting ',' delimiter")
        if m.group(PUNCT) == close:
            return m.end(), keys, repeated
        if m.group(PUNCT) != b",":
            raise syntax(buf, start_of(m), "Expecting ',' delimiter")
        pos = m.end()


def document(buf: bytes, value, meta: "Meta"):
    """Read a whole document: an object's members through ``value`` as ``members`` does, then
    nothing but white space. Returns (kind of the top-level value, keys, first repeated key);
    a top-level value that is not an object is only checked. A key that is not valid Unicode is
    ``meta``'s problem."""
    start = SPACE.match(buf).end()
    kind = KIND.get(buf[start]) if start < len(buf) else None
    if kind == "object":
        end, keys, repeated = members(buf, start, value, meta=meta)
    else:
        m = TOKEN.match(buf, start)
        if m is not None and m.lastindex == NUMBER:
            kind = "number" if m.group(5) else "integer"
        end, keys, repeated = skip(buf, start)[0], [], None
    rest = SPACE.match(buf, end).end()
    if rest != len(buf):
        raise syntax(buf, rest, "Extra data")
    for key in keys:
        meta.problem = meta.problem or _lone(key, "top level")
    return kind, keys, repeated


def fields(buf: bytes, head, key: str, read, meta: "Meta | None" = None):
    """A document's top-level fields as a dict (a Dup when a key repeats), each key's first value:
    the ``head`` fields built, ``key``'s value by ``read(start)`` -> (value, end) when it is an
    array, else its type or value (``value``: enough for the error); any other field checked within
    the metadata budget (``meta``'s, if given), never built (None), its first problem under the
    key None. A top-level value that is not an object: its type (a Span)."""
    doc, meta = {}, meta or Meta()

    def member(name: str, start: int) -> int:
        if name in head:
            end = header(buf, start, name)[0]
            doc.setdefault(name, build(buf, start, end))
        elif name == key and buf[start] == ord("["):
            got, end = read(start)
            doc.setdefault(name, got)
        elif name == key:
            end = skip(buf, start, level=2)[0]
            doc.setdefault(name, value(buf, start, end))
        else:
            end = meta.skip(buf, start, field("", name))
            doc.setdefault(name, None)
        return end

    kind, _, repeated = document(buf, member, meta)
    if kind != "object":
        return Span(kind)
    doc = checked_object(doc, repeated)
    doc[None] = meta.problem
    return doc


class Meta:
    """The metadata budget of one file: every field a checker does not interpret is checked by
    ``skip`` within what is left of MAX_META_BYTES, nested at most MAX_META_DEPTH levels; the first
    problem found is kept for the checker to raise when its turn comes."""

    def __init__(self) -> None:
        self.left = MAX_META_BYTES
        self.problem = None

    def skip(self, buf: bytes, start: int, where: str, level: int = 2, room: int = 0) -> int:
        """Check the value at ``start`` within the budget left; ``room``: a value inside node data
        (nested up to that level, its problems left to the checker: the node is wrong anyway)."""
        end, problem = skip(buf, start, stop=start + self.left, where=where, level=level,
                            deepest=room or MAX_META_DEPTH, room=room or ROOM,
                            over=f"{where}: the fields the checker does not read take more than "
                                 f"{MAX_META_BYTES} bytes of JSON (the limit for metadata)")
        self.left -= end - start
        self.problem = self.problem or (None if room else problem)
        return end

    def pay(self, size: int, where: str) -> None:
        """Spend ``size`` bytes (a key) from the budget."""
        self.left -= size
        if self.left < 0:
            raise Invalid(f"{where}: the fields the checker does not read take more than {MAX_META_BYTES} "
                          "bytes of JSON (the limit for metadata)")


def header(buf: bytes, start: int, key: str):
    """Check a header field's value (at most MAX_FIELD_BYTES of JSON, nested at most MAX_META_DEPTH
    levels); returns (end, problem) as skip() does."""
    return skip(buf, start, stop=start + MAX_FIELD_BYTES, where=key, level=2, deepest=MAX_META_DEPTH,
                over=f"{key}: more than {MAX_FIELD_BYTES} bytes of JSON (the limit for this field)")


# -- reports ---------------------------------------------------------------------------------------

#: The version of the checkers' JSON reports ({"report_version", "tool", "results"}).
REPORT_VERSION = 1


class Report:
    """What checking one file found: ``status`` 0 valid, 1 invalid, 2 unusable (the exit status)
    and ``error``, why not valid. Each checker's Report adds what it found."""

    def __init__(self, file) -> None:
        self.file = display(file)
        self.status = 0
        self.error: str | None = None
        #: When a limit stopped the check (status 2): {"option", "limit", "needed"}.
        self.limit: dict | None = None

    @property
    def valid(self) -> bool:
        return self.status == 0

    def to_json(self) -> dict:
        """The fields every checker's JSON report starts with."""
        out = {"file": self.file, "valid": self.valid, "status": ("valid", "invalid", "unusable")[self.status],
               "exit_code": self.status, "error": self.error}
        if self.limit is not None:  # a file not checked: which limit, and the option that raises it
            out["limit"] = self.limit
        return out

    def failure(self) -> str:
        """The line of a file that is not valid."""
        return f"{self.file}: {'invalid' if self.status == 1 else 'unusable'}: {self.error}"

    @contextlib.contextmanager
    def checking(self):
        """``with report.checking():`` the check: Invalid makes the file invalid (status 1, its
        message), a limit or running out of memory unusable (status 2: not checked)."""
        try:
            yield self
        except Limit as e:  # before Invalid: a SizeLimit is both, and a limit is no verdict
            self.status, self.error = 2, f"{e}; {e.advice()}"
            self.limit = {"option": e.option, "limit": e.limit, "needed": e.needed}
        except Invalid as e:
            self.status, self.error = 1, str(e)
        except MemoryError:
            self.status, self.error = 2, "out of memory"


def results(tool: str, reports) -> dict:
    """A run's JSON report as a dict: every file's report as its to_json() gives it."""
    return {"report_version": REPORT_VERSION, "tool": tool, "results": [r.to_json() for r in reports]}


def reports_json(tool: str, reports) -> bytes:
    """A run's JSON report (``results``), indented, ASCII."""
    return (json.dumps(results(tool, reports), indent=2, ensure_ascii=True) + "\n").encode()


# -- the command line of a checker run alone ------------------------------------------------------

def parser(prog: str, description: str):
    """An argument parser whose usage errors are one line and exit status 2."""
    import argparse
    import sys

    class Parser(argparse.ArgumentParser):
        def error(self, message):
            print(f"{self.prog}: error: {message} (see --help)", file=sys.stderr)
            sys.exit(2)

    out = Parser(prog=prog, description=description)
    out.add_argument("files", nargs="+", metavar="FILE")
    out.add_argument("--json", action="store_true")
    return out


def emit(reports, as_json: bool, report_json, out, err) -> int:
    """Print one line per report (valid ones on ``out``, others on ``err``) or ``report_json(reports)``
    (bytes) on ``out``; return the worst exit status. A reader that went away (| head) is ignored:
    the exit status still tells."""
    try:
        if as_json:
            data = report_json(reports)
            out.buffer.write(data) if hasattr(out, "buffer") else out.write(data.decode())
            out.flush()
        else:
            for r in reports:
                print(r.line(), file=out if r.valid else err)
    except BrokenPipeError:
        for stream in (out, err):
            try:
                os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
            except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
                pass
    return max((r.status for r in reports), default=0)


def interruptible(prog: str, run) -> int:
    """run(), or 130 after one line on Ctrl-C."""
    import sys

    try:
        return run()
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
