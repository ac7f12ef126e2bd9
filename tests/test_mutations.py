"""Mutation testing: random single changes to real certificates, judged by an oracle.

Each committed certificate (and the corpus' small valid ones) gets random single mutations
with a fixed seed: a guess changed (to a random code, to a code that answers every secret
reaching the node exactly as the old guess did, to something that is not a code), a branch
dropped, added or relabelled, two subtrees swapped, a claim altered, and the feedback rule
changed with them (a black-white file relabelled black-only and back, a wrong rule's name, the
tree's keys written in the other rule's form); black-only certificates of small games are mutated
the same way. The oracle, written
here with the builder's numpy ``Game.feedback``, decides whether the mutated certificate is
still right (the mutation kept the meaning); the verifier must accept exactly those, with
the same replayed histogram, and reject all the others.

Mutations never modify a node in place: the nodes on the changed path are copied, so the
original tree's objects stay as they are and the oracle can memoise subtrees by identity.
"""

from __future__ import annotations

import gzip
import json
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from certify import verify
from certify.errors import CertifyError
from certify.game import ALPHABET, FEEDBACK_RULES, Game

ROOT = Path(__file__).resolve().parent.parent
#: The exact search's strategies share one writer and one shape: a few stand for them all here
#: (one plain, one within D, one at_max of each order, one without repetition, one gzipped); the
#: others are verified whole by test_catalog and `make verify`. (Each file costs 2-6 s here.)
SEARCHED_KEPT = {"optimal-total-4x6.json", "optimal-total-4x6-max5.json", "optimal-total-4x6-max5-count.json",
                 "optimal-total-4x6-max5-count-first.json", "optimal-total-4x10-norep.json",
                 "optimal-total-4x8.json.gz", "optimal-total-3x3.json"}
COMMITTED = sorted(p for p in (ROOT / "certificates").iterdir()
                   if p.name.endswith((".json", ".json.gz")) and p.name != "index.json"
                   and (not p.name.startswith("optimal-total-") or p.name in SEARCHED_KEPT))
SMALL = [ROOT / "tests" / "data" / "valid" / n for n in ("knuth-3x3.json", "knuth-2x4.json", "knuth-3x4-norep.json")]
#: Black-only certificates of small games (the oracle replays every mutant whole).
BLACK = [ROOT / "certificates" / "black-peg" / n for n in
         ("optimal-worst-case-3x3-black.json", "optimal-total-2x5-black.json", "optimal-total-3x4-norep-black.json")]
SEED = 20240501


def load(path: Path) -> dict:
    raw = path.read_bytes()
    return json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)


