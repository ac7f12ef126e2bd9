"""Static proofs within the same limits as the others (issue 46 item 3): the rows of its table,
as files built by hand, each checked or refused (unusable, a limit: no verdict) within a budget
that grows with the file's size; acceptances judged against a brute force on tiny games."""

from __future__ import annotations

import gzip
import json
import random
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from certify import verify_static
from conftest import run_here

from test_static import SMALL, _separating

ROOT = Path(__file__).resolve().parent.parent


def _proof(pegs, colors, m, sets, rule="black-white", repetition=True):
    game = {"pegs": pegs, "colors": colors, "repetition": repetition}
    if rule != "black-white":
        game["feedback"] = rule
    n = colors ** pegs if repetition else len(verify_static.codes(pegs, colors, False))
    return {"format": verify_static.PROOF, "version": 1, "game": game, "symmetry": verify_static.SYMMETRY,
            "claims": {"secrets": n, "questions": m, "guesses_at_least": m + 2}, "sets": sets}


def _raw(doc) -> bytes:
    return json.dumps(doc, separators=(",", ":")).encode()


_MISSING = re.compile(r"the set ([0-9a-z ]+) is not ruled out by the counting rule and no listed set is in its orbit")


def _filled(pegs, colors, m, rule="black-white", repetition=True, rounds=400):
    """A proof built by hand, adding each set the checker names as missing, until it is accepted or
    refused for another reason: (report, doc)."""
    sets: list = []
    for _ in range(rounds):
        doc = _proof(pegs, colors, m, sorted(sets, key=len), rule, repetition)
        report = verify_static.check_bytes(_raw(doc), max_work=10**12)
        found = _MISSING.search(report.error or "")
        if report.valid or not found:
            return report, doc
        sets.append(found[1].split())
    raise AssertionError("too many rounds")


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


@pytest.mark.parametrize("pegs, colors, rule", SMALL)
def test_acceptance_agrees_with_brute_force(pegs, colors, rule):
    """A proof of "no m questions" is accepted exactly when no m questions separate (brute force
    written apart from the checker), for every m below the game's size."""
    n = colors ** pegs
    for m in range(0, min(n - 1, 5)):
        report, _ = _filled(pegs, colors, m, rule)
        truth = _separating(pegs, colors, m, rule) is None
        assert report.valid == truth, (pegs, colors, rule, m, report.error)
        if not truth:
            assert report.status == 1 and "the claim is false" in report.error


def test_row_4x8_no_one_question_is_checked_fast():
    """Row: a 234-byte proof "no 1 question separates 4x8" took 73 s (the whole table in Python)."""
    raw = _raw(_proof(4, 8, 1, []))
    assert len(raw) < 300
    t = _cpu()
    report = verify_static.check_bytes(raw)
    assert report.valid, report.error
    assert report.statement().startswith("no 1 question separates")
    assert _cpu() - t < 20


def test_row_8x2_black_only_no_three_questions():
    """Row: 8x2 black-only "no 3 questions" (a few hundred bytes) took 23 s: canonical forms over
    40,320 peg permutations. Now checked within the default budget: true (the metric dimension of
    the 8-cube is 6)."""
    report, doc = _filled(8, 2, 3, "black-only")
    assert report.valid, report.error
    raw = _raw(doc)
    t = _cpu()
    again = verify_static.check_bytes(raw)
    assert again.valid, again.error
    assert _cpu() - t < 20


def test_row_gzipped_sets_of_sixty_codes_refused_before_their_canonical_forms():
    """Row: a 2.9 KB gzipped 8x2 proof listing 30 sets of 60 codes was refused after 68 s (each set's
    canonical form, ~3 s, was not counted). Now: unusable (a limit) before any form is computed."""
    rng = random.Random(46)
    codes = verify_static.codes(8, 2, True)
    sets = [rng.sample(codes, 60) for _ in range(30)]
    raw = gzip.compress(_raw(_proof(8, 2, 61, sets)), mtime=0)
    t = _cpu()
    report = verify_static.check_bytes(raw)
    assert report.status == 2 and "units of work" in report.error and "--max-work" in report.error
    assert report.limit["option"] == "--max-work"
    assert _cpu() - t < 5


