"""Shared parts of the atheris fuzz scripts (tests/fuzz/fuzz_*.py; docs/fuzzing.md).

Each script is a libFuzzer program: ``python tests/fuzz/fuzz_verify.py CORPUS_DIR SEED_DIR -runs=N
...`` fuzzes; ``python tests/fuzz/fuzz_verify.py --replay FILE...`` runs the given inputs once each
through the same TestOneInput, in this process, and exits 1 when one raises, takes more than
REPLAY_SECONDS or brings the peak memory past REPLAY_RSS_MB (what -timeout=20 and
-rss_limit_mb=1024 catch while fuzzing).

Game sizes: the checkers accept games of up to 1,000,000 codes (verify.py) or 10,000 (the bound and
mixed checkers), and such a game costs seconds per input (a replay of every secret, an n x n
feedback table), which would spend a fuzzing run on a few mutated headers. The scripts lower the
checkers' MAX_CODES (and the builder's, for the importers) to FUZZ_MAX_CODES (1296 codes, the 4x6
game, by default) in the fuzzing process only: a bigger game is then refused by the same check that
refuses one past the real limit, before any work, and every path behind that check is reached with
the small games. FUZZ_MAX_CODES=0 keeps the real limits. --replay runs the code uninstrumented (as
it runs outside the fuzzer: a timeout met while fuzzing counts once a replay confirms it) and keeps
the real limits unless
FUZZ_MAX_CODES is set: a past finding is replayed against the checker as it is shipped, so an input
naming a big game that the checker does not refuse fast fails there (FUZZ_REPLAY_SECONDS changes
the time limit of a replay, 20 s).
"""

from __future__ import annotations

import operator
import os
import resource
import signal
import sys
import time
import traceback

STATUSES = (0, 1, 2)  # valid, invalid, unusable
REPLAY_SECONDS = float(os.environ.get("FUZZ_REPLAY_SECONDS", 20))
REPLAY_RSS_MB = 1024
DEFAULT_MAX_CODES = 1296
#: fuzz_import.py: the first byte of an input chooses the format (byte % 5) and, for cuda-json, the
#: --run option ((byte // 5) % 4: 0 none, else that run).
IMPORT_FORMATS = ("cpp-text", "c-punchcard", "c-yaml", "cuda-dot", "cuda-json")


def import_prefix(fmt: str, run: int | None = None) -> bytes:
    """The first byte of an import input that selects ``fmt`` (and ``run`` for cuda-json)."""
    return bytes([IMPORT_FORMATS.index(fmt) + 5 * (run or 0)])


_COMPARE = (operator.lt, operator.le, operator.eq, operator.ne, operator.gt, operator.ge)  # dis.cmp_op


def mend_array_compares(atheris) -> None:
    """atheris 3.0.0's comparison tracing (atheris._trace_cmp, which instrumented code calls for every
    ``<``, ``==``...) leaks the result when it is a numpy array: about its size per comparison, so a
    fuzzing run of numpy code (verify_bound, the builder behind the importers) grows by megabytes a
    second until -rss_limit_mb stops it with an "out-of-memory" that no input causes. Instrumented
    code looks the function up on the module at each call: comparisons with an array go past the
    tracing (they carry no value libFuzzer could use), every other one is traced as before.
    atheris.Fuzz() installs libFuzzer's own _trace_cmp when it starts: main() mends that one too."""
    try:
        import numpy as np
    except ImportError:
        return
    native = atheris._trace_cmp
    if getattr(native, "mended", False):
        return
    shift = 0 if sys.version_info < (3, 12) else 4 if sys.version_info < (3, 13) else 5
    ndarray = np.ndarray

    def _trace_cmp(obj1, obj2, op, counter, is_const):
        if isinstance(obj1, ndarray) or isinstance(obj2, ndarray):
            return _COMPARE[op >> shift](obj1, obj2)
        return native(obj1, obj2, op, counter, is_const)

    _trace_cmp.mended = True
    atheris._trace_cmp = _trace_cmp


def replaying() -> bool:
    return len(sys.argv) > 1 and sys.argv[1] == "--replay"


def instrumenting(atheris, include):
    """atheris.instrument_imports(include) while fuzzing; nothing for --replay, which times the code
    as it runs outside the fuzzer (instrumented, verify.py's replay loop is several times slower)."""
    if replaying():
        import contextlib

        return contextlib.nullcontext()
    return atheris.instrument_imports(include=include)


def cap_games(*modules) -> int | None:
    """Lower MAX_CODES of each module to FUZZ_MAX_CODES (never raise it); the cap, or None when off."""
    cap = int(os.environ.get("FUZZ_MAX_CODES", 0 if replaying() else DEFAULT_MAX_CODES))
    if cap <= 0:
        return None
    for module in modules:
        if not hasattr(module, "MAX_CODES"):
            print(f"fuzzlib: {module.__name__} has no MAX_CODES any more: its games are not capped",
                  file=sys.stderr)
            continue
        module.MAX_CODES = min(module.MAX_CODES, cap)
    return cap


