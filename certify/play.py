"""Play Mastermind: against a certificate, as the codebreaker against the computer, or watch.

``play_tree``: you keep a secret, the (verified) certificate's tree guesses, you answer
black,white (numbers only, so that no letter of the notation reads as a colour);
``u`` takes an answer back, ``?`` helps, ``q`` quits; answers that no secret satisfies together
are caught, the contradicting ones shown, and given your secret the wrong answer is named.
``codemaker``: the computer keeps a secret and scores your guesses (``?``: how many secrets are
still possible; a warning when a guess cannot be the secret; at the end, what a strategy needs
for the same secret). ``auto``: the certificate plays against secrets by itself.
All read lines (a terminal or a pipe) and write plain text; on a terminal, guesses are rows of
pegs in the pictures' palette and answers key pegs (● ○), unless NO_COLOR is set.
"""

from __future__ import annotations

import os
import random

from . import verify
from .consistent import consistent, minimal_conflict, parse_blacks, parse_feedback
from .errors import CertifyError
from .game import ALPHABET, Game
from .letters import ANSWER, ANSWER_MEANS, Names, parse_letters
from .report import game_text
from .text import shown

#: Candidates are listed when at most this many are left.
SHOW = 10
#: Rows on the codemaker's board (default).
ROWS = 12
#: Longest input line read (a code has at most a few dozen characters): beyond, the input is
#: refused rather than read for ever (``play FILE < /dev/zero``).
LINE_MAX = 10_000
#: Largest game whose strategy replay is shown at the end of a codemaker game (5x8 takes ~3 s).
COMPARE_MAX = 40_000
#: Most random games ``play --auto --games N`` plays.
MAX_GAMES = 1_000_000

__all__ = ["SHOW", "ROWS", "LINE_MAX", "Console", "check_code", "secret_for", "strategy_guesses",
           "play_tree", "codemaker", "auto", "parse_letters"]

HOW = ANSWER_MEANS


class _Quit(Exception):
    """The person chose to stop (q, or end of input on a terminal)."""


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def _rgb(hex_color: str) -> str:
    return ";".join(str(int(hex_color[i:i + 2], 16)) for i in (1, 3, 5))


class Console:
    """Lines in, text out, for one game: prompts, the echo of piped input, how codes and answers
    look (letters, coloured pegs, key pegs) and how typed codes are read."""

    def __init__(self, inp, out, colour: bool | None = None, letters: str | None = None) -> None:
        self.inp, self.out = inp, out
        self.terminal = _isatty(out)
        self.colour = (self.terminal and not os.environ.get("NO_COLOR")) if colour is None else colour
        self.letters = letters
        self.names = Names(letters, len(letters) if letters else len(ALPHABET))

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str) -> str | None:
        """One line (stripped), None at end of input. Piped input is echoed so the transcript reads
        like a terminal session. A line longer than LINE_MAX is refused, not read for ever."""
        try:
            self.out.write(prompt)
            self.out.flush()
            line = self.inp.readline(LINE_MAX + 1)
        except KeyboardInterrupt:  # Ctrl-C at the prompt: end the prompt's line, then leave
            self.out.write("\n")
            self.out.flush()
            raise
        if len(line) > LINE_MAX and not line.endswith("\n"):
            self.out.write("\n")
            raise CertifyError(f"input line longer than {LINE_MAX:,} characters")
        if not line:
            self.out.write("\n")
            self.out.flush()
            return None
        if not _isatty(self.inp):
            self.out.write(line if line.endswith("\n") else line + "\n")
        return line.strip()

    # -- how codes look and are typed ------------------------------------------------------

    def name(self, code: str) -> str:
        """A code as the person writes it: digits, or letters with --letters."""
        return self.names.name(code)

    def code(self, code: str) -> str:
        """A code as shown: its name, after a row of pegs in the pictures' colours on a terminal."""
        if not self.colour:
            return self.name(code)
        from .render import palette, text_color

        colours = palette(self.letters)  # with --letters, the colours the letters name
        pegs = "".join(f"\x1b[{'30' if text_color(colours[k]) == 'black' else '97'};48;2;{_rgb(colours[k])}m"
                       f" {self.name(ch)} \x1b[0m" for k, ch in ((ALPHABET.index(ch), ch) for ch in code))
        return f"{pegs} {self.name(code)}"

    def keys(self, black: int, white: int) -> str:
        """Key pegs as in the pictures (● black, ○ white) on a terminal; '' in a pipe."""
        if not self.terminal:
            return ""
        pegs = "●" * black + "○" * white or "none"
        return f"  \x1b[30;48;2;242;242;242m {pegs} \x1b[0m" if self.colour else f"  {pegs}"

    def read_code(self, text: str, game: Game) -> str:
        """The code typed (digits, or --letters), in the game's digits; CertifyError if it is none."""
        if self.letters:  # "R G B Y" as "RGBY"; the checks name the code as typed
            return check_code(Names(self.letters, game.colors).read(text, game.pegs, game.repetition, str(game)),
                              game, shown_as=text.strip())
        return check_code(text, game)

    def palette(self, game: Game) -> str:
        colours = [self.name(ALPHABET[k]) for k in range(game.colors)]
        return f"{colours[0]}..{colours[-1]}" if not self.letters else " ".join(colours)


