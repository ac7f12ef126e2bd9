"""Viaud 1987: the strategy, checked by the verifier against the paper's bounds, and its parts."""

from __future__ import annotations

import itertools
import math

import pytest

from certify import verify
from certify.__main__ import main
from certify.bounds import f, feedback_count, q0, viaud_bound, viaud_max_guesses
from certify.catalog import CATALOG, ROOT, build_one
from certify.certificate import dumps, make_certificate
from certify.errors import CertifyError
from certify.game import Game
from certify.strategies import get_strategy
from certify.strategies.viaud import play, subset_search

GAMES = [(n, m) for n in range(1, 5) for m in range(2, 8)] + [(5, 5), (4, 8), (3, 10), (6, 3)]


def verified(n: int, m: int):
    cert = make_certificate(get_strategy("viaud")(Game(n, m)))
    report = verify.verify_bytes(dumps(cert))
    assert report.valid, report.error
    return report.replayed


@pytest.mark.parametrize("n,m", GAMES)
def test_certificate_verifies_within_proposition_v1(n, m):
    stats = verified(n, m)
    assert stats["secrets"] == m**n
    assert q0(n, m) + 1 <= stats["max_guesses"] <= viaud_max_guesses(n, m)


# -- the bounds ------------------------------------------------------------------------

def test_bound_values_by_hand():
    # m > n: m/n + 2n log2 n + 2n + 1, plus one guess to show the code
    assert viaud_bound(4, 6) == 1.5 + 16 + 8 + 1
    assert viaud_max_guesses(4, 6) == 27
    assert viaud_max_guesses(4, 8) == 2 + 16 + 8 + 1 + 1  # an integer bound is not rounded down
    assert viaud_max_guesses(2, 4) == 2 + 4 + 4 + 1 + 1
    assert viaud_max_guesses(1, 5) == 5 + 0 + 2 + 1 + 1
    # m <= n: n log2 2m
    assert viaud_max_guesses(4, 4) == 4 * 3 + 1
    assert viaud_max_guesses(4, 2) == 4 * 2 + 1
    assert viaud_max_guesses(3, 3) == math.floor(3 * math.log2(6)) + 1 == 8
    assert viaud_max_guesses(5, 5) == math.floor(5 * math.log2(10)) + 1 == 17


def test_exact_floor_agrees_with_floats():
    for n in range(1, 9):
        for m in range(2, 37):
            x = viaud_bound(n, m)
            if abs(x - round(x)) > 1e-6:
                assert viaud_max_guesses(n, m) == math.floor(x) + 1, (n, m)


def test_q0_by_hand():
    # p = n(n+3)/2: 14 feedbacks with 4 pegs; 1 + 14 + 14^2 = 211 < 1296 <= 211 + 14^3
    assert feedback_count(4) == 14
    assert q0(4, 6) == 3
    assert q0(1, 3) == 1  # p = 2: 1 + 2 >= 3
    assert q0(1, 4) == 2
    assert q0(2, 2) == 1  # p = 5: 1 + 5 >= 4
    assert q0(4, 6, codes=360) == 3  # 211 < 360 (4x6 without repetition)
    assert q0(3, 6, codes=120) == 3  # p = 9: 1 + 9 + 81 = 91 < 120
    assert q0(1, 1) == 0


@pytest.mark.parametrize("n", range(1, 7))
def test_feedback_count_is_the_number_of_feedbacks(n):
    game = Game(n, n + 1)
    guess = game.parse("".join(map(str, range(n))))  # n distinct colours: every feedback occurs
    assert len(set(game.feedback([guess], range(game.size)).ravel().tolist())) == feedback_count(n)


def test_f_properties_of_section_iii():
    for n in range(1, 13):
        assert f(n, 0) == f(n, n) == 0
        assert f(n, n / 2) == pytest.approx(n)
        xs = [k / 4 for k in range(4 * n + 1)]
        for x in xs:
            assert f(n, x) == pytest.approx(f(n, n - x))
        values = [f(n, x) for x in xs if x <= n / 2]
        assert values == sorted(values)


def test_lemma_iii_1():
    for n1, n2 in itertools.product(range(1, 9), repeat=2):
        for x1, x2 in itertools.product(range(n1 + 1), range(n2 + 1)):
            assert f(n1, x1) + f(n2, x2) <= f(n1 + n2, x1 + x2) + 1e-9


# -- section IV: the dichotomic subset search ------------------------------------------

def run_search(E, S):
    """Number of questions the search asks to find S in E, and its answer."""
    asked = []

    def ask(part):
        asked.append(part)
        yield None
        return len(set(part) & S)

    gen = subset_search(E, len(S), ask)
    try:
        while True:
            gen.send(None)
    except StopIteration as stop:
        return len(asked), stop.value


@pytest.mark.parametrize("n", range(1, 11))
def test_subset_search_within_proposition_iv_1(n):
    E = list(range(n))
    power_of_two = n & (n - 1) == 0
    for p in range(n + 1):
        worst = 0
        for S in itertools.combinations(E, p):
            asked, found = run_search(E, set(S))
            assert found == list(S)
            worst = max(worst, asked)
        if 0 < p < n:
            assert worst <= f(n, p) - power_of_two + 1e-9, (n, p, worst)
        else:
            assert worst == 0


