"""Independent checker for Static Mastermind: certificates (upper bounds) and lower-bound proofs.

Trusted core, like ``verify.py`` and ``verify_bound.py``: standard library and numpy only, and from the rest
of ``certify`` only ``reader.py`` (the shared reader: file reading, JSON rules and limits). It
enumerates the game's codes itself and scores both feedback rules with its own code. It runs
alone::

    python certify/verify_static.py FILE... [--json]

Static Mastermind (docs/static.md): the codebreaker asks a list of questions at once, reads all
the answers, then has one final guess, which must be the secret. A list works when every secret
gets a different answer vector. Two kinds of file (docs/static-format.md):

* ``mastermind-static-certificate``: the questions and, for every answer vector, the final guess.
  Checked: every secret of the game (enumerated here) is scored against every question, its
  vector is in the table and the table's final guess for it is that secret; the table has no
  other row. Then ``questions`` + 1 guesses always suffice.
* ``mastermind-static-lower-bound``: the claim that no list of M questions separates every
  secret, with the sets of questions a search keeps, one per orbit under the permutations of
  pegs and colours. The checker re-does every step but the choice of representatives: from each
  listed set of size i < M (and the empty set) it adds every code of the game, in turn; the
  result is either ruled out by the counting rule below (recomputed here) or, when of size < M,
  has a listed set in its orbit (orbits compared by this module's own canonical form), or, when
  of size M, refutes the claim. Every listed set must be reached. What it trusts: that feedback
  is unchanged when the same permutation of pegs and colours is applied to guess and secret (both
  rules), so a set's orbit separates as well as the set does; the soundness argument is in
  docs/static-format.md.

Counting rule: with r questions left to ask, one question splits a group of secrets that share
their answers into at most A - 1 groups that did not win plus at most one secret (the question
itself, the only secret that scores all black); so r questions separate at most
F(r) = (A - 1) F(r - 1) + 1 secrets of one group, F(0) = 1, where A - 1 is the most distinct
answers one question gets from the secrets other than itself (counted here over the game). A set
with a group larger than F(M - size) is ruled out, with every set that contains it.

Limits (checked before the work they bound): input 64 MiB (also after gzip decompression); games
of at most ``max_codes`` codes (default 4,096, ceiling 10,000) and 8 pegs; at most 256 questions; at
most 2,000,000 listed sets; the reader's rules for JSON. The work, in units of about one (code,
secret) pair scored by numpy, is counted before it is done: the feedback table (n^2), each listed
set's counting (n x the secrets in groups the counting rule does not settle) and every canonical
form (its estimated cost, before it is computed: the listed sets' all at once, before any other
work; an extension's before it is computed; the steps a canonical form takes past its estimate, as
they come). The budget is WORK_BASE + WORK_PER_BYTE x the file's size as given (a small file cannot
ask for hours); ``max_work`` (``--max-work``) replaces it. A file over a limit is not checked
(reader.Limit: unusable, exit 2), which is no verdict on it. Exit status: 0 valid, 1 invalid, 2 unusable.

Why numpy (as verify_bound.py): the feedback table (n x n bytes, built here from the definition)
and the counting rule over every extension of a set (one sort of an n x k array) in pure Python
cost minutes for 4,096 codes; here a fraction of a second.
"""

from __future__ import annotations

import itertools
import math
import os
import sys
from collections import Counter

import numpy as np

try:
    from . import reader
except ImportError:  # run as a script: python certify/verify_static.py (or runpy.run_path)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import reader

