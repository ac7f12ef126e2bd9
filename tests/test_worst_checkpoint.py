"""The worst-case search's checkpoint (bound --worst --checkpoint FILE): a search stopped mid-way
resumes from what it finished and writes the same bytes as one never stopped."""

from __future__ import annotations

import gzip
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from certify.game import Game
from certify.search import exact
from certify.search.memofile import MemoFileError
from certify.search.proof import dumps
from certify.search.worst import WorstSearch

ROOT = Path(__file__).resolve().parent.parent
COMMITTED_4X7 = gzip.decompress((ROOT / "certificates" / "bounds" / "worst-case-4x7.json.gz").read_bytes())


def _cli(*args, **kw):
    return subprocess.Popen([sys.executable, "-m", "certify", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kw)


def test_a_search_killed_mid_way_resumes_to_the_same_bytes(tmp_path):
    memo, first, second = tmp_path / "4x7.memo", tmp_path / "a.json", tmp_path / "b.json"
    args = ["bound", "--pegs", "4", "--colors", "7", "--worst", "--checkpoint", str(memo)]
    # Saved after every set searched: the file exists early and grows until the stop.
    run = _cli(*args, "--checkpoint-every", "0", "-o", str(first))
    deadline = time.monotonic() + 120
    while not (memo.exists() and memo.stat().st_size > 4_000) and run.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    run.send_signal(signal.SIGTERM)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 128 + signal.SIGTERM, err  # stopped, not finished
    assert not first.exists() and "stopped by SIGTERM" in err
    assert "Traceback" not in err
    saved = memo.stat().st_size

    again = _cli(*args, "-o", str(second), "--json")
    out, err = again.communicate(timeout=300)
    assert again.returncode == 0, err
    assert "resumed with" in err
    import json

    searched = json.loads(out)["searched"]
    assert searched < 441  # an uninterrupted run searches 441 sets; the resumed one only the rest
    assert second.read_bytes() == COMMITTED_4X7
    assert memo.stat().st_size >= saved


def _stopped_at_the_40th_node(monkeypatch, run) -> None:
    """``run()`` with the search interrupted (as by Ctrl-C) at its 40th node; the search restored after."""
    calls, real = {"n": 0}, WorstSearch._search

    def stopping(self, cands, k):
        calls["n"] += 1
        if calls["n"] == 40:
            raise KeyboardInterrupt
        return real(self, cands, k)

    monkeypatch.setattr(WorstSearch, "_search", stopping)
    with pytest.raises(KeyboardInterrupt):
        run()
    monkeypatch.setattr(WorstSearch, "_search", real)


def test_a_stop_in_process_saves_and_the_strategy_is_the_same_too(tmp_path, monkeypatch):
    game = Game(4, 5)
    whole = exact.worst_case(game, strategy=True)
    memo = tmp_path / "4x5.memo"
    _stopped_at_the_40th_node(monkeypatch, lambda: exact.worst_case(game, strategy=True, checkpoint=(str(memo), 1e9)))  # saved only when stopped
    assert memo.exists()
    resumed = exact.worst_case(game, strategy=True, checkpoint=str(memo))
    assert resumed.searched < whole.searched
    assert dumps(resumed.proof) == dumps(whole.proof)
    from certify.certificate import dumps as strategy_bytes

    assert strategy_bytes(resumed.strategy) == strategy_bytes(whole.strategy)


def test_a_checkpoint_of_another_game_or_damaged_is_refused_in_one_line(tmp_path):
    memo = tmp_path / "x.memo"
    search = WorstSearch(Game(3, 4), checkpoint=str(memo))
    search.needs(search._every, 4)
    search.save()
    with pytest.raises(MemoFileError, match="another game"):
        WorstSearch(Game(3, 5), checkpoint=str(memo))
    raw = memo.read_bytes()
    memo.write_bytes(raw[:-3])
    with pytest.raises(MemoFileError, match="damaged"):
        WorstSearch(Game(3, 4), checkpoint=str(memo))
    memo.write_bytes(b"not a checkpoint\n")
    run = _cli("bound", "--pegs", "3", "--colors", "4", "--worst", "--checkpoint", str(memo), "-q",
               "-o", str(tmp_path / "p.json"))
    out, err = run.communicate(timeout=120)
    assert run.returncode == 2 and err.count("\n") == 1 and "not a worst-case search checkpoint" in err


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks on this system")
def test_a_checkpoint_is_never_written_through_a_link(tmp_path):
    target = tmp_path / "elsewhere"
    target.write_bytes(b"keep")
    link = tmp_path / "link.memo"
    link.symlink_to(target)
    from certify.search import memofile

    with pytest.raises(MemoFileError, match="not a regular file"):
        memofile.save(str(link), {}, Game(3, 4), 2)
    assert target.read_bytes() == b"keep"


def test_checkpoint_goes_with_worst_only(tmp_path):
    run = _cli("bound", "--pegs", "3", "--colors", "4", "--total", "--checkpoint", str(tmp_path / "m"),
               "-o", str(tmp_path / "p.json"))
    out, err = run.communicate(timeout=120)
    assert run.returncode == 2 and "--checkpoint goes with --worst" in err


def _git(*args, cwd):
    return subprocess.run(["git", "-c", "user.name=certify tests", "-c", "user.email=tests@example.org", *args],
                          cwd=cwd, check=True, capture_output=True, text=True).stdout


def test_a_search_stopped_in_one_clone_resumes_in_a_fresh_clone_from_what_is_committed(tmp_path, monkeypatch):
    """Issue 45: the state committed under certificates/state/ is all another machine needs. A 4x5
    search stopped in one clone, its checkpoint committed there, resumes in a fresh clone of that
    one (relative paths, as docs/exact-search.md says) and writes the one-run bytes, checked."""
    game, state = Game(4, 5), "certificates/state/worst-case-4x5.memo.gz"
    here, there = tmp_path / "here", tmp_path / "there"
    _git("clone", "-q", str(ROOT), str(here), cwd=tmp_path)
    assert (here / "certificates" / "state").is_dir()  # the committed place exists in every clone
    whole = exact.worst_case(game, strategy=True)
    _stopped_at_the_40th_node(monkeypatch, lambda: exact.worst_case(game, strategy=True, checkpoint=(str(here / state), 1e9)))  # saved when stopped
    saved = (here / state).read_bytes()
    assert str(tmp_path).encode() not in gzip.decompress(saved)  # no machine path in a committed file
    assert _git("status", "--porcelain", "certificates/state", cwd=here).split() == ["??", state]  # not ignored
    _git("add", state, cwd=here)
    _git("commit", "-q", "-m", "the 4x5 search's state", cwd=here)

    _git("clone", "-q", str(here), str(there), cwd=tmp_path)
    assert (there / state).read_bytes() == saved
    # The code under test, run from the fresh clone's top folder (not the clone's copy of certify).
    run = subprocess.run([sys.executable, "-c", "import sys; del sys.path[0]; from certify.__main__ import main; "
                          "sys.exit(main())", "bound", "--pegs", "4", "--colors", "5", "--worst", "--checkpoint",
                          state, "--strategy-out", "s.json", "-o", "p.json", "--json"],
                         cwd=there, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr
    assert "resumed with" in run.stderr
    import json

    summary = json.loads(run.stdout)
    assert summary["checked"] is True and 0 < summary["searched"] < whole.searched
    assert (there / "p.json").read_bytes() == (ROOT / "certificates" / "bounds" / "worst-case-4x5.json").read_bytes()
    from certify.certificate import write

    write(whole.strategy, tmp_path / "one-run.json")
    assert (there / "s.json").read_bytes() == (tmp_path / "one-run.json").read_bytes()


def test_a_gzipped_checkpoint_is_deterministic_and_a_cut_one_is_refused(tmp_path):
    """A .gz name gzips the memo (the form committed under certificates/state/): the same memo
    gives the same bytes, and a cut or foreign gzip stream is refused in one line."""
    from certify.search import memofile

    search = WorstSearch(Game(3, 4))
    search.needs(search._every, 5)
    assert len(search.memo) > 1
    memo, plain = tmp_path / "a.memo.gz", tmp_path / "a.memo"
    memofile.save(str(memo), search.memo, search.game, 2)
    memofile.save(str(plain), search.memo, search.game, 2)
    raw = memo.read_bytes()
    assert gzip.decompress(raw) == plain.read_bytes()  # the same content, gzipped
    memofile.save(str(memo), search.memo, search.game, 2)
    assert memo.read_bytes() == raw  # no time or name in the gzip header
    assert memofile.load(str(memo), search.game, 2) == search.memo
    for damaged in (raw[:-6], raw[: len(raw) // 2], plain.read_bytes()):
        memo.write_bytes(damaged)
        with pytest.raises(MemoFileError, match="damaged"):
            memofile.load(str(memo), search.game, 2)
