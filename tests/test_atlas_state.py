"""Issue 46's rows on the atlas, the catalogues and `stats`: a table, a manifest or an external
entry is state, never a result. Each forged or hostile state of the issue's table is replayed here
through the path that reads it (certify/atlas.py, `certify atlas`, certify.why for `stats`)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from pathlib import Path

import orjson
import pytest

from certify import atlas
from certify.why import committed_worst_case

from conftest import CERTS, atlas_table, run_cli, run_cli_once


def _root(tmp_path: Path, strategies=(), proofs=(), values=()) -> Path:
    """A repository-like folder: certificates/ with copies of the named committed files, listed."""
    root = tmp_path / "repo" / "certificates"
    (root / "bounds").mkdir(parents=True)
    (root / "value").mkdir()
    (root / "atlas").mkdir()

    def entry(src: Path, dest: Path) -> dict:
        shutil.copyfile(src, dest)
        return {"file": dest.name, "sha256": hashlib.sha256(dest.read_bytes()).hexdigest()}

    listed = [entry(CERTS / name, root / name) for name in strategies]
    (root / "index.json").write_bytes(orjson.dumps({"certificates": listed}))
    listed = [entry(CERTS / "bounds" / name, root / "bounds" / name) for name in proofs]
    (root / "bounds" / "index.json").write_bytes(orjson.dumps({"proofs": listed}))
    for src, name in values:
        shutil.copyfile(src, root / "value" / name)
    return root


def _3x3(tmp_path):
    return _root(tmp_path, strategies=["optimal-total-3x3.json"], proofs=["worst-case-3x3.json", "total-3x3.json"])


def _cached(tmp_path, root):
    table = atlas.build_table(root, store=tmp_path / "store")
    path = root / "atlas" / "table.json"
    path.write_bytes(orjson.dumps(table))
    return path, table


def _row(table, g):
    return next(r for r in table["games"] if atlas.slug(r["game"]) == g)


def test_the_cache_verified_against_its_files_shows_what_they_give(tmp_path):
    root = _3x3(tmp_path)
    path, table = _cached(tmp_path, root)
    got = atlas.load_table(path, root, store=tmp_path / "store")
    assert got["problems"] == [] and got["games"] == table["games"]
    assert _row(got, "3x3")["worst"]["settled"]


@pytest.mark.parametrize("forge", ["worst", "total", "settle_open"])
def test_a_forged_table_is_a_problem_and_never_shown(tmp_path, forge):
    """Row: table.json edited (4x6 worst case 6, total 5000; an open 6x9 cell marked settled), the
    files untouched: `certify atlas` exit 0 showed the edited figures."""
    root = _3x3(tmp_path)
    path, table = _cached(tmp_path, root)
    doc = orjson.loads(path.read_bytes())
    if forge == "worst":
        _row(doc, "3x3")["worst"]["lower"]["figure"] = 6
    elif forge == "total":
        _row(doc, "3x3")["total"]["upper"]["figure"] = 5000
    else:
        cell = _row(doc, "6x9")["worst"]
        cell.update(settled=True, lower={"figure": 9, "file": "bounds/total-3x3.json", "sha256": "0" * 64},
                    upper={"figure": 9, "file": "bounds/total-3x3.json", "sha256": "0" * 64})
    path.write_bytes(orjson.dumps(doc))
    got = atlas.load_table(path, root, store=tmp_path / "store")
    game = "6x9" if forge == "settle_open" else "3x3"
    assert any(p.startswith(f"table.json: {game} ") for p in got["problems"]), got["problems"]
    # what is shown is what the files give
    assert _row(got, "3x3")["worst"]["lower"]["figure"] == 4 and _row(got, "3x3")["total"]["upper"]["figure"] == 73
    assert not _row(got, "6x9")["worst"]["settled"]


def test_a_forged_record_of_a_file_is_a_problem(tmp_path):
    root = _3x3(tmp_path)
    path, _ = _cached(tmp_path, root)
    doc = orjson.loads(path.read_bytes())
    record = doc["files"]["bounds/worst-case-3x3.json"]
    record["facts"][0][3] = 6
    _row(doc, "3x3")["worst"]["lower"]["figure"] = 6  # the cells agree with the forged record
    path.write_bytes(orjson.dumps(doc))
    got = atlas.load_table(path, root, store=tmp_path / "store")
    assert "bounds/worst-case-3x3.json: the table's figures for it are not what the file says" in got["problems"]
    assert _row(got, "3x3")["worst"]["lower"] is None


def test_the_committed_table_matches_its_files_through_the_cli():
    done = run_cli_once("atlas")
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr
    assert "problem:" not in done.stdout


def _external(root: Path, certificates=(), proofs=()):
    (root / "external").mkdir(exist_ok=True)
    (root / "external" / "index.json").write_bytes(orjson.dumps(
        {"format": "certify-external-index", "version": 1, "certificates": list(certificates), "proofs": list(proofs)}))


FORGED = [{"file": "worst-case-6x9.json.gz", "game": {"pegs": 6, "colors": 9, "repetition": True},
           "claims": {"worst_case": 9}, "sha256": "0" * 64, "command": "x"},
          {"file": "worst-case-4x8.json.gz", "game": {"pegs": 4, "colors": 8, "repetition": True},
           "claims": {"worst_case": 7}, "sha256": "0" * 64, "command": "x"}]


def test_an_external_entry_with_no_file_never_settles_a_cell_and_says_so_everywhere(tmp_path):
    """Row: external/index.json given forged entries (6x9 worst case 9, sha256 of zeros; 4x8 worst
    case 7) and no file: `atlas --check` showed 6x9 settled at 9 and 4x8 as `7 .. 6`."""
    root = _root(tmp_path, strategies=["knuth-4x8.json.gz"])
    _external(root, proofs=FORGED)
    table = atlas.build_table(root, store=tmp_path / "store")
    assert _row(table, "6x9")["worst"]["lower"] is None and not _row(table, "6x9")["worst"]["settled"]
    assert _row(table, "4x8")["worst"]["lower"] is None and _row(table, "4x8")["worst"]["upper"]["figure"] == 6
    assert [u[0] for u in table["unchecked"]] == ["6x9", "4x8"]
    text = atlas.text(table)
    assert "external, unchecked: 6x9 worst: a proof of at least 9 (external worst-case-6x9.json.gz" in text
    assert "external, unchecked: 6x9" in atlas.markdown(table)
    assert "6x9" in atlas.detail(table, "6x9", root) and "unchecked" in atlas.detail(table, "6x9", root)


def test_an_external_file_present_in_the_store_is_checked_and_marked_external(tmp_path):
    root = _root(tmp_path)
    store = tmp_path / "store"
    store.mkdir()
    shutil.copyfile(CERTS / "bounds" / "worst-case-3x3.json", store / "worst-case-3x3.json")
    good = {"file": "worst-case-3x3.json", "game": {"pegs": 3, "colors": 3, "repetition": True},
            "claims": {"worst_case": 4}, "sha256": hashlib.sha256((store / "worst-case-3x3.json").read_bytes()).hexdigest()}
    _external(root, proofs=[good])
    table = atlas.build_table(root, store=store)
    cell = _row(table, "3x3")["worst"]
    assert cell["lower"]["figure"] == 4 and cell["lower"]["external"] and cell["mark"]["external"]
    assert "[ext" in atlas.text(table) and "*external*" in atlas.markdown(table)
    (store / "worst-case-3x3.json").write_bytes(b"{}")  # a changed external file: a problem, no figure
    table = atlas.build_table(root, store=store)
    assert any(p.startswith("worst-case-3x3.json: its bytes are not those") for p in table["problems"])
    assert _row(table, "3x3")["worst"]["lower"] is None


def test_black_only_files_are_filed_under_their_rule(tmp_path):
    """Row: two valid black-only proofs placed in certificates/value/: `atlas --check` filed them
    under the black-and-white game (2x4 shown as `5 .. 4` and `56 .. 45`)."""
    bp = CERTS / "black-peg"
    root = _root(tmp_path, strategies=["optimal-total-2x4.json"],
                 values=[(bp / "worst-case-2x4-black.json", "value-2x4-a.json"),
                         (bp / "total-2x4-black.json", "value-2x4-b.json")])
    table = atlas.build_table(root, store=tmp_path / "store")
    assert table["problems"] == []
    plain, black = _row(table, "2x4"), _row(table, "2x4-black")
    assert plain["worst"]["lower"] is None and plain["total"]["lower"] is None
    assert black["game"]["feedback"] == "black-only" and black["worst"]["lower"]["figure"] == 5
    assert "2x4 black" in atlas.text(table)


def test_catalog_add_external_keeps_the_rule(tmp_path):
    from certify import catalog

    root = tmp_path / "certificates"
    (root / "external").mkdir(parents=True)
    assert catalog.add_external(str(CERTS / "black-peg" / "worst-case-2x4-black.json"), "certify bound ...", folder=root) == 0
    entry = orjson.loads((root / "external" / "index.json").read_bytes())["proofs"][0]
    assert entry["game"].get("feedback") == "black-only"
    assert atlas._external_facts(entry["file"], entry)[0][0] == "2x4-black"


def test_add_takes_the_report_of_the_bytes_just_checked_and_checks_nothing_twice(tmp_path, monkeypatch):
    """adopt checks a file and hands atlas.add its bytes and report: add takes them when their
    sha256 is the manifest's (no second check: 4x8's proof took 82 s each time), and refuses bytes
    the manifest does not list."""
    from certify.kinds import check_bytes
    from certify.search import atlas as builder

    root = _3x3(tmp_path)
    path, _ = _cached(tmp_path, root)
    name = "worst-case-2x2-norep.json"
    raw = (CERTS / "atlas" / name).read_bytes()
    (tmp_path / name).write_bytes(raw)
    builder.adopt(str(tmp_path / name), f"certify bound --pegs 2 --colors 2 --no-repetition --worst -o {name}",
                  folder=root / "atlas", table=False)
    kind, report = check_bytes(raw, name)
    monkeypatch.setattr(atlas, "_check_one", lambda *a, **k: pytest.fail("checked a second time"))
    table = atlas.add([f"atlas/{name}"], root, path, doc=tmp_path / "none.md",
                      checked={f"atlas/{name}": (raw, kind, report)})
    assert _row(table, "2x2-norep")["worst"]["lower"]["figure"] == 2
    with pytest.raises(ValueError, match="not those its manifest lists"):
        atlas.add([f"atlas/{name}"], root, path, doc=tmp_path / "none.md",
                  checked={f"atlas/{name}": (raw + b" ", kind, report)})


def test_an_adopted_external_file_leaves_the_external_index_and_the_unchecked_list(tmp_path, monkeypatch):
    """A file listed as external (too big to commit, no file here: "external, unchecked") that is
    then committed (adopt calls catalog.drop_external) is no longer listed as unchecked once the
    table is written again by atlas.add, which reads the external index as it is now."""
    from certify import catalog

    monkeypatch.setattr(atlas, "EXTERNAL_STORE", tmp_path / "store")
    root = _3x3(tmp_path)
    (root / "external").mkdir()
    assert catalog.add_external(str(CERTS / "atlas" / "worst-case-2x2-norep.json"), "certify bound ...", folder=root) == 0
    path, table = _cached(tmp_path, root)
    assert [u[:4] for u in table["unchecked"]] == [["2x2-norep", "worst", "lower", 2]]
    assert "external, unchecked: 2x2-norep worst" in atlas.text(table)
    assert catalog.drop_external("worst-case-2x2-norep.json", folder=root) is True
    assert catalog.drop_external("worst-case-2x2-norep.json", folder=root) is False
    table = atlas.add([], root, path, doc=tmp_path / "none.md")
    assert table["unchecked"] == [] and "external, unchecked" not in atlas.text(table)
    assert orjson.loads((root / "external" / "index.json").read_bytes())["proofs"] == []


@pytest.mark.parametrize("hostile", ["manifest-dev-zero", "symlink-dev-zero", "fifo", "symlink-out"])
def test_no_device_fifo_or_outside_symlink_is_read(tmp_path, hostile):
    """Row: a cell's file, a manifest entry or a committed symlink naming /dev/zero; a FIFO in
    certificates/value/: `certify atlas`, `atlas --check` and `stats` read it whole or hung."""
    root = _3x3(tmp_path)
    if hostile == "manifest-dev-zero":
        doc = orjson.loads((root / "index.json").read_bytes())
        doc["certificates"].append({"file": "/dev/zero"})
        (root / "index.json").write_bytes(orjson.dumps(doc))
    elif hostile == "symlink-dev-zero":
        os.symlink("/dev/zero", root / "value" / "value-3x3-codemaker.json")
    elif hostile == "fifo":
        os.mkfifo(root / "value" / "value-3x3-codemaker.json")
    else:
        outside = tmp_path / "outside.json"
        shutil.copyfile(CERTS / "value" / "value-3x3-codemaker.json", outside)
        os.symlink(outside, root / "value" / "value-3x3-codemaker.json")
    start = time.monotonic()
    table = atlas.build_table(root, store=tmp_path / "store")
    assert time.monotonic() - start < 60
    assert len(table["problems"]) == 1, table["problems"]
    assert _row(table, "3x3")["worst"]["settled"]  # the other files still count
    assert _row(table, "3x3")["value"]["lower"] is None


def test_a_manifest_never_raises_a_limit(tmp_path):
    """Row: a 160-byte 6x6 proof listed in a manifest: `atlas --check` checked every listed file
    with the highest code limit (2.2 GB). Now the user's limit (default 10,000 codes) holds."""
    root = _3x3(tmp_path)
    proof = {"format": "mastermind-lower-bound-certificate", "version": 1,
             "game": {"pegs": 6, "colors": 6, "repetition": True}, "claims": {"worst_case": 2}, "nodes": []}
    (root / "bounds" / "worst-case-6x6.json").write_bytes(orjson.dumps(proof))
    doc = orjson.loads((root / "bounds" / "index.json").read_bytes())
    doc["proofs"].append({"file": "worst-case-6x6.json"})
    (root / "bounds" / "index.json").write_bytes(orjson.dumps(doc))
    start = time.process_time()
    table = atlas.build_table(root, store=tmp_path / "store")
    assert time.process_time() - start < 30
    said = table["problems"] + table["unusable"]
    assert len(said) == 1 and "--max-codes" in said[0]
    assert _row(table, "6x6")["worst"]["lower"] is None


