"""The committed lower-bound proofs: the manifest matches them and they rebuild byte for byte;
the search package stays apart from the trusted core."""

from __future__ import annotations

import ast
from pathlib import Path

import orjson
import pytest

from certify.search import catalog

ENTRIES = {entry[0]: entry for entry in catalog.CATALOG}
PACKAGE = Path(catalog.__file__).resolve().parent.parent


def test_files_and_catalogue_agree():
    on_disk = {p.name for p in catalog.ROOT.iterdir() if p.name != catalog.MANIFEST}
    assert on_disk == set(ENTRIES)


def test_manifest_matches_files():
    listed = orjson.loads((catalog.ROOT / catalog.MANIFEST).read_bytes())
    assert listed == catalog.manifest(catalog.ROOT)
    assert [e["claims"] for e in listed["proofs"]] == [entry[5] for entry in catalog.CATALOG]


#: Rebuilt in the suite: the proofs that take a few seconds (not Bulls and Cows, a minute or
#: more, nor the total of 4x5, 20 s; `python -m certify.search.catalog build` rebuilds all).
QUICK = sorted(name for name, pegs, colors, _, kind, _ in catalog.CATALOG
               if colors**pegs <= 400 or (kind == "worst" and colors**pegs <= 2401))


@pytest.mark.parametrize("name", QUICK)
def test_rebuild_is_byte_identical(name, tmp_path):
    assert catalog.build_one(ENTRIES[name], tmp_path, strategies=tmp_path) == \
        (catalog.ROOT / name).read_bytes()
    if ENTRIES[name][4] == "total":
        strategy = catalog.strategy_name(name)
        assert (tmp_path / strategy).read_bytes() == (catalog.ROOT.parent / strategy).read_bytes()


@pytest.mark.parametrize("name", sorted(ENTRIES))  # Bulls and Cows takes the most (a minute or two)
def test_checker_accepts_every_committed_proof(name):
    from certify import verify_bound

    _, pegs, colors, repetition, _, claim = ENTRIES[name]
    report = verify_bound.check_file(str(catalog.ROOT / name))
    assert report.valid, report.line()
    assert report.game == {"pegs": pegs, "colors": colors, "repetition": repetition}
    assert report.claims == claim


def test_every_total_has_its_strategy_in_the_main_catalogue():
    from certify import catalog as main

    listed = {e[0]: e for e in main.CATALOG}
    for name, pegs, colors, repetition, kind, claim in catalog.CATALOG:
        if kind == "total":
            entry = listed[catalog.strategy_name(name)]
            assert entry[1:5] == (main.SEARCHED, pegs, colors, repetition)
            claims = orjson.loads((catalog.ROOT.parent / entry[0]).read_bytes())["claims"]
            # The strategy meets the proven bound (test_catalog verifies the strategy itself).
            assert claims["total_guesses"] == claim["total"]
            assert claims["max_guesses"] <= claim.get("max_guesses", claims["max_guesses"])


def _imports(path: Path) -> set[str]:
    """Modules a file imports, relative ones resolved against the certify package."""
    tree = ast.parse(path.read_text())
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = list(parts[:-1] if path.name != "__init__.py" else parts[:-1])
            if node.level:
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)
    return out


def test_search_never_imports_the_checkers():
    for path in (PACKAGE / "search").glob("*.py"):
        bad = {m for m in _imports(path) if m.startswith("certify.verify")}
        assert not bad, f"{path.name} imports {bad}"


def test_only_the_bound_command_imports_the_search():
    for path in PACKAGE.rglob("*.py"):
        if "search" in path.relative_to(PACKAGE).parts or path.name == "bounding.py":
            continue
        bad = {m for m in _imports(path) if m.startswith("certify.search")}
        assert not bad, f"{path.relative_to(PACKAGE)} imports {bad}"


#: A committed strategy whose maximum meets each worst-case proof: the least worst case, both ways.
WORST_MET_BY = {
    "worst-case-3x3.json": "knuth-3x3.json",
    "worst-case-4x4.json": "knuth-4x4.json",
    "worst-case-4x5.json": "knuth-4x5.json",
    "worst-case-4x6.json": "knuth-4x6.json",
    "worst-case-4x6-norep.json": "optimal-total-4x6-norep.json",
    "worst-case-4x7.json.gz": "knuth-4x7.json",
    "worst-case-4x10-norep.json.gz": "knuth-4x10-norep.json",
}


@pytest.mark.parametrize("name", sorted(WORST_MET_BY))
def test_worst_case_proofs_are_met_by_a_committed_strategy(name):
    from certify import verify

    _, pegs, colors, repetition, kind, claim = ENTRIES[name]
    report = verify.verify_file(str(catalog.ROOT.parent / WORST_MET_BY[name]))
    assert report.valid, report.line()
    assert report.game == {"pegs": pegs, "colors": colors, "repetition": repetition}
    assert report.claims["max_guesses"] == claim["worst_case"]


def test_every_worst_case_proof_is_paired():
    assert set(WORST_MET_BY) == {e[0] for e in catalog.CATALOG if e[4] == "worst"}
