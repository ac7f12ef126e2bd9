"""Commands that check and read certificates: ``verify``, ``stats``, ``explain``, ``compare``, ``strategies``."""

from __future__ import annotations

import sys

from .common import EXIT_OK, load_verified, positive, print_json, verified


def _wait(note: str) -> None:
    print(note, file=sys.stderr, flush=True)


def _progress():
    """Progress of a long lower-bound check on stderr, when it is a terminal."""
    from ..verify_bound import progress_printer

    return progress_printer(sys.stderr) if sys.stderr.isatty() else None


def cmd_verify(args) -> int:
    if args.optimal is not None:
        return _optimal(args.files, args.optimal, args.json, args.max_guesses)
    from ..errors import CertifyError
    from ..optimality import LOWER_BOUND, check_any
    from ..text import shown

    results = []
    for f in args.files:
        results.append(check_any(f, args.max_guesses, on_wait=_wait, progress=_progress()))
        if results[-1][0] == LOWER_BOUND and args.max_guesses is not None:  # no maximum to require
            raise CertifyError(f"--max-guesses applies to strategy certificates; {shown(f)} is a "
                               "lower-bound certificate (its claims say what it proves)")
    if args.json:
        print_json({"report_version": 1, "tool": "certify.verify",
                    "results": [dict(r.to_json(), kind=kind) for kind, r in results]})
    else:
        for _, r in results:
            print(r.line(), file=sys.stdout if r.valid else sys.stderr)
    return max(r.status for _, r in results)


def _checked(path: str, want: str, max_guesses=None):
    """The report of a valid certificate of kind ``want`` (the file read once; a strategy within
    ``max_guesses``); else SystemExit with the checker's status, or CertifyError for the wrong kind."""
    from ..errors import CertifyError
    from ..optimality import check_any
    from ..text import shown

    kind, report = check_any(path, max_guesses, on_wait=_wait, progress=_progress())
    if not report.valid:
        print(report.line(), file=sys.stderr)
        raise SystemExit(report.status)
    if kind != want:
        raise CertifyError(f"{shown(path)} is a {kind} certificate, not a {want} certificate")
    return report


def _optimal(files, bound_file: str, as_json: bool, max_guesses=None) -> int:
    from ..errors import CertifyError
    from ..optimality import compare

    if len(files) != 1:
        raise CertifyError(f"--optimal compares one strategy certificate with the bound, got {len(files)} files")
    from ..optimality import LOWER_BOUND, STRATEGY

    strategy, bound = _checked(files[0], STRATEGY, max_guesses), _checked(bound_file, LOWER_BOUND)
    result = compare(strategy, bound)
    if as_json:
        print_json({"report_version": 1, "tool": "certify.verify",
                    "strategy": dict(strategy.to_json(), kind="strategy"),
                    "bound": dict(bound.to_json(), kind="lower-bound"), "optimality": result})
    else:
        print(strategy.line())
        print(bound.line())
        print(result["text"])
    return EXIT_OK if result["optimal"] else 1


def cmd_stats(args) -> int:
    from ..report import bounds, distribution_table

    if args.plot:
        from ..plot import plot_format

        from ..files import check_output

        plot_format(args.plot)  # a bad extension fails before the (slower) verification
        check_output(args.plot, inputs=[args.file])
    report = verified(args.file)
    lower = None
    if args.bound is not None:  # checked before anything is printed or drawn
        from ..optimality import LOWER_BOUND, compare

        lower = compare(report, _checked(args.bound, LOWER_BOUND))
    if args.plot:
        from ..plot import plot_distribution

        plot_distribution(report, args.plot, inputs=[args.file])
        print(f"wrote {args.plot}", file=sys.stderr)
    if args.json:
        stats = report.replayed
        out = {"file": args.file, "game": report.game, "strategy": report.strategy,
               "verified": stats, "mean": stats["total_guesses"] / stats["secrets"],
               "bounds": bounds(report.strategy, report.game)}
        if lower is not None:
            out["lower_bound"] = lower
        print_json(out, "stats")
    else:
        print(distribution_table(report.strategy, report.game, report.replayed))
        if lower is not None:
            print(f"proven lower bound ({lower['bound_file']}): {lower['statement']}")
            print(f"this strategy: {lower['text']}")
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
    p = sub.add_parser("verify", help="independently verify certificates (strategies and lower bounds)")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--max-guesses", type=positive, metavar="K",
                   help="also require max guesses <= K (strategy certificates only)")
    p.add_argument("--json", action="store_true", help="machine-readable report")
    p.add_argument("--optimal", metavar="BOUND", help="with one strategy certificate: check the lower-bound "
                   "certificate BOUND too and say whether they meet (exit 0 optimal, 1 gap)")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("stats", help="distribution table of a verified certificate")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--plot", metavar="OUT", help="also draw the distribution as a bar chart (.png, .svg, .pdf)")
    p.add_argument("--bound", metavar="BOUND", help="a lower-bound certificate: its proven bound is shown beside")
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
