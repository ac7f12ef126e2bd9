"""The lower-bound checker's game limit (issue 36): 10,000 codes unless the user asks for more with
--max-codes (up to 46,656: the feedback table is one byte a pair), never the file."""

from __future__ import annotations

import orjson

from certify import verify_bound
from certify.optimality import check_bytes

from conftest import run_here  # certify in this process

#: 3 pegs x 22 colours: 10,648 codes, just past the default; counting alone proves 4 guesses.
PROOF = orjson.dumps({"format": "mastermind-lower-bound-certificate", "version": 1,
                      "game": {"pegs": 3, "colors": 22, "repetition": True},
                      "claims": {"worst_case": 4}, "nodes": [{"bound": 4}]})


def test_a_game_past_the_default_is_refused_and_the_message_says_how_to_check_it():
    report = verify_bound.check_bytes(PROOF)
    assert not report.valid and report.status == 2  # not checked: unusable, never invalid (issue 43)
    assert report.error == ("game: 10648 codes is too many for the lower-bound checker "
                            "(limit 10000); not checked: --max-codes 10648 raises it")
    assert report.limit == {"option": "--max-codes", "limit": 10000, "needed": 10648}
    assert verify_bound.check_bytes(PROOF, max_codes=10_647).error.endswith(
        "(limit 10647); not checked: --max-codes 10648 raises it")


def test_asked_for_it_is_checked_and_the_ceiling_holds():
    assert verify_bound.check_bytes(PROOF, max_codes=10_648).valid
    kind, report = check_bytes(PROOF, "p.json", max_codes=10_648)
    assert kind == "lower-bound" and report.valid
    # past the ceiling the limit is the ceiling, whatever is asked (a 6x7 game: 279,936 codes)
    big = PROOF.replace(b'"pegs":3,"colors":22', b'"pegs":7,"colors":6')
    report = verify_bound.check_bytes(big, max_codes=10**9)
    assert report.status == 2 and report.error == ("game: 279936 codes is too many for the lower-bound checker "
                                                   "(ceiling 46656); not checked: the checker's ceiling, no option raises it")


def test_the_command_lines_take_max_codes(tmp_path):
    path = tmp_path / "p.json"
    path.write_bytes(PROOF)
    done = run_here("verify", path)
    assert done.returncode == 2 and "unusable" in done.stderr and "--max-codes 10648 raises it" in done.stderr
    done = run_here("verify", path, "--max-codes", "10648")
    assert done.returncode == 0 and "valid lower bound: every strategy for 3x22 needs >= 4" in done.stdout
    done = run_here("verify", path, "--max-codes", "46657")
    assert done.returncode == 2 and done.stderr.strip().endswith("--max-codes: at most 46656, got 46657")
    assert verify_bound.main([str(path), "--max-codes", "10648"]) == 0
    assert verify_bound.main([str(path)]) == 2
