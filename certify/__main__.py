"""Command-line interface. The library raises; this module alone maps errors to exit codes.

Exit codes: 0 success, 1 invalid certificate (or a game that ends in a contradiction),
2 unusable input (bad arguments, unreadable file, unknown strategy, invalid code...).
Heavy modules (numpy builder, renderer) are imported only by the subcommands that use them,
so ``certify verify`` starts fast.
"""

from __future__ import annotations

import argparse
import sys

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2 (the usage is one --help away)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def _add_game_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pegs", type=int, default=4, help="pegs per code (default 4)")
    p.add_argument("--colors", "--colours", type=int, default=6, help="number of colours (default 6)")
    p.add_argument("--no-repetition", action="store_true", help="codes may not repeat a colour")


def _game(args):
    from .game import Game

    return Game(args.pegs, args.colors, not args.no_repetition)


# -- build -----------------------------------------------------------------------------

def cmd_build(args) -> int:
    from .certificate import make_certificate, write
    from .progress import Progress
    from .report import summary_lines
    from .strategies import get_strategy

    game = _game(args)
    game.check_size()
    cls = get_strategy(args.strategy)
    kwargs = {"first": args.first}
    kwargs.update(_strategy_options(cls, args))
    strategy = cls(game, **kwargs)
    out = args.output or f"{strategy.id}-{game.slug}.json" + (".gz" if game.size > 20000 else "")
    _check_output(out)
    with Progress(total=game.size, desc=f"{strategy.id} {game.slug}", enabled=not args.quiet) as bar:
        cert = make_certificate(strategy, progress=bar.update)
    write(cert, out)
    if args.json:
        _print_json({"file": out, "game": cert["game"], "strategy": cert["strategy"], "claims": cert["claims"]})
    else:
        print(f"wrote {out}")
        for line in summary_lines(cert["strategy"]["name"], cert["game"], cert["claims"]):
            print(line)
    return EXIT_OK


def _check_output(path: str) -> None:
    """Refuse an output path that cannot be written before the (possibly long) build."""
    import os

    from .errors import CertifyError

    folder = os.path.dirname(path) or "."
    if os.path.isdir(path):
        raise CertifyError(f"cannot write {path}: it is a directory")
    if not os.path.isdir(folder):
        why = "is not a directory" if os.path.exists(folder) else "does not exist"
        raise CertifyError(f"cannot write {path}: folder {folder} {why}")
    if not os.access(folder, os.W_OK):
        raise CertifyError(f"cannot write {path}: folder {folder} is not writable")


def _strategy_options(cls, args) -> dict:
    """Extra constructor options a strategy declares (e.g. greenwell's --sequence)."""
    from .errors import CertifyError

    out = {}
    declared = getattr(cls, "options", ())
    for name in declared:
        value = getattr(args, name, None)
        if value is not None:
            out[name] = value
    # An option the strategy does not take must not be silently ignored.
    for name in ("sequence",):
        if name not in declared and getattr(args, name, None) is not None:
            raise CertifyError(f"strategy {cls.id!r} does not take --{name}")
    return out


# -- verify ----------------------------------------------------------------------------

def cmd_verify(args) -> int:
    from . import verify

    return verify.run(args.files, args.max_guesses, args.json)


# -- stats -----------------------------------------------------------------------------

def _verified(path: str, max_guesses=None):
    """Verify a file and return its report, or raise SystemExit with the verifier's status."""
    from . import verify

    report = verify.verify_file(path, max_guesses)
    if not report.valid:
        print(report.line(), file=sys.stderr)
        raise SystemExit(report.status)
    return report


def cmd_stats(args) -> int:
    from .report import bounds, distribution_table

    if args.plot:
        from .plot import plot_format

        plot_format(args.plot)  # a bad extension fails before the (slower) verification
    report = _verified(args.file)
    if args.plot:
        from .plot import plot_distribution

        plot_distribution(report, args.plot)
        print(f"wrote {args.plot}", file=sys.stderr)
    if args.json:
        _print_json({"file": args.file, "game": report.game, "strategy": report.strategy,
                     "verified": report.replayed, "bounds": bounds(report.strategy, report.game)})
    else:
        print(distribution_table(report.strategy, report.game, report.replayed))
    return EXIT_OK


