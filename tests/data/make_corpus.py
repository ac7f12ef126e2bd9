"""Generate the verifier's test corpus: tests/data/valid/ and tests/data/invalid/.

In the manner of DRAT-trim's and VeriPB's test folders: every file in valid/ must be
accepted, every file in invalid/ rejected, and each invalid file's name says what is
wrong with it. expected.json gives, for every invalid file, the exit status and a
substring the one-line reason must contain (the tree path, where there is one).

Files are derived from small real certificates made by the builder (knuth on 3x3, 2x4
and 3x4 without repetition) and written deterministically, so re-running this script
reproduces the committed bytes exactly::

    python tests/data/make_corpus.py          # rewrite the folders
    python tests/data/make_corpus.py --check  # exit 1 if the committed files differ
"""

from __future__ import annotations

import copy
import gzip
import json
import random
import sys
from pathlib import Path

import orjson

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from certify.certificate import make_certificate  # noqa: E402
from certify.game import Game  # noqa: E402
from certify.strategies import get_strategy  # noqa: E402

INVALID, UNREADABLE = 1, 2


def _base(pegs: int, colors: int, repetition: bool = True) -> dict:
    return make_certificate(get_strategy("knuth")(Game(pegs, colors, repetition)))


def dumps(doc) -> bytes:
    """The builder's own layout (orjson, 2-space indent, final newline); json for huge integers."""
    try:
        return orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n"
    except TypeError:
        return json.dumps(doc, indent=2, ensure_ascii=False).encode() + b"\n"


def compact(doc) -> bytes:
    """As the builder writes inside .gz files; json where orjson refuses (nesting over 255)."""
    try:
        return orjson.dumps(doc) + b"\n"
    except TypeError:
        return json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def gz(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=9, mtime=0)


def edit(data: bytes, old: str, new: str) -> bytes:
    """Replace the one occurrence of ``old`` (text edits make what a dict cannot hold)."""
    old_b, new_b = old.encode(), new.encode()
    assert data.count(old_b) == 1, (old, data.count(old_b))
    return data.replace(old_b, new_b)


def node(doc: dict, *keys: str) -> dict:
    """The tree node reached by following feedback ``keys`` from the root."""
    n = doc["tree"]
    for k in keys:
        n = n["next"][k]
    return n


def chain(length: int) -> dict:
    """A 1x2 tree that plays the useless guess 0 again and again, then 1: ``length`` guesses deep."""
    tree: dict = {"guess": "1"}
    for _ in range(length - 1):
        tree = {"guess": "0", "next": {"0,0": tree}}
    return {
        "format": "mastermind-strategy-certificate",
        "version": 1,
        "game": {"pegs": 1, "colors": 2, "repetition": True},
        "strategy": {"name": "stubborn"},
        "claims": {"secrets": 2, "max_guesses": length, "total_guesses": 1 + length,
                   "histogram": {"1": 1, str(length): 1}},
        "tree": tree,
    }


def nested(levels: int, inner: str = "[]") -> str:
    return "[" * (levels - 1) + inner + "]" * (levels - 1)


