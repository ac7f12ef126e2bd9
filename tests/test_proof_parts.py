"""Split proofs: a lower-bound proof cut into a main file and part (lemma) files, each checked on its
own (in parallel processes), and a small trusted step that combines their verdicts by sha256
(docs/lower-bound-format.md, "Parts of a proof"). The splitter (certify/proofparts.py) is not
trusted: these tests split committed proofs and check that the combination proves the same claim,
then break the files every way a split could cheat and check that the combination refuses."""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from certify import verify, verify_bound
from certify.proofparts import split, write_split
from conftest import checked_bound, run_here

ROOT = Path(__file__).resolve().parent.parent
BOUNDS = ROOT / "certificates" / "bounds"
VALUE = ROOT / "certificates" / "value"

_spec = importlib.util.spec_from_file_location("bound_reference", Path(__file__).parent / "bound_reference.py")
ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ref)


def load(path: Path) -> dict:
    raw = path.read_bytes()
    return json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)


def dumps(doc) -> bytes:
    return json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def verdicts(main: bytes, parts):
    return (verify_bound.verdict_bytes(main, "main.json"),
            [verify_bound.verdict_bytes(p, f"part-{k:04d}.json") for k, p in enumerate(parts, 1)])


def combined(main: bytes, parts) -> verify_bound.Report:
    m, ps = verdicts(main, parts)
    return verify_bound.combine(m, ps)


def whole(path: Path) -> verify_bound.Report:
    report = checked_bound(path)  # committed proofs: the report test_verify_bound_committed also uses
    assert report.valid, report.error
    return report


# -- acceptance: a split proves what the whole file proves ---------------------------------------

@pytest.mark.parametrize("name, how", [
    ("total-4x4.json", {"depth": 1}), ("total-4x4.json", {"depth": 2}), ("total-4x4.json", {"parts": 3}),
    ("total-4x4.json", {"parts": 5}), ("total-3x3.json", {"depth": 1}),
    ("total-4x4-max4.json", {"depth": 1}), ("total-4x4-max4.json", {"depth": 2}),
    ("total-4x4-max4-count.json", {"depth": 2}), ("total-4x4-max4-count-first.json", {"depth": 1}),
    ("worst-case-3x3.json", {"depth": 1}), ("total-4x4-norep-max5.json", {"depth": 2}),
])
def test_a_split_of_a_small_proof_proves_its_claim(name, how):
    path = BOUNDS / name
    main, parts = split(load(path), **how)
    assert parts, "the split made no part"
    report = combined(main, parts)
    assert report.valid, report.error
    expected = whole(path)
    assert report.claims == expected.claims and report.game == expected.game
    assert report.statement() == expected.statement()
    assert "a split proof" in report.line() and len(report.parts) == len(parts)
    # the main file alone proves nothing: its lemmas are unmet
    alone = verify_bound.check_bytes(main, "main.json")
    assert not alone.valid and alone.status == 1 and "no part was given" in alone.error


@pytest.mark.parametrize("limit", ["bytes", "nodes"])
def test_a_part_over_the_limits_is_cut_again_below_its_root(monkeypatch, limit):
    """--parts N is a floor: a part whose closure is over PART_SHARE of the checker's limits (here
    lowered) is not written; its root joins the main file and its children become parts. 4x9's
    least total had one of 34 parts past the checker's 128 MiB, refused: nothing shown."""
    from certify import proofparts

    doc = load(BOUNDS / "total-4x4.json")
    main0, parts0 = split(doc, parts=3)
    sizes = sorted((len(p), len(json.loads(p)["nodes"])) for p in parts0)
    cap = {"bytes": (sizes[-1][0] - 1, 10**9), "nodes": (10**12, sizes[-1][1] - 1)}[limit]
    monkeypatch.setattr(proofparts, "_part_limits", lambda: cap)
    main, parts = split(doc, parts=3)
    assert len(parts) > len(parts0)
    for p in parts:  # every part within the lowered limits, unless it is one node (no cut below)
        n = len(json.loads(p)["nodes"])
        assert n == 1 or (len(p) <= cap[0] and n <= cap[1])
    report = combined(main, parts)
    assert report.valid and report.claims == whole(BOUNDS / "total-4x4.json").claims, report.error
    # limits no part reaches: the bytes of the plain split
    monkeypatch.setattr(proofparts, "_part_limits", lambda: (10**12, 10**9))
    assert split(doc, parts=3) == (main0, parts0)


