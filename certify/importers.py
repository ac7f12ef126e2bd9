"""Trees from other programs: the strategy files public Mastermind solvers write, read into
certificates. The formats, where each comes from and how it maps: docs/import-formats.md.

Each parser reads a file's text into a *foreign tree* of :class:`Node` objects: the guess, the
branches by answer, and what the file states about the node (how many secrets are left there,
whether its guess is one of them). :func:`assemble` plays every secret of the game down that tree
with the builder's feedback, fills in what a format leaves unwritten (the last guesses behind the
C++ solver's ``(G)``; the trivial situations Knuth's notation leaves unelaborated, a bare 2 and
``(Gx)``, by one rule: the secrets left played in code order), checks every statement of the file, and returns the certificate's tree and
histogram, or raises :class:`Mismatch` naming the first secret (in tree order) the tree fails.
The command has the certificate checked by the independent verifier before it writes it.

Only the standard library is imported here; numpy (through the game), PyYAML and the builder
are imported by the functions that need them.
"""

from __future__ import annotations

import hashlib
import re
from bisect import bisect_right

from .errors import CertifyError

#: Largest input read, in bytes (the verifier's limit too).
MAX_BYTES = 256 << 20
#: Most nodes a file may hold (a tree has about one node per secret: Knuth's 4x6 tree 1378 for
#: 1296 secrets; games stop at 1,000,000 codes).
MAX_NODES = 2_000_000
#: Deepest tree, in guesses on a path (the verifier's limit).
MAX_DEPTH = 256
#: Most pegs of a game: past 21, every game has more codes than the builder's limit of 1,000,000
#: (2**22 with repetition, 22! without), so a longer code is refused before any count of codes is
#: computed (the counts for a code of 10**6 pegs took 12 s).
MAX_PEGS = 21
#: cuda-json: the budget of a run's rebuild, in codes x codes x answers. A run record holds no tree:
#: the run's rule is rebuilt, and each guess is chosen by scoring candidate guesses (about every
#: code) against the secrets left (the codes, summed over a level of the tree), each into its
#: answers ((pegs+1)(pegs+2)/2 of them). 6x7 (117,649 codes, 28 answers: 3.88e11), the largest game
#: of a real record, takes 30-35 s CPU and 150 MB for the whole import; the costliest games under
#: the budget measured 20-50 s (5x10, 7x5, 8x4, 10x3, 15x2); 8x5 (6.87e12) ran past 126 s.
#: Checked before the game's tables are made (docs/import-formats.md, Limits).
MAX_RUN_WORK = 400 * 10**9
#: The tree formats' replay: at most this many guesses per code of the game on average, counted as
#: the secrets it plays through each guess of the file (for a tree that holds, the tree's total
#: guesses; real trees average at most 5.6). A file can chain guesses that keep every secret (the
#: same guess again and again, up to MAX_DEPTH deep), which without a budget costs MAX_DEPTH passes
#: over the game from a few kilobytes.
REPLAY_GUESSES = 16
#: ... but never less than this many secrets played (every tree of a game of at most 4,096 codes,
#: 4x8, fits even MAX_DEPTH deep).
REPLAY_FLOOR = 4096 * MAX_DEPTH
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"

__all__ = ["FORMATS", "MAX_BYTES", "MAX_NODES", "MAX_RUN_WORK", "Mismatch", "Node", "ParseError",
           "assemble", "import_certificate"]


class ParseError(CertifyError):
    """The file is not in its format, or does not fit the game (unusable input):
    ``FILE:LINE: what``."""

    def __init__(self, name: str, line: int | None, what: str) -> None:
        super().__init__(f"{name}:{line}: {what}" if line else f"{name}: {what}")


class Mismatch(CertifyError):
    """The file's tree fails a secret, or something the file states is false (an invalid tree,
    not unusable input). ``str()`` is one line, naming the secret where there is one."""


def _q(text) -> str:
    """A string from the file, safe to print (escaped, at most 40 characters), quoted."""
    from .text import shown

    return f"'{shown(text, 40)}'"


class Notation:
    """How a program writes codes: colour k is the k-th character of ``alphabet``."""

    def __init__(self, alphabet: str) -> None:
        self.alphabet = alphabet
        self._ours = {ch: ALPHABET[k] for k, ch in enumerate(alphabet)}
        self._theirs = {ALPHABET[k]: ch for k, ch in enumerate(alphabet)}

    def ours(self, raw: str, name: str, line: int | None) -> str:
        """The code ``raw`` (as the file writes it) in certify's notation; ParseError if it is not one."""
        out = [self._ours.get(ch.lower()) for ch in raw]
        if not raw or None in out:
            bad = "" if not raw else raw[out.index(None)]
            why = "an empty code" if not raw else f"{_q(bad)} is not a colour ({self.alphabet})"
            raise ParseError(name, line, f"expected a code, got {_q(raw)}: {why}")
        return "".join(out)

    def theirs(self, code: str) -> str:
        """A certify code written as the file writes codes (for messages)."""
        return "".join(self._theirs.get(ch, "?") for ch in code)


#: arfst23's C solver: colours 0..c-1, as certify.
DIGITS = Notation("0123456789")
#: fancidev's C++ solver: "1234567890abcdef" (colour 9 is written 0).
IRVING = Notation("1234567890abcdef")
#: mikemag's CUDA project: packed hexadecimal nibbles, colours 1..15.
HEX = Notation("123456789abcdef")


class Node:
    """A node of a file's tree. ``guess`` in certify's notation, or None for "the secrets left,
    played in code order" (the C++ text's bare count 1, or 2: Knuth's "guess either");
    ``next`` maps (black, white) to nodes; ``wins``, ``count``: what the file states (None: it
    says nothing); ``singletons``: the file says every answer to the guess leaves one secret,
    played next, and writes no branch; ``pairs``: every answer leaves at most two, played in code
    order (Knuth's ``x``); ``completed``: a trivial situation the file leaves unelaborated (a bare
    2 or an ``x``), completed by the importer; ``echo``: the file's win mark may be the writer's
    echo of the guess, not a statement (the C solver's current punch cards)."""

    __slots__ = ("guess", "line", "next", "wins", "count", "singletons", "pairs", "completed", "echo")

    def __init__(self, guess: str | None, line: int | None = None, *, wins: bool | None = None,
                 count: int | None = None, singletons: bool = False, pairs: bool = False,
                 completed: bool = False) -> None:
        self.guess = guess
        self.line = line
        self.next: dict[tuple[int, int], Node] = {}
        self.wins = wins
        self.count = count
        self.singletons = singletons
        self.pairs = pairs
        self.completed = completed
        self.echo = False


class Parsed:
    """What a parser found: the root, the notation, and what the file says of the game."""

    def __init__(self, root: Node, notation: Notation, *, pegs=None, colors=None, repetition=None,
                 size=None, algorithm=None, completed=0) -> None:
        self.root = root
        self.notation = notation
        self.pegs = pegs              # stated by the file (else taken from the codes)
        self.colors = colors          # stated by the file
        self.repetition = repetition  # stated by the file
        self.size = size              # number of secrets stated at the root
        self.algorithm = algorithm    # the program's name for its rule
        self.completed = completed    # trivial situations the file leaves unelaborated


