"""`certify render --book`: the whole tree on A4 pages, read back with pypdf.

The whole book is Knuth's 4x5 tree's (23 pages, 11 of them continued pages: 8 s of CPU with its
text read back, where 4x6's 40 pages took 19 s); the subtree book, compared byte for byte with
itself rendered again, is 4x6's after 0011 -(1,1)-> (13 pages)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from pypdf import PdfReader

from certify import verify
from certify.__main__ import main

ROOT = Path(__file__).resolve().parents[1]
CERT = ROOT / "certificates" / "knuth-4x6.json"
#: The certificate whose whole book is read (the same code, page for page, as 4x6's, continued pages
#: included: asserted below).
WHOLE = ROOT / "certificates" / "knuth-4x5.json"
A4_PT = (595.0, 842.0)


def run(*args) -> int:
    try:
        return main([str(a) for a in args])
    except SystemExit as e:
        return e.code


@pytest.fixture(scope="module")
def cert():
    return json.loads(CERT.read_text())


@pytest.fixture(scope="module")
def whole_cert():
    return json.loads(WHOLE.read_text())


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    out = tmp_path_factory.mktemp("book") / "knuth-4x5.pdf"
    assert run("render", WHOLE, "--book", "-o", out) == 0
    return out


def texts(path):
    return [p.extract_text() for p in PdfReader(path).pages]


@pytest.fixture(scope="module")
def pages(book):
    """The book's text, page by page (read once: 5 s for 4x6's 40 pages, 2 s for 4x5's 23)."""
    return texts(book)


@pytest.fixture(scope="module")
def subtree_book(tmp_path_factory):
    """The book of the subtree after 0011 -(1,1)-> (13 pages)."""
    out = tmp_path_factory.mktemp("book") / "sub.pdf"
    assert run("render", CERT, "--book", "--at", "1,1", "-o", out) == 0
    return out


def test_pages_are_a4_and_few_dozen(book, pages, whole_cert):
    reader = PdfReader(book)
    n = len(reader.pages)
    inner = [k for k, c in whole_cert["tree"]["next"].items() if "next" in c]
    # Page 1, then at least a page per subtree that is more than one guess.
    assert 1 + len(inner) <= n <= 60
    for page in reader.pages:
        w, h = float(page.mediabox.width), float(page.mediabox.height)
        assert math.isclose(w, A4_PT[0], abs_tol=1.5) and math.isclose(h, A4_PT[1], abs_tol=1.5)
    assert len(pages) == n
    for i, text in enumerate(pages, 1):
        assert f"page {i} of {n}" in text
    assert sum("(continued)" in text for text in pages) >= 5  # subtrees past a page: continued pages


def test_each_subtree_is_titled_with_its_path(pages, whole_cert):
    root = whole_cert["tree"]
    game = whole_cert["game"]
    everyone = verify.codes(game["pegs"], game["colors"], game["repetition"])
    for key, child in root["next"].items():
        title = f"{root['guess']} -({key})-> {child['guess']}"
        holding = [t for t in pages[1:] if t.startswith(title) or f"\n{title}" in t or title in t]
        if "next" not in child:
            assert not holding  # a leaf is told on page 1 only
            continue
        assert holding, title
        n = sum(1 for s in everyone if "%d,%d" % verify.feedback(root["guess"], s) == key)
        assert f"{n} secrets reach {child['guess']}" in holding[0]
    assert "How to read it" in pages[0] and "black key peg" in pages[0]


def test_same_bytes_twice(book, subtree_book, tmp_path):
    """Rendered twice, a book is the same bytes: compared on the subtree book (13 pages, made by the
    same code page for page as the whole book's 40, which took 12 s more to render again); no
    creation date in either."""
    again = tmp_path / "again.pdf"
    assert run("render", CERT, "--book", "--at", "1,1", "-o", again) == 0
    assert again.read_bytes() == subtree_book.read_bytes()
    assert b"CreationDate" not in book.read_bytes() and b"CreationDate" not in subtree_book.read_bytes()


def test_subtree_book_and_bad_uses(subtree_book, tmp_path, cert, capsys):
    pages = texts(subtree_book)
    start = cert["tree"]["next"]["1,1"]
    first = next(iter(start["next"]))
    assert f"0011 -(1,1)-> {start['guess']} -({first})-> {start['next'][first]['guess']}" in "".join(pages[1:])
    assert run("render", CERT, "--book", "-o", tmp_path / "x.svg") == 2
    assert run("render", CERT, "--book", "--secret", "3132", "-o", tmp_path / "y.pdf") == 2
    assert "do not apply" in capsys.readouterr().err


def test_a_huge_book_is_refused_with_the_reason(tmp_path, capsys):
    big = ROOT / "certificates" / "knuth-5x8.json.gz"
    assert run("render", big, "--book", "-o", tmp_path / "big.pdf") == 2
    err = capsys.readouterr().err
    assert "A4 pages (limit" in err and "--at" in err
    assert not (tmp_path / "big.pdf").exists()
