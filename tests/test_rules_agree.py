"""The results of the three families, each checked by its own trusted checker, against each other.

An answer in black and white pegs tells at least what the black pegs alone tell, and an adaptive
game at least what the static one does. So, game by game: the classic worst case and total are at
most the black-peg ones, and equal where the whites follow from the blacks (no repetition and as
many colours as pegs: every colour is in the secret, whites = pegs - blacks); the static value is at
least the adaptive worst case, and black-peg static at least classic static. A violation means one of
the checkers accepted a false value. Figures from the committed files (their checkers run elsewhere:
tests/test_black_peg.py, tests/test_static.py, tests/test_atlas.py, make verify)."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

CERTS = Path(__file__).resolve().parent.parent / "certificates"
TABLE = json.loads((CERTS / "atlas" / "table.json").read_bytes())


def _read(path: Path) -> dict:
    raw = path.read_bytes()
    return json.loads(gzip.decompress(raw) if path.name.endswith(".gz") else raw)


def _key(game: dict) -> tuple:
    return game["pegs"], game["colors"], game.get("repetition", True)


#: The black-and-white rows (the atlas has rows for the black-peg games too, keyed by their rule).
ATLAS = {_key(row["game"]): row for row in TABLE["games"]
         if row["game"].get("feedback", "black-white") == "black-white"}


def _black_peg() -> dict:
    """(pegs, colours, repetition) -> {"worst": D, "total": T} of the black-peg proofs."""
    out: dict = {}
    for path in sorted((CERTS / "black-peg").glob("*-black.json*")):
        m = re.fullmatch(r"(worst-case|total)-\d+x\d+(-norep)?-black\.json(\.gz)?", path.name)
        if not m:
            continue
        doc = _read(path)
        assert doc["game"].get("feedback") == "black-only", path.name
        claims = doc["claims"]
        what = "worst" if m[1] == "worst-case" else "total"
        out.setdefault(_key(doc["game"]), {})[what] = claims["worst_case" if what == "worst" else "total"]
    return out


def _static() -> dict:
    """(pegs, colours, repetition, rule) -> static value."""
    out = {}
    for path in sorted((CERTS / "static").glob("static-*.json*")):
        if "proof" in path.name:
            continue
        doc = _read(path)
        out[_key(doc["game"]) + (doc["game"].get("feedback", "black-white"),)] = doc["claims"]["guesses"]
    return out


BLACK, STATIC = _black_peg(), _static()


def _figure(game, column, side):
    found = ATLAS.get(game, {}).get(column, {}).get(side)
    return None if found is None else int(found["figure"])


def test_classic_values_are_at_most_the_black_peg_ones_and_equal_where_whites_follow():
    compared = equal = 0
    for game, values in BLACK.items():
        for what in ("worst", "total"):
            if what not in values:
                continue
            lower = _figure(game, what, "lower")
            if lower is not None:
                assert lower <= values[what], (game, what, lower, values[what])
                compared += 1
            pegs, colors, repetition = game
            if not repetition and pegs == colors and ATLAS.get(game, {}).get(what, {}).get("settled"):
                assert _figure(game, what, "lower") == values[what], (game, what)
                equal += 1
    assert compared >= 40 and equal >= 4


def test_a_static_value_is_at_least_the_adaptive_worst_case_and_black_peg_at_least_classic():
    compared = 0
    for (pegs, colors, repetition, rule), value in STATIC.items():
        game = (pegs, colors, repetition)
        adaptive = BLACK.get(game, {}).get("worst") if rule == "black-only" else _figure(game, "worst", "lower")
        if adaptive is not None:
            assert value >= adaptive, (game, rule, value, adaptive)
            compared += 1
        if rule == "black-only" and game + ("black-white",) in STATIC:
            assert value >= STATIC[game + ("black-white",)], game
            compared += 1
    assert compared >= 40
