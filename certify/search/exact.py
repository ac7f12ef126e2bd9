"""Entry points of the exact search: the least worst case and the least total, with proofs."""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from dataclasses import dataclass


@dataclass
class Result:
    proof: dict  # the lower-bound certificate
    statement: str  # what it proves, in words
    searched: int  # nodes searched
    seconds: float
    strategy: dict | None = None  # a strategy certificate that meets the bound (totals)
    data: bytes | None = None  # the proof's bytes as the lower-bound checker accepted them
    checked: object = None  # the checker's report on them (verify_bound.Report)
    work: int = 0  # the checker's work on them (its --max-work unit)
    parts: list | None = None  # a split proof: ``data`` is its main file, these its parts (gzip bytes)

    def check_options(self, size: int | None = None) -> str:
        """The options ``certify verify`` needs, beyond its defaults, to check the proof again as a
        file of ``size`` bytes (gzipped: fewer bytes, a smaller default work budget)."""
        from ..optimality import check_options

        parts = zip(getattr(self.checked, "part_reports", None) or (), map(len, self.parts or ()))
        return check_options(self.checked, len(self.data) if size is None else size, list(parts))


# -- every proof a search writes goes to the trusted checkers before it is shown (issue 46) ------

def _refused(what: str, error: str, state) -> Exception:
    from ..errors import CertifyError, Inconsistent
    from ..text import shown

    if state is not None:
        return Inconsistent(f"the checkpoint {shown(state)} is inconsistent with {what} ({shown(error, 300)}): "
                            "nothing found from it is shown; rerun without it")
    return CertifyError(f"{what} is refused by its checker ({shown(error, 300)}): a bug of the search, "
                        "nothing is shown as found; please report it")


def _unchecked(report, what: str, too_big: bool = False) -> None:
    """Over a limit of its checker (memory, a ceiling): no verdict, so nothing is shown as found.
    A whole proof past the checker's size or node limit (``too_big``, from the proof itself) is
    told how to be written in parts."""
    if report.status == 2:
        from ..errors import CertifyError
        from ..text import shown

        hint = ("; a proof this big is checked in parts: run again with --proof-parts N (the API's "
                "proof_parts=N; with --checkpoint the finished tasks are kept)") if too_big else ""
        raise CertifyError(f"the {what} the search wrote could not be checked ({shown(report.error, 300)}): "
                           f"nothing is shown as found{hint}")


def _check_proof(result: Result, game, say, state=None, kind: str = "worst-case", parts: int | None = None) -> Result:
    """``result`` with the proof's bytes, accepted by the lower-bound checker (its public entry),
    or an error: a checkpoint (``state``) behind a refused proof is named as inconsistent. With
    ``parts`` N, the proof is cut into about N part files and a main file (certify.proofparts,
    gzipped), each checked and the whole accepted by the checker's combining step: a proof past
    the checker's size or node limit as one file."""
    from ..optimality import check_written, check_written_parts, too_big_whole
    from .proof import dumps

    data = dumps(result.proof)
    too_big = too_big_whole(len(data), len(result.proof["nodes"]))  # then parts pass where the whole does not
    name = f"<{kind} {game.slug}>"
    if parts:
        import orjson

        from ..proofparts import split

        size = len(data)
        main, pieces = split(orjson.loads(data), parts=parts, gz=True)
        del data
        say(f"checking the proof ({size:,} bytes, {len(result.proof['nodes']):,} nodes) with the lower-bound "
            f"checker, in a main file and {len(pieces)} parts")
        report = check_written_parts(main, pieces, name, game.size)
        data, result.parts = main, pieces
    else:
        say(f"checking the proof ({len(data):,} bytes, {len(result.proof['nodes']):,} nodes) with the "
            "lower-bound checker")
        report = check_written(data, name, game.size)
    _unchecked(report, "proof", too_big and not parts)
    if not report.valid:
        raise _refused("the proof the search wrote", report.error or report.line(), state)
    result.data, result.checked, result.work = data, report, report.checked.get("work", 0)
    result.statement = report.statement()  # what is shown is the checker's reading
    return result


