"""The published algorithm, written the straightforward way: the benchmark's baseline.

As in the TIPE study of Mastermind strategies (Arnauld), Knuth's five-guess strategy is
evaluated secret by secret by playing the game: after each answer the candidate list is
filtered, and the next guess is found by scanning all 1296 codes against all candidates
with a pure-Python feedback function (nested loops over lists of tuples; no numpy, no
memoisation, no tree). The study reports 38 minutes for the 1296 secrets of 4x6.

Rule (as ``certify``'s ``knuth``): least worst-case class over all codes, then a
candidate, then the lowest code; first guess 0011 (what the rule picks). Running this on
a sample of secrets and scaling to all 1296 gives the baseline time.

    python bench/naive.py [N_SECRETS]     # prints JSON: guesses per sampled secret, seconds
"""

from __future__ import annotations

import itertools
import json
import sys
import time

PEGS, COLORS = 4, 6
CODES = list(itertools.product(range(COLORS), repeat=PEGS))
FIRST = (0, 0, 1, 1)
WIN = (PEGS, 0)


def feedback(guess, secret):
    black = 0
    for g, s in zip(guess, secret):
        if g == s:
            black += 1
    total = 0
    for colour in range(COLORS):
        total += min(guess.count(colour), secret.count(colour))
    return black, total - black


def next_guess(candidates):
    best, best_key = None, None
    for guess in CODES:
        classes = {}
        for secret in candidates:
            fb = feedback(guess, secret)
            classes[fb] = classes.get(fb, 0) + 1
        key = (max(classes.values()), guess not in candidates)
        if best_key is None or key < best_key:
            best, best_key = guess, key
    return best


def play(secret) -> int:
    """Number of guesses Knuth's strategy needs for this secret."""
    candidates = list(CODES)
    guess = FIRST
    n = 1
    while True:
        fb = feedback(guess, secret)
        if fb == WIN:
            return n
        candidates = [c for c in candidates if feedback(guess, c) == fb]
        guess = candidates[0] if len(candidates) == 1 else next_guess(candidates)
        n += 1


def sample(k: int) -> list[tuple]:
    """k secrets spread evenly over the code list (deterministic)."""
    return [CODES[(i * len(CODES)) // k] for i in range(k)]


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    k = int(argv[0]) if argv else 8
    start = time.perf_counter()
    played = {"".join(map(str, s)): play(s) for s in sample(k)}
    seconds = time.perf_counter() - start
    print(json.dumps({"secrets": played, "seconds": seconds,
                      "extrapolated_seconds": seconds / k * len(CODES)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
