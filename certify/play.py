"""Play Mastermind against a certificate, or against the computer as codemaker.

``play_tree``: you keep a secret, the (verified) certificate's tree guesses, you answer
B,W; every answer narrows the candidates, and answers that no secret can satisfy together
are caught and the contradicting ones shown. ``codemaker``: the computer keeps a secret
and scores your guesses. Both read lines (a terminal or a pipe) and write plain text;
guesses are drawn as coloured pegs only when the output is a terminal.
"""

from __future__ import annotations

import random

from . import verify
from .consistent import consistent, minimal_conflict, parse_feedback
from .errors import CertifyError
from .game import ALPHABET, Game
from .report import game_text
from .text import shown

#: Candidates are listed when at most this many are left.
SHOW = 10
#: Rows on the codemaker's board.
ROWS = 12
#: Longest input line read (a code has at most a few dozen characters): beyond, the input is
#: refused rather than read for ever (``play FILE < /dev/zero``).
LINE_MAX = 10_000

__all__ = ["SHOW", "ROWS", "pegs_text", "check_code", "secret_for", "play_tree", "codemaker"]

# ANSI background (and a readable foreground) for the first 16 colours; 256-colour beyond.
_BG = ["41", "42", "44", "43", "45", "46", "47", "100",
       "101", "102", "104", "103", "105", "106", "107", "40"]
_DARK = {"41", "44", "45", "100", "40"}


def _sgr(k: int) -> str:
    if k < len(_BG):
        bg = _BG[k]
        return f"{'97' if bg in _DARK else '30'};{bg}"
    return f"30;48;5;{17 + (k - len(_BG)) * 11}"


def pegs_text(code: str, colour: bool) -> str:
    """``code`` as it is, or (colour) as a row of ANSI-coloured pegs followed by the code."""
    if not colour:
        return code
    pegs = "".join(f"\x1b[{_sgr(ALPHABET.index(ch))}m {ch} \x1b[0m" for ch in code)
    return f"{pegs} {code}"


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _ask(prompt: str, inp, out) -> str | None:
    """One line from ``inp`` (None at end of input). Piped input is echoed so the
    transcript reads like a terminal session."""
    out.write(prompt)
    out.flush()
    line = inp.readline(LINE_MAX + 1)
    if len(line) > LINE_MAX and not line.endswith("\n"):
        out.write("\n")
        raise CertifyError(f"input line longer than {LINE_MAX:,} characters")
    if not line:
        out.write("\n")
        out.flush()
        return None
    if not _isatty(inp):
        out.write(line if line.endswith("\n") else line + "\n")
    return line.strip()


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def _colours(game: Game) -> str:
    rep = "repeats allowed" if game.repetition else "no colour repeated"
    return f"{game.pegs} pegs, colours {ALPHABET[0]}..{ALPHABET[game.colors - 1]}, {rep}"


HOW = "B = pegs of the right colour in the right place, W = right colour in the wrong place"


# -- the certificate guesses -------------------------------------------------------------

