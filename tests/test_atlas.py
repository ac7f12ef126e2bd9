"""The atlas (certify/atlas.py, certify/search/atlas.py, `certify atlas`): every figure comes from a
file a trusted checker accepted; the committed table matches its files; the builder resumes."""

from __future__ import annotations

import hashlib
import shlex
import shutil
from fractions import Fraction
from pathlib import Path

import orjson
import pytest

from certify import atlas
from certify.optimality import check_bytes
from certify.search import atlas as builder

from conftest import CERTS, run_cli, run_cli_once

TABLE = orjson.loads(atlas.TABLE.read_bytes())
ROWS = {atlas.slug(row["game"]): row for row in TABLE["games"]}


def _root(tmp_path: Path, strategies=(), proofs=(), values=()) -> Path:
    """A certificates/ folder holding copies of the named committed files and their manifests."""
    root = tmp_path / "certificates"
    (root / "bounds").mkdir(parents=True)
    (root / "value").mkdir()

    def entry(src: Path, dest: Path) -> dict:
        shutil.copyfile(src, dest)
        return {"file": dest.name, "sha256": hashlib.sha256(dest.read_bytes()).hexdigest()}

    listed = [entry(CERTS / name, root / name) for name in strategies]
    (root / "index.json").write_bytes(orjson.dumps({"certificates": listed}))
    listed = [entry(_committed_proof(name), root / "bounds" / name) for name in proofs]
    (root / "bounds" / "index.json").write_bytes(orjson.dumps({"proofs": listed}))
    for name in values:
        shutil.copyfile(CERTS / "value" / name, root / "value" / name)
    return root


def _committed_proof(name: str) -> Path:
    for folder in ("bounds", "atlas"):
        if (CERTS / folder / name).exists():
            return CERTS / folder / name
    raise FileNotFoundError(name)


def _row(table: dict, game: str) -> dict:
    return next(row for row in table["games"] if atlas.slug(row["game"]) == game)


def test_a_game_with_its_proofs_strategies_and_value_is_settled_in_every_column(tmp_path):
    root = _root(tmp_path, strategies=["optimal-total-3x3.json", "optimal-total-3x3-max4-count-first.json"],
                 proofs=["worst-case-3x3.json", "total-3x3.json", "total-3x3-max4-count-first.json"],
                 values=["value-3x3-codemaker.json", "value-3x3-codebreaker.json"])
    table = atlas.build_table(root)
    assert table["problems"] == []
    row = _row(table, "3x3")
    assert all(row[c]["settled"] for c in atlas.COLUMNS)
    assert row["worst"]["lower"]["figure"] == 4 and row["worst"]["lower"]["file"] == "bounds/worst-case-3x3.json"
    assert row["total"]["upper"]["figure"] == 73
    assert row["total_within_worst"]["max_guesses"] == 4
    assert row["count_first"]["upper"]["figure"] == [1, 73]
    assert Fraction(row["value"]["upper"]["figure"]) == Fraction(73, 27)
    text = atlas.text(table)
    line = next(line for line in text.splitlines() if line.startswith("3x3 "))
    assert line.split() == ["3x3", "27", "4", "[new]", "73", "[pub]", "73", "(D=4)", "[new]", "1,", "73", "[new]",
                            "73/27", "[new]"]


def test_a_cell_without_its_proof_shows_the_interval_never_a_blank(tmp_path):
    root = _root(tmp_path, strategies=["knuth-3x3.json"], proofs=["total-3x3.json"])
    row = _row(atlas.build_table(root), "3x3")
    assert not row["worst"]["settled"] and row["worst"]["lower"] is None and row["worst"]["upper"]["figure"] == 4
    assert atlas.figure_text("worst", row["worst"]) == "? .. 4"
    assert atlas.figure_text("total", row["total"]) == "73 .. 74"  # the proof's 73, Knuth's 74
    # the questions within D wait for D
    assert atlas.figure_text("count_first", row["count_first"]) == "needs D"
    empty = _row(atlas.build_table(root), "6x10")
    assert atlas.figure_text("worst", empty["worst"]) == "? .. ?"


def test_a_proof_within_more_guesses_bounds_the_total_within_fewer_never_the_other_way(tmp_path):
    # 2x5: the least total 81 is reached within 4 = D; a proof "within 4" is no bound "within 3"
    root = _root(tmp_path, strategies=["optimal-total-2x5-max4.json"],
                 proofs=["worst-case-2x5.json", "total-2x5-max4.json"])
    row = _row(atlas.build_table(root), "2x5")
    assert row["worst"]["settled"] and row["worst"]["upper"]["figure"] == 4
    assert row["total_within_worst"]["settled"] and row["total_within_worst"]["lower"]["figure"] == 81
    assert row["total"]["lower"] is None  # "within 4" says nothing of the least total without a limit


