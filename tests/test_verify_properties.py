"""Property tests: whatever the strategy and the (small) game, the builder's certificate
passes the independent verifier with the claims it states.

Strategies come from the registry, so strategies added later are covered automatically;
one whose rule does not apply to a game refuses it at construction (CertifyError) and is
skipped for that game only.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from certify import verify
from certify.certificate import dumps, make_certificate
from certify.errors import CertifyError
from certify.game import Game
from certify.strategies import STRATEGIES

games = st.tuples(st.integers(1, 4), st.integers(2, 5), st.booleans()).filter(
    lambda g: g[2] or g[0] <= g[1])


def _strategy(cls, game):
    try:
        return cls(game)
    except CertifyError:
        return None


@pytest.mark.parametrize("strategy_id", sorted(STRATEGIES))
@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(game=games)
def test_every_strategy_certificate_verifies_on_small_games(strategy_id, game):
    game = Game(*game)
    strategy = _strategy(STRATEGIES[strategy_id], game)
    if strategy is None:
        return
    cert = make_certificate(strategy)
    report = verify.verify_bytes(dumps(cert), f"{strategy_id} {game.slug}")
    assert report.valid, report.error
    assert report.replayed == cert["claims"]
    assert report.replayed["secrets"] == game.size