def test_the_same_input_gives_the_same_bytes():
    doc = load(BOUNDS / "total-4x4-max4.json")
    assert split(doc, depth=2) == split(load(BOUNDS / "total-4x4-max4.json"), depth=2)
    assert split(doc, depth=1, gz=True) == split(doc, depth=1, gz=True)


def test_every_part_proves_a_true_bound_for_its_set_by_the_oracle():
    """Each part's root set, recomputed by the reference's own feedback and permutations from the
    path, and its bound below the exact optimum of that set (the oracle, 3x3 and 2x4)."""
    for name, how, kind in [("total-3x3.json", {"depth": 2}, "total"), ("worst-case-3x3.json", {"depth": 1}, "worst"),
                            ("total-3x3-max4-count.json", {"depth": 1}, "lex"), ("total-2x5-max4.json", {"depth": 1}, "total")]:
        doc = load(BOUNDS / name)
        main, parts = split(doc, **how)
        assert combined(main, parts).valid
        g = doc["game"]
        codes = ref.codes_of(g["pegs"], g["colors"], g["repetition"])
        D = doc["claims"].get("max_guesses")
        opt = ref.optimum(g["pegs"], g["colors"], g["repetition"], codes, kind, D)
        if kind == "lex":
            opt = ref.lex_cost(opt, len(codes))
        root_claim = doc["nodes"][0]["bound"]
        assert root_claim <= opt
        for data in parts:
            part = json.loads(data)
            S = codes
            for guess, key in part["root"]["path"]:
                S = [s for s in S if "%d,%d" % ref.feedback(guess, s) == key]
            if "perm" in part["root"]:
                perm = part["root"]["perm"]
                inverse = ref.invert_perm((perm["pegs"], perm["colors"]))
                S = sorted(ref.apply_perm(inverse, s) for s in S)
            r = None if D is None else D - len(part["root"]["path"])
            best = ref.optimum(g["pegs"], g["colors"], g["repetition"], S, kind, r)
            if kind == "lex":
                best = ref.lex_cost(best, len(codes))
            assert part["nodes"][0]["bound"] <= best, (name, part["root"])


def test_committed_proofs_split_and_combined(tmp_path):
    """The 4x6 proofs (5625; 5626 within 5; (5626, 540) at_max), a worst case and a weighted one,
    split through the command line and checked in two processes: the same claim as the whole file."""
    cases = [("total-4x6.json.gz", "--depth", "1"), ("total-4x6-max5.json.gz", "--parts", "12"),
             ("total-4x6-max5-count.json.gz", "--depth", "1"), ("worst-case-4x5.json", "--depth", "1")]
    for k, (name, flag, value) in enumerate(cases):
        out = tmp_path / f"s{k}"
        run = certify("split-proof", BOUNDS / name, flag, value, "-o", out, "-q")
        assert run.returncode == 0, run.stderr
        main = next(out.glob("main.json*"))
        run = certify("verify", main, "--parts", out, "--jobs", "2")
        assert run.returncode == 0, run.stderr
        assert run.stdout.split(": ", 1)[1].startswith("valid lower bound, a split proof")
        assert run.stdout.split("): ", 1)[1] == whole(BOUNDS / name).statement() + "\n"


def test_a_weighted_proof_splits():
    path = next(p for p in sorted(VALUE.glob("value-3x3-codemaker.json")))
    doc = load(path)
    if "claims" not in doc or "weights" not in doc.get("claims", {}):
        pytest.skip("no weighted lower bound in that file")
    main, parts = split(doc, depth=1)
    report = combined(main, parts)
    assert report.valid, report.error
    assert report.claims == whole(path).claims


