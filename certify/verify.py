"""Independent verifier for Mastermind strategy certificates (format v1).

This module is the trusted core. It imports only the standard library (plus orjson
for fast --json output when present) and, of the rest of ``certify``, only the trusted checkers'
shared reader (``reader.py``, standard library only): it enumerates the game's codes itself and scores feedback with its own rule (mark the
exact matches, then match the remaining pegs one by one), which differs from the
builder's colour-count formula. Under the black-only rule (the game's "feedback": "black-only")
the answer is the exact matches alone, and a tree's keys are "B" instead of "B,W". It can run on
its own::

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
  and stops at the first node deeper than that;
* replay: at most ``WORK_BASE + WORK_PER_BYTE`` x the file's bytes feedback computations
  (a valid certificate needs fewer than 17 a byte: each secret is scored at most 256 times
  and is the guess of a node of its own, 19 bytes at least);
* fields outside the tree: the reader's rules (reader.py): metadata checked, never built,
  1 MiB in all, nested at most 32 levels, the document itself being level 1
  (``MAX_META_DEPTH``); header fields of at most 64 KiB, built; integers of at most
  100 digits (``MAX_INT_DIGITS``); NaN, Infinity and floats that overflow (1e999) refused;
* JSON nesting: at most ``_PARSE_ROOM`` levels (room for a ``MAX_DEPTH`` tree plus a
  margin); deeper input is refused as "JSON nested too deeply";
* memory: the tree is read by the verifier's own loop on the reader's tokens, never built as
  Python objects: five integer arrays (20 bytes a node). Peak memory is therefore the input,
  about as much again for the tree, and the game's codes.
"""

from __future__ import annotations

import itertools
import math
import os
import re
import sys
from array import array

try:
    from . import reader
except ImportError:  # run as a script: python certify/verify.py (or runpy.run_path, which adds no path)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import reader

FORMAT = "mastermind-strategy-certificate"
VERSION = 1
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
#: Largest game the verifier enumerates (number of codes); larger ones are refused up front.
MAX_CODES = 1_000_000
#: Deepest tree accepted (guesses on one path); deeper trees are refused, not walked.
MAX_DEPTH = 256
#: The replay scores each secret at each node on its path: at most MAX_DEPTH x n feedbacks for a
#: valid certificate of n secrets. Each secret is the guess of a node of its own (where it is found),
#: which takes at least 19 bytes ("0,0":{"guess":"x"} and a comma; the root 7 fewer), so a valid file
#: has at least 19 n - 7 >= 15.5 n bytes and needs fewer than 256 / 15.5 < 17 feedbacks a byte. Past
#: WORK_BASE + WORK_PER_BYTE x its bytes a file is refused: a small file of a big game cannot ask for minutes.
WORK_PER_BYTE = 17
WORK_BASE = 1_000_000
#: Largest input accepted (bytes, read and after decompression).
MAX_BYTES = 256 << 20
#: Deepest nesting of the fields outside the tree (strategy params, generator...).
MAX_META_DEPTH = reader.MAX_META_DEPTH
#: Longest integer literal accepted (digits).
MAX_INT_DIGITS = reader.MAX_INT_DIGITS
#: Nesting levels the JSON reader accepts: a MAX_DEPTH tree plus a margin.
_PARSE_ROOM = 2 * MAX_DEPTH + 100
#: Largest header field (format, version, game, strategy, claims), in bytes of JSON.
MAX_FIELD_BYTES = reader.MAX_FIELD_BYTES
#: Most keys in one JSON object.
MAX_KEYS = reader.MAX_KEYS
_HEADER = ("format", "version", "game", "strategy", "claims")

EXIT_VALID, EXIT_INVALID, EXIT_UNUSABLE = 0, 1, 2
_KEY = re.compile(r"(0|[1-9][0-9]{0,5}),(0|[1-9][0-9]{0,5})")
_BLACK_KEY = re.compile(r"(0|[1-9][0-9]{0,5})")  # black-only: "B"
#: The feedback rules; a game without "feedback" is black-white.
RULES = ("black-white", "black-only")
_COUNT = re.compile(r"[1-9][0-9]{0,5}")
_COUNTS = ("secrets", "max_guesses", "total_guesses")  # the claims besides the histogram
_NODE_FIELDS = frozenset(("guess", "next"))

