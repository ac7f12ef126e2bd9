"""``certify build optimal``: a strategy of least total guesses, and the proof that it is least.

A sub-command of ``build`` (it writes a strategy certificate), but not a heuristic strategy: the
exact search (certify.search) decides it. Without ``--max-guesses`` the least total over all
strategies; with it, the least total among strategies that never use more than D guesses, and,
when no strategy fits within D, the worst-case proof that says so (exit 1).

``--objective`` (OBJECTIVES) compares strategies lexicographically: ``worst,total`` the least
worst case D first (proven by a worst-case proof, ``--worst-proof``), then the least total within
D (``--proof``); ``total,max-count`` (with ``--max-guesses D``) the least total within D, then the
fewest secrets that need all D guesses, one ``at_max`` proof (docs/lower-bound-format.md);
``max-count,total`` the same two keys in the other order (the proof's claim adds "first": "at_max").
Every objective but ``worst,total``'s worst-case half runs in one process, or as the split search
(``--checkpoint DIR``, ``--workers N``, ``--scheduler``: certify.search.split).
"""

from __future__ import annotations

import sys

from .common import EXIT_INVALID, EXIT_OK, check_proof_output, freeze_startup, game_of, print_json, write_proof


#: The objectives, compared in lexicographic order, first key first.
OBJECTIVES = {
    "total": "least total guesses (within --max-guesses D if given)",
    "worst,total": "least worst case D, then least total among strategies within D",
    "total,max-count": "least total within --max-guesses D, then fewest secrets needing D guesses",
    "max-count,total": "fewest secrets needing --max-guesses D guesses, then least total within D",
}
#: The objectives that count the secrets at the maximum (one at_max proof).
COUNTING = ("total,max-count", "max-count,total")


def default_name(game, max_guesses, objective: str = "total") -> str:
    if objective == "worst,total":
        return f"optimal-worst-total-{game.slug}.json"
    limit = "" if max_guesses is None else f"-max{max_guesses}"
    count = {"total,max-count": "-count", "max-count,total": "-count-first"}.get(objective, "")
    return f"optimal-total-{game.slug}{limit}{count}.json"


def scheduler(args):
    """--scheduler, else $DASK_SCHEDULER_ADDRESS (read without importing Dask); here, below
    ``build``, which imports this module (and not the other way round)."""
    import os

    from ..errors import CertifyError

    if args.workers and args.scheduler:
        raise CertifyError("give --workers N (a local cluster) or --scheduler ADDRESS, not both")
    return args.scheduler or os.environ.get("DASK_SCHEDULER_ADDRESS") or None