def test_a_part_can_itself_be_split_and_its_root_may_be_permuted():
    doc = load(BOUNDS / "total-4x4.json")
    main, parts = split(doc, depth=1)
    big = max(parts, key=len)
    sub_main, sub_parts = split(json.loads(big), depth=1)  # the part's top, and parts of it (depth
    # counted from the part's root)
    assert sub_parts and json.loads(sub_main)["root"] == json.loads(big)["root"]
    parts = [p for p in parts if p != big]
    # the main file names the part by its sha256: the new top must have the same bytes' hash
    main = main.replace(sha(big).encode(), sha(sub_main).encode())
    report = combined(main, parts + [sub_main] + sub_parts)
    assert report.valid, report.error
    assert len(report.parts) == len(parts) + 1 + len(sub_parts)


def test_permuted_roots_and_permuted_lemma_references():
    """A root {"path": [[P(g), f]], "perm": P} is the class f of g (P^-1 of the class of P(g)); a
    lemma reference with P means class = P(the part's set). worst-case-3x3's parts hold by
    counting alone, so they are valid for any set of their size: only the sets' digests decide."""
    main, parts = split(load(BOUNDS / "worst-case-3x3.json"), depth=1)
    P = {"colors": [1, 2, 0], "pegs": [2, 0, 1]}
    doc = json.loads(parts[0])
    (g, f), = doc["root"]["path"]
    doc["root"] = {"path": [[ref.apply_perm((P["pegs"], P["colors"]), g), f]], "perm": P}
    same = dumps(doc)
    assert combined(main.replace(sha(parts[0]).encode(), sha(same).encode()), [same] + parts[1:]).valid
    # the lemma reference permuted by P: the part must be about P^-1(class)
    doc["root"] = {"path": [[g, f]], "perm": P}
    moved = dumps(doc)
    m = json.loads(main)
    for entry in m["nodes"][0]["guesses"].values():
        for key, r in entry.items():
            if isinstance(r, dict) and r.get("lemma") == sha(parts[0]):
                r.update(lemma=sha(moved), perm=P)
    assert combined(dumps(m), [moved] + parts[1:]).valid
    # either permutation alone: another set
    for bad_main, bad_part in ((dumps(m), parts[0]), (main, moved)):
        bad_main = bad_main.replace(sha(parts[0]).encode(), sha(bad_part).encode()).replace(
            sha(moved).encode(), sha(bad_part).encode())
        report = combined(bad_main, [bad_part] + parts[1:])
        assert not report.valid and "another set of secrets" in report.error, report.error


# -- rejections --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def split44():
    return split(load(BOUNDS / "total-4x4.json"), depth=1)


def lemmas_of(main: bytes) -> list:
    """(guess, key, reference) of the lemma references at the main file's root."""
    doc = json.loads(main)
    return [(g, k, r) for g, e in doc["nodes"][0]["guesses"].items() if "same_as" not in e
            for k, r in e.items() if isinstance(r, dict) and "lemma" in r]


def test_a_missing_part_is_refused(split44):
    main, parts = split44
    report = combined(main, parts[1:])
    assert not report.valid and report.status == 1
    assert "no part among the" in report.error and sha(parts[0])[:16] in report.error


def test_an_edited_part_is_refused(split44):
    main, parts = split44
    doc = json.loads(parts[0])
    doc["comment"] = "edited"  # the proof unchanged, the bytes not: another sha256
    report = combined(main, [dumps(doc)] + parts[1:])
    assert not report.valid and "no part among the" in report.error


def test_an_invalid_part_is_refused_even_under_its_own_sha256(split44):
    main, parts = split44
    doc = json.loads(parts[0])
    doc["nodes"][0]["bound"] += 1000
    doc["claims"]["total"] += 1000
    bad = dumps(doc)
    main = main.replace(sha(parts[0]).encode(), sha(bad).encode())
    report = combined(main, [bad] + parts[1:])
    assert not report.valid and "part part-0001.json is invalid" in report.error