def test_row_orbits_of_one_and_two_questions_8x2():
    """Row: a 1,480-byte 8x2 proof listing the orbits of 1 and 2 questions took 263 s before it was
    refused. Now checked or refused within 20 s."""
    codes = verify_static.codes(8, 2, True)
    ones = [[c] for c in ("00000000", "00000001", "00000011", "00000111", "00001111")]
    twos = [["00000000", c] for c in codes[1:40]]
    raw = _raw(_proof(8, 2, 3, ones + twos))
    t = _cpu()
    report = verify_static.check_bytes(raw)
    assert not report.valid  # (the listed twos repeat orbits, or miss some: never accepted)
    assert _cpu() - t < 20
    # The real orbits of 1 and 2 questions (21 sets): checked, within seconds.
    report, doc = _filled(8, 2, 3)
    assert report.valid and len(doc["sets"]) == 21, report.error
    t = _cpu()
    assert verify_static.check_bytes(_raw(doc)).valid
    assert _cpu() - t < 20


def test_row_certificate_table_over_one_mib_is_accepted():
    """Row: a valid static certificate whose table exceeds 1 MiB was refused as metadata."""
    rng = random.Random(1)
    pegs, colors = 6, 4
    codes = verify_static.codes(pegs, colors, True)
    questions = rng.sample(codes, 90)
    table = {}
    for s in codes:
        table[" ".join(verify_static.answer_text(verify_static.black_white(q, s)) for q in questions)] = s
    assert len(table) == len(codes)
    doc = {"format": verify_static.CERTIFICATE, "version": 1,
           "game": {"pegs": pegs, "colors": colors, "repetition": True},
           "claims": {"secrets": len(codes), "questions": 90, "guesses": 91}, "questions": questions,
           "table": [[k, s] for k, s in table.items()]}
    raw = _raw(doc)
    assert len(raw) > 1 << 20
    report = verify_static.check_bytes(raw)
    assert report.valid, report.error
    doc["table"][7][1], doc["table"][8][1] = doc["table"][8][1], doc["table"][7][1]
    assert verify_static.check_bytes(_raw(doc)).status == 1


def test_limits_are_the_users():
    """max_codes= and max_work=: over either the file is unusable (status 2), naming the option;
    raised, the same file is checked."""
    raw = _raw(_proof(4, 8, 1, []))
    low = verify_static.check_bytes(raw, max_codes=1000)
    assert low.status == 2 and "--max-codes 4096" in low.error
    tight = verify_static.check_bytes(raw, max_work=1000)
    assert tight.status == 2 and "the --max-work given" in tight.error
    assert verify_static.check_bytes(raw, max_work=10**10).valid
    proof = ROOT / "certificates" / "static" / "static-2x13-proof.json"
    assert verify_static.check_file(proof, max_work=10**6).status == 2


