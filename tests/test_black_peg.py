"""Black-peg Mastermind (issue 37): the black-only feedback rule, end to end.

The rule is scored three ways that share no code (the builder's tables, verify.py's count of equal
pegs, verify_bound.py's table) and compared here with a fourth, the one-line definition below. The
committed results (certificates/black-peg/) are each checked, the strategy against its proof, and
the small games' values are recomputed by an exhaustive search written here (no engine code).
"""

from __future__ import annotations

import functools
import itertools
import json
import subprocess
import sys
from pathlib import Path

import bound_reference
import numpy as np
import pytest

from certify import verify, verify_bound, verify_mixed
from certify.build import build_tree
from certify.certificate import make_certificate
from certify.errors import CertifyError
from certify.game import Game
from certify.strategies import get_strategy

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "certificates" / "black-peg"
CERTIFY = [sys.executable, "-m", "certify"]


def blacks(g: str, s: str) -> int:
    """The definition: the pegs of the right colour in the right place."""
    return sum(a == b for a, b in zip(g, s))


def codes(pegs: int, colors: int, repetition: bool) -> list[str]:
    letters = "0123456789"[:colors]
    every = itertools.product(letters, repeat=pegs) if repetition else itertools.permutations(letters, pegs)
    return ["".join(t) for t in every]


@functools.lru_cache(maxsize=None)
def _oracle(pegs: int, colors: int, repetition: bool):
    """(worst, total): the least worst case and least total of a set of secrets, by exhaustive search
    over every code as the next guess (a guess that splits nothing is never useful)."""
    every = codes(pegs, colors, repetition)

    def parts(g, S):
        out: dict = {}
        for s in S:
            out.setdefault(blacks(g, s), []).append(s)
        out.pop(pegs, None)  # the win
        return [frozenset(p) for p in out.values()]

    @functools.lru_cache(maxsize=None)
    def worst(S: frozenset) -> int:
        if len(S) == 1:
            return 1
        best = len(S) + 1
        for g in every:
            split = parts(g, S)
            if any(len(p) == len(S) for p in split):
                continue
            best = min(best, 1 + max((worst(p) for p in split), default=0))
        return best

    @functools.lru_cache(maxsize=None)
    def total(S: frozenset) -> int:
        if len(S) == 1:
            return 1
        best = None
        for g in every:
            split = parts(g, S)
            if any(len(p) == len(S) for p in split):
                continue
            t = len(S) + sum(total(p) for p in split)
            best = t if best is None else min(best, t)
        return best

    return worst, total, frozenset(every)


def optimum(pegs: int, colors: int, repetition: bool, kind: str) -> int:
    worst, total, every = _oracle(pegs, colors, repetition)
    return worst(every) if kind == "worst" else total(every)


# -- the rule ------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", [(3, 4, True), (4, 3, True), (3, 5, False), (2, 6, True)])
def test_the_three_scorings_of_black_only_agree_with_the_definition(game):
    pegs, colors, rep = game
    every = codes(pegs, colors, rep)
    want = np.array([[blacks(g, s) for s in every] for g in every])
    builder = Game(pegs, colors, rep, "black-only")
    assert builder.texts(range(builder.size)) == every
    fb = builder.feedback(np.arange(builder.size), np.arange(builder.size))
    assert np.array_equal(fb, want * (pegs + 1))  # encoded (black, 0)
    assert {builder.key_text(f) for f in np.unique(fb)} == {str(b) for b in np.unique(want)}
    assert all(verify.blacks(g, s) == (blacks(g, s), 0) for g in every for s in every)
    checker = verify_bound.Game(pegs, colors, rep, True)
    keys = np.array(checker.keys + [str(pegs)])  # class -> key, the win last
    assert np.array_equal(keys[checker.table].astype(int), want)


