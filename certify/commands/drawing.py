"""Commands that draw or export a verified tree: ``render``, ``export``."""

from __future__ import annotations

from .common import EXIT_OK, load_verified, positive, print_json


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
    _, cert = load_verified(args.file)
    info = render.render(cert, args.output, depth=args.depth, secret=args.secret,
                         at=at, layout=args.layout, inputs=[args.file])
    if args.json:
        print_json(info, "render")
    else:
        extra = f", {info['summary_nodes']} summaries" if info["summary_nodes"] else ""
        path = f", secret found in {info['guesses_needed']} guesses" if args.secret else ""
        print(f"wrote {args.output}: {info['guess_nodes']} guesses{extra}, "
              f"{info['depth']} of {info['height']} levels{path}")
    return EXIT_OK


def _book(args) -> int:
    from .. import render
    from ..errors import CertifyError
    from ..files import check_output, format_from_extension

    format_from_extension(args.output, {".pdf": "pdf"}, "book")
    if args.depth or args.secret or args.layout != "dot":
        raise CertifyError("--book prints the whole tree: --depth, --secret and --layout do not apply")
    at = render.parse_at(args.at)
    check_output(args.output, inputs=[args.file])
    report, cert = load_verified(args.file)
    from .. import book

    info = book.book(cert, report, args.output, at=at, inputs=[args.file])
    if args.json:
        print_json(info, "book")
    else:
        print(f"wrote {args.output}: {info['pages']} A4 pages, {info['subtrees']} subtrees after {info['start']}")
    return EXIT_OK


def cmd_export(args) -> int:
    from .. import export
    from ..files import check_output

    export.output_format(args.output)  # a bad extension fails before the verification
    check_output(args.output, inputs=[args.file])
    _, cert = load_verified(args.file)
    info = export.export(cert, args.output, inputs=[args.file])
    if args.json:
        print_json(info, "export")
    else:
        print(f"wrote {info['file']}: {info['nodes']} guesses, {info['edges']} answers, "
              f"{info['height']} levels ({info['format']})")
    return EXIT_OK


def cmd_html(args) -> int:
    from .. import htmltree
    from ..files import check_output

    check_output(args.output, inputs=[args.file])
    report, cert = load_verified(args.file)
    info = htmltree.write_html(report, cert, args.output, inputs=[args.file])
    if args.json:
        print_json(info, "html")
    else:
        print(f"wrote {args.output}: {info['nodes']} guesses, {info['bytes']} bytes, one self-contained page")
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("render", help="draw a verified certificate with Graphviz")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="picture: .svg, .png, .pdf or .dot")
    p.add_argument("--depth", type=_depth, metavar="N",
                   help="draw N levels ('all' for the whole tree; default: as many as stay legible)")
    p.add_argument("--secret", metavar="CODE", help="highlight the path this secret takes")
    p.add_argument("--at", metavar="PATH", help="draw the subtree a feedback path reaches, e.g. 1,0/0,2")
    p.add_argument("--layout", choices=("dot", "twopi"), default="dot",
                   help="dot: layered (default); twopi: radial, for whole trees")
    p.add_argument("--book", action="store_true",
                   help="the whole tree on A4 pages (.pdf): the start guess first, then each subtree")
    p.add_argument("--json", action="store_true", help="machine-readable summary")
    p.set_defaults(func=cmd_render)

    p = sub.add_parser("export", help="write a verified tree as a graph file (.graphml .gexf .gml .json)")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="graph file; format from extension")
    p.add_argument("--json", action="store_true", help="machine-readable summary")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("html", help="write a verified tree as one interactive, self-contained HTML page")
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="the page (.html)")
    p.add_argument("--json", action="store_true", help="machine-readable summary")
    p.set_defaults(func=cmd_html)
