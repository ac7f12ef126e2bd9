"""The checker proven in Coq (formal/, docs/formal.md): built with coqc and ocamlopt (installed by the
set-up), its proofs free of Admitted and axioms, and its verdicts against the Python checkers' on
small games and on the invalid corpora: it must refuse every false claim they refuse."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from certify import formal, verify_bound  # noqa: E402


@pytest.fixture(scope="module")
def built():
    """Build once (about 30 s): the Print Assumptions lines are the build's own check."""
    p = subprocess.run(["sh", "formal/build.sh"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr + p.stdout
    return p.stdout


def run(path):
    return formal.verify_files([path])


def test_build_proves_both_theorems_on_no_assumption(built):
    for thm in ("strategy_checker_sound", "bound_checker_sound"):
        assert f"Print Assumptions {thm}: Closed under the global context" in built
    assert formal.binary().exists()


def test_an_admitted_lemma_fails_the_build(tmp_path):
    shutil.copytree(ROOT / "formal", tmp_path / "formal")
    with open(tmp_path / "formal" / "Checkers.v", "a") as f:
        f.write("\nLemma cheat : False.\nProof. Admitted.\n")
    p = subprocess.run(["sh", "formal/build.sh"], cwd=tmp_path, capture_output=True, text=True)
    assert p.returncode != 0 and "unproven assumption" in p.stderr


@pytest.mark.parametrize("name", ["knuth-3x3.json", "knuth-4x4.json", "knuth-4x6.json"])
def test_committed_strategies_are_accepted(built, name, capsys):
    assert run(ROOT / "certificates" / name) == 0
    assert "accepted (verified checker)" in capsys.readouterr().out


def test_a_changed_histogram_or_maximum_is_refused(built, tmp_path):
    doc = json.loads((ROOT / "certificates" / "knuth-4x6.json").read_text())
    for change in ({"4": 534, "5": 693}, {"5": 695}):
        bad = json.loads(json.dumps(doc))
        bad["claims"]["histogram"].update(change)
        (tmp_path / "bad.json").write_text(json.dumps(bad))
        assert run(tmp_path / "bad.json") == 1
    bad = json.loads(json.dumps(doc))
    bad["claims"]["max_guesses"] = 4  # the histogram's 5 is then outside the claim
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    assert run(tmp_path / "bad.json") == 1


#: 4x7 without repetition leans on the counting bound without the answers that cannot occur there
#: (b + w < 2P - C: common_norep); it was refused before that lemma.
@pytest.mark.parametrize("name", ["worst-case-3x3.json", "worst-case-4x4.json", "worst-case-4x7-norep.json.gz"])
def test_committed_worst_case_bounds_are_accepted(built, name, capsys):
    assert run(ROOT / "certificates" / "bounds" / name) == 0
    assert "needs at least" in capsys.readouterr().out


def test_a_raised_worst_case_bound_is_refused(built, tmp_path):
    doc = json.loads((ROOT / "certificates" / "bounds" / "worst-case-4x4.json").read_text())
    doc["claims"]["worst_case"] += 1
    doc["nodes"][0]["bound"] += 1
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    assert run(tmp_path / "bad.json") == 1


def test_cli_option(built):
    p = subprocess.run([sys.executable, "-m", "certify", "verify", "--formal",
                        str(ROOT / "certificates" / "knuth-3x3.json")], capture_output=True, text=True)
    assert p.returncode == 0 and "accepted (verified checker)" in p.stdout
    p = subprocess.run([sys.executable, "-m", "certify", "verify", "--formal", "--optimal", "x.json",
                        str(ROOT / "certificates" / "knuth-3x3.json")], capture_output=True, text=True)
    assert p.returncode == 2 and "Traceback" not in p.stderr


#: Files of the invalid corpora whose *claims are true*: the Python checkers refuse them for a rule of
#: the format (metadata, unknown fields, branches no secret reaches, the strict same_as rule that
#: closed a hole in combination with orbits); the verified checker proves their claims. Any other
#: acceptance fails the tests below: a false claim refused by Python must be refused here too.
FORMAT_ONLY = {
    "invalid": {"branch-unreachable-at-root.json", "branch-unreachable-below-leaf.json",
                "branch-unreachable-deep.json", "integer-of-101-digits-in-metadata.json",
                "key-impossible-2-1-with-3-pegs.json", "key-impossible-huge.json",
                "key-impossible-sum-over-pegs.json", "key-win-with-branch-deep.json",
                "key-win-with-branch.json", "lone-surrogate-in-strategy-name.json",
                "metadata-nested-33-levels.json", "strategy-missing.json", "strategy-name-missing.json",
                "strategy-name-number.json", "strategy-params-array.json", "strategy-reference-number.json",
                "strategy-string.json", "tree-257-guesses-deep.json"},
    "bounds/invalid": {"metadata-lone-surrogate.json", "metadata-nested-too-deep.json",
                       "node-unknown-field.json", "same-as-chain.json",
                       "same-as-target-lowest-code-is-same-as.json"},
}


@pytest.mark.parametrize("corpus", sorted(FORMAT_ONLY))
def test_invalid_corpus_false_claims_are_refused(built, corpus):
    """Every file of the corpus is refused by the Python checkers (their own tests); the verified
    checker, with the translation in front of it, accepts only those whose claim is true."""
    files = sorted((ROOT / "tests" / "data" / corpus).glob("*.json*"))
    assert len(files) > 50
    accepted = {f.name for f in files if formal.verify_files([f]) == 0}
    assert accepted <= FORMAT_ONLY[corpus], sorted(accepted - FORMAT_ONLY[corpus])


def attack_summary(count=400, seed=44):
    """Seeded mutants of small worst-case proofs (tests/bound_attack.py) judged by both checkers and
    by the exhaustive oracle (is the root's claim true?)."""
    import bound_attack

    sources = bound_attack._sources(False, small=True)
    out = {"judged": 0, "false claims": 0, "false accepted by formal": 0, "both refuse": 0,
           "python refuses, formal proves (claim true)": 0, "python accepts, formal refuses": 0}
    for k in range(count):
        name, doc, _ = bound_attack.mutant(sources, seed, k)
        if set(doc.get("claims", {})) != {"worst_case"}:
            continue
        python_ok = verify_bound.check_bytes(bound_attack.dumps(doc), "mutant").valid
        try:
            ok = formal.check_text(formal.translate_doc(doc))[0] == 0
        except formal.Untranslatable:
            ok = False
        try:
            game = bound_attack.game_of_doc(doc["game"])
            root_false = any(node == 0 for node, *_ in bound_attack.false_bounds(doc, game))
        except Exception:  # noqa: BLE001 (a mutant the oracle cannot read: its game is malformed)
            root_false = None
        out["judged"] += 1
        out["false claims"] += bool(root_false)
        out["false accepted by formal"] += bool(ok and root_false is not False)
        out["both refuse"] += not ok and not python_ok
        out["python refuses, formal proves (claim true)"] += ok and not python_ok
        out["python accepts, formal refuses"] += python_ok and not ok
    return out


def test_attack_mutants_no_false_claim_accepted(built):
    """Whatever false claim the Python checker refuses, the verified checker refuses too (it accepts
    only true root claims, by its theorem; the oracle confirms it)."""
    s = attack_summary()
    print(s)
    assert s["false accepted by formal"] == 0, s
    assert s["judged"] >= 30 and s["false claims"] >= 10, s


def test_a_node_set_out_of_code_order_or_repeated_is_refused(built):
    """The checker takes a node's set without repeats from its strict code order (one pass): a set
    listed out of order or with a repeat is refused, the same set in order is accepted."""
    def core(second):  # 1 peg, 3 colours, D = 1; node 1 (left 0) holds `second`
        return f"mastermind-bound 1 3 1 0 1\n2\n0 3 0 1 2 0\n0 2 {second} 0\n"
    assert formal.check_text(core("0 1"))[0] == 0
    assert formal.check_text(core("1 0"))[0] == 1
    assert formal.check_text(core("1 1"))[0] == 1
