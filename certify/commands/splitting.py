"""``split-proof``: cut a lower-bound proof into independently checkable parts (untrusted; the
checker and its combining step decide: ``certify verify MAIN --parts DIR --jobs N``)."""

from __future__ import annotations

from .common import EXIT_OK, add_quiet, positive, print_json


def cmd_split_proof(args) -> int:
    import sys

    from ..proofparts import write_split
    from ..text import shown

    from ..verify_bound import MAX_CODES

    summary = write_split(args.proof, args.output, depth=args.depth, parts=args.parts)
    # The check command with the limit the game needs: past the default, --max-codes (never a
    # command that the checker then refuses as unusable).
    raise_codes = f" --max-codes {summary['codes']}" if summary["codes"] > MAX_CODES else ""
    check = f"certify verify {shown(summary['main'])} --parts {shown(args.output)} --jobs 2{raise_codes}"
    if args.json:
        print_json({"proof": args.proof, **summary, "check": check}, "split")
    elif not args.quiet:
        print(f"wrote {shown(summary['main'])} and {len(summary['parts'])} part files in {shown(args.output)} "
              f"(check: {check})", file=sys.stderr)
    return EXIT_OK


def register(sub) -> None:
    p = sub.add_parser("split-proof", help="cut a lower-bound proof into parts that can be checked in parallel",
                       description="Cut a lower-bound proof into a main file (the top of the proof) and part "
                       "files (the nodes below, as lemmas named by their sha256), to be checked in parallel "
                       "processes: certify verify MAIN --parts DIR --jobs N. The split is not trusted: "
                       "the checker checks every file and decides.")
    p.add_argument("proof", metavar="PROOF", help="a lower-bound certificate (.json or .json.gz)")
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument("--depth", type=positive, metavar="K",
                     help="the nodes first reached after K guesses become parts")
    how.add_argument("--parts", type=positive, metavar="N",
                     help="about N parts: the biggest subtrees are cut further until there are N")
    p.add_argument("-o", "--output", required=True, metavar="DIR",
                   help="the folder written, new or empty: main.json[.gz] and part-NNNN.json[.gz]; required")
    p.add_argument("--json", action="store_true", help="machine-readable summary")
    add_quiet(p)
    p.set_defaults(func=cmd_split_proof)
