"""certify static page: a static certificate on one HTML page, drawn only from what the trusted
checker accepted."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from certify import static_page
from certify.errors import CertifyError

ROOT = Path(__file__).resolve().parent.parent
CERT = ROOT / "certificates" / "static" / "static-2x8-black-only.json"


class _Cells(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.questions, self.tags = [], 0, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "tr" and "data-answers" in attrs:
            self.rows.append(attrs["data-answers"])
        if tag == "div" and attrs.get("class") == "row":
            self.questions += 1


def test_page_shows_every_question_and_one_row_per_secret():
    doc = json.loads(CERT.read_bytes())
    html = static_page.page(CERT.read_bytes(), str(CERT))
    cells = _Cells()
    cells.feed(html)
    assert cells.questions == len(doc["questions"]) == 10
    assert cells.rows == [row[0] for row in doc["table"]] and len(cells.rows) == 64
    assert "(black pegs only)" in html and "11 guesses" in html


def test_page_refuses_what_the_checker_refuses(tmp_path):
    bad = ROOT / "tests" / "data" / "static" / "invalid" / "cert-final-guess-swapped.json"
    with pytest.raises(CertifyError, match="table: the final guess for"):
        static_page.page(bad.read_bytes(), str(bad))
    proof = ROOT / "certificates" / "static" / "static-2x5-proof.json"
    with pytest.raises(CertifyError, match="not a static certificate"):
        static_page.page(proof.read_bytes(), str(proof))
    out = tmp_path / "p.html"
    run = subprocess.run([sys.executable, "-m", "certify", "static", "page", str(bad), "-o", str(out)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and not out.exists() and len(run.stderr.splitlines()) == 1


def test_cli_writes_the_page(tmp_path):
    out = tmp_path / "p.html"
    run = subprocess.run([sys.executable, "-m", "certify", "static", "page", str(ROOT / "certificates" / "static"
                          / "static-2x5.json"), "-o", str(out)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    text = out.read_text()
    assert text.startswith("<!DOCTYPE html>") and len(re.findall(r"<tr data-answers=", text)) == 25
