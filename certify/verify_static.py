"""Independent checker for Static Mastermind: certificates (upper bounds) and lower-bound proofs.

Trusted core, like ``verify.py`` and ``verify_bound.py``: standard library only, and from the rest
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
of at most 4,096 codes and 8 pegs; at most 256 questions; at most 2,000,000 listed sets; the
proof's work (sets x codes x codes) at most 4e10 (a few hours of Python at most); at most
5,000,000 codes renamed for one canonical form; the reader's rules for JSON. Exit status: 0 valid, 1 invalid, 2 unusable.
"""

from __future__ import annotations

import itertools
import os
import sys
from collections import Counter
from operator import itemgetter

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
MAX_PEGS = 8
MAX_QUESTIONS = 256
MAX_SETS = 2_000_000
MAX_WORK = 4 * 10**10
#: Codes one canonical form may rename in all (a set's symmetries multiply the orders explored).
MAX_STEPS = 5_000_000
EXIT_VALID, EXIT_INVALID, EXIT_UNUSABLE = 0, 1, 2

Invalid = reader.Invalid
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


def game_fields(doc) -> tuple:
    """(pegs, colors, repetition, rule) of a document's "game", checked (rule black-white when absent)."""
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
    if n > MAX_CODES:
        raise Invalid(f"game: {n} codes, more than the limit {MAX_CODES}")
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

def _load(raw: bytes, listed: str):
    """The document's fields through the reader: the header fields built, each item of the array
    ``listed`` built on its own (at most reader.MAX_FIELD_BYTES of JSON each), the metadata checked."""
    buf, meta = reader.text(raw, MAX_BYTES), reader.Meta()
    head = ("format", "version", "game", "claims", "questions", "symmetry")
    items: list = []

    def item(i: int, start: int) -> int:
        if len(items) >= MAX_SETS:
            raise Invalid(f"{listed}: more than {MAX_SETS} items (the limit)")
        end = reader.header(buf, start, f"{listed}[{i}]")[0]
        items.append(reader.build(buf, start, end))
        return end

    def read(start: int):
        return items, reader.members(buf, start, item)[0]

    return reader.fields(buf, head, listed, read, meta)


def _header(doc, fmt: str) -> tuple:
    reader.typed(doc, dict, "top level")
    got = _get(doc, "format", str)
    if got != fmt:
        raise Invalid(f"format: expected {fmt!r}, got {_short(got)}")
    if _get(doc, "version", int) != VERSION:
        raise Invalid(f"version: this checker reads version {VERSION}, got {_short(doc['version'])}")
    if doc.get(None):  # the first problem in the metadata (reader.Meta)
        raise Invalid(doc[None])
    return game_fields(doc)


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

    def to_json(self) -> dict:
        return {**super().to_json(), "kind": self.kind, "game": self.game, "claims": self.claims,
                "secrets": self.secrets, "sets": self.sets, "checked": self.checked}

    def statement(self) -> str:
        c = self.claims
        if self.kind == CERTIFICATE:
            return (f"{c['questions']} questions separate all {self.secrets} secrets of {_label(self.game)}: "
                    f"static value <= {c['guesses']} guesses")
        return (f"no {c['questions']} questions separate the {self.secrets} secrets of {_label(self.game)}: "
                f"static value >= {c['guesses_at_least']} guesses ({self.sets} sets listed, "
                f"{self.checked} extensions examined)")

    def line(self) -> str:
        return f"{self.file}: valid: {self.statement()}" if self.valid else self.failure()


def _check_certificate(doc, report: Report) -> None:
    pegs, colors, repetition, rule = _header(doc, CERTIFICATE)
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
    score = black_only if rule == "black-only" else black_white
    first: dict = {}  # answer vector -> the first secret that gets it
    for secret in all_codes:
        vector = " ".join(answer_text(score(q, secret)) for q in questions)
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

def canonical(codes_: tuple, pegs: int) -> tuple:
    """The lowest image of a set of codes (tuples of colour numbers) under the permutations of
    pegs and of colours, as a sequence: for each peg permutation, the codes are taken in the order
    that makes the sequence lowest, each colour renamed 0, 1, 2... in order of first appearance.
    Two sets get the same sequence exactly when one is an image of the other; the sequence is an
    image of the set (the soundness needs only this). At most MAX_STEPS codes are renamed in all
    (ties multiply the orders explored only for very symmetric sets)."""
    best, steps = None, 0
    for perm in itertools.permutations(range(pegs)):
        moved = [tuple(c[j] for j in perm) for c in codes_]
        stack = [((), {}, moved)]
        while stack:
            done, names, rest = stack.pop()
            steps += len(rest)
            if steps > MAX_STEPS:
                shown = " ".join("".join(ALPHABET[x] for x in c) for c in codes_)
                raise Invalid(f"the set {_short(shown)}: its canonical form takes more than {MAX_STEPS} steps "
                              f"(the limit)")
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
    return best


def _capacity(left: int, spread: int) -> int:
    """F(left): the most secrets of one group that ``left`` more questions can separate."""
    f = 1
    for _ in range(left):
        f = (spread - 1) * f + 1
    return f


