"""Adversarial mutants of valid lower-bound proofs, judged by the exhaustive oracle.

The lower-bound checker (certify/verify_bound.py) lets a proof take shortcuts: ``same_as`` entries,
``interchangeable`` colours (only the lowest code of each orbit is refuted), references through
permutations into shared nodes, ``max_guesses`` (nodes past the limit hold whatever their bound),
counting. Each rule is sound alone; this generator attacks them *together*. A mutant is a valid
small proof changed by 1 to 4 composed mutations, most of them raising some node's bound (the
root's above all: that is what makes a false claim when a rule is unsound) and then adding
shortcuts that might make the raised bound pass:

* same_as: a children entry replaced by one, chains g -> H -> K, cycles g -> H -> g, g -> g with
  the identity, targets H that are not the lowest code of their orbit (with or without an entry
  of their own, the lowest one itself a same_as), permutations that do not fix the node's set,
  and the issue's exploit (every lowest code of an orbit same_as its image under a swap of two
  interchangeable colours);
* interchangeable lists added (every colour, the colours the node's set really does not tell
  apart), extended by one colour, dropped, reordered, split;
* references redirected to another node (through a permutation that maps its set onto the class
  when there is one), nodes made shared (two references whose classes are images of each other
  sent to one node), permutations changed on first and later references, nodes reordered;
* max_guesses added, changed or dropped; nodes at the limit (vacuous: any bound holds) given huge
  bounds and referenced from shallower nodes;
* at_max (least total, then fewest secrets at the maximum; bounds are costs W x total + count):
  total proofs within D turned into at_max ones (every bound times W, plus a count that may be too
  high), the claimed count moved by one or beyond the secrets, at_max dropped or added where it
  does not belong (a worst case, no max_guesses), bounds raised by one unit of count or of total;
  the other order ("first": "at_max", costs (n D + 1) count + total): proofs converted to it with
  counts that may be too high, the key added, dropped or given a wrong value;
* entries dropped, children added, feedback keys changed, bounds raised by 1, a few, or a lot;
* the feedback rule (issue 37): black-only proofs of small games are sources too, and a proof's rule
  is relabelled (black-only dropped or added, or a name the checkers do not know) on top of the
  other changes; the oracle judges each accepted mutant under the rule it states.

Every mutant is checked in-process by ``verify_bound.check_bytes`` and by the reference checker
``tests/bound_reference.py`` (an independent, exhaustive one). A FALSE ACCEPTANCE is a mutant the
checker accepts while some node's bound exceeds the exact optimum of that node's set (worst case,
total, or total within the guesses left); a DISAGREEMENT is a mutant the two checkers judge
differently. Both must be 0::

    .venv/bin/python tests/bound_attack.py --count 300000 --seed 1 [--workers 2]
    .venv/bin/python tests/bound_attack.py --count 20000 --seed 1 --checker /tmp/old_verify_bound.py

(``--checker FILE`` judges another version of verify_bound.py, e.g. ``git show
HEAD~1:certify/verify_bound.py``: the generator must find the holes an older checker had.)
Mutant k of seed S depends on (S, k) only: the same figures with any number of workers.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import itertools
import json
import math
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
for _p in (str(ROOT), str(ROOT / "tests")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from certify import verify, verify_bound  # noqa: E402

import bound_reference  # noqa: E402

FORMAT = "mastermind-lower-bound-certificate"
VALID_DIR = ROOT / "tests" / "data" / "bounds" / "valid"
CERTS = ROOT / "certificates" / "bounds"
#: Committed proofs small enough for the oracle (exact optima by brute force, at most 81 codes:
#: 3x5 and 4x4 are beyond it).
COMMITTED = ["total-2x2", "total-2x3", "total-2x4", "total-2x5", "total-2x5-max4", "total-2x6",
             "total-2x7", "total-2x7-max5", "total-2x8", "total-3x2", "total-3x3", "total-3x4",
             "total-3x4-norep", "total-3x5-norep", "worst-case-3x3",
             # at_max (least total within D, then the fewest secrets needing D)
             "total-2x5-max4-count", "total-3x3-max4-count", "total-3x4-norep-max4-count",
             # the other order ("first": "at_max": the fewest secrets needing D, then the total)
             "total-2x5-max4-count-first", "total-3x3-max4-count-first",
             "total-3x4-norep-max4-count-first"]
#: Black-only proofs (certificates/black-peg/), small enough for the oracle.
BLACK = ["total-2x3-black", "total-2x4-black", "total-3x2-black", "worst-case-3x3-black", "total-3x3-black",
         "total-3x4-norep-black", "worst-case-3x4-norep-black"]
#: Larger ones, with --big (the oracle needs a while for their roots).
BIG = ["total-4x3"]
#: The committed proofs whose optima take the oracle seconds (left out with small=True: the tests).
SLOW = {"total-2x7", "total-2x7-max5", "total-2x8", "total-3x4", "total-3x5-norep"}
#: Corpus proofs too big for the oracle.
SKIP_VALID = {"worst-4x6-counting-only.json"}
HUGE = 10 ** 6


# -- a game: codes, feedback table, permutations (hints for the mutations, not a judge) -----------

class Game:
    def __init__(self, pegs: int, colors: int, repetition: bool, black_only: bool = False) -> None:
        self.pegs, self.colors, self.repetition, self.black_only = pegs, colors, repetition, black_only
        self.spec = (pegs, colors, repetition)
        self.codes = verify.codes(pegs, colors, repetition)
        self.n = len(self.codes)
        self.index = {c: i for i, c in enumerate(self.codes)}
        score = verify.blacks if black_only else verify.feedback
        fbs = sorted({score(g, s) for g in self.codes for s in self.codes})
        self.keys = [verify.key_text(fb, black_only) for fb in fbs]
        self.key_id = {k: i for i, k in enumerate(self.keys)}
        self.table = np.array([[self.key_id[verify.key_text(score(g, s), black_only)] for s in self.codes]
                               for g in self.codes], dtype=np.int16)
        self.win = self.key_id[verify.key_text((pegs, 0), black_only)]
        # every feedback key a guess could give (also impossible ones: for wrong keys; black-only:
        # one in the black-white form too, malformed there)
        self.all_keys = ([str(b) for b in range(pegs)] + ["0,0"] if black_only else
                         [f"{b},{w}" for b in range(pegs + 1) for w in range(pegs + 1 - b) if (b, w) != (pegs, 0)])
        self.digits = np.array([[verify.ALPHABET.index(ch) for ch in c] for c in self.codes], dtype=np.int64)
        self.identity = (tuple(range(pegs)), tuple(range(colors)))
        sigmas = list(itertools.permutations(range(pegs)))
        count = math.factorial(pegs) * math.factorial(colors)
        taus = list(itertools.permutations(range(colors))) if count <= 200_000 else None
        self.perms = [(s, t) for s in sigmas for t in taus] if taus else [self.identity]
        self.perm_id = {p: k for k, p in enumerate(self.perms)}
        self.maps = self._maps(self.perms)
        self._stab: dict = {}

    def _maps(self, perms) -> np.ndarray:
        """maps[k, x] = index of perms[k](code x)."""
        lookup = np.full(self.colors ** self.pegs, -1, dtype=np.int64)
        weight = self.colors ** np.arange(self.pegs - 1, -1, -1)
        lookup[self.digits @ weight] = np.arange(self.n)
        out = np.empty((len(perms), self.n), dtype=np.int64)
        for k, (sigma, tau) in enumerate(perms):
            number = np.array(tau)[self.digits] @ weight[list(sigma)]
            out[k] = lookup[number]
        return out

    def apply(self, perm, x: int) -> int:
        k = self.perm_id.get(perm)
        if k is not None:
            return int(self.maps[k, x])
        return int(self._maps([perm])[0, x])

    def image(self, perm, S: frozenset) -> frozenset:
        k = self.perm_id.get(perm)
        row = self.maps[k] if k is not None else self._maps([perm])[0]
        return frozenset(int(row[x]) for x in S)

    def stabilizer(self, S: frozenset) -> list:
        """The permutations P with P(S) = S."""
        if S not in self._stab:
            inside = np.zeros(self.n, dtype=bool)
            inside[list(S)] = True
            ok = inside[self.maps[:, sorted(S)]].all(axis=1)
            self._stab[S] = [self.perms[k] for k in np.flatnonzero(ok).tolist()]
        return self._stab[S]

    def carriers(self, T: frozenset, C: frozenset) -> list:
        """The permutations P with P(T) = C."""
        if len(T) != len(C) or not T:
            return []
        inside = np.zeros(self.n, dtype=bool)
        inside[list(C)] = True
        ok = inside[self.maps[:, sorted(T)]].all(axis=1)
        return [self.perms[k] for k in np.flatnonzero(ok).tolist()]

    def classes(self, g: int, S: frozenset) -> dict:
        """{key: class} of guess g at S, the win excluded."""
        out: dict = {}
        row = self.table[g]
        for s in S:
            k = int(row[s])
            if k != self.win:
                out.setdefault(self.keys[k], set()).add(s)
        return {k: frozenset(v) for k, v in out.items()}

    def swap(self, a: int, b: int):
        tau = list(range(self.colors))
        tau[a], tau[b] = b, a
        return (tuple(range(self.pegs)), tuple(tau))

    def interchangeable(self, S: frozenset) -> list:
        """The colour groups whose swaps map S onto S (lists of two or more colours)."""
        parent = list(range(self.colors))

        def root(c):
            while parent[c] != c:
                c = parent[c]
            return c
        for a, b in itertools.combinations(range(self.colors), 2):
            if self.image(self.swap(a, b), S) == S:
                parent[root(b)] = root(a)
        groups: dict = {}
        for c in range(self.colors):
            groups.setdefault(root(c), []).append(c)
        return sorted(g for g in groups.values() if len(g) > 1)

    def is_lowest(self, x: int, blocks) -> bool:
        seen = []
        for c in self.digits[x].tolist():
            if c not in seen:
                seen.append(c)
        for block in blocks:
            mine = [c for c in seen if c in block]
            if mine != list(block)[:len(mine)]:
                return False
        return True


_GAMES: dict = {}


def game_of(spec, black_only: bool = False) -> Game:
    key = (tuple(spec), bool(black_only))
    if key not in _GAMES:
        _GAMES[key] = Game(*spec, black_only)
    return _GAMES[key]


def game_of_doc(g: dict) -> Game:
    """The game a document states (a rule the checkers do not know: read as black-white, for hints)."""
    return game_of((g["pegs"], g["colors"], g["repetition"]), g.get("feedback") == "black-only")


# -- perms and references in the JSON -------------------------------------------------------------

def perm_json(perm) -> dict:
    return {"colors": list(perm[1]), "pegs": list(perm[0])}


def perm_of(value):
    if type(value) is not dict:
        return None
    p = value.get("perm")
    try:
        return tuple(p["pegs"]), tuple(p["colors"])
    except (TypeError, KeyError):
        return None


def target(ref):
    if type(ref) is dict:
        return ref.get("node")
    return ref


def make_ref(j: int, perm=None, identity=None):
    return j if perm is None or perm == identity else {"node": j, "perm": perm_json(perm)}


inverse = bound_reference.invert_perm  # the reference checker's: one inverse for the tests


def compose(p, q):
    """p after q."""
    return tuple(p[0][i] for i in q[0]), tuple(p[1][c] for c in q[1])


def references(doc):
    """(node, guess, key) of every reference of a children entry."""
    for i, node in enumerate(doc["nodes"]):
        guesses = node.get("guesses") if type(node) is dict else None
        if type(guesses) is not dict:
            continue
        for g, entry in guesses.items():
            if type(entry) is dict and "same_as" not in entry:
                for key in entry:
                    yield i, g, key


def walk(doc, game: Game):
    """(sets, depths) of the nodes: the root is every code, the first reference met (nodes in index
    order) defines a node's set as the class through the inverse permutation. Lenient (for hints,
    and for the sets of a file the checker accepts); unreached nodes get None."""
    nodes = doc["nodes"]
    sets, depths = [None] * len(nodes), [None] * len(nodes)
    sets[0], depths[0] = frozenset(range(game.n)), 0
    claims = doc.get("claims")
    if type(claims) is dict and type(claims.get("weights")) is dict:  # the root: the support
        try:
            w = bound_reference._weights(claims["weights"], *game.spec)
            sets[0] = frozenset(k for k, c in enumerate(game.codes) if w[c] > 0)
        except bound_reference.Invalid:
            pass
    for i, node in enumerate(nodes):
        S = sets[i]
        if S is None or type(node) is not dict or type(node.get("guesses")) is not dict:
            continue
        for g, entry in node["guesses"].items():
            if g not in game.index or type(entry) is not dict or "same_as" in entry:
                continue
            parts = game.classes(game.index[g], S)
            for key, ref in entry.items():
                j = target(ref)
                if type(j) is not int or not i < j < len(nodes) or sets[j] is not None:
                    continue
                C = parts.get(key, frozenset())
                P = perm_of(ref)
                if type(ref) is dict and P is None:
                    continue
                sets[j] = C if P is None else game.image(inverse(P), C)
                depths[j] = depths[i] + 1
    return sets, depths


# -- sources ----------------------------------------------------------------------------------------

class Source:
    def __init__(self, name: str, doc: dict) -> None:
        self.name, self.doc = name, doc
        g = doc["game"]
        self.game = game_of_doc(g)
        self.text = json.dumps(doc)
        self.sets, self.depths = walk(doc, self.game)
        self.worst = "worst_case" in doc["claims"]


def exploit_doc(pegs: int, colors: int, repetition: bool, kind: str, bound: int) -> dict:
    """The issue's shape: the root lists every colour as interchangeable, and every lowest code of
    an orbit is same_as its image under a swap of two colours (each leaning on the other)."""
    game = game_of((pegs, colors, repetition))
    blocks = [list(range(colors))]
    guesses = {}
    for x in range(game.n):
        if not game.is_lowest(x, blocks):
            continue
        used = len(set(game.digits[x].tolist()))
        a, b = (used - 1, used) if used < colors else (0, 1)
        P = game.swap(a, b)
        h = game.apply(P, x)
        if h != x:
            guesses[game.codes[x]] = {"perm": perm_json(P), "same_as": game.codes[h]}
    claims = {"worst_case": bound} if kind == "worst" else {"total": bound}
    return {"claims": claims, "format": FORMAT, "game": {"colors": colors, "pegs": pegs, "repetition": repetition},
            "nodes": [{"bound": bound, "guesses": guesses, "interchangeable": blocks}], "version": 1}


def load_sources(big: bool = False, small: bool = False) -> list:
    out = []
    for p in sorted(VALID_DIR.glob("*.json")):
        if p.name in SKIP_VALID:
            continue
        doc = json.loads(p.read_bytes())
        doc = {k: doc[k] for k in ("claims", "format", "game", "nodes", "version")}
        out.append(Source(f"valid/{p.stem}", doc))
    for name in COMMITTED + (BIG if big else []):
        if small and name in SLOW:
            continue
        doc = json.loads((CERTS / f"{name}.json").read_bytes())
        doc = {k: doc[k] for k in ("claims", "format", "game", "nodes", "version")}
        out.append(Source(f"certificates/{name}", doc))
    for name in BLACK:
        doc = json.loads((CERTS.parent / "black-peg" / f"{name}.json").read_bytes())
        doc = {k: doc[k] for k in ("claims", "format", "game", "nodes", "version")}
        out.append(Source(f"black-peg/{name}", doc))
    # the exploit shapes and one-node counting proofs of tiny games, at their true bounds
    for pegs, colors, rep, kind in ((1, 3, True, "worst"), (2, 2, True, "worst"), (2, 2, True, "total"),
                                    (2, 3, True, "total"), (2, 3, False, "worst"), (3, 2, True, "worst"),
                                    (2, 4, True, "worst"), (2, 4, True, "total"), (3, 3, False, "total")):
        game = game_of((pegs, colors, rep))
        true = bound_reference.optimum(pegs, colors, rep, frozenset(game.codes), kind)
        out.append(Source(f"exploit/{pegs}x{colors}{'' if rep else '-norep'}-{kind}",
                          exploit_doc(pegs, colors, rep, kind, true)))
        claims = {"worst_case": 1} if kind == "worst" else {"total": game.n}
        out.append(Source(f"counting/{pegs}x{colors}{'' if rep else '-norep'}-{kind}",
                          {"claims": claims, "format": FORMAT, "game": {"colors": colors, "pegs": pegs,
                           "repetition": rep}, "nodes": [{"bound": next(iter(claims.values()))}], "version": 1}))
    return out


# -- mutations --------------------------------------------------------------------------------------

class Mutant:
    """A copy of a source's document, with hints: the source's set of each node (by original index,
    followed through renumbering; new nodes have none)."""

    def __init__(self, src: Source, rng: random.Random) -> None:
        self.src, self.rng, self.game = src, rng, src.game
        self.doc = json.loads(src.text)
        self.orig = list(range(len(self.doc["nodes"])))
        self.ops: list = []

    @property
    def nodes(self):
        return self.doc["nodes"]

    def hint(self, j):
        if j is None or not 0 <= j < len(self.orig) or self.orig[j] is None:
            return None
        return self.src.sets[self.orig[j]] if self.orig[j] < len(self.src.sets) else None

    def depth(self, j):
        if not 0 <= j < len(self.orig) or self.orig[j] is None:
            return None
        return self.src.depths[self.orig[j]]

    def guesses(self, i: int) -> dict:
        return self.nodes[i].setdefault("guesses", {})

    def add_node(self, node: dict) -> int:
        self.nodes.append(node)
        self.orig.append(None)
        return len(self.nodes) - 1

    def set_bound(self, i: int, value: int) -> None:
        self.nodes[i]["bound"] = value
        if i == 0:
            claims = self.doc["claims"]
            if "at_max" in claims and claims.get("first") == "at_max" and type(claims.get("max_guesses")) is int:
                claims["at_max"], claims["total"] = divmod(value, self.game.n * claims["max_guesses"] + 1)
            elif "at_max" in claims:  # the root's bound is the cost W T + K: the claim follows it
                claims["total"], claims["at_max"] = divmod(value, self.game.n + 1)
            else:
                claims["worst_case" if "worst_case" in claims else "total"] = value

    def pick_node(self, with_set=True, root_bias=0.3):
        rng = self.rng
        if rng.random() < root_bias:
            return 0
        choices = [j for j in range(len(self.nodes)) if not with_set or self.hint(j)]
        return rng.choice(choices) if choices else 0

    def pick_code(self, S=None):
        if S and self.rng.random() < 0.5:
            return self.game.codes[self.rng.choice(sorted(S))]
        return self.rng.choice(self.game.codes)

    def stab_perm(self, S, moving=None):
        """A permutation fixing S (one that moves code ``moving`` when there is one)."""
        stab = self.game.stabilizer(S) if S else [self.game.identity]
        if moving is not None:
            movers = [P for P in stab if self.game.apply(P, moving) != moving]
            if movers:
                return self.rng.choice(movers)
        return self.rng.choice(stab)

    def gc(self) -> None:
        """Drop the nodes no reference reaches from the root; renumber."""
        nodes, seen, todo = self.nodes, {0}, [0]
        while todo:
            i = todo.pop()
            g = nodes[i].get("guesses") if type(nodes[i]) is dict else None
            for entry in (g or {}).values():
                if type(entry) is dict and "same_as" not in entry:
                    for ref in entry.values():
                        j = target(ref)
                        if type(j) is int and 0 <= j < len(nodes) and j not in seen:
                            seen.add(j)
                            todo.append(j)
        self.renumber([j for j in range(len(nodes)) if j in seen])

    def renumber(self, order: list) -> None:
        """Keep the nodes in ``order`` (old indices), renumbering references (others dropped)."""
        new = {old: k for k, old in enumerate(order)}
        nodes = [self.nodes[old] for old in order]
        for node in nodes:
            for entry in (node.get("guesses") or {}).values():
                if type(entry) is dict and "same_as" not in entry:
                    for key, ref in list(entry.items()):
                        j = target(ref)
                        if j in new:
                            if type(ref) is dict:
                                ref["node"] = new[j]
                            else:
                                entry[key] = new[j]
        self.doc["nodes"] = nodes
        self.orig = [self.orig[old] for old in order]


def m_raise(m: Mutant) -> bool:
    rng = m.rng
    i = 0 if rng.random() < 0.6 else m.pick_node(with_set=False)
    d = m.nodes[i]["bound"]
    step = rng.choice([1, 1, 1, 1, 2, 3, rng.randint(4, 50), HUGE])
    m.set_bound(i, d + step)
    m.ops.append(f"raise {i} +{step}")
    return True


def m_lower(m: Mutant) -> bool:
    """A node's bound lowered (a sound change alone; it shifts the slack for other shortcuts)."""
    i = m.pick_node(with_set=False, root_bias=0)
    if i == 0 or m.nodes[i]["bound"] == 0:
        return False
    m.nodes[i]["bound"] -= m.rng.randint(1, m.nodes[i]["bound"])
    m.ops.append(f"lower {i}")
    return True