def _colours(game: Game, con: Console) -> str:
    rep = "repeats allowed" if game.repetition else "no colour repeated"
    return f"{game.pegs} pegs, colours {con.palette(game)}, {rep}"


# -- the certificate guesses -------------------------------------------------------------

TREE_HELP = (f"answer each guess with {ANSWER}, two numbers (2,1 or 2 1 or 21); u takes the last "
             "answer back; q quits; ? shows this help")
#: Black-peg games (a certificate whose game is "feedback": "black-only"): the answer is one number.
BLACK_HELP = ("answer each guess with the number of black pegs (the pegs of the right colour in the right "
              "place), one number; u takes the last answer back; q quits; ? shows this help")


def _answer_text(game: Game, pair) -> str:
    """An answer (black, white) as the game writes it: "2,1", or "2" in a black-peg game."""
    return verify.key_text(pair, game.black_only)


def play_tree(cert: dict, inp, out, colour: bool | None = None, letters: str | None = None) -> int:
    """Play a verified certificate's guesses against the person's secret.

    Returns 0 when the secret is found (or the person quits), 1 when the answers contradict each
    other. Raises CertifyError when piped input ends before the game does.
    """
    g = cert["game"]
    game = Game(g["pegs"], g["colors"], g["repetition"], g.get("feedback", "black-white"))
    con = Console(inp, out, colour, letters)
    say = con.say
    say(f"{shown(cert['strategy']['name'], 80)} on {game_text(g)}: verified, finds any secret in at most "
        f"{_plural(cert['claims']['max_guesses'], 'guess', 'guesses')}.")
    if game.black_only:
        say(f"Think of a secret ({_colours(game, con)}) and answer each guess with the number of black pegs.")
    else:
        say(f"Think of a secret ({_colours(game, con)}) and answer each guess with {ANSWER}:")
    say(f"{'black = pegs of the right colour in the right place' if game.black_only else HOW}. Type ? for help.")
    nodes = [cert["tree"]]
    answers: list[tuple[int, int]] = []
    stages = [None]  # candidates after each answer (None: every code)
    try:
        while True:
            n = len(answers) + 1
            guess = nodes[-1]["guess"]
            index = game.parse(guess)
            line = _answer(con, game, guess, index, n, stages[-1])
            if line == "u":
                if answers:
                    answers.pop(), nodes.pop(), stages.pop()
                    say(f"  answer {n - 1} taken back")
                else:
                    say("  nothing to take back")
                continue
            black, white, fb = line
            answers.append((index, fb))
            candidates = consistent(game, [(index, fb)], stages[-1])
            if not len(candidates):
                if _contradiction(con, game, answers):
                    answers.pop()
                    say(f"  answer {n} taken back")
                    continue
                return 1
            if fb == game.win:
                say(f"found {con.name(guess)} in {_plural(n, 'guess', 'guesses')}")
                return 0
            left = f"  {_plural(len(candidates), 'candidate')} left"
            if len(candidates) <= SHOW:
                left += ": " + " ".join(con.name(c) for c in game.texts(candidates))
            say(left)
            child = nodes[-1].get("next", {}).get(game.key_text(fb))
            if child is None:  # a verified tree has a branch for every answer some secret gives
                say(f"The certificate has no branch for {game.key_text(fb)} after {con.name(guess)}.")
                return 1
            nodes.append(child)
            stages.append(candidates)
    except _Quit:
        say("you left the game")
        return 0


