"""Hostile lower-bound files for the checker's resource limits (docs/verifier-limits.md).

Each is a small gzip file that asks the checker for much work or memory per byte:

* ``swaps``: 10,000 codes (4 pegs x 10 colours); the root (bound 0, settled by counting) gives
  guesses children, and every child node (bound 0) lists the colours its guess lacks as
  interchangeable: a valid file whose cost is all in the swap checks;
* ``fanout``: the same game; the root gives every guess a child for each of its classes: 1e8
  secrets in sets waiting to be checked.
* ``sameas``: every child node has same_as entries with distinct permutations, each of which needs a
  P(S) = S check.

    python bench/hostile_bounds.py OUTDIR [--nodes N]     # writes swaps.json.gz, fanout.json.gz, ...
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import sys
from pathlib import Path

ALPHABET = "0123456789"
PEGS, COLORS = 4, 10


def feedback(g: str, s: str):
    black = sum(a == b for a, b in zip(g, s))
    both = sum(min(g.count(c), s.count(c)) for c in set(g))
    return black, both - black


def codes():
    return ["".join(t) for t in itertools.product(ALPHABET[:COLORS], repeat=PEGS)]


def _doc(nodes):
    return {"claims": {"worst_case": 1}, "format": "mastermind-lower-bound-certificate",
            "game": {"colors": COLORS, "pegs": PEGS, "repetition": True}, "nodes": nodes, "version": 1}


def _children(guesses, limit):
    """Root entries for ``guesses``, each class a new node; stops past ``limit`` nodes."""
    every, known = codes(), {}
    entries, made = {}, []  # made: (guess, key) per child node, in node order
    for g in guesses:
        shape = tuple(sorted(g.count(c) for c in set(g)))  # the feedbacks g can give depend on it only
        if shape not in known:
            known[shape] = sorted({"%d,%d" % feedback(g, s) for s in every} - {"%d,0" % PEGS})
        keys = known[shape]
        if len(made) + len(keys) > limit:
            break
        entries[g] = {k: 1 + len(made) + n for n, k in enumerate(keys)}
        made += [(g, k) for k in keys]
    return entries, made


def swaps(limit: int):
    entries, made = _children(codes(), limit)
    nodes = [{"bound": 1, "guesses": entries}]
    for g, _ in made:
        lacking = [c for c in range(COLORS) if ALPHABET[c] not in g]
        nodes.append({"bound": 0, "interchangeable": [lacking]} if len(lacking) > 1 else {"bound": 0})
    return _doc(nodes)


def fanout(limit: int):
    entries, made = _children(codes(), limit)
    return _doc([{"bound": 1, "guesses": entries}] + [{"bound": 0}] * len(made))


def sameas(limit: int):
    """Child nodes with many same_as entries, each with its own permutation of the colours its
    root guess lacks (so it maps the node's set onto itself): a P(S) = S check each."""
    entries, made = _children(codes(), limit)
    every = codes()
    nodes = [{"bound": 1, "guesses": entries}]
    for g, _ in made:
        lacking = [c for c in range(COLORS) if ALPHABET[c] not in g]
        same, used = {}, set()
        for order in itertools.islice(itertools.permutations(lacking), 1, 200):
            tau = list(range(COLORS))
            for c, e in zip(lacking, order):
                tau[c] = e
            for x in every:
                y = "".join(ALPHABET[tau[ALPHABET.index(c)]] for c in x)
                if y != x and x not in used and y not in used:
                    used.update((x, y))
                    same[x] = {"same_as": y, "perm": {"colors": tau, "pegs": list(range(PEGS))}}
                    break
        nodes.append({"bound": 0, "guesses": same})
    return _doc(nodes)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--nodes", type=int, default=10_000)
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, make in (("swaps", swaps), ("fanout", fanout), ("sameas", sameas)):
        raw = gzip.compress(json.dumps(make(args.nodes), separators=(",", ":")).encode(), 9, mtime=0)
        (out / f"{name}.json.gz").write_bytes(raw)
        print(f"{out / name}.json.gz: {len(raw)} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
