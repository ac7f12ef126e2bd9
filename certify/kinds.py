"""The one place that decides a file's kind and which trusted checker reads it, for the CLI's
``verify``, ``value`` and ``why`` and for the Python API alike.

Bytes are read once; ``kind_of`` reads the document's own top-level ``"format"`` field (plain or
gzip, as the checkers parse it), and ``check_bytes`` hands the bytes to the checker of that kind: the strategy verifier
(verify.py), the lower-bound checker (verify_bound.py) or the mixed-strategy checker
(verify_mixed.py). Each checker checks the format itself, and when it names another kind's format
the other checker gets the same bytes. So what a command shows is always what one of the trusted
checkers accepted. The manifests written beside the certificates are recognised here too (they
are not certificates: ``verify`` names and skips them).

Importing this module is cheap: the checkers (the lower-bound one imports numpy) are imported
when a file is checked.
"""

from __future__ import annotations

import re
import zlib

STRATEGY, LOWER_BOUND, MIXED, MANIFEST = "strategy", "lower-bound", "mixed", "manifest"
STATIC, STATIC_BOUND = "static", "static-lower-bound"  # Static Mastermind (certify/verify_static.py)
#: Each kind's format string, as its checker's FORMAT says (tests/test_api_agreement.py checks).
FORMATS = {"mastermind-strategy-certificate": STRATEGY, "mastermind-lower-bound-certificate": LOWER_BOUND,
           "mastermind-mixed-strategy": MIXED, "mastermind-static-certificate": STATIC,
           "mastermind-static-lower-bound": STATIC_BOUND}
#: Each kind in words, for messages.
WORDS = {STRATEGY: "strategy", LOWER_BOUND: "lower-bound", MIXED: "mixed-strategy", MANIFEST: "manifest",
         STATIC: "static", STATIC_BOUND: "static lower-bound"}
#: Each kind's checker, as shown to a reader.
CHECKERS = {STRATEGY: "certify/verify.py", LOWER_BOUND: "certify/verify_bound.py", MIXED: "certify/verify_mixed.py",
            STATIC: "certify/verify_static.py", STATIC_BOUND: "certify/verify_static.py"}
#: The manifests written beside the certificates (``"format"``), and what checks each: a manifest
#: is not a certificate, so ``verify certificates/*.json`` names it and goes on.
MANIFESTS = {
    "certify-certificate-index": "`make verify` / python -m certify.catalog verify",
    "certify-lower-bound-index": "`make verify` / python -m certify.catalog verify-bounds",
    "certify-external-index": "python -m certify.catalog verify-external DIR",
}
_FORMAT = re.compile(rb'"format"\s*:\s*"([^"\\]*)"')


def format_of(raw: bytes) -> str | None:
    """The document's own top-level "format" (plain or gzip, every gzip member), or None.

    Read from the parsed document, as each checker reads it: a "format" nested in metadata, or
    one past the first gzip member, is not mistaken for the file's own. The top-level members
    before "format" are checked by the checkers' reader (bounded, never built) and the scan stops
    at "format", so the cost is the decompression and the few fields before it. A file the
    reader cannot parse falls back to the first "format" string of its first 64 KiB, for the
    checker to refuse with its own message."""
    from . import reader

    try:
        buf = reader.text(raw, MAX_TEXT)
        return _top_format(buf, reader)
    except (reader.Invalid, ValueError, RecursionError, MemoryError):
        pass
    head = raw[:1 << 16]
    if raw[:2] == b"\x1f\x8b":
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(raw, 1 << 16)
        except zlib.error:
            return None
    m = _FORMAT.search(head)
    return m.group(1).decode(errors="replace") if m else None


#: The most text a file's kind is read from: the largest any checker takes (verify.MAX_BYTES).
MAX_TEXT = 256 << 20


class _Found(Exception):
    pass


def _top_format(buf: bytes, reader) -> str | None:
    """The top-level "format" string of the JSON object ``buf``, or None (not an object, no such
    member, not a string)."""
    found: list = []

    def member(key, start: int) -> int:
        if key == "format":
            end = reader.header(buf, start, key)[0]
            found.append(reader.build(buf, start, end))
            raise _Found
        return reader.skip(buf, start, level=2)[0]

    start = reader.SPACE.match(buf).end()
    if buf[start:start + 1] != b"{":
        return None
    try:
        reader.members(buf, start, member)
    except _Found:
        pass
    return found[0] if found and isinstance(found[0], str) else None


def kind_of(raw: bytes) -> str:
    """The kind of certificate the document's own "format" names; a strategy when unsure."""
    return FORMATS.get(format_of(raw), STRATEGY)


