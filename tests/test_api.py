"""The public Python API (certify.api): values, errors raised, and what they show in Jupyter."""

import gzip
import json
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import certify
from certify import api
from certify.errors import CertifyError, Infeasible

ROOT = Path(__file__).resolve().parent.parent
CERTS = ROOT / "certificates"
BOUNDS = CERTS / "bounds"
#: Graphviz's dot draws the picture; where it is missing (CI as a user) the note replaces it.
HAVE_DOT = shutil.which("dot") is not None


@pytest.fixture(scope="module")
def knuth():
    return certify.load(CERTS / "knuth-4x6.json")


@pytest.fixture(scope="module")
def small():
    return certify.load(CERTS / "knuth-3x3.json")


def _with_name(path: Path, name: str, reference: str = "") -> bytes:
    """The bytes of a committed certificate with another strategy name (and reference)."""
    doc = json.loads(path.read_text())
    doc["strategy"]["name"] = name
    doc["strategy"]["reference"] = reference
    return json.dumps(doc).encode()


# -- the package ------------------------------------------------------------------------------

def test_import_stays_cheap_and_names_resolve_lazily():
    code = ("import certify, sys; print('numpy' in sys.modules, 'certify.api' in sys.modules); "
            "certify.load; print('certify.api' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False", "True"]


def test_all_names_are_the_api_and_submodules_keep_their_names():
    for name in certify.__all__:
        assert getattr(certify, name) is not None
    assert certify.load is api.load and certify.CertifyError is CertifyError
    assert set(certify.__all__) - {"__version__", "CertifyError"} == set(api.__all__)
    # build, verify and hint are modules of the package: the API's names do not shadow them.
    import importlib

    for module in ("build", "verify", "hint", "compare", "why", "value"):
        loaded = importlib.import_module(f"certify.{module}")
        assert getattr(certify, module) is loaded
    assert callable(certify.verify_certificate) and callable(certify.build_certificate)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        certify.nothing


# -- build, load, save ------------------------------------------------------------------------

def test_build_gives_the_verified_bytes_of_the_committed_certificate(capsys):
    cert = certify.build_certificate("knuth", pegs=3, colors=3)
    assert cert.to_json().encode() == (CERTS / "knuth-3x3.json").read_bytes()
    assert cert.report.valid and cert.file == "<knuth 3x3>"
    assert capsys.readouterr() == ("", "")  # the library never prints


def test_properties_are_the_verifiers_replay(knuth):
    assert (knuth.secrets, knuth.max, knuth.total) == (1296, 5, 5801)
    assert knuth.distribution == {1: 1, 2: 6, 3: 62, 4: 533, 5: 694}
    assert knuth.game == {"pegs": 4, "colors": 6, "repetition": True}
    assert knuth.strategy["name"] == "knuth" and knuth.document["tree"]["guess"] == "0011"
    assert repr(knuth) == "<Certificate knuth 4x6: 1296 secrets, max 5, total 5801>"
    assert "mean 4.476 guesses (5801/1296), max 5" in str(knuth)


def test_save_and_load_round_trip_gzip_and_bytes(small, tmp_path):
    small.save(tmp_path / "a.json.gz")
    assert gzip.decompress((tmp_path / "a.json.gz").read_bytes()) == (CERTS / "knuth-3x3.json").read_bytes()
    again = certify.load(tmp_path / "a.json.gz")
    assert again.data[:2] == b"\x1f\x8b" and again.to_json() == small.to_json()
    from_bytes = certify.load(again.data)
    assert from_bytes.file == "<bytes>" and from_bytes.total == small.total
    with pytest.raises(CertifyError, match="it is the input file"):
        again.save(tmp_path / "a.json.gz")


def test_load_refuses_with_the_checkers_report(tmp_path):
    doc = json.loads((CERTS / "knuth-3x3.json").read_text())
    doc["claims"]["total_guesses"] += 1
    with pytest.raises(api.InvalidCertificate, match="claims.total_guesses: claimed 75, replay gives 74") as e:
        certify.load(json.dumps(doc).encode())
    assert isinstance(e.value, CertifyError) and e.value.report.status == "invalid"
    assert e.value.report.exit_code == 1
    with pytest.raises(CertifyError, match="cannot read .*missing.json"):
        certify.load(tmp_path / "missing.json")
    with pytest.raises(CertifyError, match="expected a certificate, a path, bytes or a dict, got int"):
        certify.load(3)
    with pytest.raises(api.InvalidCertificate, match="claims.total_guesses: claimed 75, replay gives 74"):
        certify.load(doc)  # a dict: the same checker on the same document
    with pytest.raises(CertifyError, match="the dict is not a JSON document"):
        certify.load({"format": {1, 2}})


