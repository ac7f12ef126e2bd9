"""The committed lower-bound proofs (certificates/bounds/, built by `certify bound`) under the checker:
every one is accepted with the claims its manifest lists, the worst-case ones meet the committed
strategy certificates (optimal), and mutations that make a claim false are rejected."""

from __future__ import annotations

import copy
import json
import os
import random
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


def _with_node(doc: dict, j: int) -> dict:
    """A copy of ``doc`` whose claims and node ``j`` (its own members) can be changed; the rest is
    shared with ``doc``, which stays as it was (a deep copy of the whole proof for each mutant took
    more CPU than checking it: 2.5 of 5 s for worst-case-4x7)."""
    out = dict(doc, claims=dict(doc["claims"]), nodes=list(doc["nodes"]))
    out["nodes"][j] = dict(doc["nodes"][j])
    return out


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.name)
def test_false_claims_are_rejected(path):
    doc = _load(path)
    before = json.dumps(doc)
    assert checked_bound(path).valid
    key = "worst_case" if "worst_case" in doc["claims"] else "total"
    n = verify._n_codes(doc["game"]["pegs"], doc["game"]["colors"], doc["game"]["repetition"])
    # Above the optimum (the knuth certificate shows the worst case; totals: a known optimum)
    bad = _with_node(doc, 0)
    bad["claims"][key] += 1
    bad["nodes"][0]["bound"] += 1
    if key == "worst_case":
        report = verify_bound.check_bytes(json.dumps(bad).encode())
        assert report.status == 1 and "node 0 " in report.error and "is not refuted" in report.error
    # Any node claiming more than any set can need: a set S is always solved within |S| <= n
    # guesses (play its codes one by one), so n + 1 guesses (n*n + 1 in total) is false.
    if "max_guesses" in doc["claims"]:
        assert json.dumps(doc) == before  # (the mutants shared its parts: unchanged)
        return  # a node no strategy can solve in time holds any bound
    last = len(doc["nodes"]) - 1
    for j in sorted({1, 2, last // 3, last // 2, last} & set(range(1, last + 1))):
        bad = _with_node(doc, j)
        bad["nodes"][j]["bound"] = n + 1 if key == "worst_case" else n * n + 1
        report = verify_bound.check_bytes(json.dumps(bad).encode())
        assert report.status == 1, (path.name, j)
        assert f"node {j} " in report.error, report.error
    assert json.dumps(doc) == before  # (the mutants shared its parts: unchanged)


#: Most (guess, class) entries of a proof validated against the schema; CERTIFY_SCHEMA=all: every one.
SCHEMA_ENTRIES = None if os.environ.get("CERTIFY_SCHEMA") == "all" else 600


def _entry_shape(entry) -> tuple:
    """Which branches of the schema's ``entry`` and ``reference`` an entry takes: its members' names
    (same_as and perm), or the kinds of reference its answers name (a node number, a node with a
    perm, a lemma...)."""
    if not isinstance(entry, dict):
        return ("not an object", type(entry).__name__)
    if "same_as" in entry:
        return ("same_as", tuple(sorted(entry)))
    return ("answers", tuple(sorted({tuple(sorted(v)) if isinstance(v, dict) else (type(v).__name__,)
                                     for v in entry.values()})))


def _schema_sample(doc: dict, seed: str, most: int | None) -> tuple[dict, list]:
    """(the document with each node's guesses cut to a sample of its entries, every guess the proof
    names): the schema validates the JSON of the big proofs at ~4,000 entries a second (~30 s of
    CPU for these files). Kept whole: every member but the nodes', every node's other members,
    and the guesses (validated below as codes); of the entries, a fixed-seed sample of ``most``,
    plus the first of each shape (_entry_shape) so that every branch the file uses is validated."""
    nodes = doc.get("nodes")
    if most is None or not isinstance(nodes, list) or not all(isinstance(n, dict) for n in nodes):
        return doc, []
    entries = [(i, g) for i, n in enumerate(nodes) if isinstance(n.get("guesses"), dict) for g in n["guesses"]]
    if len(entries) <= most:
        return doc, []
    keep = set(random.Random(seed).sample(entries, most))
    shapes = set()
    for i, g in entries:
        shape = _entry_shape(nodes[i]["guesses"][g])
        if shape not in shapes:
            shapes.add(shape)
            keep.add((i, g))
    cut = [dict(n, guesses={g: e for g, e in n["guesses"].items() if (i, g) in keep})
           if isinstance(n.get("guesses"), dict) else n for i, n in enumerate(nodes)]
    return dict(doc, nodes=cut), sorted({g for _, g in entries})


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.name)
def test_committed_proofs_fit_the_schema(path):
    import jsonschema

    schema = json.loads((ROOT / "docs" / "lower-bound.schema.json").read_text())
    doc, guesses = _schema_sample(_load(path), path.name, SCHEMA_ENTRIES)
    jsonschema.validate(doc, schema)
    # the guesses whose entries were left out: codes as the schema defines them
    codes = {"$id": schema["$id"], "$defs": schema["$defs"], "type": "array", "items": {"$ref": "#/$defs/code"}}
    jsonschema.validate(guesses, codes)


def test_the_schema_sample_keeps_every_shape_and_still_fails():
    """The sample of the test above: every node and guess kept, every shape of entry, at most the
    sample's size plus one per shape; an entry of a shape the file has nowhere else (a branch the
    schema refuses) is caught whether or not the sample drew it, and a guess that is not a code too.
    (A value out of range in an entry of a common shape, a node number 0, is caught if drawn; the
    checker, which test_every_committed_proof_is_accepted... runs on every node, refuses it.)"""
    import jsonschema

    schema = json.loads((ROOT / "docs" / "lower-bound.schema.json").read_text())
    doc = _load(BOUNDS / "total-4x6.json.gz")
    full = [(i, g, e) for i, n in enumerate(doc["nodes"]) for g, e in n.get("guesses", {}).items()]
    cut, guesses = _schema_sample(doc, "total-4x6.json.gz", 600)
    kept = [(i, g, e) for i, n in enumerate(cut["nodes"]) for g, e in n.get("guesses", {}).items()]
    shapes = {_entry_shape(e) for _, _, e in full}
    assert len(shapes) >= 2 and {_entry_shape(e) for _, _, e in kept} == shapes
    assert 600 <= len(kept) <= 600 + len(shapes) < len(full)
    assert len(cut["nodes"]) == len(doc["nodes"]) and guesses == sorted({g for _, g, _ in full})
    for bad in ({"1,0": "3"}, {"same_as": "0011"}, {"1,0": {"node": 3}}):
        i, g, _ = full[-1]
        broken = copy.deepcopy(doc)
        broken["nodes"][i]["guesses"][g] = bad
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(_schema_sample(broken, "total-4x6.json.gz", 600)[0], schema)
    codes = {"$id": schema["$id"], "$defs": schema["$defs"], "type": "array", "items": {"$ref": "#/$defs/code"}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(guesses + ["00A1"], codes)


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