def _check_strategy(result: Result, game, state=None) -> dict:
    """The strategy beside the checked proof: accepted by the strategy checker and meeting the
    proof's bound exactly (optimality.compare), else an error as _check_proof's."""
    from ..certificate import dumps
    from ..errors import CertifyError
    from ..optimality import check_written, compare

    name = f"<{result.strategy['strategy']['name']} {game.slug}>"
    report = check_written(dumps(result.strategy, compact=True), name, game.size)
    _unchecked(report, "strategy")
    if not report.valid:
        raise _refused("the strategy the search wrote", report.error or report.line(), state)
    try:
        found = compare(report, result.checked)
    except CertifyError as e:
        raise _refused("the strategy the search wrote", str(e), state) from None
    if not found["optimal"]:
        raise _refused("the proof and the strategy the search wrote", found["text"], state)
    return found


def _kept(checkpoint) -> dict:
    """WorstSearch's checkpoint arguments from (file, seconds between saves), a file, or None."""
    if checkpoint is None:
        return {}
    if isinstance(checkpoint, tuple):
        return {"checkpoint": checkpoint[0], "every": checkpoint[1]}
    return {"checkpoint": checkpoint}


@contextmanager
def _saved_when_stopped(search):
    """The worst-case search's checkpoint written when the search stops early (Ctrl-C, SIGTERM,
    a memory error): what it finished is kept for the next run. Not when the checkpoint proved
    inconsistent: the file is left as it was given."""
    from ..errors import Inconsistent

    try:
        yield
    except Inconsistent:
        raise
    except BaseException:
        search.save()
        raise


def _state(search, checkpoint):
    """The checkpoint's name when the search read sets from it, or its workers from the exchange
    folder beside it (hints to check), else None."""
    if not (getattr(search, "resumed", 0) or getattr(search, "hinted", False)):
        return None
    name = checkpoint[0] if isinstance(checkpoint, tuple) else checkpoint
    return f"{name} (and {name}.shared)" if name is not None and getattr(search, "hinted", False) else name


def _sharing(search, run, checkpoint, say):
    """Where the cluster's tasks exchange the sets they settle (:mod:`.share`): the folder beside
    the checkpoint (made here; a resumed checkpoint's sets go in first), else the cluster's own
    place (``run.share``, certify.distributed), or None."""
    if run is None:
        return None
    if checkpoint is None:
        return getattr(run, "share", None)
    import numpy as np

    from ..errors import CertifyError
    from .share import Exchange, folder_beside

    folder = folder_beside(checkpoint[0] if isinstance(checkpoint, tuple) else checkpoint)
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise CertifyError(f"cannot make the folder {folder} where the workers share their sets: "
                           f"{e.strerror or e}") from None
    where = ("folder", folder)
    if search.resumed:
        exchange = Exchange(where, search.game, np.dtype(search._key_type).itemsize)
        exchange.publish(search.memo.items())
        for line in exchange.notes:
            say(line)
    say(f"shared sets: the workers exchange what they settle through {folder}")
    return where


def _shared(search, run, say) -> None:
    if run is not None:
        say(f"shared sets: the workers took {search.imported} set{'' if search.imported == 1 else 's'} "
            "from each other's tasks")


