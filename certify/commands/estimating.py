"""``certify estimate``: the size and CPU time of a search, before it runs (Knuth's random probes)."""

from __future__ import annotations

import sys

from .common import EXIT_OK, add_feedback_arg, add_game_args, add_quiet, game_of, positive, print_json


def cmd_estimate(args) -> int:
    from ..search.estimate import estimate

    game = game_of(args)
    game.check_size()
    say = (lambda line: None) if args.quiet or args.json else (lambda line: print(line, file=sys.stderr, flush=True))
    result = estimate(game, upto=args.upto, probes=args.probes, seed=args.seed, at_least=args.at_least, say=say)
    if args.json:
        print_json(result, "estimate")
        return EXIT_OK
    print(f"{game}: counting shows >= {result['counting_bound']}; {result['probes']} random probes "
          f"(seed {result['seed']}), estimate ± standard error:")
    for run in result["runs"]:
        what = (f"bound --worst --at-least {run['at_least']}" if "at_least" in run
                else f"bound --worst, if the least worst case is {run['worst_case']}")
        print(f"  {what}: {run['nodes']:,.0f} ± {run['nodes_stderr']:,.0f} nodes, "
              f"{run['cpu_seconds']:,.1f} ± {run['cpu_seconds_stderr']:,.1f} s CPU")
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("estimate", help="estimate a worst-case search's size and CPU time before running it",
                       description="Estimate the nodes and CPU seconds of `certify bound --worst` by Knuth's "
                       "random probes (Math. Comp. 29, 1975), with the standard error over the probes. The "
                       "search stops at the least worst case D, which it is there to find: the estimate is "
                       "given for each D from the counting bound up to --upto. docs/exact-search.md compares "
                       "it with searches that finished.")
    add_game_args(p)
    add_feedback_arg(p)
    p.add_argument("--worst", action="store_true", required=True,
                   help="the worst-case search (bound --worst; the only kind estimated so far)")
    p.add_argument("--at-least", type=positive, metavar="K", help="estimate bound --worst --at-least K instead")
    p.add_argument("--upto", type=positive, metavar="D",
                   help="the largest least worst case D to estimate for (default: the counting bound + 2)")
    p.add_argument("--probes", type=positive, default=20, metavar="N", help="random probes (default 20)")
    p.add_argument("--seed", type=int, default=0, help="the probes' random seed (default 0)")
    p.add_argument("--json", action="store_true", help="machine-readable estimate")
    add_quiet(p)
    p.set_defaults(func=cmd_estimate)