def test_a_black_white_game_is_unchanged_and_its_json_has_no_rule():
    assert Game(4, 6).to_json() == {"pegs": 4, "colors": 6, "repetition": True}
    assert Game(4, 6, True, "black-only").to_json() == {"pegs": 4, "colors": 6, "repetition": True,
                                                        "feedback": "black-only"}
    assert Game(4, 6).key() == (4, 6, True) and Game(*Game(4, 6, False, "black-only").key()).black_only
    assert Game(4, 6, True, "black-only").slug == "4x6-black"
    with pytest.raises(CertifyError, match="unknown feedback rule 'black'"):
        Game(4, 6, True, "black")


def test_the_builder_writes_the_rule_only_for_black_only():
    """The classic certificates stay byte-identical: the committed knuth-3x3.json is rebuilt."""
    from certify.certificate import dumps

    cert = make_certificate(get_strategy("knuth")(Game(3, 3)))
    assert dumps(cert) == (ROOT / "certificates" / "knuth-3x3.json").read_bytes()
    black = make_certificate(get_strategy("knuth")(Game(3, 3, True, "black-only")))
    assert black["game"]["feedback"] == "black-only"
    assert set(black["tree"]["next"]) <= {"0", "1", "2"}
    report = verify.verify_document(black, verify.Report("knuth 3x3 black-only"))
    assert report.valid and report.game["feedback"] == "black-only"
    assert "black-only" in report.line()


@pytest.mark.parametrize("strategy", ["knuth", "most-parts", "entropy", "expected-size", "consistent-first",
                                      "last-guess"])
def test_heuristic_strategies_build_valid_black_only_trees_both_engines(strategy):
    """The compiled loops (engine kernel) and numpy give the same tree under the black-only rule."""
    game = Game(3, 5, True, "black-only")
    cls = get_strategy(strategy)
    trees = []
    for engine in (("numpy", "kernel") if hasattr(cls, "kernel_kind") and cls.kernel_kind else (None,)):
        s = cls(game, engine=engine) if engine else cls(game)
        tree, hist = build_tree(s)
        trees.append(tree)
        cert = make_certificate(s)
        assert verify.verify_document(cert, verify.Report(strategy)).valid
    assert all(t == trees[0] for t in trees)


def test_viaud_refuses_black_only():
    with pytest.raises(CertifyError, match="viaud"):
        get_strategy("viaud")(Game(4, 6, True, "black-only"))


# -- refusals: an unknown rule, keys of the other rule ------------------------------------------------

def _black_cert() -> dict:
    return json.loads((FOLDER / "optimal-worst-case-3x3-black.json").read_bytes())


@pytest.mark.parametrize("rule", ["black_only", "Black-only", "black-only ", "", "white\x1b[31m"])
def test_every_checker_refuses_an_unknown_rule_by_name(rule):
    cert = _black_cert()
    cert["game"]["feedback"] = rule
    report = verify.verify_document(cert, verify.Report("x"))
    assert not report.valid and report.error.startswith("game.feedback: unknown feedback rule")
    assert "\x1b" not in report.line() and "\n" not in report.line()
    proof = json.loads((FOLDER / "worst-case-3x3-black.json").read_bytes())
    proof["game"]["feedback"] = rule
    report = verify_bound.check_bytes(json.dumps(proof).encode())
    assert not report.valid and report.error.startswith("game.feedback: unknown feedback rule")
    mixed = {"format": verify_mixed.FORMAT, "version": verify_mixed.VERSION, "game": dict(cert["game"]),
             "mix": verify_mixed.MIX, "claims": {"value": "1"},
             "strategies": [{"probability": "1", "tree": cert["tree"]}]}
    report = verify_mixed.check_bytes(json.dumps(mixed).encode())
    assert not report.valid and "game.feedback: unknown feedback rule" in report.error


def test_the_rule_must_be_a_string():
    cert = _black_cert()
    cert["game"]["feedback"] = ["black-only"]
    report = verify.verify_document(cert, verify.Report("x"))
    assert not report.valid and "game.feedback" in report.error


