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