CERTIFICATE = "mastermind-static-certificate"
PROOF = "mastermind-static-lower-bound"
VERSION = 1
SYMMETRY = "peg-and-colour-permutations"
RULES = ("black-white", "black-only")
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
MAX_BYTES = 64 << 20
MAX_CODES = 4096
#: The most codes ``max_codes`` may ask for: the feedback table takes n^2 bytes (100 MB).
CODES_CEILING = 10_000
MAX_PEGS = 8
MAX_QUESTIONS = 256
MAX_SETS = 2_000_000
#: At most this many codes renamed for one canonical form (ties multiply the orders explored).
MAX_STEPS = 5_000_000
#: The work budget (units: about one (code, secret) pair scored by numpy, a few ns): WORK_BASE +
#: WORK_PER_BYTE x the file's bytes as given (gzip or not), at most MAX_PAIRS; ``max_work`` replaces it.
#: Calibrated so that a file under 1 MB is checked or refused within 20 s of CPU (docs/verifier-limits.md):
#: 12-20 ns a unit were measured on the 2 loaded cores (800 a byte let a 1 MB proof run 19.7 s).
WORK_BASE = 800_000_000
WORK_PER_BYTE = 600
MAX_PAIRS = 300_000_000_000
#: One code renamed in a canonical form (Python) costs about as much as this many numpy pairs.
STEP_COST = 150
#: The fixed cost of one canonical form, of one set's counting, in the same units.
CANON_COST = 2_000
SET_COST = 5_000
EXIT_VALID, EXIT_INVALID, EXIT_UNUSABLE = 0, 1, 2

Invalid = reader.Invalid
Limit = reader.Limit  # the file is over a limit of the checker: not checked (unusable), no verdict
_get, _only, _short, _what = reader.get, reader.only, reader.short, reader.what


# -- the game: codes and feedback, this module's own ------------------------------------------------

def codes(pegs: int, colors: int, repetition: bool) -> list:
    """Every code, as a string of digits 0-9 then letters, in code order."""
    letters = ALPHABET[:colors]
    if repetition:
        return ["".join(t) for t in itertools.product(letters, repeat=pegs)]
    return ["".join(t) for t in itertools.permutations(letters, pegs)]


def black_white(guess: str, secret: str) -> tuple:
    """(black, white): the exact matches; then, of the other pegs, each colour scores as many
    whites as the fewer of its occurrences in the guess and in the secret."""
    black = sum(g == s for g, s in zip(guess, secret))
    left_g, left_s = Counter(), Counter()
    for g, s in zip(guess, secret):
        if g != s:
            left_g[g] += 1
            left_s[s] += 1
    return black, sum(min(n, left_s[c]) for c, n in left_g.items())


def black_only(guess: str, secret: str) -> tuple:
    """(black,): the pegs of the right colour in the right place."""
    return (sum(g == s for g, s in zip(guess, secret)),)


def answer_text(answer: tuple) -> str:
    """One answer as written in a table: "B,W", or "B" under black-only."""
    return ",".join(map(str, answer))


class _Table:
    """A game's codes as an n x pegs array of colour numbers, and feedback rows scored by numpy
    from the definition: black = #pegs with equal colours; black + white = the sum over colours of
    the fewer of their occurrences in guess and secret (black-only: black alone). An answer is
    numbered black x (pegs + 1) + white."""

    def __init__(self, all_codes: list, pegs: int, colors: int, rule: str) -> None:
        self.n, self.pegs = len(all_codes), pegs
        self.black_only = rule == "black-only"
        self.digits = np.array([[ALPHABET.index(ch) for ch in c] for c in all_codes], np.int8).reshape(-1, pegs)
        self.held = np.stack([(self.digits == c).sum(axis=1) for c in range(colors)]).astype(np.int8)
        self.win = pegs * (pegs + 1)  # (pegs, 0)

    def row(self, g: int) -> np.ndarray:
        """The answer of every secret to question g, numbered (uint8)."""
        d = self.digits[g]
        black = (self.digits == d).sum(axis=1)
        if self.black_only:
            both = black
        else:
            both = np.zeros(self.n, np.int64)
            for c in set(d.tolist()):
                both += np.minimum(self.held[c], self.held[c][g])
        return (black * (self.pegs + 1) + (both - black)).astype(np.uint8)

    def answer(self, number: int) -> str:
        """An answer's number as a table writes it: "B,W", or "B" under black-only."""
        black, white = divmod(number, self.pegs + 1)
        return str(black) if self.black_only else f"{black},{white}"


