"""Colours named by letters (``--letters RGBY``): one mapping for every command that shows or reads
a code (play, hint, consistent, explain, why, the page, the book, the pictures).

A game's own codes are written with its first colours' characters ``0123456789abcdef...``; with
letters, colour k is shown as the k-th letter, and a code typed in letters (either case, spaces
between pegs allowed) is read back to the game's characters. Without letters, nothing changes.

Answers are written black,white ("2,1": two black pegs, one white): numbers only, so that the
notation never reads as a colour (the old "B,W" clashed with B for Blue on the same screen).
"""

from __future__ import annotations

from .errors import CertifyError
from .text import shown

#: The game's own colour characters (as game.ALPHABET and verify.ALPHABET).
GAME_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"

#: How an answer is written, for help lines and prompts.
ANSWER = "black,white"
#: What the two numbers of an answer count (● and ○ are the key pegs of the terminal and pictures).
ANSWER_MEANS = ("black = pegs of the right colour in the right place (\u25cf), "
                "white = the right colour in the wrong place (\u25cb)")

__all__ = ["GAME_ALPHABET", "ANSWER", "ANSWER_MEANS", "parse_letters", "Names", "answer_words"]


def parse_letters(text: str, colors: int) -> str:
    """``--letters RGBYOP``: one distinct ASCII letter or digit per colour (letters past the game's
    colours are dropped, so that they take no colour from render.palette)."""
    letters = text.strip()
    if not letters.isascii() or not letters.isalnum():
        raise CertifyError(f"--letters {shown(letters, 40)!r}: use ASCII letters or digits")
    if len(set(letters.upper())) != len(letters):
        raise CertifyError(f"--letters {letters}: a letter is repeated")
    if len(letters) < colors:
        raise CertifyError(f"--letters {letters}: {len(letters)} letters for {colors} colours")
    return letters[:colors]


def answer_words(black: int, white: int) -> str:
    """"2 black, 1 white": an answer in words, for sentences where "2,1" would read as a list."""
    return f"{black} black, {white} white"


class Names:
    """How the codes of a game of ``colors`` colours are shown and typed: in ``letters`` (one per
    colour, already checked by :func:`parse_letters`) or, without, in the game's own characters."""

    def __init__(self, letters: str | None, colors: int) -> None:
        self.letters = letters[:colors] if letters else None
        self.colors = colors
        own = GAME_ALPHABET[:colors]
        self._out = str.maketrans(own, self.letters) if self.letters else None
        self._upper = self.letters.upper() if self.letters else ""

    def __bool__(self) -> bool:
        return self.letters is not None

    def name(self, code: str) -> str:
        """A code of the game as shown: in the letters, or as it is."""
        return code.translate(self._out) if self._out else code

    def names(self, codes) -> list[str]:
        return [self.name(c) for c in codes]

    def colours(self) -> str:
        """The colours as a list to read: "R G B Y", or "0..3" without letters."""
        if self.letters:
            return " ".join(self.letters)
        return f"{GAME_ALPHABET[0]}..{GAME_ALPHABET[self.colors - 1]}"

    def read(self, text: str, pegs: int | None = None, repetition: bool = True,
             game: str = "the game") -> str:
        """A code as typed, in the game's characters (spaces between pegs dropped). Without letters
        the text is returned for the caller's own check. With letters every character must be one
        of them, and, when ``pegs`` is given, the code must have that many pegs (and no colour twice
        without ``repetition``): CertifyError naming the code as typed and ``game`` otherwise."""
        compact = "".join(text.split())
        if not self.letters:
            return compact
        typed = shown(text.strip(), 40)
        out = []
        for ch in compact:
            k = self._upper.find(ch.upper()) if ch.isascii() and ch.isalnum() else -1
            if k < 0:
                raise CertifyError(f"{typed!r} is not a code of {game}: colour {shown(ch)!r} is not one "
                                   f"of {self.colours()}")
            out.append(GAME_ALPHABET[k])
        code = "".join(out)
        if pegs is not None and len(code) != pegs:
            raise CertifyError(f"{typed!r} is not a code of {game}: it needs {pegs} pegs, not {len(code)}")
        if not repetition and len(set(code)) != len(code):
            raise CertifyError(f"{typed!r} is not a code of {game}: a colour is repeated")
        return code