def m_same_as(m: Mutant) -> bool:
    """An entry (a children one, or a guess without entry) replaced by same_as H with a permutation:
    one that fixes the node's set (usually), moving g to H; H variants: with or without an entry,
    not the lowest of its orbit, a same_as itself, g itself (identity)."""
    rng, game = m.rng, m.game
    i = m.pick_node()
    S = m.hint(i)
    guesses = m.guesses(i)
    kids = [g for g, e in guesses.items() if "same_as" not in e]
    g = rng.choice(kids) if kids and rng.random() < 0.7 else m.pick_code(S)
    x = game.index[g]
    how = rng.random()
    if how < 0.08:
        P = game.identity
    elif how < 0.2:
        P = rng.choice(game.perms)
    else:
        P = m.stab_perm(S, moving=x)
    h = game.codes[game.apply(P, x)]
    guesses[g] = {"perm": perm_json(P), "same_as": h}
    if h != g:
        r = rng.random()
        if r < 0.25 and h in guesses:
            del guesses[h]  # H without an entry: its target is the lowest code of H's orbit
        elif r < 0.4:  # H leans back on g: a cycle
            guesses[h] = {"perm": perm_json(inverse(P)), "same_as": g}
        elif r < 0.5:  # H leans on a third code: a chain
            Q = m.stab_perm(S, moving=game.index[h])
            k = game.codes[game.apply(Q, game.index[h])]
            guesses[h] = {"perm": perm_json(Q), "same_as": k}
    m.ops.append(f"same_as {i} {g}->{h}")
    return True


