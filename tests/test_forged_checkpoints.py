"""Checkpoints are hints, never facts (issue 46, item 1 and its checkpoint rows): a damaged or
forged checkpoint, its own sha256 recomputed, is refused in one line or costs time; never a
traceback, never a false figure. Every row through the CLI and through the library (search.exact)."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import struct
from pathlib import Path

import orjson
import pytest

from certify.errors import CertifyError, Inconsistent
from certify.game import Game
from certify.search import exact
from certify.search.checkpoint import Checkpoint, describe
from certify.search.memofile import MemoFileError
from certify.search.worst import WorstSearch

from conftest import run_cli, run_here  # run_here: certify in this process

TRACEBACKS = ("Traceback", "struct.error", "IndexError", "TypeError", "KeyError", "AssertionError")


def _entry(k: int, codes, value: int = 2) -> bytes:
    return struct.pack("<BI", k, len(codes)) + b"".join(struct.pack("<H", c) for c in codes) + bytes([value])


def _memo(path: Path, game: Game, body: bytes) -> Path:
    """A worst-case checkpoint of ``body``, its header's length and sha256 recomputed (a forger's)."""
    head = {"format": "certify-worst-case-memo", "version": 1, "game": game.to_json(), "key_bytes": 2,
            "body_bytes": len(body), "sha256": hashlib.sha256(body).hexdigest()}
    path.write_bytes(json.dumps(head, sort_keys=True).encode() + b"\n" + body)
    return path


def _body(path: Path) -> bytes:
    return path.read_bytes().split(b"\n", 1)[1]


def _refused_in_one_line(done, *phrases) -> str:
    """The command's error: exit 2, one error line naming what, no traceback, no output."""
    errors = [line for line in done.stderr.splitlines() if "error:" in line]
    assert done.returncode == 2, done.stderr
    assert len(errors) == 1 and not any(word in done.stderr for word in TRACEBACKS), done.stderr
    for phrase in phrases:
        assert phrase in errors[0], errors[0]
    return errors[0]


def _no_false_line(text: str, figure: str) -> None:
    """Every line that states ``figure`` says it is unchecked."""
    for line in text.splitlines():
        if figure in line:
            assert "unchecked" in line, line


# -- the worst-case search's checkpoint (bound --worst --checkpoint FILE) -----------------------

def test_a_forged_2x3_checkpoint_saying_4_is_refused_and_left_as_it_was(tmp_path):
    memo = _memo(tmp_path / "f.memo", Game(2, 3), _entry(4, range(9)))  # "every code: needs 4"
    given = memo.read_bytes()
    done = run_here("bound", "--pegs", "2", "--colors", "3", "--worst", "--checkpoint", memo, "-o", tmp_path / "w.json")
    _refused_in_one_line(done, "the checkpoint", "inconsistent", "rerun without it")
    _no_false_line(done.stdout + done.stderr, "needs >= 4")
    assert not (tmp_path / "w.json").exists() and memo.read_bytes() == given  # not saved over
    with pytest.raises(Inconsistent, match="inconsistent"):
        exact.worst_case(Game(2, 3), checkpoint=str(memo))
    with pytest.raises(Inconsistent):
        exact.at_least(Game(2, 3), 4, checkpoint=str(memo))
    done = run_here("bound", "--pegs", "2", "--colors", "3", "--worst", "--at-least", "4", "--checkpoint", memo,
                   "-o", tmp_path / "w.json")
    _refused_in_one_line(done, "the checkpoint", "inconsistent")
    _no_false_line(done.stdout + done.stderr, "needs >= 4")
    assert not (tmp_path / "w.json").exists() and memo.read_bytes() == given