def test_load_takes_a_dict_and_every_kind_of_certificate():
    """A strategy, a lower bound and a mixed strategy each load as their value; a manifest is named."""
    doc = json.loads((CERTS / "knuth-3x3.json").read_text())
    cert = certify.load(doc)
    assert isinstance(cert, certify.Certificate) and cert.file == "<dict>" and cert.document["tree"] == doc["tree"]
    assert certify.verify_certificate(doc).valid
    bound = certify.load(json.loads((BOUNDS / "worst-case-3x3.json").read_text()))
    assert isinstance(bound, certify.Bound) and bound.claims == {"worst_case": 4}
    mixed = certify.load(CERTS / "value" / "value-3x4-codebreaker.json")  # refused before (issue 38)
    assert isinstance(mixed, certify.MixedStrategy) and mixed.report.kind == "mixed"
    assert mixed.maximum == Fraction(219, 68) and mixed.strategies == 3 and mixed.game["colors"] == 4
    assert "needs on average at most 219/68 (3.2206) guesses for every secret of 3x4" in mixed.statement
    assert "verify_mixed.py" in mixed.report._repr_html_() and "<td" in mixed._repr_html_()
    assert certify.verify_certificate(CERTS / "value" / "value-3x4-codebreaker.json").status == "valid"
    with pytest.raises(CertifyError, match="is a mixed-strategy certificate, not a strategy certificate"):
        certify.stats(mixed)
    static = certify.load(CERTS / "static" / "static-2x10.json")  # Static Mastermind: its own checker
    assert isinstance(static, certify.StaticCertificate) and static.report.checker == "certify/verify_static.py"
    assert static.report.kind == "static" and "questions separate all 100 secrets of 2x10" in static.statement
    with pytest.raises(CertifyError, match=r"index.json is a manifest \(certify-certificate-index\), not a "
                                           r"certificate: python -m certify.catalog verify checks it"):
        certify.load(CERTS / "index.json")


def test_a_report_shows_why_and_speaks_of_the_apis_parameters(knuth):
    short = certify.verify_certificate(knuth, max_guesses=4)
    assert repr(short).endswith("knuth-4x6.json' strategy: invalid: secret 3553 needs 5 guesses, more than "
                                "max_guesses=4: 0011 -(0,0)-> 2234 -(0,1)-> 5535 -(1,2)-> 0305 -(0,2)-> 3553>")
    assert "--" not in short.error and "--" not in short.line and "--" not in short.to_json()["error"]
    big = certify.verify_certificate(CERTS / "atlas" / "worst-case-5x7.json.gz")
    # a limit is not a verdict (issue 43): unusable, and the API's keyword named
    assert big.status == "unusable" and big.error.endswith("(limit 10000); not checked: max_codes=16807 raises it")
    assert api._words("give --pegs and --colors, or --run N (1..3); --depth 2") == \
        "give pegs and colors, or run=N (1..3); depth=2"
    with pytest.raises(CertifyError, match=r"^run goes with cuda-json"):  # the importer's words, translated
        certify.import_tree("cpp-text", b"x", run=1)
    with pytest.raises(CertifyError, match=r"^at=9,9: step 1 '9,9' does not exist after 0011"):  # render's
        knuth.svg(at="9,9")


@pytest.mark.parametrize("call, message", [
    (lambda: certify.build_certificate("nope", 3, 3), "unknown strategy 'nope'"),
    (lambda: certify.build_certificate("optimal", 3, 3), "use build_optimal"),
    (lambda: certify.build_certificate("knuth", pegs=0), "pegs must be an integer >= 1"),
    (lambda: certify.build_certificate("knuth", pegs=30, colors=30), "more than the builder's limit"),
    (lambda: certify.build_certificate("knuth", 3, 3, sequence="000,111"), "does not take a sequence"),
    (lambda: certify.build_certificate(len), "got builtin_function_or_method"),
])
def test_build_errors_are_certify_errors(call, message):
    with pytest.raises(CertifyError, match=message):
        call()


# -- verify -----------------------------------------------------------------------------------