def game_fields(doc, max_codes: int = MAX_CODES) -> tuple:
    """(pegs, colors, repetition, rule) of a document's "game", checked (rule black-white when absent).
    A game of more than ``max_codes`` codes is not checked (Limit)."""
    game = _get(doc, "game", dict)
    _only(game, ("pegs", "colors", "repetition", "feedback"), "game")
    rule = _get(game, "feedback", str, "game") if "feedback" in game else "black-white"
    if rule not in RULES:
        raise Invalid(f"game.feedback: unknown feedback rule {_short(rule)} (expected {' or '.join(RULES)})")
    pegs, colors = _get(game, "pegs", int, "game"), _get(game, "colors", int, "game")
    repetition = _get(game, "repetition", bool, "game")
    if not 1 <= pegs <= MAX_PEGS:
        raise Invalid(f"game.pegs: must be from 1 to {MAX_PEGS}, got {_short(pegs)}")
    if not 2 <= colors <= len(ALPHABET):
        raise Invalid(f"game.colors: must be from 2 to {len(ALPHABET)}, got {_short(colors)}")
    if not repetition and pegs > colors:
        raise Invalid(f"game: {pegs} pegs without repetition need at least as many colors, got {colors}")
    n = colors ** pegs if repetition else _falling(colors, pegs)
    if n > CODES_CEILING:
        raise Limit(f"game: {n} codes is too many for the static checker (ceiling {CODES_CEILING})")
    if n > max_codes:
        raise Limit(f"game: {n} codes is too many for the static checker (limit {max_codes})",
                    "--max-codes", max_codes, n)
    return pegs, colors, repetition, rule


def _falling(colors: int, pegs: int) -> int:
    n = 1
    for k in range(pegs):
        n *= colors - k
    return n


def _game_dict(pegs, colors, repetition, rule) -> dict:
    game = {"pegs": pegs, "colors": colors, "repetition": repetition}
    if rule != "black-white":
        game["feedback"] = rule
    return game


def _label(game: dict) -> str:
    return (f"{game['pegs']}x{game['colors']}" + ("" if game["repetition"] else " without repetition")
            + (" black-only" if game.get("feedback") == "black-only" else ""))


# -- reading ------------------------------------------------------------------------------------

def _load(raw: bytes, max_nodes: int | None = None):
    """The document's fields through the reader: the header fields built, each item of the arrays
    "sets" (a proof's) and "table" (a certificate's) built on its own (at most
    reader.MAX_FIELD_BYTES of JSON each: neither counts as metadata, whatever its size), the other
    fields checked as metadata."""
    buf, meta = reader.text(raw, MAX_BYTES), reader.Meta()
    head = ("format", "version", "game", "claims", "questions", "symmetry")
    doc: dict = {}

    def member(name: str, start: int) -> int:
        if name in head:
            end = reader.header(buf, start, name)[0]
            doc.setdefault(name, reader.build(buf, start, end))
        elif name in ("sets", "table") and buf[start] == ord("["):
            items: list = []
            most = max_nodes or MAX_SETS  # (a proof's sets are its nodes: --max-nodes raises it)

            def item(i: int, at: int) -> int:
                if len(items) >= most:
                    raise Limit(f"{name}: more than {most} items (the limit)", "--max-nodes", most)
                end = reader.header(buf, at, f"{name}[{i}]")[0]
                items.append(reader.build(buf, at, end))
                return end

            end = reader.members(buf, start, item, name)[0]
            doc.setdefault(name, items)
        elif name in ("sets", "table"):
            end = reader.skip(buf, start, level=2)[0]
            doc.setdefault(name, reader.value(buf, start, end))
        else:
            end = meta.skip(buf, start, reader.field("", name))
            doc.setdefault(name, None)
        return end

    kind, _, repeated = reader.document(buf, member, meta)
    if kind != "object":
        return reader.Span(kind)
    doc = reader.checked_object(doc, repeated)
    doc[None] = meta.problem
    return doc


def _header(doc, fmt: str, max_codes: int = MAX_CODES) -> tuple:
    reader.typed(doc, dict, "top level")
    got = _get(doc, "format", str)
    if got != fmt:
        raise Invalid(f"format: expected {fmt!r}, got {_short(got)}")
    if _get(doc, "version", int) != VERSION:
        raise Invalid(f"version: this checker reads version {VERSION}, got {_short(doc['version'])}")
    if doc.get(None):  # the first problem in the metadata (reader.Meta)
        raise Invalid(doc[None])
    return game_fields(doc, max_codes)


