"""Small helpers shared by the command families: argument types, game options, JSON output."""

from __future__ import annotations

import argparse
import importlib
import sys

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2
#: Version of the --json outputs' shapes (``KIND_version`` key; see print_json).
JSON_VERSION = 1


def whole(text: str) -> int:
    """A whole number in ASCII digits (int() would also take other scripts' digits and '1_0')."""
    digits = text.strip()
    if not digits.lstrip("-").isascii() or not digits.lstrip("-").isdigit() or len(digits) > 4000:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text[:40]!r}")
    return int(digits)


def positive(text: str) -> int:
    value = whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def add_game_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pegs", type=whole, default=4, help="pegs per code (default 4)")
    p.add_argument("--colors", "--colours", type=whole, default=6, help="number of colours (default 6)")
    p.add_argument("--no-repetition", action="store_true", help="codes may not repeat a colour")


def add_feedback_arg(p: argparse.ArgumentParser) -> None:
    """--feedback RULE, for the commands that take a game's rule (build, bound); game_of reads it."""
    p.add_argument("--feedback", choices=("black-white", "black-only"), default="black-white",
                   help="the answer: black and white pegs (default), or black pegs only (black-peg Mastermind)")


def add_limits(p: argparse.ArgumentParser) -> None:
    """--max-codes, --max-work and --max-nodes, for every command that checks a file: the checkers'
    limits are the user's to raise (a file over one is reported unusable, exit 2, never invalid)."""
    p.add_argument("--max-codes", type=positive, metavar="N",
                   help="check lower-bound proofs and mixed strategies of games of up to N codes (default "
                        "10000, at most 46656; the lower-bound checker's feedback table takes N x N bytes: "
                        "282 MB for 5x7)")
    p.add_argument("--max-work", type=positive, metavar="N",
                   help="let a checker look at up to N (guess, secret) pairs (default: by the file's size, a "
                        "small file cannot ask for hours; a file over it is unusable, not invalid)")
    p.add_argument("--max-nodes", type=positive, metavar="N",
                   help="check lower-bound proofs of up to N nodes (and 5 N guess entries), mixed strategies of "
                        "up to N tree nodes, static proofs of up to N sets (default 2000000; the input's size, "
                        "at most 128 MiB, still bounds the memory)")


#: The limits of this run's command (--max-codes, --max-work, --max-nodes), set by set_limits: every path that
#: checks a file reads them, so none drops them.
LIMITS = {"max_codes": None, "max_work": None, "max_nodes": None}


def set_limits(args) -> None:
    """Record the command's --max-codes and --max-work (None where it has none); refuse
    --max-codes past the lower-bound checker's ceiling."""
    from ..errors import CertifyError

    COMMAND[0] = getattr(args, "command", None)
    JSON_OUT[0] = bool(getattr(args, "json", False))
    JSON_KIND[0] = _json_kind(COMMAND[0], args)
    LIMITS["max_codes"] = getattr(args, "max_codes", None)
    LIMITS["max_work"] = getattr(args, "max_work", None)
    LIMITS["max_nodes"] = getattr(args, "max_nodes", None)
    if LIMITS["max_codes"] is not None:
        from ..verify_bound import CODES_CEILING

        if LIMITS["max_codes"] > CODES_CEILING:
            raise CertifyError(f"--max-codes: at most {CODES_CEILING}, got {LIMITS['max_codes']}")


def add_quiet(p: argparse.ArgumentParser) -> None:
    """-q/--quiet, which every command takes: no progress and no notes on stderr (errors still)."""
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no notes on stderr")


class _HideSciPyLinalg:
    """Makes ``import scipy.linalg`` (and its submodules) fail while it is on sys.meta_path (a
    finder needs only find_spec; importing importlib.abc for its base class cost every command
    3-4 ms of start-up: `python -X importtime`, side by side)."""

    def find_spec(self, name, path=None, target=None):
        if name == "scipy.linalg" or name.startswith("scipy.linalg."):
            raise ImportError(f"{name} is hidden while numba starts (certify.commands.common)")
        return None


def import_numba() -> None:
    """Import numba's array module without its BLAS probe. On import it checks for SciPy's BLAS
    (for np.dot and np.linalg inside compiled code, which certify does not use); with SciPy
    installed (``certify value`` needs it) that imports scipy.linalg and, through it, parts of
    numpy.f2py and unittest: 0.27 s of every build's start-up here (python -X importtime). Hidden
    from that one import, numba records "no BLAS"; scipy.linalg imports normally afterwards.
    Only the CLI does this (it owns its process); the library leaves imports alone."""
    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return
    hide = _HideSciPyLinalg()
    sys.meta_path.insert(0, hide)
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        sys.meta_path.remove(hide)


def freeze_startup(*modules: str) -> None:
    """Import ``modules`` (numpy comes with them, and numba when they use its JIT: then through
    :func:`import_numba`; the search's compiled module needs no numba, certify.compiled),
    then move every object made so far out of the cyclic GC's reach (``gc.freeze``). The CLI
    owns its process and these ~150k objects live as long as it does; left in, every full
    collection walked them all again. Measured side by side (CPU, medians of 7 and 3): build
    optimal 4x6 with its proof 1.25 -> 0.98 s, build knuth 5x8 2.59 -> 2.33 s, build knuth 4x6
    0.29 -> 0.25 s."""
    import gc

    for name in modules:
        importlib.import_module(name)  # (numba's import alone does not probe the BLAS)
    if "numba" in sys.modules:
        import_numba()  # its array module, which the JIT imports when it first compiles or loads
    gc.freeze()


