"""`certify bound`: the committed proofs come out of the command byte for byte; mistakes are
one-line errors with exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_here

ROOT = Path(__file__).resolve().parent.parent
BOUNDS = ROOT / "certificates" / "bounds"


def certify(*args):
    """`certify ARGS` in this process (conftest.run_here: no interpreter start for each of the calls)."""
    return run_here(*args)


def test_worst_case_proof_is_the_committed_one(tmp_path):
    out = tmp_path / "w.json"
    run = certify("bound", "--pegs", "3", "--colors", "3", "--worst", "-o", str(out))
    assert run.returncode == 0, run.stderr
    assert "needs >= 4 guesses for some secret" in run.stdout
    assert "counting: every strategy for 3x3 needs >= 3" in run.stderr  # progress on stderr
    assert out.read_bytes() == (BOUNDS / "worst-case-3x3.json").read_bytes()


def test_total_writes_proof_and_strategy(tmp_path):
    out, strategy = tmp_path / "t.json", tmp_path / "s.json"
    run = certify("bound", "--pegs", "4", "--colors", "4", "--no-repetition", "--total",
                  "--max-guesses", "5", "-o", str(out), "--strategy-out", str(strategy), "--json", "-q")
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    summary = json.loads(run.stdout)
    assert summary["bound_version"] == 1
    assert summary["claims"] == {"max_guesses": 5, "total": 86}
    assert out.read_bytes() == (BOUNDS / "total-4x4-norep-max5.json").read_bytes()
    assert strategy.read_bytes() == (ROOT / "certificates" / "optimal-total-4x4-norep-max5.json").read_bytes()


@pytest.mark.parametrize("args,message", [
    (["--worst", "--max-guesses", "4"], "--max-guesses goes with --total"),
    (["--total", "--max-guesses", "3"], "no strategy solves 3x3 within 3 guesses"),
    (["--pegs", "5", "--colors", "7", "--total"], "the total search handles at most 7776"),
    (["--pegs", "5", "--colors", "9", "--worst"], "the exact search handles at most 46656"),
])
def test_mistakes(args, message, tmp_path):
    base = ["bound", "--pegs", "3", "--colors", "3", "-o", str(tmp_path / "o.json")]
    run = certify(*base, *args)
    assert run.returncode == 2
    assert message in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert "Traceback" not in run.stderr
    assert not (tmp_path / "o.json").exists()


def test_needs_worst_or_total(tmp_path):
    run = certify("bound", "-o", str(tmp_path / "o.json"))
    assert run.returncode == 2
    assert "one of the arguments --worst --total is required" in run.stderr


def _pairs():
    from certify.search import catalog

    for name, pegs, colors, _, kind, _ in catalog.CATALOG:
        if kind == "total" and colors**pegs <= 400:
            yield catalog.strategy_name(name), name


@pytest.mark.parametrize("strategy,proof", sorted(_pairs()))
def test_every_small_total_pair_is_optimal(strategy, proof, capsys):
    """`certify verify S --optimal P` on each small committed pair, run in this process
    (certify.__main__.main: 29 interpreter starts were most of the ~5 s this took)."""
    from certify.__main__ import main

    code = main(["verify", str(ROOT / "certificates" / strategy), "--optimal", str(BOUNDS / proof)])
    out, err = capsys.readouterr()
    assert code == 0, err
    first = "optimal: total" if "count-first" not in proof else "optimal: "  # (count first: "N secrets needing D, then total")
    assert first in out and "= proven minimum" in out


def test_worst_strategy_out_writes_a_strategy_within_the_proven_worst_case(tmp_path):
    """`bound --worst --strategy-out`: the search's own choices, never more than D; with the proof
    it proves the least worst case (for games past the total search, the only strategy at D)."""
    proof, strategy = tmp_path / "w.json", tmp_path / "s.json"
    run = certify("bound", "--pegs", "3", "--colors", "7", "--worst", "--strategy-out", strategy, "-o", proof)
    assert run.returncode == 0, run.stderr
    assert f"wrote {strategy}: a strategy that meets it" in run.stdout
    run = certify("verify", strategy, "--optimal", proof)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "optimal: max 6 guesses = proven minimum 6" in run.stdout


def test_at_least_proves_a_lower_bound_without_the_whole_search(tmp_path):
    """`bound --worst --at-least K`: "every strategy needs >= K" alone (5x8: 6, where the whole
    search for the least worst case runs out of memory); refused when K - 1 guesses suffice."""
    proof = tmp_path / "w.json"
    run = certify("bound", "--pegs", "4", "--colors", "6", "--worst", "--at-least", "4", "-o", proof)
    assert run.returncode == 0, run.stderr
    check = certify("verify", proof)
    assert check.returncode == 0 and "every strategy for 4x6 needs >= 4 guesses" in check.stdout
    run = certify("bound", "--pegs", "4", "--colors", "6", "--worst", "--at-least", "6", "-o", tmp_path / "x.json")
    assert run.returncode == 2 and "some strategy for 4x6 never needs more than 5 guesses" in run.stderr
    assert not (tmp_path / "x.json").exists()


def test_total_at_least_proves_a_lower_bound_on_the_total_and_nothing_above_the_least(tmp_path):
    """`bound --total --at-least K` (the API's at_least=K): "every strategy needs >= K guesses in
    total" alone, a narrower interval where the whole search is too long. 3x4's least total is 206
    (published; 206 within 4 too): 200 and 206 are proven, with --max-guesses among strategies
    within D; 207 is refused with the least total the search found, and no file is written. The
    API writes the CLI's bytes; the checker reads the claim as a lower bound, not the optimum."""
    from certify import api

    for k, limit in ((200, None), (206, None), (206, 4)):
        proof = tmp_path / f"t{k}-{limit}.json"
        extra = () if limit is None else ("--max-guesses", str(limit))
        run = certify("bound", "--pegs", "3", "--colors", "4", "--total", "--at-least", str(k), *extra, "-o", proof)
        assert run.returncode == 0, run.stderr
        doc = json.loads(proof.read_bytes())
        assert doc["claims"] == ({"total": k} if limit is None else {"total": k, "max_guesses": limit})
        check = certify("verify", proof)
        assert check.returncode == 0 and f"needs >= {k} guesses in total" in check.stdout, check.stdout
        assert api.bound(3, 4, kind="total", at_least=k, max_guesses=limit).data == proof.read_bytes()
    strategy = tmp_path / "s.json"
    assert certify("build", "optimal", "--pegs", "3", "--colors", "4", "-o", strategy).returncode == 0
    check = certify("verify", strategy, "--optimal", tmp_path / "t200-None.json")
    assert check.returncode != 0 and "206" in check.stdout + check.stderr
    run = certify("bound", "--pegs", "3", "--colors", "4", "--total", "--at-least", "207", "-o", tmp_path / "x.json")
    assert run.returncode == 2 and "the least total for 3x4 is 206, below 207: no proof of 207" in run.stderr
    assert not (tmp_path / "x.json").exists()
    run = certify("bound", "--pegs", "3", "--colors", "4", "--total", "--at-least", "300", "--max-guesses", "3",
                  "-o", tmp_path / "x.json")
    assert run.returncode != 0 and "within 3" in run.stderr and not (tmp_path / "x.json").exists()
    run = certify("bound", "--pegs", "3", "--colors", "4", "--total", "--at-least", "200", "--strategy-out",
                  strategy, "-o", tmp_path / "x.json")
    assert run.returncode == 2 and "no --strategy-out" in run.stderr
