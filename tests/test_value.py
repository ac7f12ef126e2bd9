"""The game value (issue 23, part 2): the codemaker's weighted lower bound and the codebreaker's
mixed strategy, each checked by its trusted checker, must meet.

Known answers come from an oracle written here, independently of certify's search and LP: for the
tiniest games (two orbits of codes) it enumerates every strategy's Pareto-minimal vectors of
summed depths per orbit (no pruning, every code a guess), and the value of the symmetrised game is
min over mixtures of the larger orbit mean, found exactly on the segments between those points.
The verifier must refuse a mixed certificate changed by the smallest amount: a claimed value just
below the maximum, probability moved between trees, a tree's guess edited; the weighted checker a
bound raised by one and a weight lowered by one.
"""

from __future__ import annotations

import ast
import copy
import functools
import itertools
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from certify import verify, verify_bound, verify_mixed
from certify.commands.value import compare_value
from certify.search.weighted import Solver, Space
from certify.value import exact_game, game_value, mixed_document
from conftest import checked_bound, run_here

ROOT = Path(__file__).resolve().parent.parent
VALUES = ROOT / "certificates" / "value"


# -- an independent oracle for games of two orbits ----------------------------------------------------

def _orbit_of(code: str) -> tuple:
    return tuple(sorted((code.count(c) for c in set(code)), reverse=True))


def _pareto(points):
    points = set(points)
    return [p for p in points if not any(q != p and all(a <= b for a, b in zip(q, p)) for q in points)]


def oracle_value(pegs: int, colors: int, black_only: bool = False) -> Fraction:
    """The value, by brute force, for a game with repetition whose codes form two orbits (under
    the black-only rule with ``black_only``: the answer is the verifier's black pegs alone)."""
    codes = verify.codes(pegs, colors, True)
    keys = sorted({_orbit_of(c) for c in codes}, key=lambda k: -k[0])
    assert len(keys) == 2
    orbit = {c: keys.index(_orbit_of(c)) for c in codes}
    sizes = [sum(1 for c in codes if orbit[c] == o) for o in range(2)]
    memo = {}

    def frontier(S: frozenset):
        """Pareto-minimal (sum of depths over orbit 0, over orbit 1) of the strategies for S."""
        if S in memo:
            return memo[S]
        if len(S) == 1:
            (s,) = S
            out = [(1, 0) if orbit[s] == 0 else (0, 1)]
            memo[S] = out
            return out
        base = (sum(1 for s in S if orbit[s] == 0), sum(1 for s in S if orbit[s] == 1))
        found = []
        for g in codes:
            classes = {}
            for s in S:
                f = verify.blacks(g, s) if black_only else verify.feedback(g, s)
                if f != (pegs, 0):
                    classes.setdefault(f, []).append(s)
            if g not in S and len(classes) == 1:
                continue  # learns nothing: never on the frontier
            sums = [base]
            for C in classes.values():
                sums = _pareto(tuple(a + b for a, b in zip(x, y)) for x in sums for y in frontier(frozenset(C)))
            found.extend(sums)
        memo[S] = _pareto(found)
        return memo[S]

    points = [(Fraction(a, sizes[0]), Fraction(b, sizes[1])) for a, b in frontier(frozenset(codes))]
    best = min(max(p) for p in points)
    for (x1, y1), (x2, y2) in itertools.combinations(points, 2):
        d1, d2 = x1 - y1, x2 - y2
        if d1 * d2 < 0:  # the segment crosses x = y
            t = d1 / (d1 - d2)
            best = min(best, x1 + t * (x2 - x1))
    return best


@pytest.mark.parametrize("pegs,colors", [(2, 2), (2, 3), (3, 2), (2, 4)])
def test_value_of_the_tiniest_games_matches_the_brute_force_oracle(pegs, colors):
    result = game_value(pegs, colors)
    assert result.value == oracle_value(pegs, colors)
    assert Fraction(result.total, result.weight_sum) == result.value