def test_verify_returns_reports_valid_invalid_unusable(knuth, tmp_path):
    report = certify.verify_certificate(CERTS / "knuth-4x6.json")
    assert report.valid and report.kind == "strategy" and report.replayed["total_guesses"] == 5801
    short = certify.verify_certificate(knuth, max_guesses=4)
    assert short.status == "invalid" and "secret 3553 needs 5 guesses" in short.error
    assert short.to_json()["exit_code"] == 1
    missing = certify.verify_certificate(str(tmp_path / "missing.json"))
    assert missing.status == "unusable" and missing.exit_code == 2
    lower = certify.verify_certificate((BOUNDS / "worst-case-4x6.json").read_bytes())
    assert lower.kind == "lower-bound" and lower.statement.endswith("needs >= 5 guesses for some secret")
    with pytest.raises(CertifyError, match="max_guesses applies to strategy certificates"):
        certify.verify_certificate(BOUNDS / "worst-case-4x6.json", max_guesses=5)
    with pytest.raises(CertifyError, match="max_guesses must be an integer >= 1"):
        certify.verify_certificate(knuth, max_guesses=0)


# -- stats, explain ---------------------------------------------------------------------------

def test_stats_records_and_frames(knuth, monkeypatch):
    records = certify.stats(CERTS / "knuth-4x6.json", as_frame=False)
    assert [r["count"] for r in records] == [1, 6, 62, 533, 694]
    # rounded as `certify stats` prints them
    assert [r["frequency_pct"] for r in records] == [0.08, 0.46, 4.78, 41.13, 53.55]
    assert [r["cumulative_pct"] for r in records] == [0.08, 0.54, 5.32, 46.45, 100.0]
    frame = knuth.stats(as_frame=True)
    assert list(frame.columns) == ["count", "frequency_pct", "cumulative_pct"] and frame.index.name == "guesses"
    assert list(frame.index) == [1, 2, 3, 4, 5]  # indexed by guesses, from 1
    assert frame["count"].sum() == 1296 and (frame.index * frame["count"]).sum() == 5801
    monkeypatch.setitem(sys.modules, "pandas", None)  # as if pandas were not installed
    assert knuth.stats() == records
    with pytest.raises(CertifyError, match="as_frame=True needs pandas"):
        knuth.stats(as_frame=True)


def test_explain(knuth):
    game = certify.explain(knuth, "3132")
    assert [s["guess"] for s in game.steps] == ["0011", "1233", "3123", "3132"]
    assert game.guesses == 4 and str(game).endswith("found 3132 in 4 guesses")
    with pytest.raises(CertifyError, match="'7777' is not a code of the game"):
        knuth.explain("7777")
    with pytest.raises(CertifyError, match="got int"):
        knuth.explain(3132)
    with pytest.raises(CertifyError, match="is a lower-bound certificate, not a strategy certificate"):
        certify.explain(BOUNDS / "worst-case-3x3.json", "012")


# -- hints ------------------------------------------------------------------------------------

def test_hint_in_every_row_form():
    one = certify.hint_after("001=1,0", pegs=3, colors=3)
    assert one.guess == "022" and one.candidates == 6 and one.guess_is_candidate
    assert one.partition == {"0,0": 1, "0,1": 1, "1,0": 1, "1,1": 1, "1,2": 1, "3,0": 1}
    assert certify.hint_after([("001", (1, 0))], pegs=3, colors=3).doc == one.doc
    assert certify.hint_after([("001", "1,0")], pegs=3, colors=3).doc == one.doc
    assert "knuth would play 022 (a candidate)" in str(one)


def test_hint_from_a_certificate_and_its_errors(knuth):
    hint = certify.hint_after(["0011=0,1"], certificate=knuth)
    assert hint.guess == "1233" and hint.doc["source"] == "certificate"
    with pytest.raises(CertifyError, match="these contradict each other: 0011=4,0 0011=0,0"):
        certify.hint_after(["0011=4,0", "0011=0,0"])
    with pytest.raises(CertifyError, match="the certificate's game is 4x6"):
        certify.hint_after([], pegs=3, certificate=knuth)
    with pytest.raises(CertifyError, match="either strategy or certificate"):
        certify.hint_after([], strategy="knuth", certificate=knuth)
    with pytest.raises(CertifyError, match="go with table=True"):
        certify.hint_after([], top=3)
    with pytest.raises(CertifyError, match="a row is 'GUESS=B,W'"):
        certify.hint_after([17])
    with pytest.raises(CertifyError, match="answer '0011=5,0'"):
        certify.hint_after(["0011=5,0"])