class Oracle:
    """Independent judge built on the builder's Game.feedback; memoises (node, history)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.memo: dict = {}

    def histogram(self, doc: dict) -> dict[str, int] | None:
        """The certificate's histogram if its tree and claims are right, else None (under the rule
        the document states: absent means black-white; a wrong name is wrong)."""
        rule = doc["game"].get("feedback", "black-white")
        if set(doc["game"]) - {"pegs", "colors", "repetition", "feedback"} or rule not in FEEDBACK_RULES:
            return None
        if rule != self.game.feedback_rule:
            g = self.game
            return Oracle(Game(g.pegs, g.colors, g.repetition, rule)).histogram(doc)
        sub = self._node(doc["tree"], np.arange(self.game.size), (), 1)
        if sub is None:
            return None
        hist = {str(k): v for k, v in sorted(sub.items())}
        claims = {"secrets": sum(sub.values()), "max_guesses": max(sub),
                  "total_guesses": sum(k * v for k, v in sub.items()), "histogram": hist}
        return hist if doc["claims"] == claims else None

    def _node(self, node, reach, history, depth):
        """{guesses counted from here: secrets found} for this subtree, or None if it is wrong."""
        key = (id(node), history)
        if key not in self.memo:
            # Keep the node itself in the entry: alive, its id cannot be reused by another object.
            self.memo[key] = (node, self._compute(node, reach, history, depth))
        return self.memo[key][1]

    def _compute(self, node, reach, history, depth):
        game = self.game
        if depth > verify.MAX_DEPTH or type(node) is not dict or set(node) - {"guess", "next"}:
            return None
        guess = node.get("guess")
        try:
            g = game.parse(guess)
        except CertifyError:
            return None
        if game.text(g) != guess:  # the format writes codes in lower case
            return None
        fb = game.feedback([g], reach)[0]
        out = Counter()
        if (fb == game.win).any():
            out[1] += 1
        groups = {}
        for v in np.unique(fb[fb != game.win]).tolist():
            groups[game.key_text(v)] = reach[fb == v]
        if "next" not in node:
            return dict(out) if not groups else None
        nxt = node["next"]
        if type(nxt) is not dict or not nxt or set(nxt) != set(groups):
            return None
        for k, child in nxt.items():
            sub = self._node(child, groups[k], history + ((guess, k),), depth + 1)
            if sub is None:
                return None
            for d, n in sub.items():
                out[d + 1] += n
        return dict(out)


def nodes_of(doc: dict, game: Game):
    """[(path keys, node, reaching secrets)] of the original tree."""
    out = []
    stack = [((), doc["tree"], np.arange(game.size))]
    while stack:
        keys, node, reach = stack.pop()
        out.append((keys, node, reach))
        fb = game.feedback([game.parse(node["guess"])], reach)[0]
        for k, child in node.get("next", {}).items():
            b, w = map(int, k.split(",")) if "," in k else (int(k), 0)
            stack.append((keys + (k,), child, reach[fb == game.encode(b, w)]))
    return out


def with_node(doc: dict, keys: tuple, new) -> dict:
    """A copy of ``doc`` whose node at ``keys`` is ``new`` (only the path is copied)."""
    def rebuild(node, i):
        if i == len(keys):
            return new
        copy = dict(node)
        copy["next"] = dict(node["next"])
        copy["next"][keys[i]] = rebuild(node["next"][keys[i]], i + 1)
        return copy

    out = dict(doc)
    out["tree"] = rebuild(doc["tree"], 0)
    return out



class Mutator:
    def __init__(self, doc: dict, game: Game, rng: random.Random) -> None:
        self.doc, self.game, self.rng = doc, game, rng
        self.nodes = nodes_of(doc, game)
        self.twins = None  # [(keys, node, equivalent guesses)], found on first use
        self.inner = [t for t in self.nodes if "next" in t[1]]
        self.all_keys = ([str(b) for b in range(game.pegs + 1)] if game.black_only else
                         [f"{b},{w}" for b in range(game.pegs + 1) for w in range(game.pegs + 1 - b)])
        self.kinds = [self.equivalent_guess, self.random_guess, self.not_a_code, self.drop_branch,
                      self.add_branch, self.relabel_branch, self.swap_subtrees, self.swap_siblings,
                      self.alter_claim, self.other_rule, self.bad_rule, self.foreign_keys]

    def mutate(self):
        while True:
            kind = self.rng.choice(self.kinds)
            out = kind()
            if out is not None:
                return kind.__name__, out

    def _set_guess(self, keys, node, guess):
        return with_node(self.doc, keys, dict(node, guess=guess))

    def equivalent_guess(self):
        """Another code that answers every reaching secret as the old guess did: this keeps the
        meaning (only a guess no reaching secret equals can have such a twin)."""
        if self.twins is None:
            self.twins = []
            game = self.game
            small = [t for t in self.nodes if len(t[2]) <= 64]
            for keys, node, reach in self.rng.sample(small, min(200, len(small))):
                fb = game.feedback(np.arange(game.size), reach)
                same = np.flatnonzero((fb == fb[game.parse(node["guess"])]).all(axis=1))
                others = [game.text(c) for c in same.tolist() if game.text(c) != node["guess"]]
                if others:
                    self.twins.append((keys, node, others))
        if not self.twins:
            return None
        keys, node, others = self.rng.choice(self.twins)
        return self._set_guess(keys, node, self.rng.choice(others))

    def random_guess(self):
        keys, node, _ = self.rng.choice(self.nodes)
        code = self.game.text(self.rng.randrange(self.game.size))
        return None if code == node["guess"] else self._set_guess(keys, node, code)

    def not_a_code(self):
        keys, node, _ = self.rng.choice(self.nodes)
        g, game = node["guess"], self.game
        outside = ALPHABET[game.colors] if game.colors < len(ALPHABET) else "!"
        options = [g[:-1], g + g[0], g[:-1] + outside, 1234, None, g.upper() + "x"]
        if not game.repetition:
            options.append(g[0] * game.pegs)
        return self._set_guess(keys, node, self.rng.choice(options))

    def drop_branch(self):
        if not self.inner:
            return None
        keys, node, _ = self.rng.choice(self.inner)
        k = self.rng.choice(sorted(node["next"]))
        new = dict(node)
        new["next"] = {kk: v for kk, v in node["next"].items() if kk != k}
        if not new["next"]:
            del new["next"]
        return with_node(self.doc, keys, new)

    def add_branch(self):
        keys, node, _ = self.rng.choice(self.nodes)
        free = [k for k in self.all_keys + [f"{self.game.pegs - 1},1"] if k not in node.get("next", {})]
        new = dict(node)
        new["next"] = dict(node.get("next", {}))
        new["next"][self.rng.choice(free)] = self.rng.choice(self.nodes)[1]
        return with_node(self.doc, keys, new)

    def relabel_branch(self):
        if not self.inner:
            return None
        keys, node, _ = self.rng.choice(self.inner)
        old = self.rng.choice(sorted(node["next"]))
        free = [k for k in self.all_keys if k not in node["next"]]
        new = dict(node)
        new["next"] = {(self.rng.choice(free) if k == old else k): v for k, v in node["next"].items()}
        return with_node(self.doc, keys, new)

    def swap_subtrees(self):
        (ka, a, _), (kb, b, _) = self.rng.sample(self.nodes, 2)
        if ka[: len(kb)] == kb or kb[: len(ka)] == ka:  # one inside the other
            return None
        return with_node(with_node(self.doc, ka, b), kb, a)

    def swap_siblings(self):
        inner = [t for t in self.inner if len(t[1]["next"]) >= 2]
        if not inner:
            return None
        keys, node, _ = self.rng.choice(inner)
        x, y = self.rng.sample(sorted(node["next"]), 2)
        new = dict(node)
        new["next"] = dict(node["next"])
        new["next"][x], new["next"][y] = node["next"][y], node["next"][x]
        return with_node(self.doc, keys, new)

    def _with_game(self, doc: dict, **fields) -> dict:
        game = {k: v for k, v in doc["game"].items() if k != "feedback"}
        game.update(fields)
        return dict(doc, game=game)

    def other_rule(self):
        """The file relabelled under the other rule (the field dropped, or added), alone or with an
        earlier mutation: whether the tree still means something is the oracle's to say."""
        base = self.doc if self.rng.random() < 0.5 else self.mutate_base()
        if self.game.black_only:
            return self._with_game(base, **self.rng.choice([{}, {"feedback": "black-white"}]))
        return self._with_game(base, feedback="black-only")

    def bad_rule(self):
        """A rule the checkers do not know, or not a string."""
        name = self.rng.choice(["black_only", "Black-only", "black-only ", "black", "white-only", "", 1, None,
                                ["black-only"]])
        return self._with_game(self.doc, feedback=name)

    def foreign_keys(self):
        """Every key of one node written in the other rule's form ("2" <-> "2,0"), the rule kept, or
        the rule changed to match."""
        if not self.inner:
            return None
        keys, node, _ = self.rng.choice(self.inner)
        other = (lambda k: k + ",0") if self.game.black_only else (lambda k: k.split(",")[0])
        new = dict(node, next={other(k): v for k, v in node["next"].items()})  # (keys may merge)
        out = with_node(self.doc, keys, new)
        if self.rng.random() < 0.3:
            out = self._with_game(out, **({} if self.game.black_only else {"feedback": "black-only"}))
        return out

    def mutate_base(self):
        """A mutant of the tree or claims (no rule change), for other_rule to compose with."""
        kinds = self.kinds[:9]
        while True:
            out = self.rng.choice(kinds)()
            if out is not None:
                return out

    def alter_claim(self):
        claims = json.loads(json.dumps(self.doc["claims"]))
        field = self.rng.choice(["secrets", "max_guesses", "total_guesses", "histogram"])
        delta = self.rng.choice([-2, -1, 1, 2])
        if field == "histogram":
            hist = claims["histogram"]
            k = self.rng.choice(sorted(hist) + [str(int(max(hist, key=int)) + 1)])
            value = hist.get(k, 0) + delta
            if value > 0:
                hist[k] = value
            else:
                hist.pop(k, None)
        else:
            claims[field] = max(0, claims[field] + delta)
        if claims == self.doc["claims"]:
            return None
        out = dict(self.doc)
        out["claims"] = claims
        return out