def _code(value, where: str, index: dict) -> str:
    if type(value) is not str:
        raise Invalid(f"{where}: expected a code (string), got {_what(value)}")
    if value not in index:
        raise Invalid(f"{where}: {_short(value)} is not a code of this game")
    return value


def _count(claims: dict, key: str, low: int = 0) -> int:
    n = _get(claims, key, int, "claims")
    if n < low:
        raise Invalid(f"claims.{key}: must be >= {low}, got {n}")
    return n


# -- certificates --------------------------------------------------------------------------------

class Report(reader.Report):
    """What checking one file found."""

    def __init__(self, file) -> None:
        super().__init__(file)
        self.kind: str | None = None
        self.game: dict | None = None
        self.claims: dict | None = None
        self.secrets: int | None = None
        self.sets: int | None = None  # a proof's listed sets
        self.checked: int | None = None  # a proof's sets of questions examined
        self.work: int | None = None  # a proof's work, in the budget's units

    def to_json(self) -> dict:
        return {**super().to_json(), "kind": self.kind, "game": self.game, "claims": self.claims,
                "secrets": self.secrets, "sets": self.sets, "checked": self.checked}

    def statement(self) -> str:
        c = self.claims
        questions = f"{c['questions']} question{'' if c['questions'] == 1 else 's'}"
        if self.kind == CERTIFICATE:
            return (f"{questions} separate{'s' if c['questions'] == 1 else ''} all {self.secrets} secrets of {_label(self.game)}: "
                    f"static value <= {c['guesses']} guesses")
        return (f"no {questions} separate{'s' if c['questions'] == 1 else ''} the {self.secrets} secrets of {_label(self.game)}: "
                f"static value >= {c['guesses_at_least']} guesses ({self.sets} sets listed, "
                f"{self.checked} extensions examined)")

    def line(self) -> str:
        return f"{self.file}: valid: {self.statement()}" if self.valid else self.failure()


def _check_certificate(doc, report: Report, max_codes: int = MAX_CODES) -> None:
    pegs, colors, repetition, rule = _header(doc, CERTIFICATE, max_codes)
    report.kind, report.game = CERTIFICATE, _game_dict(pegs, colors, repetition, rule)
    _only(doc, ("format", "version", "game", "claims", "questions", "table", None), "top level")
    all_codes = codes(pegs, colors, repetition)
    index = {c: i for i, c in enumerate(all_codes)}
    claims = _get(doc, "claims", dict)
    _only(claims, ("secrets", "questions", "guesses"), "claims")
    secrets, asked, guesses = _count(claims, "secrets", 1), _count(claims, "questions"), _count(claims, "guesses", 1)
    report.claims = {"secrets": secrets, "questions": asked, "guesses": guesses}
    if secrets != len(all_codes):
        raise Invalid(f"claims.secrets: claimed {secrets}, but {_label(report.game)} has {len(all_codes)} secrets")
    questions = _get(doc, "questions", list)
    if len(questions) > MAX_QUESTIONS:
        raise Invalid(f"questions: {len(questions)} questions, more than the limit {MAX_QUESTIONS}")
    questions = [_code(q, f"questions[{i}]", index) for i, q in enumerate(questions)]
    if asked != len(questions):
        raise Invalid(f"claims.questions: claimed {asked}, but the file lists {len(questions)} questions")
    if guesses != asked + 1:
        raise Invalid(f"claims.guesses: claimed {guesses}, but {asked} questions and the final guess make "
                      f"{asked + 1}")
    table = _get(doc, "table", list)
    final: dict = {}
    for i, row in enumerate(table):
        where = f"table[{i}]"
        if type(row) is not list or len(row) != 2 or type(row[0]) is not str:
            raise Invalid(f"{where}: expected [answer vector (string), final guess], got {_what(row)}")
        if row[0] in final:
            raise Invalid(f"{where}: answer vector {_short(row[0])} is already in the table")
        final[row[0]] = _code(row[1], f"{where}[1]", index)
    scored = _Table(all_codes, pegs, colors, rule)
    words = [scored.answer(a) for a in range(scored.win + 1)]
    rows = [[words[a] for a in scored.row(index[q]).tolist()] for q in questions]
    first: dict = {}  # answer vector -> the first secret that gets it
    for s, secret in enumerate(all_codes):
        vector = " ".join(row[s] for row in rows)
        if vector in first:
            raise Invalid(f"questions: secrets {first[vector]} and {secret} get the same answers "
                          f"({_short(vector)}): the final guess cannot tell them apart")
        first[vector] = secret
        if vector not in final:
            raise Invalid(f"table: no row for the answer vector {_short(vector)} (secret {secret})")
        if final[vector] != secret:
            raise Invalid(f"table: the final guess for {_short(vector)} is {final[vector]}, but the secret "
                          f"with those answers is {secret}")
    extra = next((v for v in final if v not in first), None)
    if extra is not None:
        raise Invalid(f"table: answer vector {_short(extra)} is no secret's answer to these questions")
    report.secrets = len(all_codes)