def m_interchangeable(m: Mutant) -> bool:
    rng, game = m.rng, m.game
    i = m.pick_node()
    node, S = m.nodes[i], m.hint(i)
    r = rng.random()
    have = node.get("interchangeable")
    if r < 0.3:
        node["interchangeable"] = [list(range(game.colors))]
        what = "all"
    elif r < 0.55 and S:
        blocks = game.interchangeable(S)
        if not blocks:
            return False
        node["interchangeable"] = blocks
        what = "true"
    elif r < 0.7 and have:
        del node["interchangeable"]
        what = "drop"
    elif r < 0.8 and have:
        block = rng.choice(have)
        rest = [c for c in range(game.colors) if not any(c in b for b in have)]
        if not rest:
            return False
        block.append(rng.choice(rest))
        block.sort()
        what = "extend"
    elif r < 0.88 and have:
        rng.shuffle(have)
        for b in have:
            if rng.random() < 0.3:
                b.reverse()
        what = "reorder"
    elif have and any(len(b) > 2 for b in have):
        b = next(b for b in have if len(b) > 2)
        cut = rng.randint(1, len(b) - 1)
        have.remove(b)
        if cut >= 2:
            have.append(b[:cut])
        if len(b) - cut >= 2:
            have.append(b[cut:])
        if not have:
            del node["interchangeable"]
        what = "split"
    else:
        return False
    m.ops.append(f"interchangeable {i} {what}")
    return True


