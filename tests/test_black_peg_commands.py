"""Black-peg Mastermind in every command (issue 43 item 4): consistent, hint (and --table),
play --codemaker and compare take or show the black-only rule, and the API's hint_after uses a
black-peg certificate's rule (it used to compute black-and-white classes for it). Each figure is
checked against a brute force over the codes with the verifier's own black-peg answer."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest

from certify import api, verify

from conftest import CERTS, run_cli, run_here  # run_here: certify in this process

BLACK_3X4 = CERTS / "black-peg" / "optimal-total-3x4-black.json"


def _codes(pegs: int, colors: int) -> list[str]:
    return ["".join(map(str, c)) for c in itertools.product(range(colors), repeat=pegs)]


def _blacks(guess: str, secret: str) -> int:
    return verify.blacks(guess, secret)[0]


def test_consistent_counts_black_pegs_only():
    done = run_here("consistent", "--pegs", 3, "--colors", 3, "--feedback", "black-only", "012=1", "000=1", "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    want = [s for s in _codes(3, 3) if _blacks("012", s) == 1 and _blacks("000", s) == 1]
    assert doc["secrets"] == want and doc["consistent"] == len(want) == 5
    assert doc["game"]["feedback"] == "black-only"
    assert doc["answers"][0] == {"guess": "012", "black": 1}  # no white pegs in this game
    text = run_here("consistent", "--pegs", 3, "--colors", 3, "--feedback", "black-only", "012=1", "000=1").stdout
    assert text.startswith("5 secrets of 3x3 black-only are consistent")
    # an answer with white pegs is not one of this game's
    done = run_here("consistent", "--pegs", 3, "--colors", 3, "--feedback", "black-only", "012=1,1")
    assert done.returncode == 2 and "not an answer of black-peg Mastermind" in done.stderr
    # the same rows under the black-and-white rule give another set
    classic = json.loads(run_here("consistent", "--pegs", 3, "--colors", 3, "012=1,0", "000=1,0", "--json").stdout)
    assert classic["secrets"] != want


def test_hint_partitions_by_black_pegs():
    done = run_here("hint", "--pegs", 3, "--colors", 3, "--feedback", "black-only", "012=1", "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    left = [s for s in _codes(3, 3) if _blacks("012", s) == 1]
    assert doc["candidates"] == len(left)
    want = Counter(str(_blacks(doc["guess"], s)) for s in left)
    assert doc["partition"] == dict(sorted(want.items(), key=lambda kv: int(kv[0])))
    table = json.loads(run_here("hint", "--pegs", 2, "--colors", 3, "--feedback", "black-only", "--table",
                               "--json").stdout)
    assert table["feedbacks"] == ["0", "1", "2"]
    assert table["rows"][0]["classes"] == {"0": 4, "1": 4, "2": 1}


def test_hint_follows_a_black_peg_certificate_under_its_rule():
    tree = json.loads(BLACK_3X4.read_text())["tree"]
    doc = json.loads(run_here("hint", "--certificate", BLACK_3X4, "--json").stdout)
    assert doc["source"] == "certificate" and doc["guess"] == tree["guess"]
    first = tree["guess"]
    key = next(k for k in tree["next"] if k != "3")
    doc = json.loads(run_here("hint", "--certificate", BLACK_3X4, f"{first}={key}", "--json").stdout)
    assert doc["source"] == "certificate" and doc["guess"] == tree["next"][key]["guess"]
    left = [s for s in _codes(3, 4) if _blacks(first, s) == int(key)]
    assert doc["candidates"] == len(left)
    done = run_here("hint", "--certificate", BLACK_3X4, "--feedback", "black-white")
    assert done.returncode == 2 and "3x4 black-only" in done.stderr


def test_play_codemaker_scores_black_pegs():
    guesses = ["00", "01", "12"]
    done = run_cli("play", "--codemaker", "--pegs", 2, "--colors", 3, "--feedback", "black-only", "--seed", 1,
                   "--strategy", "none", input="\n".join(guesses) + "\n!\n")
    assert "scored with black pegs only" in done.stdout
    secret = done.stdout.split("the secret was ")[1].split()[0]
    for n, guess in enumerate(guesses, 1):
        assert f"{n:>2}. {guess}  {_blacks(guess, secret)}\n" in done.stdout
    done = run_here("play", BLACK_3X4, "--feedback", "black-only")
    assert done.returncode == 2 and "--feedback go with --codemaker" in done.stderr


def test_compare_names_the_rule():
    text = run_here("compare", BLACK_3X4, CERTS / "black-peg" / "optimal-total-3x4-norep-black.json",
                   CERTS / "knuth-4x6.json").stdout
    rows = text.splitlines()[2:]
    assert rows[0].split()[1:3] == ["3x4", "black-only"]  # the game as the other commands write it
    assert rows[1].split()[1:5] == ["3x4", "without", "repetition", "black-only"]
    assert rows[2].split()[1] == "4x6" and rows[2].split()[2] == "5"  # classic: no rule named
    assert json.loads(run_here("compare", BLACK_3X4, "--json").stdout)["rows"][0]["game"]["feedback"] == "black-only"


def test_the_api_hint_uses_the_certificates_rule():
    hint = api.hint_after(["000=1"], certificate=BLACK_3X4)
    left = [s for s in _codes(3, 4) if _blacks("000", s) == 1]
    assert hint.doc["candidates"] == len(left)
    assert set(hint.doc["partition"]) <= {"0", "1", "2", "3"}  # black pegs, never "b,w" classes
    assert sum(hint.doc["partition"].values()) == len(left)
    with pytest.raises(api.CertifyError, match="3x4 black-only"):
        api.hint_after([], certificate=BLACK_3X4, feedback="black-white")
    free = api.hint_after([("012", 1)], pegs=3, colors=3, feedback="black-only")
    assert free.doc["candidates"] == sum(_blacks("012", s) == 1 for s in _codes(3, 3))


WHITE_TOO = "'2,0' is not an answer of black-peg Mastermind: the number of black pegs, 0 to 3 (e.g. 2)"


@pytest.mark.parametrize("argv", [
    ("consistent", "--pegs", 3, "--colors", 3, "--feedback", "black-only", "012=2,0"),
    ("hint", "--pegs", 3, "--colors", 3, "--feedback", "black-only", "012=2,0"),
    ("hint", "--certificate", BLACK_3X4, "012=2,0"),
    ("hint", "--pegs", 3, "--colors", 3, "--feedback", "black-only", "--table", "012=2,0")])
def test_a_black_peg_answer_is_one_number_in_every_command(capsys, argv):
    """One rule, one parser (consistent.parse_blacks): '2,0' was taken by hint and consistent
    while play refused it."""
    from certify.__main__ import main

    assert main([str(a) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"certify {argv[0]}: error: answer '012=2,0': {WHITE_TOO}"), err
    assert main([str(a) if a != "012=2,0" else "012=2" for a in argv] + ["--json"]) == 0


def test_the_api_and_play_read_a_black_peg_answer_with_the_same_parser():
    import io

    from certify import play

    with pytest.raises(api.CertifyError, match=r"'2,0' is not an answer of black-peg Mastermind"):
        api.hint_after([("012", (2, 0))], pegs=3, colors=3, feedback="black-only")
    with pytest.raises(api.CertifyError, match=r"'2,0' is not an answer of black-peg Mastermind"):
        api.hint_after(["012=2,0"], certificate=BLACK_3X4)
    cert = json.loads(BLACK_3X4.read_text())
    out = io.StringIO()
    play.play_tree(cert, io.StringIO("2,0\nq\n"), out, colour=False)
    assert f"{WHITE_TOO}; try again" in out.getvalue()


def test_value_under_the_black_peg_rule_is_checked_under_the_files_rule(capsys, tmp_path):
    """certify value --feedback black-only: the weighted search with the black-peg answer; both
    files say the rule and both checkers read it from them (a file stripped of its rule is refused)."""
    from fractions import Fraction

    from certify import verify_bound, verify_mixed
    from certify.__main__ import main

    prefix = tmp_path / "v"
    assert main(["value", "--pegs", "2", "--colors", "3", "--feedback", "black-only", "--prefix", str(prefix),
                 "--json", "-q"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["proven"] and doc["game"]["feedback"] == "black-only"
    # uniform is optimal here: the value is the least total of black-peg 2x3, which the committed proof proves
    committed = verify_bound.check_file(CERTS / "black-peg" / "total-2x3-black.json")
    assert committed.valid and Fraction(doc["value"]) == Fraction(committed.claims["total"], 9) == Fraction(25, 9)
    maker, breaker = (tmp_path / f"v-{side}.json" for side in ("codemaker", "codebreaker"))
    assert main(["verify", str(breaker), "--value", str(maker), "-q"]) == 0
    for path, check in ((maker, verify_bound.check_bytes), (breaker, verify_mixed.check_bytes)):
        data = json.loads(path.read_text())
        assert data["game"]["feedback"] == "black-only" and check(path.read_bytes()).valid
        del data["game"]["feedback"]
        assert check(json.dumps(data).encode()).status == 1, path.name
    assert api.game_value(2, 3, feedback="black-only").value == Fraction(25, 9)
    assert api.game_value(2, 3).value == Fraction(29, 12)


def test_value_refuses_a_black_peg_game_past_the_bitmask_search(capsys):
    from certify.__main__ import main

    assert main(["value", "--pegs", "3", "--colors", "7", "--feedback", "black-only"]) == 2
    assert "at most 256 codes (this one has 343" in capsys.readouterr().err
