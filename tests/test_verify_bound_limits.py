"""The lower-bound checker's limits (docs/lower-bound-format.md, "Limits"): each refused before the
work it bounds, with a one-line reason; long chains of nodes are checked without recursion."""

from __future__ import annotations

import json

import pytest

from certify import verify_bound

FORMAT = verify_bound.FORMAT


def _doc(game, claims, nodes):
    return {"claims": claims, "format": FORMAT, "game": game, "nodes": nodes, "version": 1}


def _check(doc) -> verify_bound.Report:
    return verify_bound.check_bytes(json.dumps(doc, separators=(",", ":")).encode())


def test_input_larger_than_the_limit_is_refused_before_parsing():
    report = verify_bound.check_bytes(b" " * (verify_bound.MAX_BYTES + 1))
    assert report.status == 2 and report.error.startswith(f"file larger than {verify_bound.MAX_BYTES} bytes (the limit); not checked")


def test_too_many_nodes_and_too_much_work_are_refused_up_front():
    game = {"colors": 10, "pegs": 4, "repetition": True}  # 10,000 codes
    many = verify_bound.MAX_WORK // 10_000 + 1
    report = _check(_doc(game, {"worst_case": 5}, [{"bound": 5}] + [{"bound": 1}] * (many - 1)))
    assert report.status == 2  # not checked: a limit, never a verdict (issue 43)
    assert report.error == (f"nodes: {many} nodes x 10000 guesses each is more than the {verify_bound.MAX_WORK} "
                            "(node, guess) pairs the checker examines (its work limit); "
                            f"not checked: --max-work {many * 10_000} or more raises it")
    tiny = {"colors": 2, "pegs": 1, "repetition": True}
    report = _check(_doc(tiny, {"worst_case": 1}, [{"bound": 1}] * (verify_bound.MAX_NODES + 1)))
    assert report.status == 2 and report.error == (f"nodes: more than {verify_bound.MAX_NODES} nodes (the limit); "
                                                   f"not checked: --max-nodes N with N > {verify_bound.MAX_NODES} "
                                                   "raises it")
    assert report.limit == {"option": "--max-nodes", "limit": verify_bound.MAX_NODES, "needed": None}


def test_the_node_limit_is_the_users():
    """A node limit exists in the checker: --max-nodes (max_nodes=) sets it, as --max-codes the codes."""
    tiny = {"colors": 2, "pegs": 1, "repetition": True}
    raw = json.dumps(_doc(tiny, {"worst_case": 1}, [{"bound": 1}] * 3 + [{"bound": 0}])).encode()
    few = verify_bound.check_bytes(raw, max_nodes=2)
    assert few.status == 2 and few.limit == {"option": "--max-nodes", "limit": 2, "needed": None}
    assert verify_bound.check_bytes(raw, max_nodes=4).status == 1  # checked: nodes 1..3 are not referenced


def test_too_many_entries_are_over_the_node_limit():
    """ENTRIES_PER_NODE entries a node allowed: not checked (exit 2), --max-nodes raises both."""
    game = {"colors": 3, "pegs": 2, "repetition": True}
    entries = {f"{a}{b}": {"0,0": 1} for a in "012" for b in "012"}  # 9 entries, 9 references
    raw = json.dumps(_doc(game, {"worst_case": 1}, [{"bound": 1, "guesses": entries}, {"bound": 1}])).encode()
    report = verify_bound.check_bytes(raw, max_nodes=2)
    assert report.status == 2 and report.limit["option"] == "--max-nodes"
    assert f"more than {2 * verify_bound.ENTRIES_PER_NODE} guess entries and references" in report.error
    assert verify_bound.check_bytes(raw, max_nodes=4).status != 2  # (18 entries: within 4 x 5)


def test_the_game_limit_is_ten_thousand_codes():
    ok = _check(_doc({"colors": 10, "pegs": 4, "repetition": True}, {"worst_case": 1}, [{"bound": 1}]))
    assert ok.valid  # 10,000 codes: at the limit
    big = _check(_doc({"colors": 11, "pegs": 4, "repetition": True}, {"worst_case": 1}, [{"bound": 1}]))
    assert big.status == 2 and big.error == ("game: 14641 codes is too many for the lower-bound checker (limit 10000); "
                                             "not checked: --max-codes 14641 raises it")


