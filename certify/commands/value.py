"""The game value, certified from both sides: ``certify value``, and ``certify verify MIXED --value BOUND``.

``certify value`` runs the double oracle (certify/value.py), writes the codemaker's weighted
lower bound and the codebreaker's mixed strategy, then checks both with the trusted checkers
(certify/verify_bound.py and certify/verify_mixed.py) and states the value only from what they
accepted. docs/game-value.md describes the files.
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction

from ..kinds import LOWER_BOUND, MIXED, WORDS
from .common import (EXIT_INVALID, EXIT_OK, LIMITS, add_feedback_arg, add_game_args, add_limits, add_quiet, game_of,
                     print_json, refused)

#: Games of at most this many codes: the weighted search keeps Python sets (bitmasks) of codes.
MAX_VALUE_CODES = 1296
#: Past this many codes the files are gzipped (the trees of 4x6 hold a few MB of JSON).
GZIP_CODES = 256
EXAMPLES = ["certify value --pegs 3 --colors 3",
            "certify value --pegs 4 --colors 3 --prefix certificates/value/value-4x3 --json",
            "certify value --pegs 3 --colors 4 --no-repetition"]
def compare_value(mixed, bound) -> dict:
    """The game value from both sides (:func:`certify.optimality.compare_value`)."""
    from ..optimality import compare_value as compare

    return compare(mixed, bound)


def _checked(path: str, want: str, quiet: bool):
    """The report of a mixed strategy (``want`` = MIXED) or a lower bound, checked by the checker
    certify.kinds picks, valid or not (``report.valid``); SystemExit for an unreadable file,
    CertifyError for the wrong kind."""
    from ..errors import CertifyError
    from ..kinds import check_bytes, kind_of, read
    from ..text import shown

    raw, unread = read(path, None if quiet else (lambda line: print(line, file=sys.stderr, flush=True)))
    if raw is None:  # unreadable (2) or over the size limit (1): the checker's line
        print(unread.line(), file=sys.stderr)
        raise SystemExit(unread.status)
    kind = kind_of(raw)
    if kind == want:
        kind, report = check_bytes(raw, path, **LIMITS)
    if kind != want:
        raise CertifyError(f"{shown(path)} is a {WORDS[kind]} certificate, not a {WORDS[want]} certificate")
    return report


def verify_value(files, bound_file: str, as_json: bool, quiet: bool = False) -> int:
    """``certify verify MIXED --value BOUND``: both checked, then compared."""
    from ..errors import CertifyError

    if len(files) != 1:
        raise CertifyError(f"--value compares one mixed-strategy certificate with the weighted bound, got {len(files)} files")
    mixed = _checked(files[0], MIXED, quiet)
    bound = _checked(bound_file, LOWER_BOUND, quiet) if mixed.valid else None
    if not mixed.valid or not bound.valid:  # invalid, or unusable (a limit: not checked)
        bad = bound if mixed.valid else mixed
        if not as_json:
            return refused(bad, False)
        print_json({"report_version": 1, "tool": "certify.verify", "mixed": dict(mixed.to_json(), kind=MIXED),
                    "bound": bound and dict(bound.to_json(), kind="lower-bound"), "value": None})
        return bad.status
    result = compare_value(mixed, bound)
    if as_json:
        print_json({"report_version": 1, "tool": "certify.verify",
                    "mixed": dict(mixed.to_json(), kind=MIXED),
                    "bound": dict(bound.to_json(), kind="lower-bound"), "value": result})
    else:
        print(mixed.line())
        print(bound.line())
        print(result["text"])
    return EXIT_OK if result["proven"] else EXIT_INVALID


def cmd_value(args) -> int:
    from .. import verify_bound, verify_mixed
    from .._version import __version__
    from ..errors import CertifyError
    from ..files import check_distinct, check_output, write_output
    from ..value import fraction_text, game_value, mixed_document

    game = game_of(args)
    game.check_size()
    if game.size > MAX_VALUE_CODES:
        raise CertifyError(f"game {game} has {game.size} codes; certify value searches games of at most "
                           f"{MAX_VALUE_CODES} codes (4x6)")
    if getattr(args, "prefix_by_o", False) and not args.quiet:
        print("note: value -o PREFIX is deprecated: write --prefix PREFIX (-o names one file in the other "
              "commands)", file=sys.stderr)
    prefix = args.output or f"value-{game.slug}"
    ext = ".json.gz" if game.size > GZIP_CODES else ".json"
    maker, breaker = f"{prefix}-codemaker{ext}", f"{prefix}-codebreaker{ext}"
    check_output(maker)
    check_output(breaker)
    check_distinct(maker, breaker)
    # the rounds of the double oracle, as progress: on a terminal only (and not with -q)
    say = (lambda line: None) if args.quiet or not sys.stderr.isatty() else (
        lambda line: print(line, file=sys.stderr, flush=True))
    generator = {"name": "certify", "version": __version__}
    result = game_value(game.pegs, game.colors, game.repetition, say=say, generator=generator,
                        feedback=game.feedback_rule)
    import orjson

    # the proof compact with sorted keys, as the other lower-bound proofs; the trees indented
    write_output(maker, orjson.dumps(result.proof, option=orjson.OPT_SORT_KEYS) + b"\n")
    write_output(breaker, orjson.dumps(mixed_document(result, generator), option=orjson.OPT_INDENT_2) + b"\n")
    # what is stated comes from the trusted checkers, reading the files as written
    bound = verify_bound.check_file(maker, max_codes=LIMITS["max_codes"] or verify_bound.MAX_CODES,
                                    max_work=LIMITS["max_work"], max_nodes=LIMITS["max_nodes"])
    mixed = verify_mixed.check_file(breaker, **LIMITS)
    for report in (bound, mixed):
        if not report.valid:  # (a limit: unusable, exit 2, the option named)
            return refused(report, args.json, "value")
    compared = compare_value(mixed, bound)
    probabilities = result.orbit_probabilities
    if args.json:
        print_json({"game": game.to_json(), "value": compared["value"], "proven": compared["proven"],
                    "mean": float(mixed.maximum), "comparison": compared,
                    "codemaker": {"file": maker, "weights": result.proof["claims"]["weights"],
                                  "total": bound.claims["total"], "weight_sum": bound.weight_sum,
                                  "orbit_probabilities": {k: fraction_text(x) for k, x in probabilities.items()},
                                  "proof_nodes": len(result.proof["nodes"])},
                    "codebreaker": {"file": breaker, "strategies": mixed.strategies, "orbits": mixed.orbits},
                    "least_total": result.least_total, "uniform_optimal": result.uniform_optimal,
                    "rounds": result.rounds, "trees_tried": result.trees_tried, "exact_by": result.how,
                    "seconds": round(result.seconds, 3), "cpu_seconds": round(result.cpu_seconds, 3)}, "value")
    else:
        print(f"wrote {bound.line()}")
        print(f"wrote {mixed.line()}")
        shown = ", ".join(f"{k} {w}" for k, w in result.proof["claims"]["weights"].items())
        print(f"codemaker: weights per code by orbit {shown}; uniform over all codes is "
              f"{'' if result.uniform_optimal else 'not '}optimal (least total {result.least_total}/{game.size}"
              f" = {float(Fraction(result.least_total, game.size)):.4f})")
        print(compared["text"])
    return EXIT_OK if compared["proven"] else EXIT_INVALID


class _PrefixByO(argparse.Action):
    """value's old -o PREFIX, kept working beside --prefix; cmd_value says it is deprecated."""

    def __call__(self, parser, namespace, values, option_string=None):
        namespace.output, namespace.prefix_by_o = values, True


