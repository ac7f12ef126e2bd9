"""A Ctrl-C or SIGTERM that lands in a callback which cannot raise (Dask's garbage-collector
callback, seen on CI) is raised again in the main thread instead of being lost."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

PROGRAM = """
import time
from certify.__main__ import _catch_termination
from certify.errors import Terminated
_catch_termination()
class Callback:
    def __del__(self):  # an exception here is "ignored" (sys.unraisablehook), as in a gc callback
        raise {error}
Callback()
try:
    for _ in range(100):
        time.sleep(0.05)
    print("lost")
except {caught} as e:
    print("raised again:", type(e).__name__)
"""


@pytest.mark.parametrize("error,caught", [("KeyboardInterrupt", "KeyboardInterrupt"),
                                          ("Terminated(15)", "Terminated")])
def test_a_stop_swallowed_by_a_callback_is_raised_again(error, caught):
    # Ctrl-C as at a terminal: a suite started in the background (`make test &`) passes SIGINT
    # ignored to its children, and Python then installs no KeyboardInterrupt handler at all.
    run = subprocess.run([sys.executable, "-c", PROGRAM.format(error=error, caught=caught)],
                         capture_output=True, text=True, timeout=60,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert run.stdout.strip() == f"raised again: {caught}", (run.stdout, run.stderr)
    assert "Exception ignored" not in run.stderr


def test_other_unraisable_exceptions_still_reach_the_default_hook():
    program = PROGRAM.format(error="ValueError('x')", caught="KeyboardInterrupt")
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60)
    assert run.stdout.strip() == "lost" and "Exception ignored" in run.stderr and "ValueError" in run.stderr
