"""Commands that prove lower bounds: ``bound``."""

from __future__ import annotations

import sys

from .common import EXIT_OK, add_game_args, freeze_startup, game_of, positive, print_json


def cmd_bound(args) -> int:
    from ..errors import CertifyError
    from ..files import check_distinct, check_output, write_output
    from ..search import exact
    from ..search.proof import dumps

    game = game_of(args)
    game.check_size()
    if args.strategy_out and not args.total:
        raise CertifyError("--strategy-out goes with --total (the optimal strategy it proves)")
    if args.worst and args.max_guesses is not None:
        raise CertifyError("--max-guesses goes with --total (--worst finds the least worst case itself)")
    check_output(args.output)
    if args.strategy_out:
        check_output(args.strategy_out, inputs=[args.output])
        check_distinct(args.output, args.strategy_out)
    say = (lambda line: None) if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    freeze_startup("certify.search.total", "certify.search.worst")
    if args.worst:
        result = exact.worst_case(game, progress=not args.quiet, say=say)
    else:
        result = exact.total(game, args.max_guesses, progress=not args.quiet, say=say)
    write_output(args.output, dumps(result.proof))
    if args.strategy_out:
        from ..certificate import write

        write(result.strategy, args.strategy_out)
    summary = {"file": args.output, "game": game.to_json(), "claims": result.proof["claims"],
               "nodes": len(result.proof["nodes"]), "searched": result.searched,
               "seconds": round(result.seconds, 3)}
    if args.strategy_out:
        summary["strategy_file"] = args.strategy_out
    if args.json:
        print_json(summary, "bound")
    else:
        print(f"wrote {args.output}: {result.statement} ({summary['nodes']} proof nodes, "
              f"{result.searched} searched, {result.seconds:.1f} s)")
        if args.strategy_out:
            print(f"wrote {args.strategy_out}: a strategy that meets it")
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("bound", help="prove a lower bound (every strategy needs ...) by counting and search")
    add_game_args(p)
    kind = p.add_mutually_exclusive_group(required=True)
    kind.add_argument("--worst", action="store_true", help="least worst case: every strategy needs >= D")
    kind.add_argument("--total", action="store_true", help="least total of guesses over all secrets")
    p.add_argument("--max-guesses", type=positive, metavar="D",
                   help="--total among strategies that never use more than D guesses")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="proof path (.json or .json.gz)")
    p.add_argument("--strategy-out", metavar="FILE", help="--total: also write the optimal strategy's certificate")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    p.add_argument("--json", action="store_true", help="machine-readable summary")
    p.set_defaults(func=cmd_bound)