def _chain(length: int, last_bound: int):
    """1 peg x 3 colours: the root's guess 0 leaves {1, 2}; then node k plays 0 again (no
    information) and points at node k + 1, the same set: a path ``length`` guesses long."""
    nodes = [{"bound": 2, "guesses": {"0": {"0,0": 1}}}]
    for k in range(1, length):
        nodes.append({"bound": 2, "guesses": {"0": {"0,0": k + 1}}})
    nodes.append({"bound": last_bound})
    return _doc({"colors": 3, "pegs": 1, "repetition": True}, {"worst_case": 2}, nodes)


def test_a_path_of_a_hundred_thousand_guesses_is_checked_without_recursion():
    assert _check(_chain(100_000, 2)).valid
    report = _check(_chain(100_000, 3))
    assert report.status == 1
    # the path is elided in the middle, and the message stays one short line
    assert report.error.startswith("node 100000 (bound 3) at 0 -(0,0)-> 0 -(0,0)->")
    assert "[99988 more steps]" in report.error and len(report.error) < 400 and "\n" not in report.error


def test_progress_is_reported_while_nodes_are_checked(monkeypatch):
    clock = iter(range(10**9))
    monkeypatch.setattr(verify_bound.time, "monotonic", lambda: next(clock) * 0.6)
    calls = []
    raw = json.dumps(_chain(50, 2)).encode()
    assert verify_bound.check_bytes(raw, progress=lambda done, total: calls.append((done, total))).valid
    assert calls[-1] == (None, 51) and calls[0][1] == 51
    done = [d for d, _ in calls[:-1]]
    assert done == sorted(done) and 49 <= done[-1] <= 51 and len(done) >= 10
    calls.clear()  # an invalid file ends the progress line too
    verify_bound.check_bytes(json.dumps(_chain(50, 3)).encode(), progress=lambda d, t: calls.append(d))
    assert calls[-1] is None


def test_the_guess_secret_pairs_are_bounded_as_nodes_are_reached(monkeypatch):
    """Work grows with the nodes' sets (each guess looked at against every secret of the set): it is
    counted before each node's work, and refused past the budget, naming the node that crosses it."""
    monkeypatch.setattr(verify_bound, "GUESS_COST", 0)  # a guess looked at costs its |S| alone
    doc = _chain(50, 2)  # counting settles every node: only guess 0's entry, at 3 secrets, then 2
    monkeypatch.setattr(verify_bound, "MAX_PAIRS", 3 + 10 * 2)
    report = _check(doc)
    assert report.status == 2 and report.error.startswith("node 11 (bound 2) at 0 -(0,0)->")
    assert report.error.endswith("more than 23 (guess, secret) pairs or their equivalent to look at "
                                 "(the limit for a file of this size, by default); "
                                 "not checked: --max-work N with N > 23 raises it")
    monkeypatch.setattr(verify_bound, "MAX_PAIRS", 3 + 50 * 2)
    assert _check(doc).valid and _check(doc).checked["work"] == 3 + 49 * 2  # the last node has no entry
    # a node that counting does not settle: the class sizes of 2x2's 4 guesses at its 4 secrets,
    # n (|S| + b + 1) = 4 (4 + 4 + 1) = 36, and nothing else (every guess is refuted by counting)
    doc = _doc({"colors": 2, "pegs": 2, "repetition": True}, {"total": 8}, [{"bound": 8}])
    monkeypatch.setattr(verify_bound, "MAX_PAIRS", 35)
    assert "(the limit for a file of this size, by default)" in _check(doc).error
    monkeypatch.setattr(verify_bound, "MAX_PAIRS", 36)
    assert _check(doc).valid