def test_a_black_only_tree_relabelled_black_white_and_back_is_refused():
    cert = _black_cert()
    del cert["game"]["feedback"]  # the tree's keys "1" are no black-white keys
    report = verify.verify_document(cert, verify.Report("x"))
    assert not report.valid and "malformed feedback key '" in report.error and "'B,W'" in report.error
    classic = json.loads((ROOT / "certificates" / "knuth-3x3.json").read_bytes())
    classic["game"]["feedback"] = "black-only"
    report = verify.verify_document(classic, verify.Report("x"))
    assert not report.valid and "(the game is black-only)" in report.error
    classic["game"]["feedback"] = "black-white"  # stated explicitly: the same game as without it
    assert verify.verify_document(classic, verify.Report("x")).valid


def test_black_white_keys_in_a_black_only_proof_are_refused():
    proof = json.loads((FOLDER / "worst-case-3x3-black.json").read_bytes())
    text = json.dumps(proof)
    for b in range(3):
        text = text.replace(f'"{b}":', f'"{b},0":')
    report = verify_bound.check_bytes(text.encode())
    assert not report.valid and "malformed feedback key" in report.error
    del proof["game"]["feedback"]  # a black-only proof read as black-white
    report = verify_bound.check_bytes(json.dumps(proof).encode())
    assert not report.valid


@pytest.mark.parametrize("game", [(2, 2, True), (3, 2, True), (2, 3, True), (2, 4, False)])
def test_a_counting_proof_relabelled_is_judged_by_its_rule(game):
    """One-node proofs by counting, under each rule (b = p classes for black-only, fewer than for
    black-white): the count of the codes is accepted, and nothing above the truth under the file's
    rule (the exhaustive searches here and in bound_reference) ever is."""
    pegs, colors, rep = game
    n = len(codes(*game))
    from certify.search.counting import Counting

    for rule in ("black-white", "black-only"):
        k = Counting(pegs, colors, rep, rule == "black-only").worst(n)
        for claimed in (k, k + 1):
            doc = {"format": verify_bound.FORMAT, "version": 1, "claims": {"worst_case": claimed},
                   "game": Game(pegs, colors, rep, rule).to_json(), "nodes": [{"bound": claimed}]}
            report = verify_bound.check_bytes(json.dumps(doc).encode())
            if report.valid:  # never more than the truth under the file's rule
                truth = (optimum(pegs, colors, rep, "worst") if rule == "black-only" else
                         bound_reference.optimum(pegs, colors, rep, frozenset(codes(*game)), "worst"))
                assert claimed <= truth
            if claimed == k:  # what counting the codes alone shows
                assert report.valid, report.error


# -- the committed results ------------------------------------------------------------------------------

def _results():
    out = []
    for proof in sorted(FOLDER.glob("*.json*")):
        if proof.name.startswith(("worst-case-", "total-")):
            out.append((proof, FOLDER / f"optimal-{proof.name.removesuffix('.gz')}"))
    return out


RESULTS = _results()
#: The suite checks the proofs up to this size (a few seconds each); `make verify` checks them all (the
#: least-total proof of 3x6 alone takes a minute).
SUITE_BYTES = 300_000


def test_the_results_are_there():
    names = {p.name for p, _ in RESULTS}
    for g in ("2x2", "2x10", "3x2", "3x6", "4x2", "4x4", "5x3", "2x2-norep", "3x10-norep", "4x8-norep", "5x6-norep"):
        assert f"worst-case-{g}-black.json" in names or f"worst-case-{g}-black.json.gz" in names, g


@pytest.mark.parametrize("proof,strategy", [r for r in RESULTS if r[0].stat().st_size <= SUITE_BYTES],
                         ids=[p.name for p, _ in RESULTS if p.stat().st_size <= SUITE_BYTES])
