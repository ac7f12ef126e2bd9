"""Issue 13 part 2: building on Dask gives the very bytes of the in-process build.

Small games only (the suite's time): one LocalCluster of two worker processes shared by the
module, the CLI's own ``--workers`` clusters, and a real ``dask scheduler`` with two
``dask worker`` processes on 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from certify import distributed as dist
from certify.certificate import dumps, make_certificate, wrap
from certify.game import Game
from certify.strategies import get_strategy

from conftest import CERTS, ROOT, run_cli

import distributed  # noqa: E402  (after certify.distributed: the package, not our module)

BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=logging.ERROR)
    with cluster, distributed.Client(cluster) as c:
        yield c


def _local(name, game, **options) -> bytes:
    return dumps(make_certificate(get_strategy(name)(game, **options)))


def _remote(client, name, game, options=(), levels=dist.LEVELS, progress=None) -> bytes:
    strategy = get_strategy(name)(game, **dict(options))
    tree, histogram = dist.build_on(client, (name, game.key(), tuple(options)), game, progress, levels)
    return dumps(wrap(strategy, tree, dict(sorted(histogram.items()))))


def test_no_dask_import_without_workers(tmp_path):
    """The in-process build never imports Dask (it is an add-on)."""
    code = ("import sys; from certify.__main__ import main; "
            f"rc = main(['build', 'knuth', '-q', '-o', {str(tmp_path / 'k.json')!r}]); "
            "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed', "
            "'certify.distributed') or m == 'certify.distributed'); "
            "print(rc, loaded)")
    env = {k: v for k, v in os.environ.items() if k != dist.ENV_ADDRESS}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env=env, timeout=120)
    assert out.stdout.splitlines()[-1] == "0 []", out.stderr
    assert (tmp_path / "k.json").read_bytes() == (CERTS / "knuth-4x6.json").read_bytes()


@pytest.mark.parametrize("name, game", [
    ("knuth", Game(4, 6)), ("knuth", Game(5, 4)), ("expected-size", Game(5, 4)),
    ("entropy", Game(5, 4)), ("most-parts", Game(5, 4)), ("last-guess", Game(4, 5)),
    ("knuth", Game(4, 7, False)),
], ids=lambda v: str(v))
def test_cluster_build_is_byte_identical(client, name, game):
    seen = []
    assert _remote(client, name, game, progress=seen.append) == _local(name, game)
    assert sum(seen) == game.size  # every secret settled once, counted across the workers
    assert len(seen) > 1


def test_bytes_do_not_depend_on_how_the_tree_is_cut(client):
    game = Game(4, 6)
    expected = (CERTS / "knuth-4x6.json").read_bytes()
    for levels in (1, 3):
        assert _remote(client, "knuth", game, levels=levels) == expected
    options = (("first", "0123"),)
    assert _remote(client, "knuth", game, options) == _local("knuth", game, first="0123")


def test_a_killed_worker_is_replaced_and_the_bytes_stay(client, tmp_path):
    """SIGKILL a worker process while it runs a task, in the middle of a build: Dask runs that
    task again elsewhere and the certificate keeps its bytes.

    The worker kills itself from its event loop, after writing down the tasks its executor thread
    is running: the loop is what would report them finished, so the scheduler cannot have
    their results and must run them again (asking from here, then killing, is a race that a
    fast task wins)."""
    game = Game(5, 5)
    killed, progress = _killer(client, tmp_path)
    assert _remote(client, "knuth", game, progress=progress) == _local("knuth", game)
    _was_run_again(client, killed)


def test_a_killed_worker_does_not_change_the_exact_search(client, tmp_path):
    """The same for the least total's tasks (certify/search/split.py)."""
    from certify.search.proof import dumps as proof_bytes
    from certify.search.split import SplitSearch

    game = Game(4, 6)
    killed, progress = _killer(client, tmp_path)
    remote = SplitSearch(game, run=dist.mapper(client, progress))
    remote.solve()
    local = SplitSearch(game)
    local.solve()
    assert proof_bytes(remote.prove()) == proof_bytes(local.prove())
    assert dumps(remote.strategy_certificate()) == dumps(local.strategy_certificate())
    _was_run_again(client, killed)


