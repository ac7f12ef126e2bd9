"""Commands that check and read certificates: ``verify``, ``stats``, ``explain``, ``compare``, ``strategies``."""

from __future__ import annotations

import sys

from ..kinds import MANIFESTS  # (cheap: constants; the checkers are imported when a file is checked)
from .common import (EXIT_OK, LIMITS, add_limits, add_quiet, load_verified, positive, print_json, refused, verified,
                     wrong_kind)


def _note(quiet: bool = False):
    """How a command prints a note on stderr (nothing with -q)."""
    if quiet:
        return lambda note: None
    return lambda note: print(note, file=sys.stderr, flush=True)


def _progress(quiet: bool = False):
    """Progress of a long lower-bound check on stderr, when it is a terminal (and not -q)."""
    if quiet or not sys.stderr.isatty():
        return None  # (and the lower-bound checker, numpy with it, is not imported for a strategy)
    from ..verify_bound import progress_printer

    return progress_printer(sys.stderr)


def _check_file(path: str, max_guesses, quiet: bool):
    """(kind, report) of a file read once, or ("manifest", format) for a manifest."""
    from ..kinds import STRATEGY, check_bytes, manifest_of, read

    raw, unread = read(path, _note(quiet))  # (as check_any reports them)
    if raw is None:
        return STRATEGY, unread
    form = manifest_of(raw)
    if form is not None:
        return "manifest", form
    return check_bytes(raw, path, max_guesses, progress=_progress(quiet), **LIMITS)


def cmd_verify(args) -> int:
    from ..errors import CertifyError
    if args.formal:  # the checker proven in Coq (make formal builds it; docs/formal.md)
        if args.optimal or args.value or args.part or args.parts or args.max_guesses is not None:
            raise CertifyError("--formal goes alone: strategy certificates and worst-case bounds, each checked by itself")
        from ..formal import verify_files

        return verify_files(args.files, args.json)
    if args.value is not None:  # a mixed strategy beside a weighted lower bound: the game value
        if args.optimal is not None or args.max_guesses is not None:
            raise CertifyError("--value goes alone (a mixed strategy and a weighted lower bound)")
        from .value import verify_value

        return verify_value(args.files, args.value, args.json, args.quiet)
    if args.part or args.parts:  # a split lower-bound proof and its part files
        return _verify_split(args)
    if args.jobs != 1:
        raise CertifyError("--jobs goes with the parts of a split proof (--part, --parts)")
    if args.optimal is not None:
        if len(args.optimal) == 2:  # least worst case, then least total: a pair of proofs
            return _optimal_pair(args.files, args.optimal, args.json, args.max_guesses, args.quiet)
        if len(args.optimal) > 2:
            raise CertifyError("--optimal: one lower bound, or two (a worst case, then a total)")
        return _optimal(args.files, args.optimal[0], args.json, args.max_guesses, args.quiet)
    from ..kinds import LOWER_BOUND, STRATEGY
    from ..report import figures
    from ..text import shown

    results, skipped = [], []
    for f in args.files:
        kind, report = _check_file(f, args.max_guesses, args.quiet)
        if kind == "manifest":
            skipped.append({"file": f, "kind": "manifest", "format": report})
            _note(args.quiet)(f"{shown(f)}: manifest, skipped (use {MANIFESTS[report]} to check it)")
            continue
        results.append((kind, report))
        if kind != STRATEGY and args.max_guesses is not None:  # no maximum to require
            raise CertifyError(f"--max-guesses applies to strategy certificates; {shown(f)} is a "
                               f"{'lower-bound' if kind == LOWER_BOUND else 'mixed-strategy'} certificate "
                               "(its claims say what it proves)")
    if args.json:
        # A valid strategy's replayed figures also under the keys stats, compare and explain use.
        print_json({"report_version": 1, "tool": "certify.verify",
                    "results": [dict(r.to_json(), kind=kind,
                                     **(figures(r.replayed) if kind == STRATEGY and r.valid else {}))
                                for kind, r in results],
                    "skipped": skipped})
    else:
        for _, r in results:
            print(r.line(), file=sys.stdout if r.valid else sys.stderr)
    return max((r.status for _, r in results), default=EXIT_OK)


