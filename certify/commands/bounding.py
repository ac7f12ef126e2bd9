"""Commands that prove lower bounds and explain them: ``bound``, ``why``."""

from __future__ import annotations

import os
import sys

from .common import (EXIT_INVALID, EXIT_OK, LIMITS, add_feedback_arg, add_game_args, add_limits, add_proof_parts,
                     add_quiet, check_proof_output, freeze_startup, game_of, positive, print_json, refused, whole,
                     write_proof)


def cmd_bound(args) -> int:
    from ..errors import CertifyError
    from ..files import check_distinct, check_output
    from ..search import exact
    from ..text import shown

    game = game_of(args)
    game.check_size()
    if args.worst and args.max_guesses is not None:
        raise CertifyError("--max-guesses goes with --total (--worst finds the least worst case itself)")
    at_least = getattr(args, "at_least", None)
    if at_least is not None and args.strategy_out:
        raise CertifyError("--at-least proves a bound only: no --strategy-out")
    checkpoint = getattr(args, "checkpoint", None)
    if checkpoint is not None and not args.worst:
        raise CertifyError("--checkpoint goes with --worst (build optimal --checkpoint DIR keeps a total search)")
    if checkpoint is not None:
        check_distinct(args.output, checkpoint)
        if args.strategy_out:
            check_distinct(args.strategy_out, checkpoint)
    if args.output == "-" and args.json:
        raise CertifyError("--json and -o - both want standard output: choose one")
    parts = getattr(args, "proof_parts", None)
    check_proof_output(args.output, parts, "-o")
    if args.strategy_out:
        check_output(args.strategy_out, inputs=[args.output])
        check_distinct(args.output, args.strategy_out)
    say = (lambda line: None) if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    freeze_startup("certify.search.total", "certify.search.worst")
    kept = {} if checkpoint is None else {"checkpoint": _memo_file(checkpoint, args.checkpoint_every, say)}
    from .optimal import scheduler

    address = scheduler(args)
    if (args.workers or address) and not args.worst:
        raise CertifyError("--workers and --scheduler go with --worst (build optimal --workers searches totals)")
    with _cluster(args.workers, None if args.workers else address, args.quiet, say) as run:
        if run is not None:
            kept["run"] = run
        if at_least is not None and args.total:
            result = exact.total_at_least(game, at_least, args.max_guesses, progress=not args.quiet, say=say,
                                          parts=parts)
        elif at_least is not None:
            result = exact.at_least(game, at_least, progress=not args.quiet, say=say, parts=parts, **kept)
        elif args.worst:
            result = exact.worst_case(game, progress=not args.quiet, say=say, strategy=bool(args.strategy_out),
                                      parts=parts, **kept)
        else:
            result = exact.total(game, args.max_guesses, progress=not args.quiet, say=say, parts=parts)
    # the bytes the checker accepted (exact._check_proof): a file, or a split proof's folder
    checked_file, with_parts = write_proof(args.output, result)
    if args.strategy_out:
        from ..certificate import write

        write(result.strategy, args.strategy_out)
    shown_out = "FILE" if args.output == "-" else checked_file
    size = os.path.getsize(checked_file) if args.output != "-" and os.path.isfile(checked_file) else None
    check = " ".join(w for w in ["certify verify", shown(shown_out), with_parts, result.check_options(size)] if w)
    summary = {"file": args.output if parts is None else checked_file, "game": game.to_json(), "claims": result.proof["claims"],
               "nodes": len(result.proof["nodes"]), "searched": result.searched,
               "seconds": round(result.seconds, 3), "checked": True, "check_command": check}
    if args.strategy_out:
        summary["strategy_file"] = args.strategy_out
    if parts is not None:
        summary["parts"] = len(result.parts)
    if args.json:
        print_json(summary, "bound")
    elif not (args.output == "-" and args.quiet):  # as build: with -o -, stdout holds the proof and
        to = sys.stderr if args.output == "-" else sys.stdout  # the summary is a note on stderr
        where = ("standard output" if args.output == "-" else args.output if parts is None
                 else f"{checked_file} and {len(result.parts)} part{'' if len(result.parts) == 1 else 's'} beside it")
        print(f"wrote {where}: {result.statement} "
              f"({summary['nodes']} proof nodes, {result.searched} searched, {result.seconds:.1f} s)", file=to)
        if args.strategy_out:
            print(f"wrote {args.strategy_out}: a strategy that meets it", file=to)
        print(f"checked by the lower-bound checker before it was written; again with: {check}", file=to)
    return EXIT_OK


