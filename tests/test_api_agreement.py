"""The Python API and the CLI give the same verdicts (issue 38, item 2).

For the committed files under certificates/ (``git ls-files``), ``certify.load`` (the API's
checked value, or the InvalidCertificate it raises) and ``certify verify --json`` (run in this
process through ``certify.__main__.main``, a group of files per run) agree on every result: kind,
valid, status, game, claims, what was replayed, the figures, and the error (in the API's words).
Manifests: the CLI skips them, the API refuses them as manifests.

Checking every file twice costs about 10 minutes of CPU (`certify verify --json` alone over the
456 files committed then: 5 min 2 s of CPU, most of it in a few big files), so the test checks a
deterministic sample and says so: every file up to SMALL bytes, and of the larger ones those whose
path's SHA-256 starts in the first 1/EVERY of the range, up to BIG bytes. On 2026-11-27: 379 of 512
committed files (3.7 of 34.6 MB), every kind; 25 s of CPU for the checks on each side, about 55 s
for the whole file. By 2026-11-29 the same rule (SMALL 24,000, EVERY 6) took 545 of 746 files and
~59 s of CPU in the suite; with SMALL 16,000 and EVERY 12, 495 files (every kind, plain and
gzipped, from every folder), half the checking (~12 s on each side). On 2026-11-29 again (759
files), SMALL 4,000, EVERY 12 and BIG 60,000: ~345 files, ~7 s on each side where 497 took 16 s
(most of it a dozen files: 6x6's expected-size tree, Knuth's 5x8, the static proofs of 2x11 and
2x12); and every category of committed file, (folder, kind, gzipped or not), has at least one
file in the sample (a fixed-seed pick where the size rule took none). Every committed file is
checked whole elsewhere (tests/test_catalog.py, test_verify_bound_committed.py, test_static.py,
test_value.py, `make verify`); here the two front ends are compared. ``CERTIFY_AGREEMENT=all``
runs the same comparison on every committed file: on 2026-11-27 all 512 agreed (10 min 44 s of
CPU, 22 min on the shared machine).
"""

import hashlib
import json
import os
import random
import subprocess
from pathlib import Path

import pytest

import certify
from certify import api, kinds
from certify.__main__ import main

ROOT = Path(__file__).resolve().parent.parent
#: Every committed file up to this size is checked both ways.
SMALL = 4_000
#: Of the larger ones, 1 in EVERY (by the SHA-256 of the path) up to BIG bytes.
EVERY = 12
BIG = 60_000
GROUP = 40  # files per CLI run


def _committed() -> list[str]:
    out = subprocess.run(["git", "ls-files", "certificates"], cwd=ROOT, capture_output=True, text=True, check=True)
    return sorted(line for line in out.stdout.splitlines() if line.endswith((".json", ".json.gz")))


