"""``split-proof``: cut a lower-bound proof into independently checkable parts (untrusted; the
checker and its combining step decide: ``certify verify MAIN --parts DIR --jobs N``)."""

from __future__ import annotations

from .common import EXIT_OK, EXIT_USAGE, add_limits, add_quiet, positive, print_json


def cmd_split_proof(args) -> int:
    import sys

    from ..proofparts import OverLimit, write_split
    from ..text import shown
    from ..verify_bound import MAX_CODES, MAX_NODES

    try:
        summary = write_split(args.proof, args.output, depth=args.depth, parts=args.parts,
                              max_codes=args.max_codes, max_nodes=args.max_nodes)
    except OverLimit as e:  # the check it is for would not run: unusable, exit 2, nothing written
        if args.json:
            print_json({"proof": args.proof, "status": "unusable", "error": str(e), "limit": e.limit}, "split")
        else:
            print(f"{shown(args.proof)}: unusable: {str(e).split(': ', 1)[1]}", file=sys.stderr)
        return EXIT_USAGE
    # The check command with the limits it needs: the user's, else past a default the one the
    # proof needs (never a command that the checker then refuses as unusable).
    codes = args.max_codes or (summary["codes"] if summary["codes"] > MAX_CODES else None)
    nodes = args.max_nodes or (summary["nodes"] if summary["nodes"] > MAX_NODES else None)
    limits = "".join(f" {option} {value}" for option, value in (("--max-codes", codes), ("--max-work", args.max_work),
                                                                  ("--max-nodes", nodes)) if value)
    check = f"certify verify {shown(summary['main'])} --parts {shown(args.output)} --jobs 2{limits}"
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
    add_limits(p)  # the limits of the check the split is for: carried into the check command it prints
    add_quiet(p)
    p.set_defaults(func=cmd_split_proof)
