"""Static Mastermind: the checker against a brute-force reference, the published figures, the
committed catalog, the invalid corpus, an oracle judging mutated files, and the CLI."""

from __future__ import annotations

import copy
import functools
import itertools
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from certify import static, verify_static

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "static"
EXPECTED = json.loads((DATA / "expected.json").read_text())
INVALID = sorted((DATA / "invalid").glob("*.json"))
COMMITTED = sorted((ROOT / "certificates" / "static").glob("*.json*"))


# -- the reference: every list of questions tried, with a third feedback formula ------------------

def _codes(pegs, colors, repetition=True):
    make = itertools.product(range(colors), repeat=pegs) if repetition else itertools.permutations(range(colors), pegs)
    return list(make)


def _answer(g, s, rule):
    black = sum(a == b for a, b in zip(g, s))
    if rule == "black-only":
        return black
    common = sum(min(g.count(c), s.count(c)) for c in set(g))
    return black, common - black


def _separating(pegs, colors, m, rule, repetition=True):
    """The first list of m questions (in combination order) that separates every secret, or None."""
    codes = _codes(pegs, colors, repetition)
    table = [[_answer(g, s, rule) for s in codes] for g in codes]
    for qs in itertools.combinations(range(len(codes)), m):
        if len({tuple(table[q][s] for q in qs) for s in range(len(codes))}) == len(codes):
            return qs
    return None


def _value(pegs, colors, rule, repetition=True):
    m = 0
    while _separating(pegs, colors, m, rule, repetition) is None:
        m += 1
    return m + 1


SMALL = [(2, 2, "black-white"), (2, 3, "black-white"), (2, 4, "black-white"), (2, 5, "black-white"),
         (3, 2, "black-white"), (3, 3, "black-white"), (2, 2, "black-only"), (2, 3, "black-only"),
         (2, 4, "black-only"), (3, 2, "black-only"), (3, 3, "black-only")]


@pytest.mark.parametrize("pegs,colors,rule", SMALL)
def test_builder_and_checker_agree_with_brute_force(pegs, colors, rule):
    value = _value(pegs, colors, rule)
    cert, proof, _ = static.build(pegs, colors, True, rule)
    assert cert["claims"]["guesses"] == value
    assert proof["claims"]["guesses_at_least"] == value
    for doc in (cert, proof):
        report = verify_static.check_bytes(static.dumps(doc))
        assert report.valid, report.error
    # One question fewer claimed as enough, or one more claimed as never enough: both refused.
    raised = copy.deepcopy(proof)
    raised["claims"].update(questions=value - 1, guesses_at_least=value + 1)
    assert not verify_static.check_bytes(static.dumps(raised)).valid


def test_no_repetition_games_agree_with_brute_force():
    for pegs, colors in ((2, 3), (2, 4), (3, 4)):
        value = _value(pegs, colors, "black-white", repetition=False)
        game = static.Game(pegs, colors, False)
        found, previous, m = static.solve(game)
        assert m + 1 == value
        for doc in (static.certificate(game, found), static.proof(game, m - 1, previous)):
            report = verify_static.check_bytes(static.dumps(doc))
            assert report.valid, report.error


def test_builder_is_deterministic():
    a = static.dumps(static.build(2, 6)[0]), static.dumps(static.build(2, 6)[1])
    b = static.dumps(static.build(2, 6)[0]), static.dumps(static.build(2, 6)[1])
    assert a == b
    assert (ROOT / "certificates" / "static" / "static-2x6.json").read_bytes() == a[0]
    assert (ROOT / "certificates" / "static" / "static-2x6-proof.json").read_bytes() == a[1]


# -- the checker's own parts -------------------------------------------------------------------

@pytest.mark.parametrize("rule", ["black-white", "black-only"])
def test_checker_feedback_matches_the_reference(rule):
    score = verify_static.black_only if rule == "black-only" else verify_static.black_white
    for pegs, colors in ((2, 3), (3, 3), (4, 3)):
        codes = verify_static.codes(pegs, colors, True)
        for g in codes:
            for s in codes:
                want = _answer(tuple(map(int, g)), tuple(map(int, s)), rule)
                assert score(g, s) == (want if rule == "black-white" else (want,))


def _image(codes, perm, colours):
    return tuple(tuple(colours[c[j]] for j in perm) for c in codes)


