"""Entry points of the exact search: the least worst case and the least total, with proofs."""

from __future__ import annotations

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
    a memory error): what it finished is kept for the next run."""
    try:
        yield
    except BaseException:
        search.save()
        raise


def at_least(game, k: int, progress: bool = False, say=lambda line: None, checkpoint=None) -> Result:
    """The proof "every strategy needs >= k" without looking further (the least worst case may be
    more): for games whose whole search is too long. Raises CertifyError when some strategy does
    with k - 1. ``checkpoint``: a file, or (file, seconds between saves), that the search resumes
    from and saves to (:mod:`.memofile`: the same bytes as a search never stopped)."""
    from ..errors import CertifyError
    from .worst import WorstSearch

    start = time.perf_counter()
    search = WorstSearch(game, progress=progress, say=say, **_kept(checkpoint))
    with _saved_when_stopped(search):
        proof = search.prove(k)
    if proof is None:
        raise CertifyError(f"some strategy for {game} never needs more than {k - 1} guesses: no proof of {k}")
    say(f"search: every strategy for {game} needs >= {k} ({search.nodes} nodes)")
    return Result(proof, f"every strategy for {game} needs >= {k} guesses for some secret",
                  search.nodes, time.perf_counter() - start)


def worst_case(game, progress: bool = False, say=lambda line: None, strategy: bool = False,
               checkpoint=None) -> Result:
    """The least worst case D of the game, proven: every strategy needs >= D (and the search
    found a way to do with D, so D + 1 is not provable). With ``strategy``, also a strategy
    certificate that never needs more than D (the search's own choices). ``checkpoint``: as for
    :func:`at_least`."""
    from .worst import WorstSearch

    start = time.perf_counter()
    search = WorstSearch(game, progress=progress, say=say, **_kept(checkpoint))
    every = search._every
    d = search.count.worst(len(every))
    say(f"counting: every strategy for {game} needs >= {d}")
    with _saved_when_stopped(search):
        while search.needs(every, d + 1):
            d += 1
            say(f"search: every strategy for {game} needs >= {d} ({search.nodes} nodes so far)")
        proof = search.prove(d)
        within = search.strategy_certificate(d) if strategy else None
    return Result(proof, f"every strategy for {game} needs >= {d} guesses for some secret",
                  search.nodes, time.perf_counter() - start, within)


def total(game, max_guesses=None, progress: bool = False, say=lambda line: None, run=None,
          at_max: bool = False, first: str = "total") -> Result:
    """The least total of guesses over all secrets (among strategies within ``max_guesses``),
    with a strategy that reaches it and the proof that none does better. With ``run``, the
    classes of the first guesses are tasks that ``run(func, args)`` computes (:mod:`.split`):
    the same least total, and bytes that do not depend on who runs the tasks. With ``at_max``
    (and max_guesses D): the least total, then the fewest secrets that need D guesses; with
    ``first="at_max"`` as well, those two in the other order."""
    start = time.perf_counter()
    if run is None:
        from .total import TotalSearch

        search = TotalSearch(game, max_guesses, progress=progress, at_max=at_max, first=first)
    else:
        if at_max:
            from ..errors import CertifyError

            raise CertifyError("the fewest secrets at the maximum is searched in one process "
                               "(no --workers or --scheduler)")
        from .split import SplitSearch

        search = SplitSearch(game, max_guesses, run=run, progress=say)
    best, count = search.pair(search.solve())
    plural = "" if count == 1 else "s"
    then = "" if count is None else f", then {count} secret{plural} needing {max_guesses}"
    if first == "at_max":
        say(f"search: the fewest secrets needing {max_guesses} for {game} is {count}, then the least "
            f"total {best} ({search.nodes} nodes)")
    else:
        say(f"search: the least total for {game} is {best}{then} ({search.nodes} "
            f"{'nodes' if run is None else 'tasks'})")
    proof = search.prove()
    strategy = search.strategy_certificate()
    limit = "" if max_guesses is None else f" within {max_guesses} guesses"
    if first == "at_max":
        statement = (f"every strategy for {game}{limit} has >= {count} secret{plural} needing "
                     f"{max_guesses}; one with exactly {count} needs >= {best} guesses in total")
    else:
        then = "" if count is None else f"; one with exactly {best} has >= {count} secret{plural} needing {max_guesses}"
        statement = f"every strategy for {game}{limit} needs >= {best} guesses in total{then}"
    return Result(proof, statement, search.nodes, time.perf_counter() - start, strategy)


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
    return Result(proof, f"every strategy for {game} averages >= {value}/{len(secrets)} guesses against "
                  f"the uniform distribution on those {len(secrets)} secrets", search.nodes,
                  time.perf_counter() - start)
