"""The verifier's documented limits (docs/verifier-limits.md): each is enforced, and before
the work it bounds (the limits are lowered here so that the tests stay small)."""

from __future__ import annotations

import gzip
import io
import os
import sys
import tracemalloc
from pathlib import Path


from certify import verify

ROOT = Path(__file__).resolve().parent.parent
K46 = ROOT / "certificates" / "knuth-4x6.json"
VALID = ROOT / "tests" / "data" / "valid"
INVALID = ROOT / "tests" / "data" / "invalid"


def test_limits_are_the_documented_ones():
    assert (verify.MAX_BYTES, verify.MAX_CODES, verify.MAX_DEPTH) == (256 << 20, 1_000_000, 256)
    assert (verify.MAX_META_DEPTH, verify.MAX_INT_DIGITS) == (32, 100)
    doc = (ROOT / "docs" / "verifier-limits.md").read_text()
    for text in ("256 MiB", "1,000,000", "256 guesses", "32 levels", "100 digits"):
        assert text in doc and text in verify.__doc__.replace("``", "")


def test_byte_limit_on_a_plain_file(monkeypatch):
    size = K46.stat().st_size
    monkeypatch.setattr(verify, "MAX_BYTES", size - 1)
    report = verify.verify_file(str(K46))
    # over a limit is no verdict: unusable (status 2), never "invalid"
    assert report.status == 2 and report.error == f"file larger than {size - 1} bytes (the limit); not checked: the checker's ceiling, no option raises it"
    assert verify.verify_bytes(K46.read_bytes()).error == report.error
    monkeypatch.setattr(verify, "MAX_BYTES", size)
    assert verify.verify_file(str(K46)).valid


def test_byte_limit_on_a_stream_that_is_not_a_regular_file(monkeypatch):
    monkeypatch.setattr(verify, "MAX_BYTES", 1 << 20)
    report = verify.verify_file("/dev/zero")  # endless: only MAX_BYTES + 1 bytes are read
    assert report.status == 2 and "file larger than 1048576 bytes" in report.error


def test_gzip_bomb_is_cut_off_while_decompressing(monkeypatch):
    monkeypatch.setattr(verify, "MAX_BYTES", 1 << 20)
    bomb = gzip.compress(b" " * (64 << 20), mtime=0)  # 64 MiB of blanks in ~64 KiB
    assert len(bomb) < 1 << 17
    tracemalloc.start()
    try:
        report = verify.verify_bytes(bomb, "bomb.json.gz")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.status == 2 and "decompresses to more than 1048576 bytes" in report.error
    assert peak < 8 << 20  # never held the 64 MiB


def test_gzip_within_the_limit_is_fine(monkeypatch):
    data = K46.read_bytes()
    monkeypatch.setattr(verify, "MAX_BYTES", len(data))
    assert verify.verify_bytes(gzip.compress(data)).valid
    monkeypatch.setattr(verify, "MAX_BYTES", len(data) - 1)
    assert "decompresses to more than" in verify.verify_bytes(gzip.compress(data)).error


def test_game_too_large_is_refused_before_any_code_is_enumerated(monkeypatch):
    def boom(*args):
        raise AssertionError("codes were enumerated")

    monkeypatch.setattr(verify, "codes", boom)
    for name in ("game-too-large-8x10.json", "game-too-large-7x36-norep.json", "game-pegs-huge.json"):
        report = verify.verify_file(str(INVALID / name))
        assert report.status == 2 and "too many to enumerate" in report.error  # not checked (issue 43)
    monkeypatch.setattr(verify, "MAX_CODES", 1295)
    report = verify.verify_file(str(K46))
    assert report.error == ("game: 1296 codes is too many to enumerate (limit 1295); "
                            "not checked: the checker's ceiling, no option raises it")


def test_depth_limit_names_the_path(monkeypatch):
    monkeypatch.setattr(verify, "MAX_DEPTH", 4)
    report = verify.verify_file(str(K46))
    assert report.status == 1
    assert report.error.startswith("at 0011 -(")
    assert report.error.endswith("->: tree deeper than 4 guesses")
    assert report.error.count("->") == 4


def test_deepest_allowed_tree_parses_even_from_a_deep_call_stack():
    limit = sys.getrecursionlimit()
    path = str(VALID / "tree-256-guesses-deep.json")

    def deep(n):
        return deep(n - 1) if n else verify.verify_file(path)

    report = deep(limit - 150)  # close to the interpreter's own limit already
    assert report.valid and report.replayed["max_guesses"] == 256
    assert sys.getrecursionlimit() == limit  # restored


def test_nesting_deeper_than_the_parser_allows_is_refused_not_crashed():
    for depth in (2_000, 200_000):
        raw = b"[" * depth + b"]" * depth
        assert verify.verify_bytes(raw).error == "JSON nested too deeply"
        raw = b'{"a":' * depth + b"1" + b"}" * depth
        assert verify.verify_bytes(raw).error == "JSON nested too deeply"


def test_unreadable_names_and_odd_paths_are_unusable_not_crashes():
    cases = ["/nonexistent/x.json", str(ROOT), "bad\0name.json", os.fsdecode(b"/nonexistent/\xff.json")]
    for path in cases:
        report = verify.verify_file(path)
        assert report.status == 2 and report.error.startswith("cannot read file: ")
        report.line().encode("utf-8")  # printable as it is
    out, err = io.StringIO(), io.StringIO()
    assert verify.run(cases, out=out, err=err) == 2
    assert err.getvalue().count("\n") == len(cases) and out.getvalue() == ""


def test_json_report_survives_odd_but_valid_metadata():
    report = verify.verify_file(str(VALID / "knuth-3x3-integer-of-100-digits-in-metadata.json"))
    assert report.valid
    for name in ("lone-surrogate-in-strategy-name.json", "integer-of-101-digits-in-metadata.json"):
        verify.reports_json([verify.verify_file(str(INVALID / name))]).decode("ascii")


def test_builder_refuses_what_the_verifier_cannot_check():
    from certify import game

    assert game.MAX_CODES == verify.MAX_CODES
