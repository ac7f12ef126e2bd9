"""A limit is not a verdict (issue 43 item 1): a file over a checker's limit (codes, work) is
reported unusable (not checked, exit 2, JSON "status": "unusable" with a "limit" object), naming the
option that raises it, through every path: verify, why, stats, value, split proofs and the API; and
the user's --max-codes / --max-work (max_codes=, max_work=) reach the checker."""

from __future__ import annotations

import json

import orjson
import pytest

from certify import api, verify, verify_bound, verify_mixed

from conftest import CERTS

#: 3 pegs x 22 colours: 10,648 codes, just past the lower-bound checker's default (10,000);
#: counting alone proves 4 guesses, so the check is instant once it is allowed.
PROOF = orjson.dumps({"format": "mastermind-lower-bound-certificate", "version": 1,
                      "game": {"pegs": 3, "colors": 22, "repetition": True},
                      "claims": {"worst_case": 4}, "nodes": [{"bound": 4}]})
K46 = CERTS / "knuth-4x6.json"
TOTAL_2X6 = CERTS / "bounds" / "total-2x6.json"
MIXED = CERTS / "value" / "value-2x10-codebreaker.json"
MAKER = CERTS / "value" / "value-2x10-codemaker.json"


@pytest.fixture
def proof(tmp_path):
    path = tmp_path / "p.json"
    path.write_bytes(PROOF)
    return path


# -- the checkers ------------------------------------------------------------------------------------

def test_the_codes_limit_makes_a_file_unusable_and_names_the_option():
    report = verify_bound.check_bytes(PROOF)
    assert (report.status, report.valid) == (2, False)
    assert report.to_json()["status"] == "unusable"
    assert report.limit == {"option": "--max-codes", "limit": 10000, "needed": 10648}
    assert "--max-codes 10648 raises it" in report.line() and ": unusable: " in report.line()
    assert verify_bound.check_bytes(PROOF, max_codes=10648).valid


def test_the_work_budget_of_the_lower_bound_checker_is_the_users(monkeypatch):
    raw = TOTAL_2X6.read_bytes()
    done = verify_bound.check_bytes(raw)
    assert done.valid
    work = done.checked["work"]
    small = verify_bound.check_bytes(raw, max_work=work - 1)
    assert small.status == 2 and small.limit["option"] == "--max-work" and "the --max-work given" in small.error
    assert verify_bound.check_bytes(raw, max_work=work).valid
    # the default stays size-based: made too small here, the file is unusable, and the user's value overrides it
    monkeypatch.setattr(verify_bound, "WORK_BASE", work - 1 - verify_bound.WORK_PER_BYTE * len(raw))
    by_default = verify_bound.check_bytes(raw)
    assert by_default.status == 2 and "the limit for a file of this size, by default" in by_default.error
    assert verify_bound.check_bytes(raw, max_work=work).valid


def test_the_strategy_verifier_takes_max_work():
    raw = K46.read_bytes()
    report = verify.verify_bytes(raw, max_work=1000)
    assert report.status == 2 and report.limit == {"option": "--max-work", "limit": 1000, "needed": None}
    assert "feedbacks to compute" in report.error and "--max-work N with N > 1000 raises it" in report.error
    assert verify.verify_bytes(raw, max_work=5801).valid  # 5801 feedbacks: the total of guesses
    assert verify.verify_bytes(raw, max_work=5800).status == 2


def test_the_mixed_strategy_checker_takes_max_codes_and_max_work():
    raw = MIXED.read_bytes()
    assert verify_mixed.check_bytes(raw).valid
    few = verify_mixed.check_bytes(raw, max_codes=99)
    assert few.status == 2 and few.limit == {"option": "--max-codes", "limit": 99, "needed": 100}
    assert verify_mixed.check_bytes(raw, max_codes=100).valid
    replay = verify_mixed.check_bytes(raw, max_work=10)
    assert replay.status == 2 and replay.limit["option"] == "--max-work"


def test_a_true_verdict_is_still_invalid():
    """Only limits became unusable: a wrong claim stays invalid (exit 1)."""
    bad = PROOF.replace(b'"worst_case":4}', b'"worst_case":5}')  # the root's bound is not the claim
    report = verify_bound.check_bytes(bad, max_codes=10648)
    assert report.status == 1 and report.error == "node 0 (the root): bound 4 is not the claimed 5"


# -- the command line ------------------------------------------------------------------------------

class _Done:
    """What the CLI run in this process gave: returncode, stdout, stderr (as run_cli's)."""

    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