def test_cli_limit_is_unusable_exit_2(tmp_path):
    path = tmp_path / "p.json"
    path.write_bytes(_raw(_proof(4, 8, 1, [])))
    run = subprocess.run([sys.executable, str(ROOT / "certify" / "verify_static.py"), str(path), "--max-work", "5",
                          "--json"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    got = json.loads(run.stdout)["results"][0]
    assert got["status"] == "unusable" and got["limit"]["option"] == "--max-work"


# -- issue 43 item 5: the static seams ---------------------------------------------------------

STATIC = ROOT / "certificates" / "static"


def _certify(*args, cwd=None):
    """`certify ARGS` in this process (conftest.run_here: no interpreter start for each of the calls)."""
    return run_here(*args, cwd=cwd)


def test_static_verify_pair_of_different_games_is_not_compared():
    """Row: a 2x10 certificate beside a 2x11 proof was accepted without a remark."""
    run = _certify("static", "verify", STATIC / "static-2x10.json", STATIC / "static-2x11-proof.json")
    assert run.returncode == 2
    assert "not compared: different games (the certificate is for 2x10, the proof for 2x11)" in run.stderr
    run = _certify("static", "verify", STATIC / "static-2x10.json", STATIC / "static-2x10-proof.json", "--json")
    got = json.loads(run.stdout)
    assert run.returncode == 0 and got["verdict"]["status"] == "settled"
    assert "2x10: static value 8 guesses" in got["verdict"]["text"]
    # The same game under the other rule is another game.
    run = _certify("static", "verify", STATIC / "static-2x4.json", STATIC / "static-2x4-black-only-proof.json")
    assert run.returncode == 2 and "different games" in run.stderr


def test_static_verify_pair_whose_bounds_do_not_meet():
    run = _certify("static", "verify", STATIC / "static-2x10.json", STATIC / "static-2x10-proof.json",
                   STATIC / "static-2x9.json")
    assert run.returncode == 0 and "settled" not in run.stdout + run.stderr  # (three files: no pair verdict)


def test_one_question_in_the_singular(tmp_path):
    raw = _raw(_proof(2, 3, 1, []))
    report = verify_static.check_bytes(raw)
    assert report.valid and "no 1 question separates the 9 secrets" in report.line()
    run = _certify("static", "build", "--pegs", "2", "--colors", "2", "-o", tmp_path / "s.json")
    assert "1 question does not separate" in run.stderr and "1 questions" not in run.stderr


def test_static_letters_and_colours_as_the_other_pages(tmp_path):
    """--letters on build and page; colour 0 drawn in render.palette's colour, as html draws it
    (the letter R: red)."""
    from certify.render import palette

    out = tmp_path / "p.html"
    run = _certify("static", "page", STATIC / "static-2x4.json", "--letters", "RGBY", "-o", out)
    assert run.returncode == 0, run.stderr
    text = out.read_text()
    assert f'background:{palette("RGBY")[0]};color:white">R</span>' in text and palette("RGBY")[0] == "#E41A1C"
    run = _certify("static", "page", STATIC / "static-2x4.json", "-o", tmp_path / "d.html")
    assert f'background:{palette()[0]};color:' in (tmp_path / "d.html").read_text()
    run = _certify("static", "page", STATIC / "static-2x4.json", "--letters", "RGB", "-o", tmp_path / "e.html")
    assert run.returncode != 0 and "3 letters for 4 colours" in run.stderr
    run = _certify("static", "build", "--pegs", "2", "--colors", "4", "--letters", "RGBY", "-o", tmp_path / "b.json")
    assert run.returncode == 0 and "(RR GB GY)" in run.stderr
    assert json.loads((tmp_path / "b.json").read_text())["questions"] == ["00", "12", "13"]


def test_table_generator_compares_the_files_game_with_the_row(tmp_path):
    """Row: docs/static.md's table generator given 2x7's files in 2x8's place printed 2x8 = 6."""
    import shutil

    from certify import static
    from certify.errors import CertifyError

    for name in ("static-2x7.json", "static-2x7-proof.json"):
        shutil.copy(STATIC / name, tmp_path / name.replace("2x7", "2x8"))
    with pytest.raises(CertifyError, match=r"static-2x8.json: a file for 2x7, in the row of 2x8"):
        static.table(tmp_path, [(2, 8, "black-white")])
    shutil.copy(STATIC / "static-2x8.json", tmp_path / "static-2x8.json")
    with pytest.raises(CertifyError, match=r"static-2x8-proof.json: a file for 2x7, in the row of 2x8"):
        static.table(tmp_path, [(2, 8, "black-white")])
    shutil.copy(STATIC / "static-2x8-proof.json", tmp_path / "static-2x8-proof.json")
    assert "| 2x8 | black-white | 6 | 7 |" in static.table(tmp_path, [(2, 8, "black-white")])
    # Black-only files in the black-and-white row: another game.
    for name in ("static-2x4-black-only.json", "static-2x4-black-only-proof.json"):
        shutil.copy(STATIC / name, tmp_path / name.replace("-black-only", ""))
    with pytest.raises(CertifyError, match=r"a file for 2x4 black-only, in the row of 2x4"):
        static.table(tmp_path, [(2, 4, "black-white")])