def mutation_counts(path: Path, n: int):
    doc = load(path)
    game = Game(doc["game"]["pegs"], doc["game"]["colors"], doc["game"]["repetition"],
                doc["game"].get("feedback", "black-white"))
    oracle = Oracle(game)
    assert oracle.histogram(doc) == doc["claims"]["histogram"]  # the oracle accepts the original
    mutator = Mutator(doc, game, random.Random(f"{SEED}:{path.name}"))
    counts = Counter()
    made = Counter()
    for i in range(n):
        kind, mutant = mutator.mutate()
        made[kind] += 1
        expected = oracle.histogram(mutant)
        report = verify.verify_document(mutant, verify.Report(f"{path.name} mutant {i} ({kind})"))
        assert report.valid == (expected is not None), (report, kind)
        if expected is not None:
            assert report.replayed["histogram"] == expected
            counts[f"accepted {kind}"] += 1
        else:
            assert report.status == verify.EXIT_INVALID and report.error
            counts["rejected"] += 1
    # Mutations never touched the original.
    assert verify.verify_document(doc, verify.Report(path.name)).valid
    # The kinds of change this certificate allows (a twin guess needs a node whose reaching
    # secrets some other code splits alike), and how often each was made.
    possible = {k.__name__ for k in mutator.kinds} - (set() if mutator.twins else {"equivalent_guess"})
    return counts, made, possible


