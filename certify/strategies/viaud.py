"""Viaud 1987: find which colours occur and how often, then locate them, by dichotomic subset search.

D. Viaud, "Une strategie generale pour jouer au Master-Mind", RAIRO Recherche operationnelle
21(1), 1987, 87-100. The paper's colours 1..m are our 0..m-1; its colour m is ``m - 1`` here.

The paper's procedure is written once, as a generator (:func:`script`) that yields each guess
and is sent its feedback. The policy replays it along the history that led to a node, so the
internal state (what is known) is a pure function of the history. When one candidate is left
it is played at once (possibly before the script would have shown it).

Where the paper leaves a choice, or one of its guesses would only repeat what is known:

- V.a: the code "n q + 1, ..., m, m, ..., m" is skipped when it holds no colour but m
  (m = n q or n q + 1), since it would repeat the code "m, ..., m".
- V.a: counts are asked (code "i, ..., i") only for present colours whose count is not known:
  colour m's count is known from the first guess (the paper's own count t' - 1 for m <= n).
- Section IV: a set of 2^v elements is split in halves, any other in 2^v (largest power
  of two below its size) + the rest; the first part is searched first. Colour sets are
  searched in the order their counts were asked.
- V.b: colours are located by decreasing count, ties by colour; the filler (a colour known
  to be absent) is the lowest absent colour.
- V.b, t = m (no absent colour): the codes s_k (colour 2 at k, colour 1 elsewhere, for the two
  most frequent colours) are played for k = 1..n, except where the counts already force the
  colour class of position k (always so for the last position). The paper's "n-1 / n+1 / n"
  black pegs read n1 - 1, n1 + 1, n1 (a misprint).
- Section IV.a: |S n S'| = pn + pb - min(n0, n - q) (the paper prints inf(n0, n0 - q)).

Without repetition the paper's guesses (constant codes, a filler colour) are not legal codes,
and its dichotomic search needs them: the strategy refuses such games.
"""

from __future__ import annotations

from ..errors import CertifyError
from .base import Strategy

__all__ = ["Viaud", "play", "script", "subset_search"]


def _split(size: int) -> int:
    """Section IV: 2^(v-1) if size = 2^v, else 2^v where size = 2^v + r, 0 < r < 2^v."""
    return 1 << ((size - 1).bit_length() - 1)


def subset_search(E: list, p: int, ask):
    """Section IV (Proposition IV.1): find S in E with |S| = p, asking |S n S'| for subsets S'.

    ``ask(S')`` is a generator (it yields guesses) returning |S n S'|. Returns S sorted.
    """
    found = []
    stack = [(list(E), p)]
    while stack:
        part, k = stack.pop()
        if k == 0:
            continue
        if k == len(part):
            found += part
            continue
        h = _split(len(part))
        first, rest = part[:h], part[h:]
        x = yield from ask(first)
        stack.append((rest, k - x))
        stack.append((first, x))
    return sorted(found)