def m_orbit(m: Mutant) -> bool:
    """The issue's exploit at a node: interchangeable colours (the true ones, or every colour), and
    the lowest codes of the orbits same_as an image under a swap of two of them (all of them, or
    some; with or without dropping the images' entries)."""
    rng, game = m.rng, m.game
    i = m.pick_node(root_bias=0.5)
    node, S = m.nodes[i], m.hint(i)
    blocks = game.interchangeable(S) if S and rng.random() < 0.7 else [list(range(game.colors))]
    if not blocks:
        blocks = [list(range(game.colors))]
    node["interchangeable"] = blocks
    guesses = m.guesses(i)
    share = rng.choice([1.0, 1.0, 0.5, 0.1])
    for x in range(game.n):
        if not game.is_lowest(x, blocks) or rng.random() > share:
            continue
        used = set(game.digits[x].tolist())
        swaps = [(a, b) for blk in blocks for a, b in itertools.combinations(blk, 2)
                 if (a in used) != (b in used) or (a in used and b in used)]
        if not swaps:
            continue
        P = game.swap(*rng.choice(swaps))
        h = game.apply(P, x)
        if h == x:
            continue
        guesses[game.codes[x]] = {"perm": perm_json(P), "same_as": game.codes[h]}
        if rng.random() < 0.5:
            guesses.pop(game.codes[h], None)
    m.ops.append(f"orbit {i}")
    return True


