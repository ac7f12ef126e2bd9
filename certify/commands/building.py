"""Commands that make certificates: ``build``."""

from __future__ import annotations

import sys

from .common import (EXIT_OK, add_feedback_arg, add_game_args, add_proof_parts, add_quiet, freeze_startup, game_of,
                     positive, print_json)


def cmd_build(args) -> int:
    from ..certificate import dumps, make_certificate
    from ..kinds import check_bytes
    from ..errors import CertifyError
    from ..files import check_output, write_output
    from ..progress import Progress
    from ..report import summary_lines
    from ..strategies import get_strategy
    from .optimal import cmd_build_optimal, scheduler

    if args.output == "-" and args.json:
        raise CertifyError("--json and -o - both want standard output: choose one")
    if args.strategy == "optimal":  # the exact search, not a heuristic strategy
        return cmd_build_optimal(args)
    game = game_of(args)
    game.check_size()
    cls = get_strategy(args.strategy)
    for name in ("max_guesses", "proof", "objective", "worst_proof", "checkpoint", "proof_parts"):
        if getattr(args, name, None) is not None and name not in getattr(cls, "options", ()):
            raise CertifyError(f"--{name.replace('_', '-')} goes with 'build optimal'"
                               + (" or 'build within'" if name == "max_guesses" else ""))
    kwargs = {"first": args.first}
    kwargs.update(_strategy_options(cls, args))
    if cls.id == "within" and not args.quiet:  # its search runs before the tree is built
        kwargs["progress"] = lambda line: print(line, file=sys.stderr, flush=True)
    strategy = cls(game, **kwargs)
    kwargs.pop("progress", None)
    out = args.output or f"{strategy.id}-{game.slug}.json" + (".gz" if game.size > 20000 else "")
    check_output(out)
    address = scheduler(args)
    freeze_startup(*(["certify.strategies.kernel"] if getattr(strategy, "engine", None) == "kernel" else []))
    with Progress(total=game.size, desc=f"{strategy.id} {game.slug}", enabled=not args.quiet) as bar:
        if args.workers or address:  # the Dask add-on, imported only here
            from .. import distributed

            cert = distributed.make_certificate(strategy.id, game, kwargs, workers=args.workers,
                                                address=None if args.workers else address,
                                                progress=bar.update)
        else:
            cert = make_certificate(strategy, progress=bar.update)
    data = dumps(cert, compact=str(out).endswith(".gz"))
    # What the summary shows, the independent verifier accepted first (the builder's own claims are
    # not a result): 0.7 s for Knuth's 5x8 tree.
    kind, report = check_bytes(data, out)
    if not report.valid:  # pragma: no cover - a builder bug, said as such
        raise CertifyError(f"the builder made a certificate the verifier refuses: {report.error}")
    write_output(out, data)
    if args.json:
        print_json({"file": out, "game": cert["game"], "strategy": cert["strategy"], "claims": cert["claims"]}, "build")
    elif not (out == "-" and args.quiet):  # with -o -, stdout holds the certificate: the summary
        to = sys.stderr if out == "-" else sys.stdout  # goes to stderr, a note that -q leaves out
        print(f"wrote {'standard output' if out == '-' else out}", file=to)
        for line in summary_lines(cert["strategy"]["name"], cert["game"], cert["claims"]):
            print(line, file=to)
    return EXIT_OK


def _strategy_options(cls, args) -> dict:
    """Extra constructor options a strategy declares (e.g. greenwell's --sequence)."""
    from ..errors import CertifyError

    out = {}
    declared = getattr(cls, "options", ())
    for name in declared:
        value = getattr(args, name, None)
        if value is not None:
            out[name] = value
    # An option the strategy does not take must not be silently ignored.
    for name in ("sequence", "width"):
        if name not in declared and getattr(args, name, None) is not None:
            raise CertifyError(f"strategy {cls.id!r} does not take --{name}")
    return out


def register(sub) -> None:
    p = sub.add_parser("build", help="expand a strategy into a certificate")
    p.add_argument("strategy", metavar="STRATEGY",
                   help="strategy id (see 'certify strategies'), or 'optimal': least total by exact search")
    add_game_args(p)
    add_feedback_arg(p)
    p.add_argument("--first", metavar="CODE", help="override the first guess")
    p.add_argument("--sequence", metavar="CODES", help="greenwell: static sequence, comma-separated")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="the certificate written (.json, or .json.gz gzipped; - for standard output); "
                        "default: named after the strategy and the game, e.g. knuth-4x6.json")
    add_quiet(p)
    p.add_argument("--workers", type=positive, metavar="N",
                   help="build on a local Dask cluster of N processes")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="build on a running Dask cluster (default: $DASK_SCHEDULER_ADDRESS)")
    p.add_argument("--max-guesses", type=positive, metavar="D",
                   help="optimal: least total among strategies that never use more than D guesses; "
                        "within: a strategy that never uses more than D (default: the least D it finds)")
    p.add_argument("--width", type=positive, metavar="N",
                   help="within: the guesses tried at each set below the top two levels (default: 40 to 200 "
                        "by the guesses left)")
    p.add_argument("--proof", metavar="BOUND", help="optimal: also write the lower-bound proof of its total")
    p.add_argument("--objective", choices=("total", "worst,total", "total,max-count", "max-count,total"),
                   metavar="OBJECTIVE",
                   help="optimal: what is least, compared in this order: total (the default); worst,total "
                        "(least worst case D, then least total within D); total,max-count (least total "
                        "within --max-guesses D, then fewest secrets needing D); max-count,total (fewest "
                        "secrets needing --max-guesses D, then least total within D)")
    p.add_argument("--worst-proof", metavar="BOUND",
                   help="optimal --objective worst,total: also write the worst-case proof of D")
    add_proof_parts(p, "--proof DIR (optimal)")
    p.add_argument("--checkpoint", metavar="DIR",
                   help="optimal: keep every finished task of the search in DIR; after a stop, the same "
                        "command resumes there and writes the same bytes (the split search, as with --workers; "
                        "every --objective)")
    p.add_argument("--json", action="store_true", help="machine-readable summary")
    p.set_defaults(func=cmd_build)