def test_weight_table(monkeypatch):
    table = certify.hint_after(["001=1,0"], pegs=3, colors=3, table=True, sort="weight", top=4)
    assert table.least_weight == 1 and table.candidates == 6
    rows = table.rows(as_frame=False)
    assert [(r["code"], r["weight"], r["least"], r["candidate"]) for r in rows] == [
        ("022", 1, True, True), ("202", 1, True, True), ("111", 2, False, True), ("121", 2, False, True)]
    assert rows[0]["0,0"] == 1 and set(table.feedbacks) <= set(rows[0])
    assert table.to_csv().splitlines()[1].startswith("022,1,1,0,1,1,1,0,1,1,1,1")
    assert list(table.rows(as_frame=True)["code"]) == ["022", "202", "111", "121"]
    with pytest.raises(CertifyError, match="top must be an integer >= 1"):
        certify.hint_after(["001=1,0"], pegs=3, colors=3, table=True, top=-1)
    with pytest.raises(CertifyError, match="unknown sort 'size'"):
        certify.hint_after([], pegs=3, colors=3, table=True, sort="size")


# -- lower bounds and optimality --------------------------------------------------------------

def test_bound_worst_and_total_match_the_committed_proofs(capsys):
    worst = certify.bound(pegs=3, colors=3)
    assert worst.claims == certify.load(BOUNDS / "worst-case-3x3.json").claims and worst.strategy is None
    assert worst.report.valid and worst.proof["claims"] == worst.claims
    total = certify.bound(pegs=3, colors=3, kind="total")
    assert total.claims == certify.load(BOUNDS / "total-3x3.json").claims
    assert total.strategy.total == total.claims["total"] and total.strategy.report.valid
    assert capsys.readouterr() == ("", "")
    with pytest.raises(CertifyError, match="max_guesses goes with kind='total'"):
        certify.bound(3, 3, max_guesses=4)
    with pytest.raises(CertifyError, match="kind must be 'worst' or 'total'"):
        certify.bound(3, 3, kind="best")


def test_build_optimal_and_its_infeasible_limit(tmp_path):
    strategy, proof = certify.build_optimal(pegs=3, colors=3)
    committed = certify.load(CERTS / "optimal-total-3x3.json")
    assert strategy.total == committed.total == proof.claims["total"]
    assert certify.verify_optimality(strategy, proof).optimal
    proof.save(tmp_path / "p.json")
    assert certify.load(tmp_path / "p.json").claims == proof.claims
    with pytest.raises(Infeasible, match="every strategy needs 4 for some secret") as e:
        certify.build_optimal(pegs=3, colors=3, max_guesses=3)
    assert e.value.bound.claims == {"worst_case": 4} and e.value.bound.report.valid


def test_build_optimal_lexicographic_objectives():
    """Both orders of (total, secrets at the maximum); the claims follow the objective."""
    strategy, proof = certify.build_optimal(pegs=2, colors=5, max_guesses=4, objective="max-count,total")
    assert proof.claims == {"total": 81, "max_guesses": 4, "at_max": 11, "first": "at_max"}
    assert certify.verify_optimality(strategy, proof).optimal
    strategy, proof = certify.build_optimal(pegs=2, colors=5, max_guesses=4, objective="total,max-count")
    assert proof.claims == {"total": 81, "max_guesses": 4, "at_max": 11}
    with pytest.raises(CertifyError, match="give max_guesses"):
        certify.build_optimal(pegs=2, colors=5, objective="max-count,total")
    with pytest.raises(CertifyError, match="objective must be one of"):
        certify.build_optimal(pegs=2, colors=5, objective="worst,total")


def test_verify_optimality_optimal_gap_and_mismatch(knuth, small):
    best = certify.verify_optimality(knuth, BOUNDS / "worst-case-4x6.json")
    assert best.optimal and best.text == "optimal: max 5 guesses = proven minimum 5"
    gap = certify.verify_optimality(small, BOUNDS / "total-3x3.json")
    assert not gap.optimal and (gap.achieved, gap.proven_minimum, gap.gap) == (74, 73, 1)
    with pytest.raises(CertifyError, match="the strategy plays 4x6, the lower bound is for 3x3"):
        certify.verify_optimality(knuth, BOUNDS / "worst-case-3x3.json")
    with pytest.raises(CertifyError, match="is a strategy certificate, not a lower-bound certificate"):
        certify.verify_optimality(knuth, knuth)


