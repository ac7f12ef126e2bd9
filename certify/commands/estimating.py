"""``certify estimate``: the size and CPU time of a search, before it runs (Knuth's random probes)."""

from __future__ import annotations

import sys

from .common import EXIT_OK, add_feedback_arg, add_game_args, add_quiet, game_of, positive, print_json


def cmd_estimate(args) -> int:
    from ..errors import CertifyError
    from ..search.estimate import estimate, estimate_total

    game = game_of(args)
    game.check_size()
    say = (lambda line: None) if args.quiet or args.json else (lambda line: print(line, file=sys.stderr, flush=True))
    if args.total:
        for flag, given in (("--upto", args.upto), ("--at-least", args.at_least)):
            if given is not None:
                raise CertifyError(f"{flag} goes with --worst (the total search has no D to guess)")
        result = estimate_total(game, max_guesses=args.max_guesses, objective=args.objective, probes=args.probes,
                                seed=args.seed, say=say)
    else:
        for flag, given in (("--max-guesses", args.max_guesses), ("--objective", args.objective)):
            if given is not None:
                raise CertifyError(f"{flag} goes with --total (the least-total search of build optimal)")
        result = estimate(game, upto=args.upto, probes=args.probes, seed=args.seed, at_least=args.at_least, say=say)
    if args.json:
        print_json(result, "estimate")
        return EXIT_OK
    if args.total:
        print(f"{game}: counting shows a total >= {result['counting_bound']}; {result['probes']} random probes "
              f"(seed {result['seed']}), estimate ± standard error:")
    else:
        print(f"{game}: counting shows >= {result['counting_bound']}; {result['probes']} random probes "
              f"(seed {result['seed']}), estimate ± standard error:")
    for run in result["runs"]:
        if args.total:
            what = "build optimal" + ("" if run["max_guesses"] is None else f" --max-guesses {run['max_guesses']}") \
                + ("" if run["objective"] == "total" else f" --objective {run['objective']}")
        elif "at_least" in run:
            what = f"bound --worst --at-least {run['at_least']}"
        else:
            what = f"bound --worst, if the least worst case is {run['worst_case']}"
        print(f"  {what}: {run['nodes']:,.0f} ± {run['nodes_stderr']:,.0f} nodes, "
              f"{run['cpu_seconds']:,.1f} ± {run['cpu_seconds_stderr']:,.1f} s CPU")
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("estimate", help="estimate an exact search's size and CPU time before running it",
                       description="Estimate the nodes and CPU seconds of an exact search by Knuth's random "
                       "probes (Math. Comp. 29, 1975), with the standard error over the probes: --worst, "
                       "`certify bound --worst` (which stops at the least worst case D, which it is there "
                       "to find: the estimate is given for each D from the counting bound up to --upto); "
                       "--total, the least-total search of `certify build optimal` (with --max-guesses D, "
                       "within D; --objective, a counting objective). docs/exact-search.md compares both "
                       "with searches that finished, and says how far off they were.")
    add_game_args(p)
    add_feedback_arg(p)
    kind = p.add_mutually_exclusive_group(required=True)
    kind.add_argument("--worst", action="store_true", help="the worst-case search (bound --worst)")
    kind.add_argument("--total", action="store_true",
                      help="the least-total search (build optimal; one process, not the split search)")
    p.add_argument("--at-least", type=positive, metavar="K", help="--worst: estimate bound --worst --at-least K instead")
    p.add_argument("--upto", type=positive, metavar="D",
                   help="--worst: the largest least worst case D to estimate for (default: the counting bound + 2)")
    p.add_argument("--max-guesses", type=positive, metavar="D",
                   help="--total: the least total among strategies within D guesses (build optimal --max-guesses D)")
    p.add_argument("--objective", choices=("total", "total,max-count", "max-count,total"), metavar="OBJECTIVE",
                   help="--total: as build optimal --objective: total (the default), total,max-count or "
                        "max-count,total (both need --max-guesses)")
    p.add_argument("--probes", type=positive, default=20, metavar="N", help="random probes (default 20)")
    p.add_argument("--seed", type=int, default=0, help="the probes' random seed (default 0)")
    p.add_argument("--json", action="store_true", help="machine-readable estimate")
    add_quiet(p)
    p.set_defaults(func=cmd_estimate)
