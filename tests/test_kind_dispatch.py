"""One dispatch decides a file's kind from the parsed document (issue 46): a "format" nested in
metadata before the file's own, or a file split over two gzip members, is read by the checker its
own top-level "format" names, through certify.kinds, certify.load and `certify verify`."""

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

import certify
from certify import kinds

ROOT = Path(__file__).resolve().parent.parent / "certificates"
FILES = {"strategy": ROOT / "knuth-3x3.json", "lower-bound": ROOT / "bounds" / "total-2x3.json",
         "mixed": ROOT / "value" / "value-2x2-codebreaker.json"}


def _doc(path: Path) -> dict:
    raw = path.read_bytes()
    return json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)


def _variants():
    for kind, path in FILES.items():
        doc = _doc(path)
        for other in kinds.FORMATS:
            if kinds.FORMATS[other] != kind:
                nested = {"note": {"format": other}, **doc}
                yield f"{kind}-nested-{kinds.FORMATS[other]}", kind, json.dumps(nested).encode()
        raw = json.dumps(doc).encode()
        yield f"{kind}-two-gzip-members", kind, gzip.compress(raw[:7]) + gzip.compress(raw[7:])


def _static():
    """A static certificate takes no unknown field: only its two-member form."""
    raw = (ROOT / "static" / "static-2x3.json").read_bytes()
    yield "static-two-gzip-members", kinds.STATIC, gzip.compress(raw[:7]) + gzip.compress(raw[7:])


CASES = list(_variants()) + list(_static())


@pytest.mark.parametrize("name,kind,raw", CASES, ids=[c[0] for c in CASES])
def test_kind_from_parsed_document(name, kind, raw):
    assert kinds.kind_of(raw) == kind
    got, report = kinds.check_bytes(raw, name)
    assert (got, report.valid) == (kind, True), report.error


@pytest.mark.parametrize("name,kind,raw", CASES[::3], ids=[c[0] for c in CASES[::3]])
def test_verify_and_load_accept_them(tmp_path, name, kind, raw):
    path = tmp_path / (name + (".json.gz" if raw[:2] == b"\x1f\x8b" else ".json"))
    path.write_bytes(raw)
    certify.load(str(path))  # raises when refused
    done = subprocess.run([sys.executable, "-m", "certify", "verify", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_nested_format_alone_is_not_the_files():
    """A document whose only "format" is nested has no format of its own: a strategy by default,
    refused by that checker."""
    raw = json.dumps({"meta": {"format": "mastermind-lower-bound-certificate"}}).encode()
    assert kinds.format_of(raw) is None
    got, report = kinds.check_bytes(raw, "x")
    assert got == kinds.STRATEGY and not report.valid