__all__ = ["Invalid", "Report", "codes", "feedback", "secret_depths", "verify_bytes",
           "verify_document", "verify_file", "main"]


Invalid, Unreadable = reader.Invalid, reader.Unreadable
_typename, _short, _what, _display, _field, _one_line = (reader.typename, reader.short, reader.what,
                                                         reader.display, reader.field, reader.one_line)
_get, _only = reader.get, reader.only


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


def blacks(guess: str, secret: str) -> tuple[int, int]:
    """The black-only answer as (black, 0): the pegs of the right colour in the right place."""
    return sum(g == s for g, s in zip(guess, secret)), 0


def key_text(fb: tuple[int, int], black_only: bool) -> str:
    """A feedback as a tree's key: "B,W", or "B" under the black-only rule."""
    return str(fb[0]) if black_only else f"{fb[0]},{fb[1]}"


def codes(pegs: int, colors: int, repetition: bool) -> list[str]:
    """Every code of the game, in code order."""
    letters = ALPHABET[:colors]
    if repetition:
        return ["".join(t) for t in itertools.product(letters, repeat=pegs)]
    return ["".join(t) for t in itertools.permutations(letters, pegs)]


def orbit_key(code) -> tuple:
    """The orbit of a code under the permutations of pegs and of colours: its colours' numbers of
    occurrences, largest first (a peg permutation moves occurrences, a colour permutation renames
    them; two codes with the same numbers are mapped onto each other by one of each)."""
    counts: dict = {}
    for c in code:
        counts[c] = counts.get(c, 0) + 1
    return tuple(sorted(counts.values(), reverse=True))


def game_fields(doc) -> tuple:
    """(pegs, colors, repetition, rule) of a document's "game", each of its type (no other field);
    the rule is "feedback", one of RULES, black-white when absent."""
    game = _get(doc, "game", dict)
    _only(game, ("pegs", "colors", "repetition", "feedback"), "game")
    rule = _get(game, "feedback", str, "game") if "feedback" in game else "black-white"
    if rule not in RULES:
        raise Invalid(f"game.feedback: unknown feedback rule {_short(rule)} (expected {' or '.join(RULES)})")
    return (_get(game, "pegs", int, "game"), _get(game, "colors", int, "game"),
            _get(game, "repetition", bool, "game"), rule)


def _n_codes(pegs: int, colors: int, repetition: bool) -> int:
    if repetition:
        return colors**pegs
    n = 1
    for k in range(pegs):
        n *= colors - k
    return n


class Report(reader.Report):
    """Outcome of verifying one file."""

    def __init__(self, file: str) -> None:
        super().__init__(file)
        self.game: dict | None = None
        self.strategy: dict | None = None
        self.claims: dict | None = None
        self.replayed: dict | None = None
        self.max_guesses_bound: int | None = None
        #: The parsed document that was verified (only when asked for with ``keep``), so that a
        #: command uses exactly what the verifier checked.
        self.document: dict | None = None
        self.header: dict = {}  # the header fields as read (format, version, game, strategy, claims)

    def __repr__(self) -> str:
        return f"<Report {self.file!r} status={self.status} error={self.error!r}>"

    def to_json(self) -> dict:
        return {**super().to_json(), "game": self.game, "strategy": self.strategy, "claims": self.claims,
                "replayed": self.replayed, "max_guesses_bound": self.max_guesses_bound}

    def line(self) -> str:
        """One human line."""
        if self.valid:
            r = self.replayed
            g = self.game
            rep = ("" if g["repetition"] else " without repetition") + (" black-only" if "feedback" in g else "")
            bound = "" if self.max_guesses_bound is None else f" (<= {self.max_guesses_bound} as asked)"
            return (f"{self.file}: valid: {r['secrets']} secrets of {g['pegs']}x{g['colors']}{rep}, "
                    f"max {r['max_guesses']} guesses{bound}, total {r['total_guesses']}")
        return self.failure()