def m_redirect(m: Mutant) -> bool:
    """A reference sent to another node: through a permutation mapping that node's set onto the
    class when there is one, else the identity or a random one."""
    rng, game = m.rng, m.game
    refs = list(references(m.doc))
    if not refs or len(m.nodes) < 3:
        return False
    i, g, key = rng.choice(refs)
    choices = list(range(i + 1, len(m.nodes)))
    if not choices:
        return False
    j = rng.choice(choices)
    S = m.hint(i)
    P = None
    if S and g in game.index and m.hint(j):
        C = game.classes(game.index[g], S).get(key)
        fits = game.carriers(m.hint(j), C) if C else []
        if fits:
            P = rng.choice(fits)
    if P is None and rng.random() < 0.3:
        P = rng.choice(game.perms)
    m.guesses(i)[g][key] = make_ref(j, P, game.identity)
    m.ops.append(f"redirect {i} {g} {key} -> {j}")
    return True


def m_share(m: Mutant) -> bool:
    """Two references whose classes are images of each other sent to one node (the other node's
    subtree dropped when nothing else reaches it)."""
    rng, game = m.rng, m.game
    by_set = {}
    pairs = []
    for i, g, key in references(m.doc):
        ref = m.nodes[i]["guesses"][g][key]
        j = target(ref)
        T = m.hint(j)
        if not T:
            continue
        by_set.setdefault(len(T), []).append((i, g, key, j))
    for group in by_set.values():
        if len(group) > 1:
            pairs.extend((a, b) for a, b in itertools.combinations(group, 2) if a[3] != b[3])
    rng.shuffle(pairs)
    for a, b in pairs[:20]:
        if a[3] > b[3]:
            a, b = b, a
        if b[0] >= a[3]:  # b's parent must come before the node shared
            continue
        Sb = m.hint(b[0])
        C = game.classes(game.index[b[1]], Sb).get(b[2]) if Sb else None
        fits = game.carriers(m.hint(a[3]), C) if C else []
        if not fits:
            continue
        m.guesses(b[0])[b[1]][b[2]] = make_ref(a[3], rng.choice(fits), game.identity)
        if rng.random() < 0.8:
            m.gc()
        m.ops.append(f"share {b[:3]} -> {a[3]}")
        return True
    return False


def m_split(m: Mutant) -> bool:
    """A node copied and one of its references sent to the copy (its children then shared)."""
    refs = [r for r in references(m.doc) if type(target(m.nodes[r[0]]["guesses"][r[1]][r[2]])) is int]
    if not refs:
        return False
    i, g, key = m.rng.choice(refs)
    ref = m.nodes[i]["guesses"][g][key]
    j = target(ref)
    if not 0 < j < len(m.nodes):
        return False
    k = m.add_node(json.loads(json.dumps(m.nodes[j])))
    m.orig[k] = m.orig[j]
    if type(ref) is dict:
        ref["node"] = k
    else:
        m.nodes[i]["guesses"][g][key] = k
    if m.rng.random() < 0.5:  # then raise the copy
        m.nodes[k]["bound"] += m.rng.choice([1, 2, HUGE])
    m.ops.append(f"split {j} -> {k}")
    return True


def m_perm(m: Mutant) -> bool:
    """The permutation of a reference changed: composed with one fixing the node's set (harmless),
    inverted, the identity, or a random one; first references and later ones alike."""
    rng, game = m.rng, m.game
    refs = list(references(m.doc))
    if not refs:
        return False
    i, g, key = rng.choice(refs)
    ref = m.nodes[i]["guesses"][g][key]
    j = target(ref)
    if type(j) is not int:
        return False
    P = perm_of(ref) or game.identity
    r = rng.random()
    T = m.hint(j)
    if r < 0.35 and T:
        Q = compose(P, m.stab_perm(T))
    elif r < 0.5:
        Q = inverse(P)
    elif r < 0.65:
        Q = game.identity
    else:
        Q = rng.choice(game.perms)
    m.guesses(i)[g][key] = make_ref(j, Q, game.identity if rng.random() < 0.8 else None)
    m.ops.append(f"perm {i} {g} {key}")
    return True