def _sampled(path: str) -> bool:
    size = (ROOT / path).stat().st_size
    digest = hashlib.sha256(path.encode()).digest()
    return size <= SMALL or (size <= BIG and digest[0] < 256 // EVERY)


def _category(path: str) -> tuple:
    """(folder under certificates/, kind, gzipped): the sample has a file of each."""
    parts = path.split("/")
    return parts[1] if len(parts) > 2 else ".", kinds.kind_of((ROOT / path).read_bytes()), path.endswith(".gz")


def _sample(files: list[str]) -> list[str]:
    """The files _sampled takes, and for each category it took none of, one picked with a fixed seed
    (among its files up to BIG bytes if it has any)."""
    chosen = {f for f in files if _sampled(f)}
    categories = {f: _category(f) for f in files}
    for category in sorted(set(categories.values()) - {categories[f] for f in chosen}):
        members = [f for f in files if categories[f] == category]
        pool = [f for f in members if (ROOT / f).stat().st_size <= BIG] or members
        chosen.add(random.Random(repr(category)).choice(pool))
    return sorted(chosen)


COMMITTED = _committed()
#: CERTIFY_AGREEMENT=all checks every committed file (about 10 minutes of CPU).
SAMPLE = COMMITTED if os.environ.get("CERTIFY_AGREEMENT") == "all" else _sample(COMMITTED)


def _cli(argv, capsys) -> tuple[int, dict]:
    capsys.readouterr()
    code = main(argv)
    return code, json.loads(capsys.readouterr().out)


def _api(path: str):
    """(kind, API report as JSON) of load(path); ('manifest', None) for a manifest it refuses."""
    try:
        found = certify.load(path)
    except (certify.InvalidCertificate, certify.UnusableCertificate) as e:  # (unusable: a limit stopped it)
        return e.report.kind, e.report.to_json()
    except certify.CertifyError as e:
        assert "is a manifest" in str(e), str(e)
        return kinds.MANIFEST, None
    kind = {certify.Certificate: "strategy", certify.Bound: "lower-bound", certify.MixedStrategy: "mixed",
            certify.StaticCertificate: found.report.kind}[type(found)]
    assert found.report.kind == kind
    return kind, found.report.to_json()


def test_the_sample_covers_every_kind_and_most_files():
    kinds_seen = {kinds.kind_of((ROOT / f).read_bytes()) for f in SAMPLE}
    assert kinds_seen >= {"strategy", "lower-bound", "mixed", "static", "static-lower-bound"}
    assert {_category(f) for f in SAMPLE} == {_category(f) for f in COMMITTED}
    assert len(COMMITTED) > 400
    # (of the files up to BIG bytes: the big ones, split proofs' parts among them, are 1 a category)
    within = [f for f in COMMITTED if (ROOT / f).stat().st_size <= BIG]
    assert len(SAMPLE) >= 0.4 * len(within), (len(SAMPLE), len(within))
    assert any(f.endswith(".gz") for f in SAMPLE) and any("index.json" in f for f in SAMPLE)


@pytest.mark.parametrize("start", range(0, len(SAMPLE), GROUP), ids=lambda s: f"files{s}")
def test_api_and_cli_give_the_same_verdicts(start, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    files = SAMPLE[start:start + GROUP]
    code, out = _cli(["verify", "--json", "-q", *files], capsys)
    cli = {r["file"]: r for r in out["results"]}
    skipped = {s["file"] for s in out["skipped"]}
    assert set(cli) | skipped == set(files) and not set(cli) & skipped
    statuses = []
    for f in files:
        kind, mine = _api(f)
        if kind == kinds.MANIFEST:
            assert f in skipped, f"{f}: the API calls it a manifest, the CLI checked it"
            continue
        theirs = dict(cli[f])
        # the same error, the API's in its own words (max_codes=N where the CLI says --max-codes N)
        assert mine.pop("error") == api._words(theirs.pop("error")), f
        if theirs.get("limit"):  # (the limit's option too: max_work where the CLI says --max-work)
            theirs["limit"] = dict(theirs["limit"], option=api._words(theirs["limit"]["option"]))
        assert mine == theirs, f
        statuses.append(mine["exit_code"] if "exit_code" in mine else mine["status"])
    assert code == max(statuses, default=0)


def test_verify_certificate_agrees_with_load_and_with_max_guesses(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    files = ["certificates/knuth-4x6.json", "certificates/knuth-3x3.json",
             "certificates/value/value-3x4-codebreaker.json", "certificates/bounds/total-2x3.json"]
    for f in files:
        report = certify.verify_certificate(f)
        assert report.valid and report.to_json() == _api(f)[1]
    code, out = _cli(["verify", "--json", "-q", "--max-guesses", "4", "certificates/knuth-4x6.json"], capsys)
    report = certify.verify_certificate("certificates/knuth-4x6.json", max_guesses=4)
    theirs = out["results"][0]
    assert code == report.exit_code == 1 and not report.valid
    assert report.error == theirs["error"].replace("--max-guesses 4", "max_guesses=4")
    assert "max_guesses=4" in repr(report) and "--max-guesses" not in report.line
    # a mixed strategy has no maximum to require: both refuse, each in its words
    assert main(["verify", "-q", "--max-guesses", "4", "certificates/value/value-3x4-codebreaker.json"]) == 2
    assert "--max-guesses applies to strategy certificates" in capsys.readouterr().err
    with pytest.raises(certify.CertifyError, match=r"^max_guesses applies to strategy certificates; .* mixed-strategy"):
        certify.verify_certificate("certificates/value/value-3x4-codebreaker.json", max_guesses=4)


VALUE_PAIRS = ["value-2x3", "value-3x3", "value-3x4", "value-2x5-norep"]


@pytest.mark.parametrize("prefix", VALUE_PAIRS)
def test_game_value_agrees_with_verify_value(prefix, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    breaker, maker = (f"certificates/value/{prefix}-{side}.json" for side in ("codebreaker", "codemaker"))
    code, out = _cli(["verify", "--json", "-q", breaker, "--value", maker], capsys)
    found = certify.verify_value(breaker, maker)
    assert found.to_json() == out["value"]
    assert code == (0 if found.proven else 1)
    assert found.codebreaker.report.to_json() == out["mixed"] and found.codemaker.report.to_json() == out["bound"]
    assert found.value == found.upper == found.lower  # the committed values are proven


def test_optimality_agrees_with_verify_optimal(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    for strategy, bound in (("certificates/knuth-3x3.json", "certificates/bounds/worst-case-3x3.json"),
                            ("certificates/optimal-total-3x3.json", "certificates/bounds/total-3x3.json")):
        code, out = _cli(["verify", "--json", "-q", strategy, "--optimal", bound], capsys)
        found = certify.verify_optimality(strategy, bound)
        assert found.to_json() == out["optimality"], strategy
        assert code == (0 if found.optimal else 1)


def test_compare_agrees_with_the_cli(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    files = ["certificates/knuth-4x6.json", "certificates/entropy-4x6.json", "certificates/knuth-3x3.json"]
    code, out = _cli(["compare", "--json", "--sort", "mean", *files], capsys)
    found = certify.compare_certificates(*files, sort="mean")
    assert code == 0 and found.to_json() == out
    assert [r["file"] for r in found.rows] == ["certificates/knuth-3x3.json", "certificates/entropy-4x6.json",
                                               "certificates/knuth-4x6.json"]