def test_a_part_below_the_bound_used_is_refused(split44):
    main, parts = split44
    doc = json.loads(main)
    _, _, r = lemmas_of(main)[0]
    for entry in doc["nodes"][0]["guesses"].values():
        for key, x in entry.items():
            if x == r:
                x["bound"] += 1
    report = combined(dumps(doc), parts)
    assert not report.valid and f"less than the {r['bound'] + 1} used" in report.error


def test_two_parts_swapped_in_the_main_file_are_refused_and_file_names_do_not_matter(split44):
    main, parts = split44
    a, b = sha(parts[0]), sha(parts[1])
    swapped = main.replace(a.encode(), b"X" * 64).replace(b.encode(), a.encode()).replace(b"X" * 64, b.encode())
    report = combined(swapped, parts)
    assert not report.valid and "another set of secrets" in report.error
    assert combined(main, list(reversed(parts))).valid  # matched by content, not by name or order


def test_a_part_about_another_set_is_refused(split44):
    """The part's root path changed (another class), or a permutation added: a proof about another
    set (valid or not), whose sha256 the main file is made to name."""
    main, parts = split44
    for change in ("path", "perm"):
        doc = json.loads(parts[0])
        if change == "path":
            guess, key = doc["root"]["path"][0]
            doc["root"]["path"][0] = [guess, "0,0" if key != "0,0" else "1,0"]
        else:
            doc["root"]["perm"] = {"colors": [1, 2, 3, 0], "pegs": [0, 1, 2, 3]}
        bad = dumps(doc)
        report = combined(main.replace(sha(parts[0]).encode(), sha(bad).encode()), [bad] + parts[1:])
        assert not report.valid, change
        assert "another set of secrets" in report.error or "is invalid" in report.error, report.error


def test_a_part_of_another_game_or_claim_kind_is_refused(split44):
    main, parts = split44
    other_main, other_parts = split(load(BOUNDS / "total-3x3.json"), depth=1)
    report = combined(main.replace(sha(parts[0]).encode(), sha(other_parts[0]).encode()), other_parts + parts[1:])
    assert not report.valid and "another game" in report.error
    # the same set in a proof within 4 guesses (a part of total-4x4-max4 at the same path)
    _, max_parts = split(load(BOUNDS / "total-4x4-max4.json"), depth=1)
    path = json.loads(parts[0])["root"]["path"]
    twin = next(p for p in max_parts if json.loads(p)["root"]["path"] == path)
    report = combined(main.replace(sha(parts[0]).encode(), sha(twin).encode()), [twin] + parts[1:])
    assert not report.valid and "another kind" in report.error


def test_a_part_at_the_wrong_depth_is_refused_with_max_guesses():
    """A part whose root is reached by one more step that learns nothing (a guess giving every
    secret the same feedback): the same set, one guess fewer left, so another claim."""
    main, parts = split(load(BOUNDS / "total-4x4-max4.json"), depth=1)
    codes = verify.codes(4, 4, True)
    for data in parts:
        doc = json.loads(data)
        S = codes
        for guess, key in doc["root"]["path"]:
            S = [s for s in S if "%d,%d" % verify.feedback(guess, s) == key]
        idle = next((g for g in codes if len({verify.feedback(g, s) for s in S}) == 1
                     and verify.feedback(g, S[0]) != (4, 0)), None)
        if idle is None:
            continue
        doc["root"]["path"].append([idle, "%d,%d" % verify.feedback(idle, S[0])])
        bad = dumps(doc)
        alone = verify_bound.verdict_bytes(bad, "deeper.json")
        if not alone.valid:  # (the proof may not hold with one guess fewer: then refused as invalid)
            continue
        assert alone.root["set"] == verify_bound.verdict_bytes(data).root["set"]
        report = combined(main.replace(sha(data).encode(), sha(bad).encode()),
                          [bad] + [p for p in parts if p != data])
        assert not report.valid and "at depth 2, the class at depth 1" in report.error
        return
    pytest.fail("no part with an idle guess")


