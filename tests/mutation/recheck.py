"""Run test files against mutants that mutmut left alive, one forked pytest run per mutant, in a
mutation work directory (tests/mutation/run.sh makes it): the tests written for the survivors
(tests/test_core_mutants.py) are not in the stats of the run that found them, so mutmut would not
pick them; here each named mutant is switched on (MUTANT_UNDER_TEST) and the files are run.

    python tests/mutation/recheck.py WORKDIR [--tests FILE ...] [-k EXPR] [--again] [--all-survivors | NAME...]

Prints one line a mutant (killed / survived) and writes WORKDIR/recheck.json. The test files are
copied from the repository into WORKDIR/tests and WORKDIR/mutants/tests first. With -k, a mutant
that survives was run against part of the file only: run it again without -k (--again NAME).
"""

import argparse
import json
import os
import shutil
import signal
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("workdir", type=Path)
    ap.add_argument("names", nargs="*")
    ap.add_argument("--tests", action="append", default=[])
    ap.add_argument("--all-survivors", action="store_true")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("-k", dest="keyword", help="pytest -k: only the tests of this expression")
    ap.add_argument("--again", action="store_true", help="run mutants recheck.json has a result for again")
    args = ap.parse_args()
    tests = args.tests or ["tests/test_core_mutants.py"]
    mutants = args.workdir / "mutants"
    for t in tests:
        # (into the work directory's copy too: a `mutmut run` started there later copies its tests/
        # over mutants/tests, which would put an older file back under a re-check still running)
        shutil.copy2(REPO / t, args.workdir / t)
        shutil.copy2(REPO / t, mutants / t)
    names = list(args.names)
    if args.all_survivors:
        for meta in (mutants / "certify").glob("*.py.meta"):
            codes = json.loads(meta.read_text())["exit_code_by_key"]
            names += [k for k, v in codes.items() if v in (0, 5, 33)]  # survived, no tests
    out_path = args.workdir / "recheck.json"
    done = json.loads(out_path.read_text()) if out_path.exists() else {}
    # One process imports pytest and the code once, then forks a child per mutant (as mutmut does):
    # the child switches its mutant on and runs the test files.
    os.chdir(mutants)
    sys.path.insert(0, str(mutants))
    os.environ.pop("PYTHONPATH", None)
    import pytest  # noqa: F401
    import importlib

    for module in ("reader", "verify", "verify_bound", "verify_mixed"):
        importlib.import_module(f"certify.{module}")
    selection = ["-k", args.keyword] if args.keyword else []
    for name in names:
        if name in done and not args.again:
            continue
        pid = os.fork()
        if pid == 0:
            os.environ["MUTANT_UNDER_TEST"] = name
            signal.alarm(int(args.timeout))
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            code = pytest.main(["-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--rootdir=.", *selection, *tests])
            os._exit(int(code))
        _, status = os.waitpid(pid, 0)
        if os.WIFSIGNALED(status):
            result = "timeout" if os.WTERMSIG(status) == signal.SIGALRM else f"signal {os.WTERMSIG(status)}"
        else:
            result = {0: "survived", 1: "killed"}.get(os.WEXITSTATUS(status), f"exit {os.WEXITSTATUS(status)}")
        done[name] = result
        print(result, name, flush=True)
        out_path.write_text(json.dumps(done, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
