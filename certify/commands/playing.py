"""Commands for playing: ``play`` (either role) and ``consistent``."""

from __future__ import annotations

import sys

from .common import (add_feedback_arg, add_game_args, add_limits, add_quiet, game_of, load_verified, positive,
                     print_json, whole)


def cmd_play(args) -> int:
    from .. import play
    from ..errors import CertifyError
    from ..game import Game
    from ..letters import parse_letters

    # Bytes that are not text (or a terminal that cannot show ●) are a mistake to answer, not a crash.
    for stream in (sys.stdin, sys.stdout):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")
    game_given = args.pegs is not None or args.colors is not None or args.no_repetition
    modes = [m for m, on in (("--codemaker", args.codemaker), ("--auto", args.auto)) if on]
    if len(modes) > 1:
        raise CertifyError("give either --codemaker or --auto, not both")
    if args.codemaker:
        if args.file:
            raise CertifyError("give either a certificate FILE or --codemaker, not both")
        _only(args, "--codemaker", ("secret", "games"))
        game = Game(args.pegs or 4, args.colors or 6, not args.no_repetition, args.feedback)
        letters = parse_letters(args.letters, game.colors) if args.letters else None
        return play.codemaker(game, sys.stdin, sys.stdout, seed=args.seed, rows=args.rows or play.ROWS,
                              letters=letters, strategy=args.strategy or "knuth")
    if not args.file:
        raise CertifyError("give a certificate FILE to play against, or --codemaker")
    if game_given or args.feedback != "black-white":
        raise CertifyError("--pegs, --colors, --no-repetition and --feedback go with --codemaker; "
                           "a certificate sets its own game and rule")
    if args.auto:
        _only(args, "--auto", ("rows", "strategy"))
        if args.secret is not None and (args.games is not None or args.seed is not None):
            raise CertifyError("give either --secret or --games N --seed K, not both")
    else:
        _only(args, "a game against FILE", ("seed", "rows", "strategy", "secret", "games"))
    _, cert = load_verified(args.file, quiet=args.quiet)
    letters = parse_letters(args.letters, cert["game"]["colors"]) if args.letters else None
    if args.auto:
        play.auto(cert, sys.stdout, secret=args.secret, games=args.games, seed=args.seed, letters=letters)
        return 0
    return play.play_tree(cert, sys.stdin, sys.stdout, letters=letters)


#: The play options that belong to one mode (or two).
_MODES = {"seed": "--codemaker or --auto", "rows": "--codemaker", "strategy": "--codemaker",
          "secret": "--auto", "games": "--auto"}


def _only(args, mode: str, names) -> None:
    """Refuse the options ``names`` (given in ``mode``) with the mode they go with."""
    from ..errors import CertifyError

    for name in names:
        if getattr(args, name) is not None:
            raise CertifyError(f"--{name} goes with {_MODES[name]}, not {mode}")


def cmd_consistent(args) -> int:
    from ..consistent import report
    from ..letters import parse_letters

    game = game_of(args)
    letters = parse_letters(args.letters, game.colors) if args.letters else None
    status, lines, doc = report(game, args.answers, args.list, letters)
    if args.json:
        print_json(doc, "consistent")
    else:
        print("\n".join(lines))
    return status


def cmd_hint(args) -> int:
    from .. import hint
    from ..consistent import parse_clue
    from ..errors import CertifyError
    from ..game import Game
    from ..letters import Names, parse_letters

    cert = None
    if args.certificate:
        if args.strategy:
            raise CertifyError("give either --strategy or --certificate, not both")
        _, cert = load_verified(args.certificate, quiet=args.quiet)
        g = cert["game"]
        game = Game(g["pegs"], g["colors"], g["repetition"], g.get("feedback", "black-white"))  # its rule
        given = (args.pegs, args.colors)
        if any(v is not None and v != w for v, w in zip(given, (game.pegs, game.colors))) or (
                args.no_repetition and game.repetition) or (
                args.feedback is not None and args.feedback != game.feedback_rule):
            raise CertifyError(f"the certificate's game is {game}: --pegs, --colors, --no-repetition and "
                               "--feedback must agree with it (or be left out)")
    else:
        game = Game(4 if args.pegs is None else args.pegs, 6 if args.colors is None else args.colors,
                    not args.no_repetition, args.feedback or "black-white")
    game.check_size()
    letters = parse_letters(args.letters, game.colors) if args.letters else None
    answers = [parse_clue(game, c, Names(letters, game.colors)) for c in args.answers]
    table_only = [name for name, on in (("--candidates-only", args.candidates_only),
                                        ("--sort", args.sort), ("--top", args.top), ("--csv", args.csv),
                                        ("--up-to-symmetry", args.up_to_symmetry))
                  if on]
    if args.table:
        if args.json and args.csv:
            raise CertifyError("give either --json or --csv, not both")
        doc = hint.table(game, answers, args.candidates_only, args.sort or "code", args.top,
                         args.up_to_symmetry, letters)
        if args.json:
            print_json(doc)
        elif args.csv:
            sys.stdout.write(hint.table_csv(doc))
        else:
            print("\n".join(hint.table_lines(doc)))
        return 0
    if table_only:
        raise CertifyError(f"{', '.join(table_only)} go{'es' if len(table_only) == 1 else ''} with --table")
    doc = hint.hint(game, answers, args.strategy or "knuth", cert, letters)
    if args.json:
        print_json(doc)
    else:
        print("\n".join(hint.hint_lines(doc)))
    return 0


