"""Small helpers shared by the command families: argument types, game options, JSON output."""

from __future__ import annotations

import argparse
import sys

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def add_game_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pegs", type=int, default=4, help="pegs per code (default 4)")
    p.add_argument("--colors", "--colours", type=int, default=6, help="number of colours (default 6)")
    p.add_argument("--no-repetition", action="store_true", help="codes may not repeat a colour")


def game_of(args):
    from ..game import Game

    return Game(args.pegs, args.colors, not args.no_repetition)


def print_json(obj) -> None:
    import orjson

    sys.stdout.buffer.write(orjson.dumps(obj, option=orjson.OPT_INDENT_2) + b"\n")
    sys.stdout.flush()


def verified(path: str, max_guesses=None):
    """Verify a file and return its report, or raise SystemExit with the verifier's status."""
    return load_verified(path, max_guesses)[0]


def load_verified(path: str, max_guesses=None):
    """(report, certificate) of a file read ONCE: the certificate dict is the very document the
    verifier checked, never a second reading of the file. Raises SystemExit with the verifier's
    status (after printing its one line) when the file is not a valid certificate."""
    from .. import verify

    report = verify.verify_file(path, max_guesses, keep=True,
                                on_wait=lambda note: print(note, file=sys.stderr, flush=True))
    if not report.valid:
        print(report.line(), file=sys.stderr)
        raise SystemExit(report.status)
    return report, report.document
