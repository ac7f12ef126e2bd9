"""A split lower-bound proof in the atlas (issue 45: 6x4's least total passes only split): the cell is
backed by a main file and its part files, checked with verify_bound's combine rule; a part changed,
missing or not the one recorded is a problem on both paths (checked now, and the cached table)."""

from __future__ import annotations

import hashlib

import orjson

from certify import atlas
from certify.search import atlas as builder

from conftest import CERTS, run_cli


def _adopted(tmp_path):
    """A repository-like certificates/ whose atlas has 3x4's least-total proof split into parts."""
    src = tmp_path / "total-3x4"
    done = run_cli("split-proof", CERTS / "bounds" / "total-3x4.json", "--depth", "1", "-o", src, "-q")
    assert done.returncode == 0, done.stderr
    root = tmp_path / "repo" / "certificates"
    (root / "atlas").mkdir(parents=True)
    entry = builder.adopt_split(str(src / "main.json"), str(src), "certify split-proof total-3x4.json --depth 1 -o total-3x4",
                                folder=root / "atlas", cpu_seconds=0.1, table=False)
    return root, entry


def _total(table):
    return next(r for r in table["games"] if atlas.slug(r["game"]) == "3x4")["total"]


def test_a_split_proof_backs_its_cell_and_the_cached_table_rereads_its_parts(tmp_path):
    root, entry = _adopted(tmp_path)
    assert entry["file"] == "total-3x4/main.json" and len(entry["parts"]) >= 2
    assert entry["check"] == "certify verify total-3x4/main.json --parts total-3x4 --jobs 2"
    table = atlas.build_table(root, store=tmp_path / "store")
    assert table["problems"] == []
    assert _total(table)["lower"]["figure"] == 206 and _total(table)["lower"]["file"] == "atlas/total-3x4/main.json"
    assert sorted(table["files"]["atlas/total-3x4/main.json"]["parts"]) == sorted(
        f"atlas/{p['file']}" for p in entry["parts"])
    path = root / "atlas" / "table.json"
    path.write_bytes(orjson.dumps(table))
    assert atlas.load_table(path, root, store=tmp_path / "store")["problems"] == []
    part = root / "atlas" / entry["parts"][1]["file"]
    part.write_bytes(part.read_bytes().replace(b'"nodes"', b'"nodes" '))  # the same proof, other bytes
    cached = atlas.load_table(path, root, store=tmp_path / "store")
    assert any("part atlas/total-3x4/part-" in p and "not the bytes that were checked" in p for p in cached["problems"])
    assert _total(cached)["lower"] is None


def test_a_part_edited_with_its_manifest_or_left_out_never_proves_the_claim(tmp_path):
    root, entry = _adopted(tmp_path)
    manifest = root / "atlas" / "index.json"
    doc = orjson.loads(manifest.read_bytes())
    part = root / "atlas" / entry["parts"][0]["file"]
    part.write_bytes(part.read_bytes().replace(b'"nodes"', b'"nodes" '))
    doc["files"][0]["parts"][0]["sha256"] = hashlib.sha256(part.read_bytes()).hexdigest()  # listed as it is
    manifest.write_bytes(orjson.dumps(doc))
    table = atlas.build_table(root, store=tmp_path / "store")
    assert any("no part among" in p for p in table["problems"]) and _total(table)["lower"] is None
    del doc["files"][0]["parts"][0]
    manifest.write_bytes(orjson.dumps(doc))
    table = atlas.build_table(root, store=tmp_path / "store")
    assert any("no part among" in p for p in table["problems"]) and _total(table)["lower"] is None
    doc["files"][0]["parts"] = "total-3x4"  # not a list of files with their sha256
    manifest.write_bytes(orjson.dumps(doc))
    table = atlas.build_table(root, store=tmp_path / "store")
    assert any("'parts' is not a list" in p for p in table["problems"]) and _total(table)["lower"] is None


def test_parts_checked_in_two_processes_give_the_one_process_verdicts(tmp_path):
    """adopt --parts and the table's `add` check the parts of a big split proof in one process a
    core (Bulls and Cows count-first: millions of nodes): the same verdicts as one at a time, a
    changed part refused by both."""
    src = tmp_path / "total-3x4"
    done = run_cli("split-proof", CERTS / "bounds" / "total-3x4.json", "--depth", "1", "-o", src, "-q")
    assert done.returncode == 0, done.stderr
    main = (src / "main.json").read_bytes()
    parts = {p.name: p.read_bytes() for p in sorted(src.glob("part-*.json"))}
    one, two = (atlas.split_verdict(main, "main.json", parts, jobs=j) for j in (1, 2))
    assert one.valid and two.valid and one.claims == two.claims == {"total": 206}
    assert one.parts == two.parts and len(one.parts) == len(parts)
    name = sorted(parts)[-1]
    parts[name] = parts[name].replace(b'"bound":', b'"bound": ', 1)  # other bytes: not the lemma named
    one, two = (atlas.split_verdict(main, "main.json", parts, jobs=j) for j in (1, 2))
    assert not one.valid and not two.valid and one.error == two.error