def cmd_build_optimal(args) -> int:
    from ..certificate import write
    from ..errors import CertifyError, Infeasible
    from ..files import check_distinct, check_output, write_output
    from ..search import exact
    from ..text import shown

    for name in ("first", "sequence"):
        if getattr(args, name, None) is not None:
            raise CertifyError(f"build optimal does not take --{name}")
    objective = getattr(args, "objective", None) or "total"
    worst_file = getattr(args, "worst_proof", None)
    if objective not in OBJECTIVES:
        raise CertifyError(f"--objective: unknown objective {shown(objective)} (one of: {', '.join(OBJECTIVES)})")
    if objective == "worst,total" and args.max_guesses is not None:
        raise CertifyError("--objective worst,total finds the least worst case itself: drop --max-guesses")
    if objective in COUNTING and args.max_guesses is None:
        raise CertifyError(f"--objective {objective} counts the secrets needing the maximum: "
                           "give --max-guesses D")
    if worst_file is not None and objective != "worst,total":
        raise CertifyError("--worst-proof goes with --objective worst,total")
    parts = getattr(args, "proof_parts", None)
    if parts is not None and (not args.proof or objective == "worst,total"):
        raise CertifyError("--proof-parts goes with --proof DIR (the folder of the split proof), "
                           "and not with --objective worst,total")
    address = scheduler(args)
    game = game_of(args)
    game.check_size()
    out = args.output or default_name(game, args.max_guesses, objective)
    check_output(out)
    for option, path in (("--proof", args.proof), ("--worst-proof", worst_file)):
        if path:
            if path == "-":
                raise CertifyError(f"{option} needs a file (standard output may hold the strategy)")
            check_proof_output(path, parts if option == "--proof" else None, option)
            check_distinct(out, path)
    if args.proof and worst_file:
        check_distinct(args.proof, worst_file)
    say = (lambda line: None) if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    to = sys.stderr if out == "-" else sys.stdout
    freeze_startup("certify.search.total")
    limit, worst = args.max_guesses, None
    if objective == "worst,total":  # the least worst case first: the total is searched within it
        worst = exact.worst_case(game, progress=not args.quiet, say=say)
        limit = worst.proof["claims"]["worst_case"]
    checkpoint = getattr(args, "checkpoint", None)
    counting = {"at_max": objective in COUNTING, "first": "at_max" if objective == "max-count,total" else "total"}
    kept = objective if objective in COUNTING else "total"  # (worst,total: the total's tasks, within D)
    try:
        if args.workers or address:  # the Dask add-on, imported only here
            from .. import distributed

            with distributed.run_tasks(args.workers, None if args.workers else address,
                                       progress=None if args.quiet else _tasks_done(say)) as run:
                if checkpoint:
                    run = _checkpointed(checkpoint, game, limit, run, say, kept)
                result = exact.total(game, limit, say=say, run=run, checkpoint=checkpoint, parts=parts, **counting)
        elif checkpoint:  # the split search, its tasks kept as they finish
            result = exact.total(game, limit, say=say, run=_checkpointed(checkpoint, game, limit, None, say, kept),
                                 checkpoint=checkpoint, parts=parts, **counting)
        else:
            result = exact.total(game, limit, progress=not args.quiet, say=say, parts=parts, **counting)
    except Infeasible:
        # No strategy fits: the least worst case, proven, says by how much.
        worst = exact.worst_case(game, progress=not args.quiet, say=say, parts=parts)
        least = worst.proof["claims"]["worst_case"]
        if limit is None or least <= limit:  # only the checkpoint's tasks said no strategy fits
            from ..search.exact import _refused

            raise _refused("the proof of the least worst case", f"every strategy for {game} needs >= {least}, "
                           f"yet its tasks say none fits within {limit}", checkpoint)
        if args.proof:
            write_proof(args.proof, worst)
        summary = {"file": None, "game": game.to_json(), "max_guesses": args.max_guesses,
                   "feasible": False, "least_worst_case": least, "proof_file": args.proof}
        if args.json:
            print_json(summary, "build")
        else:
            print(f"no strategy for {game} settles every secret within {args.max_guesses} guesses: "
                  f"every strategy needs {least} for some secret"
                  + (f" (proof: {args.proof})" if args.proof else " (--proof FILE writes the proof)"),
                  file=to)
        return EXIT_INVALID
    write(result.strategy, out)  # (exact.total checked it, and the proof, before it returned)
    proof_file, with_parts = (args.proof, "")
    if args.proof:
        proof_file, with_parts = write_proof(args.proof, result)
    if worst_file:
        write_output(worst_file, worst.data)
    claims = result.strategy["claims"]
    seconds = result.seconds + (worst.seconds if worst else 0)
    summary = {"file": out, "game": game.to_json(), "objective": objective, "max_guesses": limit,
               "feasible": True, "strategy": result.strategy["strategy"], "claims": claims,
               "proof_file": proof_file, "proof_claims": result.proof["claims"],
               "proof_nodes": len(result.proof["nodes"]), "searched": result.searched,
               "seconds": round(seconds, 3)}
    if worst:
        summary.update(least_worst_case=limit, worst_proof_file=worst_file,
                       worst_proof_nodes=len(worst.proof["nodes"]))
    # Both files went through their checkers before they were written (exact.total, worst_case).
    options = _options(result, proof_file, worst, worst_file) + (f" {with_parts}" if with_parts else "")
    if result.parts is not None:
        summary["proof_parts"] = len(result.parts)
    pair = [f"--optimal {path}" for path in (worst_file, proof_file) if path]
    summary["checked"] = True
    summary["check_command"] = " ".join(["certify verify", out if out != "-" else "FILE", *pair]) + options
    if args.json:
        print_json(summary, "build")
        return EXIT_OK
    if out == "-" and args.quiet:  # stdout holds the certificate, and the summary is a note on stderr
        return EXIT_OK
    total = claims["total_guesses"]
    first = f"least worst case {limit}, then " if worst else ""
    then = ""
    if objective == "total,max-count":
        count = result.proof["claims"]["at_max"]
        then = f", then {count} secret{'' if count == 1 else 's'} needing {limit} (the fewest)"
    if objective == "max-count,total":
        count = result.proof["claims"]["at_max"]
        first = f"fewest secrets needing {limit}: {count}, then "
    print(f"wrote {'standard output' if out == '-' else out}: {first}least total {total} "
          f"(mean {total / game.size:.4f}){then}, at most {claims['max_guesses']} guesses "
          f"({result.searched} {'tasks' if args.workers or address or checkpoint else 'nodes searched'}, "
          f"{seconds:.1f} s)", file=to)
    shown_out = out if out != "-" else "FILE"
    if worst_file:
        nodes = summary["worst_proof_nodes"]
        print(f"wrote {worst_file}: {worst.statement} ({nodes} proof node{'' if nodes == 1 else 's'})", file=to)
    if args.proof and not worst:
        where = proof_file if result.parts is None else (
            f"{proof_file} and {len(result.parts)} part{'' if len(result.parts) == 1 else 's'} beside it")
        print(f"wrote {where}: {result.statement} ({summary['proof_nodes']} proof nodes); "
              f"checked before it was written; check both with: certify verify {shown_out} --optimal "
              f"{proof_file}{options}", file=to)
    elif args.proof:
        print(f"wrote {args.proof}: {result.statement} ({summary['proof_nodes']} proof nodes)", file=to)
    if worst and args.proof and worst_file:  # the pair proves the pair (docs/lower-bound-format.md)
        print(f"check all three with: certify verify {shown_out} --optimal {worst_file} --optimal {args.proof}"
              f"{options}", file=to)
    elif worst:
        print("(--worst-proof FILE and --proof FILE write the pair of proofs)", file=to)
    return EXIT_OK


