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


def test_every_committed_proof_is_checked_against_this_catalogue():
    """The checker runs on each committed proof once in the suite, in
    tests/test_verify_bound_committed.py (its report shared through conftest.checked_bound), which
    asserts the claims and game of this catalogue (here it ran a second time on every proof).
    Left to `make verify`: the least totals of 4x7, of Bulls and Cows and of 4x9 without repetition
    within 6 guesses."""
    from test_verify_bound_committed import CHECKED, CHECKED_BY_MAKE_VERIFY

    assert {p.name for p in CHECKED} == set(ENTRIES) - CHECKED_BY_MAKE_VERIFY
    assert CHECKED_BY_MAKE_VERIFY == {"total-4x7.json.gz", "total-4x10-norep.json.gz",
                                      "total-4x9-norep-max6.json.gz"}


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


#: Who may import the exact search (always lazily): the commands that run it or estimate it, the optimal strategy
#: (it plays the search's guesses off its committed tree), hint --up-to-symmetry (the search's
#: orbits of alike codes) and the API's build_optimal. Never the checkers, nor the core modules.
MAY_IMPORT_THE_SEARCH = {"commands/bounding.py", "commands/optimal.py", "commands/estimating.py",
                         "strategies/optimal.py", "strategies/within.py",
                         "hint.py", "api.py", "value.py",
                         "aot.py"}  # (the build of compiled.py runs the search's loops, to compile them)


def test_only_the_bound_and_optimal_commands_import_the_search():
    for path in PACKAGE.rglob("*.py"):
        if "search" in path.relative_to(PACKAGE).parts or str(path.relative_to(PACKAGE)) in MAY_IMPORT_THE_SEARCH:
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
    "worst-case-4x8.json.gz": "knuth-4x8.json.gz",
    "worst-case-4x7-norep.json.gz": "optimal-total-4x7-norep.json",
    "worst-case-4x8-norep.json.gz": "optimal-total-4x8-norep.json",
    "worst-case-4x9-norep.json.gz": "optimal-total-4x9-norep-max6.json",
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


def _published_optima() -> dict:
    """{(pegs, colors, repetition, max_guesses or None): total} from the Optima table of the
    vendored reference (tests/data/strategies.md), plus {"worst": {game: D}} from its worst-case line."""
    import re

    text = (Path(__file__).resolve().parent / "data" / "strategies.md").read_text()
    out = {}
    row = re.compile(r"^\| (\d+)x(\d+)( without repetition)?([^|]*)\| (\d+)[ |(]")
    for line in text.splitlines():
        m = row.match(line)
        if m:
            pegs, colors, norep, rest, total = m.groups()
            limit = re.search(r"at most (\d+) guesses", rest)
            out[int(pegs), int(colors), norep is None, int(limit[1]) if limit else None] = int(total)
    worst = re.search(r"Worst case \(fewest guesses that always suffice\): 4x6: (\d)\D+4x7: (\d)\D+"
                      r"Bulls and Cows: (\d)", text)
    out["worst"] = {(4, 6, True): int(worst[1]), (4, 7, True): int(worst[2]), (4, 10, False): int(worst[3])}
    return out


def test_committed_claims_match_the_published_optima():
    published = _published_optima()
    assert published[4, 6, True, None] == 5625 and published[4, 6, False, None] == 1446  # parsed
    assert published[4, 6, True, 5] == 5626 and published[4, 10, False, None] == 26274
    met = 0
    for name, pegs, colors, repetition, kind, claim in catalog.CATALOG:
        if kind == "worst" and (pegs, colors, repetition) in published["worst"]:
            assert claim["worst_case"] == published["worst"][pegs, colors, repetition], name
            met += 1
        key = (pegs, colors, repetition, claim.get("max_guesses"))
        if kind == "total" and key in published and claim.get("first") != "at_max":  # (count first:
            # its total is the least among the fewest at the maximum, test_count_first)
            assert claim["total"] == published[key], name
            met += 1
    # 4x6, 4x7, Bulls and Cows: worst cases and totals; 4x6-max5, 4x6-norep, 4x7-norep and
    # 4x8-norep totals (the last two claimed by a public solver, checked here first); the total
    # of 4x6-max5's at_max proof (test_lexicographic compares its count with the published one)
    assert met == 11


def test_committed_totals_match_goddard():
    from test_search_plain import GODDARD

    means = {**GODDARD, (4, 5): 3.941}  # same table (its 4x5 is too slow for the plain tests)
    met = 0
    for name, pegs, colors, repetition, kind, claim in catalog.CATALOG:
        if kind == "total" and repetition and "max_guesses" not in claim and (pegs, colors) in means:
            assert abs(claim["total"] / colors**pegs - means[pegs, colors]) <= 0.0005 + 1e-12, name
            met += 1
    assert met == len(means)


def test_make_verify_checks_the_bounds_manifest(tmp_path, capsys):
    from certify import catalog as main

    listed = orjson.loads((catalog.ROOT / catalog.MANIFEST).read_bytes())
    small = [e for e in listed["proofs"] if e["file"] in ("worst-case-3x3.json", "total-3x3.json")]
    for e in small:
        (tmp_path / e["file"]).write_bytes((catalog.ROOT / e["file"]).read_bytes())
    (tmp_path / catalog.MANIFEST).write_bytes(orjson.dumps({**listed, "proofs": small}))
    assert main.verify_bounds(tmp_path) == 0
    assert capsys.readouterr().out.count("valid lower bound") == 2
    small[1]["claims"] = {"total": 72}  # a manifest that claims less than the file
    (tmp_path / catalog.MANIFEST).write_bytes(orjson.dumps({**listed, "proofs": small}))
    assert main.verify_bounds(tmp_path) == 1
    assert "does not match its index.json entry" in capsys.readouterr().out


def test_the_4x8_proofs_meet_their_committed_strategies_and_the_published_claims():
    """The 4x8 least-total proofs (8.5 MB each, committed under certificates/atlas/ since
    2026-11-29; listed externally before): their manifest's claims are those of the committed
    strategies and equal the public solver's claims of the reference table (the proofs themselves
    are checked by `make verify` and `make atlas`: 82 s each)."""
    from certify import catalog as main
    from certify import verify

    atlas_manifest = orjson.loads((main.ROOT / "atlas" / "index.json").read_bytes())
    proofs = {e["file"]: e for e in atlas_manifest["files"] if e["kind"] == "proof"}
    external = orjson.loads((main.ROOT / main.EXTERNAL).read_bytes())
    assert not {"total-4x8.json.gz", "total-4x8-max6.json.gz"} & {e["file"] for e in external["proofs"]}
    published = _published_optima()
    assert published[4, 8, True, None] == 20471
    for name, limit in (("total-4x8.json.gz", None), ("total-4x8-max6.json.gz", 6)):
        entry = proofs[name]
        assert entry["game"] == {"pegs": 4, "colors": 8, "repetition": True}
        strategy = "optimal-" + name
        report = verify.verify_file(str(main.ROOT / strategy))
        assert report.valid, report.line()
        claims = report.claims
        assert claims["total_guesses"] == entry["claims"]["total"]
        assert entry["claims"].get("max_guesses") == limit
        if limit:
            assert claims["max_guesses"] <= limit
    assert proofs["total-4x8.json.gz"]["claims"]["total"] == published[4, 8, True, None]
    assert proofs["total-4x8-max6.json.gz"]["claims"]["total"] == 20473  # "20473 within 6" in the table
    assert "(20473 within 6)" in (Path(__file__).resolve().parent / "data" / "strategies.md").read_text()
