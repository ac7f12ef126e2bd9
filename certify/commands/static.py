"""``static build`` and ``static verify``: Static Mastermind (all questions asked at once, then one
final guess). The search is certify/static.py; the checker, certify/verify_static.py."""

from __future__ import annotations

import sys

from .common import EXIT_OK, add_feedback_arg, add_game_args, add_quiet, print_json


def cmd_static_build(args) -> int:
    from .. import files, static
    from ..text import shown

    files.check_distinct(args.output, args.proof)
    for path in (args.output, args.proof):
        if path is not None:
            files.check_output(path)
    progress = None if args.quiet else static._stderr
    cert, proof, game = static.build(args.pegs, args.colors, not args.no_repetition, args.feedback, progress)
    files.write_output(args.output, static.dumps(cert))
    if args.proof is not None:
        if proof is None:  # (no questions at all: never, every game has two codes or more)
            raise static.CertifyError("no lower-bound proof to write: zero questions")
        files.write_output(args.proof, static.dumps(proof))
    q = cert["claims"]["questions"]
    if args.json:
        print_json({"game": cert["game"], "questions": cert["questions"], "static_value": q + 1,
                    "certificate": args.output, "proof": args.proof}, "static")
    elif not args.quiet:
        where = f"{shown(args.output)}" + (f" and the proof {shown(args.proof)}" if args.proof else "")
        print(f"{game.label()}: {q} questions ({' '.join(cert['questions'])}) then the final guess: static value "
              f"{q + 1}; wrote {where}", file=sys.stderr)
    return EXIT_OK


def cmd_static_verify(args) -> int:
    from .. import verify_static

    return verify_static.run(args.files, args.json)


def cmd_static_page(args) -> int:
    from .. import files, reader, static_page, verify_static
    from ..text import shown

    files.check_output(args.output, [args.file])
    report = verify_static.Report(args.file)
    raw = reader.load(args.file, verify_static.MAX_BYTES, report)
    if raw is not None:
        report = verify_static.check_bytes(raw, args.file)
    if not report.valid:  # (the checker's own line and exit status: 1 invalid, 2 unreadable)
        print(report.line(), file=sys.stderr)
        return report.status
    files.write_output(args.output, static_page.page(raw, args.file, report).encode(), [args.file])
    if not args.quiet:
        print(f"wrote {shown(args.output)}", file=sys.stderr)
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("static", help="Static Mastermind: every question asked at once, then one final guess",
                       description="Static Mastermind: the codebreaker asks a list of questions at once, reads all "
                       "the answers, then has one final guess. The static value counts the final guess (Jaeger and "
                       "Drewes; Goddard's table counts the questions only). docs/static.md.")
    fam = p.add_subparsers(dest="static_command", required=True, metavar="COMMAND",
                           help="build: search and write; verify: check files; page: one HTML page "
                           "(certify static COMMAND --help)")
    add_quiet(p)  # (also after the sub-command: certify static build -q)
    b = fam.add_parser("build", help="find a shortest list of questions; write its certificate (and the proof "
                       "that one question fewer is not enough)",
                       description="Search for a shortest list of questions that gives every secret a different "
                       "answer vector (sets of questions up to peg and colour permutations, pruned by counting) "
                       "and write its certificate; --proof also writes the proof that one question fewer never "
                       "suffices. Example: certify static build --pegs 2 --colors 8 -o s.json --proof p.json")
    add_game_args(b)
    add_feedback_arg(b)
    b.add_argument("-o", "--output", required=True, metavar="FILE", help="the certificate written; required")
    b.add_argument("--proof", metavar="FILE", help="also write the lower-bound proof here")
    b.add_argument("--json", action="store_true", help="machine-readable summary on stdout")
    add_quiet(b)
    b.set_defaults(func=cmd_static_build)
    v = fam.add_parser("verify", help="check static certificates and lower-bound proofs (trusted checker)",
                       description="Check static certificates and lower-bound proofs with the independent checker "
                       "certify/verify_static.py (also: python -m certify.verify_static FILE...). Exit 0 valid, "
                       "1 invalid, 2 unusable.")
    v.add_argument("files", nargs="+", metavar="FILE", help="static certificates and static lower-bound proofs to check")
    v.add_argument("--json", action="store_true", help="machine-readable report on stdout")
    add_quiet(v)
    v.set_defaults(func=cmd_static_verify)
    g = fam.add_parser("page", help="one HTML page of a static certificate: the questions, then the answer table",
                       description="Write a static game as one HTML page: every question asked at once (rows of "
                       "pegs), then the answer table (each secret's answers and the final guess), with a box that "
                       "finds the row of the answers typed. The certificate is checked by the trusted checker "
                       "first. Example: certify static page certificates/static/static-2x8.json -o 2x8.html")
    g.add_argument("file", metavar="FILE", help="a static certificate")
    g.add_argument("-o", "--output", required=True, metavar="FILE", help="the page written; required")
    add_quiet(g)
    g.set_defaults(func=cmd_static_page)