def test_stats_never_takes_a_manifest_claim_for_a_proof(tmp_path):
    """Row: a bounds/index.json entry whose file is {}: `certify stats` printed ">= 9" for 2x3."""
    folder = tmp_path / "certificates" / "bounds"
    folder.mkdir(parents=True)
    (folder / "worst-case-2x2-norep.json").write_bytes(b"{}")
    entry = {"file": "worst-case-2x2-norep.json", "game": {"pegs": 2, "colors": 3, "repetition": True},
             "claims": {"worst_case": 9}, "sha256": hashlib.sha256(b"{}").hexdigest()}
    (folder / "index.json").write_text(json.dumps({"proofs": [entry]}))
    assert committed_worst_case({"pegs": 2, "colors": 3, "repetition": True}, folder) is None


def test_stats_finds_the_atlas_proofs_and_counts_under_the_files_rule():
    done = run_cli("stats", str(CERTS / "atlas" / "optimal-worst-case-5x7.json.gz"))
    assert done.returncode == 0, done.stderr
    assert "proof certificate certificates/atlas/worst-case-5x7.json.gz" in done.stdout
    assert "none on file" not in done.stdout
    done = run_cli("stats", str(CERTS / "black-peg" / "optimal-worst-case-2x4-black.json"))
    assert "certificates/black-peg/worst-case-2x4-black.json" in done.stdout and ">= 5" in done.stdout
    # counting under black-only: 3 answers for 2 pegs, 1 + 3 + 9 >= 16 codes needs q0 = 3
    assert "(Viaud 1987, VI: q0 = 3): >= 4" in done.stdout