@pytest.mark.parametrize("strategy", [False, True])
def test_sets_marked_refuted_in_a_3x3_checkpoint_never_give_worst_case_3(tmp_path, strategy):
    memo = _memo(tmp_path / "r.memo", Game(3, 3), _entry(4, range(27), 0))  # true: 3x3 needs 4
    out = ["--strategy-out", tmp_path / "s.json"] if strategy else []
    done = run_here("bound", "--pegs", "3", "--colors", "3", "--worst", "--checkpoint", memo, "-o",
                   tmp_path / "w.json", *out)
    _refused_in_one_line(done, "inconsistent", "settled within 3 guesses")
    assert not (tmp_path / "w.json").exists() and not (tmp_path / "s.json").exists()
    with pytest.raises(Inconsistent):
        exact.worst_case(Game(3, 3), checkpoint=str(memo), strategy=strategy)


def test_a_true_checkpoint_still_resumes_to_the_same_checked_bytes(tmp_path):
    game = Game(3, 4)
    memo = tmp_path / "t.memo"
    search = WorstSearch(game, checkpoint=str(memo))
    search.needs(search._every, 4)
    search.save()
    whole = exact.worst_case(game, strategy=True)
    resumed = exact.worst_case(game, strategy=True, checkpoint=str(memo))
    assert resumed.data == whole.data and resumed.checked.valid and resumed.strategy == whole.strategy
    done = run_here("bound", "--pegs", "3", "--colors", "4", "--worst", "--checkpoint", memo, "-o", tmp_path / "w.json")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "w.json").read_bytes() == whole.data
    assert "checked: the least worst case of 3x4 is 4" in done.stderr  # from a checkpoint: both sides
    assert "again with: certify verify" in done.stdout


def _real_2x5(tmp_path) -> Path:
    game = Game(2, 5)
    memo = tmp_path / "real.memo"
    search = WorstSearch(game, checkpoint=str(memo))
    search.needs(search._every, 5)  # every set the least worst case (4) and one more look at
    search.save()
    return memo


def test_every_byte_of_a_real_2x5_checkpoint_flipped_is_refused_or_costs_time(tmp_path):
    game, memo = Game(2, 5), _real_2x5(tmp_path)
    truth = exact.worst_case(game, strategy=True)
    body = _body(memo)
    assert len(body) > 20
    outcomes = {"refused": 0, "inconsistent": 0, "same": 0}
    for at in range(len(body)):
        for mask in (0x01, 0x02, 0xFF):
            forged = bytearray(body)
            forged[at] ^= mask
            path = _memo(tmp_path / "flip.memo", game, bytes(forged))
            try:
                found = exact.worst_case(game, strategy=True, checkpoint=str(path))
            except MemoFileError:
                outcomes["refused"] += 1
                continue
            except Inconsistent:
                outcomes["inconsistent"] += 1
                continue
            # accepted: then the checkers accepted what it shows, and it is the truth
            assert found.proof["claims"] == truth.proof["claims"] and found.checked.valid
            outcomes["same"] += 1
    assert outcomes["refused"] and outcomes["inconsistent"], outcomes  # both ways are exercised
    # one through the CLI: the value byte of an entry flipped from proven to refuted or back
    forged = bytearray(body)
    forged[-1] ^= 0x02
    path = _memo(tmp_path / "flip.memo", game, bytes(forged))
    done = run_here("bound", "--pegs", "2", "--colors", "5", "--worst", "--checkpoint", path, "-o", tmp_path / "w.json")
    assert not any(word in done.stderr for word in TRACEBACKS), done.stderr
    if done.returncode:
        _refused_in_one_line(done, "inconsistent")
    else:
        assert "needs >= 4 guesses" in done.stdout


