"""The one place that decides a file's kind and its checker, for the CLI and the API alike; and a
strategy beside a lower bound (standard library only).

``kind_of`` reads the ``"format"`` field near the start of the text (plain or gzip); ``check_bytes``
hands the bytes to the checker of that kind: the strategy verifier (verify.py), the lower-bound
checker (verify_bound.py) or the mixed-strategy checker (verify_mixed.py). Each checker checks the
format itself, and when it names another kind's format the other checker gets the same bytes. So
what a command shows is always what one of the trusted checkers accepted.
"""

from __future__ import annotations

import re
import zlib

from . import reader, verify, verify_bound, verify_mixed
from .errors import CertifyError
from .text import shown

STRATEGY, LOWER_BOUND, MIXED = "strategy", "lower-bound", "mixed"
#: The most codes the lower-bound checker takes when asked (``max_codes``), for callers that must not
#: import the checkers themselves (the search).
CODES_CEILING = verify_bound.CODES_CEILING
KINDS = {verify.FORMAT: STRATEGY, verify_bound.FORMAT: LOWER_BOUND, verify_mixed.FORMAT: MIXED}
_FORMAT = re.compile(rb'"format"\s*:\s*"([^"\\]*)"')


def format_of(raw: bytes) -> str | None:
    """The "format" the first 64 KiB of text announce (plain or gzip), or None."""
    head = raw[:1 << 16]
    if raw[:2] == b"\x1f\x8b":
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(raw, 1 << 16)
        except zlib.error:
            return None
    m = _FORMAT.search(head)
    return m.group(1).decode(errors="replace") if m else None


def kind_of(raw: bytes) -> str:
    """The kind of certificate the first 64 KiB announce; a strategy when unsure."""
    return KINDS.get(format_of(raw), STRATEGY)


def _check(kind: str, raw: bytes, path, max_guesses, keep: bool, progress, max_codes=None):
    if kind == LOWER_BOUND:
        return verify_bound.check_bytes(raw, path, progress, max_codes or verify_bound.MAX_CODES)
    if kind == MIXED:
        return verify_mixed.check_bytes(raw, path)
    return verify.verify_bytes(raw, path, max_guesses, keep=keep)


def check_any(path, max_guesses=None, keep=False, on_wait=None, progress=None, max_codes=None):
    """(kind, report) of a file read once. ``max_guesses`` applies to strategy certificates only;
    ``progress(done, total)`` is called while a lower bound's nodes are checked."""
    report = verify.Report(path)
    raw = reader.load(path, verify.MAX_BYTES, report, on_wait)
    return (STRATEGY, report) if raw is None else check_bytes(raw, path, max_guesses, keep, progress, max_codes)


def check_bytes(raw: bytes, path="<bytes>", max_guesses=None, keep=False, progress=None, max_codes=None):
    """(kind, report) of bytes already read (``path`` names them in the report), by the checker of
    the kind they announce, or of the kind whose format the document's own "format" field names."""
    kind = kind_of(raw)
    report = _check(kind, raw, path, max_guesses, keep, progress, max_codes)
    named = re.match(r"format: expected '[^']*', got '([^']*)'$", report.error or "")
    if not report.valid and named and KINDS.get(named.group(1), kind) != kind:
        kind = KINDS[named.group(1)]
        report = _check(kind, raw, path, max_guesses, keep, progress, max_codes)
    return kind, report


def _label(game: dict) -> str:
    return (f"{game['pegs']}x{game['colors']}" + ("" if game["repetition"] else " without repetition")
            + (" black-only" if game.get("feedback") == "black-only" else ""))