# -- section V: the phases -------------------------------------------------------------

def test_worked_example_4x6():
    """Secret 3132 traced by hand from the paper's rules (our colours 0..5, the paper's m is 5)."""
    steps = play(4, 6, (3, 1, 3, 2))
    codes = ["".join(map(str, code)) for _, code in steps]
    assert codes == [
        "5555",  # V.a: count of colour m: 0
        "4555",  # m = 4*1 + 2: colours nq+1..m-1 = {4}, padded with m: none present
        "0123",  # block k = 1: 3 present
        "0155",  # IV: {0,1,2,3}, 3 present: ask {0,1} -> 1
        "0555",  # {0,1}, 1 present: ask {0} -> 0, so 1; {2,3} has 2: both
        "2222",  # counts of 2 and 3; colour 1's count by difference: 4 - 1 - 2 = 1
        "3333",
        "3300",  # V.b: colour 3 (count 2) first, filler 0 (lowest absent): ask places {0,1} -> 1
        "3000",  # {0,1}: ask {0} -> 1; {2,3}: ask {2} -> 1
        "0030",
        "0100",  # colour 1 on the free places {1,3}: ask {1} -> 1; colour 2 takes the rest
        "3132",  # shown (Remarque V.1)
    ]
    assert [phase for phase, _ in steps] == ["colours"] * 7 + ["places"] * 4 + ["show"]


def test_s_k_codes_when_every_colour_occurs():
    """V.b, t = m <= n: colour 2 at k, colour 1 elsewhere; the forced last place is not asked."""
    steps = play(4, 2, (1, 1, 1, 0))
    places = ["".join(map(str, code)) for phase, code in steps if phase == "places"]
    assert places == ["0111", "1011", "1101"]  # colour 1 (3 pegs) is "colour 1", 0 is "colour 2"
    assert steps[-1] == ("show", (1, 1, 1, 0))
    # once the one 0 is found, the places left are forced and not asked
    steps = play(4, 2, (1, 0, 1, 1))
    assert [code for phase, code in steps if phase == "places"] == [(0, 1, 1, 1), (1, 0, 1, 1)]


@pytest.mark.parametrize("n,m", [(2, 5), (3, 4), (3, 7), (4, 3), (4, 4), (4, 6), (5, 5), (6, 4), (3, 12)])
def test_phases_within_the_papers_bounds(n, m):
    """V.a: at most m/n + t log2 2n + t + 1 guesses (m > n), m + t (m <= n);
    V.b: at most n log2 n (m > n), n log2 m (m <= n, t < m), n + n log2 m (t = m)."""
    for secret in itertools.product(range(m), repeat=n):
        steps = play(n, m, secret)
        assert steps[-1] == ("show", secret) or steps[-1][1] == secret
        t = len(set(secret))
        colours = sum(phase == "colours" for phase, _ in steps)
        places = sum(phase == "places" for phase, _ in steps)
        assert colours <= (m / n + t * math.log2(2 * n) + t + 1 if m > n else m + t), secret
        if t < m:
            assert places <= (n * math.log2(n) if m > n else n * math.log2(m)) + 1e-9, secret
        else:
            assert places <= n + n * math.log2(m), secret


# -- the command line and the catalogue ------------------------------------------------

def test_refuses_games_without_repetition_and_first():
    with pytest.raises(CertifyError, match="repetition"):
        get_strategy("viaud")(Game(4, 6, repetition=False))
    with pytest.raises(CertifyError, match="--first"):
        get_strategy("viaud")(Game(4, 6), first="0011")


def test_stats_shows_the_bounds(tmp_path, capsys):
    path = tmp_path / "v.json"
    assert main(["build", "viaud", "--pegs", "3", "--colors", "5", "-q", "-o", str(path)]) == 0
    capsys.readouterr()
    assert main(["stats", str(path)]) == 0
    out = capsys.readouterr().out
    measured = verify.verify_file(str(path)).replayed["max_guesses"]
    assert f"q0 = {q0(3, 5)}" in out
    assert f"upper bound: {viaud_max_guesses(3, 5)} guesses" in out
    assert f"measured max {measured}" in out

    path = tmp_path / "k.json"
    assert main(["build", "knuth", "--pegs", "2", "--colors", "3", "-q", "-o", str(path)]) == 0
    capsys.readouterr()
    assert main(["stats", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"q0 = {q0(2, 3)}" in out and "upper bound" not in out


def test_committed_4x6_certificate_is_reproduced(tmp_path):
    entry = next(e for e in CATALOG if e[0] == "viaud-4x6.json")
    assert build_one(entry, tmp_path) == (ROOT / "viaud-4x6.json").read_bytes()
    report = verify.verify_file(str(ROOT / "viaud-4x6.json"))
    assert report.valid and report.replayed["max_guesses"] <= viaud_max_guesses(4, 6)