def test_a_killed_worker_does_not_change_the_count_first_search(client, tmp_path):
    """The same for the counting objectives' tasks: 4x6 within 5, the fewest secrets needing 5
    (539), then the least total (5627), as the one-process search proves."""
    from certify import verify_bound
    from certify.search.proof import dumps as proof_bytes
    from certify.search.split import SplitSearch

    game = Game(4, 6)
    killed, progress = _killer(client, tmp_path)
    remote = SplitSearch(game, 5, run=dist.mapper(client, progress), at_max=True, first="at_max")
    assert remote.pair(remote.solve()) == (5627, 539)
    local = SplitSearch(game, 5, at_max=True, first="at_max")
    local.solve()
    proof = proof_bytes(remote.prove())
    assert proof == proof_bytes(local.prove())
    assert dumps(remote.strategy_certificate()) == dumps(local.strategy_certificate())
    assert verify_bound.check_bytes(proof).claims == {"total": 5627, "max_guesses": 5, "at_max": 539,
                                                      "first": "at_max"}
    _was_run_again(client, killed)


def _killer(client, tmp_path):
    """(what was killed, a progress callback that kills a worker busy with a task, once)."""
    killed = {}

    async def die_if_busy(dask_worker, path):  # a coroutine: run() may then not wait
        keys = sorted(str(ts.key) for ts in dask_worker.state.executing)
        if not keys:
            Path(path + ".idle").write_text("")
            return
        Path(path).write_text(json.dumps([os.getpid(), keys]))
        os.kill(os.getpid(), signal.SIGKILL)

    def progress(n):
        if killed:
            return
        for attempt, address in enumerate(sorted(client.scheduler_info()["workers"])):
            mark = tmp_path / f"kill-{len(list(tmp_path.iterdir()))}"
            client.run(die_if_busy, path=str(mark), workers=[address], wait=False)
            deadline = time.monotonic() + 10
            while not (mark.exists() or Path(str(mark) + ".idle").exists()):
                assert time.monotonic() < deadline, "the worker neither answered nor died"
                time.sleep(0.005)
            if mark.exists():
                time.sleep(0.05)  # the file is written before the kill
                pid, keys = json.loads(mark.read_text())
                killed.update(pid=pid, keys=set(keys))
                return
    return killed, progress


def _was_run_again(client, killed) -> None:
    assert killed, "no worker was ever caught running a task"
    runs = client.run_on_scheduler(lambda dask_scheduler, keys: {
        k: sum(1 for key, _, finish, *_ in dask_scheduler.transition_log
               if str(key) == k and finish == "processing") for k in keys}, keys=killed["keys"])
    assert min(runs.values()) >= 2, runs  # every task of the dead worker was run again
    client.wait_for_workers(2, timeout=60)  # and the nanny started a new worker process
    assert killed["pid"] not in client.run(os.getpid).values()


def test_workers_option_builds_the_same_bytes(tmp_path):
    for n in (1, 3):
        out = tmp_path / f"k{n}.json"
        r = run_cli("build", "knuth", "--workers", n, "-q", "-o", out)
        assert r.returncode == 0, r.stderr
        assert out.read_bytes() == (CERTS / "knuth-4x6.json").read_bytes()


def test_workers_and_scheduler_together_are_refused(tmp_path):
    r = run_cli("build", "knuth", "--workers", 2, "--scheduler", "tcp://127.0.0.1:9", "-o", tmp_path / "k.json")
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and "not both" in r.stderr
    assert not (tmp_path / "k.json").exists()


