"""certify estimate: Knuth's random probes against the worst-case search they predict."""

import json
import subprocess
import sys

from certify.game import Game
from certify.search import exact
from certify.search.estimate import estimate


def run(*args):
    return subprocess.run([sys.executable, "-m", "certify", "estimate", *args], capture_output=True, text=True)


def test_estimate_is_near_the_search_it_predicts():
    game = Game(4, 6, True)
    actual = exact.worst_case(game)  # the least worst case 5, proven
    got = estimate(game, probes=20)
    row = next(r for r in got["runs"] if r["worst_case"] == 5)
    # Within a factor of 3 of the nodes the search took (docs/exact-search.md has the larger games).
    assert actual.searched / 3 <= row["nodes"] <= actual.searched * 3
    assert row["nodes_stderr"] < row["nodes"]
    # A larger D is a larger search: the estimate grows with the hypothesis.
    nodes = [r["nodes"] for r in got["runs"]]
    assert nodes == sorted(nodes) and nodes[0] < nodes[-1]


def test_estimate_is_reproducible_by_its_seed():
    game = Game(3, 5, True)
    strip = lambda d: [(r["worst_case"], r["nodes"]) for r in d["runs"]]  # noqa: E731 (CPU times vary)
    assert strip(estimate(game, seed=3)) == strip(estimate(game, seed=3))


def test_cli_json_and_errors():
    done = run("--pegs", "3", "--colors", "4", "--worst", "--at-least", "4", "--json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["estimate_version"] == 1 and doc["runs"][0]["at_least"] == 4 and doc["runs"][0]["nodes"] >= 1
    for bad, word in ((["--upto", "1"], "--upto"), (["--probes", "1"], "--probes")):
        done = run("--pegs", "3", "--colors", "4", "--worst", *bad)
        assert done.returncode == 2 and word in done.stderr and "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