# -- reading the JSON ---------------------------------------------------------------------
#
# The reader (reader.py) checks the document and gives the spans of its fields: the header fields
# are built (each at most MAX_FIELD_BYTES), the others only checked (reader.Meta). The tree is read
# here, by the same tokenizer and an explicit stack: it becomes five integer arrays, and any value
# in it that is not a node, a guess or a 'next' is checked by reader.skip and never built.

# The usual shape of a branch, read in one step: a feedback key, then a node that is a leaf
# (``"1,2":{"guess":"0123"}``, group 3 absent) or opens its branches (``... ,"next":{``).
_BRANCH = re.compile(rb'[ \t\n\r]*("[0-9]+(?:,[0-9]+)?")[ \t\n\r]*:[ \t\n\r]*\{[ \t\n\r]*"guess"[ \t\n\r]*:'
                     rb'[ \t\n\r]*("[0-9a-z]*")[ \t\n\r]*(?:\}|(,[ \t\n\r]*"next"[ \t\n\r]*:[ \t\n\r]*\{))')
# What a value in the tree is for: a node, a node's 'next', a guess, anything else.
_NODE, _NEXT, _GUESS, _JUNK = range(4)


class _Frame:
    """An open object or array of the tree."""

    __slots__ = ("is_object", "role", "state", "key", "keys", "node", "last", "start")

    def __init__(self, is_object, role, node=-1):
        self.is_object = is_object
        self.role = role
        # object: 0 key or '}', 2 value, 3 ',' or '}', 4 key; array: 0 value or ']', 2 value, 3 ',' or ']'
        self.state = 0
        self.key = None
        self.keys = set() if is_object else None
        self.node = node  # _NODE: its id; _NEXT: the id of the node it belongs to
        self.last = -1  # _NEXT: the child read last
        self.start = -1  # _NEXT: where the key of the child about to be read starts


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
        self.deepest = (0, None, ())  # (guesses, secret, path) of the first secret found deepest

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
        return reader.decode_string(reader.TOKEN.match(self.buf, at).group(reader.STRING))


def _parse(raw: bytes) -> _Doc:
    return _read(reader.text(raw, MAX_BYTES))


def _read(buf: bytes) -> _Doc:
    """The document's fields through the reader: the header's spans kept, the tree read by
    _read_tree, every other field checked within the metadata budget (reader.Meta)."""
    doc, meta = _Doc(buf), reader.Meta()

    def value(key: str, start: int) -> int:
        if key == "tree":
            doc.tree_at = start
            if buf[start] == ord("{"):
                return _read_tree(doc, start, meta)
            return reader.skip(buf, start, level=2, room=_PARSE_ROOM)[0]  # not a tree: checked only
        if key in _HEADER:
            end, problem = reader.header(buf, start, key)
            meta.problem = meta.problem or problem
            doc.fields.setdefault(key, (start, end))
            return end
        return meta.skip(buf, start, _field("", key))

    doc.kind, doc.keys, doc.duplicate = reader.document(buf, value, meta)
    doc.meta_error = meta.problem
    return doc


