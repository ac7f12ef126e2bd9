"""Property tests on random small games: what the search writes, the checkers accept, and the
proven bounds are exactly the plain brute-force optima (tests/test_search_plain.py)."""

from __future__ import annotations

from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st

from certify import verify, verify_bound
from certify.certificate import dumps as strategy_bytes
from certify.game import Game
from certify.search import exact
from certify.search.proof import dumps

from test_search_plain import plain_optima

plain = lru_cache(maxsize=None)(plain_optima)

#: Games of at most 24 codes, where the plain search takes at most a second or two.
GAMES = st.sampled_from([(1, 2, True), (1, 5, True), (1, 4, False), (2, 2, True), (2, 3, True),
                         (2, 4, True), (3, 2, True), (2, 3, False), (2, 4, False), (2, 5, False),
                         (3, 3, False), (3, 4, False), (4, 4, False)])


@settings(max_examples=25, deadline=None)
@given(GAMES, st.integers(min_value=0, max_value=2))
def test_search_proofs_are_checked_and_optimal(game, extra):
    pegs, colors, repetition = game
    g = Game(pegs, colors, repetition)
    worst = exact.worst_case(g)
    report = verify_bound.check_bytes(dumps(worst.proof))
    assert report.valid, report.line()
    d = worst.proof["claims"]["worst_case"]
    plain_worst, plain_total, _ = plain(pegs, colors, repetition)
    assert d == plain_worst
    # The least total within d + extra guesses (never below the unlimited optimum).
    limit = d + extra
    total = exact.total(g, limit)
    report = verify_bound.check_bytes(dumps(total.proof))
    assert report.valid, report.line()
    assert total.proof["claims"] == {"total": plain(pegs, colors, repetition, limit)[2],
                                     "max_guesses": limit}
    assert total.proof["claims"]["total"] >= plain_total
    checked = verify.verify_bytes(strategy_bytes(total.strategy))
    assert checked.valid, checked.line()
    assert checked.claims["total_guesses"] == total.proof["claims"]["total"]
    assert checked.claims["max_guesses"] <= limit