def _verify_split(args) -> int:
    """Lower-bound proofs split into parts (docs/lower-bound-format.md, "Parts of a proof"): every
    file checked by the trusted checker, in ``--jobs`` processes, and its combining step's verdict."""
    from .. import verify_bound
    from ..errors import CertifyError
    from ..kinds import STRATEGY

    parts = list(args.part or [])
    try:
        for folder in args.parts or []:
            parts += verify_bound.part_files(folder)
    except verify_bound.verify.Unreadable as e:
        raise CertifyError(f"cannot read parts folder {e}") from None
    if args.optimal is not None:
        if len(args.optimal) != 1:
            raise CertifyError("--optimal with parts: one lower bound (the main file of the split proof)")
        if len(args.files) != 1:
            raise CertifyError(f"--optimal compares one strategy certificate with the bound, got {len(args.files)} files")
        strategy = _checked(args.files[0], STRATEGY, args.max_guesses, args.quiet)
        if not strategy.valid:
            return _refused_optimal(args.json, strategy, [None], pair=False)
        bound = verify_bound.check_split(args.optimal, parts, args.jobs, _note(args.quiet), _progress(args.quiet),
                                         LIMITS["max_codes"] or verify_bound.MAX_CODES, LIMITS["max_work"],
                                         LIMITS["max_nodes"])[0]
        if not bound.valid:
            return _refused_optimal(args.json, strategy, [bound], pair=False)
        return _show_optimal(strategy, bound, args.json)
    if args.max_guesses is not None:
        raise CertifyError("--max-guesses applies to strategy certificates; with --part/--parts the files "
                           "are lower-bound proofs (their claims say what they prove)")
    reports = verify_bound.check_split(args.files, parts, args.jobs, _note(args.quiet), _progress(args.quiet),
                                       LIMITS["max_codes"] or verify_bound.MAX_CODES, LIMITS["max_work"],
                                       LIMITS["max_nodes"])
    if args.json:
        print_json({"report_version": 1, "tool": "certify.verify",
                    "results": [dict(r.to_json(), kind="lower-bound") for r in reports], "skipped": []})
    else:
        for r in reports:
            print(r.line(), file=sys.stdout if r.valid else sys.stderr)
    return max((r.status for r in reports), default=EXIT_OK)


def _checked(path: str, want: str, max_guesses=None, quiet: bool = False):
    """The report of a certificate of kind ``want`` (the file read once; a strategy within
    ``max_guesses``), valid or not (the caller shows a refusal in its own shape); CertifyError for
    a valid file of another kind."""
    from ..errors import CertifyError
    from ..kinds import check_any
    from ..text import shown

    kind, report = check_any(path, max_guesses, on_wait=_note(quiet), progress=_progress(quiet), **LIMITS)
    if report.valid and kind != want:
        raise CertifyError(f"{shown(path)} is a {kind} certificate, not a {want} certificate")
    return report


def _refused_optimal(as_json: bool, strategy, bounds: list, pair: bool) -> int:
    """A strategy or a bound of ``verify --optimal`` that is not valid (invalid, or unusable: over
    a limit): its line on stderr, or with --json the --optimal shape with every report made so far
    (a file left unchecked after a refusal is null) and "optimality": null. Exit: its status."""
    bad = next(r for r in [strategy, *bounds] if r is not None and not r.valid)
    if as_json:
        shown = {"strategy": dict(strategy.to_json(), kind="strategy")}
        reports = [None if b is None else dict(b.to_json(), kind="lower-bound") for b in bounds]
        shown.update({"bounds": reports} if pair else {"bound": reports[0]})
        print_json({"report_version": 1, "tool": "certify.verify", **shown, "optimality": None})
    else:
        print(bad.line(), file=sys.stderr)
    return bad.status


def _optimal(files, bound_file: str, as_json: bool, max_guesses=None, quiet: bool = False) -> int:
    from ..errors import CertifyError
    from ..kinds import LOWER_BOUND, STRATEGY

    if len(files) != 1:
        raise CertifyError(f"--optimal compares one strategy certificate with the bound, got {len(files)} files")

    strategy = _checked(files[0], STRATEGY, max_guesses, quiet)
    bound = _checked(bound_file, LOWER_BOUND, quiet=quiet) if strategy.valid else None
    if bound is None or not bound.valid:
        return _refused_optimal(as_json, strategy, [bound], pair=False)
    return _show_optimal(strategy, bound, as_json)


def _show_optimal(strategy, bound, as_json: bool) -> int:
    """The strategy's and the bound's verdicts and their comparison: exit 0 when optimal."""
    from ..optimality import compare

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


