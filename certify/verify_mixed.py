"""Independent verifier for mixed codebreaking strategies (format mastermind-mixed-strategy v1).

Trusted core, like ``verify.py`` and ``verify_bound.py``: standard library only, and from the rest
of ``certify`` only ``reader.py`` (the shared reader: file reading, JSON rules and limits) and
``verify.py`` (code enumeration, the game's fields, and its replay of a tree, which checks the
tree's shape and that every secret is found). It runs alone::

    python certify/verify_mixed.py FILE... [--json]

A mixed strategy is a list of trees with exact probabilities; each tree is played through a
uniformly random permutation g of the group G = (peg permutations) x (colour permutations): on
secret s it needs depth_T(g^-1 s) guesses. Averaged over g, that is the average of depth_T over
the orbit of s (G acts transitively on the orbit, and every code of the orbit is g^-1 s for the
same number of g, |G| / |orbit|). So the expected number of guesses for secret s is

    E(s) = sum_i p_i * (sum of depth_{T_i} over the orbit of s) / |orbit of s|,

computed here with Fractions for every secret of the game, whatever weight the codemaker gives it.
The file is valid when every tree is a valid strategy for the whole game, the probabilities are
positive and sum to 1 exactly, and max_s E(s) <= the claimed value. The report gives that exact
maximum and E for every orbit.

Orbits: two codes are in the same orbit exactly when their colours' numbers of occurrences, in
decreasing order, agree (a peg permutation moves the occurrences, a colour permutation renames the
colours; two codes with the same numbers are mapped onto each other by one of each).

Limits (checked before the work they bound): input 64 MiB (also after gzip decompression), games
of at most 10,000 codes, at most 1,000 trees, trees x codes at most 5,000,000 (the replays), at
most 2,000,000 tree nodes over all trees, fractions of at most 100 digits a side and a common
denominator of at most 1,000 digits; the reader's
rules (no repeated key, integers of at most 100 digits, no NaN); trees at most 256 deep (as
verify.py); metadata nested at most 32 levels. Exit status: 0 valid, 1 invalid, 2 unusable.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
from fractions import Fraction

try:
    from . import reader, verify
except ImportError:  # run as a script: python certify/verify_mixed.py (or runpy.run_path: no path added)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import reader
    import verify

FORMAT = "mastermind-mixed-strategy"
VERSION = 1
MIX = "peg-and-colour-permutations"
MAX_BYTES = 64 << 20
MAX_CODES = 10_000
MAX_TREES = 1_000
MAX_REPLAY = 5_000_000  # trees x codes
MAX_NODES = 2_000_000
MAX_DIGITS = 100
#: Most digits of the probabilities' common denominator: every exact value computed (the sum, each
#: secret's expectation) then has at most about as many, so its arithmetic and its text stay small
#: (Python refuses to print an integer of more than 4,300 digits).
MAX_COMMON_DIGITS = 1000
EXIT_VALID, EXIT_INVALID, EXIT_UNUSABLE = 0, 1, 2
_FRACTION = re.compile(r"(0|[1-9][0-9]*)(?:/([1-9][0-9]*))?")
_short, _what = reader.short, reader.what
_HEAD = ("format", "version", "game", "mix", "claims")


Invalid = reader.Invalid  # the file is wrong; the message says what and where
_get, _only = reader.get, reader.only


orbit_key = verify.orbit_key


def orbits(pegs: int, colors: int, repetition: bool) -> dict:
    """{lowest code of the orbit: [its codes]} in code order."""
    out: dict = {}
    lowest: dict = {}
    for code in verify.codes(pegs, colors, repetition):
        key = orbit_key(code)
        first = lowest.setdefault(key, code)
        out.setdefault(first, []).append(code)
    return out


def parse_fraction(value, where: str) -> Fraction:
    """A fraction written "a/b" (lowest terms, b > 1) or "a", non-negative, at most MAX_DIGITS a side."""
    if type(value) is not str:
        raise Invalid(f"{where}: expected a fraction string such as \"3/7\", got {_what(value)}")
    m = _FRACTION.fullmatch(value)
    if not m or len(m.group(1)) > MAX_DIGITS or (m.group(2) and len(m.group(2)) > MAX_DIGITS):
        raise Invalid(f"{where}: {_short(value)} is not a fraction \"a/b\" or \"a\" (decimal digits, at most "
                      f"{MAX_DIGITS} a side, no sign or leading zeros)")
    num = int(m.group(1))
    den = int(m.group(2)) if m.group(2) else 1
    x = Fraction(num, den)
    if m.group(2) and (den == 1 or x.denominator != den):
        raise Invalid(f"{where}: {value} is not in lowest terms (write {_text(x)})")
    return x


def _text(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _load(raw: bytes):
    """(the document's fields, its text): through the reader, the header fields built, each
    strategy's probability built and its tree's span kept (a tree is read by verify.py when its
    turn comes), the metadata checked, never built (its first problem under the key None)."""
    buf, meta, items = reader.text(raw, MAX_BYTES), reader.Meta(), []

    def strategy(i: int, start: int) -> int:
        if buf[start] != ord("{"):
            end = reader.skip(buf, start, level=3)[0]
            items.append(reader.value(buf, start, end))
            return end
        item: dict = {}

        def member(key: str, at: int) -> int:
            if key == "tree":
                end = reader.skip(buf, at, level=1, room=2 * verify.MAX_DEPTH + 2)[0]
            elif key == "probability":
                end = reader.header(buf, at, f"strategies[{i}].probability")[0]
            else:  # (refused as an unknown field: checked within the metadata's budget)
                end = meta.skip(buf, at, reader.field(f"strategies[{i}]", key), level=4)
            item.setdefault(key, reader.value(buf, at, end))
            return end
        end, _, repeated = reader.members(buf, start, member, f"strategies[{i}]", meta)
        items.append(reader.checked_object(item, repeated))
        return end

    def strategies(start: int):
        return items, reader.members(buf, start, strategy)[0]

    # (the header fields built: each at most reader.MAX_FIELD_BYTES of JSON)
    return reader.fields(buf, _HEAD, "strategies", strategies, meta), buf


class Report(reader.Report):
    """Outcome of checking one file."""

    def __init__(self, file: str) -> None:
        super().__init__(file)
        self.game: dict | None = None
        self.claims: dict | None = None
        self.value: Fraction | None = None  # the claimed value
        self.maximum: Fraction | None = None  # max over secrets of the expected guesses
        self.strategies: int | None = None
        self.orbits: list | None = None  # [{"orbit", "codes", "expected"}]

    def to_json(self) -> dict:
        return {**super().to_json(), "game": self.game, "claims": self.claims, "strategies": self.strategies,
                "maximum": None if self.maximum is None else _text(self.maximum),
                "orbits": self.orbits}

    def label(self) -> str:
        g = self.game
        return (f"{g['pegs']}x{g['colors']}" + ("" if g["repetition"] else " without repetition")
                + (" black-only" if "feedback" in g else ""))

    def statement(self) -> str:
        """What a valid file proves, in words."""
        m = self.maximum
        met = "the claimed value" if m == self.value else f"within the claimed {_text(self.value)}"
        return (f"a mixture of {self.strategies} tree{'' if self.strategies == 1 else 's'} through random "
                f"peg and colour permutations needs on average at most {_text(m)} ({float(m):.4f}) guesses "
                f"for every secret of {self.label()} ({met})")

    def line(self) -> str:
        if self.valid:
            return f"{self.file}: valid mixed strategy: {self.statement()}"
        return self.failure()


def _check(doc, buf: bytes, report: Report, max_codes: int | None = None, max_work: int | None = None,
           max_nodes: int | None = None) -> None:
    reader.typed(doc, dict, "top level")
    fmt = _get(doc, "format", str)
    if fmt != FORMAT:
        raise Invalid(f"format: expected {FORMAT!r}, got {_short(fmt)}")
    if _get(doc, "version", int) != VERSION:
        raise Invalid(f"version: this verifier reads version {VERSION}, got {_short(doc['version'])}")
    if doc.get(None):  # the first problem in the metadata (reader.Meta)
        raise Invalid(doc[None])
    pegs, colors, repetition, rule = verify.game_fields(doc)
    if pegs < 1:
        raise Invalid(f"game.pegs: must be >= 1, got {_short(pegs)}")
    if not 2 <= colors <= len(verify.ALPHABET):
        raise Invalid(f"game.colors: must be from 2 to {len(verify.ALPHABET)}, got {_short(colors)}")
    if not repetition and pegs > colors:
        raise Invalid(f"game: {pegs} pegs without repetition need at least as many colors, got {colors}")
    most = MAX_CODES if max_codes is None else min(max_codes, verify.MAX_CODES)
    if pegs > 64 or (n := verify._n_codes(pegs, colors, repetition)) > most:
        if pegs > 64 or n > verify.MAX_CODES:
            raise reader.Limit(f"game: too many codes to check (ceiling {verify.MAX_CODES})")
        raise reader.Limit(f"game: {n} codes is too many to check (limit {most})", "--max-codes", most, n)
    # (the trees are replayed by verify.py under this game, its rule included; a permutation of pegs
    # and colours keeps the black-only answer too, so the orbits are the same for both rules)
    report.game = {"pegs": pegs, "colors": colors, "repetition": repetition,
                   **({} if rule == "black-white" else {"feedback": rule})}
    mix = _get(doc, "mix", str)
    if mix != MIX:
        raise Invalid(f"mix: expected {MIX!r} (each tree played through a uniformly random permutation of "
                      f"pegs and colours), got {_short(mix)}")
    claims = _get(doc, "claims", dict)
    _only(claims, ("value",), "claims")
    if "value" not in claims:
        raise Invalid("claims: missing field 'value'")
    value = parse_fraction(claims["value"], "claims.value")
    report.claims = {"value": claims["value"]}
    report.value = value
    strategies = _get(doc, "strategies", list)
    if not strategies:
        raise Invalid("strategies: empty (at least one tree)")
    if len(strategies) > MAX_TREES:
        raise Invalid(f"strategies: {len(strategies)} trees, more than the limit {MAX_TREES}")
    replay = MAX_REPLAY if max_work is None else max_work
    if len(strategies) * n > replay:
        raise reader.Limit(f"strategies: {len(strategies)} trees x {n} codes to replay, more than the work "
                           f"limit {replay}", "--max-work", replay, len(strategies) * n, enough=False)
    probabilities, common = [], 1
    nodes, most = 0, max_nodes or MAX_NODES
    for i, item in enumerate(strategies):
        where = f"strategies[{i}]"
        reader.typed(item, dict, where)
        _only(item, ("probability", "tree"), where)
        if "probability" not in item:
            raise Invalid(f"{where}: missing field 'probability'")
        p = parse_fraction(item["probability"], f"{where}.probability")
        if p <= 0 or p > 1:
            raise Invalid(f"{where}.probability: must be > 0 and <= 1, got {item['probability']}")
        probabilities.append(p)
        common = math.lcm(common, p.denominator)
        if common >= 10 ** MAX_COMMON_DIGITS:
            raise Invalid(f"{where}.probability: the probabilities' common denominator has more than "
                          f"{MAX_COMMON_DIGITS} digits (the limit)")
        if "tree" not in item:
            raise Invalid(f"{where}: missing field 'tree'")
        tree = item["tree"]
        if type(tree) is not reader.Span or tree.kind != "object":
            raise Invalid(f"{where}.tree: expected object, got {_what(tree)}")
        nodes += buf.count(b"{", tree.start, tree.end)  # (at least its objects)
        if nodes > most:  # (a limit, not a verdict)
            raise reader.Limit(f"{where}.tree: more than {most} tree nodes over all trees (the limit)",
                               "--max-nodes", most)
    total = sum(probabilities)
    if total != 1:
        raise Invalid(f"strategies: the probabilities sum to {_text(total)}, not 1")
    groups = orbits(pegs, colors, repetition)
    expected = {name: Fraction(0) for name in groups}
    for i, (p, item) in enumerate(zip(probabilities, strategies)):
        wrapper = json.dumps({"format": verify.FORMAT, "version": verify.VERSION, "game": report.game,
                              "strategy": {"name": "mixture part"},
                              "claims": {"secrets": 0, "max_guesses": 0, "total_guesses": 0, "histogram": {}},
                              "tree": None}).encode()
        tree = item["tree"]
        try:  # the tree's own bytes, read by verify.py in a certificate of its own
            depths = verify.secret_depths(wrapper[:-5] + buf[tree.start:tree.end] + b"}", max_work)
        except verify.Invalid as e:
            raise Invalid(f"strategies[{i}].tree: {e}") from None
        if len(depths) != n:  # (the replay finds every secret or fails)
            raise Invalid(f"strategies[{i}].tree: finds {len(depths)} of the {n} secrets")
        for name, members in groups.items():
            expected[name] += p * Fraction(sum(depths[c] for c in members), len(members))
    report.maximum = max(expected.values())
    worst = next(name for name in groups if expected[name] == report.maximum)  # the lowest such code
    report.strategies = len(strategies)
    report.orbits = [{"orbit": name, "codes": len(groups[name]), "expected": _text(expected[name])}
                     for name in groups]
    if report.maximum > value:
        raise Invalid(f"claims.value: claimed {claims['value']}, but secret {worst} (and every code of its orbit) "
                      f"needs {_text(report.maximum)} ({float(report.maximum):.6f}) guesses on average")


def check_bytes(raw: bytes, file: str = "<bytes>", max_codes: int | None = None, max_work: int | None = None,
                max_nodes: int | None = None) -> Report:
    """Check bytes; ``max_codes`` (default MAX_CODES), ``max_work`` (trees x codes replayed,
    default MAX_REPLAY) and ``max_nodes`` (tree nodes over all trees, default MAX_NODES) are the
    user's limits: past one the file is not checked (status 2)."""
    report = Report(file)
    with report.checking():
        _check(*_load(raw), report, max_codes, max_work, max_nodes)
    return report


def check_document(doc, file: str = "<document>", max_codes: int | None = None, max_work: int | None = None) -> Report:
    """Check a document made in memory (dicts and lists), through its JSON bytes."""
    report = Report(file)
    raw = reader.encoded(doc, report)
    return report if raw is None else check_bytes(raw, file, max_codes, max_work)


def check_file(path, on_wait=None, max_codes: int | None = None, max_work: int | None = None,
               max_nodes: int | None = None) -> Report:
    report = Report(path)
    raw = reader.load(path, MAX_BYTES, report, on_wait)
    return report if raw is None else check_bytes(raw, path, max_codes, max_work, max_nodes)


def reports_json(reports) -> bytes:
    return reader.reports_json("certify.verify_mixed", reports)


def run(files, as_json=False, out=None, err=None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    reports = [check_file(f, lambda note: print(note, file=err, flush=True)) for f in files]
    return reader.emit(reports, as_json, reports_json, out, err)


def main(argv=None) -> int:
    args = reader.parser("verify_mixed", "Check Mastermind mixed-strategy certificates.").parse_args(argv)
    return reader.interruptible("verify_mixed", lambda: run(args.files, args.json))


if __name__ == "__main__":
    sys.exit(main())