#: --letters, as play, consistent and hint take it.
LETTERS_HELP = "type and show colours as these letters, one per colour (e.g. RGBY for 0123)"


def register(sub) -> None:
    p = sub.add_parser("play", help="play a certificate's guesses against your secret (or --codemaker, --auto)")
    p.add_argument("file", nargs="?", metavar="FILE", help="certificate whose guesses you answer")
    p.add_argument("--codemaker", action="store_true", help="the computer keeps a secret, you guess")
    p.add_argument("--auto", action="store_true", help="the certificate FILE plays by itself")
    p.add_argument("--pegs", type=positive, help="codemaker: pegs per code (default 4)")
    p.add_argument("--colors", "--colours", type=positive, help="codemaker: colours (default 6)")
    p.add_argument("--no-repetition", action="store_true", help="codemaker: no colour repeated")
    add_feedback_arg(p)
    p.add_argument("--rows", type=positive, metavar="N", help="codemaker: guesses allowed (default 12)")
    p.add_argument("--strategy", metavar="ID",
                   help="codemaker: the strategy whose guesses for your secret are shown at the end "
                        "(default knuth; 'none': not shown; 'optimal': the least-total search's "
                        "guesses, see 'certify hint --help')")
    p.add_argument("--seed", type=whole, help="codemaker, auto: seed of the random secret(s)")
    p.add_argument("--secret", metavar="CODE", help="auto: the secret to play against")
    p.add_argument("--games", type=positive, metavar="N", help="auto: play N random games, show the guesses needed")
    p.add_argument("--letters", metavar="RGBYOP", help=LETTERS_HELP)
    add_limits(p)
    add_quiet(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("consistent", help="the secrets consistent with answers GUESS=black,white")
    add_game_args(p)
    add_feedback_arg(p)
    p.add_argument("answers", nargs="*", metavar="GUESS=black,white",
                   help="a guess and its answer, e.g. 0011=2,1 (2 black pegs, 1 white; with --feedback "
                        "black-only one number, e.g. 0011=2)")
    p.add_argument("--letters", metavar="RGBYOP", help=LETTERS_HELP + "; --json keeps the game's digits")
    p.add_argument("--list", action="store_true", help="list the secrets however many there are")
    p.add_argument("--json", action="store_true", help="machine-readable (consistent_version 1)")
    add_quiet(p)
    p.set_defaults(func=cmd_consistent)

    p = sub.add_parser("hint", help="what a strategy plays next after some rows, and why (--table: weight table)")
    p.add_argument("answers", nargs="*", metavar="GUESS=black,white",
                   help="the rows so far, in order, e.g. 0011=2,1 (2 black pegs, 1 white)")
    p.add_argument("--pegs", type=whole, help="pegs per code (default 4, or the certificate's)")
    p.add_argument("--colors", "--colours", type=whole, help="number of colours (default 6)")
    p.add_argument("--no-repetition", action="store_true", help="codes may not repeat a colour")
    p.add_argument("--feedback", choices=("black-white", "black-only"),
                   help="the answer: black and white pegs (default), or black pegs only (black-peg Mastermind; "
                        "rows then read GUESS=black, e.g. 0011=2); a certificate sets its own")
    p.add_argument("--strategy", metavar="ID",
                   help="the strategy that names the guess (default knuth; see 'certify strategies'). "
                        "'optimal': a guess of least total from here, by exact search: the committed "
                        "least-total tree's (certificates/optimal-total-GAME.json) while the rows follow "
                        "it, else a search of the candidates left when there are few enough (about "
                        "3.2 million candidates x codes: 4x6 any, 4x7 1332, Bulls and Cows 634); "
                        "beyond, an error says so")
    p.add_argument("--certificate", metavar="FILE", help="the verified certificate's guess, when the rows follow it")
    p.add_argument("--table", action="store_true", help="the weight table: class sizes per answer for every code")
    p.add_argument("--candidates-only", action="store_true", help="table: only the codes that can be the secret")
    p.add_argument("--sort", choices=("weight", "code"),
                   help="table: row order (default code); weight: least first, ties broken by "
                        "candidates first, then the lowest code (Knuth's rule)")
    p.add_argument("--up-to-symmetry", action="store_true",
                   help="table: one row per class of codes alike under the peg and colour permutations "
                        "that map the candidates onto themselves (identical rows; at the start of 4x6 "
                        "Knuth's five: 0000 0001 0011 0012 0123), its lowest code, and how many codes "
                        "it stands for")
    p.add_argument("--top", type=positive, metavar="N", help="table: only the first N rows")
    p.add_argument("--csv", action="store_true", help="table as CSV")
    p.add_argument("--letters", metavar="RGBYOP",
                   help=LETTERS_HELP + " (the table and its CSV too; --json keeps the game's digits)")
    p.add_argument("--json", action="store_true", help="machine-readable")
    add_limits(p)
    add_quiet(p)
    p.set_defaults(func=cmd_hint)