def test_canonical_form_is_one_per_orbit():
    """On 2x3 and 3x2, sets of up to 3 codes: equal forms exactly for the sets one permutation maps
    onto each other (orbits computed by applying the whole group)."""
    for pegs, colors in ((2, 3), (3, 2)):
        codes = _codes(pegs, colors)
        group = [(p, c) for p in itertools.permutations(range(pegs)) for c in itertools.permutations(range(colors))]
        for k in (1, 2, 3):
            orbit_of, forms = {}, {}
            for subset in itertools.combinations(codes, k):
                key = frozenset(subset)
                if key in orbit_of:
                    continue
                orbit = {frozenset(_image(subset, p, c)) for p, c in group}
                for member in orbit:
                    orbit_of[member] = len(forms)
                forms[len(forms)] = {verify_static.canonical(tuple(member), pegs) for member in orbit}
            assert all(len(f) == 1 for f in forms.values())  # one form an orbit
            assert len({next(iter(f)) for f in forms.values()}) == len(forms)  # different orbits, different forms


def test_canonical_form_is_an_image_of_the_set():
    rng = random.Random(7)
    for _ in range(200):
        pegs, colors = rng.choice([(2, 6), (3, 4), (4, 3)])
        codes = _codes(pegs, colors)
        subset = tuple(rng.sample(codes, rng.randint(1, 5)))
        form = verify_static.canonical(subset, pegs)
        assert any(sorted(_image(subset, p, c)) == sorted(form)
                   for p in itertools.permutations(range(pegs)) for c in itertools.permutations(range(colors)))
        p, c = list(range(pegs)), list(range(colors))
        rng.shuffle(p), rng.shuffle(c)
        assert verify_static.canonical(tuple(rng.sample(_image(subset, p, c), len(subset))), pegs) == form


# -- published figures, the committed catalog -------------------------------------------------

#: Goddard's 2-peg table (questions only; the final guess is not counted there), 2..7 colours.
GODDARD_2_PEGS = {2: 2, 3: 2, 4: 3, 5: 4, 6: 4, 7: 5}


@functools.lru_cache(maxsize=None)
def _checked(name):
    report = verify_static.check_file(ROOT / "certificates" / "static" / name)
    assert report.valid, report.error
    return report


def _value_of(pegs, colors, rule="black-white", repetition=True):
    cert, proof = static.catalog_paths(ROOT / "certificates" / "static", pegs, colors, rule, repetition)
    upper, lower = _checked(cert.name), _checked(proof.name)
    assert upper.claims["guesses"] == lower.claims["guesses_at_least"]
    return upper.claims["guesses"]


