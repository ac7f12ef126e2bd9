"""The committed certificates: all verify, the manifest matches them, every one rebuilds byte for byte."""

from __future__ import annotations

import json

import orjson
import pytest

from certify import catalog, verify

from conftest import CERTS

ENTRIES = {entry[0]: entry for entry in catalog.CATALOG}


def test_catalogue_names_are_unique_and_files_committed():
    names = [entry[0] for entry in catalog.CATALOG]
    assert len(names) == len(set(names))
    on_disk = {p.name for p in catalog.ROOT.iterdir() if p.name != catalog.MANIFEST and p.is_file()}
    assert on_disk == set(names), "certificates/ and CATALOG disagree"


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_certificate_verifies(name):
    _, sid, pegs, colors, repetition, options = ENTRIES[name]
    report = verify.verify_file(str(catalog.ROOT / name))
    assert report.valid, report.line()
    assert report.game == {"pegs": pegs, "colors": colors, "repetition": repetition}
    assert report.strategy["name"] == sid
    assert report.replayed == report.claims


def test_manifest_matches_files():
    listed = orjson.loads((catalog.ROOT / catalog.MANIFEST).read_bytes())
    assert listed == catalog.manifest(catalog.ROOT)


def test_verify_all_passes(capsys):
    assert catalog.verify_all() == 0
    assert len(capsys.readouterr().out.splitlines()) == len(catalog.CATALOG)


@pytest.mark.parametrize("name", sorted(n for n, e in ENTRIES.items() if e[1] != catalog.SEARCHED))
def test_rebuild_is_byte_identical(name, tmp_path):
    assert catalog.build_one(ENTRIES[name], tmp_path) == (catalog.ROOT / name).read_bytes()
    # about 5 s in all, knuth 5x8 the most; the exact search's strategies: tests/test_search_catalog.py


def test_external_manifest_records_verified_files_and_catches_a_changed_one(tmp_path, capsys):
    """Big certificates live outside git: their entry (figures, sha256, command) is written from
    a verified file, and a file that differs from its entry is reported."""
    from certify import catalog

    index, where = tmp_path / "index", tmp_path / "files"
    (index / "external").mkdir(parents=True)
    where.mkdir()
    src = CERTS / "knuth-4x6.json"
    (where / src.name).write_bytes(src.read_bytes())
    assert catalog.add_external(str(where / src.name), "certify build knuth", folder=index) == 0
    entry = json.loads((index / catalog.EXTERNAL).read_text())["certificates"][0]
    assert entry["claims"]["total_guesses"] == 5801 and entry["bytes"] == src.stat().st_size
    assert catalog.verify_external(str(where), folder=index) == 0
    # Same tree, other bytes (indentation): valid, but not the file recorded.
    (where / src.name).write_text(json.dumps(json.loads(src.read_text())))
    assert catalog.verify_external(str(where), folder=index) == 1
    assert "does not match its external/index.json entry" in capsys.readouterr().out
    (where / src.name).unlink()
    assert catalog.verify_external(str(where), folder=index) == 0
    assert "absent (build it with: certify build knuth)" in capsys.readouterr().out
    (where / "bad.json").write_text("{}")
    assert catalog.add_external(str(where / "bad.json"), "x", folder=index) != 0


def test_external_manifest_records_checked_proofs_and_catches_a_changed_one(tmp_path, capsys):
    index, where = tmp_path / "index", tmp_path / "files"
    (index / "external").mkdir(parents=True)
    where.mkdir()
    src = catalog.ROOT / "bounds" / "worst-case-3x3.json"
    (where / src.name).write_bytes(src.read_bytes())
    check = "certify verify knuth-3x3.json --optimal worst-case-3x3.json"
    assert catalog.add_external(str(where / src.name), "python -m certify.search.catalog build", index, check) == 0
    listed = orjson.loads((index / "external" / "index.json").read_bytes())
    (entry,) = listed["proofs"]
    assert listed["certificates"] == []
    assert entry["claims"] == {"worst_case": 4} and entry["check"] == check
    assert entry["bytes"] == src.stat().st_size and entry["game"]["colors"] == 3
    capsys.readouterr()
    assert catalog.verify_external(str(where), folder=index) == 0
    doc = orjson.loads(src.read_bytes())  # the same proof, other bytes: not the listed file
    (where / src.name).write_bytes(orjson.dumps(doc, option=orjson.OPT_INDENT_2))
    assert catalog.verify_external(str(where), folder=index) == 1
    assert "does not match its external/index.json entry" in capsys.readouterr().out
    doc["claims"]["worst_case"] = 3  # the checker refuses a claim its root does not prove
    (where / src.name).write_bytes(orjson.dumps(doc))
    assert catalog.verify_external(str(where), folder=index) == 1
    assert "invalid" in capsys.readouterr().out
    (where / src.name).write_bytes(b"{}")  # not a proof at all
    assert catalog.verify_external(str(where), folder=index) == 1