DAMAGED = {  # bodies of a 2x3 checkpoint, the header's sha256 recomputed: 158-170 byte files
    "truncated set": _entry(4, range(9))[:-5],
    "odd set": _entry(4, range(9))[:-2] + b"\x02",
    "short entry": _entry(4, range(9)) + b"\x04\x00",
    "a set longer than the file": struct.pack("<BI", 4, 2**31) + b"\x00" * 8,
    "decreasing codes": _entry(4, [3, 1, 2, 5]),
    "a code outside the game": _entry(4, [1, 2, 3, 99]),
    "a set at k = 2": _entry(2, [1, 2, 3]),
    "a set twice": _entry(4, range(9)) * 2,
    "neither refuted nor proven": _entry(4, range(9), 1),
}


@pytest.mark.parametrize("name", sorted(DAMAGED))
def test_a_damaged_checkpoint_is_refused_in_one_line(tmp_path, name):
    memo = _memo(tmp_path / "d.memo", Game(2, 3), DAMAGED[name])
    with pytest.raises(MemoFileError, match="damaged checkpoint"):
        exact.worst_case(Game(2, 3), checkpoint=str(memo))
    done = run_here("bound", "--pegs", "2", "--colors", "3", "--worst", "--checkpoint", memo, "-o", tmp_path / "w.json")
    _refused_in_one_line(done, "damaged checkpoint")


def test_every_cut_of_a_real_checkpoint_is_refused(tmp_path):
    """Each shorter body (the sha256 recomputed) is cut inside an entry, or is a true checkpoint."""
    game, memo = Game(2, 5), _real_2x5(tmp_path)
    body = _body(memo)
    for end in range(len(body)):
        path = _memo(tmp_path / "cut.memo", game, body[:end])
        try:
            WorstSearch(game, checkpoint=str(path))
        except MemoFileError as e:
            assert "damaged checkpoint" in str(e)


def test_a_header_whose_length_is_not_a_number_is_refused(tmp_path):
    memo = _memo(tmp_path / "h.memo", Game(2, 3), b"")
    head, _ = memo.read_bytes().split(b"\n", 1)
    for length in ('"12"', "-1", "1e9", "10000000000"):
        memo.write_bytes(head.replace(b'"body_bytes": 0', b'"body_bytes": ' + length.encode()) + b"\n")
        with pytest.raises(MemoFileError, match="damaged checkpoint"):
            WorstSearch(Game(2, 3), checkpoint=str(memo))


# -- the split search's checkpoint folder (build optimal --checkpoint DIR) -----------------------

