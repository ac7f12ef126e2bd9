"""``certify atlas``: the exact values of every game the engine reaches, from checked files."""

from __future__ import annotations

import sys

from .common import EXIT_INVALID, EXIT_OK, EXIT_USAGE, print_json


def cmd_atlas(args) -> int:
    from .. import atlas
    from ..errors import CertifyError

    if args.game is not None:
        try:
            atlas.parse_slug(args.game)
        except ValueError as e:
            raise CertifyError(str(e)) from None
    for name in ("max_codes", "max_work", "max_nodes", "jobs"):
        value = getattr(args, name)
        if value is not None and value < 1:
            raise CertifyError(f"--{name.replace('_', '-')} must be at least 1")
    if not args.check and (args.max_codes or args.max_work or args.max_nodes):
        raise CertifyError("--max-codes, --max-work and --max-nodes apply to --check (the checkers run only then)")
    try:
        if args.check:
            say = None if args.quiet else _progress()
            table = atlas.build_table(progress=say, max_codes=args.max_codes, max_work=args.max_work,
                                      jobs=args.jobs or 1, max_nodes=args.max_nodes)
        else:
            if not atlas.TABLE.exists():
                raise CertifyError("no atlas table at certificates/atlas/table.json (make atlas writes it; "
                                   "--check builds it from the files)")
            table = atlas.load_table()
    except ValueError as e:
        raise CertifyError(str(e)) from None
    if args.game is not None:
        try:
            shown = atlas.detail(table, args.game)
        except ValueError as e:
            raise CertifyError(str(e)) from None
        if args.json:
            row = next(r for r in table["games"] if atlas.slug(r["game"]) == args.game)
            print_json({"game": row, "unchecked": [u for u in table["unchecked"] if u[0] == args.game],
                        "problems": table["problems"], "unusable": table["unusable"]}, "atlas")
        else:
            sys.stdout.write(shown)
    elif args.json:
        print_json({k: v for k, v in table.items() if k != "files"}, "atlas")
    elif args.markdown:
        sys.stdout.write(atlas.markdown(table))
    else:
        sys.stdout.write(atlas.text(table))
    if args.json or args.markdown or args.game is not None:
        for line in table["unusable"]:
            print(f"not checked: {line}", file=sys.stderr)
        for problem in table["problems"]:
            print(f"problem: {problem}", file=sys.stderr)
    return EXIT_INVALID if table["problems"] else EXIT_USAGE if table["unusable"] else EXIT_OK


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
                       "after confirming that every file it names has the bytes that were checked and the figures its "
                       "files give; each cell marked [new], [pub] (published) or [ext] (external).")
    p.add_argument("game", nargs="?", metavar="GAME",
                   help="one game in full (5x7, 4x10-norep, 3x6-black): its files, sha256, rebuild and check "
                   "commands, and the published figure")
    p.add_argument("--check", action="store_true",
                   help="check every file again with the trusted checkers (minutes) instead of reading the table")
    p.add_argument("--max-codes", type=int, metavar="N",
                   help="--check: the lower-bound checker's code limit (default 10,000; a file past it is "
                   "listed as not checked, exit 2); a manifest never raises it")
    p.add_argument("--max-work", type=int, metavar="N", help="--check: the checkers' work limit")
    p.add_argument("--max-nodes", type=int, metavar="N",
                   help="--check: the checkers' node limit (default 2,000,000 nodes of a lower-bound proof)")
    p.add_argument("--jobs", type=int, metavar="N", help="--check: files checked at once (default 1)")
    form = p.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="the table as JSON (atlas_version 1)")
    form.add_argument("--markdown", action="store_true", help="the table in Markdown, cells linking their files")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=cmd_atlas)