@pytest.fixture
def here(capsys):
    """`certify ARGS` run in this process (certify.__main__.main, as _json_run below): these tests
    are about the options and what the commands print, not the interpreter's start (~0.3 s of CPU
    each for 19 runs); the subprocess path of the CLI is tested by tests/test_cli_errors.py and
    the others that use conftest.run_cli."""
    from certify.__main__ import main

    def run(*argv):
        capsys.readouterr()
        try:
            code = main([str(a) for a in argv])
        except SystemExit as e:
            code = e.code
        out, err = capsys.readouterr()
        return _Done(code, out, err)
    return run


def test_verify_text_and_json(here, proof):
    done = here("verify", proof)
    assert done.returncode == 2
    assert done.stderr.strip() == (f"{proof}: unusable: game: 10648 codes is too many for the lower-bound "
                                   "checker (limit 10000); not checked: --max-codes 10648 raises it")
    out = json.loads(here("verify", proof, "--json").stdout)["results"][0]
    assert out["status"] == "unusable" and out["exit_code"] == 2 and out["valid"] is False
    assert out["limit"] == {"option": "--max-codes", "limit": 10000, "needed": 10648}
    assert here("verify", proof, "--max-codes", "10648").returncode == 0
    done = here("verify", TOTAL_2X6, "--max-work", "10")
    assert done.returncode == 2 and "unusable" in done.stderr and "--max-work" in done.stderr


def test_why_takes_the_limits(here, proof):
    done = here("why", proof)
    assert done.returncode == 2 and "unusable" in done.stderr and "--max-codes 10648 raises it" in done.stderr
    out = json.loads(here("why", proof, "--json").stdout)
    assert out["why_version"] == 1 and out["status"] == "unusable" and out["limit"]["needed"] == 10648
    done = here("why", proof, "--max-codes", "10648")
    assert done.returncode == 0 and "valid lower bound: every strategy for 3x22 needs >= 4" in done.stdout
    worst = CERTS / "bounds" / "worst-case-3x3.json"
    assert here("why", worst, "--max-work", "1").returncode == 2


def test_stats_bound_and_value_and_parts_take_the_limits(here, proof, tmp_path):
    done = here("stats", K46, "--bound", proof)
    assert done.returncode == 2 and "unusable" in done.stderr and "--max-codes 10648" in done.stderr
    # with the limit raised the bound is checked (valid) and compared: it is another game
    done = here("stats", K46, "--bound", proof, "--max-codes", "10648")
    assert "unusable" not in done.stderr and "the lower bound is for 3x22" in done.stderr
    done = here("stats", K46, "--max-work", "100")
    assert done.returncode == 2 and "unusable" in done.stderr
    assert json.loads(here("stats", K46, "--max-work", "100", "--json").stdout)["status"] == "unusable"
    done = here("verify", MIXED, "--value", MAKER, "--max-work", "10")
    assert done.returncode == 2 and "unusable" in done.stderr
    assert here("verify", MIXED, "--value", MAKER).returncode == 0
    # a split proof: the parts are checked with the same limits
    parts = tmp_path / "parts"
    split = here("split-proof", TOTAL_2X6, "--depth", "1", "-o", parts, "--json")
    assert split.returncode == 0, split.stderr
    main = json.loads(split.stdout)["main"]
    assert here("verify", main, "--parts", parts).returncode == 0
    done = here("verify", main, "--parts", parts, "--max-work", "5")
    assert done.returncode == 2 and "unusable" in done.stderr


def test_split_proof_prints_the_check_with_the_limit_it_needs(here, proof, tmp_path):
    out = json.loads(here("split-proof", proof, "--depth", "1", "-o", tmp_path / "s", "--json").stdout)
    assert out["codes"] == 10648 and out["check"].endswith("--max-codes 10648")
    done = here(*out["check"].split()[1:])
    assert done.returncode == 0, done.stderr


# -- the API ---------------------------------------------------------------------------------------

def test_the_api_passes_the_limits_all_the_way(proof):
    with pytest.raises(api.UnusableCertificate) as caught:
        api.why_bound(proof)
    assert caught.value.limit == {"option": "max_codes", "limit": 10000, "needed": 10648}
    assert "max_codes=10648 raises it" in str(caught.value)
    assert api.why_bound(proof, max_codes=10648).bound.report.valid
    report = api.verify_certificate(proof)
    assert (report.status, report.exit_code) == ("unusable", 2)
    assert report.to_json()["limit"]["option"] == "max_codes"
    assert api.verify_certificate(proof, max_codes=10648).valid
    assert api.load(proof, max_codes=10648).report.valid
    with pytest.raises(api.UnusableCertificate):
        api.load(K46, max_work=100)
    assert api.verify_certificate(K46, max_work=100).status == "unusable"
    assert api.load(K46, max_work=5801).report.valid
    with pytest.raises(api.CertifyError):
        api.load(K46, max_work=0)