def _optimal_pair(files, bound_files, as_json: bool, max_guesses=None, quiet: bool = False) -> int:
    """A strategy beside a worst-case proof and a total proof (in either order): least worst case,
    then least total (docs/lower-bound-format.md, "Lexicographic claims")."""
    from ..errors import CertifyError
    from ..kinds import LOWER_BOUND, STRATEGY
    from ..optimality import compare_pair

    if len(files) != 1:
        raise CertifyError(f"--optimal compares one strategy certificate with the bounds, got {len(files)} files")
    strategy = _checked(files[0], STRATEGY, max_guesses, quiet)
    bounds = [None] * len(bound_files)
    for i, f in enumerate(bound_files):  # up to the first refusal
        if all(r is None or r.valid for r in [strategy, *bounds]):
            bounds[i] = _checked(f, LOWER_BOUND, quiet=quiet)
    if not all(r is not None and r.valid for r in [strategy, *bounds]):
        return _refused_optimal(as_json, strategy, bounds, pair=True)
    worst = [b for b in bounds if "worst_case" in b.claims]
    if len(worst) != 1:
        raise CertifyError("--optimal twice: one worst-case bound and one total bound (least worst case, "
                           "then least total)")
    total = bounds[1 - bounds.index(worst[0])]
    result = compare_pair(strategy, worst[0], total)
    if as_json:
        print_json({"report_version": 1, "tool": "certify.verify",
                    "strategy": dict(strategy.to_json(), kind="strategy"),
                    "bounds": [dict(b.to_json(), kind="lower-bound") for b in bounds], "optimality": result})
    else:
        print(strategy.line())
        for b in bounds:
            print(b.line())
        print(result["text"])
    return EXIT_OK if result["optimal"] else 1


def cmd_stats(args) -> int:
    from ..report import bounds, distribution_table, figures

    if args.plot:
        from ..plot import plot_format

        from ..files import check_output

        plot_format(args.plot)  # a bad extension fails before the (slower) verification
        check_output(args.plot, inputs=[args.file])
    report = verified(args.file, quiet=args.quiet, as_json=args.json)
    lower = None
    if args.bound is not None:  # checked before anything is printed or drawn
        from ..kinds import LOWER_BOUND
        from ..optimality import compare

        bound = _checked(args.bound, LOWER_BOUND, quiet=args.quiet)
        if not bound.valid:  # invalid, or unusable (a limit named): the bound's report, as stats shows one
            return refused(bound, args.json, "stats")
        lower = compare(report, bound)
    proven = _proven_worst_case(report.game, lower)
    if args.plot:
        from ..plot import plot_distribution

        plot_distribution(report, args.plot, inputs=[args.file])
        _note(args.quiet)(f"wrote {args.plot}")
    if args.json:
        stats = report.replayed
        # "verified" holds the same figures as before the shared keys (kept for readers of v1).
        out = {"file": args.file, "game": report.game, "strategy": report.strategy, **figures(stats),
               "verified": stats, "bounds": dict(bounds(report.strategy, report.game), proven_worst_case=proven)}
        if lower is not None:
            out["lower_bound"] = lower
        print_json(out, "stats")
    else:
        print(distribution_table(report.strategy, report.game, report.replayed, proven))
        if lower is not None:
            print(f"proven lower bound ({lower['bound_file']}): {lower['statement']}")
            print(f"this strategy: {lower['text']}")
    return EXIT_OK


def _proven_worst_case(game: dict, lower):
    """The best proven worst-case bound of the game, kept apart from the counting bound: a
    worst-case proof checked in this run (--bound), or the committed proof the manifest lists."""
    from ..why import committed_worst_case

    found = []  # on a tie the first wins: the proof checked in this run
    if lower is not None and "worst_case" in lower["claims"]:
        found.append({"bound": lower["proven_minimum"], "file": lower["bound_file"], "source": "checked in this run"})
    found.append(committed_worst_case(game, **LIMITS))  # (the user's limits: --max-codes, --max-work...)
    checked = [p for p in found if p and p["bound"] is not None]
    return max(checked, key=lambda p: p["bound"], default=None) or next((p for p in found if p), None)


