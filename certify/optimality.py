"""A strategy beside a lower bound, and a mixed strategy beside a weighted one (the game value):
how far each is from the other (``certify verify S --optimal B``, ``--value B``,
``stats --bound``, the API's ``verify_optimality``).

Which kind a file is and which trusted checker reads it is decided in :mod:`certify.kinds`; its
names are also here for the modules that import them from this one.
"""

from __future__ import annotations

from fractions import Fraction

from . import verify, verify_bound
from .errors import CertifyError
from .kinds import LOWER_BOUND, MIXED, STRATEGY, check_any, check_bytes, format_of, kind_of  # noqa: F401 (older callers)
from .text import shown

#: The most codes the lower-bound checker takes when asked (``max_codes``), for callers that must not
#: import the checkers themselves (the search).
CODES_CEILING = verify_bound.CODES_CEILING


def check_written(raw: bytes, name: str, codes: int):
    """The report of the trusted checker of ``raw``'s kind (lower bound or strategy) on a file a
    search of this package wrote, for a game of ``codes`` codes: its own output, not hostile input,
    so checked with every code of the game and the lower-bound checker's largest work budget
    (the search reports what that took: :func:`check_options`)."""
    if kind_of(raw) == STRATEGY:
        return verify.verify_bytes(raw, name, max_work=verify_bound.MAX_PAIRS)
    return verify_bound.check_bytes(raw, name, None, max(codes, verify_bound.MAX_CODES),
                                    max_work=verify_bound.MAX_PAIRS)


def too_big_whole(size: int, nodes: int) -> bool:
    """Whether a proof of ``size`` bytes of JSON and ``nodes`` nodes is past the lower-bound
    checker's limits as one file (it passes only in parts: --proof-parts)."""
    return size > verify_bound.MAX_BYTES or nodes > verify_bound.MAX_NODES


def _part_verdict(item, limits: dict):
    name, raw = item
    return verify_bound.verdict_bytes(raw, name, **limits)


def part_verdicts(items: list, limits: dict, jobs: int = 1) -> list:
    """The lower-bound checker's verdict on each file of a split proof ([(name, bytes)], with the
    keyword limits of verify_bound.verdict_bytes), in ``jobs`` fresh processes (spawned: the
    caller's memory, a search's, is not copied), the biggest first; verdicts in the items' order."""
    import functools

    jobs = max(1, min(jobs, len(items), verify_bound.cores()))
    if jobs == 1:
        return [_part_verdict(item, limits) for item in items]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    order = sorted(range(len(items)), key=lambda k: -len(items[k][1]))
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        done = dict(zip(order, pool.map(functools.partial(_part_verdict, limits=limits), [items[k] for k in order])))
    return [done[k] for k in range(len(items))]


def check_written_parts(main: bytes, parts: list, name: str, codes: int, jobs: int | None = None):
    """The lower-bound checker's combined verdict on a split proof a search wrote (its main file's
    bytes and its parts' bytes, as proofparts.split gives them), with check_written's budgets:
    every file checked (in ``jobs`` processes, default one a core), the main claim accepted by
    the combining step (verify_bound.combine)."""
    limits = {"max_codes": max(codes, verify_bound.MAX_CODES), "max_work": verify_bound.MAX_PAIRS}
    names = [f"{name[:-1]} part {k}>" if name.endswith(">") else f"{name} part {k}" for k in range(1, len(parts) + 1)]
    verdicts = part_verdicts(list(zip(names, parts)), limits, jobs or verify_bound.cores())
    combined = verify_bound.combine(_part_verdict((name, main), limits), verdicts)
    combined.part_reports = verdicts  # (for check_options: what each part's check took)
    return combined


def check_options(report, size: int, parts=()) -> str:
    """The options ``certify verify`` needs beyond its defaults to accept again the lower bound of
    ``report`` (check_written's) as a file of ``size`` bytes (gzipped: fewer bytes, a smaller
    default work budget); ``parts``: (report, size) of each part of a split proof as well."""
    needed: dict = {}
    for one, n in [(report, size), *parts]:
        if one.secrets > verify_bound.MAX_CODES:
            needed["--max-codes"] = max(needed.get("--max-codes", 0), one.secrets)
        # The work limit bounds two things: (node, guess) pairs before any work (default MAX_WORK) and
        # the work done (default by the file's size); --max-work N replaces both.
        work, pairs = one.checked.get("work", 0), one.checked["nodes"] * one.secrets
        if (work > min(verify_bound.MAX_PAIRS, verify_bound.WORK_BASE + verify_bound.WORK_PER_BYTE * n)
                or pairs > verify_bound.MAX_WORK):
            needed["--max-work"] = max(needed.get("--max-work", 0), work, pairs)
    return " ".join(f"{option} {value}" for option, value in needed.items())


def _label(game: dict) -> str:
    return (f"{game['pegs']}x{game['colors']}" + ("" if game["repetition"] else " without repetition")
            + (" black-only" if game.get("feedback") == "black-only" else ""))