# -- export ----------------------------------------------------------------------------

def cmd_export(args) -> int:
    from . import export
    from .certificate import read

    export.output_format(args.output)  # a bad extension fails before the verification
    _verified(args.file)
    info = export.export(read(args.file), args.output)
    if args.json:
        _print_json(info)
    else:
        print(f"wrote {info['file']}: {info['nodes']} guesses, {info['edges']} answers, "
              f"{info['height']} levels ({info['format']})")
    return EXIT_OK


# -- render ----------------------------------------------------------------------------

def _depth(text: str) -> int:
    return 1 << 30 if text == "all" else _positive(text)


def cmd_render(args) -> int:
    from . import render
    from .certificate import read

    render.output_format(args.output)  # bad arguments fail before the (slower) verification
    at = render.parse_at(args.at)
    _verified(args.file)
    info = render.render(read(args.file), args.output, depth=args.depth, secret=args.secret,
                         at=at, layout=args.layout)
    if args.json:
        _print_json(info)
    else:
        extra = f", {info['summary_nodes']} summaries" if info["summary_nodes"] else ""
        path = f", secret found in {info['guesses_needed']} guesses" if args.secret else ""
        print(f"wrote {args.output}: {info['guess_nodes']} guesses{extra}, "
              f"{info['depth']} of {info['height']} levels{path}")
    return EXIT_OK


# -- explain ---------------------------------------------------------------------------

def cmd_explain(args) -> int:
    from .certificate import read
    from .report import explain_secret

    _verified(args.file)
    cert = read(args.file)
    lines, steps = explain_secret(cert, args.secret)
    if args.json:
        _print_json({"file": args.file, "secret": args.secret.lower(), "steps": steps})
    else:
        print("\n".join(lines))
    return EXIT_OK


# -- play ------------------------------------------------------------------------------

def cmd_play(args) -> int:
    from . import play
    from .errors import CertifyError

    game_given = args.pegs is not None or args.colors is not None or args.no_repetition
    if args.codemaker:
        if args.file:
            raise CertifyError("give either a certificate FILE or --codemaker, not both")
        from .game import Game

        game = Game(args.pegs or 4, args.colors or 6, not args.no_repetition)
        return play.codemaker(game, sys.stdin, sys.stdout, seed=args.seed)
    if not args.file:
        raise CertifyError("give a certificate FILE to play against, or --codemaker")
    if game_given or args.seed is not None:
        raise CertifyError("--pegs, --colors, --no-repetition and --seed go with --codemaker; "
                           "a certificate sets its own game")
    _verified(args.file)
    from .certificate import read

    return play.play_tree(read(args.file), sys.stdin, sys.stdout)


# -- consistent ------------------------------------------------------------------------

def cmd_consistent(args) -> int:
    from .consistent import report

    status, lines, doc = report(_game(args), args.answers, args.list)
    if args.json:
        _print_json(doc)
    else:
        print("\n".join(lines))
    return status


# -- compare ---------------------------------------------------------------------------

def cmd_compare(args) -> int:
    from . import compare

    valid, bad = compare.check(args.files)
    if bad:  # every number must be verified: no table with a file left out
        for report in bad:
            print(report.line(), file=sys.stderr)
        return max(r.status for r in bad)
    rows = [compare.row(r) for r in valid]
    if args.json:
        _print_json(compare.to_json(rows))
    else:
        print(compare.table(rows))
    return EXIT_OK


# -- strategies ------------------------------------------------------------------------