def cmd_why(args) -> int:
    """Check a worst-case proof (read once) and explain it from the bytes the checker accepted."""
    from .. import verify
    from ..errors import CertifyError
    from ..text import shown
    from ..why import explain_bytes, html_page, text_lines

    if args.depth < 0:
        raise CertifyError(f"--depth must be >= 0, got {args.depth}")
    if args.html:
        from ..files import check_output

        check_output(args.html, inputs=[args.proof])
    note = None if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    try:
        raw = verify.read_input(args.proof, note)
    except verify.Unreadable as e:
        raise CertifyError(f"cannot read {shown(args.proof)}: {e}") from None
    except verify.Invalid as e:  # larger than the checker reads
        print(f"{shown(args.proof)}: invalid: {e}", file=sys.stderr)
        return EXIT_INVALID
    progress = None
    if sys.stderr.isatty() and not args.quiet:
        from ..verify_bound import progress_printer

        progress = progress_printer(sys.stderr)
    report, why = explain_bytes(raw, args.proof, args.depth, args.branches, progress, **LIMITS)
    if why is None:  # the checker refused it (or a limit stopped it): its one line, its status
        return refused(report, args.json, "why")
    letters = None
    if args.letters:
        from ..letters import parse_letters

        letters = parse_letters(args.letters, why.doc["game"]["colors"])
    named = why.with_letters(letters)  # the text and the page in letters; --json keeps the codes
    if args.html:
        from ..files import write_output

        write_output(args.html, html_page(named).encode("utf-8"), inputs=[args.proof])
        if note:
            note(f"wrote {args.html}")
    if args.json:
        print_json({**why.doc, **({"letters": letters} if letters else {})}, "why")
    else:
        print("\n".join(text_lines(named)))
    return EXIT_OK


def _cluster(workers, address, quiet: bool, say):
    """The Dask cluster's run(func, args) for the worst-case search's first guesses (the add-on,
    imported only when asked for), or a context giving None."""
    import contextlib

    if not (workers or address):
        return contextlib.nullcontext(None)
    from .. import distributed
    from .optimal import _tasks_done

    return distributed.run_tasks(workers, address, progress=None if quiet else _tasks_done(say))


def _memo_file(path: str, every: float, say):
    """The worst-case search's checkpoint: (file, seconds between saves)."""
    say(f"checkpoint {path}: the search's finished sets are saved there every {every:g} s and when it "
        "stops; run the same command again to resume")
    return path, every


def register(sub) -> None:
    p = sub.add_parser("bound", help="prove a lower bound (every strategy needs ...) by counting and search")
    add_game_args(p)
    add_feedback_arg(p)
    kind = p.add_mutually_exclusive_group(required=True)
    kind.add_argument("--worst", action="store_true", help="least worst case: every strategy needs >= D")
    kind.add_argument("--total", action="store_true", help="least total of guesses over all secrets")
    p.add_argument("--max-guesses", type=positive, metavar="D",
                   help="--total among strategies that never use more than D guesses")
    p.add_argument("--at-least", type=positive, metavar="K",
                   help="--worst: prove only that every strategy needs >= K, without looking for the least "
                        "worst case; --total: only that every strategy needs >= K guesses in total (with "
                        "--max-guesses D, among those within D), without looking for the least total (for "
                        "games whose whole search is too long: a narrower interval)")
    p.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="the proof written (.json, or .json.gz gzipped; - for standard output); required")
    p.add_argument("--strategy-out", metavar="FILE",
                   help="also write a strategy that meets the bound (--worst: never more than D guesses; "
                        "--total: the least total)")
    p.add_argument("--checkpoint", metavar="FILE",
                   help="--worst: save the search's finished work in FILE (every --checkpoint-every "
                        "seconds and when stopped) and resume from it: same proof bytes as a run never stopped; "
                        "with --workers/--scheduler the workers share their sets in the folder FILE.shared")
    p.add_argument("--checkpoint-every", type=float, default=300.0, metavar="SECONDS",
                   help="seconds between two saves of --checkpoint (default 300)")
    p.add_argument("--workers", type=positive, metavar="N",
                   help="--worst: search the first guesses on a local Dask cluster of N processes "
                        "(the same bytes as one process)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="--worst: search on a running Dask cluster (default: $DASK_SCHEDULER_ADDRESS)")
    add_proof_parts(p, "-o")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    p.add_argument("--json", action="store_true", help="machine-readable summary")
    p.set_defaults(func=cmd_bound)

    p = sub.add_parser("why", help="why a worst-case lower-bound proof holds, in plain words (checked first)",
                       description="Check a worst-case lower-bound proof (certify bound --worst) with the "
                       "independent checker, then explain it from the proof as checked: what counting "
                       "alone shows at each step, and for the other guesses the answer the proof names "
                       "and why the secrets it leaves need more guesses, path by path.")
    p.add_argument("proof", metavar="PROOF", help="a worst-case lower-bound certificate (.json or .json.gz)")
    p.add_argument("--depth", type=whole, default=1, metavar="N",
                   help="explain N levels of answers below the first guess (default 1; 0: the first guess only)")
    p.add_argument("--branches", type=positive, default=5, metavar="K",
                   help="list at most K guesses the proof refutes by their answers at each step (default 5); "
                   "a line sums up the others")
    p.add_argument("--html", metavar="OUT.html", help="also write the explanation as a small self-contained page")
    p.add_argument("--letters", metavar="RGBYOP",
                   help="show colours as these letters, one per colour (as play --letters; --json keeps the "
                        "game's digits)")
    p.add_argument("--json", action="store_true", help="the explanation as JSON (why_version 1)")
    add_limits(p)
    add_quiet(p)
    p.set_defaults(func=cmd_why)