def _answer(con: Console, game: Game, guess: str, index: int, n: int, candidates):
    """'u', or (black, white, encoded) of a valid answer to ``guess``; asks again until one comes."""
    possible = None
    while True:
        line = con.ask(f"guess {n}: {con.code(guess)}  answer? ")
        if line is None:
            if _isatty(con.inp):
                raise _Quit
            raise CertifyError(f"input ended before the game was over "
                               f"({_plural(n - 1, 'answer')} given, guess {n} unanswered)")
        command = line.lower()
        if command in ("q", "quit"):
            raise _Quit
        if command in ("?", "h", "help"):
            con.say(f"  {BLACK_HELP if game.black_only else TREE_HELP}")
            if not game.black_only:
                con.say(f"  {HOW}")
            continue
        if command in ("u", "undo"):
            return "u"
        try:
            black, white = (parse_blacks if game.black_only else parse_feedback)(line, game.pegs)
            fb = game.encode(black, white)
            if possible is None:  # the answers any code of the game could give
                possible = set(game.feedback([index], consistent(game, ()))[0].tolist())
            if fb not in possible:
                raise CertifyError(f"{game.key_text(fb)} is impossible for {con.name(guess)}: "
                                   f"no code of {game} gets that answer")
            return black, white, fb
        except CertifyError as e:
            con.say(f"  {e}; try again")


def _contradiction(con: Console, game: Game, answers) -> bool:
    """Show the contradicting answers; ask for the secret and name the wrong answers.
    True when the person takes the last answer back instead."""
    say = con.say
    say("No secret gives all these answers: one of them must be wrong.")
    say("These answers contradict each other (drop any one of them and some secret fits):")
    for i in minimal_conflict(game, answers):
        say(f"  guess {i + 1}: {con.name(game.text(answers[i][0]))}  {game.key_text(answers[i][1])}")
    while True:
        line = con.ask("Type your secret to see which answer was wrong, u to take the last answer "
                       "back, or Enter to leave: ")
        if not line:
            return False
        if line.lower() in ("u", "undo"):
            return True
        if line.lower() in ("q", "quit"):
            return False
        try:
            secret = con.read_code(line, game)
            break
        except CertifyError as e:
            say(f"  {e}; try again")
    for i, (guess, fb) in enumerate(answers):
        text = game.text(guess)
        given = game.decode(fb)
        true = verify.blacks(text, secret) if game.black_only else verify.feedback(text, secret)
        if given != true:
            say(f"  guess {i + 1}: {con.name(text)}  you answered {_answer_text(game, given)}; "
                f"for {con.name(secret)} it is {_answer_text(game, true)}")
    return False


# -- the computer keeps the secret ---------------------------------------------------------

def check_code(text: str, game: Game, shown_as: str | None = None) -> str:
    """The code ``text`` (lower case) if it is one of the game's; CertifyError saying why not.
    Unlike Game.parse this never enumerates the game."""
    code = "".join(text.split()).lower()  # "0 0 1 1" as "0011", as answers take "2, 0"
    name = shown(shown_as if shown_as is not None else text.strip(), 40)
    if len(code) != game.pegs:
        raise CertifyError(f"{name!r} is not a code of {game}: it needs {game.pegs} pegs, "
                           f"not {len(code)}")
    letters = ALPHABET[:game.colors]
    bad = [ch for ch in code if ch not in letters]
    if bad:
        raise CertifyError(f"{name!r} is not a code of {game}: colour {shown(bad[0])!r} is not one "
                           f"of {letters[0]}..{letters[-1]}")
    if not game.repetition and len(set(code)) != len(code):
        raise CertifyError(f"{name!r} is not a code of {game}: a colour is repeated")
    return code