def m_reorder(m: Mutant) -> bool:
    """The nodes renumbered in another order that keeps references forward (and changes which
    reference to a shared node comes first)."""
    rng, nodes = m.rng, m.nodes
    n = len(nodes)
    if n < 3:
        return False
    succ = [set() for _ in range(n)]
    indeg = [0] * n
    for i, g, key in references(m.doc):
        j = target(nodes[i]["guesses"][g][key])
        if type(j) is int and 0 <= j < n and j not in succ[i] and j != i:
            succ[i].add(j)
            indeg[j] += 1
    ready, order = [0], []
    if indeg[0]:
        return False
    ready += [j for j in range(1, n) if indeg[j] == 0]
    ready = [0] + sorted(set(ready) - {0})
    while ready:
        k = 0 if not order else rng.randrange(len(ready))
        i = ready.pop(k)
        order.append(i)
        for j in succ[i]:
            indeg[j] -= 1
            if indeg[j] == 0:
                ready.append(j)
    if len(order) != n:
        return False
    m.renumber(order)
    m.ops.append("reorder")
    return True


def m_max_guesses(m: Mutant) -> bool:
    rng = m.rng
    claims = m.doc["claims"]
    if "worst_case" in claims:
        if rng.random() < 0.95:
            return False
        claims["max_guesses"] = rng.randint(1, 6)
    elif "max_guesses" in claims and rng.random() < 0.3:
        del claims["max_guesses"]
    else:
        deep = max((d for d in m.src.depths if d is not None), default=0)
        base = claims.get("max_guesses", deep + 1)
        claims["max_guesses"] = max(1, base + rng.choice([-2, -1, -1, 0, 1, 1, 2]))
    m.ops.append(f"max_guesses {claims.get('max_guesses')}")
    return True


def m_vacuous(m: Mutant) -> bool:
    """With max_guesses: a node with a huge bound (and no entry) as a child, referenced from a deep
    node (where it may be vacuous) and from a shallower one, or replacing a child anywhere."""
    rng, game = m.rng, m.game
    claims = m.doc["claims"]
    if "worst_case" in claims:
        return False
    if "max_guesses" not in claims:
        deep = max((d for d in m.src.depths if d is not None), default=0)
        claims["max_guesses"] = max(1, deep + rng.choice([0, 1]))
    refs = list(references(m.doc))
    if not refs:
        return False
    v = m.add_node({"bound": rng.choice([HUGE, 10 ** 50, game.n * 10])})
    deep = sorted(refs, key=lambda r: -(m.depth(r[0]) or 0))
    picks = [deep[0] if rng.random() < 0.6 else rng.choice(refs)]
    if rng.random() < 0.6:
        picks.append(rng.choice(refs))
    for i, g, key in picks:
        P = perm_of(m.nodes[i]["guesses"][g][key])
        m.nodes[i]["guesses"][g][key] = make_ref(v, P, game.identity)
    if rng.random() < 0.7:
        m.gc()
    m.ops.append(f"vacuous {len(picks)}")
    return True


def m_weights(m: Mutant) -> bool:
    """Weights (the codemaker's distribution): a total proof made a weighted one, every bound times
    k with every orbit's weight k (still true), then often one orbit's weight moved by one, or set
    to 0 (the root's set, the support, shrinks: references may then miss), or the claim's keys
    broken (a missing orbit, a non-lowest code)."""
    rng, game = m.rng, m.game
    claims = m.doc["claims"]
    if set(claims) != {"total"} or rng.random() < 0.5:
        return False
    lowest = {}
    for c in game.codes:
        lowest.setdefault(bound_reference.orbit_of(c), c)
    k = rng.choice([1, 1, 2, 3])
    for node in m.nodes:
        if type(node.get("bound")) is int:
            node["bound"] *= k
    weights = {c: k for c in lowest.values()}
    what = f"x{k}"
    q = rng.random()
    code = rng.choice(sorted(weights))
    if q < 0.4:
        weights[code] += rng.choice([-1, 1])
        what += f", {code} moved by one"
    elif q < 0.6:
        weights[code] = 0
        what += f", {code} zero"
    elif q < 0.65:
        del weights[code]
        what += f", {code} missing"
    elif q < 0.7 and len(game.codes) > 1:
        other = next((c for c in game.codes if bound_reference.orbit_of(c) == bound_reference.orbit_of(code)
                      and c != code), None)
        if other:
            weights[other] = weights.pop(code)
            what += f", {other} for {code}"
    claims["weights"] = weights
    claims["total"] = m.nodes[0]["bound"]
    m.ops.append(f"weights {what}")
    return True


def m_at_max(m: Mutant) -> bool:
    """The at_max claim: a total proof within D made an at_max one (bounds as costs, counts that
    may be too high), the count moved by one, past the secrets, the claim dropped or misplaced."""
    rng, game = m.rng, m.game
    claims, W = m.doc["claims"], game.n + 1
    r = rng.random()
    if "at_max" not in claims and "total" in claims and (r < 0.6 or "max_guesses" not in claims):
        if "max_guesses" not in claims:
            deep = max((d for d in m.src.depths if d is not None), default=0)
            claims["max_guesses"] = max(1, deep + rng.choice([0, 0, 1]))
        for j, node in enumerate(m.nodes):  # every bound a cost; the count: 0, true-ish or raised
            S = m.hint(j)
            extra = rng.choice([0, 0, 1, len(S) if S else 1, rng.randint(0, game.n)])
            node["bound"] = W * node["bound"] + extra
        claims["total"], claims["at_max"] = divmod(m.nodes[0]["bound"], W)
        what = "convert"
    elif "at_max" in claims and r < 0.35:
        m.set_bound(0, m.nodes[0]["bound"] + rng.choice([1, 1, 2, W, W + 1]))
        what = "raise"
    elif "at_max" in claims and r < 0.5:
        claims["at_max"] = rng.choice([game.n, game.n + 1, claims["at_max"] + 1])
        what = "count"
    elif "at_max" in claims and r < 0.65:
        del claims["at_max"]
        if rng.random() < 0.5:
            claims["total"] = m.nodes[0]["bound"]
        what = "drop"
    elif "at_max" in claims and r < 0.75 and "max_guesses" in claims:
        del claims["max_guesses"]
        what = "no max_guesses"
    elif "worst_case" in claims and r < 0.1:
        claims["at_max"] = 0
        what = "worst"
    else:
        return False
    if "at_max" in claims and "max_guesses" in claims and rng.random() < 0.4:
        # the other order, "first": "at_max": costs (n D + 1) count + total, converted from the
        # (total first) costs with a count that may be too high, or the key added or dropped alone
        D = claims["max_guesses"]
        B = game.n * D + 1
        q = rng.random()
        if q < 0.6 and claims.get("first") != "at_max":
            for node in m.nodes:
                t, k = divmod(node["bound"], W)
                node["bound"] = B * (k + rng.choice([0, 0, 0, 1])) + t
            claims["first"] = "at_max"
            claims["at_max"], claims["total"] = divmod(m.nodes[0]["bound"], B)
            what += ", first at_max"
        elif q < 0.8:
            if claims.get("first") == "at_max":
                del claims["first"]
            else:
                claims["first"] = "at_max"
            what += ", first flipped"
        else:
            claims["first"] = rng.choice(["total", "at_max", "max_count", 1])
            what += ", first set"
    m.ops.append(f"at_max {what}")
    return True


