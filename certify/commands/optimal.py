"""``certify build optimal``: a strategy of least total guesses, and the proof that it is least.

A sub-command of ``build`` (it writes a strategy certificate), but not a heuristic strategy: the
exact search (certify.search) decides it. Without ``--max-guesses`` the least total over all
strategies; with it, the least total among strategies that never use more than D guesses, and,
when no strategy fits within D, the worst-case proof that says so (exit 1).
"""

from __future__ import annotations

import sys

from .common import EXIT_INVALID, EXIT_OK, freeze_startup, game_of, print_json


def default_name(game, max_guesses) -> str:
    limit = "" if max_guesses is None else f"-max{max_guesses}"
    return f"optimal-total-{game.slug}{limit}.json"


def cmd_build_optimal(args) -> int:
    from ..certificate import write
    from ..errors import CertifyError, Infeasible
    from ..files import check_distinct, check_output, write_output
    from ..search import exact
    from ..search.proof import dumps

    from .building import _scheduler

    for name in ("first", "sequence"):
        if getattr(args, name, None) is not None:
            raise CertifyError(f"build optimal does not take --{name}")
    address = _scheduler(args)
    game = game_of(args)
    game.check_size()
    out = args.output or default_name(game, args.max_guesses)
    check_output(out)
    if args.proof:
        if args.proof == "-":
            raise CertifyError("--proof needs a file (standard output may hold the strategy)")
        check_output(args.proof)
        check_distinct(out, args.proof)
    say = (lambda line: None) if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    to = sys.stderr if out == "-" else sys.stdout
    freeze_startup("certify.search.total")
    try:
        if args.workers or address:  # the Dask add-on, imported only here
            from .. import distributed

            with distributed.run_tasks(args.workers, None if args.workers else address,
                                       progress=None if args.quiet else _tasks_done(say)) as run:
                result = exact.total(game, args.max_guesses, say=say, run=run)
        else:
            result = exact.total(game, args.max_guesses, progress=not args.quiet, say=say)
    except Infeasible:
        # No strategy fits: the least worst case, proven, says by how much.
        worst = exact.worst_case(game, progress=not args.quiet, say=say)
        least = worst.proof["claims"]["worst_case"]
        if args.proof:
            write_output(args.proof, dumps(worst.proof))
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
    write(result.strategy, out)
    if args.proof:
        write_output(args.proof, dumps(result.proof))
    claims = result.strategy["claims"]
    summary = {"file": out, "game": game.to_json(), "max_guesses": args.max_guesses, "feasible": True,
               "strategy": result.strategy["strategy"], "claims": claims,
               "proof_file": args.proof, "proof_claims": result.proof["claims"],
               "proof_nodes": len(result.proof["nodes"]), "searched": result.searched,
               "seconds": round(result.seconds, 3)}
    if args.json:
        print_json(summary, "build")
        return EXIT_OK
    if out == "-" and args.quiet:  # stdout holds the certificate, and the summary is a note on stderr
        return EXIT_OK
    print(f"wrote {'standard output' if out == '-' else out}: least total {claims['total_guesses']} "
          f"(mean {claims['total_guesses'] / game.size:.4f}), at most {claims['max_guesses']} guesses "
          f"({result.searched} {'tasks' if args.workers or address else 'nodes searched'}, "
          f"{result.seconds:.1f} s)", file=to)
    if args.proof:
        print(f"wrote {args.proof}: {result.statement} ({summary['proof_nodes']} proof nodes); "
              f"check both with: certify verify {out if out != '-' else 'FILE'} --optimal {args.proof}",
              file=to)
    return EXIT_OK


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
