"""The committed lower-bound proofs (certificates/bounds/, built by `certify bound`) under the checker:
every one is accepted with the claims its manifest lists, the worst-case ones meet the committed
strategy certificates (optimal), and mutations that make a claim false are rejected."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from certify import optimality, reader, verify, verify_bound
from conftest import checked_bound

ROOT = Path(__file__).resolve().parent.parent
BOUNDS = ROOT / "certificates" / "bounds"
INDEX = json.loads((BOUNDS / "index.json").read_text())
PROOFS = sorted(p for p in BOUNDS.glob("*.json*") if p.name != "index.json")
SMALL = [p for p in PROOFS if p.stat().st_size < 100_000]


def _load(path: Path) -> dict:
    """The document as plain JSON (the tests edit it and write it again)."""
    return json.loads(reader.text(path.read_bytes(), verify_bound.MAX_BYTES))


def _label(game) -> str:
    return f"{game['pegs']}x{game['colors']}" + ("" if game["repetition"] else "-norep")


#: Half a minute of CPU or more each (the least totals of 4x7, about 25 s, of Bulls and Cows, about
#: 80 s and 440 MB, and of 4x9 without repetition within 6, about 32 s; 2026-11-25): `make verify`
#: checks them with all the others.
CHECKED_BY_MAKE_VERIFY = {"total-4x7.json.gz", "total-4x10-norep.json.gz", "total-4x9-norep-max6.json.gz"}
CHECKED = [p for p in PROOFS if p.name not in CHECKED_BY_MAKE_VERIFY]


def test_the_manifest_lists_every_committed_proof():
    listed = {entry["file"]: entry for entry in INDEX["proofs"]}
    assert sorted(listed) == [p.name for p in PROOFS]
    assert {"worst-case-4x6.json", "worst-case-4x7.json.gz", "worst-case-4x10-norep.json.gz"} <= set(listed)
    assert CHECKED_BY_MAKE_VERIFY <= set(listed)


@pytest.mark.parametrize("path", CHECKED, ids=lambda p: p.name)
def test_every_committed_proof_is_accepted_with_its_manifest_claims(path):
    """Each proof checked once in the suite (tests/conftest.py's checked_bound: the other tests of the
    committed proofs reuse the report), with the claims, game and node count its manifest entry and
    the search's catalogue give (tests/test_search_catalog.py compares the two)."""
    from certify.search import catalog

    entry = next(e for e in INDEX["proofs"] if e["file"] == path.name)
    report = checked_bound(path)
    assert report.valid, report.line()
    assert report.claims == entry["claims"] and report.game == entry["game"]
    assert report.checked["nodes"] == entry["nodes"]
    _, pegs, colors, repetition, _, claim = next(e for e in catalog.CATALOG if e[0] == path.name)
    assert report.game == {"pegs": pegs, "colors": colors, "repetition": repetition}
    assert report.claims == claim