def script(n: int, m: int):
    """The paper's procedure for n pegs and m colours, as a generator.

    Yields (phase, code) with phase "colours" (V.a), "places" (V.b) or "show", code a tuple of
    colours; is sent the feedback (black, white) of each guess. The last yield shows the code.
    """
    M = m - 1  # the paper's colour m: its count is asked first, then it pads the colour queries

    def ask_colours(colours):
        # Section IV.a: the colours in front, colour m behind; whites count presence.
        pad = n - len(colours)
        b, w = yield ("colours", tuple(colours) + (M,) * pad)
        return b + w - min(count[M], pad)

    # -- V.a: which colours occur -------------------------------------------------------
    count = {}
    b, _ = yield ("colours", (M,) * n)
    count[M] = b
    q = m // n if m > n else 0  # m = n q + r; for m <= n "le principe est le meme", no blocks
    groups = []  # (colour set, how many of them occur)
    rest = list(range(n * q, M))  # colours n q + 1 .. m - 1 of the paper
    if rest:
        groups.append((rest, (yield from ask_colours(rest))))
    for k in range(q):
        block = list(range(n * k, n * k + n))
        b, w = yield ("colours", tuple(block))
        present = b + w
        if M in block:  # m = n q: colour m sits in the last block, its presence is known
            block.remove(M)
            present -= count[M] > 0
        groups.append((block, present))
    present = [M] if count[M] else []
    for colours, p in groups:
        present += yield from subset_search(colours, p, ask_colours)
    present.sort()

    # how often: "i, i, ..., i" for all unknown counts but the first, found by difference
    unknown = [c for c in present if c not in count]
    for c in unknown[1:]:
        b, _ = yield ("colours", (c,) * n)
        count[c] = b
    if unknown:
        count[unknown[0]] = n - sum(count[c] for c in present if c != unknown[0])

    # -- V.b: where they are ------------------------------------------------------------
    order = sorted(present, key=lambda c: (-count[c], c))  # (V.2): n1 >= n2 >= ... >= nt
    code = [None] * n
    if len(order) < m:
        filler, offset = min(set(range(m)) - set(present)), 0
        to_place = order[:-1]
    else:  # t = m <= n: no absent colour; place the two most frequent with the codes s_k
        one, two = order[0], order[1]
        left = {one: count[one], two: count[two], None: n - count[one] - count[two]}
        for k in range(n):
            possible = [c for c, v in left.items() if v > 0]
            if len(possible) > 1:
                guess = [one] * n
                guess[k] = two
                b, _ = yield ("places", tuple(guess))
                possible = [{-1: one, 1: two, 0: None}[b - count[one]]]
            code[k] = possible[0]
            left[possible[0]] -= 1
        filler, offset = one, count[one]  # colour 1 is absent from the free positions
        to_place = order[2:-1]

    def ask_places(positions):
        # Section IV.b: colour c on S', the filler elsewhere; blacks from the filler are known.
        guess = [filler] * n
        for i in positions:
            guess[i] = colour
        b, _ = yield ("places", tuple(guess))
        return b - offset

    for colour in to_place:
        free = [i for i in range(n) if code[i] is None]
        for i in (yield from subset_search(free, count[colour], ask_places)):
            code[i] = colour
    code = [order[-1] if c is None else c for c in code]
    yield ("show", tuple(code))


def play(n: int, m: int, secret) -> list:
    """The (phase, code) guesses the script plays against ``secret`` (a sequence of colours)."""
    secret = tuple(secret)
    out = []
    gen = script(n, m)
    step = next(gen)
    while True:
        out.append(step)
        guess = step[1]
        if guess == secret:
            return out
        black = sum(a == b for a, b in zip(guess, secret))
        total = sum(min(guess.count(c), secret.count(c)) for c in set(guess))
        step = gen.send((black, total - black))


class Viaud(Strategy):
    id = "viaud"
    description = ("Viaud: find the colours and their counts, then their places, "
                   "by dichotomic subset search (any pegs/colours)")
    reference = ("D. Viaud (1987), Une strategie generale pour jouer au Master-Mind, "
                 "RAIRO Recherche operationnelle 21(1), 87-100")
    accepts_first = False

    def __init__(self, game, first=None):
        super().__init__(game, first)
        if not game.repetition:
            raise CertifyError(f"strategy 'viaud' needs a game with repetition: its guesses repeat "
                               f"colours (Viaud 1987, V), which {game} forbids")
        if game.black_only:
            raise CertifyError("strategy 'viaud' follows Viaud's black-and-white answers: it does not play "
                               f"{game}")

    def pick(self, candidates, history):
        if len(candidates) == 1:
            return int(candidates[0])
        game = self.game
        gen = script(game.pegs, game.colors)
        _, guess = next(gen)
        try:
            for played, fb in history:
                if self._index(guess) != played:
                    raise StopIteration
                _, guess = gen.send(game.decode(fb))
        except StopIteration:
            path = " ".join(f"{game.text(g)} {game.decode(f)}" for g, f in history)
            raise CertifyError(f"viaud: the history {path} leaves the paper's procedure") from None
        return self._index(guess)

    def _index(self, code) -> int:
        value = 0
        for c in code:
            value = value * self.game.colors + c
        return value