# -- lower-bound proofs -------------------------------------------------------------------------

def canonical(codes_: tuple, pegs: int, colors: int | None = None, pay=None) -> tuple:
    """The lowest image of a set of codes (tuples of colour numbers) under the permutations of
    pegs and colours. Two sets get the same form exactly when one is an image of the other, and
    the form is an image of the set (the soundness needs only this). Two ways, chosen by
    ``method`` from (pegs, colors, size) alone, so all the sets of one size in one game get theirs
    the same way: by peg permutations (below), or, given ``colors`` and cheaper, by colour
    permutations and orders of the set (_by_colours). ``pay(steps)`` is told the steps as they
    come; at most MAX_STEPS codes are renamed in all (Limit past that).

    By peg permutations: for each, the codes are taken in the order that makes the sequence
    lowest, each colour renamed 0, 1, 2... in order of first appearance."""
    if colors is not None and method(pegs, colors, len(codes_))[0] == "colours":
        return _by_colours(codes_, colors, pay)
    best, steps, paid = None, 0, 0
    for perm in itertools.permutations(range(pegs)):
        moved = [tuple(c[j] for j in perm) for c in codes_]
        stack = [((), {}, moved)]
        while stack:
            done, names, rest = stack.pop()
            steps += len(rest)
            if steps > MAX_STEPS:
                shown = " ".join("".join(ALPHABET[x] for x in c) for c in codes_)
                raise Limit(f"the set {_short(shown)}: its canonical form takes more than {MAX_STEPS} steps "
                            f"(the limit)")
            if pay is not None and steps - paid >= 4096:
                pay(steps - paid)
                paid = steps
            if not rest:
                if best is None or done < best:
                    best = done
                continue
            images = []
            for x in rest:
                fresh, image = len(names), []
                local: dict = {}
                for colour in x:
                    name = names.get(colour)
                    if name is None:
                        name = local.get(colour)
                        if name is None:
                            name = local[colour] = fresh + len(local)
                    image.append(name)
                images.append(tuple(image))
            low = min(images)
            if best is not None and done + (low,) > best[:len(done) + 1]:
                continue  # this branch can only give higher sequences
            for k, image in enumerate(images):
                if image == low:
                    x = rest[k]
                    more = dict(names)
                    for colour, name in zip(x, image):
                        more.setdefault(colour, name)
                    stack.append((done + (low,), more, rest[:k] + rest[k + 1:]))
    if pay is not None and steps > paid:
        pay(steps - paid)
    return best


def method(pegs: int, colors: int, size: int) -> tuple:
    """("pegs" or "colours", the least steps its canonical form of a set of ``size`` codes takes):
    peg permutations x the codes (each renamed once at least), or colour permutations x the orders
    of the set x the codes (_by_colours). Known before any form is computed."""
    by_pegs = math.factorial(pegs) * size * (size + 1) // 2
    if size > 12 or colors > 12:
        return "pegs", by_pegs
    by_colours = math.factorial(colors) * math.factorial(size) * size
    return ("colours", by_colours) if by_colours < by_pegs else ("pegs", by_pegs)