def test_a_lemma_reference_to_an_empty_class_is_refused(split44):
    main, parts = split44
    doc = json.loads(main)
    guess, key, r = lemmas_of(main)[0]
    doc["nodes"][0]["guesses"][guess]["4,0" if False else "3,1" if key != "3,1" else "2,2"] = dict(r)
    report = combined(dumps(doc), parts)
    assert not report.valid and "an empty class" in report.error


def test_malformed_lemma_references_and_roots_are_refused(split44):
    main, parts = split44
    guess, key, r = lemmas_of(main)[0]
    for bad_ref, words in [({"lemma": "ABC", "bound": 3}, "64 lowercase hex digits"),
                           ({"lemma": r["lemma"], "bound": -1}, "must be >= 0"),
                           ({"lemma": r["lemma"]}, "missing field 'bound'"),
                           ({"lemma": r["lemma"], "bound": 3, "node": 1}, "unknown field")]:
        doc = json.loads(main)
        doc["nodes"][0]["guesses"][guess][key] = bad_ref
        report = verify_bound.check_bytes(dumps(doc))
        assert not report.valid and words in report.error, report.error
    for root, words in [({"path": [["0011"]]}, "two strings"), ({"path": [["0011", "4,0"]]}, "the win"),
                        ({"path": [["9999", "1,0"]]}, "not a code"), ({"path": []}, None),
                        ({"path": [["0011", "1,0"]], "x": 1}, "unknown field"),
                        ({"path": [["0000", "0,1"]]}, "an empty class")]:
        doc = json.loads(parts[0])
        doc["root"] = root
        report = verify_bound.verdict_bytes(dumps(doc))
        if words:
            assert not report.valid and words in report.error, report.error


def test_a_part_or_a_full_proof_is_not_a_main_file_and_a_full_proof_is_not_a_part(split44):
    main, parts = split44
    alone = verify_bound.check_bytes(parts[0], "part.json")
    assert not alone.valid and alone.status == 1 and "a part of a split proof" in alone.error
    full = (BOUNDS / "total-4x4.json").read_bytes()
    report = combined(main, parts + [full])
    assert not report.valid and "not a part of a split proof" in report.error


def test_parts_leaning_on_each_other_in_a_cycle_are_never_accepted():
    """sha256 references cannot close a cycle without a hash fixed point; combine() refuses one
    anyway (a least fixed point): verdicts made up by hand, each valid under the other."""
    def verdict(name, digest, needs):
        r = verify_bound.Report(name)
        r.game, r.claims, r.sha256 = {"pegs": 2, "colors": 2, "repetition": True}, {"total": 5}, digest
        r.root = {"path": [], "perm": None, "depth": 0, "secrets": 4, "set": "s" + digest, "bound": 9}
        r.assumptions = [{"lemma": needs, "set": "s" + needs, "depth": 0, "bound": 1, "secrets": 4, "at": name}]
        return r
    a, b = verdict("a", "a" * 64, "b" * 64), verdict("b", "b" * 64, "a" * 64)
    main = verdict("main", "c" * 64, "a" * 64)
    main.root = None
    report = verify_bound.combine(main, [a, b])
    assert not report.valid and "a cycle" in report.error
    b.assumptions = []  # break the cycle: both accepted
    assert verify_bound.combine(main, [a, b]).valid


# -- command lines -----------------------------------------------------------------------------

def certify(*args):
    """`certify ARGS` in this process (conftest.run_here: no interpreter start for each of the calls)."""
    return run_here(*args)


