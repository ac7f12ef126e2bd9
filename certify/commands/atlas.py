"""``certify atlas``: the exact values of every game the engine reaches, from checked files."""

from __future__ import annotations

import sys

from .common import EXIT_INVALID, EXIT_OK, print_json


def cmd_atlas(args) -> int:
    from .. import atlas
    from ..errors import CertifyError

    if args.check:
        say = None if args.quiet else _progress()
        table = atlas.build_table(progress=say)
    else:
        if not atlas.TABLE.exists():
            raise CertifyError(f"no atlas table at {atlas.TABLE} (make atlas writes it; --check builds it "
                               "from the files)")
        table = atlas.load_table()
    if args.json:
        print_json(table, "atlas")
    elif args.markdown:
        sys.stdout.write(atlas.markdown(table))
    else:
        sys.stdout.write(atlas.text(table))
    for problem in table["problems"] if args.json or args.markdown else ():
        print(f"problem: {problem}", file=sys.stderr)
    return EXIT_INVALID if table["problems"] else EXIT_OK


def _progress():
    import time

    state = {"last": 0.0}

    def show(i: int, n: int, name: str) -> None:
        if time.monotonic() - state["last"] > 2:
            state["last"] = time.monotonic()
            print(f"  checking {i + 1}/{n}: {name}", file=sys.stderr, flush=True)
    return show


def register(sub) -> None:
    p = sub.add_parser("atlas", help="the exact values of every game the engine reaches (worst case, "
                       "least totals, game value), each from checked files",
                       description="The atlas: for every game of pegs 2..6 x colours 2..10, with and without "
                       "repetition, the least worst case D, the least total, the least total within D, the "
                       "fewest secrets needing D then the least total, and the game value; each cell from a "
                       "strategy certificate and a lower-bound proof the trusted checkers accepted, or the "
                       "interval proven when it is not settled. Without --check, the table make atlas wrote, "
                       "after confirming that every file it names has the bytes that were checked.")
    p.add_argument("--check", action="store_true",
                   help="check every file again with the trusted checkers (minutes) instead of reading the table")
    form = p.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="the table as JSON (atlas_version 1)")
    form.add_argument("--markdown", action="store_true", help="the table in Markdown, cells linking their files")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=cmd_atlas)
