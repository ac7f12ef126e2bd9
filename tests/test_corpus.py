"""The verifier against its corpus: every file in tests/data/valid/ is accepted, every file
in tests/data/invalid/ is rejected with the exit status and reason listed in expected.json.

In-process for every file, through the CLI (``python -m certify verify``) and the
standalone script (``python certify/verify.py``) in subprocesses for all of them at once
(--json) and for a sample one by one.
"""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from certify import verify

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
EXPECTED = json.loads((DATA / "expected.json").read_text())
VALID = sorted((DATA / "valid").iterdir())
INVALID = sorted((DATA / "invalid").iterdir())


def _ids(paths):
    return [p.name for p in paths]


def _run(path: Path):
    out, err = io.StringIO(), io.StringIO()
    status = verify.run([str(path)], out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def test_corpus_is_exactly_what_the_generator_makes():
    spec = importlib.util.spec_from_file_location("make_corpus", DATA / "make_corpus.py")
    make_corpus = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_corpus)
    wanted = make_corpus.render(*make_corpus.corpus())
    have = make_corpus.committed()
    assert sorted(wanted) == sorted(have), "run: python tests/data/make_corpus.py"
    stale = [k for k in wanted if wanted[k] != have[k]]
    assert not stale, f"stale corpus files {stale}: run python tests/data/make_corpus.py"


def test_every_invalid_file_has_an_expectation_and_the_corpus_is_broad():
    assert sorted(p.name for p in INVALID) == sorted(EXPECTED)
    assert len(VALID) >= 15 and len(INVALID) >= 150
    assert any(p.is_dir() for p in INVALID)


@pytest.mark.parametrize("path", VALID, ids=_ids(VALID))
def test_valid_file_is_accepted(path):
    status, out, err = _run(path)
    assert (status, err) == (0, "")
    assert out.count("\n") == 1 and out.startswith(f"{path}: valid: ")
    report = verify.verify_file(str(path))
    assert report.valid and report.replayed == report.claims
    # The machine-readable report can always be written, even for odd metadata.
    doc = json.loads(verify.reports_json([report]))
    assert doc["results"][0]["exit_code"] == 0


@pytest.mark.parametrize("path", INVALID, ids=_ids(INVALID))
def test_invalid_file_is_rejected_with_a_one_line_reason(path):
    want = EXPECTED[path.name]
    status, out, err = _run(path)
    kind = {1: "invalid", 2: "unusable"}[want["exit"]]
    assert status == want["exit"]
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(f"{path}: {kind}: "), err
    assert want["reason"] in err, err
    assert "Traceback" not in err
    doc = json.loads(verify.reports_json([verify.verify_file(str(path))]))
    assert doc["results"][0]["exit_code"] == want["exit"]
    assert doc["results"][0]["valid"] is False


def _subprocess(args):
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, timeout=120)


@pytest.mark.parametrize("command", [["-m", "certify", "verify"], ["certify/verify.py"]],
                         ids=["certify-verify", "standalone-verify.py"])
def test_whole_corpus_through_the_command_line(command):
    files = [str(p) for p in VALID + INVALID]
    proc = _subprocess([*command, "--json", *files])
    assert proc.returncode == 2  # the worst status: the directory cannot be read
    assert b"Traceback" not in proc.stderr
    results = json.loads(proc.stdout)["results"]
    got = {Path(r["file"]).name: r for r in results}
    assert len(got) == len(files)
    for p in VALID:
        assert got[p.name]["exit_code"] == 0, got[p.name]
    for p in INVALID:
        r = got[p.name]
        assert r["exit_code"] == EXPECTED[p.name]["exit"], r
        assert EXPECTED[p.name]["reason"] in r["error"], r


SAMPLE = ["binary-noise.bin", "nesting-50000-arrays.json", "gzip-corrupt-body.json.gz", "is-a-directory.json",
          "guess-changed-at-leaf.json", "tree-257-guesses-deep.json", "claims-histogram-entry-changed.json",
          "lone-surrogate-in-strategy-name.json"]


@pytest.mark.parametrize("name", SAMPLE)
def test_sample_one_by_one_through_certify_verify(name):
    proc = _subprocess(["-m", "certify", "verify", str(DATA / "invalid" / name)])
    err = proc.stderr.decode()
    assert proc.returncode == EXPECTED[name]["exit"]
    assert proc.stdout == b""
    assert err.count("\n") == 1 and EXPECTED[name]["reason"] in err
    assert "Traceback" not in err


def test_valid_sample_one_by_one_through_certify_verify():
    for path in (DATA / "valid" / "knuth-3x3.json.gz", DATA / "valid" / "tree-256-guesses-deep.json"):
        proc = _subprocess(["-m", "certify", "verify", str(path)])
        assert (proc.returncode, proc.stderr) == (0, b"")
        assert proc.stdout.decode().count("\n") == 1
