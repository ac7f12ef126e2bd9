"""Differential test: the verifier's replay against a direct simulation of each strategy.

For every secret, play the strategy itself (start from all codes, ask ``choose`` for a
guess, filter the candidates with the builder's numpy feedback, until the secret is
found) and compare the number of guesses with the depth at which the verifier's replay
finds that secret in the certificate.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from certify import verify
from certify.certificate import dumps, make_certificate
from certify.errors import CertifyError
from certify.game import Game
from certify.strategies import STRATEGIES

ROOT = Path(__file__).resolve().parent.parent


def _strategy(cls, game):
    try:
        return cls(game)
    except CertifyError:
        return None


def simulate(strategy, game: Game) -> dict[str, int]:
    """{secret: guesses} by playing the strategy directly, with the builder's feedback.

    choose() depends on the history only, so its answers are memoised by history.
    """
    chosen: dict = {}
    everything = np.arange(game.size)
    out = {}
    for secret in range(game.size):
        candidates, history = everything, ()
        while True:
            if history not in chosen:
                chosen[history] = int(strategy.choose(candidates, history))
            guess = chosen[history]
            fb = int(game.feedback([guess], [secret])[0, 0])
            if fb == game.win:
                out[game.text(secret)] = len(history) + 1
                break
            candidates = candidates[game.feedback([guess], candidates)[0] == fb]
            history += ((guess, fb),)
            assert len(history) < 100
    return out


@pytest.mark.parametrize("strategy_id", sorted(STRATEGIES))
@pytest.mark.parametrize("game", [(3, 3, True), (2, 4, True), (3, 4, False), (4, 4, True)],
                         ids=lambda g: f"{g[0]}x{g[1]}{'' if g[2] else '-norep'}")
def test_replay_agrees_with_direct_simulation_for_every_secret(strategy_id, game):
    game = Game(*game)
    strategy = _strategy(STRATEGIES[strategy_id], game)
    if strategy is None:
        return
    cert = json.loads(dumps(make_certificate(strategy)))
    depths = verify.secret_depths(cert)
    fresh = _strategy(STRATEGIES[strategy_id], game)  # no state shared with the build
    assert depths == simulate(fresh, game)


def test_replay_of_the_committed_knuth_4x6_agrees_with_simulation():
    game = Game(4, 6)
    cert = json.loads((ROOT / "certificates" / "knuth-4x6.json").read_bytes())
    depths = verify.secret_depths(cert)
    assert len(depths) == 1296
    assert depths == simulate(STRATEGIES["knuth"](game), game)