def game_of(args):
    from ..game import Game

    return Game(args.pegs, args.colors, not args.no_repetition, getattr(args, "feedback", "black-white"))


def print_json(obj, kind: str | None = None) -> None:
    """``obj`` as indented JSON on stdout. The convention: every --json output is an object whose
    first key is ``KIND_version`` (KIND: the command, or what it prints), added here when ``kind``
    is given. orjson refuses integers beyond 64 bits (a certificate's strategy params may hold
    one): the standard library writes those."""
    import orjson

    if kind is not None and f"{kind}_version" not in obj:
        obj = {f"{kind}_version": JSON_VERSION, **obj}
    try:
        data = orjson.dumps(obj, option=orjson.OPT_INDENT_2) + b"\n"
    except TypeError:  # orjson.JSONEncodeError
        import json

        data = (json.dumps(obj, indent=2, ensure_ascii=False) + "\n").encode()
    sys.stdout.buffer.write(data)
    sys.stdout.flush()


#: Whether this run's command was given --json, and the version key its JSON output starts with
#: (set by set_limits): a file refused on the way is then reported as JSON too, never as text alone.
JSON_OUT = [False]
JSON_KIND = [None]


def _json_kind(command, args) -> str | None:
    """The KIND of the running command's ``KIND_version`` key (print_json)."""
    if command == "render" and getattr(args, "book", False):
        return "book"
    return {"verify": "report", "split-proof": "split"}.get(command, command)


def refused(report, as_json: bool | None = None, kind: str | None = None) -> int:
    """Show a report that is not valid (invalid, or unusable: not checked, a limit named) and
    return its status: its one line on stderr, or with ``as_json`` (by default: whether the
    command was given --json) the checker's JSON report on stdout under the command's version
    key (``"status": "unusable"`` and ``"limit"`` for a file over a limit)."""
    if as_json is None:
        as_json = JSON_OUT[0]
    if as_json:
        print_json(report.to_json(), kind or JSON_KIND[0])
    else:
        print(report.line(), file=sys.stderr)
    return report.status


def wrong_kind(path: str, report) -> None:
    """CertifyError (exit 2) naming the kind of a file that the strategy checker refused only for
    its format, when that format is another kind this project writes (a static or mixed-strategy
    certificate, a lower bound, a manifest): not a broken file, the wrong command."""
    from ..errors import CertifyError
    from ..kinds import named, other_kind
    from ..text import shown

    kind = other_kind(report.error)
    if kind is not None:
        raise CertifyError(named(shown(path), kind, f"certify {COMMAND[0]}" if COMMAND[0] else "this command"))


#: The sub-command running (set by certify.__main__), for messages that name it.
COMMAND = [None]


def verified(path: str, max_guesses=None, quiet: bool = False, as_json: bool | None = None):
    """Verify a file and return its report, or raise SystemExit with the verifier's status."""
    return load_verified(path, max_guesses, quiet, as_json)[0]


def load_verified(path: str, max_guesses=None, quiet: bool = False, as_json: bool | None = None):
    """(report, certificate) of a file read ONCE: the certificate dict is the very document the
    verifier checked, never a second reading of the file. Raises SystemExit with the verifier's
    status (after printing its one line) when the file is not a valid certificate. ``quiet``: no
    note while a pipe is waited for."""
    from .. import verify

    report = verify.verify_file(path, max_guesses, keep=True,
                                on_wait=None if quiet else lambda note: print(note, file=sys.stderr, flush=True),
                                max_work=LIMITS["max_work"])
    if not report.valid:
        wrong_kind(path, report)
        raise SystemExit(refused(report, as_json))
    return report, report.document


def add_proof_parts(p: argparse.ArgumentParser, output: str) -> None:
    p.add_argument("--proof-parts", type=positive, metavar="N",
                   help=f"write the proof as a split proof in the folder {output}: a main file and about N "
                        "gzipped parts, each checked and the whole combined by the lower-bound checker "
                        "(for a proof past the checker's 128 MiB or 2,000,000 nodes as one file; "
                        "certify verify DIR/main.json.gz --parts DIR checks it again)")


def check_proof_output(path, parts, option: str) -> None:
    """Refuse, before the search, a proof output that cannot take what --proof-parts asks for."""
    from ..errors import CertifyError
    from ..files import check_output

    if parts is None:
        check_output(path)
        return
    if path == "-":
        raise CertifyError(f"--proof-parts writes a folder: {option} needs one, not standard output")
    from ..proofparts import check_folder

    check_folder(path)


def write_proof(path, result) -> tuple[str, str]:
    """Write the checked proof of an exact.Result: a file, or a split proof's folder (its main file
    and parts, the bytes the checker accepted). Returns (the file to verify, extra verify words)."""
    from ..files import write_output
    from ..text import shown

    if result.parts is None:
        write_output(path, result.data)
        return path, ""
    from ..proofparts import write_folder

    main, _ = write_folder(path, result.data, result.parts, gz=True)
    return main, f"--parts {shown(path)} --jobs 2"