def test_certify_atlas_game_names_files_commands_and_the_published_figure(atlas_here):
    done = atlas_here("4x6")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("4x6: 1,296 codes")
    assert "worst case: 5 [pub]" in out and "published: 5 (Knuth 1977; agrees)" in out
    assert "sha256 " in out and "rebuild: (in certificates" in out and "check:   (in certificates" in out
    done = atlas_here("5x7")
    assert "worst case: 6 [new]" in done.stdout and "--max-codes 16807" in done.stdout
    assert run_cli("atlas", "5y7").returncode == 2


def test_every_output_marks_cells(atlas_here):
    doc = orjson.loads(atlas_here("--json").stdout)
    row = next(r for r in doc["games"] if atlas.slug(r["game"]) == "4x6")
    assert row["worst"]["mark"]["published"]["source"] == "Knuth 1977"
    assert "*published 5: Knuth 1977*" in atlas_here("--markdown").stdout
    assert "[new]" in run_cli_once("atlas").stdout


def test_adding_a_cell_from_a_checked_file(tmp_path):
    """python -m certify.search.atlas adopt: the file checked, listed with its rebuild command,
    and put into the table without checking the others again."""
    from certify.search import atlas as builder

    root = _3x3(tmp_path)
    path, _ = _cached(tmp_path, root)
    src = tmp_path / "worst-case-2x2-norep.json"
    shutil.copyfile(CERTS / "atlas" / "worst-case-2x2-norep.json", src)
    with pytest.raises(ValueError, match="must write"):
        builder.adopt(str(src), "certify bound --pegs 2 --colors 2 --no-repetition --worst -o other.json", folder=root / "atlas")
    rebuild = "certify bound --pegs 2 --colors 2 --no-repetition --worst -o worst-case-2x2-norep.json"
    with pytest.raises(ValueError, match="check command must be"):
        builder.adopt(str(src), rebuild, folder=root / "atlas", table=False, check="rm worst-case-2x2-norep.json")
    # the check command the search printed is recorded, and the rebuild manifest gives it
    check = "certify verify worst-case-2x2-norep.json --max-work 12345"
    entry = builder.adopt(str(src), rebuild, folder=root / "atlas", table=False, check=check)
    assert entry["file"] == "worst-case-2x2-norep.json" and entry["check"] == check
    from certify import rebuild as manifest

    record = next(r for r in manifest._atlas(root) if r["file"] == "atlas/worst-case-2x2-norep.json")
    assert record["check"] == check and record["rebuild"] == rebuild + " -q"
    table = atlas.add(["atlas/worst-case-2x2-norep.json"], root, path, doc=tmp_path / "none.md")
    assert _row(table, "2x2-norep")["worst"]["lower"]["figure"] == 2
    assert atlas.load_table(path, root, store=tmp_path / "store")["problems"] == []