@pytest.mark.parametrize("pegs,colors", [(2, 2), (2, 3), (3, 2), (2, 4)])
def test_black_peg_value_of_the_tiniest_games_matches_the_brute_force_oracle(pegs, colors):
    result = game_value(pegs, colors, feedback="black-only")
    assert result.value == oracle_value(pegs, colors, black_only=True)
    assert result.value != oracle_value(pegs, colors) or (pegs, colors) == (2, 2)  # the rule matters
    assert result.proof["game"]["feedback"] == "black-only"
    assert all(set(n) <= {"0", "1", "2", "3"} for t in mixed_document(result)["strategies"]
               for n in _keys(t["tree"]))  # black pegs, never "B,W"


def _keys(tree: dict):
    for key, child in tree.get("next", {}).items():
        yield key
        yield from _keys(child)


def test_two_by_three_matches_bonnet_and_viennot():
    """Bonnet and Viennot (2016), note 3: in 2x3 the codemaker plays each one-colour code with
    probability 1/6 and each two-colour code with 1/12."""
    result = game_value(2, 3)
    assert result.weights == [2, 1]
    assert result.value == Fraction(29, 12)
    probabilities = result.orbit_probabilities
    assert probabilities == {"00": Fraction(3, 6), "01": Fraction(6, 12)}


def test_without_repetition_the_value_is_the_least_total_over_the_codes():
    """One orbit: the uniform codemaker is optimal and the value is the least total / n, which the
    committed least-total certificate states (72 / 24 for 3x4 without repetition)."""
    committed = json.loads((ROOT / "certificates" / "optimal-total-3x4-norep.json").read_text())
    result = game_value(3, 4, False)
    assert result.space.k == 1 and result.weights == [1]
    assert result.value == Fraction(committed["claims"]["total_guesses"], committed["claims"]["secrets"]) == 3
    assert result.uniform_optimal


def test_the_search_reproduces_the_committed_least_totals():
    for name in ("2x5", "3x3", "4x3", "4x4-norep"):
        committed = json.loads((ROOT / "certificates" / f"optimal-total-{name}.json").read_text())
        pegs, colors = map(int, name.split("-")[0].split("x"))
        space = Space(pegs, colors, "norep" not in name)
        assert Solver(space, [1] * space.k).value() == committed["claims"]["total_guesses"], name


# -- the exact LP ----------------------------------------------------------------------------------

def test_exact_game_on_a_known_matrix():
    # rows minimise: [[1, 3], [2, 1]] has value 5/3 (p = (1/3, 2/3), q = (2/3, 1/3))
    A = [[Fraction(1), Fraction(3)], [Fraction(2), Fraction(1)]]
    v, p, q, _ = exact_game(A)
    assert v == Fraction(5, 3) and p == [Fraction(1, 3), Fraction(2, 3)] and q == [Fraction(2, 3), Fraction(1, 3)]


def test_the_exact_simplex_agrees_with_the_supports():
    from certify.value import _exact_simplex

    A = [[Fraction(x) for x in row] for row in ([3, 1, 4], [1, 5, 2], [2, 2, 6], [5, 1, 1])]
    v, p, q, _ = exact_game(A)
    assert _exact_simplex(A)[0] == v


# -- the orbits the verifier computes ---------------------------------------------------------------

@pytest.mark.parametrize("pegs,colors,rep", [(3, 3, True), (4, 3, True), (2, 4, True), (3, 4, False)])
def test_orbits_by_multiplicities_are_the_orbits_of_the_group(pegs, colors, rep):
    codes = verify.codes(pegs, colors, rep)
    by_group = {}
    for code in codes:
        images = frozenset("".join(verify.ALPHABET[tau[verify.ALPHABET.index(code[sigma[i]])]] for i in range(pegs))
                           for sigma in itertools.permutations(range(pegs))
                           for tau in itertools.permutations(range(colors)))
        by_group[code] = images
    groups = verify_mixed.orbits(pegs, colors, rep)
    for lowest, members in groups.items():
        assert set(members) == by_group[lowest] and lowest == min(members)


