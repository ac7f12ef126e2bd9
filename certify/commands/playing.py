"""Commands for playing: ``play`` (either role) and ``consistent``."""

from __future__ import annotations

import sys

from .common import add_game_args, game_of, load_verified, positive, print_json, whole


def cmd_play(args) -> int:
    from .. import play
    from ..errors import CertifyError

    game_given = args.pegs is not None or args.colors is not None or args.no_repetition
    if args.codemaker:
        if args.file:
            raise CertifyError("give either a certificate FILE or --codemaker, not both")
        from ..game import Game

        game = Game(args.pegs or 4, args.colors or 6, not args.no_repetition)
        return play.codemaker(game, sys.stdin, sys.stdout, seed=args.seed)
    if not args.file:
        raise CertifyError("give a certificate FILE to play against, or --codemaker")
    if game_given or args.seed is not None:
        raise CertifyError("--pegs, --colors, --no-repetition and --seed go with --codemaker; "
                           "a certificate sets its own game")
    _, cert = load_verified(args.file)
    return play.play_tree(cert, sys.stdin, sys.stdout)


def cmd_consistent(args) -> int:
    from ..consistent import report

    status, lines, doc = report(game_of(args), args.answers, args.list)
    if args.json:
        print_json(doc)
    else:
        print("\n".join(lines))
    return status


def register(sub) -> None:
    p = sub.add_parser("play", help="play a certificate's guesses against your secret (or --codemaker)")
    p.add_argument("file", nargs="?", metavar="FILE", help="certificate whose guesses you answer")
    p.add_argument("--codemaker", action="store_true", help="the computer keeps a secret, you guess")
    p.add_argument("--pegs", type=positive, help="codemaker: pegs per code (default 4)")
    p.add_argument("--colors", "--colours", type=positive, help="codemaker: colours (default 6)")
    p.add_argument("--no-repetition", action="store_true", help="codemaker: no colour repeated")
    p.add_argument("--seed", type=whole, help="codemaker: seed of the random secret")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("consistent", help="the secrets consistent with answers GUESS=B,W")
    add_game_args(p)
    p.add_argument("answers", nargs="*", metavar="GUESS=B,W", help="a guess and its answer")
    p.add_argument("--list", action="store_true", help="list the secrets however many there are")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_consistent)