def test_the_docs_table_and_glance_are_the_tables():
    """docs/atlas.md's table and its "At a glance" rows are written from the table (make atlas):
    they must be what the table gives now."""
    table = atlas_table()
    page = atlas.DOC.read_text(encoding="utf-8")
    assert atlas.markdown(table) in page
    assert atlas.glance(table) in page
    # the prose's settled worst cases agree with the table
    rows = {atlas.slug(r["game"]): r for r in table["games"]}
    assert rows["6x4"]["worst"]["settled"] and rows["6x4"]["worst"]["upper"]["figure"] == 5
    assert "no strategy at 5" not in page
    six_seven = rows["6x7-norep"]["worst"]  # settled at 7 by the search's own strategy (adopted)
    assert six_seven["settled"] and six_seven["upper"]["figure"] == 7 and "`7 .. 8` in" not in page
    assert "111234" in page and "111223" in page  # both Knuth tie-breakings named for 6x6


@pytest.mark.parametrize("forge", ["codemaker", "codebreaker"])
def test_a_value_files_record_forged_with_its_cell_is_a_problem(tmp_path, forge):
    """A game value's figure is the checker's (weights summed over the orbits; a mixed strategy's
    claim): a table whose record of a value file and the cell agree on a forged figure, the file
    untouched, was shown with exit 0. The cheap path now derives it from the file's header."""
    value = CERTS / "value"
    root = _root(tmp_path, values=[(value / "value-3x3-codemaker.json", "value-3x3-codemaker.json"),
                                   (value / "value-3x3-codebreaker.json", "value-3x3-codebreaker.json")])
    path, _ = _cached(tmp_path, root)
    assert atlas.load_table(path, root, store=tmp_path / "store")["problems"] == []  # the true table
    doc = orjson.loads(path.read_bytes())
    side, figure = ("lower", "5/2") if forge == "codemaker" else ("upper", "8/3")
    fact = doc["files"][f"value/value-3x3-{forge}.json"]["facts"][0]
    assert fact[2] == side and fact[3] == "73/27"
    fact[3] = figure
    cell = _row(doc, "3x3")["value"]
    cell[side]["figure"], cell["settled"] = figure, False
    path.write_bytes(orjson.dumps(doc))
    got = atlas.load_table(path, root, store=tmp_path / "store")
    assert f"value/value-3x3-{forge}.json: the table's figures for it are not what the file says" in got["problems"]
    assert _row(got, "3x3")["value"][side] is None  # never the forged figure