def test_a_changed_or_refused_file_is_a_problem_and_never_a_figure(tmp_path):
    root = _root(tmp_path, strategies=["optimal-total-3x3.json"], proofs=["worst-case-3x3.json", "total-3x3.json"])
    (root / "optimal-total-3x3.json").write_bytes((root / "optimal-total-3x3.json").read_bytes() + b" ")
    proof = root / "bounds" / "worst-case-3x3.json"
    doc = orjson.loads(proof.read_bytes())
    doc["claims"]["worst_case"] = 5  # false: a strategy needs only 4
    proof.write_bytes(orjson.dumps(doc))
    listed = orjson.loads((root / "bounds" / "index.json").read_bytes())
    listed["proofs"][0]["sha256"] = hashlib.sha256(proof.read_bytes()).hexdigest()  # listed as it is
    (root / "bounds" / "index.json").write_bytes(orjson.dumps(listed))
    table = atlas.build_table(root)
    assert any(p.startswith("optimal-total-3x3.json: its bytes are not those") for p in table["problems"])
    assert any(p.startswith("bounds/worst-case-3x3.json: ") for p in table["problems"])
    row = _row(table, "3x3")
    assert row["worst"]["lower"] is None and row["worst"]["upper"] is None
    assert row["total"]["lower"]["figure"] == 73


def _named() -> dict:
    """file -> the cells that name it (local files only)."""
    named: dict = {}
    for row in TABLE["games"]:
        for column in atlas.COLUMNS:
            for side in ("lower", "upper"):
                found = row[column].get(side)
                if found and not found.get("external"):
                    named.setdefault(found["file"], []).append((atlas.slug(row["game"]), column, side, found))
    return named


NAMED = _named()
CHUNKS = 4  # the files in four tests, so that the suite's workers share them (~50 s of checking)


def test_the_table_names_enough_files():
    assert len(NAMED) > 150


def _left_to_make_verify(name: str, raw: bytes, codes: int) -> bool:
    """The files whose check costs more than a few seconds: over 200 KB (5x6's worst case, 5x5's
    total, 3x10's, 4x9 and 6x6 without repetition: 7-20 s each), games of 10,000 codes and more, and
    the codemaker's side of game values (the mixed checker) from 1,000 codes (4x6's: 10 s). The
    other ~350 files take ~50 s of CPU here; these ~50 took ~120 s more, and `make verify` and
    `make atlas` check them."""
    return len(raw) > 200_000 or codes >= 10_000 or ("codemaker" in name and codes >= 1_000)


def _checked_whole_elsewhere() -> set[str]:
    """The files another test file checks whole with the trusted checkers, from the same bytes:
    every lower-bound proof of certificates/bounds/ but the three left to `make verify`
    (tests/test_verify_bound_committed.py: accepted, with its manifest's claims) and both sides of
    every game value of certificates/value/ (tests/test_value.py: both accepted, the value proven;
    its SLOW_PAIRS, 8-30 s each, are left to `make atlas`, and their headers compared there).
    Here their cells are compared with the claims their own headers state (what that checker
    accepted), not checked a second time (~13 s of CPU)."""
    import test_value
    import test_verify_bound_committed as committed

    out = {f"bounds/{p.name}" for p in committed.CHECKED}
    for breaker in test_value.PAIRS:
        out |= {f"value/{breaker.name}", f"value/{breaker.name.replace('codebreaker', 'codemaker')}"}
    return out


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_the_committed_table_is_what_the_checkers_say_of_its_files(chunk):
    """Every local file the committed table names is re-read (its sha256) and, unless it is one of
    the few slow ones (_left_to_make_verify), re-checked: the figure in each cell is what the checker
    reports now. A file another test file checks whole (_checked_whole_elsewhere) is compared with
    the claims of its own header, which that checker accepts."""
    elsewhere = _checked_whole_elsewhere()
    checked = compared = 0
    for i, (name, uses) in enumerate(sorted(NAMED.items())):
        if i % CHUNKS != chunk:
            continue
        raw = (CERTS / name).read_bytes()
        assert hashlib.sha256(raw).hexdigest() == uses[0][3]["sha256"], name
        if _left_to_make_verify(name, raw, ROWS[uses[0][0]]["codes"]) or uses[0][0].endswith("-black") \
                or TABLE["files"][name].get("parts"):  # (black-peg: `make verify`; a split proof: test_atlas_split)
            continue
        if name in elsewhere:
            facts = atlas._header_facts(raw, name, uses[0][3]["sha256"])
            assert facts, name
        else:
            kind, report = check_bytes(raw, name)
            assert report.valid, (name, report.error)
            facts = atlas._facts_of(kind, report, name, uses[0][3]["sha256"])
            checked += 1
        for game, column, side, found in uses:
            mine = {"total_within_worst": "within"}.get(column, column)
            figures = [atlas._jsonable(f[3]) for f in facts if f[0] == game and f[1] == mine and f[2] == side]
            assert found["figure"] in figures, (name, column, side)
        compared += 1
    assert compared > 300 // CHUNKS and checked > 150 // CHUNKS, (compared, checked)