BUILD = ["build", "optimal", "--pegs", "2", "--colors", "4", "-q"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A true checkpoint folder of build optimal 2x4 (least total 45), and one task file's result."""
    where = tmp_path_factory.mktemp("c") / "c24"
    done = run_here(*BUILD, "--checkpoint", where, "-o", where.parent / "s.json")
    assert done.returncode == 0, done.stderr
    return where


def _task(folder: Path) -> Path:
    # the class of 4 secrets whose value is 8: the task the edits below change
    for path in sorted(folder.glob("task-*.json.gz")):
        if orjson.loads(gzip.decompress(path.read_bytes()))["t"][0] == 13:
            return path
    raise AssertionError("no task of value 13")


def _edited(folder: Path, tmp_path: Path, edit) -> Path:
    copy = tmp_path / "c"
    shutil.copytree(folder, copy)
    task = _task(copy)
    doc = orjson.loads(gzip.decompress(task.read_bytes()))
    data = edit(doc)
    task.write_bytes(gzip.compress(data if isinstance(data, bytes) else orjson.dumps(doc)))
    return copy


def _api_total(copy: Path):
    return exact.total(Game(2, 4), run=Checkpoint(copy, describe(Game(2, 4), None)), checkpoint=str(copy))


@pytest.mark.parametrize("change", [1, -1])
def test_a_task_value_raised_or_lowered_by_one_is_refused(folder, tmp_path, change):
    def edit(doc):
        doc["t"][0] += change

    copy = _edited(folder, tmp_path, edit)
    done = run_here(*BUILD, "--checkpoint", copy, "--proof", tmp_path / "p.json", "-o", tmp_path / "s.json")
    _refused_in_one_line(done, f"the checkpoint {copy} is inconsistent", "rerun without it")
    _no_false_line(done.stdout + done.stderr, f"is {45 + change}")
    assert not (tmp_path / "p.json").exists() and not (tmp_path / "s.json").exists()
    with pytest.raises(Inconsistent):
        _api_total(copy)


def test_a_raised_value_read_by_dask_workers_runs_is_refused_too(folder, tmp_path):
    """The same folder read by a run on a local cluster (--workers): the same Checkpoint, the same checks."""
    def edit(doc):
        doc["t"][0] += 1

    copy = _edited(folder, tmp_path, edit)
    done = run_cli(*BUILD, "--workers", "2", "--checkpoint", copy, "--proof", tmp_path / "p.json",
                   "-o", tmp_path / "s.json")
    _refused_in_one_line(done, f"the checkpoint {copy} is inconsistent")
    assert not (tmp_path / "p.json").exists()


SEVEN = {  # one file of the folder changed; "refused" or "again": computed again (costs time)
    "cut short": (lambda doc: orjson.dumps(doc)[:40], "again"),
    "a value as text": (lambda doc: doc["t"].__setitem__(0, "13"), "again"),
    "a piece dropped": (lambda doc: doc["t"].pop(), "again"),
    "a strategy's guess outside the game": (lambda doc: doc["t"][2]["d"][0].__setitem__(1, 99), "again"),
    "no proof nodes": (lambda doc: doc["t"].__setitem__(1, []), "again"),
    "a node that is not one": (lambda doc: doc["t"][1][0]["t"].__setitem__(3, 5), "again"),
    "an unknown tag": (lambda doc: doc["t"][2].__setitem__("x", 1), "again"),
    "a proof node's bound raised": (lambda doc: doc["t"][1][0]["t"][3]["d"][0].__setitem__(1, 14), "refused"),
    "a strategy set of 7 bytes": (lambda doc: doc["t"][2]["d"][0][0].__setitem__("b", "00" * 7), "again"),
    "another class's strategy": (lambda doc: doc["t"][2]["d"][0][0].__setitem__("b", "01" + "00" * 7), "refused"),
}


@pytest.mark.parametrize("name", sorted(SEVEN))
def test_one_file_changed_in_a_build_optimal_folder(folder, tmp_path, name):
    edit, outcome = SEVEN[name]
    copy = _edited(folder, tmp_path, edit)
    done = run_here(*BUILD, "--checkpoint", copy, "--proof", tmp_path / "p.json", "-o", tmp_path / "s.json")
    assert not any(word in done.stderr for word in TRACEBACKS), done.stderr
    if outcome == "refused":
        _refused_in_one_line(done, "inconsistent", "rerun without it")
        with pytest.raises(Inconsistent):
            _api_total(copy)
        return
    assert done.returncode == 0, done.stderr
    whole = tmp_path / "whole"
    whole.mkdir()
    assert run_here(*BUILD, "--proof", whole / "p.json", "-o", whole / "s.json",
                   "--checkpoint", whole / "c").returncode == 0
    for out in ("p.json", "s.json"):
        assert (tmp_path / out).read_bytes() == (whole / out).read_bytes()
    assert _api_total(copy).checked.claims == {"total": 45}


@pytest.mark.parametrize("meta", [b"[]", b'{"format": 1}', b"null", b'"x"'])
def test_a_changed_checkpoint_json_is_refused_in_one_line(folder, tmp_path, meta):
    copy = tmp_path / "c"
    shutil.copytree(folder, copy)
    (copy / "checkpoint.json").write_bytes(meta)
    done = run_here(*BUILD, "--checkpoint", copy, "-o", tmp_path / "s.json")
    _refused_in_one_line(done, "holds the checkpoint of another search")


def test_a_task_file_that_is_a_link_is_computed_again(folder, tmp_path):
    copy = tmp_path / "c"
    shutil.copytree(folder, copy)
    task = _task(copy)
    task.unlink()
    task.symlink_to("/dev/zero")
    done = run_here(*BUILD, "--checkpoint", copy, "-o", tmp_path / "s.json")
    assert done.returncode == 0 and not any(word in done.stderr for word in TRACEBACKS), done.stderr


def test_no_strategy_within_the_limit_from_a_checkpoint_alone_is_refused(tmp_path):
    """Every task of a folder forged to say its class cannot be settled: the worst-case proof
    (searched afresh, checked) shows a strategy within the limit exists."""
    args = ["build", "optimal", "--pegs", "2", "--colors", "4", "--max-guesses", "4", "-q"]
    copy = tmp_path / "c"
    assert run_here(*args, "--checkpoint", copy, "-o", tmp_path / "s.json").returncode == 0
    for task in copy.glob("task-*.json.gz"):
        doc = orjson.loads(gzip.decompress(task.read_bytes()))
        doc["t"][0] = 10**9
        task.write_bytes(gzip.compress(orjson.dumps(doc)))
    done = run_here(*args, "--checkpoint", copy, "-o", tmp_path / "t.json")
    assert "no strategy for 2x4 settles" not in done.stdout + done.stderr
    _refused_in_one_line(done, "inconsistent")


def test_check_options_name_the_limits_a_proof_needs():
    """What `certify verify` needs beyond its defaults to accept again what a search wrote."""
    small = exact.worst_case(Game(3, 3))
    assert small.check_options() == ""
    assert small.checked.valid and small.work > 0

    class Big:  # a report as the checker gives it, for a game past --max-codes's default
        secrets, checked = 15_625, {"work": 24_824_560_000, "nodes": 1000}

    from certify.optimality import check_options

    assert check_options(Big, 794_000) == "--max-codes 15625 --max-work 24824560000"
    assert check_options(Big, 10**6) == "--max-codes 15625"  # a budget of 1e9 + 3e4 x 1e6 bytes
    Big.checked = {"work": 10**9, "nodes": 10**6}  # 1.56e10 (node, guess) pairs: over MAX_WORK
    assert check_options(Big, 10**9) == "--max-codes 15625 --max-work 15625000000"


def test_a_proof_the_checker_refuses_is_never_shown(monkeypatch, tmp_path):
    """Without a checkpoint, a proof the search got wrong is a bug: said so, never printed as found."""
    from certify.search import proof as proofs

    real = proofs.ProofWriter.document

    def wrong(self):
        doc = real(self)
        doc["claims"] = {"worst_case": doc["claims"]["worst_case"] + 1}
        doc["nodes"][0]["bound"] += 1
        return doc

    monkeypatch.setattr(proofs.ProofWriter, "document", wrong)
    with pytest.raises(CertifyError, match="refused by its checker .* a bug of the search"):
        exact.worst_case(Game(3, 3))


def test_the_summaries_give_the_check_command(tmp_path):
    done = run_here("bound", "--pegs", "3", "--colors", "3", "--worst", "-q", "--json", "-o", tmp_path / "w.json")
    summary = json.loads(done.stdout)
    assert summary["checked"] is True and summary["check_command"] == f"certify verify {tmp_path / 'w.json'}"
    again = run_here(*summary["check_command"].split()[1:])
    assert again.returncode == 0 and "valid lower bound" in again.stdout
    done = run_here("build", "optimal", "--pegs", "2", "--colors", "4", "-q", "--json", "--proof", tmp_path / "p.json",
                   "-o", tmp_path / "s.json")
    summary = json.loads(done.stdout)
    assert summary["check_command"] == f"certify verify {tmp_path / 's.json'} --optimal {tmp_path / 'p.json'}"
    again = run_here(*summary["check_command"].split()[1:])
    assert again.returncode == 0 and "optimal: total 45 guesses = proven minimum 45" in again.stdout