def _by_colours(codes_: tuple, colors: int, pay=None) -> tuple:
    """The lowest, over the permutations of the colours and the orders of the set, of the columns
    (pegs) of the set's matrix, sorted: sorting the columns is the best permutation of the pegs for
    that order. An image of the set; the same for every set of the orbit (a permutation of the
    pegs only permutes the columns, one of the colours is absorbed by the minimum over them)."""
    best = None
    orders = list(itertools.permutations(codes_))
    for tau in itertools.permutations(range(colors)):
        named = {c: tuple(tau[x] for x in c) for c in codes_}
        for order in orders:
            form = tuple(sorted(zip(*(named[c] for c in order))))
            if best is None or form < best:
                best = form
        if pay is not None:
            pay(len(orders) * len(codes_))
    return best


def _capacity(left: int, spread: int) -> int:
    """F(left): the most secrets of one group that ``left`` more questions can separate."""
    f = 1
    for _ in range(left):
        f = (spread - 1) * f + 1
    return f


class _Budget:
    """The work of one check, counted before it is done; past the budget the file is not checked."""

    def __init__(self, budget: int, given: bool) -> None:
        self.budget, self.given, self.used = budget, given, 0

    def spend(self, units: int, what: str = "the check") -> None:
        self.used += units
        if self.used > self.budget:
            limit = "the --max-work given" if self.given else "the limit for a file of this size, by default"
            raise Limit(f"{what}: more than {self.budget} units of work ({limit})", "--max-work", self.budget)

    def prepaid(self, steps: int):
        """A canonical form's ``pay``: its first ``steps`` already counted, the others counted as they come."""
        credit = steps

        def pay(k: int) -> None:
            nonlocal credit
            use = min(k, credit)
            credit -= use
            if k > use:
                self.spend((k - use) * STEP_COST, "canonical forms")
        return pay


def _classes(table: np.ndarray, group) -> np.ndarray:
    """Each secret's group (numbered from 0) among the secrets that share their answers to ``group``."""
    classes = np.zeros(table.shape[1], np.int64)
    for g in group:
        classes = np.unique(classes * 256 + table[g], return_inverse=True)[1].reshape(-1).astype(np.int64)
    return classes