def test_externalise_keeps_what_was_adopted(tmp_path, monkeypatch):
    """`make atlas` moves the files it built past MAX_COMMIT_BYTES to the external store, never a
    file committed by choice (`adopt`: 4x9's 2.0 MB worst-case proof settles its cell)."""
    from certify import catalog
    from certify.search import atlas as builder

    monkeypatch.setattr(catalog, "add_external", lambda *a, **k: 0)  # (the real one writes the repo's index)
    folder = tmp_path / "atlas"
    folder.mkdir()
    big = builder.MAX_COMMIT_BYTES + 1
    files = [{"file": name, "kind": "proof", "bytes": big, "command": f"certify bound -o {name}", **extra}
             for name, extra in (("built.json", {}), ("adopted.json", {"adopted": True}))]
    for e in files:
        (folder / e["file"]).write_bytes(b"{}")
    (folder / builder.MANIFEST).write_bytes(orjson.dumps({"files": files, "unfinished": []}))
    builder.externalise(folder, tmp_path / "store", say=lambda line: None)
    assert sorted(p.name for p in (tmp_path / "store").iterdir()) == ["built.json"]
    assert (folder / "adopted.json").exists()
    assert [e["file"] for e in builder.load_manifest(folder)["files"]] == ["adopted.json"]