def at_least(game, k: int, progress: bool = False, say=lambda line: None, checkpoint=None, run=None,
             parts: int | None = None) -> Result:
    """The proof "every strategy needs >= k" without looking further (the least worst case may be
    more): for games whose whole search is too long. Raises CertifyError when some strategy does
    with k - 1. ``checkpoint``: a file, or (file, seconds between saves), that the search resumes
    from and saves to (:mod:`.memofile`: the same bytes as a search never stopped)."""
    from ..errors import CertifyError, Inconsistent
    from .worst import WorstSearch

    start = time.perf_counter()
    search = WorstSearch(game, progress=progress, say=say, **_kept(checkpoint))
    share = _sharing(search, run, checkpoint, say)
    try:
        with _saved_when_stopped(search):
            if run is not None:
                search.fan_out(k, run, share, say)
                _shared(search, run, say)
            proof = search.prove(k)
    except Inconsistent as e:  # the memo contradicts itself: a checkpoint's entries
        raise _refused("what the search finds again", str(e), _state(search, checkpoint)) from None
    state = _state(search, checkpoint)
    if proof is None:
        if state is not None:  # "some strategy does with k - 1" rests on the checkpoint: not shown
            raise _refused("the search", f"it marks a way to settle {game} within {k - 1} guesses; "
                           "only a proof is taken from a checkpoint", state)
        raise CertifyError(f"some strategy for {game} never needs more than {k - 1} guesses: no proof of {k}")
    say(f"search: every strategy for {game} needs >= {k}, unchecked so far ({search.nodes} nodes)")
    result = Result(proof, f"every strategy for {game} needs >= {k} guesses for some secret", search.nodes, 0.0)
    del search  # its feedback matrix and memo, before the checker builds its own table
    result = _check_proof(result, game, say, state, parts=parts)
    say(f"checked: every strategy for {game} needs >= {k} (the lower-bound checker accepted the proof)")
    result.seconds = time.perf_counter() - start
    return result


def worst_case(game, progress: bool = False, say=lambda line: None, strategy: bool = False,
               checkpoint=None, run=None, parts: int | None = None) -> Result:
    """The least worst case D of the game, proven: every strategy needs >= D (and the search
    found a way to do with D, so D + 1 is not provable). With ``strategy``, also a strategy
    certificate that never needs more than D (the search's own choices). ``checkpoint``: as for
    :func:`at_least`. The proof (and the strategy) are accepted by the trusted checkers before
    this returns; from a checkpoint, the strategy is built and checked whether asked for or not:
    a checkpoint is hints (a forged one raises Inconsistent, never a false figure). ``run``: a
    ``run(func, args)`` of a Dask cluster (certify.distributed.run_tasks): each level's first
    guesses are searched as tasks (WorstSearch.fan_out), the same bytes as in one process."""
    from ..errors import Inconsistent
    from .worst import WorstSearch

    start = time.perf_counter()
    search = WorstSearch(game, progress=progress, say=say, **_kept(checkpoint))
    share = _sharing(search, run, checkpoint, say)
    every = search._every
    d = search.count.worst(len(every))
    say(f"counting: every strategy for {game} needs >= {d}")
    try:
        with _saved_when_stopped(search):
            while True:
                if run is not None:  # the level's first guesses as tasks of the cluster
                    search.fan_out(d + 1, run, share, say)
                if not search.needs(every, d + 1):
                    break
                d += 1
                say(f"search: every strategy for {game} needs >= {d}, unchecked so far ({search.nodes} nodes searched)")
            _shared(search, run, say)
            proof = search.prove(d)
            state = _state(search, checkpoint)  # after the search: its workers may have read hints
            # From a checkpoint, "some strategy does within D" is a hint too: the strategy is built and
            # checked even when it is not asked for.
            within = search.strategy_certificate(d) if strategy or state is not None else None
    except Inconsistent as e:  # the memo contradicts itself: a checkpoint's entries
        raise _refused("what the search finds again", str(e), _state(search, checkpoint)) from None
    result = Result(proof, f"every strategy for {game} needs >= {d} guesses for some secret", search.nodes, 0.0,
                    within)
    del search  # its feedback matrix and memo, before the checker builds its own table
    result = _check_proof(result, game, say, state, parts=parts)
    if within is not None:
        _check_strategy(result, game, state)
        say(f"checked: the least worst case of {game} is {d} (the lower-bound checker accepted the proof, "
            "the strategy checker a strategy within it)")
    else:
        say(f"checked: every strategy for {game} needs >= {d} (the lower-bound checker accepted the proof)")
    if not strategy:
        result.strategy = None
    result.seconds = time.perf_counter() - start
    return result


