"""Command-line interface. The library raises; this module alone maps errors to exit codes.

Exit codes: 0 success, 1 invalid certificate (or a game that ends in a contradiction),
2 unusable input (bad arguments, unreadable file, unknown strategy, invalid code...).
The sub-commands live in ``certify.commands``, one module per family; heavy modules (numpy
builder, renderer) are imported only by the sub-commands that use them, so ``certify verify``
starts fast.
"""

from __future__ import annotations

import argparse
import os
import sys

from .commands.common import EXIT_INVALID, EXIT_OK, EXIT_USAGE

# The CLI does no floating-point linear algebra, yet OpenBLAS starts a thread per core when numpy
# is imported: 0.07-0.1 s of CPU a run (medians of 9, side by side: optimal 4x6 0.92 -> 0.82 s,
# knuth 4x6 0.23 -> 0.13 s, verify 0.18 -> 0.11 s). A setting of the user's wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


class _Parser(argparse.ArgumentParser):
    """One-line errors that name the (sub)command they are about, as git and ripgrep do, and the
    nearest command for a typo."""

    #: The innermost parser that read arguments in this run: unrecognised arguments are its own.
    innermost = None

    def parse_known_args(self, args=None, namespace=None):
        _Parser.innermost = self  # (a sub-command's parser is called after its parent's)
        return super().parse_known_args(args, namespace)

    def parse_args(self, args=None, namespace=None):
        _Parser.innermost = None
        args, extras = self.parse_known_args(args, namespace)
        if extras:
            (_Parser.innermost or self).error(f"unrecognized arguments: {' '.join(extras)}")
        return args

    def error(self, message):  # one line, exit 2 (the usage is one --help away)
        near = _nearest(message)
        if near:  # the list of choices gives way to the nearest one
            message = message[:message.index(" (choose from ")] + near
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _nearest(message: str) -> str:
    """'; did you mean 'verify'?' for an invalid choice close to one of the choices, else ''."""
    import difflib
    import re

    m = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)$", message)
    if m is None:
        return ""
    choices = re.findall(r"'([^']*)'", m.group(2)) or [c.strip() for c in m.group(2).split(",")]
    near = difflib.get_close_matches(m.group(1), choices, n=1, cutoff=0.6)
    return f"; did you mean '{near[0]}'?" if near else ""


def make_parser() -> argparse.ArgumentParser:
    from . import __version__
    from .commands import FAMILIES

    parser = _Parser(prog="certify", description="Mastermind strategies as machine-checked certificates.",
                     epilog="'certify COMMAND --help' shows a command's options and examples.")
    parser.add_argument("--version", action="version", version=f"certify {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for family in FAMILIES:
        family.register(sub)
    from .commands.help import decorate

    decorate(sub)
    return parser


def _on_signal(signum, frame):
    from .errors import Terminated

    raise Terminated(signum)


def _catch_termination() -> None:
    """SIGTERM and SIGHUP unwind the stack like Ctrl-C, so a half-written temporary file is removed."""
    import signal

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), _on_signal)
    sys.unraisablehook = _stop_never_lost(sys.unraisablehook)


def _stop_never_lost(default):
    """An unraisable-exception hook that raises a lost stop again in the main thread. A Ctrl-C (or
    SIGTERM) that lands in a callback which cannot raise, a garbage-collector callback of Dask's
    (seen on CI: "Exception ignored in: GCDiagnosis._gc_callback"), was swallowed and the build
    ran on; the signal is simulated again, so it is raised where the program can unwind."""
    import _thread
    import signal
    import threading
    import time

    from .errors import Terminated

    def again(signum):  # from another thread, a moment later: the callback has returned by then
        time.sleep(0.1)
        _thread.interrupt_main(signum)

    def hook(unraisable):
        error = unraisable.exc_value
        if isinstance(error, (KeyboardInterrupt, Terminated)):
            signum = error.signum if isinstance(error, Terminated) else signal.SIGINT
            threading.Thread(target=again, args=(signum,), daemon=True).start()
        else:
            default(unraisable)
    return hook


def main(argv=None) -> int:
    from .errors import Terminated

    _catch_termination()
    try:
        try:
            return _main(argv)
        except SystemError as e:
            # A signal whose handler raised while numba boxed a compiled function's result: the
            # dispatcher returns the result anyway and Python raises SystemError from the
            # signal's exception. Seen on CI with SIGTERM, then with SIGINT (exit 1 and a
            # traceback, once in 210 interrupted builds here); unwrap it so the exit is the signal's.
            stopped = _signal_behind(e)
            if stopped is not None:
                raise stopped from None
            raise
    except KeyboardInterrupt:  # before or after a subcommand runs: still no traceback
        print("certify: interrupted", file=sys.stderr)
        return 130
    except Terminated as e:
        import signal

        print(f"certify: stopped by {signal.Signals(e.signum).name}", file=sys.stderr)
        return 128 + e.signum


def _signal_behind(error: BaseException):
    """The KeyboardInterrupt or Terminated that ``error`` was raised from or while handling
    (its __cause__ or __context__, a few links deep), else None."""
    from .errors import Terminated

    seen = error
    for _ in range(8):
        seen = seen.__cause__ or seen.__context__
        if seen is None or isinstance(seen, (KeyboardInterrupt, Terminated)):
            return seen
    return None


def _main(argv=None) -> int:
    from .errors import CertifyError, NotFound

    parser = make_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # bare `certify`: the help, not an error
        parser.print_help()
        return EXIT_OK
    try:
        from .commands.common import set_limits

        set_limits(args)  # --max-codes, --max-work: read by every path that checks a file
        return args.func(args)
    except NotFound as e:  # a finding of the search, not a mistake of the user's
        print(f"certify {args.command}: not found: {e}", file=sys.stderr)
        return EXIT_INVALID
    except CertifyError as e:
        print(f"certify {args.command}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"certify {args.command}: interrupted", file=sys.stderr)
        return 130
    except MemoryError:  # the machine's limit, not the input's fault: one line, no traceback
        print(f"certify {args.command}: error: out of memory (the work needs more than this machine, "
              "or its limit, gives)", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