# -- display ----------------------------------------------------------------------------------

def test_certificate_shows_table_picture_and_page(small):
    html = small._repr_html_()
    assert "<b>knuth</b> on 3 pegs x 3 colours (27 secrets), verified" in html
    assert '<td style="text-align:right">17</td>' in html
    assert ("<svg" in html) if HAVE_DOT else ("no picture: Graphviz" in html)
    assert not hasattr(small, "_repr_svg_")  # (IPython would add the picture a second time)
    bundle = small._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert "<iframe" not in bundle["text/html"] and "write_page('page.html') or interactive()" in html
    assert set(small._repr_mimebundle_(include={"text/plain"})) == {"text/plain"}


@pytest.mark.skipif(not HAVE_DOT, reason="the picture needs Graphviz's dot (tools/system-packages.sh)")
def test_a_certificates_display_stays_small(knuth, tmp_path):
    """4x6's whole display was 223 KB (page 138 KB + picture 85 KB twice); now its table and the
    first level of the tree, the page written on demand."""
    bundle = certify.load(knuth.data)._repr_mimebundle_()
    size = sum(len(v.encode()) for v in bundle.values())
    assert size < 20_000, size
    assert "<svg" in bundle["text/html"] and "svg(depth=K) draws more" in bundle["text/html"]
    link = knuth.write_page(tmp_path / "knuth <4x6>.html")
    assert (tmp_path / "knuth <4x6>.html").read_text(encoding="utf-8") == knuth.page()
    assert 'href="' in link._repr_html_() and "knuth &lt;4x6&gt;.html</a>" in link._repr_html_()
    frame = knuth.interactive()._repr_html_()
    assert frame.startswith('<iframe sandbox="allow-scripts" srcdoc="') and len(frame) > 40_000


def test_certificate_without_graphviz_still_shows_its_table(small, tmp_path, monkeypatch):
    fresh = certify.load(small.data)  # nothing drawn yet
    monkeypatch.setenv("PATH", str(tmp_path))  # no 'dot' anywhere
    html = fresh._repr_html_()
    assert "<svg" not in html and "no picture: Graphviz&#x27;s &#x27;dot&#x27; program is not installed" in html
    assert '<td style="text-align:right">17</td>' in html
    assert "image/svg+xml" not in fresh._repr_mimebundle_()
    with pytest.raises(CertifyError, match="not installed"):
        fresh.svg()


HOSTILE = '<img src=x onerror=alert(1)>\x1b[2J"&'


def test_text_from_files_is_escaped_in_html(tmp_path):
    path = tmp_path / "<b>bold<i>.json"
    path.write_bytes(_with_name(CERTS / "knuth-3x3.json", HOSTILE, reference="<script>x</script>"))
    cert = certify.load(path)
    for html in (cert._repr_mimebundle_()["text/html"], cert.report._repr_html_(),
                 certify.verify_certificate(path)._repr_html_(), cert.explain("012")._repr_html_(),
                 certify.verify_optimality(cert, BOUNDS / "total-3x3.json")._repr_html_()):
        assert "<img" not in html and "<script" not in html and "<b>bold" not in html and "<i>.json" not in html
        assert "\x1b" not in html
    html = cert._repr_html_()
    assert "&lt;img src=x onerror=alert(1)&gt;\\x1b[2J&quot;&amp;" in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html
    assert "&lt;b&gt;bold&lt;i&gt;.json" in cert.report._repr_html_()


def test_invalid_report_and_bound_show_their_verdict(tmp_path):
    doc = json.loads((CERTS / "knuth-3x3.json").read_text())
    doc["claims"]["secrets"] = 28
    bad = tmp_path / "bad<1>.json"
    bad.write_text(json.dumps(doc))
    html = certify.verify_certificate(bad)._repr_html_()
    assert '<b style="color:#cf222e">invalid</b> ' in html and "bad&lt;1&gt;.json" in html
    assert "claims.secrets: claimed 28, replay gives 27" in html
    bound_html = certify.load(BOUNDS / "worst-case-3x3.json")._repr_html_()
    assert "valid lower bound" in bound_html and "needs &gt;= 4 guesses for some secret" in bound_html