def checker_input(atheris, name: str):
    """TestOneInput for a checker whose ``check_bytes(raw, file)`` returns a Report (verify_bound,
    verify_mixed): one of the three statuses for every input, nothing raised, and a valid report's
    statement() works. The checker, verify.py and the reader are instrumented, their games capped."""
    import importlib

    with instrumenting(atheris, [f"certify.{name}", "certify.verify", "certify.reader"]):
        from certify import verify
        checker = importlib.import_module(f"certify.{name}")
    cap_games(verify, checker)

    def test_one_input(data: bytes) -> None:
        report = checker.check_bytes(data, "fuzz.json")
        check_report(report, "check_bytes")
        if report.status == 0 and not isinstance(report.statement(), str):
            raise AssertionError("statement() is not a str")
    return test_one_input


def check_report(report, what: str) -> None:
    """A checker's report: one of the three statuses, an error exactly when not valid, and its
    rendering (to_json, line: what the CLI prints) works."""
    if report.status not in STATUSES:
        raise AssertionError(f"{what}: status {report.status!r} is none of {STATUSES}")
    if (report.status == 0) != (report.error is None):
        raise AssertionError(f"{what}: status {report.status} with error {report.error!r}")
    if report.status and not (isinstance(report.error, str) and report.error):
        raise AssertionError(f"{what}: status {report.status} with an empty error {report.error!r}")
    out = report.to_json()
    if out["exit_code"] != report.status:
        raise AssertionError(f"{what}: to_json()'s exit_code {out['exit_code']} is not {report.status}")
    if not isinstance(report.line(), str):
        raise AssertionError(f"{what}: line() is not a str")


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


class ReplayTimeout(BaseException):
    """An input ran past REPLAY_SECONDS (raised by SIGALRM, not an Exception, so that no
    ``except Exception`` of the code under test takes it)."""


def _alarm(signum, frame):
    raise ReplayTimeout(f"more than {REPLAY_SECONDS:g} s")


def replay(test_one_input, files) -> int:
    """Run each file once; print "ok FILE (...)" or "FAIL FILE: why" for each. 0 when none failed."""
    failed = 0
    signal.signal(signal.SIGALRM, _alarm)
    for path in files:
        with open(path, "rb") as f:
            data = f.read()
        start, before = time.perf_counter(), _peak_mb()
        signal.setitimer(signal.ITIMER_REAL, REPLAY_SECONDS)
        try:
            test_one_input(data)
        except ReplayTimeout:
            failed += 1
            print(f"FAIL {path}: {time.perf_counter() - start:.1f} s, stopped (limit {REPLAY_SECONDS:g} s)",
                  file=sys.stderr)
            traceback.print_exc(limit=-6)
            continue
        except Exception as e:  # noqa: BLE001 - every exception is what this reports
            failed += 1
            print(f"FAIL {path}: exception, {signature(e)}", file=sys.stderr)
            traceback.print_exc()
            continue
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        took, peak = time.perf_counter() - start, _peak_mb()
        if took > REPLAY_SECONDS:
            failed += 1
            print(f"FAIL {path}: {took:.1f} s (limit {REPLAY_SECONDS:g} s)", file=sys.stderr)
        elif peak > REPLAY_RSS_MB >= before:  # (the peak of the process: this input raised it past)
            failed += 1
            print(f"FAIL {path}: peak memory {peak:.0f} MB (limit {REPLAY_RSS_MB} MB)", file=sys.stderr)
        else:
            print(f"ok   {path} ({took:.2f} s, peak {peak:.0f} MB)")
    return 1 if failed else 0


def signature(error: BaseException) -> str:
    """Where an exception comes from: "TypeError at verify_bound.py:567 in _perm" (its type and the
    innermost frame), the same for every input that hits the same bug."""
    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno} in {frames[-1].name}" if frames else ""
    return f"{type(error).__name__}{where}"


def _ignoring(test_one_input):
    """With FUZZ_IGNORE=FILE (one signature a line; the campaign writes it), an exception of a
    finding already made is let go, so that a long run goes on looking for others."""
    path = os.environ.get("FUZZ_IGNORE")
    if not path or not os.path.exists(path):
        return test_one_input
    with open(path) as f:
        known = {line.strip() for line in f if line.strip()}

    def guarded(data: bytes) -> None:
        try:
            test_one_input(data)
        except Exception as e:  # noqa: BLE001 - re-raised unless already found
            if signature(e) not in known:
                raise
    return guarded


def _mending(test_one_input, atheris):
    """atheris.Fuzz() puts its own _trace_cmp (libFuzzer's) in place of the one there before: mend
    it again at the first input (and whenever it is replaced)."""
    def mended(data: bytes) -> None:
        if not getattr(atheris._trace_cmp, "mended", False):
            mend_array_compares(atheris)
        test_one_input(data)
    return mended


def main(test_one_input, atheris) -> None:
    """--replay FILE...: replay; otherwise hand the arguments to libFuzzer."""
    if replaying():
        sys.exit(replay(test_one_input, sys.argv[2:]))
    atheris.Setup(sys.argv, _mending(_ignoring(test_one_input), atheris))
    atheris.Fuzz()