def secret_for(game: Game, seed=None) -> str:
    """The codemaker's secret, drawn with ``random.Random(seed)``."""
    rng = random.Random(seed)
    if game.repetition:
        picked = [rng.randrange(game.colors) for _ in range(game.pegs)]
    else:
        picked = rng.sample(range(game.colors), game.pegs)
    return "".join(ALPHABET[k] for k in picked)


def _score(game: Game):
    """The game's answer to a guess as (black, white): white is 0 under the black-only rule."""
    return verify.blacks if game.black_only else verify.feedback


def strategy_guesses(game: Game, strategy_id: str, secret: str) -> list[str]:
    """The guesses a strategy plays until it finds ``secret`` (its own rule, step by step)."""
    from .strategies import get_strategy

    strategy = get_strategy(strategy_id)(game)
    candidates = consistent(game, ())
    history: tuple = ()
    out = []
    while True:
        guess = int(strategy.choose(candidates, history))
        text = game.text(guess)
        out.append(text)
        if text == secret:
            return out
        b, w = _score(game)(text, secret)
        fb = game.encode(b, w)
        history += ((guess, fb),)
        candidates = consistent(game, [(guess, fb)], candidates)


CODEMAKER_HELP = ("type a code to guess; ? shows this help and how many secrets are still "
                  "possible; q quits (the secret stays hidden); ! gives up and shows the secret")


def codemaker(game: Game, inp, out, seed=None, rows: int = ROWS, colour: bool | None = None,
              letters: str | None = None, strategy: str | None = "knuth") -> int:
    """Score the person's guesses against a random secret. 0 when found (or the person quits),
    1 when the rows run out or the person gives up (the secret is shown then); CertifyError when
    piped input ends first (the secret is not shown)."""
    game.check_size()  # the same limit as everywhere: the secret's game must be one we can check
    if strategy and strategy != "none":  # a strategy that cannot play this game fails now, not at the end
        from .strategies import get_strategy

        get_strategy(strategy)(game)
    con = Console(inp, out, colour, letters)
    say = con.say
    secret = secret_for(game, seed)
    say(f"I have picked a secret ({_colours(game, con)}). You have {_plural(rows, 'guess', 'guesses')}.")
    if game.black_only:
        say("Each guess is scored with black pegs only: black = pegs of the right colour in the right place. "
            "Type ? for help.")
    else:
        say(f"Each guess is scored {ANSWER}: {HOW}. Type ? for help.")
    score = _score(game)
    scored: list[tuple[str, tuple[int, int]]] = []
    try:
        for n in range(1, rows + 1):
            guess = _guess(con, game, n, scored, secret)
            if guess is None:  # gave up
                say(f"the secret was {con.name(secret)}")
                _compare(con, game, strategy, secret, None)
                return 1
            contradicted = [(i, g, fb) for i, (g, fb) in enumerate(scored, 1)
                            if score(g, guess) != fb]
            black, white = score(guess, secret)
            say(f"  {n:>2}. {con.code(guess)}  {verify.key_text((black, white), game.black_only)}"
                f"{con.keys(black, white)}")
            if contradicted:
                i, g, fb = contradicted[0]
                would = score(g, guess)
                say(f"      note: {con.name(guess)} could not be the secret: row {i} ({con.name(g)}) "
                    f"scored {verify.key_text(fb, game.black_only)}, and for {con.name(guess)} it would be "
                    f"{verify.key_text(would, game.black_only)}")
            scored.append((guess, (black, white)))
            if black == game.pegs:
                say(f"you found {con.name(secret)} in {_plural(n, 'guess', 'guesses')}")
                _compare(con, game, strategy, secret, n)
                return 0
    except _Quit:
        say("you left the game; the secret stays hidden")
        return 0
    say(f"no guesses left: the secret was {con.name(secret)}")
    _compare(con, game, strategy, secret, None)
    return 1