def m_drop(m: Mutant) -> bool:
    i = m.pick_node(with_set=False)
    guesses = m.nodes[i].get("guesses")
    if not guesses:
        return False
    g = m.rng.choice(sorted(guesses))
    del guesses[g]
    if not guesses:
        del m.nodes[i]["guesses"]
    if m.rng.random() < 0.7:
        m.gc()
    m.ops.append(f"drop {i} {g}")
    return True


def m_add_child(m: Mutant) -> bool:
    """A child added to a guess (a new entry or a new key): a node with a large bound, new or
    existing, with the class's own key or another one."""
    rng, game = m.rng, m.game
    i = m.pick_node()
    S = m.hint(i)
    g = m.pick_code(S)
    x = game.index[g]
    parts = game.classes(x, S) if S else {}
    key = rng.choice(sorted(parts)) if parts and rng.random() < 0.85 else rng.choice(game.all_keys)
    guesses = m.guesses(i)
    entry = guesses.get(g)
    if entry is None or "same_as" in entry:
        entry = guesses[g] = {}
    later = list(range(i + 1, len(m.nodes)))
    if later and rng.random() < 0.4:
        j = rng.choice(later)
        P = None
        if key in parts and m.hint(j):
            fits = game.carriers(m.hint(j), parts[key])
            P = rng.choice(fits) if fits else None
        entry[key] = make_ref(j, P, game.identity)
    else:
        C = parts.get(key)
        bound = rng.choice([1, 2, 3, len(C) if C else 1, 2 * len(C) if C else 2, HUGE])
        j = m.add_node({"bound": bound})
        entry[key] = j
    m.ops.append(f"add_child {i} {g} {key}")
    return True


def m_key(m: Mutant) -> bool:
    refs = list(references(m.doc))
    if not refs:
        return False
    i, g, key = m.rng.choice(refs)
    entry = m.nodes[i]["guesses"][g]
    new = m.rng.choice(m.game.all_keys)
    if new in entry:
        entry[key], entry[new] = entry[new], entry[key]
    else:
        entry[new] = entry.pop(key)
    m.ops.append(f"key {i} {g} {key}->{new}")
    return True


def m_rule(m: Mutant) -> bool:
    """The proof relabelled under the other rule, or under a name the checkers do not know."""
    game = m.doc["game"]
    new = m.rng.choice(["black-white", "black-only", None, "black_only", "Black-only"])
    old = game.get("feedback")
    if new == old or (new is None and old is None):
        return False
    if new is None:
        del game["feedback"]
    else:
        game["feedback"] = new
    m.ops.append(f"rule {old}->{new}")
    return True


MUTATIONS = [(m_rule, 2), (m_same_as, 6), (m_orbit, 3), (m_interchangeable, 3), (m_redirect, 3), (m_share, 2),
             (m_split, 1), (m_perm, 3), (m_reorder, 2), (m_max_guesses, 2), (m_vacuous, 2),
             (m_drop, 2), (m_add_child, 3), (m_key, 1), (m_lower, 1), (m_raise, 3), (m_at_max, 3), (m_weights, 2)]
_FUNCS = [f for f, _ in MUTATIONS]
_WEIGHTS = [w for _, w in MUTATIONS]


def mutant(sources: list, seed: int, k: int):
    """(source name, document, operations) of mutant k of seed ``seed``."""
    rng = random.Random(f"bound-attack/{seed}/{k}")
    src = rng.choice(sources)
    m = Mutant(src, rng)
    if rng.random() < 0.75:
        m_raise(m)
    for _ in range(rng.randint(1, 4)):
        for _ in range(5):
            if rng.choices(_FUNCS, _WEIGHTS)[0](m):
                break
    return src.name, m.doc, m.ops


def dumps(doc) -> bytes:
    return json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()


# -- judging ----------------------------------------------------------------------------------------