def compare(strategy: verify.Report, bound: verify_bound.Report) -> dict:
    """How a (valid) strategy meets a (valid) lower bound of the same game. Raises CertifyError when
    they cannot be compared (another game, or a bound among strategies the strategy is not)."""
    if strategy.game != bound.game:
        raise CertifyError(f"the strategy plays {_label(strategy.game)}, the lower bound is for "
                           f"{_label(bound.game)}")
    got, claims = strategy.replayed, bound.claims
    if "weights" in claims:
        raise CertifyError("the lower bound is weighted (the codemaker's side of the game value): it "
                           "bounds a mean against a distribution of secrets, not a strategy's total; "
                           "compare it with a mixed strategy (docs/game-value.md)")
    if "worst_case" in claims:
        have, need, what = got["max_guesses"], claims["worst_case"], "max {} guesses"
    else:
        within = claims.get("max_guesses")
        if within is not None and got["max_guesses"] > within:
            raise CertifyError(f"the strategy needs {got['max_guesses']} guesses for some secret; the lower "
                               f"bound is among strategies within {within}")
        have, need = got["total_guesses"], claims["total"]
        what = "total {} guesses" + ("" if within is None else f" (within {within})")
        if "at_max" in claims:
            return _compare_at_max(strategy, bound, got, claims)
    shown_have = what.format(have)
    if have == need:
        text = f"optimal: {shown_have} = proven minimum {need}"
    elif have > need:
        text = f"gap: {shown_have}, proven minimum {need} (gap {have - need})"
    else:  # both checked, yet the strategy beats the bound: one of the checkers is wrong
        text = f"contradiction: {shown_have} is below the proven minimum {need}"
    return {"optimal": have == need, "achieved": have, "proven_minimum": need, "gap": have - need,
            "claims": claims, "statement": bound.statement(), "text": text,
            "bound_file": shown(bound.file)}


def _secrets(k: int) -> str:
    return f"{k} secret{'' if k == 1 else 's'}"


def _compare_at_max(strategy, bound, got: dict, claims: dict) -> dict:
    """A strategy within D beside an at_max bound: (total, secrets needing D) against the proven
    least pair, compared in lexicographic order."""
    d = claims["max_guesses"]
    have = (got["total_guesses"], got["histogram"].get(str(d), 0))
    need = (claims["total"], claims["at_max"])
    shown_have = f"total {have[0]} guesses, then {_secrets(have[1])} needing {d} (within {d})"
    order = slice(None)  # the pair as compared: (total, count), or (count, total) with first at_max
    if claims.get("first") == "at_max":
        order = slice(None, None, -1)
        shown_have = f"{_secrets(have[1])} needing {d}, then total {have[0]} guesses (within {d})"
    a, b = need[order]
    if have == need:
        text = f"optimal: {shown_have} = proven minimum {a}, then {b}"
    elif have[order] > need[order]:
        gap = (have[order][0] - a, have[order][1] - b)
        text = f"gap: {shown_have}, proven minimum {a}, then {b} (gap {gap[0]}, then {gap[1]})"
    else:  # both checked, yet the strategy beats the bound: one of the checkers is wrong
        text = f"contradiction: {shown_have} is below the proven minimum {a}, then {b}"
    return {"optimal": have == need, "achieved": have[0], "proven_minimum": need[0], "gap": have[0] - need[0],
            "at_max": {"guesses": d, "achieved": have[1], "proven_minimum": need[1], "gap": have[1] - need[1]},
            "claims": claims, "statement": bound.statement(), "text": text, "bound_file": shown(bound.file)}


def compare_pair(strategy: verify.Report, worst: verify_bound.Report, total: verify_bound.Report) -> dict:
    """A (valid) strategy beside a worst-case bound D and a total bound T: (max, total) against
    (D, T) in lexicographic order (least worst case, then least total). The total bound must
    cover the strategies within D: no limit, or a limit of at least D. Raises CertifyError when
    they cannot be compared."""
    if "worst_case" not in worst.claims or "total" not in total.claims or "at_max" in total.claims:
        raise CertifyError("least worst case, then least total: give a worst-case bound and a total bound")
    first = compare(strategy, worst)  # (also the games)
    d = worst.claims["worst_case"]
    within = total.claims.get("max_guesses")
    if within is not None and within < d:
        raise CertifyError(f"the total bound is among strategies within {within}, fewer guesses than the "
                           f"proven least worst case {d}: it says nothing of the strategies within {d}")
    if first["achieved"] != d:  # the first key decides (or the checkers disagree)
        second, text = None, first["text"] + " (the total is compared only at the least worst case)"
        optimal = False
    else:
        second = compare(strategy, total)
        optimal = second["optimal"]
        head, rest = second["text"].split(": ", 1)
        text = f"{head}: max {d} guesses = proven minimum {d}, then {rest}"
    return {"optimal": optimal, "worst_case": first, "total": second, "text": text,
            "bound_files": [shown(worst.file), shown(total.file)]}


def _text(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def compare_value(mixed, bound) -> dict:
    """The codemaker's proven lower bound (T / sum of the weights over every code) beside the
    codebreaker's proven upper bound (the mixture's exact maximum over secrets), both from valid
    reports of the trusted checkers. Raises CertifyError when they cannot be compared."""
    if mixed.game != bound.game:
        raise CertifyError(f"the mixed strategy plays {_label(mixed.game)}, the lower bound is for {_label(bound.game)}")
    if "weights" not in bound.claims:
        raise CertifyError("the lower bound has no weights: the codemaker's side of the game value is a weighted "
                           "lower bound (claims {\"total\": T, \"weights\": {...}})")
    lower = Fraction(bound.claims["total"], bound.weight_sum)
    upper = mixed.maximum
    if lower == upper:
        text = f"game value v = {_text(upper)} (≈ {float(upper):.4f}), proven from both sides"
    elif lower < upper:
        text = (f"gap: the codemaker's proven lower bound {_text(lower)} (≈ {float(lower):.4f}), the codebreaker's "
                f"proven upper bound {_text(upper)} (≈ {float(upper):.4f}), gap {_text(upper - lower)}")
    else:  # both checked, yet they cross: one of the checkers is wrong
        text = (f"contradiction: the codemaker's proven lower bound {_text(lower)} is above the codebreaker's "
                f"proven upper bound {_text(upper)}")
    return {"proven": lower == upper, "lower": _text(lower), "upper": _text(upper), "gap": _text(upper - lower),
            "value": _text(upper) if lower == upper else None, "text": text}