class _Lines:
    """Line numbers of offsets in a text."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def of(self, offset: int) -> int:
        return bisect_right(self.starts, offset)


def _text(raw: bytes, name: str) -> str:
    """The file as text (UTF-8, a leading byte-order mark dropped)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ParseError(name, raw.count(b"\n", 0, e.start) + 1, "not UTF-8 text") from None
    return text[1:] if text.startswith("\ufeff") else text


def _whole(digits: str, name: str, line, what: str) -> int:
    """A whole number written in the file (ASCII digits), refused past 18 digits (Python refuses
    to read one of more than 4,300 digits, and none of the formats' numbers comes near 18)."""
    if len(digits) > 18:
        raise ParseError(name, line, f"{what} has {len(digits):,} digits: more than any game needs")
    return int(digits)


def _count(nodes: int, name: str, line) -> int:
    if nodes > MAX_NODES:
        raise ParseError(name, line, f"more than {MAX_NODES:,} nodes (the limit)")
    return nodes


def _answer_xo(token: str, pegs: int, name: str, line: int) -> tuple[int, int]:
    """The C solver's answer: X per black, O per white, '-' for the other pegs (``XO--`` = 1,1)."""
    m = re.fullmatch(r"(X*)(O*)(-*)", token)
    if not m or len(token) != pegs:
        raise ParseError(name, line, f"expected an answer of {pegs} marks: X (black), O (white), "
                         f"then - (like {'XO'.ljust(pegs, '-')[:pegs]}), got {_q(token)}")
    return len(m.group(1)), len(m.group(2))


# -- the C solver (arfst23/Mastermind): punch cards ------------------------------------------


def parse_punchcard(text: str, name: str) -> Parsed:
    """The C solver's printed tree: a header of answers, then one line per guess (see the docs)."""
    lines = text.split("\n")
    rows = [(i + 1, line.split()) for i, line in enumerate(lines) if line.strip()]
    if not rows:
        raise ParseError(name, 1, "empty file")
    head_line, header = rows[0]
    if not header or header[0][:1] not in "XO-":
        raise ParseError(name, head_line, "expected the header of answers (---- O--- ... XXXX) first")
    pegs = len(header[0])
    columns = [_answer_xo(t, pegs, name, head_line) for t in header]
    if len(set(columns)) != len(columns):
        raise ParseError(name, head_line, "an answer appears twice in the header")
    if (pegs, 0) not in columns:
        raise ParseError(name, head_line, f"the header has no column {'X' * pegs} (the win)")
    none = "-" * pegs
    records = {}   # number -> (line, depth, node, [(answer, cell)])
    order = []
    nodes = 0
    for line_no, tokens in rows[1:]:
        if len(tokens) == 1 and tokens[0].startswith("cpu="):  # the program's timing, last
            continue
        if len(tokens) != 3 + len(columns):
            raise ParseError(name, line_no, f"expected {3 + len(columns)} fields (line number, guess "
                             f"number, guess, {len(columns)} answers), got {len(tokens)}")
        number, depth, guess = tokens[:3]
        if not (number.isascii() and number.isdigit()) or not (depth.isascii() and depth.isdigit()):
            raise ParseError(name, line_no, f"expected a line number and a guess number, got "
                             f"{_q(number)} {_q(depth)}")
        key = _whole(number, name, line_no, "a line number")
        if key in records:
            raise ParseError(name, line_no, f"line number {_q(number)} appears twice")
        node = Node(DIGITS.ours(guess, name, line_no), line_no)
        records[key] = (line_no, _whole(depth, name, line_no, "a guess number"), node,
                        list(zip(columns, tokens[3:])))
        order.append(key)
        nodes = _count(nodes + 1, name, line_no)
    if not order:
        raise ParseError(name, head_line + 1, "no line after the header")
    parent: dict[int, int] = {}
    stated = False  # a win cell written ---- somewhere: the column states the wins
    for number in order:
        line_no, depth, node, cells = records[number]
        for answer, cell in cells:
            if answer == (pegs, 0):  # the win column: the line's own guess when it is a secret left
                if cell == none:
                    node.wins = False
                    stated = True
                elif DIGITS.ours(cell, name, line_no) == node.guess:
                    node.wins = True
                else:
                    raise ParseError(name, line_no, f"the {'X' * pegs} column holds {_q(cell)}, "
                                     f"not the line's guess or {none}")
            elif cell == none:
                continue
            elif cell.startswith(">"):
                target = cell[1:]
                if (not (target.isascii() and target.isdigit() and len(target) <= 18)
                        or int(target) not in records):
                    raise ParseError(name, line_no, f"{_q(cell)} names no line")
                if int(target) in parent:
                    raise ParseError(name, line_no, f"line {_q(target)} is already the next guess of "
                                     f"line {parent[int(target)]:03d}")
                child_line, child_depth, child, _ = records[int(target)]
                if child_depth != depth + 1:
                    raise ParseError(name, child_line, f"guess number {child_depth}, but it follows "
                                     f"guess number {depth} (line {number:03d})")
                parent[int(target)] = number
                node.next[answer] = child
            else:  # the one secret left after this answer, played next
                node.next[answer] = Node(DIGITS.ours(cell, name, line_no), line_no, wins=True, count=1)
                nodes = _count(nodes + 1, name, line_no)
    root = order[0]
    if root in parent or records[root][1] != 1:
        raise ParseError(name, records[root][0], "the first line must be guess number 1, "
                         "the next guess of no line")
    for number in order[1:]:
        if number not in parent:
            raise ParseError(name, records[number][0], f"line {number:03d} is the next guess of no line")
    if not stated:
        # No row writes ---- in the win column: the current mastermind.c stores every row's guess
        # there unconditionally, so a guess that is not a secret left is only an echo (the column
        # is never reached there); the replay accepts it and counts it (docs/import-formats.md).
        for number in order:
            records[number][2].echo = True
    return Parsed(records[root][2], DIGITS, pegs=pegs)


# -- the C solver (arfst23/Mastermind): YAML -------------------------------------------------