def _n_mutations(path: Path) -> int:
    """Each mutant is verified whole: 60 (150 until the suite had to fit in ten minutes) make every
    kind of change a few times on each 4x6 certificate (asserted below); Knuth's 4x6 tree, the one
    whose meaning-keeping changes are asserted, keeps 150; bigger games fewer: about 100,000
    secrets replayed per certificate (200,000 until 2026-11-29; 4x7 41 mutants, 4x8 24, 4x10
    without repetition 19, 5x8 10), at least 10."""
    if path.name == "knuth-4x6.json":
        return 150
    secrets = load(path)["claims"]["secrets"]
    return max(10, min(60, 100_000 // secrets))


@pytest.mark.parametrize("path", COMMITTED + SMALL + BLACK, ids=[p.name for p in COMMITTED + SMALL + BLACK])
def test_verifier_rejects_exactly_the_mutations_that_change_the_meaning(path):
    n = _n_mutations(path) if path in COMMITTED else 200
    counts, made, possible = mutation_counts(path, n)
    assert sum(counts.values()) == n
    if n >= 60:  # every kind of change this certificate allows was made
        assert set(made) == possible, (sorted(made), sorted(possible))
    assert counts["rejected"] >= n // 2  # nearly every random change breaks a certificate
    if path.name == "knuth-4x6.json":  # the oracle's "keeps the meaning" side is exercised too
        assert counts["accepted equivalent_guess"] >= 1
    print(f"{path.name}: {n} mutations, {counts['rejected']} rejected, "
          f"{n - counts['rejected']} accepted as meaning-preserving {dict(counts)}")


def test_knuth_4x6_is_among_the_mutated_certificates():
    assert ROOT / "certificates" / "knuth-4x6.json" in COMMITTED
