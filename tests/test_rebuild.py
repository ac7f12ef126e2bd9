"""certificates/rebuild/index.json (certify/rebuild.py): every committed file has its record; a sample of
records is followed literally, in a scratch folder, and gives the committed bytes (the stored name
and compression included); their check commands accept the committed files. `make rebuild-check`
runs every record."""

from __future__ import annotations

import shlex
import subprocess
import sys

import orjson
import pytest

from certify import rebuild

from conftest import CERTS

RECORDS = {r["file"]: r for r in rebuild.records()}
#: One plain and one gzipped file of each builder, each rebuilt in seconds.
SAMPLE = ["atlas/worst-case-3x7.json.gz", "atlas/total-3x8.json.gz", "atlas/optimal-total-3x8.json",
          "knuth-3x3.json", "knuth-4x8.json.gz", "black-peg/worst-case-2x3-black.json",
          "value/value-2x3-codemaker.json", "value/value-3x7-codebreaker.json.gz"]


def test_the_manifest_is_up_to_date_and_lists_every_committed_file():
    assert orjson.loads((CERTS / rebuild.MANIFEST).read_bytes()) == rebuild.build()
    committed = {p.relative_to(CERTS).as_posix() for p in CERTS.rglob("*.json*") if p.is_file()}
    manifests = {"index.json", "bounds/index.json", "atlas/index.json", "atlas/table.json",
                 "external/index.json", rebuild.MANIFEST}
    assert committed - manifests == set(RECORDS)
    for r in RECORDS.values():
        assert r["check"] and (r["rebuild"] or r["how"])
        if r["rebuild"] and not r["file"].startswith("value/"):  # written under its stored name (a part: in
            assert rebuild._written(r).parts[0] in shlex.split(r["rebuild"]), r  # its folder's)


@pytest.mark.parametrize("name", SAMPLE)
def test_a_record_followed_literally_gives_the_committed_bytes(name, tmp_path):
    assert rebuild.run(RECORDS[name], tmp_path, f"{sys.executable} -m certify") is None


@pytest.mark.parametrize("name", SAMPLE[:4])
def test_a_records_check_command_accepts_the_committed_file(name):
    r = RECORDS[name]
    words = shlex.split(r["check"])
    done = subprocess.run([sys.executable, "-m", "certify", *words[1:]], cwd=CERTS / r["cwd"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_changed_file_is_caught(tmp_path):
    root = tmp_path / "certificates"
    (root / "atlas").mkdir(parents=True)
    (root / "atlas" / "worst-case-3x7.json.gz").write_bytes(b"not these bytes")
    why = rebuild.run(RECORDS["atlas/worst-case-3x7.json.gz"], tmp_path / "scratch", f"{sys.executable} -m certify", root)
    assert why == "other bytes"


def test_a_split_proof_the_search_wrote_is_rebuilt_part_by_part(tmp_path):
    """A proof written in parts by the search (--proof-parts: 10x2's worst case in the atlas) has
    one record per file, each the search's command, compared file by file in its folder."""
    records = [r for r in RECORDS.values() if r["file"].startswith("atlas/worst-case-10x2/")]
    assert len(records) > 30 and len({r["rebuild"] for r in records}) == 1
    assert "--proof-parts" in records[0]["rebuild"] and "-o worst-case-10x2 " in records[0]["rebuild"]
    command = "certify bound --pegs 4 --colors 5 --worst --proof-parts 5 -o w45 -q"
    first = subprocess.run([sys.executable, "-m", "certify", *shlex.split(command)[1:]], cwd=tmp_path,
                           capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    root = tmp_path / "certificates"
    (root / "atlas").mkdir(parents=True)
    (tmp_path / "w45").rename(root / "atlas" / "w45")
    for name in ("main.json.gz", "part-0004.json.gz"):
        record = {"file": f"atlas/w45/{name}", "cwd": "atlas", "rebuild": command}
        assert rebuild.run(record, tmp_path / name, f"{sys.executable} -m certify", root) is None
    (root / "atlas" / "w45" / "part-0004.json.gz").write_bytes(b"other")
    assert rebuild.run(record, tmp_path / "again", f"{sys.executable} -m certify", root) == "other bytes"