def test_the_committed_table_is_complete_and_consistent():
    assert TABLE["problems"] == []
    assert [atlas.slug(r["game"]) for r in TABLE["games"]][:len(atlas.GRID)] == \
        [f"{p}x{c}" + ("" if r else "-norep") for p, c, r in atlas.GRID]
    for game, row in ROWS.items():
        for column in atlas.COLUMNS:
            cell = row[column]
            lo, hi = cell.get("lower"), cell.get("upper")
            if lo and hi and column != "value":
                assert lo["figure"] <= hi["figure"], (game, column)  # both checked: they cannot cross
            if lo and hi and column == "value":
                assert Fraction(lo["figure"]) <= Fraction(hi["figure"]), game
    # published figures (../shared/reference/strategies.md) in the cells
    assert ROWS["4x6"]["worst"]["upper"]["figure"] == 5 and ROWS["4x6"]["worst"]["settled"]
    assert ROWS["4x6"]["total"]["upper"]["figure"] == 5625 and ROWS["4x6"]["total"]["settled"]
    assert ROWS["4x6"]["total_within_worst"]["upper"]["figure"] == 5626
    assert ROWS["4x6"]["count_first"]["upper"]["figure"] == [539, 5627]
    assert ROWS["4x6"]["value"]["upper"]["figure"] == "560/129"
    assert ROWS["4x7"]["total"]["upper"]["figure"] == 11228
    assert ROWS["4x10-norep"]["total"]["upper"]["figure"] == 26274
    assert ROWS["4x10-norep"]["worst"]["upper"]["figure"] == 7
    # three pegs: Jäger and Peczarski (2009), for k >= 5 colours the worst case is floor((k-1)/3) + 4
    for k in range(5, 11):
        cell = ROWS[f"3x{k}"]["worst"]
        assert cell["settled"] and cell["upper"]["figure"] == (k - 1) // 3 + 4, k


def test_certify_atlas_prints_the_table_and_json(atlas_here):
    done = run_cli_once("atlas")
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if line.startswith("4x6 "))
    assert line.split()[:6] == ["4x6", "1,296", "5", "[pub]", "5625", "[pub]"]
    done = atlas_here("--json")  # (in this process, the table loaded once: conftest.atlas_here)
    assert done.returncode == 0
    doc = orjson.loads(done.stdout)
    assert list(doc)[:2] == ["atlas_version", "format"] and doc["games"] == TABLE["games"]


def test_a_table_whose_file_changed_is_reported(tmp_path):
    root = tmp_path / "certificates"
    shutil.copytree(CERTS / "bounds", root / "bounds")
    (root / "bounds" / "worst-case-4x6.json").write_bytes(b"{}")
    table = atlas.load_table(atlas.TABLE, root)
    assert any(p.startswith("bounds/worst-case-4x6.json: not the bytes that were checked") for p in table["problems"])


def test_the_builder_writes_each_missing_file_once_and_resumes(tmp_path):
    said = []
    first = builder.build({"2x4"}, tasks=("worst", "count-first"), folder=tmp_path, say=said.append)
    names = sorted(e["file"] for e in first["files"])
    # every strategy a search finds is kept (issue 45): the worst-case search's own strategy too
    assert names == ["optimal-total-2x4-max4-count-first.json", "optimal-worst-case-2x4.json",
                     "total-2x4-max4-count-first.json", "worst-case-2x4.json"]
    from certify import verify

    for e in first["files"]:
        assert hashlib.sha256((tmp_path / e["file"]).read_bytes()).hexdigest() == e["sha256"]
        if (CERTS / "atlas" / e["file"]).exists():  # the same bytes as the committed atlas's
            assert (tmp_path / e["file"]).read_bytes() == (CERTS / "atlas" / e["file"]).read_bytes()
        else:  # not committed (the atlas has a smaller strategy for 2x4): checked here
            report = verify.verify_file(str(tmp_path / e["file"]))
            assert report.valid and report.replayed["max_guesses"] == 4, report.line()
    stamp = {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()}
    said.clear()
    again = builder.build({"2x4"}, tasks=("worst", "count-first"), folder=tmp_path, say=said.append)
    assert said == [] and again["files"] == first["files"]
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir() if p.name != "index.json"} == \
        {k: v for k, v in stamp.items() if k != "index.json"}


