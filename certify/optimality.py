"""Either kind of certificate, and a strategy beside a lower bound (standard library only).

``check_any`` reads a file once and hands the bytes to the checker of its kind: the strategy
verifier (verify.py) or the lower-bound checker (verify_bound.py). The kind is guessed from the
``"format"`` field near the start of the text; each checker checks the format itself, and when it
names the other kind's format the other checker gets the same bytes. So what a command shows is
always what one of the two trusted checkers accepted.
"""

from __future__ import annotations

import re
import zlib

from . import verify, verify_bound
from .errors import CertifyError
from .text import shown

STRATEGY, LOWER_BOUND = "strategy", "lower-bound"
_FORMAT = re.compile(rb'"format"\s*:\s*"([^"\\]*)"')
_OTHER = {STRATEGY: f"got '{verify_bound.FORMAT}'", LOWER_BOUND: f"got '{verify.FORMAT}'"}


def kind_of(raw: bytes) -> str:
    """The kind the first 64 KiB of text announce (plain or gzip); a strategy when unsure."""
    head = raw[:1 << 16]
    if raw[:2] == b"\x1f\x8b":
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(raw, 1 << 16)
        except zlib.error:
            return STRATEGY
    m = _FORMAT.search(head)
    return LOWER_BOUND if m and m.group(1).decode(errors="replace") == verify_bound.FORMAT else STRATEGY


def _check(kind: str, raw: bytes, path, max_guesses, keep: bool, progress):
    if kind == LOWER_BOUND:
        return verify_bound.check_bytes(raw, path, progress)
    return verify.verify_bytes(raw, path, max_guesses, keep=keep)


def check_any(path, max_guesses=None, keep=False, on_wait=None, progress=None):
    """(kind, report) of a file read once. ``max_guesses`` applies to strategy certificates only;
    ``progress(done, total)`` is called while a lower bound's nodes are checked."""
    try:
        raw = verify.read_input(path, on_wait)
    except verify.Unreadable as e:
        report = verify.Report(path)
        report.status, report.error = verify.EXIT_UNUSABLE, f"cannot read file: {e}"
        return STRATEGY, report
    except verify.Invalid as e:
        report = verify.Report(path)
        report.status, report.error = verify.EXIT_INVALID, str(e)
        return STRATEGY, report
    return check_bytes(raw, path, max_guesses, keep, progress)


def check_bytes(raw: bytes, path="<bytes>", max_guesses=None, keep=False, progress=None):
    """(kind, report) of bytes already read (``path`` names them in the report)."""
    kind = kind_of(raw)
    report = _check(kind, raw, path, max_guesses, keep, progress)
    if not report.valid and (report.error or "").startswith("format: expected") and _OTHER[kind] in report.error:
        kind = LOWER_BOUND if kind == STRATEGY else STRATEGY
        report = _check(kind, raw, path, max_guesses, keep, progress)
    return kind, report


def _label(game: dict) -> str:
    return f"{game['pegs']}x{game['colors']}" + ("" if game["repetition"] else " without repetition")


def compare(strategy: verify.Report, bound: verify_bound.Report) -> dict:
    """How a (valid) strategy meets a (valid) lower bound of the same game. Raises CertifyError when
    they cannot be compared (another game, or a bound among strategies the strategy is not)."""
    if strategy.game != bound.game:
        raise CertifyError(f"the strategy plays {_label(strategy.game)}, the lower bound is for "
                           f"{_label(bound.game)}")
    got, claims = strategy.replayed, bound.claims
    if "worst_case" in claims:
        have, need, what = got["max_guesses"], claims["worst_case"], "max {} guesses"
    else:
        within = claims.get("max_guesses")
        if within is not None and got["max_guesses"] > within:
            raise CertifyError(f"the strategy needs {got['max_guesses']} guesses for some secret; the lower "
                               f"bound is among strategies within {within}")
        have, need = got["total_guesses"], claims["total"]
        what = "total {} guesses" + ("" if within is None else f" (within {within})")
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