def cmd_strategies(args) -> int:
    from .strategies import STRATEGIES

    if args.json:
        _print_json([{"id": k, "description": c.description, "reference": c.reference}
                     for k, c in STRATEGIES.items()])
        return EXIT_OK
    width = max(map(len, STRATEGIES))
    for key, cls in STRATEGIES.items():
        print(f"{key:<{width}}  {cls.description}")
        print(f"{'':<{width}}  {cls.reference}")
    return EXIT_OK


# -- plumbing --------------------------------------------------------------------------

def _print_json(obj) -> None:
    import orjson

    sys.stdout.buffer.write(orjson.dumps(obj, option=orjson.OPT_INDENT_2) + b"\n")
    sys.stdout.flush()


def make_parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = _Parser(prog="certify", description="Mastermind strategies as machine-checked certificates.")
    parser.add_argument("--version", action="version", version=f"certify {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser("build", help="expand a strategy into a certificate")
    p.add_argument("strategy", metavar="STRATEGY", help="strategy id (see 'certify strategies')")
    _add_game_args(p)
    p.add_argument("--first", metavar="CODE", help="override the first guess")
    p.add_argument("--sequence", metavar="CODES", help="greenwell: static sequence, comma-separated")
    p.add_argument("-o", "--output", metavar="FILE", help="certificate path (.json or .json.gz)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="machine-readable summary")
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("verify", help="independently verify certificates")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--max-guesses", type=_positive, metavar="K", help="also require max guesses <= K")
    p.add_argument("--json", action="store_true", help="machine-readable report")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("stats", help="distribution table of a verified certificate")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--plot", metavar="OUT", help="also draw the distribution as a bar chart (.png, .svg, .pdf)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser("export", help="write a verified tree as a graph file (.graphml .gexf .gml .json)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="graph file; format from extension")
    p.add_argument("--json", action="store_true", help="machine-readable summary")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("render", help="draw a verified certificate with Graphviz")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="picture: .svg, .png, .pdf or .dot")
    p.add_argument("--depth", type=_depth, metavar="N",
                   help="draw N levels ('all' for the whole tree; default: as many as stay legible)")
    p.add_argument("--secret", metavar="CODE", help="highlight the path this secret takes")
    p.add_argument("--at", metavar="PATH", help="draw the subtree a feedback path reaches, e.g. 1,0/0,2")
    p.add_argument("--layout", choices=("dot", "twopi"), default="dot",
                   help="dot: layered (default); twopi: radial, for whole trees")
    p.add_argument("--json", action="store_true", help="machine-readable summary")
    p.set_defaults(func=cmd_render)

    p = sub.add_parser("explain", help="the game one secret plays through a certificate")
    p.add_argument("file", metavar="FILE")
    p.add_argument("secret", metavar="SECRET")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_explain)

    p = sub.add_parser("play", help="play a certificate's guesses against your secret (or --codemaker)")
    p.add_argument("file", nargs="?", metavar="FILE", help="certificate whose guesses you answer")
    p.add_argument("--codemaker", action="store_true", help="the computer keeps a secret, you guess")
    p.add_argument("--pegs", type=_positive, help="codemaker: pegs per code (default 4)")
    p.add_argument("--colors", "--colours", type=_positive, help="codemaker: colours (default 6)")
    p.add_argument("--no-repetition", action="store_true", help="codemaker: no colour repeated")
    p.add_argument("--seed", type=int, help="codemaker: seed of the random secret")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("consistent", help="the secrets consistent with answers GUESS=B,W")
    _add_game_args(p)
    p.add_argument("answers", nargs="*", metavar="GUESS=B,W", help="a guess and its answer")
    p.add_argument("--list", action="store_true", help="list the secrets however many there are")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_consistent)

    p = sub.add_parser("compare", help="compare verified certificates side by side")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="machine-readable rows")
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser("strategies", help="list the strategies")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_strategies)
    return parser


def main(argv=None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:  # before or after a subcommand runs: still no traceback
        print("certify: interrupted", file=sys.stderr)
        return 130


def _main(argv=None) -> int:
    from .errors import CertifyError

    parser = make_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except CertifyError as e:
        print(f"certify {args.command}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"certify {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
