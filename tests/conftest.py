import functools
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


@pytest.fixture
def cli():
    return run_cli


@functools.lru_cache(maxsize=None)
def checked_bound(path) -> "verify_bound.Report":
    """The checker's report on a committed lower-bound proof, computed once per test process: several
    tests look at the same big proofs (accepted, with its manifest's claims, meeting a strategy, the
    valid base of its mutants); each used to run the whole check again. Reports are not changed."""
    from certify import verify_bound

    return verify_bound.check_file(str(path))