def test_hint_weight_table_and_explanation_html(knuth):
    hint = certify.hint_after(["0011=2,0"])._repr_html_()
    assert "knuth would play 0123 (not a candidate: it cannot be the secret)" in hint
    assert '<th style="text-align:right">1,2</th>' in hint and '<td style="text-align:right">21</td>' in hint
    table = certify.hint_after(["0011=2,0"], table=True)
    html = table._repr_html_()
    assert html.count("<tr>") == 1 + api.HTML_ROWS and "... 1096 more rows" in html
    assert "<td style=\"text-align:left\"><b>0123</b></td>" in html  # least weight: bold
    explained = knuth.explain("3132")._repr_html_()
    assert explained.count("<tr>") == 1 + 4 and "found in 4 guesses" in explained


def test_interactive_page_runs_inside_the_sandboxed_frame(small, tmp_path):
    """The page in the notebook's HTML (srcdoc, sandbox="allow-scripts") runs its script and draws
    the tree, with nothing in the console: its CSP still lets its own script and style run."""
    import shutil

    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    page = tmp_path / "notebook.html"
    page.write_text("<!doctype html><meta charset=utf-8><body>" + small.interactive()._repr_html_())
    options = Options()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"),
                              options=options)
    try:
        driver.get(page.as_uri())
        driver.switch_to.frame(driver.find_element(By.TAG_NAME, "iframe"))
        root = driver.find_element(By.CSS_SELECTOR, '.row[data-id="0"]')
        assert "".join(p.text for p in root.find_elements(By.CSS_SELECTOR, ".peg")) == "001"
        assert [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")] == []
    finally:
        driver.quit()


def test_the_docs_python_example_runs_and_says_true():
    import re

    text = (ROOT / "docs" / "python-api.md").read_text(encoding="utf-8")  # the README's, moved there
    section = text[text.index("# Python API"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    names = {}
    exec(compile(code, "docs/python-api.md", "exec"), names)  # noqa: S102 - the page's own example
    assert (names["cert"].total, names["cert"].max) == (5801, 5)  # as its comments say
    assert names["strategy"].total == 73 == names["proof"].claims["total"]
    assert f"'{certify.verify_optimality(names['cert'], names['worst']).text}'" in code


# -- the other commands: compare, import, why, split-proof, value ----------------------------

def test_compare_certificates(knuth, small):
    found = certify.compare_certificates(knuth, CERTS / "entropy-4x6.json", sort="total")
    assert [r["total_guesses"] for r in found.rows] == [5722, 5801]
    assert "knuth" in found.table() and found.to_csv().startswith("file,")
    frame = found.frame(as_frame=False)
    assert frame[1]["file"].endswith("knuth-4x6.json")
    assert {**frame[1], "file": ""} == {"file": "", "strategy": "knuth", "game": "4x6", "secrets": 1296,
                        "max_guesses": 5, "total_guesses": 5801, "mean": 4.4761}
    with pytest.raises(CertifyError, match="sort must be one of"):
        certify.compare_certificates(knuth, sort="nope")
    with pytest.raises(CertifyError, match="is a lower-bound certificate, not a strategy certificate"):
        certify.compare_certificates(knuth, BOUNDS / "total-3x3.json")


IMPORT_DATA = ROOT / "tests" / "data" / "import"


@pytest.mark.parametrize("fmt, name", [("cpp-text", "knuth-3x3.txt"), ("c-yaml", "knuth-3x3.yml"),
                                       ("cuda-dot", "knuth-3x3.gv"), ("c-punchcard", "knuth-3x3.cards")])
def test_import_tree_gives_the_verified_certificate_as_the_cli_writes_it(fmt, name, tmp_path, capsys):
    from certify.__main__ import main

    found = certify.import_tree(fmt, IMPORT_DATA / name)
    assert isinstance(found, certify.Certificate) and found.document["tree"] == \
        json.loads((CERTS / "knuth-3x3.json").read_text())["tree"]
    assert main(["import", fmt, str(IMPORT_DATA / name), "-o", str(tmp_path / "cli.json"), "-q"]) == 0
    assert json.loads(found.to_json()) == json.loads((tmp_path / "cli.json").read_text())
    assert certify.import_tree(fmt, (IMPORT_DATA / name).read_bytes()).total == 74


def test_import_tree_refusals():
    with pytest.raises(CertifyError, match="unknown format 'nope'"):
        certify.import_tree("nope", b"")
    text = (IMPORT_DATA / "knuth-3x3.txt").read_text()
    with pytest.raises(CertifyError, match="27 secrets at the root is not the size of the game of 3 pegs and 2 colours"):
        certify.import_tree("cpp-text", text.encode(), colors=2)


def test_why_bound_explains_a_checked_worst_case_proof():
    found = certify.why_bound(BOUNDS / "worst-case-3x3.json")
    assert found.bound.claims == {"worst_case": 4} and str(found).count("\n") > 2
    assert "needs &gt;= 4" in found._repr_html_() or "4" in found._repr_html_()
    assert found.page().startswith("<!DOCTYPE html>")
    with pytest.raises(CertifyError, match="proves a total number of guesses"):
        certify.why_bound(BOUNDS / "total-3x3.json")
    with pytest.raises(CertifyError, match="depth must be an integer >= 0"):
        certify.why_bound(BOUNDS / "worst-case-3x3.json", depth=-1)


def test_split_proof_and_verify_parts(tmp_path):
    summary = certify.split_proof(BOUNDS / "total-3x3.json", tmp_path / "parts", depth=1)
    assert summary["parts"] and summary["main"].endswith("main.json")
    (report,) = certify.verify_parts(summary["main"], tmp_path / "parts")
    assert report.valid and report.claims == json.loads((BOUNDS / "total-3x3.json").read_text())["claims"]
    alone = certify.verify_certificate(summary["main"])
    assert not alone.valid and "parts" in alone.error and "--part" not in alone.error
    with pytest.raises(CertifyError, match="give depth or parts"):
        certify.split_proof(BOUNDS / "total-3x3.json", tmp_path / "other")


def test_game_value_is_proven_from_both_sides(tmp_path):
    found = certify.game_value(2, 3)
    committed = certify.verify_value(CERTS / "value" / "value-2x3-codebreaker.json",
                                     CERTS / "value" / "value-2x3-codemaker.json")
    assert found.proven and found.value == committed.value == found.lower == found.upper
    assert found.text == committed.text and found.text.startswith("game value v = ")
    found.codemaker.save(tmp_path / "maker.json")
    assert certify.load(tmp_path / "maker.json").claims == found.codemaker.claims
    with pytest.raises(CertifyError, match="the lower bound has no weights"):
        certify.verify_value(found.codebreaker, BOUNDS / "total-2x3.json")
    with pytest.raises(CertifyError, match="at most 1296 codes"):
        certify.game_value(5, 5)


def test_bound_and_build_optimal_take_a_checkpoint_as_the_cli(tmp_path):
    """checkpoint= as --checkpoint: the worst-case search's memo file, the split total search's
    folder; written, read back by the next call, and the figures are still the checked proof's."""
    memo = tmp_path / "w.memo"
    # saved after every set (3x5's whole search can take less than 0.01 s: then nothing was saved)
    first = api.bound(3, 5, kind="worst", checkpoint=memo, checkpoint_every=1e-9)
    assert first.claims == {"worst_case": 5} and memo.stat().st_size > 0
    again = api.bound(3, 5, kind="worst", checkpoint=memo)  # resumed from the file: the same proof
    assert again.data == first.data and again.report.valid
    assert api.bound(3, 5, kind="worst").data == first.data
    folder = tmp_path / "opt"
    strategy, proof = api.build_optimal(2, 4, checkpoint=folder)
    assert proof.claims == {"total": 45} and strategy.report.replayed["total_guesses"] == 45
    assert any(p.name.startswith("task-") for p in folder.iterdir())
    assert api.build_optimal(2, 4, checkpoint=folder)[1].data == proof.data
    with pytest.raises(api.CertifyError, match="checkpoint goes with kind='worst'"):
        api.bound(2, 3, kind="total", checkpoint=memo)
    # the counting objectives too, each folder bound to its objective (another's is refused)
    alone = api.build_optimal(2, 4, max_guesses=4, objective="max-count,total")[1]
    count = tmp_path / "count"
    split = api.build_optimal(2, 4, max_guesses=4, objective="max-count,total", checkpoint=count)[1]
    assert split.claims == alone.claims and split.claims["first"] == "at_max" and split.report.valid
    for objective in ("total,max-count", "total"):
        with pytest.raises(api.CertifyError, match="holds the checkpoint of another search"):
            api.build_optimal(2, 4, max_guesses=4, objective=objective, checkpoint=count)