# -- the codebreaker's certificate and its verifier ----------------------------------------------------

@pytest.fixture(scope="module")
def three():
    result = game_value(3, 3)
    return result, mixed_document(result)


@pytest.fixture(scope="module")
def four_three():
    result = game_value(4, 3)
    return result, mixed_document(result)


def _check(doc):
    return verify_mixed.check_document(doc)


def test_the_mixed_certificate_is_valid_and_meets_the_weighted_bound(four_three):
    result, doc = four_three
    mixed = _check(doc)
    assert mixed.valid, mixed.error
    assert mixed.maximum == result.value == Fraction(doc["claims"]["value"])
    bound = verify_bound.check_bytes(json.dumps(result.proof).encode())
    assert bound.valid, bound.error
    compared = compare_value(mixed, bound)
    assert compared["proven"] and compared["value"] == doc["claims"]["value"]


def test_a_claimed_value_lowered_by_the_smallest_amount_is_refused(four_three):
    _, doc = four_three
    v = Fraction(doc["claims"]["value"])
    for lower in (v - Fraction(1, 10**30), Fraction(v.numerator * 10**6 - 1, v.denominator * 10**6)):
        bad = copy.deepcopy(doc)
        bad["claims"]["value"] = f"{lower.numerator}/{lower.denominator}"
        report = _check(bad)
        assert not report.valid and report.error.startswith("claims.value: claimed"), report.error
    higher = copy.deepcopy(doc)
    higher["claims"]["value"] = "4"
    assert _check(higher).valid  # a weaker claim still holds (and the exact maximum is reported)


@pytest.mark.parametrize("game", ["three", "four_three"])
def test_probability_moved_between_two_trees_is_refused(game, request):
    _, doc = request.getfixturevalue(game)
    assert len(doc["strategies"]) >= 2
    for i, j in itertools.permutations(range(len(doc["strategies"])), 2):
        for step in (Fraction(1, 1000), Fraction(1, 10**12)):
            bad = copy.deepcopy(doc)
            a, b = (Fraction(bad["strategies"][k]["probability"]) for k in (i, j))
            if a - step <= 0:
                continue
            bad["strategies"][i]["probability"] = str(a - step)
            bad["strategies"][j]["probability"] = str(b + step)
            report = _check(bad)
            assert not report.valid and "claims.value" in report.error, (i, j, step, report.error)


def test_probabilities_must_sum_to_one_and_be_written_exactly(three):
    _, doc = three
    bad = copy.deepcopy(doc)
    p = Fraction(bad["strategies"][0]["probability"])
    bad["strategies"][0]["probability"] = str(p + Fraction(1, 10**9))
    assert "sum to" in _check(bad).error
    for text, why in (("0.5", "not a fraction"), ("2/4", "lowest terms"), ("3/1", "lowest terms"),
                      ("-1/3", "not a fraction"), ("0", "> 0"), (0.5, "fraction string")):
        bad = copy.deepcopy(doc)
        bad["strategies"][0]["probability"] = text
        report = _check(bad)
        assert not report.valid and why in report.error, (text, report.error)


def _leaves(tree, path=()):
    if "next" not in tree:
        yield path
    for key, child in tree.get("next", {}).items():
        yield from _leaves(child, path + (key,))


def test_a_tree_edited_to_a_wrong_guess_is_refused(three):
    _, doc = three
    tree = doc["strategies"][0]["tree"]
    # the root's guess changed: the branches no longer fit
    bad = copy.deepcopy(doc)
    root = bad["strategies"][0]["tree"]
    root["guess"] = next(c for c in verify.codes(3, 3, True) if c != root["guess"])
    report = _check(bad)
    assert not report.valid and report.error.startswith("strategies[0].tree: "), report.error
    # a leaf's guess changed to another code: that secret is never found
    for path in itertools.islice(_leaves(tree), 3):
        bad = copy.deepcopy(doc)
        node = bad["strategies"][0]["tree"]
        for key in path:
            node = node["next"][key]
        node["guess"] = "222" if node["guess"] != "222" else "111"
        report = _check(bad)
        assert not report.valid and report.error.startswith("strategies[0].tree: at "), report.error