def _read_tree(doc: _Doc, pos: int, meta) -> int:
    """The tree whose object starts at ``pos``, into the node arrays, with an explicit stack (no
    recursion); returns where it ends. Token by token, with the usual branch in one step. A value
    that is no node, guess or branches (the node is wrong) is checked within ``meta``'s budget."""
    buf, stack = doc.buf, [_Frame(True, _NODE, doc.add_node(-1))]
    pos = buf.index(b"{", pos) + 1
    branch, token, syntax = _BRANCH.match, reader.token, reader.syntax
    while True:
        top = stack[-1]
        if top.role == _NEXT and top.state in (0, 4) and len(stack) + 3 < _PARSE_ROOM:
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
        m = token(buf, pos, len(buf))
        if m is None:
            raise reader.no_token(buf, pos)
        kind, start, pos = m.lastindex, reader.start_of(m), m.end()
        char = buf[start]
        if kind == reader.PUNCT:
            if char in b"}]":
                if top.is_object != (char == ord("}")) or top.state not in (0, 3):
                    raise syntax(buf, start, reader.closing_error(top.is_object, top.state))
                stack.pop()
                if not stack:
                    return pos
                stack[-1].state = 3
                continue
            if char == ord(","):
                if top.state != 3:
                    raise syntax(buf, start, "Expecting value")
                top.state = 4 if top.is_object else 2
                continue
            if char == ord(":"):  # (a key's ':' is read with the key)
                raise syntax(buf, start, reader.closing_error(top.is_object, top.state))
            # '{' or '[': a value that opens a container
        if top.is_object and top.state in (0, 4):  # a key is expected
            if kind != reader.KEY:
                raise syntax(buf, start, "Expecting ':' delimiter" if kind == reader.STRING
                             else "Expecting property name enclosed in double quotes")
            _key(doc, top, m.group(reader.STRING), start)
            top.state = 2
            continue
        if kind == reader.KEY:  # a string and a ':' where no key can be
            raise syntax(buf, m.start(3), "Expecting ',' delimiter")
        if top.state not in (0, 2):
            raise syntax(buf, start, "Expecting ',' delimiter")
        # A value starts here: what is it for?
        if kind == reader.PUNCT:
            vkind = "object" if char == ord("{") else "array"
        elif kind == reader.NUMBER:
            vkind = "number" if m.group(5) else "integer"
        else:
            vkind = reader.KIND[char]
        role, node = _role(doc, top, start, vkind)
        top.state = 3
        if kind == reader.PUNCT:  # '{' or '['
            level = len(stack) + 2  # (the document is level 1, the tree's root level 2)
            if level > _PARSE_ROOM:
                raise Invalid("JSON nested too deeply")
            if role in (_NODE, _NEXT) and vkind == "object":
                stack.append(_Frame(True, role, node))
            else:  # not a node nor branches: checked, never built (the node is wrong anyway)
                pos = meta.skip(buf, start, "tree", level=level, room=_PARSE_ROOM)
            continue
        if kind == reader.NUMBER:
            reader.number(m.group(4), m.group(5))


def _key(doc: _Doc, frame: _Frame, token: bytes, at: int) -> None:
    """A key was read in an object of the tree: remember it, catch repeats and unknown node fields."""
    key = reader.decode_string(token)
    frame.key = key
    if len(frame.keys) >= MAX_KEYS and key not in frame.keys:
        raise Invalid(f"tree: an object with more than {MAX_KEYS} keys (the limit)")
    repeated = key in frame.keys
    frame.keys.add(key)
    if frame.role == _NODE:
        if repeated:
            doc.problem(frame.node, f"duplicate key {_short(key)} in node", 0)
        elif key not in _NODE_FIELDS:
            doc.problem(frame.node, f"node: unknown field {_short(key)}", 2)
    else:  # _NEXT
        if repeated:
            doc.problem(frame.node, f"duplicate feedback key {_short(key)}", -1)
        frame.start = at  # the child about to be read is stored with its key's position


def _role(doc: _Doc, top: _Frame, at: int, kind: str):
    """(role, node id) of a value of type ``kind`` starting at byte ``at`` inside ``top``."""
    if top.role == _NODE:
        if top.key == "guess":
            doc.guess[top.node] = at
            return _GUESS, -1
        if top.key == "next":
            doc.next[top.node] = at
            return _NEXT, top.node
        return _JUNK, -1
    # _NEXT: a child node
    node = doc.add_node(top.start)
    if top.last == -1:
        doc.child[top.node] = node
    else:
        doc.sibling[top.last] = node
    top.last = node
    if kind != "object":
        doc.problem(node, f"a node must be an object, got {kind}", 1)
    return _NODE, node