def _options(result, proof_file, worst, worst_file) -> str:
    """The check options (beyond certify verify's defaults) the written proofs need: the larger
    of each limit over them (exact.Result.check_options, for the size of each file written)."""
    import os

    found: dict = {}
    for res, path in ((result, proof_file), (worst, worst_file)):
        if res is None or not path:
            continue
        size = os.path.getsize(path) if os.path.isfile(path) else None
        words = res.check_options(size).split()
        for option, value in zip(words[::2], words[1::2]):
            found[option] = max(found.get(option, 0), int(value))
    return "".join(f" {option} {value}" for option, value in found.items())


def _checkpointed(folder, game, limit, inner, say, objective="total"):
    """The split search's run(func, args), every finished task kept in ``folder`` (resumable), the
    folder bound to the game, the limit and the objective (another's is refused)."""
    from ..search.checkpoint import Checkpoint, describe

    run = Checkpoint(folder, describe(game, limit, objective), inner=inner, say=say)
    say(f"checkpoint {folder}: finished tasks are kept there; run the same command again to resume")
    return run


def _tasks_done(say):
    """A progress callback for the cluster's tasks: a line at most every 2 s."""
    import time

    state = {"done": 0, "last": time.monotonic()}

    def progress(n: int) -> None:
        state["done"] += n
        if time.monotonic() - state["last"] > 2:
            state["last"] = time.monotonic()
            say(f"  {state['done']} tasks done")
    return progress