def test_a_valid_but_worse_tree_is_caught_by_the_value(three):
    """A tree swapped for another valid strategy: the file is still well formed, the value is not."""
    _, doc = three
    knuth = json.loads((ROOT / "certificates" / "knuth-3x3.json").read_text())
    bad = copy.deepcopy(doc)
    bad["strategies"][0]["tree"] = knuth["tree"]
    report = _check(bad)
    assert not report.valid and "claims.value" in report.error


def test_malformed_mixed_files_get_one_line():
    tree = {"guess": "00", "next": {"0,0": {"guess": "11"}, "1,0": {"guess": "01", "next": {"0,2": {"guess": "10"}}}}}
    base = {"format": verify_mixed.FORMAT, "version": 1, "game": {"pegs": 2, "colors": 2, "repetition": True},
            "mix": verify_mixed.MIX, "claims": {"value": "5/2"}, "strategies": [{"probability": "1", "tree": tree}]}
    report = _check(base)  # depths 1, 2, 2, 3: orbit 00 (00, 11) 3/2, orbit 01 (01, 10) 5/2
    assert report.valid and report.maximum == Fraction(5, 2), report.error
    cases = {
        b"[1]": "top level: expected object",
        b"{": "not valid JSON",
        b"[" * 100000: "nested too deeply",
        json.dumps(dict(base, mix="none")).encode(): "mix: expected",
        json.dumps(dict(base, version=2)).encode(): "version",
        json.dumps(dict(base, strategies=[])).encode(): "strategies: empty",
        json.dumps(dict(base, claims={"value": "2", "extra": 1})).encode(): "unknown field",
        json.dumps(dict(base, game={"pegs": 2, "colors": 200, "repetition": True})).encode(): "game.colors",
        json.dumps(dict(base, game={"pegs": 20, "colors": 9, "repetition": True})).encode(): "too many codes",
        json.dumps(dict(base, strategies=[{"probability": "1"}])).encode(): "missing field 'tree'",
        b'{"format": "mastermind-mixed-strategy", "format": "x"}': "duplicate key",
        json.dumps(dict(base, strategies=base["strategies"] * 1001)).encode(): "more than the limit",
    }
    for raw, why in cases.items():
        report = verify_mixed.check_bytes(raw)
        assert not report.valid and why in report.error and "\n" not in report.error, (raw[:60], report.error)
    dup_in_tree = json.dumps(base).replace('"guess": "00"', '"guess": "00", "guess": "00"', 1).encode()
    assert "duplicate key" in verify_mixed.check_bytes(dup_in_tree).error