def _guess(con: Console, game: Game, n: int, scored, secret: str) -> str | None:
    """The next guess typed (None: the person gives up); handles ?, q and mistakes."""
    while True:
        line = con.ask(f"guess {n}? ")
        if line is None:
            if _isatty(con.inp):
                raise _Quit
            raise CertifyError("input ended before the game was over")
        command = line.lower()
        if command in ("q", "quit"):
            raise _Quit
        if command == "!":
            return None
        if command in ("?", "h", "help"):
            con.say(f"  {CODEMAKER_HELP}")
            answers = [(game.parse(g), game.encode(*fb)) for g, fb in scored]
            left = consistent(game, answers)
            text = f"  {_plural(len(left), 'secret')} still possible"
            if len(left) <= SHOW:
                text += ": " + " ".join(con.name(c) for c in game.texts(left))
            con.say(text)
            continue
        try:
            return con.read_code(line, game)
        except CertifyError as e:
            con.say(f"  {e}; try again")


def _compare(con: Console, game: Game, strategy: str | None, secret: str, yours: int | None) -> None:
    """How many guesses ``strategy`` needs for the same secret."""
    if not strategy or strategy == "none":
        return
    if game.size > COMPARE_MAX:
        con.say(f"({strategy}'s own game is replayed only up to {COMPARE_MAX:,} codes; this one has "
                f"{game.size:,})")
        return
    guesses = strategy_guesses(game, strategy, secret)
    you = f" (you: {yours})" if yours is not None else ""
    con.say(f"{strategy} finds {con.name(secret)} in {_plural(len(guesses), 'guess', 'guesses')}{you}: "
            + " ".join(con.name(g) for g in guesses))


# -- the certificate against itself ----------------------------------------------------------

def _tree_game(cert: dict, secret: str) -> list[tuple[str, tuple[int, int]]]:
    node, out = cert["tree"], []
    pegs = cert["game"]["pegs"]
    black_only = cert["game"].get("feedback") == "black-only"
    while True:
        fb = verify.blacks(node["guess"], secret) if black_only else verify.feedback(node["guess"], secret)
        out.append((node["guess"], fb))
        if fb == (pegs, 0):
            return out
        node = node["next"][verify.key_text(fb, black_only)]


def auto(cert: dict, out, secret: str | None = None, games: int | None = None, seed=None,
         colour: bool | None = None, letters: str | None = None) -> dict:
    """The certificate plays by itself: one game (``secret``, or a random one) shown row by row,
    or ``games`` random games summed up in a table of guesses needed. Returns the figures."""
    g = cert["game"]
    game = Game(g["pegs"], g["colors"], g["repetition"], g.get("feedback", "black-white"))
    con = Console(None, out, colour, letters)
    name = shown(cert["strategy"]["name"], 80)
    codes = verify.codes(g["pegs"], g["colors"], g["repetition"])
    if seed is None:  # drawn, then shown, so that any run can be replayed with --seed
        seed = random.SystemRandom().randrange(1_000_000)
    rng = random.Random(seed)
    if games is None:
        given = secret is not None
        secret = con.read_code(secret, game) if given else rng.choice(codes)
        rows = _tree_game(cert, secret)
        drawn = "" if given else f" (drawn with --seed {seed})"
        con.say(f"{name} on {game_text(g)} plays against the secret {con.name(secret)}{drawn}:")
        for n, (guess, (b, w)) in enumerate(rows, 1):
            con.say(f"  {n:>2}. {con.code(guess)}  {_answer_text(game, (b, w))}{con.keys(b, w)}")
        con.say(f"found {con.name(secret)} in {_plural(len(rows), 'guess', 'guesses')}")
        return {"secret": secret, "guesses": [r[0] for r in rows]}
    if not 1 <= games <= MAX_GAMES:
        raise CertifyError(f"--games {games}: choose 1 to {MAX_GAMES:,}")
    counts: dict[int, int] = {}
    for _ in range(games):
        k = len(_tree_game(cert, rng.choice(codes)))
        counts[k] = counts.get(k, 0) + 1
    total = sum(k * v for k, v in counts.items())
    con.say(f"{name} on {game_text(g)}: {_plural(games, 'random game')} (--seed {seed})")
    con.say(f"{'guesses':>7}  {'games':>7}  {'%':>6}")
    for k in sorted(counts):
        con.say(f"{k:>7}  {counts[k]:>7}  {100 * counts[k] / games:>6.2f}")
    con.say(f"mean {total / games:.3f} guesses, max {max(counts)}")
    return {"games": games, "histogram": {str(k): counts[k] for k in sorted(counts)}}