def test_an_unreachable_scheduler_is_one_line(tmp_path):
    env = dict(os.environ, DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT="2s")
    r = subprocess.run([sys.executable, "-m", "certify", "build", "knuth", "-q", "--scheduler",
                        "tcp://127.0.0.1:9", "-o", str(tmp_path / "k.json")],
                       capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert r.returncode == 2, r.stderr
    assert r.stderr.count("\n") == 1 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in r.stderr
    assert not list(tmp_path.iterdir())


def _children(pid):
    import psutil

    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def _worker_cpu(pid) -> float:
    """CPU seconds used so far by the worker processes under ``pid`` (spawned, or forked: then
    they have the client's command line, or the title Dask gives them when setproctitle is
    installed, as it is since the docs and notebook extras came in: "dask worker [tcp://...]")."""
    import psutil

    total = 0.0
    try:
        client = psutil.Process(pid).cmdline()
    except psutil.NoSuchProcess:
        return total
    for p in _children(pid):
        try:
            line = " ".join(p.cmdline())
            if "spawn_main" in line or line.startswith("dask worker") or p.cmdline() == client:
                total += p.cpu_times().user
        except psutil.NoSuchProcess:
            pass
    return total


def test_interrupting_the_client_leaves_no_file_and_no_process(tmp_path):
    """Ctrl-C (SIGINT to the whole process group) in the middle of a build on two workers."""
    import psutil

    out = tmp_path / "k.json.gz"
    # 6x8: minutes of work, so that the build is surely running when it is interrupted.
    # As a terminal would: Python turns SIGINT into KeyboardInterrupt only when it starts with the
    # default disposition, and a test run started in the background (`cmd &` in a script) hands
    # "ignore" down to its children (then the build ran to the end and exited 0: seen here).
    proc = subprocess.Popen([sys.executable, "-m", "certify", "build", "knuth", "--pegs", "6", "--colors", "8",
                             "--workers", "2", "-o", str(out)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        while _worker_cpu(proc.pid) < 3.0 and time.monotonic() < deadline:  # they are building
            time.sleep(0.1)
        family = _children(proc.pid)
        assert proc.poll() is None, "the build finished before it could be interrupted"
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())  # neither the certificate nor a temporary file
    gone, alive = psutil.wait_procs(family, timeout=30)
    assert not alive


@contextlib.contextmanager
def _running_cluster(tmp_path, preloads=(None, None)):
    """A `dask scheduler` and one `dask worker` process per entry of ``preloads`` (a file the
    worker preloads, or None) on 127.0.0.1; yields the scheduler's address."""
    info = tmp_path / "scheduler.json"
    procs = [subprocess.Popen([str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", "0",
                               "--no-dashboard", "--scheduler-file", str(info)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        deadline = time.monotonic() + 60
        while not info.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        address = json.loads(info.read_text())["address"]
        for preload in preloads:
            extra = [] if preload is None else ["--preload", str(preload)]
            procs.append(subprocess.Popen([str(BIN / "dask"), "worker", address, "--nthreads", "1",
                                           "--no-dashboard", "--host", "127.0.0.1", *extra],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        with distributed.Client(address) as c:
            c.wait_for_workers(len(preloads), timeout=60)
        yield address
    finally:
        for p in reversed(procs):
            p.terminate()
        for p in reversed(procs):
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()


@pytest.fixture
def scheduler(tmp_path):
    """A `dask scheduler` and two `dask worker` processes on 127.0.0.1; yields the address."""
    with _running_cluster(tmp_path) as address:
        yield address


def test_a_worker_running_other_code_is_refused(tmp_path):
    """One of the two workers runs another version of the package (its fingerprint changed by a
    preload): the build stops before any task, in one line naming that worker."""
    other = tmp_path / "other_certify.py"
    other.write_text("import certify.distributed as d\nd._FINGERPRINT = '0.0.0/other'\n")
    with _running_cluster(tmp_path, preloads=(None, other)) as address:
        r = run_cli("build", "knuth", "--scheduler", address, "-q", "-o", tmp_path / "k.json")
    assert r.returncode == 2, r.stderr
    assert r.stderr.count("\n") == 1 and "runs certify 0.0.0/other" in r.stderr
    assert dist.fingerprint() in r.stderr and "install the same checkout" in r.stderr
    assert not (tmp_path / "k.json").exists()


def test_build_through_a_running_scheduler(scheduler, tmp_path):
    out = tmp_path / "k.json"
    r = run_cli("build", "knuth", "--scheduler", scheduler, "-q", "-o", out)
    assert r.returncode == 0, r.stderr
    assert out.read_bytes() == (CERTS / "knuth-4x6.json").read_bytes()
    # The usual environment variable names the scheduler too.
    env = dict(os.environ, **{dist.ENV_ADDRESS: scheduler})
    out2 = tmp_path / "e.json"
    r = subprocess.run([sys.executable, "-m", "certify", "build", "entropy", "--pegs", "5", "--colors", "4",
                        "-q", "-o", str(out2)], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert out2.read_bytes() == _local("entropy", Game(5, 4))
    with distributed.Client(scheduler) as c:
        executed = c.run(lambda dask_worker: dask_worker.state.executed_count)
    assert len(executed) == 2 and all(n > 0 for n in executed.values())  # both workers took part
    # The exact search's tasks too: the bytes of the tasks run in this process.
    from certify.search.proof import dumps as proof_bytes
    from certify.search.split import SplitSearch

    strategy, proof = tmp_path / "o.json", tmp_path / "o-proof.json"
    r = run_cli("build", "optimal", "--pegs", 3, "--colors", 4, "--scheduler", scheduler, "-q",
                "--proof", proof, "-o", strategy)
    assert r.returncode == 0, r.stderr
    search = SplitSearch(Game(3, 4))
    search.solve()
    assert proof.read_bytes() == proof_bytes(search.prove())
    assert strategy.read_bytes() == dumps(search.strategy_certificate())


def test_a_busy_dashboard_port_is_not_our_business(tmp_path):
    """Another cluster (here a plain socket) holds Dask's usual port 8787: --workers still builds,
    and prints nothing but our own lines on stderr."""
    import socket

    holder = socket.socket()
    try:
        holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        holder.bind(("", 8787))
        holder.listen()
    except OSError:
        pass  # already held by someone else: the same situation
    try:
        r = run_cli("build", "knuth", "--workers", 2, "-q", "-o", tmp_path / "k.json")
    finally:
        holder.close()
    assert r.returncode == 0 and r.stderr == "", r.stderr


def test_bound_worst_on_a_cluster_writes_the_one_process_bytes(client, tmp_path):
    """The CLI on the module's cluster (--scheduler; --workers N starts one of its own the same
    way), in rounds of two first guesses: the committed proof, the one-process strategy."""
    from certify.certificate import write
    from certify.search import exact

    p, s = tmp_path / "p.json", tmp_path / "s.json"
    r = run_cli("bound", "--pegs", 3, "--colors", 4, "--worst", "--scheduler", client.scheduler.address, "-q",
                "--strategy-out", s, "-o", p)
    assert r.returncode == 0, r.stderr
    assert p.read_bytes() == (CERTS / "atlas" / "worst-case-3x4.json").read_bytes()
    write(exact.worst_case(Game(3, 4), strategy=True).strategy, tmp_path / "one.json")
    assert s.read_bytes() == (tmp_path / "one.json").read_bytes()
    r = run_cli("bound", "--pegs", 3, "--colors", 3, "--total", "--workers", 2, "-o", tmp_path / "t.json")
    assert r.returncode == 2 and "go with --worst" in r.stderr


_KILL_FIRST_TASK = '''\
"""Preloaded by each Dask worker (the test's environment): the first worst-case task that any
worker starts kills that worker with SIGKILL, mid-task; every task finished is written down."""
import json, os, signal
from pathlib import Path

import certify.search.worst as worst

HERE = Path({folder!r})  # not this file's folder: Dask imports a copy of it from the worker's own
# Dask may run a preload twice in one process: wrap the search's own task, never the wrapper
_task = worst.__dict__.setdefault("_unwrapped_first_guess_task", worst.first_guess_task)


def first_guess_task(game_key, guess, k, *share):
    args = json.dumps([list(game_key), guess, k])
    try:  # one worker wins, across processes, once
        fd = os.open(HERE / "killed.json", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        out = _task(game_key, guess, k, *share)
        with open(HERE / "finished", "a") as f:
            f.write(args + "\\n")
        return out
    os.write(fd, json.dumps([os.getpid(), args]).encode())
    os.close(fd)
    os.kill(os.getpid(), signal.SIGKILL)


# a task's function travels by name: the worker finds this one under the search's name
worst.first_guess_task = first_guess_task
'''


@pytest.mark.parametrize("checkpoint", [False, True], ids=["shared-by-the-client", "shared-in-a-folder"])
def test_bound_worst_workers_2_with_a_worker_killed_writes_the_one_process_bytes(tmp_path, checkpoint):
    """Issue 45: `bound --worst --workers 2` (the CLI's own cluster, first guesses in rounds of two)
    with a worker SIGKILLed in the middle of a task: the nanny starts another, the task runs again,
    and the proof and the strategy are the one-process run's bytes. The kill is no race: each
    worker preloads a module that makes the first task started anywhere kill its own process.
    The tasks share their sets (certify/search/share.py): through the client between rounds, or
    with --checkpoint through the folder beside it."""
    from certify.certificate import write
    from certify.search import exact

    hook = tmp_path / "hook" / "kill_first_task.py"
    hook.parent.mkdir()
    hook.write_text(_KILL_FIRST_TASK.replace("{folder!r}", repr(str(hook.parent))))
    p, s = tmp_path / "p.json", tmp_path / "s.json"
    env = dict(os.environ, DASK_DISTRIBUTED__WORKER__PRELOAD=json.dumps([str(hook)]))
    env.pop(dist.ENV_ADDRESS, None)
    memo = tmp_path / "memo.bin"
    r = subprocess.run([sys.executable, "-m", "certify", "bound", "--pegs", "4", "--colors", "5", "--worst",
                        "--workers", "2", "--strategy-out", str(s), "-o", str(p)]
                       + (["--checkpoint", str(memo)] if checkpoint else []),
                       capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "shared sets: the workers took " in r.stderr and "Traceback" not in r.stderr
    if checkpoint:
        assert list((tmp_path / "memo.bin.shared").glob("entries-*.memo.gz"))
    pid, killed = json.loads((hook.parent / "killed.json").read_text())
    finished = (hook.parent / "finished").read_text().splitlines()
    assert pid != r.returncode and killed in finished  # the killed task was run again, to its end
    assert len(finished) > 1  # and it was one task of several
    assert p.read_bytes() == (CERTS / "bounds" / "worst-case-4x5.json").read_bytes()
    write(exact.worst_case(Game(4, 5), strategy=True).strategy, tmp_path / "one.json")
    assert s.read_bytes() == (tmp_path / "one.json").read_bytes()