def test_the_mixed_verifier_is_trusted_code():
    """Standard library only, and from certify only verify.py (as verify_bound.py)."""
    tree = ast.parse((ROOT / "certify" / "verify_mixed.py").read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add("." * node.level + (node.module or ""))
            if node.level:
                assert [a.name for a in node.names] == ["reader", "verify"]
    assert imported <= {"__future__", "json", "math", "os", "re", "sys", "fractions", "argparse", ".",
                        "reader", "verify"}, imported


# -- the codemaker's certificate and the weighted checker ------------------------------------------------

def test_a_weighted_bound_raised_by_one_is_refused(four_three):
    result, _ = four_three
    bad = copy.deepcopy(result.proof)
    bad["claims"]["total"] += 1
    bad["nodes"][0]["bound"] += 1
    report = verify_bound.check_bytes(json.dumps(bad).encode())
    assert not report.valid, "raised bound accepted"
    assert verify_bound.check_bytes(json.dumps(result.proof).encode()).valid


def test_a_weight_moved_by_one_breaks_the_value(four_three):
    """Lowered by one, the claimed total is above the new optimum: refused. Raised by one, the proof
    may still hold (a heavier secret only costs more), but the value is no longer proven."""
    result, doc = four_three
    space = result.space
    mixed = _check(doc)
    for o, name in enumerate(space.orbit_names):
        for step in (-1, 1):
            w = list(result.weights)
            w[o] += step
            if w[o] < 0:
                continue
            bad = copy.deepcopy(result.proof)
            bad["claims"]["weights"][name] = w[o]
            report = verify_bound.check_bytes(json.dumps(bad).encode())
            if step < 0 and Solver(space, w).value() < result.total:
                assert not report.valid, name
            if report.valid:
                assert not compare_value(mixed, report)["proven"], name


# -- the committed certificates -------------------------------------------------------------------------

PAIRS = sorted([*VALUES.glob("*-codebreaker.json"), *VALUES.glob("*-codebreaker.json.gz")])
#: The 4x6 pair (~7 s to check) is checked by its own test below, with the literature's figures: two
#: tests checking it each checked it again when the suite's workers split them.
PAIR_4X6 = VALUES / "value-4x6-codebreaker.json.gz"
#: Pairs whose check takes 8-30 s of CPU here (3x9, 3x10 and 5x4, found by the compiled weighted
#: search's proof; 3x10's codemaker file is 601 KB): `make atlas` checks them (python -m certify.atlas
#: write, as every file of the atlas); here their headers must state the same value.
SLOW_PAIRS = [p for p in PAIRS if p.name in {f"value-{g}-codebreaker.json.gz" for g in ("3x9", "3x10", "5x4")}]


def test_certificates_are_committed():
    assert len(PAIRS) >= 15 and PAIR_4X6 in PAIRS


@functools.lru_cache(maxsize=None)
def checked_mixed(path: str) -> verify_mixed.Report:
    """The mixed checker's report on a committed codebreaker file, once per test process. Reports are
    not changed."""
    return verify_mixed.check_file(path)


def _proven_pair(breaker: Path):
    """(mixed report, bound report) of a committed pair, both accepted and proving the value."""
    maker = breaker.with_name(breaker.name.replace("codebreaker", "codemaker"))
    assert maker.stat().st_size < 300_000  # (every pair is checked here: small enough)
    mixed = checked_mixed(str(breaker))
    bound = checked_bound(str(maker))
    assert mixed.valid, mixed.error
    assert bound.valid, bound.error
    assert compare_value(mixed, bound)["proven"]
    return mixed, bound


@pytest.mark.parametrize("breaker", [p for p in PAIRS if p != PAIR_4X6 and p not in SLOW_PAIRS],
                         ids=lambda p: p.name.replace("-codebreaker.json", ""))
def test_every_committed_pair_proves_its_value(breaker):
    _proven_pair(breaker)


@pytest.mark.parametrize("breaker", SLOW_PAIRS, ids=lambda p: p.name.replace("-codebreaker.json.gz", ""))
def test_the_slow_pairs_headers_state_one_value(breaker):
    """The pairs left to `make atlas` (SLOW_PAIRS): the codemaker's claimed total over its weights
    summed over every code is the codebreaker's claimed value, and the weights are not 0 and 1 (the
    weighted proof past 256 codes). Their check by both checkers: tests/test_atlas.py's table
    records what `make atlas` found, and that test compares each file's sha256 with it."""
    import gzip

    maker = breaker.with_name(breaker.name.replace("codebreaker", "codemaker"))
    mixed = json.loads(gzip.decompress(breaker.read_bytes()))
    bound = json.loads(gzip.decompress(maker.read_bytes()))
    game = bound["game"]
    assert mixed["game"] == game
    space = Space(game["pegs"], game["colors"], game["repetition"])
    weights = bound["claims"]["weights"]
    assert list(weights) == space.orbit_names and set(weights.values()) - {0, 1}
    total = sum(weights[name] * size for name, size in zip(space.orbit_names, space.orbit_size))
    assert Fraction(bound["claims"]["total"], total) == Fraction(mixed["claims"]["value"])


def test_4x6_the_claimed_value_5600_over_1290_is_proven_from_both_sides():
    """The claim of the literature: the codemaker plays uniformly over the 1290 codes that are not
    one colour; the codebreaker's mixture of trees (found by the compiled weighted search) averages
    at most 5600/1290 against every secret, the one-colour ones included. (The 4x6 pair of the test
    above: checked here only.)"""
    mixed, bound = _proven_pair(PAIR_4X6)
    assert bound.claims["total"] == 5600 and bound.weight_sum == 1290 and bound.support == 1290
    assert bound.claims["weights"] == {"0000": 0, "0001": 1, "0011": 1, "0012": 1, "0123": 1}
    assert mixed.maximum == Fraction(5600, 1290)
    assert compare_value(mixed, bound)["text"].startswith("game value v = 560/129 (≈ 4.3411), proven from both sides")


# -- the command line --------------------------------------------------------------------------------------

def certify(*args, cwd=ROOT):
    """`certify ARGS` in this process (conftest.run_here: no interpreter start for each of the calls)."""
    return run_here(*args, cwd=cwd)


def test_cli_value_and_verify(tmp_path):
    run = certify("value", "--pegs", 2, "--colors", 3, "-o", tmp_path / "v")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "game value v = 29/12 (≈ 2.4167), proven from both sides"
    maker, breaker = tmp_path / "v-codemaker.json", tmp_path / "v-codebreaker.json"
    run = certify("verify", breaker, "--value", maker)
    assert run.returncode == 0 and run.stdout.splitlines()[-1].startswith("game value v = 29/12"), run.stderr
    run = certify("verify", breaker, maker, "--json")
    doc = json.loads(run.stdout)
    assert run.returncode == 0 and [r["kind"] for r in doc["results"]] == ["mixed", "lower-bound"]
    run = certify("value", "--pegs", 2, "--colors", 3, "-o", tmp_path / "j", "--json", "-q")
    doc = json.loads(run.stdout)
    assert next(iter(doc)) == "value_version" and doc["value"] == "29/12" and doc["proven"]
    # a tampered mixed file: exit 1, one line
    bad = json.loads(breaker.read_text())
    bad["claims"]["value"] = "2"
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    run = certify("verify", tmp_path / "bad.json", "--value", maker)
    assert run.returncode == 1 and len(run.stderr.splitlines()) == 1 and "invalid: claims.value" in run.stderr
    # another game's bound, or an unweighted one: unusable (exit 2)
    run = certify("verify", breaker, "--value", ROOT / "certificates" / "bounds" / "total-2x3.json")
    assert run.returncode == 2 and "no weights" in run.stderr
    run = certify("verify", breaker, "--value", ROOT / "certificates" / "value" / "value-3x3-codemaker.json")
    assert run.returncode == 2 and "the lower bound is for 3x3" in run.stderr
    run = certify("verify", breaker, "--value", breaker)
    assert run.returncode == 2 and "not a lower-bound" in run.stderr
    run = certify("verify", breaker, "--max-guesses", 3)
    assert run.returncode == 2 and "mixed-strategy certificate" in run.stderr
    run = certify("value", "--pegs", 4, "--colors", 7)
    assert run.returncode == 2 and "at most 1296 codes" in run.stderr


def test_the_mixed_verifier_runs_alone_beside_verify_py(tmp_path):
    """Copied with verify.py and reader.py only into an empty folder and run with -E -s: nothing
    else of certify (nor numpy) is needed."""
    import shutil

    for name in ("verify.py", "reader.py", "verify_mixed.py"):
        shutil.copy(ROOT / "certify" / name, tmp_path / name)
    breaker = VALUES / "value-4x3-codebreaker.json"
    run = subprocess.run([sys.executable, "-E", "-s", str(tmp_path / "verify_mixed.py"), str(breaker)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert run.returncode == 0 and "valid mixed strategy" in run.stdout and "67/22" in run.stdout, run.stderr
    bad = json.loads(breaker.read_text())
    bad["claims"]["value"] = "3"
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    run = subprocess.run([sys.executable, "-E", "-s", str(tmp_path / "verify_mixed.py"), "--json", str(tmp_path / "bad.json")],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    report = json.loads(run.stdout)
    assert run.returncode == 1 and report["tool"] == "certify.verify_mixed"
    assert report["results"][0]["error"].startswith("claims.value: claimed 3")
    run = subprocess.run([sys.executable, "-E", "-s", str(tmp_path / "verify_mixed.py"), str(tmp_path / "missing.json")],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert run.returncode == 2 and "cannot read file" in run.stderr


def _committed_value(game: str) -> Fraction:
    """The value a committed pair proves (its mixed strategy's claim; the pair is checked above)."""
    import gzip

    path = next(VALUES.glob(f"value-{game}-codebreaker.json*"))
    raw = path.read_bytes()
    return Fraction(json.loads(gzip.decompress(raw) if path.suffix == ".gz" else raw)["claims"]["value"])


@pytest.mark.parametrize("pegs,colors", [(3, 3), (4, 2), (2, 3), (3, 2), (2, 4), (2, 5), (4, 3), (3, 4)])
def test_the_compiled_path_gives_the_same_values(monkeypatch, pegs, colors):
    """Past BITMASK_CODES the compiled weighted search answers and writes the codemaker's proof
    (3x8, 3x9, 3x10, 5x4, 4x6's path), here forced on small games: the committed values (found by
    the bitmask search) and, for the two-orbit games, the brute-force oracle's. 2x3, 2x5, 3x2,
    3x4 and 4x3 have equilibria whose weights are not 0 and 1 (2:1, 2:1:1, 0:3:3:2): their proofs
    come from WeightedSearch.prove; 3x3 and 4x2 (0/1) from the plain search from the support. Both
    files are checked by the trusted checkers."""
    from certify import value

    monkeypatch.setattr(value, "BITMASK_CODES", 4)
    result = value.game_value(pegs, colors, True)
    assert result.value == _committed_value(f"{pegs}x{colors}")
    if (pegs, colors) in ((2, 3), (3, 2), (2, 4)):
        assert result.value == oracle_value(pegs, colors)
    bound = verify_bound.check_bytes(json.dumps(result.proof).encode())
    assert bound.valid, bound.error
    assert Fraction(bound.claims["total"], bound.weight_sum) == result.value
    mixed = verify_mixed.check_bytes(json.dumps(mixed_document(result)).encode())
    assert mixed.valid and mixed.maximum == result.value, mixed.error


@pytest.mark.parametrize("pegs,colors,weights", [
    (3, 3, [2, 5, 1]), (3, 3, [0, 1, 3]), (3, 3, [7, 0, 2]), (2, 4, [3, 1]), (4, 2, [0, 2, 5]),
    (3, 4, [2, 1, 1]), (4, 3, [0, 3, 3, 2]), (2, 5, [1, 4]), (5, 2, [3, 1, 2])])
def test_the_compiled_weighted_proof_matches_the_bitmask_search(pegs, colors, weights):
    """WeightedSearch.prove (the compiled search's weighted proof) against the bitmask search
    (certify/search/weighted.py, another search and another proof writer): the same least weighted
    total, and the proof accepted by the lower-bound checker, tight (its claim raised by one is
    refused)."""
    from certify.game import Game
    from certify.search.proof import dumps
    from certify.search.wengine import WeightedSearch

    space = Space(pegs, colors)
    want = Solver(space, weights).value()
    doc = json.loads(dumps(WeightedSearch(Game(pegs, colors, True),
                                          [weights[space.orbit_of[i]] for i in range(space.n)]).prove()))
    assert doc["claims"] == {"total": want, "weights": dict(zip(space.orbit_names, weights))}
    report = verify_bound.check_bytes(json.dumps(doc).encode())
    assert report.valid, report.error
    doc["claims"]["total"] += 1
    doc["nodes"][0]["bound"] += 1
    assert not verify_bound.check_bytes(json.dumps(doc).encode()).valid