# -- one JSON shape, refused or not ----------------------------------------------------------------

def _json_run(capsys, *argv):
    """(exit code, JSON printed) of the CLI run in this process (the suite's time: no new interpreter)."""
    from certify.__main__ import main

    capsys.readouterr()
    try:
        code = main([str(a) for a in argv])
    except SystemExit as e:  # (a command stops so when its file is refused)
        code = e.code
    out = capsys.readouterr().out
    return code, json.loads(out)


def _first_key(doc: dict) -> str:
    return next(iter(doc))


def test_compare_json_keeps_its_shape_for_a_refused_file(capsys):
    code, doc = _json_run(capsys, "compare", K46, "--max-work", "100", "--json")
    assert code == 2 and _first_key(doc) == "compare_version" and doc["rows"] == []
    assert [(r["file"], r["status"], r["limit"]["option"]) for r in doc["refused"]] == [
        (str(K46), "unusable", "--max-work")]
    code, doc = _json_run(capsys, "compare", K46, "--json")
    assert code == 0 and doc["refused"] == [] and doc["rows"][0]["max_guesses"] == 5


def test_verify_optimal_json_keeps_its_shape_for_a_refused_file(capsys, proof):
    code, doc = _json_run(capsys, "verify", K46, "--optimal", proof, "--json")
    assert code == 2 and _first_key(doc) == "report_version" and doc["optimality"] is None
    assert doc["strategy"]["valid"] and doc["bound"]["status"] == "unusable"
    assert doc["bound"]["limit"]["needed"] == 10648
    worst, total = CERTS / "bounds" / "worst-case-4x6.json", CERTS / "bounds" / "total-4x6.json"
    code, doc = _json_run(capsys, "verify", K46, "--optimal", worst, "--optimal", total, "--json", "--max-work", "100")
    assert code == 2 and doc["strategy"]["status"] == "unusable" and doc["bounds"] == [None, None]
    code, doc = _json_run(capsys, "verify", MIXED, "--value", MAKER, "--max-work", "10", "--json")
    assert code == 2 and _first_key(doc) == "report_version" and doc["value"] is None
    assert doc["mixed"]["status"] == "unusable" and doc["bound"] is None


@pytest.mark.parametrize("argv, kind", [
    (("stats", K46), "stats"), (("explain", K46, "3132"), "explain"),
    (("html", K46, "-o", "{tmp}/k.html"), "html"), (("render", K46, "-o", "{tmp}/k.dot"), "render"),
    (("export", K46, "-o", "{tmp}/k.graphml"), "export"), (("hint", "--certificate", K46), "hint")])
def test_a_refused_file_is_json_under_the_commands_version_key(capsys, tmp_path, argv, kind):
    argv = [str(a).replace("{tmp}", str(tmp_path)) for a in argv]
    code, doc = _json_run(capsys, *argv, "--json", "--max-work", "100")
    assert code == 2 and _first_key(doc) == f"{kind}_version" and doc["status"] == "unusable"


def test_stats_bound_refused_is_json_too(capsys, proof):
    code, doc = _json_run(capsys, "stats", K46, "--bound", proof, "--json")
    assert code == 2 and _first_key(doc) == "stats_version" and doc["limit"]["option"] == "--max-codes"


# -- the node limit (issue 43 item 1: codes, work, nodes) ------------------------------------------

def test_the_node_limit_is_an_option_of_every_path(capsys, tmp_path):
    """The checkers count nodes (a lower-bound proof's nodes and entries, a mixed strategy's tree
    nodes, a static proof's sets): --max-nodes / max_nodes= sets that limit everywhere the others go."""
    worst = CERTS / "bounds" / "worst-case-3x3.json"
    static = CERTS / "static" / "static-2x10-proof.json"
    for argv in (("verify", TOTAL_2X6), ("why", worst), ("stats", K46, "--bound", worst), ("verify", MIXED),
                 ("verify", static), ("static", "verify", static)):
        code, doc = _json_run(capsys, *argv, "--max-nodes", "1", "--json")
        report = doc["results"][0] if "results" in doc else doc
        assert code == 2 and report["status"] == "unusable" and report["limit"]["option"] == "--max-nodes", argv
    assert _json_run(capsys, "why", worst, "--max-nodes", "100", "--json")[0] == 0
    with pytest.raises(api.UnusableCertificate, match="max_nodes"):
        api.load(TOTAL_2X6, max_nodes=1)
    assert api.load(TOTAL_2X6, max_nodes=14).report.valid  # 14 nodes
    assert api.verify_certificate(MIXED, max_nodes=1).status == "unusable"
    with pytest.raises(api.UnusableCertificate):
        api.why_bound(worst, max_nodes=1)