def test_a_file_adopted_while_a_build_runs_stays_listed(tmp_path, monkeypatch):
    """A build holds the grid for an hour; an adopt that lists a file meanwhile must not be
    undone when the build saves its next task (2026-11-29: two adopted 5x5 proofs vanished from
    the manifest so). Every writer changes the manifest as it is on disk, under a lock."""
    real = builder._attempt
    adopted = []

    def attempt(*args):
        if not adopted:  # while the build's first search runs, someone adopts a file
            src = tmp_path / "elsewhere" / "worst-case-2x2-norep.json"
            src.parent.mkdir()
            shutil.copyfile(CERTS / "atlas" / src.name, src)
            adopted.append(builder.adopt(str(src), f"certify bound --pegs 2 --colors 2 --no-repetition --worst -o {src.name}",
                                         folder=tmp_path, table=False))
        return real(*args)

    monkeypatch.setattr(builder, "_attempt", attempt)
    got = builder.build({"2x4"}, tasks=("worst",), folder=tmp_path, say=lambda line: None)
    assert adopted and sorted(e["file"] for e in got["files"]) == \
        ["optimal-worst-case-2x4.json", "worst-case-2x2-norep.json", "worst-case-2x4.json"]
    assert not list(tmp_path.glob("*.tmp")) and (tmp_path / builder.LOCK).exists()


def test_a_search_past_its_budget_leaves_no_file_and_is_taken_up_by_a_larger_budget(tmp_path):
    said = []
    got = builder.build({"4x5-norep"}, tasks=("worst",), budget=0.0, folder=tmp_path, say=said.append)
    assert got["files"] == [] and got["unfinished"] == [{"game": "4x5-norep", "task": "worst", "budget": 0.0}]
    assert not list(tmp_path.glob("worst-case-*"))
    said.clear()
    builder.build({"4x5-norep"}, tasks=("worst",), budget=0.0, folder=tmp_path, say=said.append)
    assert said == []  # not tried again with the same budget
    got = builder.build({"4x5-norep"}, tasks=("worst",), budget=60, folder=tmp_path, say=said.append)
    assert sorted(e["file"] for e in got["files"]) == ["optimal-worst-case-4x5-norep.json", "worst-case-4x5-norep.json"]
    assert got["unfinished"] == []


@pytest.mark.parametrize("name", ["worst-case-2x6.json", "total-3x6.json", "total-3x5-max5-count-first.json"])
def test_the_recorded_command_rebuilds_the_same_bytes(name, tmp_path):
    entries = {e["file"]: e for e in orjson.loads((CERTS / "atlas" / "index.json").read_bytes())["files"]}
    command = shlex.split(entries[name]["command"])
    assert command[0] == "certify"
    done = run_cli(*command[1:], "-q", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    for written in tmp_path.iterdir():
        assert written.read_bytes() == (CERTS / "atlas" / written.name).read_bytes(), written.name


def test_a_search_that_ends_without_a_checked_file_is_one_line_with_its_reason(tmp_path, monkeypatch):
    """10x2's least total found its value but wrote a proof past the checker's 128 MiB: the search
    refused it (CertifyError), and the builder died with two tracebacks. Now: one line, the
    reason recorded, no file, the next games still built."""
    from certify.errors import CertifyError
    from certify.search import exact

    def too_big(game, *args, **kwargs):
        raise CertifyError("the proof the search wrote could not be checked (file larger than 134217728 bytes)")

    monkeypatch.setattr(exact, "total", too_big)  # (the search runs in a forked child: it sees this)
    said = []
    got = builder.build({"2x9", "2x10"}, tasks=("total",), budget=60, folder=tmp_path, say=said.append)
    assert got["files"] == [] and not list(tmp_path.glob("*total*"))
    reason = "the proof the search wrote could not be checked (file larger than 134217728 bytes)"
    assert got["unfinished"] == [{"game": g, "task": "total", "budget": 60, "reason": reason} for g in ("2x10", "2x9")]
    assert [line.split(" s CPU: ")[-1] for line in said if "nothing found" in line] == [reason, reason]
