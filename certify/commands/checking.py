"""Commands that check and read certificates: ``verify``, ``stats``, ``explain``, ``compare``, ``strategies``."""

from __future__ import annotations

import sys

from .common import EXIT_OK, load_verified, positive, print_json, verified


def cmd_verify(args) -> int:
    from .. import verify

    return verify.run(args.files, args.max_guesses, args.json)


def cmd_stats(args) -> int:
    from ..report import bounds, distribution_table

    if args.plot:
        from ..plot import plot_format

        from ..files import check_output

        plot_format(args.plot)  # a bad extension fails before the (slower) verification
        check_output(args.plot, inputs=[args.file])
    report = verified(args.file)
    if args.plot:
        from ..plot import plot_distribution

        plot_distribution(report, args.plot, inputs=[args.file])
        print(f"wrote {args.plot}", file=sys.stderr)
    if args.json:
        stats = report.replayed
        print_json({"file": args.file, "game": report.game, "strategy": report.strategy,
                    "verified": stats, "mean": stats["total_guesses"] / stats["secrets"],
                    "bounds": bounds(report.strategy, report.game)}, "stats")
    else:
        print(distribution_table(report.strategy, report.game, report.replayed))
    return EXIT_OK


def cmd_explain(args) -> int:
    from ..report import explain_secret

    _, cert = load_verified(args.file)
    lines, steps = explain_secret(cert, args.secret)
    if args.json:
        print_json({"file": args.file, "secret": args.secret.lower(), "steps": steps}, "explain")
    else:
        print("\n".join(lines))
    return EXIT_OK


def cmd_compare(args) -> int:
    from .. import compare
    from ..errors import CertifyError

    if args.json and args.csv:
        raise CertifyError("give either --json or --csv, not both")
    if args.plot:
        from ..files import check_output
        from ..plot import plot_format

        plot_format(args.plot)  # a bad extension fails before the (slower) verification
        check_output(args.plot, inputs=args.files)
    valid, bad = compare.check(args.files)
    if bad:  # every number must be verified: no table with a file left out
        for report in bad:
            print(report.line(), file=sys.stderr)
        return max(r.status for r in bad)
    rows = compare.sort([compare.row(r) for r in valid], args.sort)
    if args.plot:
        compare.plot(rows, args.plot, inputs=args.files)
        print(f"wrote {args.plot}", file=sys.stderr)
    if args.json:
        print_json(compare.to_json(rows))
    elif args.csv:
        sys.stdout.write(compare.csv_text(rows))
    else:
        print(compare.table(rows, args.max_columns))
    return EXIT_OK


def cmd_strategies(args) -> int:
    from ..strategies import STRATEGIES

    if args.json:
        print_json({"strategies": [{"id": k, "description": c.description, "reference": c.reference}
                                   for k, c in STRATEGIES.items()]}, "strategies")
        return EXIT_OK
    width = max(map(len, STRATEGIES))
    for key, cls in STRATEGIES.items():
        print(f"{key:<{width}}  {cls.description}")
        print(f"{'':<{width}}  {cls.reference}")
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("verify", help="independently verify certificates")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--max-guesses", type=positive, metavar="K", help="also require max guesses <= K")
    p.add_argument("--json", action="store_true", help="machine-readable report")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("stats", help="distribution table of a verified certificate")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--plot", metavar="OUT", help="also draw the distribution as a bar chart (.png, .svg, .pdf)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser("explain", help="the game one secret plays through a certificate")
    p.add_argument("file", metavar="FILE")
    p.add_argument("secret", metavar="SECRET")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_explain)

    p = sub.add_parser("compare", help="compare verified certificates side by side")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="machine-readable rows")
    p.add_argument("--csv", action="store_true", help="rows as CSV, every column")
    p.add_argument("--sort", choices=("file", "strategy", "mean", "max", "total"), default="file",
                   help="row order (default: the files' order)")
    p.add_argument("--max-columns", type=positive, default=8, metavar="K",
                   help="text table: at most K 'found within k' columns (default 8)")
    p.add_argument("--plot", metavar="OUT", help="also draw the cumulative curves (.png, .svg, .pdf)")
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("strategies", help="list the strategies")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_strategies)