def test_split_proof_takes_the_limits_of_its_check(capsys, tmp_path):
    code, doc = _json_run(capsys, "split-proof", TOTAL_2X6, "--depth", "1", "-o", tmp_path / "a", "--max-work",
                          "99999999", "--max-nodes", "1000", "--json")
    assert code == 0 and doc["check"].endswith("--jobs 2 --max-work 99999999 --max-nodes 1000")
    from certify.__main__ import main

    assert main(doc["check"].split()[1:] + ["-q"]) == 0  # the printed check runs with the user's limits
    code, doc = _json_run(capsys, "split-proof", TOTAL_2X6, "--depth", "1", "-o", tmp_path / "b", "--max-nodes",
                          "3", "--json")
    assert code == 2 and _first_key(doc) == "split_version" and doc["status"] == "unusable"
    assert doc["limit"] == {"option": "--max-nodes", "limit": 3, "needed": 14} and not (tmp_path / "b").exists()
    code, doc = _json_run(capsys, "split-proof", TOTAL_2X6, "--depth", "1", "-o", tmp_path / "c", "--max-codes",
                          "30", "--json")
    assert code == 2 and doc["limit"] == {"option": "--max-codes", "limit": 30, "needed": 36}


@pytest.mark.parametrize("doc", [{"nodes": [{"bound": 1}]}, {"game": {"pegs": "x"}, "claims": {}, "nodes": [{}]},
                                 {"game": {"pegs": 2, "colors": 3, "repetition": True}, "claims": {},
                                  "nodes": [{"bound": 1, "guesses": {"00": 5}}]}])
def test_split_proof_refuses_a_file_of_another_shape_in_one_line(capsys, tmp_path, doc):
    from certify.__main__ import main

    path = tmp_path / "p.json"
    path.write_text(json.dumps(doc))
    assert main(["split-proof", str(path), "--depth", "1", "-o", str(tmp_path / "out")]) == 2  # (a KeyError once)
    err = capsys.readouterr().err
    assert err.startswith("certify split-proof: error: ") and "not a lower-bound proof" in err and err.count("\n") == 1


def test_stats_names_the_option_a_committed_proof_needs_once(capsys):
    """stats on the 5x7 strategy: the committed 5x7 proof is past the default codes limit; the line
    says so once, with the option (it read "not checked: ...; not checked: --max-codes ...")."""
    from certify.__main__ import main

    assert main(["stats", str(CERTS / "atlas" / "optimal-worst-case-5x7.json.gz")]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("  proof certificate "))
    assert line.count("not checked") == 1 and line.endswith("not checked: --max-codes 16807 raises it"), line


def test_the_api_comparisons_take_the_limits(proof):
    """verify_optimality, verify_value and compare_certificates pass the limits to the checkers
    (they loaded every file with the defaults: a 3x22 proof could not be compared at all)."""
    with pytest.raises(api.UnusableCertificate):
        api.verify_optimality(K46, proof)
    worst = CERTS / "bounds" / "worst-case-4x6.json"  # one node: counting and one guess level
    with pytest.raises(api.UnusableCertificate, match="max_work"):
        api.verify_optimality(K46, worst, max_work=100)
    assert api.verify_optimality(K46, worst, max_nodes=1).optimal
    with pytest.raises(api.UnusableCertificate):
        api.verify_value(MIXED, MAKER, max_work=10)
    assert api.verify_value(MIXED, MAKER).proven
    with pytest.raises(api.UnusableCertificate):
        api.compare_certificates(K46, max_work=100)


def test_the_api_split_takes_the_limits_of_its_check(tmp_path):
    with pytest.raises(api.CertifyError, match=r"more than the max_nodes=3 given.*max_nodes=14 raises it"):
        api.split_proof(TOTAL_2X6, tmp_path / "a", depth=1, max_nodes=3)
    done = api.split_proof(TOTAL_2X6, tmp_path / "b", depth=1, max_codes=36, max_nodes=14)
    assert [r.valid for r in api.verify_parts(done["main"], tmp_path / "b", max_nodes=14)] == [True]