def cmd_explain(args) -> int:
    from ..report import explain_secret, figures

    report, cert = load_verified(args.file, quiet=args.quiet, as_json=args.json)
    letters = None
    if args.letters:
        from ..letters import parse_letters

        letters = parse_letters(args.letters, cert["game"]["colors"])
    lines, steps = explain_secret(cert, args.secret, letters)
    if args.json:
        # The certificate's figures beside the secret's game, under the shared keys.
        print_json({"file": args.file, "game": report.game, "strategy": report.strategy,
                    **figures(report.replayed), "secret": steps[-1]["guess"], "guesses": len(steps),
                    "steps": steps, **({"letters": letters} if letters else {})}, "explain")
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
    valid, bad = compare.check(args.files, LIMITS["max_work"])
    if bad:  # every number must be verified: no table with a file left out
        for report in bad:
            wrong_kind(report.file, report)  # a file of another kind: named, with the command that reads it
        if args.json:  # the same shape, no rows, the refused files' reports
            print_json(compare.to_json([], bad))
        else:
            for report in bad:
                print(report.line(), file=sys.stderr)
        return max(r.status for r in bad)
    rows = compare.sort([compare.row(r) for r in valid], args.sort)
    if args.plot:
        compare.plot(rows, args.plot, inputs=args.files)
        _note(args.quiet)(f"wrote {args.plot}")
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
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="certificates to check, of any kind: strategies, lower bounds, mixed strategies "
                        "(.json or .json.gz)")
    p.add_argument("--max-guesses", type=positive, metavar="K",
                   help="also require max guesses <= K (strategy certificates only)")
    p.add_argument("--json", action="store_true", help="machine-readable report")
    p.add_argument("--optimal", metavar="BOUND", action="append",
                   help="with one strategy certificate: check the lower-bound certificate BOUND too and say "
                   "whether they meet (exit 0 optimal, 1 gap); twice, a worst-case bound and a total "
                   "bound: least worst case, then least total")
    p.add_argument("--value", metavar="BOUND",
                   help="with one mixed-strategy certificate: check the weighted lower bound BOUND too and "
                   "say whether they meet at the game value (exit 0 proven, 1 a gap)")
    p.add_argument("--part", metavar="PART", action="append",
                   help="a part file of a split lower-bound proof (repeatable): the files given are its main files")
    p.add_argument("--parts", metavar="DIR", action="append",
                   help="a folder of part files (*.json, *.json.gz) of a split lower-bound proof")
    p.add_argument("--jobs", type=positive, default=1, metavar="N",
                   help="with parts: check the files in N processes (default 1; at most the machine's cores)")
    add_limits(p)
    p.add_argument("--formal", action="store_true",
                   help="check with the checker proven correct in Coq instead (built by `make formal`; "
                        "strategy certificates and worst-case bounds; docs/formal.md)")
    add_quiet(p)
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("stats", help="distribution table of a verified certificate")
    p.add_argument("file", metavar="FILE", help="a strategy certificate (.json or .json.gz)")
    p.add_argument("--plot", metavar="OUT", help="also draw the distribution as a bar chart (.png, .svg, .pdf)")
    p.add_argument("--bound", metavar="BOUND", help="a lower-bound certificate: its proven bound is shown beside")
    p.add_argument("--json", action="store_true", help="machine-readable table (stats_version 1)")
    add_limits(p)
    add_quiet(p)
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser("explain", help="the game one secret plays through a certificate")
    p.add_argument("file", metavar="FILE", help="a strategy certificate (.json or .json.gz)")
    p.add_argument("secret", metavar="SECRET", help="the secret whose game is shown, e.g. 3132")
    p.add_argument("--letters", metavar="RGBYOP",
                   help="type and show colours as these letters, one per colour (as play --letters; "
                        "--json keeps the game's digits)")
    p.add_argument("--json", action="store_true", help="machine-readable steps (explain_version 1)")
    add_limits(p)
    add_quiet(p)
    p.set_defaults(func=cmd_explain)

    p = sub.add_parser("compare", help="compare verified certificates side by side")
    p.add_argument("files", nargs="+", metavar="FILE", help="strategy certificates, one row each (.json or .json.gz)")
    p.add_argument("--json", action="store_true", help="machine-readable rows")
    p.add_argument("--csv", action="store_true", help="rows as CSV, every column")
    p.add_argument("--sort", choices=("file", "strategy", "mean", "max", "total"), default="file",
                   help="row order (default: the files' order)")
    p.add_argument("--max-columns", type=positive, default=8, metavar="K",
                   help="text table: at most K 'found within k' columns (default 8)")
    p.add_argument("--plot", metavar="OUT", help="also draw the cumulative curves (.png, .svg, .pdf)")
    add_limits(p)
    add_quiet(p)
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("strategies", help="list the strategies")
    p.add_argument("--json", action="store_true", help="machine-readable list (strategies_version 1)")
    add_quiet(p)
    p.set_defaults(func=cmd_strategies)