def test_each_result_is_a_checked_proof_met_by_a_checked_strategy(proof, strategy):
    bound = verify_bound.check_file(str(proof))
    assert bound.valid, bound.error
    assert bound.game["feedback"] == "black-only"
    plan = verify.verify_file(str(strategy))
    assert plan.valid, plan.error
    assert plan.game == bound.game
    if "worst_case" in bound.claims:
        assert plan.replayed["max_guesses"] == bound.claims["worst_case"]
    else:
        assert plan.replayed["total_guesses"] == bound.claims["total"]


SMALL = [(2, 2, True), (2, 3, True), (2, 4, True), (3, 2, True), (3, 3, True), (4, 2, True), (2, 3, False),
         (2, 4, False), (3, 3, False), (3, 4, False)]


@pytest.mark.parametrize("game", SMALL, ids=[f"{p}x{c}{'' if r else '-norep'}" for p, c, r in SMALL])
def test_the_small_games_values_equal_an_exhaustive_search(game):
    pegs, colors, rep = game
    slug = f"{pegs}x{colors}{'' if rep else '-norep'}-black"
    for kind, name, field in (("worst", f"worst-case-{slug}.json", "worst_case"), ("total", f"total-{slug}.json", "total")):
        claims = json.loads((FOLDER / name).read_bytes())["claims"]
        assert claims[field] == optimum(pegs, colors, rep, kind), (name, kind)


