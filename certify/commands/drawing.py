"""Commands that draw or export a verified tree: ``render``, ``export``."""

from __future__ import annotations

import sys

from .common import EXIT_OK, add_limits, add_quiet, load_verified, positive, print_json


def _depth(text: str) -> int:
    return 1 << 30 if text == "all" else positive(text)


def cmd_render(args) -> int:
    from .. import render
    from ..files import check_output

    if args.book:
        return _book(args)
    render.output_format(args.output)  # bad arguments fail before the (slower) verification
    at = render.parse_at(args.at)
    check_output(args.output, inputs=[args.file])
    _, cert = load_verified(args.file, quiet=args.quiet)
    secret = None if args.secret is None else "".join(args.secret.split())  # "3 1 3 2" as "3132"
    info = render.render(cert, args.output, depth=args.depth, secret=secret, at=at,
                         layout=args.layout, inputs=[args.file], force=args.force,
                         letters=_letters(args, cert))
    if info["note"] and not args.quiet:
        print(f"note: {info['note']}", file=sys.stderr)
    if args.json:
        print_json(info, "render")
    else:
        extra = f", {info['summary_nodes']} summaries" if info["summary_nodes"] else ""
        path = f", secret found in {info['guesses_needed']} guesses" if args.secret else ""
        print(f"wrote {args.output}: {info['guess_nodes']} guesses{extra}, "
              f"{info['depth']} of {info['height']} levels{path}")
    return EXIT_OK


def _letters(args, cert: dict) -> str | None:
    """--letters checked against the certificate's colours, as ``play`` checks them."""
    if not args.letters:
        return None
    from ..letters import parse_letters

    return parse_letters(args.letters, cert["game"]["colors"])


def _book(args) -> int:
    from .. import render
    from ..errors import CertifyError
    from ..files import check_output, format_from_extension

    format_from_extension(args.output, {".pdf": "pdf"}, "book")
    if args.depth or args.secret or args.layout is not None or args.force:
        raise CertifyError("--book prints the whole tree: --depth, --secret, --layout and --force do not apply")
    at = render.parse_at(args.at)
    check_output(args.output, inputs=[args.file])
    report, cert = load_verified(args.file, quiet=args.quiet)
    from .. import book

    letters = _letters(args, cert)
    info = book.book(cert, report, args.output, at=at, inputs=[args.file], progress=not args.quiet,
                     letters=letters)
    if args.json:
        print_json(info, "book")
    else:
        from ..letters import Names

        start = Names(letters, cert["game"]["colors"]).name(info["start"])
        print(f"wrote {args.output}: {info['pages']} A4 pages, {info['subtrees']} subtrees after {start}")
    return EXIT_OK


def cmd_export(args) -> int:
    from .. import export
    from ..files import check_output

    export.output_format(args.output)  # a bad extension fails before the verification
    check_output(args.output, inputs=[args.file])
    _, cert = load_verified(args.file, quiet=args.quiet)
    info = export.export(cert, args.output, inputs=[args.file])
    if args.json:
        print_json(info, "export")
    else:
        print(f"wrote {info['file']}: {info['nodes']} guesses, {info['edges']} answers, "
              f"{info['height']} levels ({info['format']})")
    return EXIT_OK


def cmd_html(args) -> int:
    from .. import htmltree
    from ..errors import CertifyError
    from ..files import check_output

    if args.output == "-" and args.json:
        raise CertifyError("--json and -o - both want standard output: choose one")
    check_output(args.output, inputs=[args.file])
    report, cert = load_verified(args.file, quiet=args.quiet)
    info = htmltree.write_html(report, cert, args.output, inputs=[args.file], letters=_letters(args, cert))
    if args.json:
        print_json(info, "html")
    elif not (args.output == "-" and args.quiet):  # as build: with -o -, the summary is a note on stderr
        print(f"wrote {'standard output' if args.output == '-' else args.output}: {info['nodes']} guesses, "
              f"{info['bytes']} bytes, one self-contained page", file=sys.stderr if args.output == "-" else sys.stdout)
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("render", help="draw a verified certificate with Graphviz")
    p.add_argument("file", metavar="FILE", help="the certificate to draw (.json or .json.gz)")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="the picture written, in the format its extension names: .svg, .png, .pdf or .dot "
                        "(--book: .pdf); required")
    p.add_argument("--depth", type=_depth, metavar="N",
                   help="draw N levels ('all' for the whole tree; default: as many as stay legible)")
    p.add_argument("--secret", metavar="CODE", help="highlight the path this secret takes")
    p.add_argument("--at", metavar="PATH", help="draw the subtree a feedback path reaches, e.g. 1,0/0,2 (1/2 in a black-peg game)")
    p.add_argument("--layout", choices=("dot", "twopi"),
                   help="dot: layered (default); twopi: radial, for whole trees. Without --layout, a "
                        "dot picture that would be a strip (longer than 4000 px and 10 times its "
                        "width) is drawn radially instead, with a note; --layout dot refuses it "
                        "unless --force")
    p.add_argument("--force", action="store_true", help="draw with --layout dot even an unreadable strip")
    p.add_argument("--letters", metavar="RGBYOP",
                   help="show colours as these letters, one per colour, drawn in the colours they name "
                        "(as play --letters; --secret is then typed in them; --book shows them too)")
    p.add_argument("--book", action="store_true",
                   help="the whole tree on A4 pages (.pdf): the start guess first, then each subtree")
    p.add_argument("--json", action="store_true", help="machine-readable summary")
    add_limits(p)
    add_quiet(p)
    p.set_defaults(func=cmd_render)

    p = sub.add_parser("export", help="write a verified tree as a graph file (.graphml .gexf .gml .json)")
    p.add_argument("file", metavar="FILE", help="the certificate to export (.json or .json.gz)")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="the graph file written, in the format its extension names: .graphml, .gexf, .gml "
                        "or .json; required")
    p.add_argument("--json", action="store_true", help="machine-readable summary")
    add_limits(p)
    add_quiet(p)
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("html", help="write a verified tree as one interactive, self-contained HTML page")
    p.add_argument("file", metavar="FILE", help="the certificate shown (.json or .json.gz)")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="the page written (.html; - for standard output); required")
    p.add_argument("--letters", metavar="RGBYOP",
                   help="pegs show these letters, one per colour, in the colours they name (as play --letters)")
    p.add_argument("--json", action="store_true", help="machine-readable summary")
    add_limits(p)
    add_quiet(p)
    p.set_defaults(func=cmd_html)