def test_the_work_budget_grows_with_the_file_and_counts_swaps_and_same_as(monkeypatch):
    """min(MAX_PAIRS, WORK_BASE + WORK_PER_BYTE x bytes): a small file cannot ask for much; the swap
    checks of interchangeable colours and the P(S) = S checks of same_as entries are counted."""
    game = {"colors": 4, "pegs": 2, "repetition": True}
    swaps = _doc(game, {"worst_case": 1}, [{"bound": 1, "guesses": {"00": {"0,0": 1}}},
                                           {"bound": 1, "interchangeable": [[1, 2, 3]]}])
    raw = json.dumps(swaps).encode()
    work = verify_bound.check_bytes(raw).checked["work"]
    # node 1 (9 secrets): n + 2 swaps x (SWAP_COST + 2 x 9)
    assert work == 16 + 2 * (verify_bound.SWAP_COST + 18) + 1 * (16 + verify_bound.GUESS_COST)
    monkeypatch.setattr(verify_bound, "WORK_BASE", work - 1 - verify_bound.WORK_PER_BYTE * len(raw))
    assert "the limit for a file of this size" in verify_bound.check_bytes(raw).error
    monkeypatch.setattr(verify_bound, "WORK_BASE", work - verify_bound.WORK_PER_BYTE * len(raw))
    assert verify_bound.check_bytes(raw).valid
    same = _doc(game, {"worst_case": 1}, [{"bound": 1, "guesses": {"01": {"same_as": "02", "perm": {
        "pegs": [0, 1], "colors": [0, 2, 1, 3]}}}}])
    monkeypatch.setattr(verify_bound, "WORK_BASE", 10**9)
    checked = _check(same).checked
    # at the root the set is the whole game: every permutation maps it onto itself, no image to pay
    assert checked["work"] == 16 + verify_bound.GUESS_COST
    # below it (the 9 codes without colour 0), P(S) = S is computed and paid for
    below = _doc(game, {"worst_case": 1}, [{"bound": 1, "guesses": {"00": {"0,0": 1}}}, {"bound": 1, "guesses": {
        "12": {"same_as": "13", "perm": {"pegs": [0, 1], "colors": [0, 1, 3, 2]}}}}])
    checked = _check(below).checked
    assert checked["work"] == (16 + verify_bound.GUESS_COST) + (9 + verify_bound.GUESS_COST + verify_bound.IMAGE_COST
                                                                 + verify_bound.IMAGE_PER_SECRET * 9)


def test_the_sets_waiting_to_be_checked_are_bounded(monkeypatch):
    """A root whose every guess names a new node for each class holds n - 1 secrets per guess in
    sets waiting: past MAX_PENDING bytes the file is refused at the reference that crosses it."""
    game = {"colors": 3, "pegs": 2, "repetition": True}
    codes = [a + b for a in "012" for b in "012"]
    classes = {}
    from certify import verify
    for g in codes:
        classes[g] = sorted({"%d,%d" % verify.feedback(g, s) for s in codes} - {"2,0"})
    entries, j = {}, 1
    for g in codes:
        entries[g] = {k: j + n for n, k in enumerate(classes[g])}
        j += len(classes[g])
    doc = _doc(game, {"worst_case": 1}, [{"bound": 1, "guesses": entries}] + [{"bound": 1}] * (j - 1))
    report = _check(doc)
    assert report.valid
    peak = report.checked["peak_set_bytes"]  # the root's set is freed; then 8 secrets per guess wait
    assert peak == 9 * 8 * 2 + (j - 1) * verify_bound.SET_OVERHEAD
    monkeypatch.setattr(verify_bound, "MAX_PENDING", peak - 1)
    report = _check(doc)
    assert report.status == 1 and "would hold more than" in report.error and "\n" not in report.error
    monkeypatch.setattr(verify_bound, "MAX_PENDING", peak)
    assert _check(doc).valid


def test_nesting_at_the_edge_of_the_parser_limit_is_a_one_line_error():
    """Nodes nested near NODE_ROOM (the split into items refuses deeper ones, the decoder reads
    shallower ones when the check reaches them, from a deeper call too): one line, never a traceback."""
    def check(depth: int, frames: int):
        if frames:
            return check(depth, frames - 1)
        bound = "[" * depth + "]" * depth
        text = ('{"claims":{"worst_case":1},"format":"%s","game":{"colors":2,"pegs":1,"repetition":true},'
                '"nodes":[{"bound":%s}],"version":1}' % (FORMAT, bound))
        return verify_bound.check_bytes(text.encode())

    errors = set()
    room = verify_bound.NODE_ROOM
    for depth in range(room - 10, room + 10):
        for frames in (0, 1, 2, 5, 200):
            report = check(depth, frames)
            assert report.status == 1 and "\n" not in report.error
            errors.add(report.error)
    assert errors == {"node 0.bound: expected integer, got array", "JSON nested too deeply"}