def register(sub) -> None:
    p = sub.add_parser("value", help="the game value (randomised codemaker and codebreaker), proven from both sides",
                       description="Compute the value of the game in which the codemaker draws the secret from a "
                       "distribution and the codebreaker may randomise (expected guesses), for games of at most "
                       f"{MAX_VALUE_CODES} codes (past {GZIP_CODES} the compiled weighted search, which also writes "
                       "the codemaker's proof for any weights, and the files are gzipped). Writes "
                       "PREFIX-codemaker.json (a weighted lower bound: "
                       "every strategy needs >= v on average against the codemaker's distribution) and "
                       "PREFIX-codebreaker.json (a mixed strategy needing <= v on average for every secret), "
                       "checks both with the trusted checkers and states v when they meet.")
    add_game_args(p)
    add_feedback_arg(p)
    p.add_argument("--prefix", dest="output", metavar="PREFIX",
                   help="the two files written: PREFIX-codemaker.json and PREFIX-codebreaker.json (.json.gz "
                        f"past {GZIP_CODES} codes); default value-GAME, e.g. value-3x3")
    p.add_argument("-o", "--output", dest="output", metavar="PREFIX", action=_PrefixByO,
                   help="deprecated: the same as --prefix (everywhere else -o names the one file written)")
    p.add_argument("--json", action="store_true", help="machine-readable summary (value_version 1)")
    add_limits(p)
    add_quiet(p)
    p.epilog = "examples:\n" + "\n".join(f"  {e}" for e in EXAMPLES)
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.set_defaults(func=cmd_value)