def test_bound_and_build_take_feedback_on_the_command_line(tmp_path):
    out, strat = tmp_path / "w.json", tmp_path / "s.json"
    run = subprocess.run(CERTIFY + ["bound", "--worst", "--pegs", "2", "--colors", "4", "--feedback", "black-only",
                                    "-q", "-o", str(out), "--strategy-out", str(strat), "--json"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["game"]["feedback"] == "black-only"
    assert json.loads(out.read_bytes())["claims"]["worst_case"] == optimum(2, 4, True, "worst")
    run = subprocess.run(CERTIFY + ["build", "knuth", "--pegs", "2", "--colors", "4", "--feedback", "black-only",
                                    "-q", "-o", str(tmp_path / "k.json")], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    run = subprocess.run(CERTIFY + ["bound", "--worst", "--feedback", "black", "-o", str(out)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2 and "invalid choice: 'black'" in run.stderr and "Traceback" not in run.stderr


# -- attacks on black-only proofs: the rule change composed with the old mutations -------------------

ATTACKED = ["total-2x3-black", "total-2x4-black", "worst-case-3x3-black", "total-3x3-black", "total-3x2-black",
            "total-3x4-norep-black", "worst-case-2x4-norep-black"]


def _proof_mutant(doc: dict, rng) -> tuple[dict, list]:
    """1 to 3 composed changes: a bound raised (the root's and its claim above all), a class key
    renamed (within the rule, or to the black-white form), an entry dropped, a reference redirected,
    a same_as permutation changed, the rule relabelled (dropped, black-white, an unknown name)."""
    doc = json.loads(json.dumps(doc))
    nodes, ops = doc["nodes"], []
    claim = "worst_case" if "worst_case" in doc["claims"] else "total"
    pegs = doc["game"]["pegs"]
    for _ in range(rng.randint(1, 3)):
        op = rng.choice(["raise", "raise", "key", "drop", "redirect", "perm", "rule", "rule"])
        i = rng.randrange(len(nodes))
        entries = [(g, e) for g, e in nodes[i].get("guesses", {}).items() if "same_as" not in e]
        if op == "raise":
            i = 0 if rng.random() < 0.6 else i
            nodes[i]["bound"] += rng.choice([1, 1, 2, 5])
            if i == 0:
                doc["claims"][claim] = nodes[0]["bound"]
        elif op == "key" and entries:
            g, e = rng.choice(entries)
            old = rng.choice(sorted(e))
            new = rng.choice([str(b) for b in range(pegs + 1)] + [f"{old},0", f"{old},1"])
            e[new] = e.pop(old)
        elif op == "drop" and nodes[i].get("guesses"):
            nodes[i]["guesses"].pop(rng.choice(sorted(nodes[i]["guesses"])))
        elif op == "redirect" and entries:
            g, e = rng.choice(entries)
            k = rng.choice(sorted(e))
            if type(e[k]) is int and len(nodes) > i + 1:
                e[k] = rng.randrange(i + 1, len(nodes))
        elif op == "perm":
            same = [e for e in nodes[i].get("guesses", {}).values() if "same_as" in e]
            if same:
                tau = rng.choice(same)["perm"]["colors"]
                a, b = rng.sample(range(len(tau)), 2)
                tau[a], tau[b] = tau[b], tau[a]
        elif op == "rule":
            change = rng.choice(["drop", "black-white", "black_only", "Black-only"])
            if change == "drop":
                doc["game"].pop("feedback", None)
            else:
                doc["game"]["feedback"] = change
        ops.append(op)
    return doc, ops


@pytest.mark.parametrize("name", ATTACKED)
def test_composed_mutants_of_black_only_proofs_never_prove_a_false_claim(name):
    """Every accepted mutant's claim is at most the truth under the rule it states: the exhaustive
    search here for black-only, bound_reference's for a proof relabelled black-white."""
    import random

    doc = json.loads((FOLDER / f"{name}.json").read_bytes())
    g = doc["game"]
    pegs, colors, rep = g["pegs"], g["colors"], g["repetition"]
    every = frozenset(codes(pegs, colors, rep))
    rng = random.Random(f"37:{name}")
    kind = "worst" if "worst_case" in doc["claims"] else "total"
    truth = {"black-only": optimum(pegs, colors, rep, kind)}
    accepted = rejected = 0
    for _ in range(150):
        mutant, ops = _proof_mutant(doc, rng)
        report = verify_bound.check_bytes(json.dumps(mutant).encode())
        if not report.valid:
            rejected += 1
            assert report.error and "\n" not in report.error
            continue
        accepted += 1
        rule = mutant["game"].get("feedback", "black-white")
        if rule not in truth:
            truth[rule] = bound_reference.optimum(pegs, colors, rep, every, kind)
        claimed = mutant["claims"]["worst_case" if kind == "worst" else "total"]
        assert claimed <= truth[rule], (ops, rule, claimed, truth[rule])
    assert rejected > 50 and accepted > 0  # not vacuous either way


@pytest.mark.parametrize("strategy", ["knuth", "entropy"])
def test_the_symmetry_filter_keeps_the_black_only_choice(strategy):
    """Scoring one guess per set of alike guesses (peg and colour permutations that fix the history)
    picks the same guesses as scoring every code: the permutations keep the black-only answer."""
    game = Game(3, 4, True, "black-only")
    cls = get_strategy(strategy)
    with_filter, _ = build_tree(cls(game, symmetry=True, engine="numpy"))
    without, _ = build_tree(cls(game, symmetry=False, engine="numpy"))
    assert with_filter == without


def test_a_mixed_strategy_replays_its_trees_under_the_files_rule():
    """verify_mixed hands its game, rule included, to verify.py for each tree: a black-only tree is
    accepted in a black-only mixture and refused in the same mixture relabelled black-white."""
    cert = make_certificate(get_strategy("knuth")(Game(2, 3, True, "black-only")))
    worst = cert["claims"]["max_guesses"]
    mixed = {"format": verify_mixed.FORMAT, "version": verify_mixed.VERSION, "game": dict(cert["game"]),
             "mix": verify_mixed.MIX, "claims": {"value": str(worst)},
             "strategies": [{"probability": "1", "tree": cert["tree"]}]}
    report = verify_mixed.check_bytes(json.dumps(mixed).encode())
    assert report.valid, report.error
    assert "black-only" in report.line()
    del mixed["game"]["feedback"]
    report = verify_mixed.check_bytes(json.dumps(mixed).encode())
    assert not report.valid and "malformed feedback key" in report.error


# -- play: a black-peg certificate guesses, the person answers one number ---------------------------

def _play(answers: str):
    import io

    from certify import play

    cert = json.loads((FOLDER / "optimal-worst-case-2x3-black.json").read_bytes())
    out = io.StringIO()
    status = play.play_tree(cert, io.StringIO(answers), out, colour=False)
    return status, out.getvalue()


@pytest.mark.parametrize("secret", codes(2, 3, True))
def test_play_finds_every_secret_from_black_peg_answers(secret):
    """Answered honestly (the black pegs, one number), play finds each secret within the claim."""
    from certify import play

    cert = json.loads((FOLDER / "optimal-worst-case-2x3-black.json").read_bytes())
    node, answers = cert["tree"], []
    while True:
        b = blacks(node["guess"], secret)
        answers.append(str(b))
        if b == 2:
            break
        node = node["next"][str(b)]
    status, text = _play("\n".join(answers) + "\n")
    assert status == 0 and f"found {secret} in {len(answers)} guess" in text
    assert len(answers) <= cert["claims"]["max_guesses"]
    assert [row[1] for row in play._tree_game(cert, secret)] == [(int(a), 0) for a in answers]


def test_play_takes_one_number_and_names_the_wrong_black_peg_answer():
    status, text = _play("2,0\n0\n2\n22\n")
    assert "'2,0' is not an answer of black-peg Mastermind: the number of black pegs, 0 to 2 (e.g. 2); try again" in text
    assert "you answered 2; for 22 it is 0" in text and status == 1


def test_explain_and_hint_read_a_black_peg_certificate(tmp_path):
    from certify.report import explain_secret

    cert = json.loads((FOLDER / "optimal-worst-case-3x3-black.json").read_bytes())
    lines, steps = explain_secret(cert, "212")
    assert lines[0].endswith("on 3 pegs x 3 colours, black pegs only")
    assert [s["guess"] for s in steps][-1] == "212" and all(s["white"] == 0 for s in steps)
    assert all(blacks(s["guess"], "212") == s["black"] for s in steps)
    assert lines[-1].split()[2] == "3"  # the win written "3", not "3,0"
    path = str(FOLDER / "optimal-worst-case-3x3-black.json")
    # (html, render and export draw it: tests/test_html_black_peg.py, tests/test_render_black_peg.py)
    # hint follows it under its own rule (issue 43: it used to refuse it; the API computed black-and-white)
    run = subprocess.run(CERTIFY + ["hint", "--certificate", path, f"{cert['tree']['guess']}=0", "--json"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    assert doc["source"] == "certificate" and doc["guess"] == cert["tree"]["next"]["0"]["guess"]
    assert set(doc["partition"]) <= {"0", "1", "2", "3"}  # black pegs (3: the win), never "b,w"


def test_why_explains_a_black_peg_proof_with_its_answers():
    from certify.why import explain_bytes, text_lines

    raw = (FOLDER / "worst-case-3x4-black.json").read_bytes()
    report, why = explain_bytes(raw, "worst-case-3x4-black.json", 1, 5, None)
    assert report.valid and why is not None
    text = "\n".join(text_lines(why))
    assert "with black-only answers" in text and "besides the win (3)" in text
    assert "3 answers besides the win" in text  # b = p = 3
    assert "-(1,0)->" not in text and "-(0)->" in text


def test_the_api_takes_the_rule():
    import certify

    cert = certify.build_certificate("knuth", pegs=2, colors=4, feedback="black-only")
    assert cert.game == {"pegs": 2, "colors": 4, "repetition": True, "feedback": "black-only"}
    proof = certify.bound(pegs=2, colors=4, kind="worst", feedback="black-only")
    assert str(proof) == "every strategy for 2x4 with black-only answers needs >= 5 guesses for some secret"
    with pytest.raises(CertifyError, match="unknown feedback rule"):
        certify.bound(pegs=2, colors=4, feedback="black")