def test_goddard_two_peg_table_reproduced_and_its_question_marks_settled():
    for colors, questions in GODDARD_2_PEGS.items():
        assert _value_of(2, colors) == questions + 1
    # The table's 8, 9 and 10 colours ("6?", "6?", "7?": lists known, not known shortest) and
    # Goddard's ceil(2c/3) questions, stated for large c: every catalog game agrees.
    for colors in range(8, 13):  # (2x13, 40 s to check, agrees too: make verify, docs/static.md)
        assert _value_of(2, colors) == -(-2 * colors // 3) + 1


def test_black_peg_formulas_of_jaeger_and_drewes():
    for colors in range(2, 8):  # two pegs: ceil((4c - 1)/3) questions, the final one counted
        assert _value_of(2, colors, "black-only") == -(-(4 * colors - 1) // 3)
    for colors in range(2, 5):  # three pegs: floor(3c/2) + 1
        assert _value_of(3, colors, "black-only") == 3 * colors // 2 + 1


def test_static_black_peg_ab_game_formulas_of_jaeger_and_drewes():
    """Without repetition, black-only (arXiv 2210.04652): ceil(4c/3) - 1 guesses for 2 pegs, and
    floor((3c - 1)/2) for 3 pegs from 4 colours, the final guess counted."""
    for colors in range(3, 9):
        assert _value_of(2, colors, "black-only", False) == -(-4 * colors // 3) - 1
    for colors in (4, 5):
        assert _value_of(3, colors, "black-only", False) == (3 * colors - 1) // 2


def test_three_pegs_against_goddards_large_c_value():
    assert [_value_of(3, c) for c in range(2, 6)] == [3, 4, 4, 5]  # c from 4 colours (stated for large c)


def test_every_committed_file_is_valid_and_the_catalog_is_complete():
    """(Files past 20 KB, whose check takes up to minutes, are left to `make verify`.)"""
    import jsonschema

    schema = json.loads((ROOT / "docs" / "static.schema.json").read_text())
    names = {p.name for p in COMMITTED}
    for game in static.CATALOG:
        cert, proof = static.catalog_paths(ROOT / "certificates" / "static", *game)
        assert cert.name in names and proof.name in names
    folder = ROOT / "certificates" / "static"
    assert names == {n for g in static.CATALOG for n in (p.name for p in static.catalog_paths(folder, *g))}
    for path in COMMITTED:
        if path.suffix == ".gz":
            continue  # (past 1 MB: make verify checks it)
        jsonschema.validate(json.loads(path.read_bytes()), schema)
        if path.stat().st_size <= 20_000:
            _checked(path.name)


def test_schema_refuses_what_the_checker_refuses_by_shape():
    import jsonschema

    schema = json.loads((ROOT / "docs" / "static.schema.json").read_text())
    for name in ("cert-top-field.json", "cert-unknown-rule.json", "proof-symmetry.json", "proof-set-not-array.json"):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(json.loads((DATA / "invalid" / name).read_bytes()), schema)


# -- the invalid corpus --------------------------------------------------------------------------

def test_corpus_is_what_the_generator_makes():
    sys.path.insert(0, str(DATA))
    try:
        import make_corpus
    finally:
        sys.path.remove(str(DATA))
    files = make_corpus.render(make_corpus.corpus())
    assert sorted(files) == sorted([p.name for p in INVALID] + ["expected.json"])
    for p in INVALID:
        assert files[p.name] == p.read_bytes(), f"stale {p.name}: python tests/data/static/make_corpus.py"


@functools.lru_cache(maxsize=None)
def _standalone_on_the_invalid_corpus():
    """The standalone checker (certify/verify_static.py run as a script) on every invalid file at once:
    (its text run, the results of its --json run). Two processes, not one per file (41 interpreter
    starts: ~7 s of CPU); each file's test below reads its own line and exit code."""
    files = [str(p) for p in INVALID]
    script = [sys.executable, str(ROOT / "certify" / "verify_static.py")]
    text = subprocess.run([*script, *files], capture_output=True, text=True, timeout=300)
    as_json = subprocess.run([*script, "--json", *files], capture_output=True, text=True, timeout=300)
    results = {r["file"]: r for r in json.loads(as_json.stdout)["results"]}
    assert sorted(results) == sorted(files) and as_json.returncode == text.returncode, as_json.stderr
    return text, results


def test_the_invalid_corpus_gives_one_line_each_and_the_worst_exit_status():
    text, results = _standalone_on_the_invalid_corpus()
    assert text.stdout == "" and "Traceback" not in text.stderr
    assert len(text.stderr.splitlines()) == len(INVALID), text.stderr
    assert text.returncode == max(EXPECTED[p.name]["exit"] for p in INVALID)


@pytest.mark.parametrize("path", INVALID, ids=[p.name for p in INVALID])
def test_invalid_file_is_refused_with_its_reason(path):
    want = EXPECTED[path.name]
    text, results = _standalone_on_the_invalid_corpus()
    assert results[str(path)]["exit_code"] == want["exit"], results[str(path)]
    lines = [line for line in text.stderr.splitlines() if line.startswith(f"{path}: ")]
    assert len(lines) == 1 and want["reason"] in lines[0], text.stderr
    assert "Traceback" not in text.stderr


# -- the oracle: whatever the checker accepts is true -----------------------------------------

def _mutants(doc, rng, count):
    """Mutated copies of a proof or certificate: claims, games (colours, rule, repetition), listed sets
    and codes changed, one change or two composed."""
    listed = "sets" if "sets" in doc else "table"
    out = []
    for _ in range(count):
        d = copy.deepcopy(doc)
        for _ in range(rng.choice((1, 1, 2))):  # (two changes composed: a rule change with another)
            kind = rng.randrange(8)
            if kind == 0 and "sets" in d:
                m = max(0, d["claims"]["questions"] + rng.choice((-1, 1)))
                d["claims"].update(questions=m, guesses_at_least=m + 2)
            elif kind == 0 and d.get("questions"):
                q = d["claims"]["questions"] - 1
                d["questions"].pop(rng.randrange(len(d["questions"])))
                d["claims"].update(questions=q, guesses=q + 1)
            elif kind == 1 and d[listed]:
                d[listed].pop(rng.randrange(len(d[listed])))
            elif kind == 2:  # (fewer colours: the brute force of a larger game takes too long here)
                d["game"]["colors"] = max(2, d["game"]["colors"] - 1)
                d["claims"]["secrets"] = d["game"]["colors"] ** d["game"]["pegs"]
            elif kind == 3:
                if d["game"].pop("feedback", None) is None:
                    d["game"]["feedback"] = "black-only"
            elif kind == 4 and d[listed]:
                row = d[listed][rng.randrange(len(d[listed]))]
                j = rng.randrange(len(row)) if listed == "sets" else 1
                code = row[j]
                row[j] = "".join(str(rng.randrange(d["game"]["colors"])) for _ in code)
            elif kind == 5 and listed == "sets":
                pegs, colors = d["game"]["pegs"], d["game"]["colors"]
                size = rng.randint(1, max(1, d["claims"]["questions"] - 1))
                extra = sorted({"".join(str(rng.randrange(colors)) for _ in range(pegs)) for _ in range(size)})
                d["sets"].append(extra)
                d["sets"].sort(key=len)
            elif kind == 6:
                qs = d.get("questions")
                if qs:
                    i = rng.randrange(len(qs))
                    qs[i] = "".join(str(rng.randrange(d["game"]["colors"])) for _ in qs[i])
            else:
                d["game"]["repetition"] = not d["game"]["repetition"]
        out.append(d)
    return out


ORACLE_GAMES = [(2, 4, "black-white"), (2, 5, "black-white"), (3, 3, "black-white"), (2, 4, "black-only"),
                (2, 5, "black-only"), (3, 3, "black-only")]


@pytest.mark.parametrize("pegs,colors,rule", ORACLE_GAMES)
def test_oracle_every_accepted_mutant_states_a_truth(pegs, colors, rule):
    rng = random.Random(pegs * 100 + colors + len(rule))
    cert, proof, _ = static.build(pegs, colors, True, rule)
    accepted = refused = 0
    count = 25 if (pegs, colors, rule) == (2, 5, "black-only") else 60  # (its brute force: 53,130 lists each)
    for doc in _mutants(proof, rng, count) + _mutants(cert, rng, count):
        report = verify_static.check_bytes(static.dumps(doc))
        if not report.valid:
            refused += 1
            assert "\n" not in report.error
            continue
        accepted += 1
        g = doc["game"]
        r = g.get("feedback", "black-white")
        if "sets" in doc:  # no list of m questions separates: tried, every one
            assert _separating(g["pegs"], g["colors"], doc["claims"]["questions"], r, g["repetition"]) is None, doc
        else:  # the questions separate and the table names each secret
            codes = _codes(g["pegs"], g["colors"], g["repetition"])
            names = ["".join(map(str, c)) for c in codes]
            qs = [tuple(int(ch) for ch in q) for q in doc["questions"]]
            vectors = [tuple(_answer(q, s, r) for q in qs) for s in codes]
            assert len(set(vectors)) == len(codes)
            assert sorted(row[1] for row in doc["table"]) == sorted(names)
    assert refused > 0 and accepted > 0  # (the generator makes both kinds)


# -- the command line --------------------------------------------------------------------------

def test_cli_build_and_verify(tmp_path):
    cert, proof = tmp_path / "s.json", tmp_path / "p.json"
    exe = [sys.executable, "-m", "certify"]
    run = subprocess.run(exe + ["static", "build", "--pegs", "2", "--colors", "5", "--feedback", "black-only",
                                "-o", str(cert), "--proof", str(proof)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "static value 7" in run.stderr.splitlines()[-1]
    check = subprocess.run(exe + ["static", "verify", str(cert), str(proof), "--json"],
                           capture_output=True, text=True, timeout=120)
    assert check.returncode == 0
    results = json.loads(check.stdout)["results"]
    assert [r["valid"] for r in results] == [True, True]
    assert results[1]["claims"] == {"secrets": 25, "questions": 5, "guesses_at_least": 7}
    bad = tmp_path / "bad.json"
    bad.write_text(cert.read_text().replace('"questions": 6', '"questions": 5'))
    check = subprocess.run(exe + ["static", "verify", str(bad)], capture_output=True, text=True, timeout=60)
    assert check.returncode == 1 and "claims.questions: claimed 5" in check.stderr
    run = subprocess.run(exe + ["static", "build", "--pegs", "2", "--colors", "99", "-o", str(bad)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode != 0 and len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr


def test_certify_verify_recognises_both_static_kinds():
    from certify import kinds

    for name, kind in (("static-2x5.json", kinds.STATIC), ("static-2x5-proof.json", kinds.STATIC_BOUND)):
        got, report = kinds.check_any(ROOT / "certificates" / "static" / name)
        assert got == kind and report.valid, report.error
    got, report = kinds.check_any(DATA / "invalid" / "proof-set-dropped.json")
    assert got == kinds.STATIC_BOUND and report.status == 1 and "no listed set is in its orbit" in report.error
    run = subprocess.run([sys.executable, "-m", "certify", "verify", str(DATA / "invalid" / "cert-row-missing.json")],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "table: no row for the answer vector" in run.stderr


def test_canonical_form_work_is_bounded(monkeypatch):
    """A very symmetric set is not checked past the limit (a limit, not a verdict), never searched for ever."""
    monkeypatch.setattr(verify_static, "MAX_STEPS", 2000)
    codes = tuple(itertools.permutations(range(4)))
    with pytest.raises(verify_static.Limit, match="canonical form takes more than 2000 steps"):
        verify_static.canonical(codes, 4)
    assert verify_static.canonical(codes[:2], 4) == ((0, 1, 2, 3), (0, 1, 3, 2))