def load_checker(path: str | None):
    """verify_bound, or another version of it loaded from a file (as a module of the package)."""
    if path is None:
        return verify_bound
    spec = importlib.util.spec_from_file_location("certify._attacked_verify_bound", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


_OPT: dict = {}


def optimum(spec, S: frozenset, kind: str, r, weights=None):
    """The exact optimum of the node (codes as indices), cached."""
    key = (spec, S, kind, r, None if weights is None else tuple(sorted(weights.items())))
    if key not in _OPT:
        black_only = len(spec) > 3 and spec[3]  # (spec: (pegs, colors, repetition[, black_only]))
        game = game_of(spec[:3], black_only)
        codes = frozenset(game.codes[x] for x in S)
        _OPT[key] = bound_reference.optimum(*spec[:3], codes, kind, r, weights, black_only=black_only)
    return _OPT[key]


def false_bounds(doc, game: Game):
    """[(node, bound, truth)] of the nodes whose bound exceeds the exact optimum of their set (the
    sets as the file defines them: first reference in index order)."""
    sets, depths = walk(doc, game)
    claims = doc["claims"]
    kind = "worst" if "worst_case" in claims else "lex" if "at_max" in claims else "total"
    if kind == "lex" and claims.get("first") == "at_max":
        kind = "count"
    weights = None
    if "weights" in claims:
        kind, weights = "weighted", bound_reference._weights(claims["weights"], *game.spec)
    D = claims.get("max_guesses")
    if kind in ("lex", "count") and D is None:
        return [(0, doc["nodes"][0]["bound"], "at_max without max_guesses")]
    out = []
    for j, node in enumerate(doc["nodes"]):
        S = sets[j]
        if not S:
            out.append((j, node["bound"], "no set"))
            continue
        r = None if D is None else D - depths[j]
        truth = optimum(game.spec + (game.black_only,), S, kind, r, weights)
        if kind == "lex":  # a pair (total, count): the at_max bounds are its cost
            truth = bound_reference.lex_cost(truth, game.n)
        elif kind == "count":  # a pair (count, total), "first": "at_max"
            truth = bound_reference.count_cost(truth, game.n, D)
        if node["bound"] > truth:
            out.append((j, node["bound"], truth))
    return out


class Judge:
    def __init__(self, checker=None) -> None:
        self.checker = checker or verify_bound
        self.seen: dict = {}

    def __call__(self, doc):
        """(accepted, reference valid, [(node, bound, truth)] when accepted)."""
        raw = dumps(doc)
        key = hashlib.sha1(raw).digest()
        if key not in self.seen:
            report = self.checker.check_bytes(raw)
            ref = bound_reference.check(raw)
            bad = []
            if report.valid:
                g = doc["game"]
                bad = false_bounds(doc, game_of_doc(g))
            self.seen[key] = (report.valid, bool(ref.valid), bad, report.error, ref.reason)
        return self.seen[key]


def run_range(args):
    """Judge mutants lo..hi-1: (counts, examples)."""
    seed, lo, hi, checker_path, big, small = args
    sources = _sources(big, small)
    judge = Judge(load_checker(checker_path))
    counts = {"generated": 0, "accepted": 0, "rejected": 0, "false": 0, "disagree": 0}
    examples = []
    for k in range(lo, hi):
        name, doc, ops = mutant(sources, seed, k)
        accepted, ref_valid, bad, error, ref_reason = judge(doc)
        counts["generated"] += 1
        counts["accepted" if accepted else "rejected"] += 1
        for kind in {op.split()[0] for op in ops}:  # mutants that went through each kind of change
            counts[f"op {kind}"] = counts.get(f"op {kind}", 0) + 1
        if accepted and bad:
            counts["false"] += 1
            group = name.split("/")[0]
            counts[f"false from {group}"] = counts.get(f"false from {group}", 0) + 1
        if accepted != ref_valid:
            counts["disagree"] += 1
        if (accepted and bad) or accepted != ref_valid:
            if len(examples) < 20:
                examples.append({"k": k, "source": name, "ops": ops, "accepted": accepted,
                                 "reference": ref_valid, "false_bounds": [list(map(str, b)) for b in bad],
                                 "error": error, "reference_reason": ref_reason, "doc": doc})
    return counts, examples


_SRC: dict = {}


def _sources(big: bool, small: bool = False):
    if (big, small) not in _SRC:
        _SRC[big, small] = load_sources(big, small)
    return _SRC[big, small]


def attack(count: int, seed: int, workers: int = 1, checker_path=None, big=False, err=None, chunk=500,
           small=False):
    """Summary dict of ``count`` mutants (small: without the proofs in SLOW)."""
    start = time.monotonic()
    jobs = [(seed, lo, min(lo + chunk, count), checker_path, big, small) for lo in range(0, count, chunk)]
    total = {"generated": 0, "accepted": 0, "rejected": 0, "false": 0, "disagree": 0}
    examples = []
    if workers > 1:
        import multiprocessing
        pool = multiprocessing.get_context("fork").Pool(workers)
        results = pool.imap(run_range, jobs)
    else:
        pool, results = None, map(run_range, jobs)
    try:
        for counts, ex in results:
            for key in counts:
                total[key] = total.get(key, 0) + counts[key]
            examples.extend(ex[:20 - len(examples)])
            if err is not None:
                rate = total["generated"] / max(1e-9, time.monotonic() - start)
                print(f"\r{total['generated']}/{count} mutants, {total['accepted']} accepted, "
                      f"{total['false']} false, {total['disagree']} disagreements, {rate:.0f}/s",
                      end="", file=err, flush=True)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    if err is not None:
        print(file=err)
    total["seconds"] = round(time.monotonic() - start, 1)
    total["examples"] = examples
    return total


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--checker", help="another verify_bound.py to attack (default: certify's)")
    parser.add_argument("--big", action="store_true", help="also the 4x3, 3x6-norep and 4x4 proofs")
    parser.add_argument("--examples", help="write the false acceptances and disagreements (JSON) here")
    args = parser.parse_args(argv)
    summary = attack(args.count, args.seed, args.workers, args.checker, args.big, err=sys.stderr)
    examples = summary.pop("examples")
    print(f"mutants generated: {summary['generated']}")
    print(f"accepted by the checker: {summary['accepted']}")
    print(f"rejected: {summary['rejected']}")
    print(f"false acceptances: {summary['false']}")
    print(f"disagreements with the reference: {summary['disagree']}")
    for key in sorted(k for k in summary if k.startswith("false from")):
        print(f"  {key}: {summary[key]}")
    print(f"time: {summary['seconds']} s ({summary['generated'] / max(summary['seconds'], 1e-9):.0f} mutants/s, "
          f"{args.workers} worker{'s' if args.workers > 1 else ''})")
    for ex in examples[:3]:
        print(f"example: mutant {ex['k']} of {ex['source']}: {ex['ops']}; accepted {ex['accepted']}, "
              f"reference {ex['reference']}, false bounds {ex['false_bounds']}", file=sys.stderr)
    if args.examples:
        Path(args.examples).write_text(json.dumps(examples, indent=1, default=str) + "\n")
    return 1 if summary["false"] or summary["disagree"] else 0


if __name__ == "__main__":
    sys.exit(main())