def _header(doc: _Doc) -> dict:
    """The header fields, built (each at most MAX_FIELD_BYTES of JSON), in document order."""
    out = {key: reader.build(doc.buf, *doc.fields[key]) for key in dict.fromkeys(doc.keys) if key in doc.fields}
    if doc.tree_at >= 0:
        out["tree"] = reader.value(doc.buf, doc.tree_at)
    return reader.checked_object(out, doc.duplicate)


def _check_header(doc: _Doc, report: Report):
    if doc.kind != "object":
        raise Invalid(f"top level: expected object, got {doc.kind}")
    doc_fields = reader.typed(_header(doc), dict, "top level")  # (a repeated key refused)
    fmt = _get(doc_fields, "format", str)
    if fmt != FORMAT:
        raise Invalid(f"format: expected {FORMAT!r}, got {_short(fmt)}")
    version = _get(doc_fields, "version", int)
    if version != VERSION:
        raise Invalid(f"version: this verifier reads version {VERSION}, got {_short(version)}")

    pegs, colors, repetition, rule = game_fields(doc_fields)
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
        raise reader.Limit(f"game: {size} codes is too many to enumerate (limit {MAX_CODES})")
    report.game = {"pegs": pegs, "colors": colors, "repetition": repetition}
    if rule != "black-white":
        report.game["feedback"] = rule

    strategy = _get(doc_fields, "strategy", dict)
    name = _get(strategy, "name", str, "strategy")
    params = _get(strategy, "params", dict, "strategy") if "params" in strategy else None
    if "reference" in strategy:
        _get(strategy, "reference", str, "strategy")

    claims = _get(doc_fields, "claims", dict)
    _only(claims, ("secrets", "max_guesses", "total_guesses", "histogram"), "claims")
    for key in _COUNTS:
        if _get(claims, key, int, "claims") < 0:
            raise Invalid(f"claims.{key}: must not be negative")
    hist = _get(claims, "histogram", dict, "claims")
    for k, v in hist.items():
        if not _COUNT.fullmatch(k):
            raise Invalid(f"claims.histogram: key {_short(k)} is not a positive decimal number")
        if type(v) is not int or v < 1:
            raise Invalid(f"claims.histogram[{k!r}]: expected a positive integer, got {_short(v)}")
    report.claims = {key: claims[key] for key in _COUNTS}
    report.claims["histogram"] = {k: hist[k] for k in sorted(hist, key=int)}
    if "tree" not in doc_fields:
        raise Invalid("top level: missing field 'tree'")
    if type(doc_fields["tree"]) is not reader.Span or doc_fields["tree"].kind != "object":
        raise Invalid(f"tree: expected object, got {_what(doc_fields['tree'])}")
    if doc.meta_error is not None:  # the first problem outside the tree (reader.skip, reader.Meta)
        raise Invalid(doc.meta_error)
    report.strategy = {"name": name} if params is None else {"name": name, "params": params}
    report.header = {k: v for k, v in doc_fields.items() if k != "tree"}
    return pegs, colors, repetition, rule == "black-only"


def _path_text(path) -> str:
    """The guesses and feedbacks leading to a node (the middle of a very long path elided)."""
    steps = [f"{g} -({k})->" for g, k in path]
    if len(steps) > 16:
        steps[8:-4] = [f"[{len(steps) - 12} more steps]"]
    return " ".join(steps) or "root"