def parse_yaml(text: str, name: str) -> Parsed:
    """The C solver's YAML tree: ``[guess, {answer: code | [guess, {...}]}]``. Read as a stream
    of events (PyYAML), so every scalar stays the string written (``0012`` is not the octal
    number 10), anchors, aliases and tags are refused, and no recursion follows the nesting."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    # Frames: ["node", Node or None, items seen] and ["map", Node, pending key or None].
    stack: list[list] = []
    root = None
    pegs = None
    nodes = 0
    documents = 0

    def line(event) -> int:
        return event.start_mark.line + 1 if event.start_mark is not None else None

    def code(event) -> str:
        nonlocal pegs
        if pegs is None:
            pegs = len(event.value)
        return DIGITS.ours(event.value, name, line(event))

    try:
        for event in yaml.parse(text, Loader=loader):
            kind = type(event).__name__
            if kind in ("StreamStartEvent", "StreamEndEvent", "DocumentEndEvent"):
                continue
            if kind == "DocumentStartEvent":
                documents += 1
                if documents > 1:
                    raise ParseError(name, line(event), "a second YAML document (one tree per file)")
                continue
            if kind == "AliasEvent" or getattr(event, "anchor", None):
                raise ParseError(name, line(event), "YAML anchors and aliases are not part of the format")
            top = stack[-1] if stack else None
            if top is None:
                if root is not None or kind != "SequenceStartEvent":
                    raise ParseError(name, line(event), "expected the tree: a list [guess, {answer: ...}]")
                stack.append(["node", None, 0, line(event)])
            elif top[0] == "node":
                if kind == "SequenceEndEvent":
                    if top[2] != 2:
                        raise ParseError(name, line(event), "a guess needs [guess, {answer: ...}]")
                    stack.pop()
                    if not stack:
                        root = top[1]
                    continue
                if top[2] == 0:
                    if kind != "ScalarEvent":
                        raise ParseError(name, line(event), "expected the guess first in [guess, {...}]")
                    top[1] = Node(code(event), line(event))
                    nodes = _count(nodes + 1, name, line(event))
                    if len(stack) > 1:  # hang it under the answer that led here
                        parent = stack[-2]
                        parent[1].next[parent[2]] = top[1]
                        parent[2] = None
                    if len(stack) > 2 * MAX_DEPTH:
                        raise ParseError(name, line(event), f"deeper than {MAX_DEPTH} guesses")
                elif top[2] == 1:
                    if kind != "MappingStartEvent":
                        raise ParseError(name, line(event), "expected {answer: ...} after the guess")
                    top[1].wins = False  # unless the win is listed
                    stack.append(["map", top[1], None])
                else:
                    raise ParseError(name, line(event), "a guess is [guess, {answer: ...}]: two items")
                top[2] += 1
            else:  # in a mapping of answers
                node = top[1]
                if kind == "MappingEndEvent":
                    stack.pop()
                    continue
                if top[2] is None:  # a key
                    if kind != "ScalarEvent":
                        raise ParseError(name, line(event), "expected an answer (like XO--) as a key")
                    answer = _answer_xo(event.value, pegs, name, line(event))
                    if answer in node.next or (answer == (pegs, 0) and node.wins):
                        raise ParseError(name, line(event), f"answer {_q(event.value)} appears twice")
                    top[2] = answer
                elif kind == "ScalarEvent":
                    value = code(event)
                    if top[2] == (pegs, 0):
                        if value != node.guess:
                            raise ParseError(name, line(event), f"the win {'X' * pegs} must name the "
                                             f"guess itself, got {_q(event.value)}")
                        node.wins = True
                    else:
                        node.next[top[2]] = Node(value, line(event), wins=True, count=1)
                        nodes = _count(nodes + 1, name, line(event))
                    top[2] = None
                elif kind == "SequenceStartEvent":
                    if top[2] == (pegs, 0):
                        raise ParseError(name, line(event), "the win has no next guess")
                    stack.append(["node", None, 0, line(event)])
                else:
                    raise ParseError(name, line(event), "expected a code or [guess, {...}] after an answer")
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        raise ParseError(name, mark.line + 1 if mark else None,
                         f"not YAML: {e.problem or e.context}") from None
    except yaml.reader.ReaderError as e:  # a character YAML refuses: no mark, a position
        line = text.count("\n", 0, e.position) + 1 if isinstance(e.position, int) else None
        character = chr(e.character) if isinstance(e.character, int) else e.character
        raise ParseError(name, line, f"not YAML: {_q(character)} is not allowed") from None
    except yaml.YAMLError as e:
        raise ParseError(name, None, f"not YAML: {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
    if root is None:
        raise ParseError(name, None, "no tree (expected [guess, {answer: ...}])")
    return Parsed(root, DIGITS, pegs=pegs)


# -- the C++ solver (fancidev / widmaN mastermind-strategy): Irving's notation ---------------


_NUMBER = re.compile(r"[0-9]{1,9}")
_CODE = re.compile(r"[0-9a-zA-Z]+")


class _Irving:
    """Reader of the C++ solver's strategy text (``WriteStrategy_TextFormat``)::

        1296 (1123: 2 (2311), 44A, ...; 4 (1312), ...; 20J; 1)

        A = (2345: 0, 6 (3412), ...)

    A state is a count of secrets, then nothing (0 or 1 secret: the one left is played; 2:
    Knuth's "guess either", completed), a label (defined below the tree), ``(G)`` or ``(G*)``
    (every answer to G leaves one secret, played next; ``*``: G is not one of them, and a file
    with no ``*`` does not say), ``(Gx)`` (Knuth's: every answer leaves at most two, completed),
    or ``(G: entries)``, one entry per answer in
    the order 0,p 0,p-1 ... 0,0; 1,p-1 ... 1,0; ...; p,0, separated by ``,`` within a number of
    blacks and ``;`` between, ``)`` at the end; the last entry (the win) is 1 or 0."""

    def __init__(self, text: str, name: str) -> None:
        self.text = text
        self.name = name
        self.pos = 0
        self.lines = _Lines(text)
        self.pegs = None
        self.nodes = 0
        self.labels: dict[str, Node] = {}   # referenced, waiting for their definition
        self.defined: set[str] = set()
        self.completed = 0  # trivial situations left unelaborated (a bare 2, an 'x')
        self.plain: list[Node] = []  # the nodes written (G), without '*'
        self.starred = False  # some node is written (G*)

    def line(self, pos=None) -> int:
        return self.lines.of(self.pos if pos is None else pos)

    def fail(self, what: str, pos=None):
        raise ParseError(self.name, self.line(pos), what)

    def skip(self) -> None:
        n = len(self.text)
        while self.pos < n and self.text[self.pos] in " \t\r\n":
            self.pos += 1

    def peek(self) -> str:
        self.skip()
        return self.text[self.pos:self.pos + 1]

    def seen(self) -> str:
        """What stands at the current position, for messages."""
        return _q(self.text[self.pos:self.pos + 12]) if self.pos < len(self.text) else "the end"

    def expect(self, ch: str) -> None:
        if self.peek() != ch:
            self.fail(f"expected '{ch}', got {self.seen()}")
        self.pos += 1

    def number(self) -> int:
        self.skip()
        m = _NUMBER.match(self.text, self.pos)
        if not m:
            self.fail(f"expected a number of secrets, got {self.seen()}")
        self.pos = m.end()
        return int(m.group())

    def code(self) -> str:
        self.skip()
        m = _CODE.match(self.text, self.pos)
        if not m:
            self.fail(f"expected a guess, got {self.seen()}")
        raw = m.group()
        if raw[-1:] == "x" and len(raw) > 1:  # the 'x' mark written right after the guess
            raw = raw[:-1]
        self.pos = m.start() + len(raw)
        if self.pegs is None:
            self.pegs = len(raw)
        elif len(raw) != self.pegs:
            self.fail(f"guess {_q(raw)} has {len(raw)} pegs, the first guess has {self.pegs}")
        return IRVING.ours(raw, self.name, self.line())

    def state(self, depth: int) -> Node | None:
        """A count and what follows it; None for a count of 0 (no branch)."""
        self.skip()
        start = self.pos
        at = self.line()
        count = self.number()
        ch = self.peek()
        if "A" <= ch <= "Z" and ch:
            self.pos += 1
            if ch in self.labels:
                self.fail(f"label {ch} is used twice")
            node = self.labels[ch] = Node(None, at, count=count)
            return node
        if ch == "(":
            node = self.body(depth)
            node.count = count
            return node
        if count == 0:
            return None
        if count == 1:
            return self._node(Node(None, at, count=1, wins=True))
        if count == 2:  # Knuth's "guess either": the first in code order, then the other
            self.completed += 1
            return self._node(Node(None, at, count=2, wins=True, singletons=True, completed=True))
        self.fail(f"{count} secrets left, but no guess for them (only 0, 1 or 2 may stand alone: "
                  "for 3 or more, which guess is played changes the total)", start)

    def _node(self, node: Node) -> Node:
        self.nodes = _count(self.nodes + 1, self.name, node.line)
        return node

    def body(self, depth: int, into: Node | None = None) -> Node:
        """``(G)``, ``(G*)`` or ``(G: entries)``."""
        if depth > MAX_DEPTH:
            self.fail(f"deeper than {MAX_DEPTH} guesses")
        self.expect("(")
        at = self.line()
        node = into or Node(None, at)
        node.guess, node.line = self.code(), at
        self._node(node)
        mark = self.peek()
        if mark in ("*", "x"):
            self.pos += 1
        if mark == "*":
            node.wins = False
            self.starred = True
        ch = self.peek()
        if mark == "x":  # every answer leaves at most two secrets, played in code order
            if ch != ")":
                self.fail(f"expected ')' after the 'x' mark (answers leave at most two secrets, not "
                          f"written), got {self.seen()}")
            self.pos += 1
            node.pairs = node.completed = True
            self.completed += 1
            return node
        if ch == ")":
            self.pos += 1
            node.singletons = True
            if mark != "*":
                node.wins = True
                self.plain.append(node)
            return node
        if ch != ":":
            self.fail(f"expected ')' or ':' after the guess, got {self.seen()}")
        self.pos += 1
        p = self.pegs
        for a in range(p + 1):
            for b in range(p - a, -1, -1):
                if (a, b) == (p - 1, 1):  # never occurs; Knuth's tables write it "0,"
                    back = self.pos
                    self.skip()
                    if self.text.startswith("0", self.pos):
                        self.pos += 1
                        if self.peek() == ",":
                            self.pos += 1
                            continue
                    self.pos = back
                    continue
                if a == p:
                    entry_at = self.pos
                    wins = self.number()
                    if wins not in (0, 1):
                        self.fail(f"the win's entry must be 1 or 0, got {wins}", entry_at)
                    if node.wins is not None and node.wins != bool(wins):
                        self.fail(f"guess {_q(IRVING.theirs(node.guess))} is marked '*' (not a secret "
                                  "left) but its win entry is 1", entry_at)
                    node.wins = bool(wins)
                else:
                    child = self.state(depth + 1)
                    if child is not None:
                        node.next[(a, b)] = child
                sep = "," if b > 0 else (";" if a < p else ")")
                if self.peek() != sep:
                    self.fail(f"expected '{sep}' after the entry for answer {a},{b}, got {self.seen()}")
                self.pos += 1
        return node

    def parse(self) -> Parsed:
        root = self.state(1)
        if root is None or root.guess is None:
            self.fail("expected the tree: the number of secrets, then (guess: ...)", 0)
        while self.peek():
            label_at = self.pos
            label = self.text[self.pos]
            if not "A" <= label <= "Z":
                self.fail(f"expected a label definition (A = (...)), got {self.seen()}")
            self.pos += 1
            self.expect("=")
            if label not in self.labels:
                self.fail(f"label {label} is defined but never used", label_at)
            if label in self.defined:
                self.fail(f"label {label} is defined twice", label_at)
            self.defined.add(label)
            self.body(1, into=self.labels[label])
        missing = sorted(set(self.labels) - self.defined)
        if missing:
            self.fail(f"label {missing[0]} is used but never defined")
        _reachable(root, self.nodes, self.name)
        if not self.starred:
            # No '*' anywhere (Knuth's notation has none): the file does not tell a guess that is a
            # secret left from one that is not, so (G) says nothing of G; the replay decides.
            for node in self.plain:
                node.echo = True
        return Parsed(root, IRVING, pegs=self.pegs, size=root.count, completed=self.completed)


def _reachable(root: Node, nodes, name: str, show=str) -> None:
    """Refuse a foreign tree with a shared node, a cycle or a node not under the root
    (``nodes``: all of them, or how many)."""
    seen = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            raise ParseError(name, node.line, "a node reached twice (the file must hold a tree)")
        seen.add(id(node))
        stack.extend(node.next.values())
    if isinstance(nodes, int):
        if len(seen) < nodes:
            raise ParseError(name, None, "a part of the file is not reached from the first guess")
        return
    for node in nodes:
        if id(node) not in seen:
            raise ParseError(name, node.line, f"guess {_q(show(node.guess))} is not reached from the first "
                             "guess (no edge leads to it)")


def parse_irving(text: str, name: str) -> Parsed:
    return _Irving(text, name).parse()


# -- the CUDA project (mikemag/Mastermind): GraphViz strategy dump ---------------------------

_DOT_TOKEN = re.compile(r'''
    (?P<space>[ \t\r]+|\#[^\n]*|//[^\n]*|/\*.*?\*/)
  | (?P<newline>\n)
  | (?P<arrow>->)
  | (?P<punct>[{}\[\]=,;])
  | (?P<quoted>"(?:[^"\\]|\\.)*")
  | (?P<id>[A-Za-z_][A-Za-z_0-9.]*|-?[0-9]+(?:\.[0-9]*)?)
''', re.X | re.S)


def _dot_tokens(text: str, name: str):
    """(kind, value, line) of a DOT text, without spaces and comments."""
    line = 1
    pos = 0
    n = len(text)
    while pos < n:
        m = _DOT_TOKEN.match(text, pos)
        if not m:
            raise ParseError(name, line, f"unexpected {_q(text[pos:pos + 12])}")
        kind = m.lastgroup
        if kind == "quoted":
            yield "id", m.group()[1:-1].replace('\\"', '"'), line
        elif kind in ("id", "arrow", "punct"):
            yield (kind if kind != "punct" else m.group()), m.group(), line
        line += m.group().count("\n")
        pos = m.end()
    yield "end", "", line


def parse_dot(text: str, name: str) -> Parsed:
    """The CUDA project's strategy dump (``Strategy::dump`` / ``Solver::dump``): a digraph
    named ``Mastermind_Strategy_<algorithm>_<p>p<c>c``; a node per guess, labelled with the
    code (``"1122"`` or ``"1122 - 0"``); an edge per answer, labelled with two hexadecimal
    digits black, white (``"13"``); the root named by ``root=``."""
    tokens = _dot_tokens(text, name)
    tok = next(tokens)

    def take(kind=None, what="") -> tuple[str, str, int]:
        nonlocal tok
        current = tok
        if kind is not None and current[0] != kind:
            raise ParseError(name, current[2], f"expected {what or kind}, got "
                             f"{_q(current[1]) if current[0] != 'end' else 'the end'}")
        tok = next(tokens)
        return current

    def attributes() -> dict:
        attrs = {}
        while tok[0] == "[":
            take("[")
            while tok[0] != "]":
                key = take("id", "an attribute name")[1]
                take("=", "'='")
                attrs[key] = take("id", "an attribute value")[1]
                if tok[0] in (",", ";"):
                    take()
            take("]")
        return attrs

    if tok[0] == "id" and tok[1].lower() == "strict":
        take()
    if tok[0] != "id" or tok[1].lower() != "digraph":
        raise ParseError(name, tok[2], "expected 'digraph' (a GraphViz strategy dump)")
    take()
    title = take("id", "the graph's name")[1] if tok[0] == "id" else ""
    take("{", "'{'")
    labels: dict[str, tuple[str, int]] = {}
    edges: list[tuple[str, str, str, int]] = []
    graph_attrs: dict[str, str] = {}
    while tok[0] != "}":
        kind, value, line = take("id", "a statement")
        if value in ("node", "edge", "graph") and tok[0] == "[":
            attributes()
        elif tok[0] == "=":
            take()
            graph_attrs[value] = take("id", "a value")[1]
        elif tok[0] == "arrow":
            take()
            target = take("id", "the edge's target")[1]
            if tok[0] == "arrow":
                raise ParseError(name, tok[2], "chains of edges are not part of the format")
            attrs = attributes()
            if "label" not in attrs:
                raise ParseError(name, line, "an edge without a label (the answer)")
            edges.append((value, target, attrs["label"], line))
            _count(len(edges), name, line)
        else:
            attrs = attributes()
            if "label" in attrs:
                if value in labels:
                    raise ParseError(name, line, f"node {_q(value)} is labelled twice")
                labels[value] = (attrs["label"], line)
                _count(len(labels), name, line)
        if tok[0] == ";":
            take()
    take("}", "'}'")
    if tok[0] != "end":
        raise ParseError(name, tok[2], f"unexpected {_q(tok[1])} after the graph")
    m = re.fullmatch(r"Mastermind_Strategy_(.*)_([0-9]+)p([0-9]+)c", title)
    pegs, colors, algorithm = None, None, None
    if m:
        pegs = _whole(m.group(2), name, None, "the graph name's number of pegs")
        colors = _whole(m.group(3), name, None, "the graph name's number of colours")
        algorithm = m.group(1)
    nodes: dict[str, Node] = {}
    for key, (label, line) in labels.items():
        lm = re.fullmatch(r"([0-9A-Fa-f]+)(?: - [0-9]+)?", label)
        if not lm:
            raise ParseError(name, line, f"expected a code as the label, got {_q(label)}")
        if pegs is None:
            pegs = len(lm.group(1))
        elif len(lm.group(1)) != pegs:
            raise ParseError(name, line, f"code {_q(lm.group(1))} has {len(lm.group(1))} pegs, "
                             f"the game has {pegs}")
        nodes[key] = Node(HEX.ours(lm.group(1), name, line), line)
    parent: dict[str, str] = {}
    for source, target, label, line in edges:
        for end in (source, target):
            if end not in nodes:
                raise ParseError(name, line, f"node {_q(end)} has no label (its guess)")
        if not re.fullmatch(r"[0-9A-Fa-f]{2}", label):
            raise ParseError(name, line, f"expected an answer as two hexadecimal digits "
                             f"(black, white), got {_q(label)}")
        answer = (int(label[0], 16), int(label[1], 16))
        if target in parent:
            raise ParseError(name, line, f"node {_q(target)} has two parents")
        if answer in nodes[source].next:
            raise ParseError(name, line, f"answer {_q(label)} leaves node {_q(source)} twice")
        if answer == (pegs, 0):
            raise ParseError(name, line, f"an edge for the win {_q(label)}")
        parent[target] = source
        nodes[source].next[answer] = nodes[target]
    if "root" in graph_attrs:
        root_key = graph_attrs["root"]
        if root_key not in nodes:
            raise ParseError(name, None, f"root={_q(root_key)} names no node")
    else:
        roots = [k for k in nodes if k not in parent]
        if len(roots) != 1:
            raise ParseError(name, None, f"no root= and {len(roots)} nodes without a parent")
        root_key = roots[0]
    if root_key in parent:
        raise ParseError(name, nodes[root_key].line, "the root has a parent")
    _reachable(nodes[root_key], sorted(nodes.values(), key=lambda n: n.line), name, HEX.theirs)
    # The program plays only games with repetition (its codewords count colours**pins).
    return Parsed(nodes[root_key], HEX, pegs=pegs, colors=colors, repetition=True if m else None,
                  algorithm=algorithm)


# -- the game ----------------------------------------------------------------------------------


def _falling(c: int, p: int) -> int:
    n = 1
    for k in range(p):
        n *= c - k
    return n


def _codes_used(root: Node):
    """(pegs, colours used, whether a code repeats a colour, nodes, nodes written ``(G)``, an
    ``(Gx)`` counted twice: each answer can leave two) over every guess of the tree."""
    top, repeats, pegs, nodes, singletons = -1, False, None, 0, 0
    stack = [root]
    while stack:
        node = stack.pop()
        nodes += 1
        singletons += node.singletons + 2 * node.pairs
        if node.guess is not None:
            pegs = pegs or len(node.guess)
            top = max(top, max(ALPHABET.index(ch) for ch in node.guess))
            repeats = repeats or len(set(node.guess)) < len(node.guess)
        stack.extend(node.next.values())
    return pegs, top + 1, repeats, nodes, singletons


def _reach(pegs: int, nodes: int, singletons: int) -> int:
    """The most secrets a tree of ``nodes`` guesses can find: one per guess (a guess finds at most
    itself), and a ``(G)`` guess one more per answer it can get but the win (each answer's one
    secret is played next, unwritten)."""
    answers = (pegs + 1) * (pegs + 2) // 2 - 1
    return nodes + singletons * answers


def _game(parsed: Parsed, name: str, pegs, colors, repetition):
    """The game: what the options say, else what the file states, else what its codes show
    (a tree plays every secret, so the colours used are the game's, and a game with
    repetition shows a code that repeats one)."""
    from .game import MAX_CODES, Game

    used_pegs, used_colors, repeats, nodes, singletons = _codes_used(parsed.root)
    file_pegs = parsed.pegs or used_pegs
    if pegs is not None and file_pegs is not None and pegs != file_pegs:
        raise ParseError(name, None, f"the file's codes have {file_pegs} pegs, --pegs says {pegs}")
    p = pegs if pegs is not None else file_pegs
    if p is None:
        raise ParseError(name, None, "the file writes no code: give --pegs and --colors")
    if p > MAX_PEGS:  # before any count of codes (colours ** pegs) is computed
        raise ParseError(name, None, f"a game of {p:,} pegs has more than {MAX_CODES:,} codes "
                         f"(the limit; every game past {MAX_PEGS} pegs has)")
    if parsed.colors is not None and colors is not None and colors != parsed.colors:
        raise ParseError(name, None, f"the file says {parsed.colors} colours, --colors says {colors}")
    c, rep = colors if colors is not None else parsed.colors, repetition
    if parsed.size is not None and (c is None or rep is None):
        fits = [(k, r) for k in range(max(2, used_colors), len(ALPHABET) + 1) for r in (True, False)
                if (c is None or k == c) and (rep is None or r == rep)
                and (k ** p if r else _falling(k, p)) == parsed.size]
        if not fits and c is None:
            raise ParseError(name, parsed.root.line, f"{parsed.size} secrets at the root is the size of "
                             f"no game of {p} pegs: give --colors (and --no-repetition)")
        if not fits:
            raise ParseError(name, parsed.root.line, f"{parsed.size} secrets at the root is not the size "
                             f"of the game of {p} pegs and {c} colours"
                             f"{'' if rep is None else ' without repetition'}")
        c, rep = fits[0]
    if c is None:
        c = used_colors
    if rep is None:
        rep = parsed.repetition if parsed.repetition is not None else repeats
    try:
        game = Game(p, c, rep)
        game.check_size()
    except CertifyError as e:
        raise ParseError(name, None, str(e)) from None
    # Before any table of the game is made: a file of a few guesses cannot name a big game.
    reach = _reach(p, nodes, singletons)
    if game.size > reach:
        written = f"{nodes:,} guess{'es' * (nodes != 1)}"
        if singletons:
            written += f", {singletons:,} of them written (G), which find one more per answer"
        raise ParseError(name, None, f"the game {game} has {game.size:,} codes, but the file's tree "
                         f"can find at most {reach:,} secret{'s' * (reach != 1)} ({written}): "
                         "the file is not a whole tree of that game")
    return game


# -- the replay --------------------------------------------------------------------------------


def _path(path, show) -> str:
    steps = [f"{show(g)} -({b},{w})->" for g, (b, w) in path]
    if len(steps) > 16:
        steps[8:-4] = [f"[{len(steps) - 12} more steps]"]
    return " ".join(steps)


def _listing(game, secrets, show) -> str:
    """The first few secrets of a set, for messages."""
    return ", ".join(show(game.text(s)) for s in secrets[:3].tolist()) + (", ..." if len(secrets) > 3 else "")


def assemble(game, root: Node, notation: Notation = DIGITS, name: str = "<file>", notes: dict | None = None):
    """Play every secret of ``game`` down the file's tree (top-down, iteratively): check what the
    file states, fill in the last guesses of ``(G)`` nodes, the guesses of bare counts and of
    ``(Gx)`` nodes (the secrets left played in code order), and return (certificate tree,
    histogram {guesses: secrets}). Raises :class:`Mismatch` at the first secret (in tree order,
    branches in answer order) the tree fails or whose node states something false, ParseError for
    a code that is not one of the game's. ``notes`` (a dict) receives ``"echoes"``: the win marks
    accepted as the writer's echo of a guess that is not a secret left (``Node.echo``)."""
    import numpy as np

    show = notation.theirs
    histogram: dict[int, int] = {}
    out: dict = {}
    seen = set()
    # The budget of secrets played through the file's guesses (a whole tree's total guesses).
    budget, played = max(REPLAY_FLOOR, REPLAY_GUESSES * game.size), 0
    stack = [(root, np.arange(game.size, dtype=np.int64), (), out)]
    while stack:
        node, secrets, path, here = stack.pop()
        if id(node) in seen:
            raise ParseError(name, node.line, "a node reached twice (the file must hold a tree)")
        seen.add(id(node))
        played += len(secrets)
        if played > budget:  # before this guess's work
            raise ParseError(name, node.line, f"the replay would play more than {budget:,} secrets "
                             f"through the file's guesses, the budget for the game {game} "
                             f"({game.size:,} codes; {REPLAY_GUESSES} guesses per code on average, "
                             f"at least {REPLAY_FLOOR:,} in all; real trees take at most 6 per code)")
        depth = len(path) + 1
        at = f" (line {node.line})" if node.line else ""
        after = f"after {_path(path, show)}" if path else "at the start"
        if depth > MAX_DEPTH:
            raise Mismatch(f"{after}: the tree is deeper than {MAX_DEPTH} guesses{at}")
        if node.count is not None and node.count != len(secrets):
            listing = _listing(game, secrets, show)
            raise Mismatch(f"{after}: the file counts {node.count} secret{'s' * (node.count != 1)} "
                           f"left{at}, but {len(secrets)} {'are' if len(secrets) != 1 else 'is'} "
                           f"left there ({listing})")
        if node.guess is None:  # the one secret left (the count said so)
            guess = int(secrets[0])
        else:
            try:
                guess = game.parse(node.guess)
            except CertifyError:
                raise ParseError(name, node.line, f"{_q(show(node.guess))} is not a code of the game "
                                 f"{game.pegs}x{game.colors}"
                                 f"{'' if game.repetition else ' without repetition'}") from None
        g = show(game.text(guess))
        where = f"the first guess {g}" if not path else f"the guess {g} {after}"
        fbs = game.feedback_row(guess, secrets)
        won = bool((fbs == game.win).any())
        if node.wins and not won and node.echo:  # the writer's echo, never reached: not a claim
            if notes is not None:
                notes["echoes"] = notes.get("echoes", 0) + 1
        elif node.wins is not None and node.wins != won:
            if node.wins:
                first = show(game.text(int(secrets[0])))
                if len(secrets) == 1:
                    said, who = "the secret", f"the secret left there is {first}"
                else:
                    said, who = "a secret", (f"it is not one of the {len(secrets)} secrets left there "
                                             f"({_listing(game, secrets, show)})")
                raise Mismatch(f"secret {first}: the file says {where} is {said} left there{at}, but {who}")
            raise Mismatch(f"secret {g}: found in {depth} guess{'es' * (depth != 1)} by {where}, but the "
                           f"file does not count it found there{at}")
        if won:
            histogram[depth] = histogram.get(depth, 0) + 1
        here["guess"] = game.text(guess)
        # The secrets by answer, each class in code order; the win, the largest answer code
        # (p*(p+1)), sorts last and is left out.
        sizes = np.bincount(fbs, minlength=game.n_feedbacks)
        sizes[game.win] = 0
        ordered = secrets[np.argsort(fbs, kind="stable")]
        starts = np.concatenate(([0], np.cumsum(sizes)))
        classes = {game.decode(fb): ordered[starts[fb]:starts[fb + 1]] for fb in np.flatnonzero(sizes).tolist()}
        if node.singletons or node.pairs:
            most = 1 if node.singletons else 2
            for (b, w), cls in classes.items():
                if len(cls) > most:
                    some = _listing(game, cls, show)
                    first = show(game.text(int(cls[0])))
                    line = f" at line {node.line}" if node.line else ""
                    said = f"({g})" if node.singletons else f"({g}x)"
                    leaves = "one secret" if node.singletons else "at most two secrets"
                    raise Mismatch(f"secret {first}: the file is wrong{line}: its {said} says every answer "
                                   f"to {g} leaves {leaves}, but answer ({b},{w}) to {where} leaves "
                                   f"{len(cls)} secrets ({some})")
            if classes:
                here["next"] = branches = {}
                for (b, w), cls in classes.items():
                    # The secrets left played in code order: the first, then (Gx) the other.
                    branches[f"{b},{w}"] = last = {"guess": game.text(int(cls[0]))}
                    histogram[depth + 1] = histogram.get(depth + 1, 0) + 1
                    if len(cls) == 2:
                        fb = int(game.feedback_row(int(cls[0]), cls[1:])[0])
                        b2, w2 = game.decode(fb)
                        last["next"] = {f"{b2},{w2}": {"guess": game.text(int(cls[1]))}}
                        histogram[depth + 2] = histogram.get(depth + 2, 0) + 1
            continue
        for answer in sorted(set(classes) | set(node.next)):
            b, w = answer
            if answer not in node.next:
                s = show(game.text(int(classes[answer][0])))
                raise Mismatch(f"secret {s}: {where} has no branch for its answer ({b},{w}){at}")
            if answer not in classes:
                child = node.next[answer]
                line = f" (line {child.line})" if child.line else at
                raise Mismatch(f"{where} has a branch for answer ({b},{w}){line}, but no secret "
                               "left there gives that answer")
        if classes:
            branches = here["next"] = {}
            pending = []
            for answer, cls in classes.items():
                branches[f"{answer[0]},{answer[1]}"] = child_out = {}
                pending.append((node.next[answer], cls, path + ((game.text(guess), answer),), child_out))
            stack.extend(reversed(pending))
    return out, dict(sorted(histogram.items()))


# -- the CUDA project (mikemag/Mastermind): JSON run results ---------------------------------

#: The CUDA project's names of its rules, and certify's strategies that follow them.
CUDA_STRATEGIES = {"Knuth": "knuth", "Most Parts": "most-parts", "Expected Size": "expected-size",
                   "Entropy": "entropy"}


def _number(run: dict, key: str, where: str, name: str, kind=int):
    """A field of a run, written as a number or as a string of one (the 2022 files)."""
    value = run.get(key)
    if isinstance(value, str):
        pattern = r"[0-9]+" if kind is int else r"[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?"
        if not re.fullmatch(pattern, value.strip()):
            value = None
        elif kind is int:
            value = _whole(value.strip(), name, None, f"{where}: {key!r}")
        else:
            value = float(value.strip())
    if isinstance(value, bool) or not isinstance(value, int if kind is int else (int, float)) \
            or value != value or value in (float("inf"), float("-inf")):
        raise ParseError(name, None, f"{where}: {key!r} must be a {'whole ' if kind is int else ''}number, "
                         f"got {_q(run.get(key))}")
    return value


def _run_work(game) -> tuple[int, int]:
    """(codes x codes x answers, answers): the size of a run's rebuild, for MAX_RUN_WORK."""
    answers = (game.pegs + 1) * (game.pegs + 2) // 2
    return game.size * game.size * answers, answers


def import_runs(raw: bytes, name: str, run: int | None = None, *, pegs=None, colors=None,
                repetition=None) -> dict:
    """A certificate for one run of the CUDA project's results. The results hold no tree: the
    run's rule is rebuilt with certify's builder from the run's first guess, and the run is
    accepted only if every number it states (codewords, total, maximum, average, sample game)
    is what that tree gives; Mismatch names the first that is not."""
    import json

    from . import verify
    from .certificate import make_certificate
    from .game import Game
    from .strategies import get_strategy
    from .text import shown

    text = _text(raw, name)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ParseError(name, e.lineno, f"not JSON: {e.msg}") from None
    except RecursionError:
        raise ParseError(name, None, "not JSON: nested too deeply") from None
    except ValueError:  # a number of more than 4,300 digits (Python's limit for reading one)
        raise ParseError(name, None, "not JSON that fits: a number of more than 4,300 digits") from None
    items = doc if isinstance(doc, list) else [doc]
    runs = [item["run"] for item in items if isinstance(item, dict) and isinstance(item.get("run"), dict)]
    if not runs:
        raise ParseError(name, None, 'no run in the file (expected [{"run": {...}}, ...])')
    if run is None:
        if len(runs) > 1:
            raise ParseError(name, None, f"{len(runs)} runs in the file: choose one with --run N (1..{len(runs)})")
        run = 1
    if not 1 <= run <= len(runs):
        raise ParseError(name, None, f"--run {run}: the file has {len(runs)} run{'s' * (len(runs) != 1)}")
    record = runs[run - 1]
    where = f"run {run}"
    p = _number(record, "Pin Count", where, name)
    c = _number(record, "Color Count", where, name)
    rule = record.get("Strategy")
    where = f"run {run} ({shown(rule, 40)} {p}p{c}c)"
    if rule not in CUDA_STRATEGIES:
        raise ParseError(name, None, f"{where}: no certify strategy follows {_q(rule)} "
                         f"(known: {', '.join(CUDA_STRATEGIES)})")
    for option, value, stated in (("--pegs", pegs, p), ("--colors", colors, c)):
        if value is not None and value != stated:
            raise ParseError(name, None, f"{where}: the run says {stated}, {option} says {value}")
    if repetition is False:
        raise ParseError(name, None, f"{where}: the CUDA project plays games with repetition only")
    first_raw = record.get("Initial Guess")
    if isinstance(first_raw, int) and not isinstance(first_raw, bool):
        first_raw = str(first_raw)
    if not isinstance(first_raw, str) or len(first_raw) != p:
        raise ParseError(name, None, f"{where}: 'Initial Guess' must be a code of {p} pins, got {_q(first_raw)}")
    first = HEX.ours(first_raw, name, None)
    try:
        game = Game(p, c, True)
        game.check_size()
    except CertifyError as e:
        raise ParseError(name, None, f"{where}: {e}") from None
    work, answers = _run_work(game)
    if work > MAX_RUN_WORK:  # before the game's tables and the build
        raise ParseError(name, None, f"{where}: the game {game} is too big to rebuild: {game.size:,} codes, "
                         f"{game.size:,}^2 x {answers} answers = {work:.2e}, past the budget of "
                         f"{MAX_RUN_WORK:.2e} (6x7, the largest real run, is 3.88e+11: about 30 s CPU); "
                         f"certify build {CUDA_STRATEGIES[rule]} --pegs {p} --colors {c} --first {first} "
                         "builds it without a budget")
    try:
        strategy = get_strategy(CUDA_STRATEGIES[rule])(game, first=first)
    except CertifyError as e:
        raise ParseError(name, None, f"{where}: {e}") from None
    cert = make_certificate(strategy)
    claims = cert["claims"]
    show = HEX.theirs
    total, most, size = claims["total_guesses"], claims["max_guesses"], claims["secrets"]
    built = f"certify's {strategy.id} from {first_raw}"

    def game_of(secret: str) -> list[str]:
        node, guesses = cert["tree"], []
        while True:
            guesses.append(node["guess"])
            if node["guess"] == secret:
                return guesses
            b, w = verify.feedback(node["guess"], secret)
            node = node["next"][f"{b},{w}"]

    def deepest() -> str:
        depths = verify.secret_depths(cert)
        return next(s for s in sorted(depths) if depths[s] == most)

    if "Total Codewords" in record:
        n = _number(record, "Total Codewords", where, name)
        if n != size:
            raise Mismatch(f"{where}: the file counts {n} codewords, the game has {size}")
    if "Total Turns" in record:
        n = _number(record, "Total Turns", where, name)
        if n != total:
            raise Mismatch(f"{where}: the file claims {n} guesses in all, {built} takes {total}")
    if "Max Turns" in record:
        n = _number(record, "Max Turns", where, name)
        if n != most:
            s = deepest()
            raise Mismatch(f"{where}: secret {show(s)} is found in {most} guesses "
                           f"({' '.join(map(show, game_of(s)))}) by {built}, "
                           f"but the file claims {'at most' if n < most else 'a longest game of'} {n}")
    if "Average Turns" in record:
        mean = _number(record, "Average Turns", where, name, float)
        if abs(mean - total / size) > 1e-5 * max(1.0, abs(mean)):
            raise Mismatch(f"{where}: the file claims {mean:g} guesses on average, {built} takes "
                           f"{total}/{size} = {total / size:.6g}")
    sample = record.get("Sample Game")
    if sample is not None:
        if (not isinstance(sample, list) or not sample
                or not all(isinstance(g, str) and len(g) == p for g in sample)):
            raise ParseError(name, None, f"{where}: 'Sample Game' must be a list of codes of {p} pins")
        secret = HEX.ours(sample[-1], name, None)
        try:
            game.parse(secret)
        except CertifyError:
            raise ParseError(name, None, f"{where}: the sample game's secret {_q(sample[-1])} is not a "
                             "code of the game") from None
        played = [show(g) for g in game_of(secret)]
        written = [g.lower() for g in sample]
        if played != written:
            raise Mismatch(f"{where}: secret {show(secret)}: the file's sample game plays "
                           f"{' '.join(written)}, {built} plays {' '.join(played)}")
    return cert


# -- the whole import ----------------------------------------------------------------------------

#: FORMAT: what it is (the program and the files it writes).
FORMATS = {
    "cpp-text": "the C++ solver's strategy text (fancidev's mmstrat, Irving's notation)",
    "c-punchcard": "the C solver's printed tree (arfst23/Mastermind solution-P-C-D files)",
    "c-yaml": "the C solver's YAML tree (arfst23/Mastermind solution-P-C-D.yml files)",
    "cuda-dot": "the CUDA project's strategy dump (mikemag/Mastermind mastermind_strategy_*.gv)",
    "cuda-json": "the CUDA project's run results (mikemag/Mastermind mastermind_run_stats_*.json), "
                 "whose rule is rebuilt by certify and every number checked",
}
_PARSERS = {"cpp-text": parse_irving, "c-punchcard": parse_punchcard, "c-yaml": parse_yaml,
            "cuda-dot": parse_dot}


class _Imported:
    """What :func:`certify.certificate.wrap` needs of a strategy, for a tree read from a file."""

    id = "imported"

    def __init__(self, game, fmt: str, raw: bytes, algorithm, notes: dict) -> None:
        self.game = game
        self._params = {"format": fmt, "sha256": hashlib.sha256(raw).hexdigest()}
        if algorithm:
            self._params["algorithm"] = algorithm
        self._params.update(notes)
        self.reference = f"imported from {FORMATS[fmt]}; see docs/import-formats.md"

    def params(self) -> dict:
        return dict(self._params)


def unpacked(raw: bytes, name: str) -> bytes:
    """The file's bytes, gunzipped when they start with gzip's magic bytes (whatever the file's
    name), by the same bounded reader as the verifier's: at most MAX_BYTES once unpacked."""
    if raw[:2] != b"\x1f\x8b":
        return raw
    from . import reader

    try:
        return reader.gunzip(raw, MAX_BYTES)
    except reader.Invalid as e:
        raise ParseError(name, None, str(e)) from None


#: What ``strategy.params`` says of a tree the importer completed or read past an echo, and the
#: note the command prints (docs/import-formats.md).
NOTES = {
    "unmarked": "read {} (G) guess{} that {} not a secret left, though not marked '*': the file marks "
                "none (Knuth's notation), so (G) does not say whether G is one",
    "completed": "completed {} trivial situation{} the file leaves unelaborated (a bare 2 or an 'x': "
                 "the secrets left played in code order)",
    "echoes": "read {} win mark{} as the writer's echo of a guess that is not a secret left there "
              "(the column is never reached there)",
}


def note_lines(params: dict) -> list[str]:
    """The notes of a certificate's ``strategy.params`` (an import's completions and echoes)."""
    lines = []
    for key, text in NOTES.items():
        n = params.get(key)
        if n:
            plural = ("es" if key == "unmarked" else "s", "are") if n != 1 else ("", "is")
            lines.append(text.format(n, *plural))
    return lines


def import_certificate(fmt: str, raw: bytes, name: str, *, pegs=None, colors=None, repetition=None,
                       run=None) -> dict:
    """The certificate of the tree in ``raw`` (the bytes of the file ``name``, written in
    ``fmt``, maybe gzipped). ParseError: the file is not in its format or does not fit the game;
    Mismatch: its tree fails a secret or states something false. Not yet verified: the caller
    verifies it. ``strategy.params`` holds the file's SHA-256 (of its bytes as given) and, where
    the importer completed trivial situations or read echoes, how many (``NOTES``)."""
    from .certificate import wrap

    if fmt not in FORMATS:
        raise CertifyError(f"unknown format {_q(fmt)} (known: {', '.join(FORMATS)})")
    if len(raw) > MAX_BYTES:
        raise ParseError(name, None, f"larger than {MAX_BYTES} bytes (the limit)")
    data = unpacked(raw, name)
    if fmt == "cuda-json":
        return import_runs(data, name, run, pegs=pegs, colors=colors, repetition=repetition)
    if run is not None:
        raise CertifyError("--run goes with cuda-json (a results file holds several runs)")
    text = _text(data, name)
    del data
    try:
        parsed = _PARSERS[fmt](text, name)
    except RecursionError:
        raise ParseError(name, None, "nested too deeply") from None
    game = _game(parsed, name, pegs, colors, repetition)
    notes: dict = {}
    tree, histogram = assemble(game, parsed.root, parsed.notation, name, notes)
    # Win marks read as not stated: the punch cards' echoes, the C++ text's unmarked (G).
    unstated = "unmarked" if fmt == "cpp-text" else "echoes"
    notes = {key: n for key, n in ((unstated, notes.get("echoes", 0)), ("completed", parsed.completed)) if n}
    return wrap(_Imported(game, fmt, raw, parsed.algorithm, notes), tree, histogram)
