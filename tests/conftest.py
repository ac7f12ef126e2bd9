import functools
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CERTS = ROOT / "certificates"


def run_cli(*args, input=None, cwd=None):
    """Run `python -m certify ARGS` as a user would; return the CompletedProcess."""
    return subprocess.run([sys.executable, "-m", "certify", *map(str, args)], input=input,
                          capture_output=True, text=True, cwd=cwd or ROOT, timeout=600)


def run_here(*args, cwd=None) -> subprocess.CompletedProcess:
    """run_cli's twin in this process: certify.__main__.main(ARGS) with stdout and stderr captured
    (text streams over bytes, as a pipe: not a terminal, a .buffer for the commands that write
    bytes) and the working directory ROOT (or cwd) for the call; the same CompletedProcess back.
    No interpreter start (~0.3 s of CPU each): for tests of what a command does, prints and exits
    with; run_cli for those of the process itself (signals, standard input, a fresh interpreter)."""
    import contextlib
    import io

    from certify.__main__ import main

    out, err = (io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True) for _ in range(2))
    here = os.getcwd()
    os.chdir(cwd or ROOT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([str(a) for a in args])
            except SystemExit as e:  # (argparse's usage errors; a message exits 1, as Python's exit does)
                code = e.code if isinstance(e.code, int) or e.code is None else 1
                if not isinstance(e.code, int) and e.code is not None:
                    print(e.code, file=err)
    finally:
        os.chdir(here)

    def text(stream) -> str:  # decoded as run_cli's text=True does (universal newlines)
        return stream.buffer.getvalue().decode().replace("\r\n", "\n").replace("\r", "\n")
    return subprocess.CompletedProcess(args, code or 0, text(out), text(err))


@functools.lru_cache(maxsize=None)
def run_cli_once(*args):
    """run_cli for a command that only reads the committed files (`certify atlas`, `certify atlas
    --json`: ~5 s of CPU each, reading every file the atlas names), run once per test process and
    its CompletedProcess shared by the tests that read its output (they do not change it)."""
    return run_cli(*args)


@functools.lru_cache(maxsize=None)
def _atlas_table() -> dict:
    from certify import atlas

    return atlas.load_table()


def atlas_table() -> dict:
    """A copy of atlas.load_table() on the committed table, loaded once per test process (~5 s of CPU:
    every file the manifests list read, its sha256 and its header compared with the table's record)."""
    import copy

    return copy.deepcopy(_atlas_table())


@pytest.fixture
def atlas_here(monkeypatch):
    """`certify atlas ARGS` run in this process (run_here) on a copy of the committed table loaded once
    per test process (atlas_table), put in atlas.load_table's place: what the command prints (a game,
    --json, --markdown) without loading the table again. The loading itself is tested by `certify
    atlas` run as a process (run_cli_once("atlas"))."""
    from certify import atlas

    _atlas_table()  # (loaded before the function is replaced)
    monkeypatch.setattr(atlas, "load_table", lambda *args, **kwargs: atlas_table())
    return lambda *args: run_here("atlas", *args)


@pytest.fixture
def cli():
    return run_cli


def checked_bound(path) -> "verify_bound.Report":
    """The checker's report on a committed lower-bound proof, computed once per test process: several
    tests look at the same big proofs (accepted, with its manifest's claims, meeting a strategy, the
    valid base of its mutants, the whole file a split must prove the same as); each used to run the
    whole check again. Reports are not changed. A str and a Path of the same file share the report."""
    return _checked_bound(str(path))


@functools.lru_cache(maxsize=None)
def _checked_bound(path: str) -> "verify_bound.Report":
    from certify import verify_bound

    return verify_bound.check_file(path)


def bound_corpus():
    """tests/data/bounds/make_corpus.py, loaded once per test process: its proofs (lru_cache'd, shared:
    copied before any change) take ~12 s CPU to write, mostly total-3x5-norep-interchangeable, and
    three test files each loaded their own copy and wrote them all again."""
    name = "make_bound_corpus"
    if name not in sys.modules:
        import importlib.util

        spec = importlib.util.spec_from_file_location(name, ROOT / "tests" / "data" / "bounds" / "make_corpus.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
    return sys.modules[name]


# -- where the suite's CPU goes (CERTIFY_TEST_CPU=FILE): per test, the CPU seconds of the test
# process and of the subprocesses it waited for, appended as "seconds<TAB>nodeid" lines. Wall time
# on this shared 2-core machine says little; CPU time is what two xdist workers divide.
_CPU_LOG = os.environ.get("CERTIFY_TEST_CPU")


if _CPU_LOG:
    import resource
    import time

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item, nextitem):
        before = time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN)
        yield
        after = time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN)
        children = (after[1].ru_utime + after[1].ru_stime) - (before[1].ru_utime + before[1].ru_stime)
        with open(_CPU_LOG, "a", encoding="utf-8") as log:
            log.write(f"{after[0] - before[0] + children:.2f}\t{item.nodeid}\n")