def _ruled_out(table: np.ndarray, classes: np.ndarray, cap: int) -> np.ndarray:
    """ruled[g]: adding question g to the set whose groups are ``classes`` leaves a group of more than
    ``cap`` secrets. Only the secrets in groups larger than cap can be in one: their keys (group,
    answer to g), row by row sorted; a run of cap + 1 equal keys is such a group."""
    n = table.shape[0]
    sizes = np.bincount(classes)
    big = np.flatnonzero(sizes[classes] > cap)
    if len(big) <= cap:
        return np.zeros(n, bool)
    ruled = np.empty(n, bool)
    step = max(1, (1 << 22) // len(big))  # (rows at a time: 32 MB of keys at most)
    for lo in range(0, n, step):  # the table is symmetric: column s is row s
        keys = np.sort(classes[big] * 256 + table[lo:lo + step, big], axis=1)
        ruled[lo:lo + step] = (keys[:, cap:] == keys[:, :-cap]).any(axis=1)
    return ruled


def _check_proof(doc, report: Report, progress=None, max_codes: int = MAX_CODES, size: int = 0,
                 max_work: int | None = None) -> None:
    pegs, colors, repetition, rule = _header(doc, PROOF, max_codes)
    report.kind, report.game = PROOF, _game_dict(pegs, colors, repetition, rule)
    _only(doc, ("format", "version", "game", "symmetry", "claims", "sets", None), "top level")
    if _get(doc, "symmetry", str) != SYMMETRY:
        raise Invalid(f"symmetry: expected {SYMMETRY!r}, got {_short(doc['symmetry'])}")
    all_codes = codes(pegs, colors, repetition)
    index = {c: i for i, c in enumerate(all_codes)}
    n = len(all_codes)
    claims = _get(doc, "claims", dict)
    _only(claims, ("secrets", "questions", "guesses_at_least"), "claims")
    secrets, m, at_least = (_count(claims, "secrets", 1), _count(claims, "questions"),
                            _count(claims, "guesses_at_least", 1))
    report.claims = {"secrets": secrets, "questions": m, "guesses_at_least": at_least}
    if secrets != n:
        raise Invalid(f"claims.secrets: claimed {secrets}, but {_label(report.game)} has {n} secrets")
    if at_least != m + 2:
        raise Invalid(f"claims.guesses_at_least: claimed {at_least}, but no list of {m} questions means at "
                      f"least {m + 1} questions and the final guess: {m + 2}")
    if m >= n - 1:  # (asking every code but one separates; the argument also needs M distinct codes)
        raise Invalid(f"claims.questions: {m} questions or more always separate the {n} secrets (ask every code "
                      f"but one); the claim is false")
    if m > MAX_QUESTIONS:
        raise Invalid(f"claims.questions: {m}, more than the limit {MAX_QUESTIONS}")
    sets = _get(doc, "sets", list)
    given = max_work is not None
    budget = _Budget(max_work if given else min(MAX_PAIRS, WORK_BASE + WORK_PER_BYTE * size), given)
    groups = []
    previous = 0
    for i, item in enumerate(sets):
        where = f"sets[{i}]"
        if type(item) is not list:
            raise Invalid(f"{where}: expected an array of codes, got {_what(item)}")
        group = [_code(c, f"{where}[{j}]", index) for j, c in enumerate(item)]
        if len(set(group)) != len(group):
            raise Invalid(f"{where}: a code appears twice")
        if not 1 <= len(group) < max(m, 1):
            raise Invalid(f"{where}: {len(group)} codes; the proof lists sets of 1 to {m - 1} codes")
        if len(group) < previous:
            raise Invalid(f"{where}: {len(group)} codes after a set of {previous} (sets are listed by size)")
        previous = len(group)
        groups.append(group)
    # Before any work: the table, every listed set's counting and its canonical form, at their least.
    budget.spend(n * n * (pegs + 1), "the feedback table")
    budget.spend(sum(SET_COST + n * n + CANON_COST + STEP_COST * method(pegs, colors, len(g))[1] for g in groups)
                 + SET_COST + n * n, f"{len(groups)} listed sets")
    as_tuples = [tuple(ALPHABET.index(ch) for ch in c) for c in all_codes]
    levels: list = [dict() for _ in range(m + 1)]  # size -> {canonical form: index in sets}
    levels[0][()] = -1
    for i, group in enumerate(groups):
        key = canonical(tuple(as_tuples[index[c]] for c in group), pegs, colors,
                        budget.prepaid(method(pegs, colors, len(group))[1]))
        if key in levels[len(group)]:
            raise Invalid(f"sets[{i}]: in the same orbit as sets[{levels[len(group)][key]}]")
        levels[len(group)][key] = i
    report.sets = len(sets)
    # The feedback table: row g = the answer of every secret to question g, numbered.
    scored = _Table(all_codes, pegs, colors, rule)
    table = np.empty((n, n), np.uint8)
    for g in range(n):
        table[g] = scored.row(g)
    if not np.array_equal(table, table.T):
        raise RuntimeError("the feedback table is not symmetric")
    seen = np.zeros((n, scored.win + 1), bool)
    for lo in range(0, n, 256):
        rows = table[lo:lo + 256].astype(np.int64)
        seen[lo:lo + 256][np.arange(len(rows))[:, None], rows] = True
    spread = int(seen.sum(axis=1).max())  # A: the answers but the win (only g itself wins) + 1
    examined = 0
    for size in range(m):
        cap = _capacity(m - size - 1, spread)  # F for a set of size + 1
        step = method(pegs, colors, size + 1)[1]
        reached = set()
        for key, i in levels[size].items():
            group = [] if i < 0 else [index[c] for c in sets[i]]
            ruled = _ruled_out(table, _classes(table, group), cap)
            inside = set(group)
            for g in np.flatnonzero(~ruled).tolist():
                if g in inside:
                    continue
                codes_ = [all_codes[x] for x in group] + [all_codes[g]]
                if size + 1 == m:
                    raise Invalid(f"{_where(sets, i)} with {all_codes[g]}: the questions {' '.join(codes_)} give "
                                  f"every secret different answers; the claim is false")
                budget.spend(CANON_COST + STEP_COST * step, f"{_where(sets, i)}: canonical forms")
                k = canonical(tuple(as_tuples[x] for x in group) + (as_tuples[g],), pegs, colors, budget.prepaid(step))
                if k not in levels[size + 1]:
                    raise Invalid(f"{_where(sets, i)} with {all_codes[g]}: the set {' '.join(codes_)} is not ruled "
                                  f"out by the counting rule and no listed set is in its orbit")
                reached.add(k)
            examined += n - len(inside)
            if progress:
                progress(size, len(levels[size]))
        if size + 1 < m:
            missed = [i for k, i in levels[size + 1].items() if k not in reached]
            if missed:
                raise Invalid(f"sets[{min(missed)}]: not reached from any set listed before it "
                              f"(the proof lists only the sets the check needs)")
    report.secrets, report.checked = n, examined
    report.work = budget.used


def _where(sets, i: int) -> str:
    return "the empty set" if i < 0 else f"sets[{i}]"


# -- entry points --------------------------------------------------------------------------------

def check_bytes(raw: bytes, file: str = "<bytes>", progress=None, max_codes: int = MAX_CODES,
                max_work: int | None = None, max_nodes: int | None = None) -> Report:
    """Check a certificate or a proof (told apart by its "format"). ``max_codes``, ``max_work`` and
    ``max_nodes`` (items of "sets" or "table") are the user's limits (default: 4,096 codes, work by
    the file's size, MAX_SETS items): a file over one is not checked (status 2, report.limit says which)."""
    report = Report(file)
    with report.checking():
        doc = _load(raw, max_nodes)
        if type(doc) is dict and doc.get("format") == CERTIFICATE:
            _check_certificate(doc, report, max_codes or MAX_CODES)
        elif type(doc) is dict and doc.get("format") == PROOF:
            _check_proof(doc, report, progress, max_codes or MAX_CODES, len(raw), max_work)
        else:
            reader.typed(doc, dict, "top level")
            raise Invalid(f"format: expected {CERTIFICATE!r} or {PROOF!r}, got {_short(_get(doc, 'format', str))}")
    return report


def check_document(doc, file: str = "<document>", max_codes: int = MAX_CODES, max_work: int | None = None) -> Report:
    """Check a document made in memory (dicts and lists), through its JSON bytes."""
    report = Report(file)
    raw = reader.encoded(doc, report)
    return report if raw is None else check_bytes(raw, file, max_codes=max_codes, max_work=max_work)


def check_file(path, on_wait=None, progress=None, max_codes: int = MAX_CODES, max_work: int | None = None,
               max_nodes: int | None = None) -> Report:
    report = Report(path)
    raw = reader.load(path, MAX_BYTES, report, on_wait)
    return report if raw is None else check_bytes(raw, path, progress, max_codes, max_work, max_nodes)


def reports_json(reports) -> bytes:
    return reader.reports_json("certify.verify_static", reports)


def run(files, as_json=False, out=None, err=None, max_codes: int = MAX_CODES, max_work: int | None = None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    reports = [check_file(f, lambda note: print(note, file=err, flush=True), None, max_codes, max_work)
               for f in files]
    return reader.emit(reports, as_json, reports_json, out, err)


def main(argv=None) -> int:
    about = "Check Static Mastermind certificates and lower-bound proofs."
    p = reader.parser("verify_static", about)
    p.add_argument("--max-codes", type=int, default=MAX_CODES, metavar="N",
                   help=f"check games of up to N codes (default {MAX_CODES}, at most {CODES_CEILING})")
    p.add_argument("--max-work", type=int, default=None, metavar="N",
                   help="the work budget (default: by the file's size)")
    args = p.parse_args(argv)
    return reader.interruptible("verify_static", lambda: run(args.files, args.json, None, None, args.max_codes,
                                                             args.max_work))


if __name__ == "__main__":
    sys.exit(main())