def _check_proof(doc, report: Report, progress=None) -> None:
    pegs, colors, repetition, rule = _header(doc, PROOF)
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
    if (len(sets) + 1) * n * n > MAX_WORK:
        raise Invalid(f"sets: {len(sets)} sets x {n} codes x {n} secrets to score, more than the limit {MAX_WORK}")
    levels: list = [dict() for _ in range(m + 1)]  # size -> {canonical form: index in sets}
    levels[0][()] = -1
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
        key = canonical(tuple(tuple(ALPHABET.index(ch) for ch in c) for c in group), pegs)
        if key in levels[len(group)]:
            raise Invalid(f"{where}: in the same orbit as sets[{levels[len(group)][key]}]")
        levels[len(group)][key] = i
    report.sets = len(sets)
    # The feedback table, as bytes: row g = the answer of every secret to question g, numbered.
    score = black_only if rule == "black-only" else black_white
    numbers: dict = {}
    table = [bytes(numbers.setdefault(score(g, s), len(numbers)) for s in all_codes) for g in all_codes]
    spread = max(len(set(row[:g] + row[g + 1:])) for g, row in enumerate(table)) + 1  # A
    as_tuples = [tuple(ALPHABET.index(ch) for ch in c) for c in all_codes]
    examined = 0
    for size in range(m):
        cap = _capacity(m - size - 1, spread)  # F for a set of size + 1
        reached = set()
        for key, i in levels[size].items():
            group = [] if i < 0 else [index[c] for c in sets[i]]
            classes = [0] * n
            for g in group:  # the groups of secrets that share their answers to ``group``
                renumber: dict = {}
                classes = [renumber.setdefault((k, a), len(renumber)) for k, a in zip(classes, table[g])]
            sizes = Counter(classes)
            big = [s for s in range(n) if sizes[classes[s]] > cap]  # only these can make a group > cap
            pick = itemgetter(*big) if len(big) > 1 else (lambda row: tuple(row[s] for s in big))
            keys = pick(classes)
            inside = set(group)
            for g in range(n):
                if g in inside:
                    continue
                examined += 1
                if big and max(Counter(zip(keys, pick(table[g]))).values()) > cap:
                    continue  # ruled out by the counting rule
                codes_ = [all_codes[x] for x in group] + [all_codes[g]]
                if size + 1 == m:
                    raise Invalid(f"{_where(sets, i)} with {all_codes[g]}: the questions {' '.join(codes_)} give "
                                  f"every secret different answers; the claim is false")
                k = canonical(tuple(as_tuples[x] for x in group) + (as_tuples[g],), pegs)
                if k not in levels[size + 1]:
                    raise Invalid(f"{_where(sets, i)} with {all_codes[g]}: the set {' '.join(codes_)} is not ruled "
                                  f"out by the counting rule and no listed set is in its orbit")
                reached.add(k)
            if progress:
                progress(size, len(levels[size]))
        if size + 1 < m:
            missed = [i for k, i in levels[size + 1].items() if k not in reached]
            if missed:
                raise Invalid(f"sets[{min(missed)}]: not reached from any set listed before it "
                              f"(the proof lists only the sets the check needs)")
    report.secrets, report.checked = n, examined


def _where(sets, i: int) -> str:
    return "the empty set" if i < 0 else f"sets[{i}]"


# -- entry points --------------------------------------------------------------------------------

def check_bytes(raw: bytes, file: str = "<bytes>", progress=None) -> Report:
    """Check a certificate or a proof (told apart by its "format")."""
    report = Report(file)
    with report.checking():
        doc = _load(raw, "sets")  # (a certificate is read again, its table item by item)
        if type(doc) is dict and doc.get("format") == CERTIFICATE:
            _check_certificate(_load(raw, "table"), report)
        elif type(doc) is dict and doc.get("format") == PROOF:
            _check_proof(doc, report, progress)
        else:
            reader.typed(doc, dict, "top level")
            raise Invalid(f"format: expected {CERTIFICATE!r} or {PROOF!r}, got {_short(_get(doc, 'format', str))}")
    return report


def check_document(doc, file: str = "<document>") -> Report:
    """Check a document made in memory (dicts and lists), through its JSON bytes."""
    report = Report(file)
    raw = reader.encoded(doc, report)
    return report if raw is None else check_bytes(raw, file)


def check_file(path, on_wait=None, progress=None) -> Report:
    report = Report(path)
    raw = reader.load(path, MAX_BYTES, report, on_wait)
    return report if raw is None else check_bytes(raw, path, progress)


def reports_json(reports) -> bytes:
    return reader.reports_json("certify.verify_static", reports)


def run(files, as_json=False, out=None, err=None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    reports = [check_file(f, lambda note: print(note, file=err, flush=True)) for f in files]
    return reader.emit(reports, as_json, reports_json, out, err)


def main(argv=None) -> int:
    about = "Check Static Mastermind certificates and lower-bound proofs."
    args = reader.parser("verify_static", about).parse_args(argv)
    return reader.interruptible("verify_static", lambda: run(args.files, args.json))


if __name__ == "__main__":
    sys.exit(main())