def test_the_standalone_checker_accepts_the_small_proofs_with_their_manifest_claims():
    """One process of the standalone checker (certify/verify_bound.py run as a script, --json) on every
    proof under 20 kB: the same claims, game and node count as the manifest. (The big ones are
    checked in this process above: the same code, and the checker's process is tested by
    tests/test_verify_bound_independence.py and tests/test_bound_cli.py.)"""
    listed = {entry["file"]: entry for entry in INDEX["proofs"]}
    files = [p for p in PROOFS if p.stat().st_size < 20_000]
    assert len(files) >= 30
    proc = subprocess.run([sys.executable, str(ROOT / "certify" / "verify_bound.py"), "--json", *map(str, files)],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    results = json.loads(proc.stdout)["results"]
    assert sorted(Path(r["file"]).name for r in results) == sorted(p.name for p in files)
    for result in results:
        entry = listed[Path(result["file"]).name]
        assert result["valid"] and result["claims"] == entry["claims"] and result["game"] == entry["game"]
        assert result["checked"]["nodes"] == entry["nodes"]


@pytest.mark.parametrize("path", [p for p in PROOFS if p.name.startswith("worst-case-")],
                         ids=lambda p: p.name)
def test_worst_case_proofs_meet_the_knuth_certificates(path, tmp_path):
    from test_search_catalog import WORST_MET_BY  # the committed strategy that meets each proof

    game = _load(path)["game"]
    strategy = ROOT / "certificates" / WORST_MET_BY.get(path.name, f"knuth-{_label(game)}.json")
    if not strategy.exists():  # not committed: build it
        strategy = tmp_path / strategy.name
        build = ["build", "knuth", "--pegs", str(game["pegs"]), "--colors", str(game["colors"]), "-q", "-o",
                 str(strategy)] + ([] if game["repetition"] else ["--no-repetition"])
        assert subprocess.run([sys.executable, "-m", "certify", *build], timeout=300).returncode == 0
    if path.stat().st_size > 100_000:  # checked once above; here the claims as the manifest gives them
        entry = next(e for e in INDEX["proofs"] if e["file"] == path.name)
        assert verify.verify_file(str(strategy)).replayed["max_guesses"] == entry["claims"]["worst_case"]
        return
    bound = checked_bound(path)  # (the report of the test above, or checked here)
    result = optimality.compare(verify.verify_file(str(strategy)), bound)
    assert result["optimal"], result["text"]


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.name)
def test_false_claims_are_rejected(path):
    doc = _load(path)
    assert checked_bound(path).valid
    key = "worst_case" if "worst_case" in doc["claims"] else "total"
    n = verify._n_codes(doc["game"]["pegs"], doc["game"]["colors"], doc["game"]["repetition"])
    # Above the optimum (the knuth certificate shows the worst case; totals: a known optimum)
    bad = copy.deepcopy(doc)
    bad["claims"][key] += 1
    bad["nodes"][0]["bound"] += 1
    if key == "worst_case":
        report = verify_bound.check_bytes(json.dumps(bad).encode())
        assert report.status == 1 and "node 0 " in report.error and "is not refuted" in report.error
    # Any node claiming more than any set can need: a set S is always solved within |S| <= n
    # guesses (play its codes one by one), so n + 1 guesses (n*n + 1 in total) is false.
    if "max_guesses" in doc["claims"]:
        return  # a node no strategy can solve in time holds any bound
    last = len(doc["nodes"]) - 1
    for j in sorted({1, 2, last // 3, last // 2, last} & set(range(1, last + 1))):
        bad = copy.deepcopy(doc)
        bad["nodes"][j]["bound"] = n + 1 if key == "worst_case" else n * n + 1
        report = verify_bound.check_bytes(json.dumps(bad).encode())
        assert report.status == 1, (path.name, j)
        assert f"node {j} " in report.error, report.error


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.name)
def test_committed_proofs_fit_the_schema(path):
    import jsonschema

    schema = json.loads((ROOT / "docs" / "lower-bound.schema.json").read_text())
    jsonschema.validate(_load(path), schema)


def test_max_guesses_on_a_lower_bound_is_refused_not_ignored():
    """`certify verify --max-guesses K` requires a strategy's maximum; a lower bound has none: a
    one-line usage error (exit 2), where the option used to be silently ignored."""
    bound, strategy = BOUNDS / "worst-case-4x6.json", ROOT / "certificates" / "knuth-4x6.json"
    proc = subprocess.run([sys.executable, "-m", "certify", "verify", str(strategy), str(bound), "--max-guesses", "5"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (f"certify verify: error: --max-guesses applies to strategy certificates; {bound} is a "
                           "lower-bound certificate (its claims say what it proves)\n")
    # without it, both are checked; with it, the strategy alone is still checked against K
    proc = subprocess.run([sys.executable, "-m", "certify", "verify", str(strategy), str(bound)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "valid lower bound" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "certify", "verify", str(strategy), "--max-guesses", "4"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