def play_tree(cert: dict, inp, out, colour: bool | None = None) -> int:
    """Play a verified certificate's guesses against the person's secret.

    Returns 0 when the secret is found, 1 when the answers contradict each other.
    Raises CertifyError when the input ends before the game does.
    """
    g = cert["game"]
    game = Game(g["pegs"], g["colors"], g["repetition"])
    colour = _isatty(out) if colour is None else colour

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    say(f"{shown(cert['strategy']['name'], 80)} on {game_text(g)}: verified, finds any secret in at most "
        f"{_plural(cert['claims']['max_guesses'], 'guess', 'guesses')}.")
    say(f"Think of a secret ({_colours(game)}) and answer each guess with B,W:")
    say(f"{HOW}.")
    node = cert["tree"]
    candidates = None
    answers: list[tuple[int, int]] = []
    while True:
        n = len(answers) + 1
        guess = node["guess"]
        index = game.parse(guess)
        possible = None
        while True:
            line = _ask(f"guess {n}: {pegs_text(guess, colour)}  answer? ", inp, out)
            if line is None:
                raise CertifyError(f"input ended before the game was over "
                                   f"({_plural(n - 1, 'answer')} given, guess {n} unanswered)")
            try:
                black, white = parse_feedback(line, game.pegs)
                fb = game.encode(black, white)
                if possible is None:  # the answers any code of the game could give
                    possible = set(game.feedback([index], consistent(game, ()))[0].tolist())
                if fb not in possible:
                    raise CertifyError(f"{black},{white} is impossible for {guess}: "
                                       f"no code of {game} gets that answer")
                break
            except CertifyError as e:
                say(f"  {e}; try again")
        answers.append((index, fb))
        candidates = consistent(game, [(index, fb)], candidates)
        if not len(candidates):
            say("No secret gives all these answers: one of them must be wrong.")
            say("These answers contradict each other (drop any one of them and some secret fits):")
            for i in minimal_conflict(game, answers):
                b, w = game.decode(answers[i][1])
                say(f"  guess {i + 1}: {game.text(answers[i][0])}  {b},{w}")
            return 1
        if fb == game.win:
            say(f"found {guess} in {_plural(n, 'guess', 'guesses')}")
            return 0
        left = f"  {_plural(len(candidates), 'candidate')} left"
        if len(candidates) <= SHOW:
            left += ": " + " ".join(game.texts(candidates))
        say(left)
        node = node.get("next", {}).get(f"{black},{white}")
        if node is None:  # a verified tree has a branch for every answer some secret gives
            say(f"The certificate has no branch for {black},{white} after {guess}.")
            return 1


# -- the computer keeps the secret ---------------------------------------------------------

def check_code(text: str, game: Game) -> str:
    """The code ``text`` (lower case) if it is one of the game's; CertifyError saying why not.
    Unlike Game.parse this never enumerates the game, so any size can be played."""
    code = text.strip().lower()
    if len(code) != game.pegs:
        raise CertifyError(f"{text.strip()!r} is not a code of {game}: it needs {game.pegs} pegs, "
                           f"not {len(code)}")
    letters = ALPHABET[:game.colors]
    bad = [ch for ch in code if ch not in letters]
    if bad:
        raise CertifyError(f"{text.strip()!r} is not a code of {game}: colour {bad[0]!r} is not one "
                           f"of {letters[0]}..{letters[-1]}")
    if not game.repetition and len(set(code)) != len(code):
        raise CertifyError(f"{text.strip()!r} is not a code of {game}: a colour is repeated")
    return code


def secret_for(game: Game, seed=None) -> str:
    """The codemaker's secret, drawn with ``random.Random(seed)``."""
    rng = random.Random(seed)
    if game.repetition:
        picked = [rng.randrange(game.colors) for _ in range(game.pegs)]
    else:
        picked = rng.sample(range(game.colors), game.pegs)
    return "".join(ALPHABET[k] for k in picked)


def codemaker(game: Game, inp, out, seed=None, rows: int = ROWS, colour: bool | None = None) -> int:
    """Score the person's guesses against a random secret. 0 when found, 1 when the rows
    run out (the secret is revealed); CertifyError when the input ends first."""
    game.check_size()  # the same limit as everywhere: the secret's game must be one we can check
    colour = _isatty(out) if colour is None else colour
    secret = secret_for(game, seed)

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    say(f"I have picked a secret ({_colours(game)}). You have {_plural(rows, 'guess', 'guesses')}.")
    say(f"Each guess is scored B,W: {HOW}.")
    for n in range(1, rows + 1):
        while True:
            line = _ask(f"guess {n}? ", inp, out)
            if line is None:
                raise CertifyError(f"input ended before the game was over (the secret was {secret})")
            try:
                guess = check_code(line, game)
                break
            except CertifyError as e:
                say(f"  {e}; try again")
        black, white = verify.feedback(guess, secret)
        say(f"  {n:>2}. {pegs_text(guess, colour)}  {black},{white}")
        if black == game.pegs:
            say(f"you found {secret} in {_plural(n, 'guess', 'guesses')}")
            return 0
    say(f"no guesses left: the secret was {secret}")
    return 1