def corpus() -> tuple[dict[str, bytes], dict[str, dict]]:
    """({relative path: bytes}, {invalid file name: {"exit": status, "reason": substring}})."""
    k33, k24, k34n = _base(3, 3), _base(2, 4), _base(3, 4, False)
    t33 = dumps(k33)
    files: dict[str, bytes] = {}
    expected: dict[str, dict] = {}

    def valid(name: str, data: bytes) -> None:
        assert name not in files
        files[f"valid/{name}"] = data

    def bad(name: str, data: bytes, reason: str, status: int = INVALID) -> None:
        assert f"invalid/{name}" not in files
        files[f"invalid/{name}"] = data
        expected[name] = {"exit": status, "reason": reason}

    def doc(base=k33) -> dict:
        return copy.deepcopy(base)

    # ---- valid ---------------------------------------------------------------------------
    valid("knuth-3x3.json", t33)
    valid("knuth-2x4.json", dumps(k24))
    valid("knuth-3x4-norep.json", dumps(k34n))
    valid("knuth-3x3.json.gz", gz(compact(k33)))
    valid("knuth-2x4-two-gzip-members.json.gz", gz(compact(k24)[:200]) + gz(compact(k24)[200:]))
    valid("knuth-3x3-gzip-without-gz-suffix.json", gz(t33))
    valid("knuth-3x3-compact.json", compact(k33))
    valid("knuth-3x3-tabs-crlf.json", json.dumps(k33, indent="\t").replace("\n", "\r\n").encode())
    d = doc()
    stack = [d["tree"]]
    while stack:  # every node's branches in reverse order: order carries no meaning
        n = stack.pop()
        if "next" in n:
            n["next"] = dict(reversed(n["next"].items()))
            stack.extend(n["next"].values())
    valid("knuth-3x3-branches-reordered.json", dumps(d))
    valid("knuth-3x3-fields-reordered.json", dumps(dict(reversed(doc().items()))))
    d = doc()
    del d["generator"], d["strategy"]["params"], d["strategy"]["reference"]
    valid("knuth-3x3-optional-fields-absent.json", dumps(d))
    d = doc()
    d["note"] = {"by": "an extension", "list": [1, 2.5, None, True]}
    valid("knuth-3x3-extra-top-level-field.json", dumps(d))
    d = doc()
    d["strategy"]["reference"] = "Knüth ✓ — “quoted”"
    valid("knuth-3x3-unicode-metadata.json", dumps(d))
    d = doc()
    d["generator"]["nested"] = json.loads(nested(30))  # generator at level 2: 32 levels in all
    valid("knuth-3x3-metadata-nested-32-levels.json", dumps(d))
    d = doc()
    d["generator"]["seed"] = 10**99
    valid("knuth-3x3-integer-of-100-digits-in-metadata.json", dumps(d))
    # A guess that splits nothing (every secret reaching it answers 0,0) is wasteful, not wrong.
    d = doc()
    d["tree"]["next"]["0,0"] = {"guess": "111", "next": {"0,0": d["tree"]["next"]["0,0"]}}
    d["claims"].update(max_guesses=4, total_guesses=75, histogram={"1": 1, "2": 6, "3": 18, "4": 2})
    valid("knuth-3x3-useless-guess-inserted.json", dumps(d))
    valid("game-1x2.json", dumps(chain(2)))
    valid("tree-256-guesses-deep.json", compact(chain(256)))

    # ---- unreadable input (exit 2) -------------------------------------------------------
    bad("is-a-directory.json/README", b"This folder stands where a certificate file is expected.\n",
        "cannot read file: Is a directory", UNREADABLE)
    expected["is-a-directory.json"] = expected.pop("is-a-directory.json/README")

    # ---- bytes, encoding, JSON syntax ----------------------------------------------------
    bad("empty.json", b"", "empty file")
    bad("whitespace-only.json", b" \n\t\r\n", "empty file")
    bad("truncated-half.json", t33[: len(t33) // 2], "not valid JSON")
    bad("truncated-last-brace.json", t33[:-2], "not valid JSON")
    noise = random.Random(5).randbytes(512)
    assert noise[:2] != b"\x1f\x8b"
    bad("binary-noise.bin", noise, "not UTF-8 text")
    bad("not-utf8-latin1.json", edit(t33, '"name": "knuth"', '"name": "kn\u00fcth"').replace(
        "kn\u00fcth".encode(), "kn\u00fcth".encode("latin-1")), "not UTF-8 text")
    bad("utf16.json", t33.decode().encode("utf-16"), "not UTF-8 text")
    bad("utf8-bom.json", b"\xef\xbb\xbf" + t33, "not valid JSON: Unexpected UTF-8 BOM")
    bad("not-json.txt", b"this is not a certificate\n", "not valid JSON")
    bad("trailing-data.json", t33 + b"{}\n", "not valid JSON: Extra data")
    bad("comment.json", b"// a certificate\n" + t33, "not valid JSON")
    bad("single-quoted-strings.json", t33.replace(b'"', b"'"), "not valid JSON")
    bad("trailing-comma.json", edit(t33, '"repetition": true', '"repetition": true,'), "not valid JSON")
    bad("nan.json", edit(t33, '"secrets": 27', '"secrets": NaN'), "NaN is not a JSON number")
    bad("infinity.json", edit(t33, '"total_guesses": 74', '"total_guesses": Infinity'),
        "Infinity is not a JSON number")
    bad("negative-infinity.json", edit(t33, '"max_guesses": 4', '"max_guesses": -Infinity'),
        "-Infinity is not a JSON number")
    bad("float-overflow-1e999.json", edit(t33, '"total_guesses": 74', '"total_guesses": 1e999'),
        "out of range")
    bad("integer-of-5000-digits.json", edit(t33, '"secrets": 27', '"secrets": ' + "9" * 5000),
        "integer of 5000 digits (limit 100)")
    bad("integer-of-101-digits-in-metadata.json",
        edit(t33, '"version": "0.1.0"', '"version": "0.1.0", "seed": 1' + "0" * 100),
        "integer of 101 digits (limit 100)")
    bad("nesting-50000-arrays.json", nested(50000).encode(), "JSON nested too deeply")
    deep = '{"guess": "000"}'
    for _ in range(1500):
        deep = '{"guess": "000", "next": {"0,0": ' + deep + "}}"
    bad("tree-nested-1500-deep.json", edit(compact(k33), compact(k33["tree"]).decode().strip(), deep),
        "JSON nested too deeply")
    d = doc()
    d["generator"]["nested"] = json.loads(nested(31))
    bad("metadata-nested-33-levels.json", dumps(d), "nested more than 32 levels deep")
    bad("lone-surrogate-in-strategy-name.json", edit(t33, '"name": "knuth"', '"name": "\\ud800"'),
        "strategy.name: string '\\ud800' is not valid Unicode")

    # ---- gzip ------------------------------------------------------------------------------
    z = bytearray(gz(t33))
    z[len(z) // 2] ^= 0xFF
    z[len(z) // 2 + 1] ^= 0x55
    bad("gzip-corrupt-body.json.gz", bytes(z), "corrupt gzip data")
    z = bytearray(gz(t33))
    z[-6] ^= 0x01  # inside the CRC-32
    bad("gzip-bad-crc.json.gz", bytes(z), "corrupt gzip data (CRC check failed")
    bad("gzip-truncated.json.gz", gz(t33)[:-20], "corrupt gzip data")
    bad("gzip-magic-only.json.gz", b"\x1f\x8b", "corrupt gzip data")
    bad("gzip-trailing-garbage.json.gz", gz(t33) + b"garbage", "corrupt gzip data")
    bad("gzip-of-empty.json.gz", gz(b""), "empty file")
    bad("gzip-of-binary-noise.json.gz", gz(noise), "not UTF-8 text")
    bad("gzip-of-truncated-json.json.gz", gz(t33[:100]), "not valid JSON")

    # ---- top level, format, version ------------------------------------------------------
    bad("top-level-array.json", b"[" + t33.strip() + b"]\n", "top level: expected object, got array")
    bad("top-level-string.json", b'"mastermind-strategy-certificate"\n', "top level: expected object, got string")
    bad("top-level-null.json", b"null\n", "top level: expected object, got null")
    bad("top-level-number.json", b"1\n", "top level: expected object, got integer")
    bad("duplicate-key-top-level-format.json",
        edit(t33, '"version": 1,', '"format": "mastermind-strategy-certificate",\n  "version": 1,'),
        "top level: duplicate key 'format'")
    for name, change, reason in [
        ("format-missing", None, "top level: missing field 'format'"),
        ("format-wrong", "mastermind-certificate", "format: expected 'mastermind-strategy-certificate'"),
        ("format-upper-case", "MASTERMIND-STRATEGY-CERTIFICATE", "format: expected"),
        ("format-not-string", 1, "format: expected string, got integer 1"),
        ("version-missing", None, "top level: missing field 'version'"),
        ("version-2", 2, "version: this verifier reads version 1, got 2"),
        ("version-0", 0, "version: this verifier reads version 1, got 0"),
        ("version-string", "1", "version: expected integer, got string '1'"),
        ("version-float", 1.0, "version: expected integer, got number 1.0"),
        ("version-boolean", True, "version: expected integer, got boolean True"),
        ("version-null", "null", "version: expected integer, got null"),
    ]:
        field = name.split("-")[0]
        d = doc()
        if change is None:
            del d[field]
        else:
            d[field] = None if change == "null" else change
        bad(f"{name}.json", dumps(d), reason)
    bad("version-exponent.json", edit(t33, '"version": 1', '"version": 1e0'),
        "version: expected integer, got number 1.0")

    # ---- game ------------------------------------------------------------------------------
    for name, change, reason in [
        ("game-missing", None, "top level: missing field 'game'"),
        ("game-array", [3, 3, True], "game: expected object, got array"),
        ("game-null", "null", "game: expected object, got null"),
        ("game-pegs-missing", {"colors": 3, "repetition": True}, "game: missing field 'pegs'"),
        ("game-pegs-string", {"pegs": "3"}, "game.pegs: expected integer, got string '3'"),
        ("game-pegs-float", {"pegs": 3.0}, "game.pegs: expected integer, got number 3.0"),
        ("game-pegs-boolean", {"pegs": True}, "game.pegs: expected integer, got boolean True"),
        ("game-pegs-zero", {"pegs": 0}, "game.pegs: must be >= 1, got 0"),
        ("game-pegs-negative", {"pegs": -3}, "game.pegs: must be >= 1, got -3"),
        ("game-pegs-huge", {"pegs": 10**40}, "game: more than 10^477 codes is too many to enumerate"),
        ("game-65-pegs", {"pegs": 65, "colors": 2}, "game: more than 10^19 codes is too many to enumerate"),
        ("game-colors-missing", {"pegs": 3, "repetition": True}, "game: missing field 'colors'"),
        ("game-colors-1", {"colors": 1}, "game.colors: must be from 2 to 36, got 1"),
        ("game-colors-37", {"colors": 37}, "game.colors: must be from 2 to 36, got 37"),
        ("game-colors-negative", {"colors": -3}, "game.colors: must be from 2 to 36, got -3"),
        ("game-colors-string", {"colors": "3"}, "game.colors: expected integer, got string '3'"),
        ("game-repetition-missing", {"pegs": 3, "colors": 3}, "game: missing field 'repetition'"),
        ("game-repetition-string", {"repetition": "true"}, "game.repetition: expected boolean, got string"),
        ("game-repetition-integer", {"repetition": 1}, "game.repetition: expected boolean, got integer 1"),
        ("game-repetition-null", {"repetition": None}, "game.repetition: expected boolean, got null"),
        ("game-unknown-field", {"peg": 3}, "game: unknown field 'peg'"),
        ("game-too-large-8x10", {"pegs": 8, "colors": 10},
         "game: 100000000 codes is too many to enumerate (limit 1000000)"),
        ("game-too-large-7x36-norep", {"pegs": 7, "colors": 36, "repetition": False},
         "game: 42072307200 codes is too many to enumerate"),
        ("game-norep-more-pegs-than-colors", {"pegs": 4, "colors": 3, "repetition": False},
         "game: 4 pegs without repetition need at least as many colors, got 3"),
        # The header is fine, but the tree is not a strategy for the game it declares.
        ("game-pegs-changed-to-4", {"pegs": 4}, "at root: guess '001' has 3 pegs, the game has 4"),
        ("game-colors-changed-to-2", {"colors": 2}, "at root 001: branch 0,0 is unreachable"),
        ("game-colors-changed-to-4", {"colors": 4},
         "at 001 -(0,0)-> 222: missing branch 0,0 (reached by secret 333)"),
        ("game-repetition-changed-to-false", {"repetition": False},
         "at root: guess '001' repeats a colour in a game without repetition"),
    ]:
        d = doc()
        if change is None:
            del d["game"]
        elif name.endswith("-missing"):
            d["game"] = change
        elif isinstance(change, dict):
            d["game"].update(change)
        else:
            d["game"] = None if change == "null" else change
        # a game too large to enumerate is not checked (unusable, exit 2), never a verdict (issue 43)
        bad(f"{name}.json", dumps(d), reason, 2 if "too many to enumerate" in reason else INVALID)
    d = doc(k34n)
    d["game"]["repetition"] = True
    bad("game-norep-tree-declared-with-repetition.json", dumps(d),
        "at root 012: missing branch 0,0 (reached by secret 333)")
    bad("duplicate-key-game-pegs.json", edit(t33, '"pegs": 3,', '"pegs": 3,\n    "pegs": 3,'),
        "game: duplicate key 'pegs'")

    # ---- strategy and other metadata ----------------------------------------------------
    for name, change, reason in [
        ("strategy-missing", None, "top level: missing field 'strategy'"),
        ("strategy-string", "knuth", "strategy: expected object, got string 'knuth'"),
        ("strategy-name-missing", {"params": {}}, "strategy: missing field 'name'"),
        ("strategy-name-number", {"name": 1}, "strategy.name: expected string, got integer 1"),
        ("strategy-params-array", {"name": "knuth", "params": []}, "strategy.params: expected object, got array"),
        ("strategy-reference-number", {"name": "knuth", "reference": 1977},
         "strategy.reference: expected string, got integer 1977"),
    ]:
        d = doc()
        if change is None:
            del d["strategy"]
        else:
            d["strategy"] = change
        bad(f"{name}.json", dumps(d), reason)
    bad("duplicate-key-strategy-params.json",
        edit(t33, '"params": {},', '"params": {"first": "001", "first": "002"},'),
        "strategy.params: duplicate key 'first'")
    bad("duplicate-key-generator.json", edit(t33, '"name": "certify",', '"name": "certify", "name": "x",'),
        "generator: duplicate key 'name'")
    bad("duplicate-key-in-extra-field.json",
        edit(t33, '"version": 1,', '"version": 1,\n  "note": {"a": [{"b": 1, "b": 2}]},'),
        "note.a[0]: duplicate key 'b'")

    # ---- claims ----------------------------------------------------------------------------
    for name, change, reason in [
        ("claims-missing", None, "top level: missing field 'claims'"),
        ("claims-array", [27, 4, 74], "claims: expected object, got array"),
        ("claims-of-another-certificate", k24["claims"], "claims.secrets: claimed 16, replay gives 27"),
        ("claims-secrets-missing", {"secrets": None}, "claims: missing field 'secrets'"),
        ("claims-max-guesses-missing", {"max_guesses": None}, "claims: missing field 'max_guesses'"),
        ("claims-total-guesses-missing", {"total_guesses": None}, "claims: missing field 'total_guesses'"),
        ("claims-histogram-missing", {"histogram": None}, "claims: missing field 'histogram'"),
        ("claims-secrets-one-more", {"secrets": 28}, "claims.secrets: claimed 28, replay gives 27"),
        ("claims-secrets-one-less", {"secrets": 26}, "claims.secrets: claimed 26, replay gives 27"),
        ("claims-secrets-zero", {"secrets": 0}, "claims.secrets: claimed 0, replay gives 27"),
        ("claims-secrets-huge", {"secrets": 10**30},
         "claims.secrets: claimed 1000000000000000000000000000000, replay gives 27"),
        ("claims-max-guesses-too-small", {"max_guesses": 3}, "claims.max_guesses: claimed 3, replay gives 4"),
        ("claims-max-guesses-too-large", {"max_guesses": 5}, "claims.max_guesses: claimed 5, replay gives 4"),
        ("claims-total-guesses-one-less", {"total_guesses": 73},
         "claims.total_guesses: claimed 73, replay gives 74"),
        ("claims-total-guesses-one-more", {"total_guesses": 75},
         "claims.total_guesses: claimed 75, replay gives 74"),
        ("claims-histogram-entry-changed", {"histogram": {"1": 1, "2": 7, "3": 16, "4": 2}},
         "claims.histogram['3']: claimed 16, replay gives 17"),
        ("claims-histogram-entries-swapped", {"histogram": {"1": 1, "2": 17, "3": 7, "4": 2}},
         "claims.histogram['2']: claimed 17, replay gives 7"),
        ("claims-histogram-extra-entry", {"histogram": {"1": 1, "2": 7, "3": 17, "4": 2, "5": 1}},
         "claims.histogram['5']: claimed 1, replay gives 0"),
        ("claims-histogram-entry-missing", {"histogram": {"1": 1, "2": 7, "3": 17}},
         "claims.histogram['4']: claimed 0, replay gives 2"),
        ("claims-histogram-empty", {"histogram": {}}, "claims.histogram['1']: claimed 0, replay gives 1"),
        ("claims-histogram-zero-entry", {"histogram": {"1": 1, "2": 7, "3": 17, "4": 2, "5": 0}},
         "claims.histogram['5']: expected a positive integer, got 0"),
        ("claims-histogram-key-zero", {"histogram": {"0": 1, "2": 7, "3": 17, "4": 2}},
         "claims.histogram: key '0' is not a positive decimal number"),
        ("claims-histogram-key-leading-zero", {"histogram": {"01": 1, "2": 7, "3": 17, "4": 2}},
         "claims.histogram: key '01' is not a positive decimal number"),
        ("claims-histogram-key-word", {"histogram": {"one": 1, "2": 7, "3": 17, "4": 2}},
         "claims.histogram: key 'one' is not a positive decimal number"),
        ("claims-histogram-value-string", {"histogram": {"1": 1, "2": 7, "3": "17", "4": 2}},
         "claims.histogram['3']: expected a positive integer, got '17'"),
        ("claims-histogram-value-float", {"histogram": {"1": 1, "2": 7, "3": 17.0, "4": 2}},
         "claims.histogram['3']: expected a positive integer, got 17.0"),
        ("claims-histogram-array", {"histogram": [1, 7, 17, 2]}, "claims.histogram: expected object, got array"),
        ("claims-secrets-negative", {"secrets": -27}, "claims.secrets: must not be negative"),
        ("claims-secrets-string", {"secrets": "27"}, "claims.secrets: expected integer, got string '27'"),
        ("claims-max-guesses-boolean", {"max_guesses": True}, "claims.max_guesses: expected integer, got boolean"),
        ("claims-total-guesses-null", {"total_guesses": "null"}, "claims.total_guesses: expected integer, got null"),
        ("claims-unknown-field", {"mean": 2.74}, "claims: unknown field 'mean'"),
    ]:
        d = doc()
        if change is None:
            del d["claims"]
        elif isinstance(change, dict) and change is not k24["claims"]:
            for key, value in change.items():
                if value is None:
                    del d["claims"][key]
                else:
                    d["claims"][key] = None if value == "null" else value
        else:
            d["claims"] = copy.deepcopy(change)
        bad(f"{name}.json", dumps(d), reason)
    bad("duplicate-key-claims-secrets.json", edit(t33, '"secrets": 27,', '"secrets": 27,\n    "secrets": 27,'),
        "claims: duplicate key 'secrets'")
    bad("duplicate-key-claims-histogram.json", edit(t33, '"3": 17,', '"3": 17,\n      "3": 17,'),
        "claims.histogram: duplicate key '3'")

    # ---- the tree: its place and its root --------------------------------------------------
    for name, change, reason in [
        ("tree-missing", None, "top level: missing field 'tree'"),
        ("tree-array", [], "tree: expected object, got array"),
        ("tree-null", "null", "tree: expected object, got null"),
        ("tree-string", "001", "tree: expected object, got string '001'"),
        ("tree-empty-object", {}, "at root: node has no 'guess'"),
        ("tree-of-the-2x4-game", k24["tree"], "at root: guess '01' has 2 pegs, the game has 3"),
    ]:
        d = doc()
        if change is None:
            del d["tree"]
        else:
            d["tree"] = None if change == "null" else copy.deepcopy(change)
        bad(f"{name}.json", dumps(d), reason)

    def tree_bad(name: str, change, reason: str, base=k33) -> None:
        d = doc(base)
        change(d)
        bad(f"{name}.json", dumps(d), reason)

    def set_guess(keys, value):
        return lambda d: node(d, *keys).__setitem__("guess", value)

    # ---- guesses ---------------------------------------------------------------------------
    tree_bad("guess-changed-at-root", set_guess((), "012"), "at root 012: branch 0,0 is unreachable")
    tree_bad("guess-changed-at-leaf", set_guess(("0,1", "1,1"), "202"),
             "at 001 -(0,1)-> 122 -(1,1)-> 202: missing branch 1,2 (reached by secret 220)")
    tree_bad("guess-changed-at-inner-node", set_guess(("2,0",), "020"),
             "at 001 -(2,0)-> 020: branch 1,1 is unreachable")
    tree_bad("guess-changed-to-the-secret-of-a-sibling", set_guess(("0,0",), "220"),
             "at 001 -(0,0)-> 220: missing branch 2,0 (reached by secret 222)")
    tree_bad("guess-too-short", set_guess(("1,0", "0,1"), "21"),
             "at 001 -(1,0)-> 022 -(0,1)->: guess '21' has 2 pegs, the game has 3")
    tree_bad("guess-too-long", set_guess(("1,0",), "0221"), "at 001 -(1,0)->: guess '0221' has 4 pegs, the game has 3")
    tree_bad("guess-empty-string", set_guess((), ""), "at root: guess '' has 0 pegs, the game has 3")
    tree_bad("guess-colour-out-of-range", set_guess(("0,0",), "223"),
             "at 001 -(0,0)->: guess '223' uses '3', not a colour of the game (0..2)")
    tree_bad("guess-colour-letter", set_guess(("0,0",), "22a"), "at 001 -(0,0)->: guess '22a' uses 'a'")
    tree_bad("guess-colour-upper-case", set_guess(("0,0",), "A22"), "at 001 -(0,0)->: guess 'A22' uses 'A'")
    tree_bad("guess-colour-non-ascii", set_guess(("0,0",), "2\u00b22"), "at 001 -(0,0)->: guess '2\u00b22' uses '\u00b2'")
    tree_bad("guess-colour-space", set_guess(("0,0",), "2 2"), "at 001 -(0,0)->: guess '2 2' uses ' '")
    tree_bad("guess-integer", set_guess(("1,1", "0,2"), 200),
             "at 001 -(1,1)-> 012 -(0,2)->: guess must be a string, got integer 200")
    tree_bad("guess-null", set_guess(("1,1",), None), "at 001 -(1,1)->: guess must be a string, got null")
    tree_bad("guess-array", set_guess((), ["0", "0", "1"]), "at root: guess must be a string, got array")
    tree_bad("guess-object", set_guess((), {"code": "001"}), "at root: guess must be a string, got object")
    tree_bad("guess-boolean", set_guess((), True), "at root: guess must be a string, got boolean")
    tree_bad("guess-repeats-colour-without-repetition", set_guess(("1,1", "0,3"), "330"),
             "at 012 -(1,1)-> 023 -(0,3)->: guess '330' repeats a colour in a game without repetition",
             base=k34n)
    tree_bad("guess-repeats-colour-at-root-without-repetition", set_guess((), "011"),
             "at root: guess '011' repeats a colour", base=k34n)
    tree_bad("guess-missing", lambda d: node(d, "0,1").pop("guess"), "at 001 -(0,1)->: node has no 'guess'")
    bad("duplicate-key-guess-in-node.json", edit(t33, '"guess": "220"', '"guess": "220", "guess": "202"'),
        "at 001 -(0,1)-> 122 -(1,1)->: duplicate key 'guess' in node")

    # ---- nodes and branches ------------------------------------------------------------------
    tree_bad("node-unknown-field", lambda d: node(d, "2,0", "1,0").__setitem__("comment", "hi"),
             "at 001 -(2,0)-> 002 -(1,0)->: node: unknown field 'comment'")
    tree_bad("node-field-misspelt-nxt", lambda d: node(d, "2,0").__setitem__("nxt", node(d, "2,0").pop("next")),
             "at 001 -(2,0)->: node: unknown field 'nxt'")
    for kind, value in [("string", "222"), ("array", ["222"]), ("null", None), ("integer", 222)]:
        tree_bad(f"node-is-{kind}", lambda d, v=value: node(d)["next"].__setitem__("0,0", v),
                 f"at 001 -(0,0)->: a node must be an object, got {kind}")
    tree_bad("next-empty-at-leaf", lambda d: node(d, "0,0").__setitem__("next", {}),
             "at 001 -(0,0)-> 222: 'next' is empty")
    tree_bad("next-array", lambda d: node(d, "1,2").__setitem__("next", [{"guess": "100"}]),
             "at 001 -(1,2)-> 010: 'next' must be an object, got array")
    tree_bad("next-string", lambda d: node(d, "1,2").__setitem__("next", "1,2"),
             "at 001 -(1,2)-> 010: 'next' must be an object, got string")
    tree_bad("next-null-at-inner-node", lambda d: node(d, "1,2").__setitem__("next", None),
             "at 001 -(1,2)-> 010: 'next' must be an object, got null")
    tree_bad("next-missing-at-inner-node", lambda d: node(d, "1,2").pop("next"),
             "at 001 -(1,2)-> 010: missing branch 1,2 (reached by secret 100)")
    bad("duplicate-key-feedback.json",
        edit(t33, '"1,2": {\n            "guess": "100"\n          }',
             '"1,2": {\n            "guess": "100"\n          },\n          "1,2": {"guess": "100"}'),
        "at 001 -(1,2)-> 010: duplicate feedback key '1,2'")
    tree_bad("branch-missing-at-root", lambda d: node(d)["next"].pop("1,0"),
             "at root 001: missing branch 1,0 (reached by secret 022)")
    tree_bad("branch-missing-deep", lambda d: node(d, "2,0")["next"].pop("1,1"),
             "at 001 -(2,0)-> 002: missing branch 1,1 (reached by secret 021)")
    tree_bad("branch-missing-leaving-one-branch",
             lambda d: node(d, "0,2")["next"].pop("2,0"),
             "at 001 -(0,2)-> 120: missing branch 2,0 (reached by secret 110)")
    tree_bad("branch-unreachable-at-root", lambda d: node(d)["next"].__setitem__("0,3", {"guess": "100"}),
             "at root 001: branch 0,3 is unreachable")
    tree_bad("branch-unreachable-deep", lambda d: node(d, "1,2")["next"].__setitem__("0,3", {"guess": "100"}),
             "at 001 -(1,2)-> 010: branch 0,3 is unreachable")
    tree_bad("branch-unreachable-below-leaf", lambda d: node(d, "0,0").__setitem__("next", {"0,0": {"guess": "111"}}),
             "at 001 -(0,0)-> 222: branch 0,0 is unreachable")
    for label, key in [("dash", "1-2"), ("three-numbers", "1,2,0"), ("leading-space", " 1,2"),
                       ("space-after-comma", "1, 2"), ("leading-zero", "01,2"), ("letters", "a,b"),
                       ("empty", ""), ("one-number", "1,"), ("plus-sign", "+1,2"), ("decimal", "1.0,2"),
                       ("fullwidth-digits", "\uff11,\uff12"), ("seven-digits", "1000000,0")]:
        tree_bad(f"key-malformed-{label}",
                 lambda d, k=key: node(d, "1,2").__setitem__("next", {k: {"guess": "100"}}),
                 f"at 001 -(1,2)-> 010: malformed feedback key {key!r} (expected 'B,W')")
    tree_bad("key-impossible-2-1-with-3-pegs", lambda d: node(d)["next"].__setitem__("2,1", {"guess": "000"}),
             "at root 001: feedback key '2,1' is impossible with 3 pegs")
    tree_bad("key-impossible-sum-over-pegs", lambda d: node(d)["next"].__setitem__("2,2", {"guess": "000"}),
             "at root 001: feedback key '2,2' is impossible with 3 pegs")
    tree_bad("key-impossible-huge", lambda d: node(d)["next"].__setitem__("999999,0", {"guess": "000"}),
             "at root 001: feedback key '999999,0' is impossible with 3 pegs")
    tree_bad("key-win-with-branch", lambda d: node(d)["next"].__setitem__("3,0", {"guess": "001"}),
             "at root 001: feedback key '3,0' is the win")
    tree_bad("key-win-with-branch-deep", lambda d: node(d, "0,1")["next"].__setitem__("3,0", {"guess": "122"}),
             "at 001 -(0,1)-> 122: feedback key '3,0' is the win")

    def swap(keys_a, keys_b):
        def change(d):
            pa, pb = node(d, *keys_a[:-1])["next"], node(d, *keys_b[:-1])["next"]
            pa[keys_a[-1]], pb[keys_b[-1]] = pb[keys_b[-1]], pa[keys_a[-1]]
        return change

    tree_bad("subtrees-swapped-siblings", swap(("0,1",), ("0,2",)),
             "at 001 -(0,1)-> 120: branch 1,2 is unreachable")
    tree_bad("subtrees-swapped-leaves", swap(("1,0", "0,0"), ("1,0", "0,1")),
             "at 001 -(1,0)-> 022 -(0,0)-> 211: missing branch 2,0 (reached by secret 111)")
    tree_bad("subtrees-swapped-cousins", swap(("0,1", "1,1"), ("1,1", "1,1")),
             "at 001 -(0,1)-> 122 -(1,1)-> 020: missing branch 2,0 (reached by secret 220)")
    tree_bad("subtree-moved-up", lambda d: node(d)["next"].__setitem__("2,0", node(d, "2,0", "1,0")),
             "at 001 -(2,0)-> 011: missing branch 1,0 (reached by secret 000)")
    d = doc()
    d["tree"]["next"]["0,0"] = {"guess": "111", "next": {"0,0": d["tree"]["next"]["0,0"]}}
    bad("useless-guess-inserted-claims-stale.json", dumps(d), "claims.total_guesses: claimed 74, replay gives 75")

    # ---- depth -------------------------------------------------------------------------------
    bad("tree-257-guesses-deep.json", compact(chain(257)),
        "at 0 -(0,0)-> 0 -(0,0)-> 0 -(0,0)-> 0 -(0,0)-> 0 -(0,0)-> 0 -(0,0)-> 0 -(0,0)-> 0 -(0,0)-> "
        "[244 more steps] 0 -(0,0)-> 0 -(0,0)-> 0 -(0,0)-> 0 -(0,0)->: tree deeper than 256 guesses")
    return files, expected


def render(files, expected) -> dict[str, bytes]:
    out = dict(files)
    out["expected.json"] = json.dumps(expected, indent=1, sort_keys=True, ensure_ascii=True).encode() + b"\n"
    return out


def committed() -> dict[str, bytes]:
    out = {}
    for folder in ("valid", "invalid"):
        for p in sorted((HERE / folder).rglob("*")):
            if p.is_file():
                out[p.relative_to(HERE).as_posix()] = p.read_bytes()
    if (HERE / "expected.json").exists():
        out["expected.json"] = (HERE / "expected.json").read_bytes()
    return out


def main(argv) -> int:
    wanted = render(*corpus())
    if argv == ["--check"]:
        have = committed()
        diff = sorted(k for k in set(wanted) | set(have) if wanted.get(k) != have.get(k))
        for k in diff:
            print(f"{k}: {'missing' if k not in have else 'stale' if k in wanted else 'not generated'}",
                  file=sys.stderr)
        return 1 if diff else 0
    if argv:
        print("usage: python tests/data/make_corpus.py [--check]", file=sys.stderr)
        return 2
    import shutil

    for folder in ("valid", "invalid"):
        shutil.rmtree(HERE / folder, ignore_errors=True)
    for rel, data in sorted(wanted.items()):
        path = HERE / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    print(f"wrote {sum(k.startswith('valid/') for k in wanted)} valid and "
          f"{len(wanted) - 1 - sum(k.startswith('valid/') for k in wanted)} invalid files", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