def _replay(doc: _Doc, pegs: int, colors: int, repetition: bool, black_only: bool = False,
            found=None, max_work: int | None = None) -> dict[int, int]:
    """Walk all secrets down the tree; return {guesses: secrets found}. Raises Invalid, or
    reader.Limit past the work budget (``max_work`` feedbacks; default: by the file's size).

    If ``found`` is a dict, it receives {secret: guesses} for every secret.
    """
    secrets = codes(pegs, colors, repetition)
    letters = set(ALPHABET[:colors])
    win = (pegs, 0)
    answer, key_form, form = (blacks, _BLACK_KEY, "'B' (the game is black-only)") if black_only \
        else (feedback, _KEY, "'B,W'")
    histogram: dict[int, int] = {}
    buf, guess_at, next_at, first, sibling, key_at = (doc.buf, doc.guess, doc.next, doc.child,
                                                      doc.sibling, doc.key)
    # Each entry: node id, the secrets reaching it, the path to it [(guess, key), ...].
    stack = [(0, secrets, ())]
    work, budget = 0, WORK_BASE + WORK_PER_BYTE * len(buf) if max_work is None else max_work
    while stack:
        node, reaching, path = stack.pop()
        depth = len(path) + 1
        where = _path_text(path)
        work += len(reaching)
        if work > budget:
            limit = ("the --max-work given" if max_work is not None else
                     f"the default limit for a file of {len(buf)} bytes: {WORK_PER_BYTE} a byte")
            raise reader.Limit(f"at {where}: more than {budget} feedbacks to compute ({limit})", "--max-work", budget)
        if node == doc.bad_node and doc.early is not None:
            raise Invalid(f"at {where}: {doc.early}")
        if depth > MAX_DEPTH:
            raise Invalid(f"at {where}: tree deeper than {MAX_DEPTH} guesses")
        if guess_at[node] < 0:
            raise Invalid(f"at {where}: node has no 'guess'")
        guess = reader.value(buf, guess_at[node])
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
            fb = answer(guess, s)
            group = groups.get(fb)
            if group is None:
                groups[fb] = [s]
            else:
                group.append(s)
        if groups.pop(win, None) is not None:
            histogram[depth] = histogram.get(depth, 0) + 1
            if found is not None:
                found[guess] = depth
            if depth > doc.deepest[0]:  # the first secret found at the deepest level, for --max-guesses
                doc.deepest = (depth, guess, path)

        seen, children = set(), []  # (seen: the branches' feedbacks, each one of groups)
        if next_at[node] >= 0:
            if node == doc.bad_node and doc.late is not None:
                raise Invalid(f"at {where} {guess}: {doc.late}")
            if buf[next_at[node]] != ord("{"):
                raise Invalid(f"at {where} {guess}: 'next' must be an object, "
                              f"got {_typename(reader.value(buf, next_at[node]))}")
            if first[node] < 0:
                raise Invalid(f"at {where} {guess}: 'next' is empty (omit it when the guess ends the game)")
            child = first[node]
            while child >= 0:
                key = doc.string(key_at[child])
                m = key_form.fullmatch(key)
                if not m:
                    raise Invalid(f"at {where} {guess}: malformed feedback key {_short(key)} (expected {form})")
                fb = (int(m.group(1)), 0 if black_only else int(m.group(2)))
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
        if len(seen) < len(groups):
            fb = min(set(groups) - seen)
            raise Invalid(f"at {where} {guess}: missing branch {key_text(fb, black_only)} "
                          f"(reached by secret {groups[fb][0]})")
        # Reverse so the first key is checked first and errors name the first bad path.
        stack.extend(reversed(children))
    return histogram


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


def secret_depths(doc, max_work: int | None = None) -> dict[str, int]:
    """{secret: guesses it takes} for a certificate given as a dict or as its bytes; raises Invalid
    if its header or tree is wrong (its claims are not compared), reader.Limit past a limit."""
    parsed = _parse(doc if type(doc) is bytes else reader.encode(doc))
    game = _check_header(parsed, Report("<document>"))
    found: dict[str, int] = {}
    _replay(parsed, *game, found=found, max_work=max_work)
    return found


def verify_document(doc, report: Report, max_guesses: int | None = None, max_work: int | None = None) -> Report:
    """Check a certificate given as a dict (made in memory); the outcome is recorded in ``report``."""
    raw = reader.encoded(doc, report)
    return report if raw is None else _verify(raw, report, max_guesses, max_work=max_work)


