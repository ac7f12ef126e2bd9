"""``static build`` and ``static verify``: Static Mastermind (all questions asked at once, then one
final guess). The search is certify/static.py; the checker, certify/verify_static.py."""

from __future__ import annotations

import json
import sys

from .common import EXIT_OK, EXIT_USAGE, LIMITS, add_feedback_arg, add_game_args, add_limits, add_quiet, print_json


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
    names = _names(args, args.colors)
    if args.json:
        print_json({"game": cert["game"], "questions": cert["questions"], "static_value": q + 1,
                    "certificate": args.output, "proof": args.proof}, "static")
    elif not args.quiet:
        where = f"{shown(args.output)}" + (f" and the proof {shown(args.proof)}" if args.proof else "")
        print(f"{game.label()}: {q} question{'' if q == 1 else 's'} ({' '.join(names.names(cert['questions']))}) then "
              f"the final guess: static value "
              f"{q + 1}; wrote {where}", file=sys.stderr)
    return EXIT_OK


def _names(args, colors: int):
    """--letters checked against the game's colours (as play --letters): the codes as shown."""
    from ..letters import Names, parse_letters

    letters = getattr(args, "letters", None)
    return Names(parse_letters(letters, colors) if letters else None, colors)


def cmd_static_verify(args) -> int:
    """Each file's line; given one certificate and one proof, one verdict on the pair, compared only
    when both are valid and for the same game (pegs, colours, repetition and rule)."""
    from .. import reader, verify_static

    err = sys.stderr
    reports = [verify_static.check_file(f, lambda note: print(note, file=err, flush=True), None,
                                        LIMITS["max_codes"] or verify_static.MAX_CODES, LIMITS["max_work"],
                                        LIMITS["max_nodes"])
               for f in args.files]
    verdict = _pair_verdict(reports, verify_static)
    if args.json:
        data = reader.results("certify.verify_static", reports)
        if verdict is not None:
            data["verdict"] = {"status": verdict[0], "text": verdict[1]}
        sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=True) + "\n")
        status = max(r.status for r in reports)
    else:
        status = reader.emit(reports, False, None, sys.stdout, err)
        if verdict is not None:
            print(verdict[1], file=sys.stdout if verdict[0] == "settled" else err)
    if verdict is not None and verdict[0] == "not compared" and status == EXIT_OK:
        return EXIT_USAGE  # (2: the pair was not checked as a pair)
    return status


def _pair_verdict(reports, verify_static):
    """(status, line) for one certificate beside one proof, else None."""
    kinds = [r.kind for r in reports]
    if len(reports) != 2 or sorted(k or "" for k in kinds) != sorted([verify_static.CERTIFICATE, verify_static.PROOF]):
        return None
    cert, proof = reports if kinds[0] == verify_static.CERTIFICATE else reports[::-1]
    if not (cert.valid and proof.valid):
        return "not compared", "not compared: a file is not valid"
    if cert.game != proof.game:
        return ("not compared", f"not compared: different games (the certificate is for "
                f"{verify_static._label(cert.game)}, the proof for {verify_static._label(proof.game)})")
    label = verify_static._label(cert.game)
    upper, lower = cert.claims["guesses"], proof.claims["guesses_at_least"]
    if upper == lower:
        return "settled", f"{label}: static value {upper} guesses ({upper - 1} question{'' if upper == 2 else 's'} " \
                          f"and the final guess), settled by both files"
    return "between", f"{label}: static value between {lower} and {upper} guesses (the files do not meet)"


def cmd_static_page(args) -> int:
    from .. import files, reader, static_page, verify_static
    from ..text import shown

    files.check_output(args.output, [args.file])
    report = verify_static.Report(args.file)
    raw = reader.load(args.file, verify_static.MAX_BYTES, report)
    if raw is not None:
        report = verify_static.check_bytes(raw, args.file, None, LIMITS["max_codes"] or verify_static.MAX_CODES,
                                           LIMITS["max_work"], LIMITS["max_nodes"])
    if not report.valid:  # (the checker's own line and exit status: 1 invalid, 2 unreadable)
        print(report.line(), file=sys.stderr)
        return report.status
    letters = _names(args, report.game["colors"]).letters if report.kind == verify_static.CERTIFICATE else None
    files.write_output(args.output, static_page.page(raw, args.file, report, letters).encode(), [args.file])
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
    b.add_argument("--letters", metavar="RGBYOP",
                   help="show colours as these letters, one per colour, drawn in the colours they name (as "
                        "play --letters and html --letters); the files keep the game's digits")
    b.add_argument("--json", action="store_true", help="machine-readable summary on stdout")
    add_quiet(b)
    b.set_defaults(func=cmd_static_build)
    v = fam.add_parser("verify", help="check static certificates and lower-bound proofs (trusted checker)",
                       description="Check static certificates and lower-bound proofs with the independent checker "
                       "certify/verify_static.py (also: python -m certify.verify_static FILE...). Given a "
                       "certificate and a proof, one more line: the pair's verdict, compared only for the same "
                       "game. Exit 0 valid, 1 invalid, 2 unusable (a limit) or not compared.")
    v.add_argument("files", nargs="+", metavar="FILE", help="static certificates and static lower-bound proofs to check")
    v.add_argument("--json", action="store_true", help="machine-readable report on stdout")
    add_limits(v)
    add_quiet(v)
    v.set_defaults(func=cmd_static_verify)
    g = fam.add_parser("page", help="one HTML page of a static certificate: the questions, then the answer table",
                       description="Write a static game as one HTML page: every question asked at once (rows of "
                       "pegs), then the answer table (each secret's answers and the final guess), with a box that "
                       "finds the row of the answers typed. The certificate is checked by the trusted checker "
                       "first. Example: certify static page certificates/static/static-2x8.json -o 2x8.html")
    g.add_argument("file", metavar="FILE", help="a static certificate")
    g.add_argument("-o", "--output", required=True, metavar="FILE", help="the page written; required")
    g.add_argument("--letters", metavar="RGBYOP",
                   help="show colours as these letters, one per colour, drawn in the colours they name (as "
                        "play --letters and html --letters); the files keep the game's digits")
    add_limits(g)
    add_quiet(g)
    g.set_defaults(func=cmd_static_page)