def manifest_of(raw: bytes) -> str | None:
    """The format of a manifest (MANIFESTS) when ``raw`` is one, else None: a JSON object whose
    "format" names a manifest and whose entries are a list."""
    import json

    if raw[:2] == b"\x1f\x8b" or len(raw) > 1 << 24 or format_of(raw) not in MANIFESTS:
        return None  # manifests are plain, small JSON that say so first
    try:
        doc = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(doc, dict) or doc.get("format") not in MANIFESTS:
        return None
    entries = doc.get("proofs" if doc["format"] == "certify-lower-bound-index" else "certificates")
    return doc["format"] if isinstance(entries, list) else None


def _check(kind: str, raw: bytes, path, max_guesses, keep: bool, progress, max_codes=None, max_work=None,
           max_nodes=None):
    # max_codes, max_work and max_nodes: the user's limits, passed to each checker that has them
    # (default: the checker's own; the strategy verifier counts no nodes: its work limit covers
    # them); a file over one is reported unusable (status 2), never invalid.
    if kind == LOWER_BOUND:
        from . import verify_bound

        return verify_bound.check_bytes(raw, path, progress, max_codes or verify_bound.MAX_CODES, max_work,
                                        max_nodes)
    if kind == MIXED:
        from . import verify_mixed

        return verify_mixed.check_bytes(raw, path, max_codes, max_work, max_nodes)
    if kind in (STATIC, STATIC_BOUND):
        from . import verify_static

        return verify_static.check_bytes(raw, path, progress, max_codes or verify_static.MAX_CODES, max_work,
                                         max_nodes)
    from . import verify

    return verify.verify_bytes(raw, path, max_guesses, keep=keep, max_work=max_work)


def read(path, on_wait=None):
    """(bytes, None) of a file read once with the checkers' size limit, or (None, report) of the
    status-2 report that says why it could not be read."""
    from . import reader, verify

    report = verify.Report(path)
    raw = reader.load(path, verify.MAX_BYTES, report, on_wait)
    return (None, report) if raw is None else (raw, None)


def check_any(path, max_guesses=None, keep=False, on_wait=None, progress=None, max_codes=None, max_work=None,
              max_nodes=None):
    """(kind, report) of a file read once. ``max_guesses`` applies to strategy certificates only;
    ``progress(done, total)`` is called while a lower bound's nodes are checked."""
    raw, unread = read(path, on_wait)
    return (STRATEGY, unread) if raw is None else check_bytes(raw, path, max_guesses, keep, progress, max_codes,
                                                               max_work, max_nodes)


def check_bytes(raw: bytes, path="<bytes>", max_guesses=None, keep=False, progress=None, max_codes=None,
                max_work=None, max_nodes=None):
    """(kind, report) of bytes already read (``path`` names them in the report), by the checker of
    the kind they announce, or of the kind whose format the document's own "format" field names."""
    kind = kind_of(raw)
    report = _check(kind, raw, path, max_guesses, keep, progress, max_codes, max_work, max_nodes)
    named = re.match(r"format: expected '[^']*', got '([^']*)'$", report.error or "")
    if not report.valid and named and FORMATS.get(named.group(1), kind) != kind:
        kind = FORMATS[named.group(1)]
        report = _check(kind, raw, path, max_guesses, keep, progress, max_codes, max_work, max_nodes)
    return kind, report


# -- a file of another kind, named (issue 43 item 5) ------------------------------------------------

#: Each kind in a reader's words, and the command that reads it (FILE stands for the file's name).
READ_BY = {STRATEGY: ("strategy certificate", "certify verify FILE", ""),
           LOWER_BOUND: ("lower-bound proof", "certify verify FILE", " (`certify why FILE` explains a worst-case one)"),
           MIXED: ("mixed-strategy certificate", "certify verify FILE", " (`--value BOUND` beside: the game value)"),
           STATIC: ("static Mastermind certificate", "certify static verify FILE", ""),
           STATIC_BOUND: ("static Mastermind lower bound", "certify static verify CERT FILE", "")}
_EXPECTED = re.compile(r"format: expected '([^']*)', got '([^']*)'$")


def other_kind(error: str | None) -> str | None:
    """The kind (or "manifest") a checker's "format: expected X, got Y" error names when Y is the
    format of a kind this project writes, else None: the file is not broken, it is another kind."""
    m = _EXPECTED.match(error or "")
    if m is None:
        return None
    if m.group(2) in MANIFESTS:
        return MANIFEST
    return FORMATS.get(m.group(2))


def named(name: str, kind: str, command: str) -> str:
    """The one-line message for a file of another ``kind`` given to ``command`` (which reads
    strategy certificates): what it is and which command reads it (``name`` fit to print)."""
    if kind == MANIFEST:
        return (f"{name}: this is a manifest, not a certificate (`{command}` reads strategy certificates): "
                "`make verify` checks it")
    words, reader, more = READ_BY[kind]
    article = "an" if words[0] in "aeiou" else "a"
    return (f"{name}: this is {article} {words} (`{command}` reads strategy certificates): check it with "
            f"`{reader.replace('FILE', name)}`{more.replace('FILE', name)}")