def checker(*args):
    return subprocess.run([sys.executable, str(ROOT / "certify" / "verify_bound.py"), *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_command_lines(tmp_path):
    out = tmp_path / "parts"
    summary = write_split(BOUNDS / "total-4x4.json", out, depth=1)
    main, parts = Path(summary["main"]), [Path(p) for p in summary["parts"]]
    run = checker(main, *[x for p in parts for x in ("--part", p)], "--jobs", "2")
    assert run.returncode == 0 and "valid lower bound, a split proof" in run.stdout, run.stderr
    run = checker(main, "--parts", out, "--json")
    doc = json.loads(run.stdout)
    assert run.returncode == 0 and doc["results"][0]["valid"] and len(doc["results"][0]["parts"]) == len(parts)
    assert doc["results"][0]["sha256"] == sha(main.read_bytes())
    # the main file alone: not proven, exit 1, the claim never printed as proven
    for run in (checker(main), certify("verify", main)):
        assert run.returncode == 1 and run.stdout == "" and "not proven" in run.stderr
        assert "valid lower bound" not in run.stderr
    run = certify("verify", main, "--parts", out, "--json", "--jobs", "2")
    assert run.returncode == 0 and json.loads(run.stdout)["results"][0]["kind"] == "lower-bound"
    # a strategy beside the split proof
    run = certify("verify", ROOT / "certificates" / "optimal-total-4x4.json", "--optimal", main, "--parts", out)
    assert run.returncode == 0 and run.stdout.splitlines()[-1].startswith("optimal"), run.stdout + run.stderr
    # a missing part, a missing folder, a bad --jobs: one line each
    run = certify("verify", main, "--part", parts[0])
    assert run.returncode == 1 and len(run.stderr.splitlines()) == 1 and "no part among the 1 given" in run.stderr
    run = certify("verify", main, "--parts", tmp_path / "nowhere")
    assert run.returncode == 2 and len(run.stderr.splitlines()) == 1 and "Traceback" not in run.stderr
    run = checker(main, "--parts", tmp_path / "nowhere")
    assert run.returncode == 2 and len(run.stderr.splitlines()) == 1 and "Traceback" not in run.stderr
    run = certify("verify", main, "--jobs", "2")
    assert run.returncode == 2 and "--jobs" in run.stderr
    # splitting into a folder that holds certificates is refused
    run = certify("split-proof", BOUNDS / "total-3x3.json", "--depth", "1", "-o", out)
    assert run.returncode == 2 and "already holds" in run.stderr


def test_the_number_of_assumptions_is_limited(split44, monkeypatch):
    main, parts = split44
    monkeypatch.setattr(verify_bound, "MAX_ASSUMPTIONS", 3)
    report = verify_bound.verdict_bytes(main, "main.json")
    assert not report.valid and "distinct lemma assumptions (the limit)" in report.error


def test_combining_a_long_chain_of_parts_takes_linear_time():
    """Parts that lean on one another in a chain, given in the worst order: the least fixed point is
    found by a worklist (each part examined once all it names are accepted), not by rounds over
    every part (quadratic: 200 s for this chain). A broken link refuses the whole, named."""
    import time

    def verdict(name, digest, needs):
        r = verify_bound.Report(name)
        r.game, r.claims, r.sha256 = {"pegs": 2, "colors": 2, "repetition": True}, {"total": 5}, digest
        r.root = {"path": [], "perm": None, "depth": 0, "secrets": 4, "set": "s" + digest, "bound": 9}
        r.assumptions = [] if needs is None else [{"lemma": needs, "set": "s" + needs, "depth": 0, "bound": 1,
                                                   "secrets": 4, "at": name}]
        return r
    k = 20_000
    shas = [f"{i:064x}" for i in range(k)]
    parts = [verdict(f"p{i}", shas[i], shas[i + 1] if i + 1 < k else None) for i in range(k)]
    main = verdict("main", "c" * 64, shas[0])
    main.root = None
    start = time.process_time()
    report = verify_bound.combine(main, parts)
    assert report.valid and len(report.parts) == k
    assert time.process_time() - start < 10
    parts[k // 2].root = dict(parts[k // 2].root, bound=0)  # proves less than the 1 used
    report = verify_bound.combine(main, parts)
    assert not report.valid and f"part p{k // 2} does not prove it: it proves 0, less than the 1 used" in report.error
    assert f"[{k // 2 - 12} more parts]" in report.error and len(report.error) < 1000  # one short line