def _verify(raw: bytes, report: Report, max_guesses: int | None, keep: bool = False,
            max_work: int | None = None) -> Report:
    with report.checking():
        doc = _parse(raw)
        del raw
        histogram = _replay(doc, *_check_header(doc, report), max_work=max_work)
        hist = {str(k): histogram[k] for k in sorted(histogram)}
        report.replayed = replayed = {
            "secrets": sum(histogram.values()),
            "max_guesses": max(histogram),
            "total_guesses": sum(k * v for k, v in histogram.items()),
            "histogram": hist,
        }
        for key in _COUNTS:
            if report.claims[key] != replayed[key]:
                raise Invalid(f"claims.{key}: claimed {report.claims[key]}, replay gives {replayed[key]}")
        for k in sorted(set(hist) | set(report.claims["histogram"]), key=int):
            a, b = report.claims["histogram"].get(k, 0), hist.get(k, 0)
            if a != b:
                raise Invalid(f"claims.histogram[{k!r}]: claimed {a}, replay gives {b}")
        if max_guesses is not None:
            report.max_guesses_bound = max_guesses
            if replayed["max_guesses"] > max_guesses:
                _, secret, path = doc.deepest
                shown = " ".join([f"{g} -({k})->" for g, k in path] + [secret])
                raise Invalid(f"secret {secret} needs {replayed['max_guesses']} guesses, more than "
                              f"--max-guesses {max_guesses}: {shown}")
        if keep:
            report.document = dict(report.header, tree=_tree(doc))
    return report


def verify_bytes(raw: bytes, file: str = "<bytes>", max_guesses: int | None = None,
                 keep: bool = False, max_work: int | None = None) -> Report:
    """Verify a certificate given as bytes (plain or gzipped JSON). With ``keep``, a valid
    report holds the verified document in ``report.document`` (the tree as nested dicts).
    ``max_work``: feedbacks to compute at most (default: by the file's size); past it the file
    is not checked (status 2)."""
    return _verify(raw, Report(file), max_guesses, keep, max_work)


def read_input(path, on_wait=None) -> bytes:
    """The bytes of a file, read once (reader.read_input with this verifier's MAX_BYTES)."""
    return reader.read_input(path, MAX_BYTES, on_wait)


def verify_file(path: str, max_guesses: int | None = None, keep: bool = False, on_wait=None,
                max_work: int | None = None) -> Report:
    """Verify a certificate file, read once. Unreadable files give status 2 (unusable).
    With ``keep``, a valid report holds the verified document in ``report.document``."""
    report = Report(path)
    raw = reader.load(path, MAX_BYTES, report, on_wait)
    return report if raw is None else _verify(raw, report, max_guesses, keep, max_work)


def reports_json(reports, max_guesses=None) -> bytes:
    """The JSON report: by orjson when it is installed (UTF-8, faster), else as the other checkers
    write it (also when orjson refuses a value: integers beyond 64 bits in strategy params)."""
    try:
        import orjson

        return orjson.dumps(reader.results("certify.verify", reports), option=orjson.OPT_INDENT_2) + b"\n"
    except (ImportError, TypeError):  # (TypeError: orjson.JSONEncodeError)
        return reader.reports_json("certify.verify", reports)


def run(files, max_guesses=None, as_json=False, out=None, err=None, max_work=None) -> int:
    """Verify files, print one line each (or a JSON report); return the exit status."""
    out, err = out or sys.stdout, err or sys.stderr
    reports = [verify_file(f, max_guesses, on_wait=lambda note: print(note, file=err, flush=True), max_work=max_work)
               for f in files]
    return reader.emit(reports, as_json, reports_json, out, err)


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
    parser = reader.parser("verify", "Independently verify Mastermind strategy certificates.")
    parser.add_argument("--max-guesses", type=_positive, metavar="K")
    parser.add_argument("--max-work", type=_positive, metavar="N",
                        help="compute at most N feedbacks (default: by the file's size)")
    args = parser.parse_args(argv)
    return reader.interruptible("verify", lambda: run(args.files, args.max_guesses, args.json,
                                                      max_work=args.max_work))


if __name__ == "__main__":
    sys.exit(main())