def total(game, max_guesses=None, progress: bool = False, say=lambda line: None, run=None,
          at_max: bool = False, first: str = "total", checkpoint=None, parts: int | None = None) -> Result:
    """The least total of guesses over all secrets (among strategies within ``max_guesses``),
    with a strategy that reaches it and the proof that none does better. With ``run``, the
    classes of the first guesses are tasks that ``run(func, args)`` computes (:mod:`.split`):
    the same least total, and bytes that do not depend on who runs the tasks. With ``at_max``
    (and max_guesses D): the least total, then the fewest secrets that need D guesses; with
    ``first="at_max"`` as well, those two in the other order (in one process or split). ``checkpoint``: the name of the
    state ``run`` reads finished tasks from (a folder, :mod:`.checkpoint`): hints, so what it
    gives is checked, and a damaged one is named (Inconsistent). The proof and the strategy are
    accepted by the trusted checkers, the strategy's total equal to the proof's bound, before
    this returns."""
    start = time.perf_counter()
    if run is None:
        from .total import TotalSearch

        search = TotalSearch(game, max_guesses, progress=progress, at_max=at_max, first=first)
    else:
        from .split import SplitSearch

        search = SplitSearch(game, max_guesses, run=run, progress=say, at_max=at_max, first=first)
    with _stitched(checkpoint):
        best, count = search.pair(search.solve())
    plural = "" if count == 1 else "s"
    then = "" if count is None else f", then {count} secret{plural} needing {max_guesses}"
    if first == "at_max":
        say(f"search: the fewest secrets needing {max_guesses} for {game} is {count}, then the least "
            f"total {best}, unchecked so far ({search.nodes} {'nodes' if run is None else 'tasks'})")
    else:
        say(f"search: the least total for {game} is {best}{then}, unchecked so far ({search.nodes} "
            f"{'nodes' if run is None else 'tasks'})")
    with _stitched(checkpoint):
        proof = search.prove()
        strategy = search.strategy_certificate()
    limit = "" if max_guesses is None else f" within {max_guesses} guesses"
    if first == "at_max":
        statement = (f"every strategy for {game}{limit} has >= {count} secret{plural} needing "
                     f"{max_guesses}; one with exactly {count} needs >= {best} guesses in total")
    else:
        then = "" if count is None else f"; one with exactly {best} has >= {count} secret{plural} needing {max_guesses}"
        statement = f"every strategy for {game}{limit} needs >= {best} guesses in total{then}"
    result = Result(proof, statement, search.nodes, 0.0, strategy)
    del search  # its feedback matrix and memo, before the checker builds its own table
    result = _check_proof(result, game, say, checkpoint, "total", parts)
    _check_strategy(result, game, checkpoint)
    found = (f"the fewest secrets needing {max_guesses} for {game} is {count}, then the least total {best}"
             if first == "at_max" else f"the least total for {game}{limit} is {best}{then}")
    say(f"checked: {found} (the lower-bound checker accepted the proof, the strategy checker a "
        "strategy that meets it)")
    result.seconds = time.perf_counter() - start
    return result