def compare(strategy: verify.Report, bound: verify_bound.Report) -> dict:
    """How a (valid) strategy meets a (valid) lower bound of the same game. Raises CertifyError when
    they cannot be compared (another game, or a bound among strategies the strategy is not)."""
    if strategy.game != bound.game:
        raise CertifyError(f"the strategy plays {_label(strategy.game)}, the lower bound is for "
                           f"{_label(bound.game)}")
    got, claims = strategy.replayed, bound.claims
    if "weights" in claims:
        raise CertifyError("the lower bound is weighted (the codemaker's side of the game value): it "
                           "bounds a mean against a distribution of secrets, not a strategy's total; "
                           "compare it with a mixed strategy (docs/game-value.md)")
    if "worst_case" in claims:
        have, need, what = got["max_guesses"], claims["worst_case"], "max {} guesses"
    else:
        within = claims.get("max_guesses")
        if within is not None and got["max_guesses"] > within:
            raise CertifyError(f"the strategy needs {got['max_guesses']} guesses for some secret; the lower "
                               f"bound is among strategies within {within}")
        have, need = got["total_guesses"], claims["total"]
        what = "total {} guesses" + ("" if within is None else f" (within {within})")
        if "at_max" in claims:
            return _compare_at_max(strategy, bound, got, claims)
    shown_have = what.format(have)
    if have == need:
        text = f"optimal: {shown_have} = proven minimum {need}"
    elif have > need:
        text = f"gap: {shown_have}, proven minimum {need} (gap {have - need})"
    else:  # both checked, yet the strategy beats the bound: one of the checkers is wrong
        text = f"contradiction: {shown_have} is below the proven minimum {need}"
    return {"optimal": have == need, "achieved": have, "proven_minimum": need, "gap": have - need,
            "claims": claims, "statement": bound.statement(), "text": text,
            "bound_file": shown(bound.file)}


def _secrets(k: int) -> str:
    return f"{k} secret{'' if k == 1 else 's'}"


def _compare_at_max(strategy, bound, got: dict, claims: dict) -> dict:
    """A strategy within D beside an at_max bound: (total, secrets needing D) against the proven
    least pair, compared in lexicographic order."""
    d = claims["max_guesses"]
    have = (got["total_guesses"], got["histogram"].get(str(d), 0))
    need = (claims["total"], claims["at_max"])
    shown_have = f"total {have[0]} guesses, then {_secrets(have[1])} needing {d} (within {d})"
    order = slice(None)  # the pair as compared: (total, count), or (count, total) with first at_max
    if claims.get("first") == "at_max":
        order = slice(None, None, -1)
        shown_have = f"{_secrets(have[1])} needing {d}, then total {have[0]} guesses (within {d})"
    a, b = need[order]
    if have == need:
        text = f"optimal: {shown_have} = proven minimum {a}, then {b}"
    elif have[order] > need[order]:
        gap = (have[order][0] - a, have[order][1] - b)
        text = f"gap: {shown_have}, proven minimum {a}, then {b} (gap {gap[0]}, then {gap[1]})"
    else:  # both checked, yet the strategy beats the bound: one of the checkers is wrong
        text = f"contradiction: {shown_have} is below the proven minimum {a}, then {b}"
    return {"optimal": have == need, "achieved": have[0], "proven_minimum": need[0], "gap": have[0] - need[0],
            "at_max": {"guesses": d, "achieved": have[1], "proven_minimum": need[1], "gap": have[1] - need[1]},
            "claims": claims, "statement": bound.statement(), "text": text, "bound_file": shown(bound.file)}


def compare_pair(strategy: verify.Report, worst: verify_bound.Report, total: verify_bound.Report) -> dict:
    """A (valid) strategy beside a worst-case bound D and a total bound T: (max, total) against
    (D, T) in lexicographic order (least worst case, then least total). The total bound must
    cover the strategies within D: no limit, or a limit of at least D. Raises CertifyError when
    they cannot be compared."""
    if "worst_case" not in worst.claims or "total" not in total.claims or "at_max" in total.claims:
        raise CertifyError("least worst case, then least total: give a worst-case bound and a total bound")
    first = compare(strategy, worst)  # (also the games)
    d = worst.claims["worst_case"]
    within = total.claims.get("max_guesses")
    if within is not None and within < d:
        raise CertifyError(f"the total bound is among strategies within {within}, fewer guesses than the "
                           f"proven least worst case {d}: it says nothing of the strategies within {d}")
    if first["achieved"] != d:  # the first key decides (or the checkers disagree)
        second, text = None, first["text"] + " (the total is compared only at the least worst case)"
        optimal = False
    else:
        second = compare(strategy, total)
        optimal = second["optimal"]
        head, rest = second["text"].split(": ", 1)
        text = f"{head}: max {d} guesses = proven minimum {d}, then {rest}"
    return {"optimal": optimal, "worst_case": first, "total": second, "text": text,
            "bound_files": [shown(worst.file), shown(total.file)]}