def total_at_least(game, k: int, max_guesses=None, progress: bool = False, say=lambda line: None,
                   parts: int | None = None) -> Result:
    """The proof "every strategy needs >= k guesses in total" (among strategies within
    ``max_guesses``) without looking for the least total, which may be more: a narrower interval
    where the whole search is too long (the search cuts every branch once it reaches k, so a k
    below the least total costs less, and much less well below it). Raises CertifyError when the
    least total is below k (the search then found it), Infeasible when no strategy fits within
    ``max_guesses``."""
    from ..errors import CertifyError
    from .total import TotalSearch

    start = time.perf_counter()
    search = TotalSearch(game, max_guesses, progress=progress)
    found = search.solve_at_least(k)
    limit = "" if max_guesses is None else f" within {max_guesses} guesses"
    if found < k:
        raise CertifyError(f"the least total for {game}{limit} is {found}, below {k}: no proof of {k} "
                           f"(bound --total{'' if max_guesses is None else f' --max-guesses {max_guesses}'} "
                           "proves it with a strategy)")
    say(f"search: every strategy for {game}{limit} needs >= {k} guesses in total, unchecked so far "
        f"({search.nodes} nodes)")
    proof = search.prove()
    result = Result(proof, f"every strategy for {game}{limit} needs >= {k} guesses in total", search.nodes, 0.0)
    del search  # its feedback matrix and memo, before the checker builds its own table
    result = _check_proof(result, game, say, None, "total", parts)
    say(f"checked: every strategy for {game}{limit} needs >= {k} guesses in total (the lower-bound checker "
        "accepted the proof)")
    result.seconds = time.perf_counter() - start
    return result


@contextmanager
def _stitched(state):
    """Where a split search stitches its tasks' results: from a checkpoint folder (``state``) a
    result that reads as one but is not what its task computes (an edited file) can break the
    stitching anywhere; it is named, never shown as a traceback. Without a checkpoint, errors
    pass as they are (a bug)."""
    from ..errors import CertifyError, Inconsistent, Infeasible

    if state is None:
        yield
        return
    try:
        yield
    except (Infeasible, Inconsistent):
        raise  # (no strategy within the limit: checked by the worst-case proof, commands/optimal.py)
    except CertifyError as e:  # e.g. a strategy guess out of the game, as the builder says
        raise _refused("the search", str(e), state) from None
    except (KeyError, IndexError, TypeError, ValueError, AssertionError, AttributeError,
            RecursionError, OverflowError):
        raise _refused("the search", "its tasks' results do not fit together (a set, a guess or a proof "
                       "node that one names is not where it says)", state) from None


def support_total(game, orbits, progress: bool = False, say=lambda line: None) -> Result:
    """The codemaker's side of the game value for a distribution uniform over a union of orbits
    (of the peg and colour permutations; ``orbits``: their lowest codes as text): the least total
    over those secrets, with the weighted proof (weights 1 on them, 0 elsewhere) that every
    strategy averages at least total / (their number) against that distribution."""
    from collections import Counter

    from ..errors import CertifyError
    from .total import TotalSearch

    def orbit(code: str) -> tuple:  # (the checker computes its own: no code shared with it)
        return tuple(sorted(Counter(code).values(), reverse=True))

    start = time.perf_counter()
    lowest: dict = {}
    keys = []
    for index in range(game.size):
        code = game.text(index)
        key = orbit(code)
        lowest.setdefault(key, code)
        keys.append(key)
    unknown = [code for code in orbits if code not in lowest.values()]
    if unknown:
        raise CertifyError(f"{unknown[0]} is not the lowest code of an orbit of {game} "
                           f"(the orbits: {', '.join(lowest.values())})")
    chosen = {orbit(code) for code in orbits}
    secrets = [index for index, key in enumerate(keys) if key in chosen]
    search = TotalSearch(game, progress=progress, secrets=secrets)
    value = search.solve()
    say(f"search: the least total over the {len(secrets)} secrets of {game} in the orbits of "
        f"{', '.join(sorted(orbits))} is {value} ({search.nodes} nodes)")
    proof = search.prove()
    proof["claims"] = {"total": value, "weights": {code: int(key in chosen) for key, code in lowest.items()}}
    result = _check_proof(Result(proof, "", search.nodes, 0.0), game, say, kind="weighted")
    result.statement = (f"every strategy for {game} averages >= {value}/{len(secrets)} guesses against "
                        f"the uniform distribution on those {len(secrets)} secrets")
    result.seconds = time.perf_counter() - start
    return result
