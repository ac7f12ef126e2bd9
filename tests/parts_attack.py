"""Adversarial mutants of SPLIT lower-bound proofs (a main file and part files), judged by the oracle.

A split proof (docs/lower-bound-format.md, "Parts of a proof") is accepted by ``combine`` in the
trusted checker when every file is valid and every lemma assumption is met by an accepted part.
This generator attacks that step with an attacker who controls every file: small valid proofs
(and mutants of them from ``tests/bound_attack.py``) are split by the untrusted splitter
(``certify/proofparts.py``), sometimes split again, then changed by 1 to 4 mutations:

* bounds raised or lowered: the main claim, a part's claim (its root), a lemma reference's bound;
* a part's root path: another feedback key, an idle step (a guess that learns nothing: the same set,
  one guess deeper), a step dropped, a guess replaced by another that gives the same class, steps
  swapped; its root permutation added, changed (a random one, or one fixing the set) or dropped;
* lemma references: permutations added, changed or dropped, two targets swapped, a target moved to
  another part, a lemma turned into a node reference or back, a lemma to the part itself or to a
  part that leans on it (a cycle; the sha256 of such a file cannot be known, so a made-up one);
* the parts: one dropped, one given twice (the same bytes, or with a comment: another sha256),
  parts of a split of another proof of the same game (another claim kind, another max_guesses)
  added and named; a part's claims changed (max_guesses moved, added or dropped, "first" toggled,
  weights changed, worst case <-> total); the root removed from a part, a root added to the main
  file; a part at depth > max_guesses (vacuous: any bound) with a huge bound, named;
* inside a file (main or part): the single-file mutations of tests/bound_attack.py.

Every combination is checked in-process (``verdict_bytes`` of each file, then ``combine``). A
FALSE ACCEPTANCE is an accepted combination in which the main claim, or the bound of any node or
any lemma reference of the main file or of a part it rests on, exceeds the exact optimum of its
set (the set the files define, recomputed here from the root path and the references; with
max_guesses, with D - depth guesses left)::

    .venv/bin/python tests/parts_attack.py --count 5000 --seed 1 [--workers 2]

Mutant k of seed S depends on (S, k) only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for _p in (str(ROOT), str(ROOT / "tests")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from certify import verify_bound  # noqa: E402
from certify.errors import CertifyError  # noqa: E402
from certify.proofparts import split  # noqa: E402

import bound_attack as ba  # noqa: E402
import bound_reference  # noqa: E402

HUGE = 10 ** 6


def dumps(doc) -> bytes:
    return json.dumps(doc, sort_keys=True, separators=(",", ":")).encode()


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- a split proof as documents whose lemma references name parts by placeholder ------------------

def lemma_refs(doc):
    """(node, guess, key, reference dict) of every lemma reference of a document."""
    for i, node in enumerate(doc.get("nodes") or []):
        guesses = node.get("guesses") if type(node) is dict else None
        for g, entry in (guesses or {}).items() if type(guesses) is dict else ():
            if type(entry) is dict and "same_as" not in entry:
                for key, ref in entry.items():
                    if type(ref) is dict and "lemma" in ref:
                        yield i, g, key, ref


class Split:
    """main: a document; parts: [document]; a lemma reference's "lemma" is "@k" (parts[k]) or a
    literal sha256. serialize() writes the parts in dependency order, replacing "@k" by the sha256
    of part k's bytes (a part in a cycle gets a made-up sha256: no file has it)."""

    def __init__(self, main: dict, parts: list) -> None:
        self.main, self.parts = main, parts
        self.extra: list = []  # bytes of parts given as they are (foreign ones)

    @classmethod
    def of(cls, main_bytes: bytes, part_bytes: list) -> "Split":
        names = {sha(p): f"@{k}" for k, p in enumerate(part_bytes)}
        docs = [json.loads(p) for p in part_bytes]
        main = json.loads(main_bytes)
        for doc in docs + [main]:
            for *_, ref in lemma_refs(doc):
                ref["lemma"] = names.get(ref["lemma"], ref["lemma"])
        return cls(main, docs)

    def serialize(self):
        """(main bytes, [part bytes], {part index: its sha256})."""
        done: dict = {}
        state: dict = {}

        def resolve(doc):
            for *_, ref in lemma_refs(doc):
                name = ref.get("lemma")
                if type(name) is str and name.startswith("@"):
                    k = int(name[1:]) if name[1:].isdigit() else -1
                    ref["lemma"] = visit(k) if 0 <= k < len(self.parts) else "f" * 64

        def visit(k):
            if k in done:
                return done[k]
            if state.get(k) == "open":  # a cycle: no sha256 can close it
                return hashlib.sha256(f"cycle {k}".encode()).hexdigest()
            state[k] = "open"
            doc = json.loads(json.dumps(self.parts[k]))
            resolve(doc)
            data = dumps(doc)
            done[k] = sha(data)
            blobs[k] = data
            return done[k]

        blobs: dict = {}
        for k in range(len(self.parts)):
            visit(k)
        main = json.loads(json.dumps(self.main))
        resolve(main)
        return dumps(main), [blobs[k] for k in range(len(self.parts))] + list(self.extra), done


# -- sets, as the files define them (for hints and for judging) ------------------------------------

def kind_of(claims: dict):
    kind = "worst" if "worst_case" in claims else "lex" if "at_max" in claims else "total"
    if kind == "lex" and claims.get("first") == "at_max":
        kind = "count"
    if "weights" in claims:
        kind = "weighted"
    return kind


def root_set(doc, game: ba.Game):
    """(set, depth) of the document's root: every code (the support with weights), then the root
    path's classes, then P^-1. None when the path leaves the set empty or is malformed."""
    S = frozenset(range(game.n))
    claims = doc.get("claims") or {}
    if type(claims.get("weights")) is dict:
        try:
            w = bound_reference._weights(claims["weights"], *game.spec)
        except bound_reference.Invalid:
            return None
        S = frozenset(k for k, c in enumerate(game.codes) if w[c] > 0)
    root = doc.get("root")
    if root is None:
        return S, 0
    try:
        for g, key in root["path"]:
            S = game.classes(game.index[g], S).get(key, frozenset())
            if not S:
                return None
        if "perm" in root:
            S = game.image(ba.inverse((tuple(root["perm"]["pegs"]), tuple(root["perm"]["colors"]))), S)
    except (KeyError, TypeError, ValueError):
        return None
    return S, len(root["path"])


def walk(doc, game: ba.Game):
    """(sets, depths, lemmas) of a document: nodes' sets by their first reference, and each lemma
    reference as (node, guess, key, set the part must be about, depth, bound)."""
    nodes = doc["nodes"]
    sets, depths = [None] * len(nodes), [None] * len(nodes)
    lemmas = []
    start = root_set(doc, game)
    if start is None:
        return sets, depths, lemmas
    sets[0], depths[0] = start
    for i, node in enumerate(nodes):
        S = sets[i]
        if S is None or type(node) is not dict or type(node.get("guesses")) is not dict:
            continue
        for g, entry in node["guesses"].items():
            if g not in game.index or type(entry) is not dict or "same_as" in entry:
                continue
            classes = game.classes(game.index[g], S)
            for key, ref in entry.items():
                C = classes.get(key, frozenset())
                P = ba.perm_of(ref)
                if type(ref) is dict and "lemma" in ref:
                    T = C if P is None else game.image(ba.inverse(P), C)
                    lemmas.append((i, g, key, T, depths[i] + 1, ref.get("bound")))
                    continue
                j = ba.target(ref)
                if type(j) is not int or not i < j < len(nodes) or sets[j] is not None:
                    continue
                if type(ref) is dict and P is None:
                    continue
                sets[j] = C if P is None else game.image(ba.inverse(P), C)
                depths[j] = depths[i] + 1
    return sets, depths, lemmas


def truth(game: ba.Game, claims: dict, S: frozenset, depth: int):
    kind = kind_of(claims)
    weights = None
    if kind == "weighted":
        weights = bound_reference._weights(claims["weights"], *game.spec)
    D = claims.get("max_guesses")
    r = None if D is None else D - depth
    value = ba.optimum(game.spec, S, kind, r, weights)
    if kind == "lex":
        value = bound_reference.lex_cost(value, game.n)
    elif kind == "count":
        value = bound_reference.count_cost(value, game.n, D)
    return value


def false_bounds(doc, game: ba.Game, name: str) -> list:
    """[(file, what, bound, truth)] of the false statements of an accepted file: a node's bound or
    a lemma reference's bound above the exact optimum of its set."""
    sets, depths, lemmas = walk(doc, game)
    claims = doc["claims"]
    out = []
    for j, node in enumerate(doc["nodes"]):
        if sets[j] is None:
            out.append((name, f"node {j}", node["bound"], "no set"))
            continue
        t = truth(game, claims, sets[j], depths[j])
        if node["bound"] > t:
            out.append((name, f"node {j}", node["bound"], t))
    for i, g, key, T, depth, bound in lemmas:
        if not T:
            out.append((name, f"lemma at node {i} {g} {key}", bound, "empty"))
            continue
        t = truth(game, claims, T, depth)
        if bound > t:
            out.append((name, f"lemma at node {i} {g} {key}", bound, t))
    return out


# -- sources ----------------------------------------------------------------------------------------

_SOURCES: dict = {}


def sources(small: bool = True) -> list:
    if small not in _SOURCES:
        # (black-only sources left out: this generator's judge reads black-white keys)
        _SOURCES[small] = [s for s in ba.load_sources(small=small) if len(s.doc["nodes"]) > 1
                           and not s.name.startswith("black-peg/")]
    return _SOURCES[small]


def set_root_bound(doc, value: int, n: int) -> None:
    """A file's root bound and its claims (a cost written back as the claims write it)."""
    doc["nodes"][0]["bound"] = value
    claims = doc["claims"]
    if "at_max" in claims and claims.get("first") == "at_max":
        claims["at_max"], claims["total"] = divmod(value, n * claims["max_guesses"] + 1)
    elif "at_max" in claims:
        claims["total"], claims["at_max"] = divmod(value, n + 1)
    else:
        claims["worst_case" if "worst_case" in claims else "total"] = value


class Attack:
    def __init__(self, rng: random.Random, src_doc: dict, name: str, pool: list) -> None:
        self.rng, self.name, self.pool = rng, name, pool
        g = src_doc["game"]
        self.game = ba.game_of((g["pegs"], g["colors"], g["repetition"]))
        self.doc = src_doc
        self.ops: list = []
        self.sp: Split | None = None

    # helpers
    def files(self):
        return [("main", self.sp.main)] + [(f"@{k}", d) for k, d in enumerate(self.sp.parts)]

    def all_lemmas(self):
        return [(d, i, g, key, ref) for _, d in self.files() for i, g, key, ref in lemma_refs(d)]

    def random_perm(self):
        return self.rng.choice(self.game.perms)

    def part_index(self):
        if not self.sp.parts:
            raise IndexError("no part left")
        return self.rng.randrange(len(self.sp.parts))

    # building
    def build(self) -> bool:
        rng = self.rng
        how = {"depth": rng.choice([1, 1, 2, 2, 3])} if rng.random() < 0.7 else {"parts": rng.randint(1, 6)}
        try:
            main, parts = split(self.doc, **how)
        except (CertifyError, KeyError, TypeError, ValueError, IndexError, AttributeError):
            return False
        if not parts:
            return False
        self.ops.append(f"split {how}")
        self.sp = Split.of(main, parts)
        if rng.random() < 0.2:  # split a part again
            k = self.part_index()
            try:
                sub_main, sub_parts = split(json.loads(dumps(self.resolved_part(k))), depth=1)
            except (CertifyError, KeyError, TypeError, ValueError, IndexError, AttributeError):
                return True
            if sub_parts:
                base = len(self.sp.parts)
                names = {sha(p): f"@{base + m}" for m, p in enumerate(sub_parts)}
                top = json.loads(sub_main)
                subs = [json.loads(p) for p in sub_parts]
                for d in subs + [top]:
                    for *_, ref in lemma_refs(d):
                        ref["lemma"] = names.get(ref["lemma"], ref["lemma"])
                self.sp.parts[k] = top
                self.sp.parts.extend(subs)
                self.ops.append(f"split part @{k} again")
        return True

    def resolved_part(self, k):
        """Part k with its lemma references as literal sha256s (to split it again)."""
        _, blobs, _ = self.sp.serialize()
        return json.loads(blobs[k])

    # mutations: each returns True when it changed something
    def m_raise_main(self) -> bool:
        step = self.rng.choice([1, 1, 2, 3, 10, HUGE])
        set_root_bound(self.sp.main, self.sp.main["nodes"][0]["bound"] + step, self.game.n)
        if self.rng.random() < 0.5:  # and the lemmas it uses, by as much
            for _, i, g, key, ref in [x for x in self.all_lemmas() if x[0] is self.sp.main]:
                ref["bound"] += step
        self.ops.append(f"raise main +{step}")
        return True

    def m_raise_part(self) -> bool:
        k = self.part_index()
        doc = self.sp.parts[k]
        step = self.rng.choice([1, 1, 2, 5, HUGE])
        set_root_bound(doc, doc["nodes"][0]["bound"] + step, self.game.n)
        if self.rng.random() < 0.7:
            for _, i, g, key, ref in self.all_lemmas():
                if ref["lemma"] == f"@{k}":
                    ref["bound"] += step
        self.ops.append(f"raise part @{k} +{step}")
        return True

    def m_lemma_bound(self) -> bool:
        lemmas = self.all_lemmas()
        if not lemmas:
            return False
        _, i, g, key, ref = self.rng.choice(lemmas)
        step = self.rng.choice([1, 1, 2, -1, HUGE])
        ref["bound"] = max(0, ref["bound"] + step)
        self.ops.append(f"lemma bound {step:+d}")
        return True

    def m_lower_part(self) -> bool:
        k = self.part_index()
        doc = self.sp.parts[k]
        b = doc["nodes"][0]["bound"]
        if b <= 1:
            return False
        set_root_bound(doc, b - 1, self.game.n)
        self.ops.append(f"lower part @{k}")
        return True

    def m_path(self) -> bool:
        rng, game = self.rng, self.game
        k = self.part_index()
        doc = self.sp.parts[k]
        path = doc["root"]["path"]
        got = root_set(doc, game)
        how = rng.choice(["key", "idle", "drop", "equiv", "swap", "prepend-idle", "empty"])
        if how == "key" and path:
            step = rng.randrange(len(path))
            path[step][1] = rng.choice(game.all_keys)
        elif how in ("idle", "prepend-idle") and got:
            # a guess that learns nothing at the set reached (before the perm): the same set, deeper
            S = self.path_set(path if how == "idle" else [], doc)
            idle = [c for c in range(game.n) if len(game.classes(c, S)) == 1 and c not in S]
            if not idle:
                return False
            c = rng.choice(idle)
            key = next(iter(game.classes(c, S)))
            for _ in range(rng.choice([1, 1, 2, 5])):
                if how == "idle":
                    path.append([game.codes[c], key])
                else:
                    path.insert(0, [game.codes[c], key])
        elif how == "drop" and path:
            path.pop()
        elif how == "equiv" and path:
            step = rng.randrange(len(path))
            before = self.path_set(path[:step], doc)
            g, key = path[step]
            C = game.classes(game.index[g], before).get(key)
            others = [(c, k2) for c in range(game.n) for k2, C2 in game.classes(c, before).items() if C2 == C]
            if not others:
                return False
            c, k2 = rng.choice(others)
            path[step] = [game.codes[c], k2]
        elif how == "swap" and len(path) >= 2:
            a, b = rng.sample(range(len(path)), 2)
            path[a], path[b] = path[b], path[a]
        elif how == "empty":
            path.clear()
        else:
            return False
        self.ops.append(f"path {how} @{k}")
        return True

    def path_set(self, path, doc):
        S = frozenset(range(self.game.n))
        w = (doc.get("claims") or {}).get("weights")
        if type(w) is dict:
            ws = bound_reference._weights(w, *self.game.spec)
            S = frozenset(x for x, c in enumerate(self.game.codes) if ws[c] > 0)
        for g, key in path:
            S = self.game.classes(self.game.index[g], S).get(key, frozenset())
        return S

    def m_root_perm(self) -> bool:
        rng, game = self.rng, self.game
        k = self.part_index()
        root = self.sp.parts[k]["root"]
        how = rng.choice(["random", "stab", "drop"])
        if how == "drop":
            if "perm" not in root:
                return False
            del root["perm"]
        elif how == "random":
            root["perm"] = ba.perm_json(self.random_perm())
        else:
            S = self.path_set(root["path"], self.sp.parts[k])
            root["perm"] = ba.perm_json(rng.choice(game.stabilizer(S) if S else [game.identity]))
        self.ops.append(f"root perm {how} @{k}")
        return True

    def m_lemma_perm(self) -> bool:
        lemmas = self.all_lemmas()
        if not lemmas:
            return False
        _, i, g, key, ref = self.rng.choice(lemmas)
        how = self.rng.choice(["random", "drop", "inverse"])
        if how == "drop":
            if "perm" not in ref:
                return False
            del ref["perm"]
        elif how == "inverse":
            P = ba.perm_of(ref)
            if P is None:
                return False
            ref["perm"] = ba.perm_json(ba.inverse(P))
        else:
            ref["perm"] = ba.perm_json(self.random_perm())
        self.ops.append(f"lemma perm {how}")
        return True

    def m_swap(self) -> bool:
        lemmas = self.all_lemmas()
        if len(lemmas) < 2:
            return False
        (_, _, _, _, a), (_, _, _, _, b) = self.rng.sample(lemmas, 2)
        a["lemma"], b["lemma"] = b["lemma"], a["lemma"]
        if self.rng.random() < 0.5:
            a["bound"], b["bound"] = b["bound"], a["bound"]
        self.ops.append("swap lemmas")
        return True

    def m_retarget(self) -> bool:
        lemmas = self.all_lemmas()
        if not lemmas:
            return False
        d, _, _, _, ref = self.rng.choice(lemmas)
        k = self.part_index()
        ref["lemma"] = f"@{k}"
        if self.rng.random() < 0.5:
            ref["bound"] = self.sp.parts[k]["nodes"][0]["bound"]
        self.ops.append(f"retarget to @{k}" + (" (itself)" if d is self.sp.parts[k] else ""))
        return True

    def m_cycle(self) -> bool:
        """A part leaning on itself or on a part that leans on it: a lemma reference added at a
        class of its root (or one moved there)."""
        rng, game = self.rng, self.game
        k = self.part_index()
        doc = self.sp.parts[k]
        got = root_set(doc, game)
        if not got:
            return False
        S, _ = got
        g = rng.randrange(game.n)
        classes = game.classes(g, S)
        if not classes:
            return False
        key = rng.choice(sorted(classes))
        users = [m for m, d in enumerate(self.sp.parts) if any(r["lemma"] == f"@{k}" for *_, r in lemma_refs(d))]
        to = rng.choice([k] + users)
        doc["nodes"][0].setdefault("guesses", {})[game.codes[g]] = {
            key: {"lemma": f"@{to}", "bound": rng.choice([HUGE, doc["nodes"][0]["bound"]])}}
        self.ops.append(f"cycle @{k} -> @{to}")
        return True

    def m_parts(self) -> bool:
        rng = self.rng
        how = rng.choice(["drop", "twice", "twice-comment", "foreign", "foreign"])
        if how == "drop":
            k = self.part_index()
            del self.sp.parts[k]  # its placeholders now name the next ones (or nothing)
        elif how in ("twice", "twice-comment"):
            k = self.part_index()
            copy = json.loads(json.dumps(self.sp.parts[k]))
            if how == "twice-comment":
                copy["comment"] = "another copy"
            self.sp.parts.append(copy)
            if how == "twice-comment" and rng.random() < 0.5:  # and named by some lemma
                for *_, ref in self.all_lemmas():
                    if ref["lemma"] == f"@{k}" and rng.random() < 0.5:
                        ref["lemma"] = f"@{len(self.sp.parts) - 1}"
        else:  # parts of a split of another proof of the same game, named by a lemma
            same = [s for s in self.pool if s.game.spec == self.game.spec and s.text != json.dumps(self.doc)]
            if not same:
                return False
            other = rng.choice(same)
            try:
                _, parts = split(json.loads(other.text), depth=rng.choice([1, 2]))
            except (CertifyError, KeyError, TypeError, ValueError, IndexError):
                return False
            if not parts:
                return False
            p = rng.choice(parts)
            self.sp.extra.append(p)
            lemmas = self.all_lemmas()
            if lemmas:
                _, _, _, _, ref = rng.choice(lemmas)
                ref["lemma"] = sha(p)
                if rng.random() < 0.5:
                    ref["bound"] = json.loads(p)["nodes"][0]["bound"]
            how = f"foreign from {other.name}"
        self.ops.append(f"parts {how}")
        return True

    def m_claims(self) -> bool:
        rng = self.rng
        files = self.files()
        name, doc = rng.choice(files)
        claims = doc["claims"]
        how = rng.choice(["max+1", "max-1", "max drop", "max add", "first", "weights", "kind"])
        if how.startswith("max") and "worst_case" not in claims and "weights" not in claims:
            if how == "max add":
                if "max_guesses" in claims:
                    return False
                claims["max_guesses"] = rng.randint(1, 6)
            elif "max_guesses" not in claims:
                return False
            elif how == "max drop":
                if "at_max" in claims:
                    return False
                del claims["max_guesses"]
            else:
                claims["max_guesses"] = max(1, claims["max_guesses"] + (1 if how == "max+1" else -1))
        elif how == "first" and "at_max" in claims:
            b = doc["nodes"][0]["bound"]
            if claims.get("first") == "at_max":
                del claims["first"]
            else:
                claims["first"] = "at_max"
            set_root_bound(doc, b, self.game.n)
        elif how == "weights" and "weights" in claims:
            key = rng.choice(sorted(claims["weights"]))
            claims["weights"][key] += rng.choice([1, 2, 5])
        elif how == "kind" and "at_max" not in claims and "weights" not in claims:
            b = doc["nodes"][0]["bound"]
            if "worst_case" in claims:
                del claims["worst_case"]
                claims["total"] = b
            else:
                claims.pop("total")
                claims.pop("max_guesses", None)
                claims["worst_case"] = max(1, b)
                doc["nodes"][0]["bound"] = max(1, b)
        else:
            return False
        self.ops.append(f"claims {how} {name}")
        return True

    def m_roots(self) -> bool:
        rng = self.rng
        if rng.random() < 0.5:
            self.sp.main["root"] = {"path": []} if rng.random() < 0.5 else json.loads(
                json.dumps(rng.choice(self.sp.parts)["root"]))
            self.ops.append("main given a root")
        else:
            k = self.part_index()
            del self.sp.parts[k]["root"]
            self.ops.append(f"part @{k} without root")
        return True

    def m_whole(self) -> bool:
        """A part at the root of the game (path []) holding the main file's nodes: a proof of the
        main claim that leans on the parts; named by a lemma with the main claim's bound."""
        copy = json.loads(json.dumps(self.sp.main))
        copy["root"] = {"path": []}
        self.sp.parts.append(copy)
        lemmas = self.all_lemmas()
        if lemmas:
            _, _, _, _, ref = self.rng.choice(lemmas)
            ref["lemma"] = f"@{len(self.sp.parts) - 1}"
            ref["bound"] = copy["nodes"][0]["bound"]
        self.ops.append("whole game as a part")
        return True

    def m_vacuous(self) -> bool:
        """With max_guesses: a part deeper than the limit (idle steps) proves any bound; named by
        a lemma of the same set at a shallower depth."""
        rng, game = self.rng, self.game
        if "max_guesses" not in self.sp.main["claims"]:
            return False
        k = self.part_index()
        doc = self.sp.parts[k]
        S = self.path_set(doc["root"]["path"], doc)
        idle = [c for c in range(game.n) if len(game.classes(c, S)) == 1 and c not in S]
        if not idle:
            return False
        c = rng.choice(idle)
        key = next(iter(game.classes(c, S)))
        doc["root"]["path"].extend([[game.codes[c], key]] * (self.sp.main["claims"]["max_guesses"] + 1))
        doc["nodes"] = [{"bound": HUGE}]
        set_root_bound(doc, HUGE, game.n)
        for *_, ref in self.all_lemmas():
            if ref["lemma"] == f"@{k}":
                ref["bound"] = HUGE
        self.ops.append(f"vacuous part @{k}")
        return True

    def m_other_kind(self) -> bool:
        """A part whose claim is of another kind that makes it vacuous: a total within D = its root's
        depth (no guess left: any bound holds), one node of a huge bound, named by a lemma with that
        bound. Only the kind check stands between it and a false claim."""
        k = self.part_index()
        doc = self.sp.parts[k]
        depth = len(doc["root"]["path"])
        claims = {"total": HUGE, "max_guesses": max(1, depth)}
        if self.rng.random() < 0.3 and depth >= 1:
            claims.update(at_max=0)
            claims["total"] = HUGE // (self.game.n + 1)
        doc["claims"] = claims
        doc["nodes"] = [{"bound": 0}]
        set_root_bound(doc, claims["total"] * (self.game.n + 1) if "at_max" in claims else HUGE, self.game.n)
        for *_, ref in self.all_lemmas():
            if ref["lemma"] == f"@{k}":
                ref["bound"] = doc["nodes"][0]["bound"]
        self.ops.append(f"other kind @{k}: {claims}")
        return True

    def m_node_lemma(self) -> bool:
        """A lemma reference turned into a node reference (to a random later node) or a node
        reference into a lemma reference to a random part."""
        rng = self.rng
        name, doc = rng.choice(self.files())
        refs = [(i, g, key) for i, g, key in ba.references(doc)]
        if not refs:
            return False
        i, g, key = rng.choice(refs)
        entry = doc["nodes"][i]["guesses"][g]
        ref = entry[key]
        if type(ref) is dict and "lemma" in ref:
            if i + 1 >= len(doc["nodes"]):
                return False
            entry[key] = rng.randrange(i + 1, len(doc["nodes"]))
        else:
            k = self.part_index()
            entry[key] = {"lemma": f"@{k}", "bound": rng.choice([self.sp.parts[k]["nodes"][0]["bound"], HUGE])}
        self.ops.append(f"node<->lemma in {name}")
        return True

    def m_inner(self) -> bool:
        """A single-file mutation of tests/bound_attack.py inside the main file or a part (the
        hints: the sets this file defines)."""
        rng = self.rng
        k = rng.choice([None] + list(range(len(self.sp.parts))))
        doc = self.sp.main if k is None else self.sp.parts[k]
        src = _FakeSource(doc, self.game)
        m = ba.Mutant(src, rng)
        for _ in range(5):
            if rng.choices(ba._FUNCS, ba._WEIGHTS)[0](m):
                break
        if not m.ops:
            return False
        if k is None:
            self.sp.main = m.doc
        else:
            self.sp.parts[k] = m.doc
        self.ops.append(f"inner {'main' if k is None else f'@{k}'}: {m.ops}")
        return True


class _FakeSource:
    """What ba.Mutant needs of a source, for a file of a split proof."""

    def __init__(self, doc, game) -> None:
        self.name, self.game, self.doc = "split", game, doc
        self.text = json.dumps(doc)
        self.sets, self.depths, _ = walk(doc, game)
        self.worst = "worst_case" in doc["claims"]


MUTATIONS = [("m_raise_main", 4), ("m_raise_part", 4), ("m_lemma_bound", 3), ("m_lower_part", 1),
             ("m_path", 4), ("m_root_perm", 3), ("m_lemma_perm", 3), ("m_swap", 2), ("m_retarget", 3),
             ("m_cycle", 2), ("m_parts", 3), ("m_claims", 3), ("m_roots", 1), ("m_whole", 1),
             ("m_vacuous", 2), ("m_other_kind", 2), ("m_node_lemma", 2), ("m_inner", 5)]


def mutant(seed: int, k: int, small: bool = True):
    """(name, main bytes, [part bytes], ops) of mutant k of seed ``seed``, or None when the source
    gave no split."""
    rng = random.Random(f"parts-attack/{seed}/{k}")
    pool = sources(small)
    if rng.random() < 0.3:  # a whole-file mutant first (valid or not), then split
        srcs = ba._sources(False, small)
        name, doc, ops = ba.mutant(srcs, seed, k)
        name = f"mutant {name} {ops}"
    else:
        src = rng.choice(pool)
        name, doc = src.name, json.loads(src.text)
    a = Attack(rng, doc, name, pool)
    try:
        if not a.build():
            return None
    except Exception:  # noqa: BLE001 - the splitter is untrusted and may choke on a mutant
        return None
    if rng.random() < 0.9:
        funcs = [f for f, _ in MUTATIONS]
        weights = [w for _, w in MUTATIONS]
        for _ in range(rng.choice([1, 1, 2, 2, 3, 4])):
            for _ in range(5):
                try:
                    if getattr(a, rng.choices(funcs, weights)[0])():
                        break
                except (KeyError, IndexError, TypeError, ValueError, AttributeError, bound_reference.Invalid):
                    continue  # (a mutation that does not apply to this split)
    main, parts, _ = a.sp.serialize()
    rng.shuffle(parts)
    return name, main, parts, a.ops


def verdicts(main: bytes, parts: list):
    """Each file's own verdict (verdict_bytes): the main file's, and the parts'."""
    return (verify_bound.verdict_bytes(main, "main.json"),
            [verify_bound.verdict_bytes(p, f"part-{k:04d}.json") for k, p in enumerate(parts)])


def falses(report, main: bytes, parts: list) -> list:
    """The false statements of an accepted combination: of the main file (its claim is its root's
    bound) and of every part the claim rests on (report.parts)."""
    doc = json.loads(main)
    g = doc["game"]
    game = ba.game_of((g["pegs"], g["colors"], g["repetition"]))
    bad = false_bounds(doc, game, "main")
    if "root" in doc:
        bad.append(("main", "has a root", None, None))
    by_sha = {sha(p): p for p in parts}
    for s in sorted({p["sha256"] for p in (report.parts or [])}):
        bad += false_bounds(json.loads(by_sha[s]), game, f"part {s[:12]}")
    return bad


def judge(main: bytes, parts: list):
    """(accepted, [false statements], the error when refused) of one combination."""
    report = verify_bound.combine(*verdicts(main, parts))
    if not report.valid:
        return False, [], report.error
    return True, falses(report, main, parts), None


def run_range(args):
    seed, lo, hi, small = args
    counts = {"generated": 0, "split": 0, "accepted": 0, "false": 0, "with parts": 0}
    examples = []
    for k in range(lo, hi):
        got = mutant(seed, k, small)
        counts["generated"] += 1
        if got is None:
            continue
        name, main, parts, ops = got
        counts["split"] += 1
        accepted, bad, _ = judge(main, parts)
        if accepted:
            counts["accepted"] += 1
            if any(True for _ in lemma_refs(json.loads(main))):
                counts["with parts"] += 1
        if bad:
            counts["false"] += 1
            if len(examples) < 10:
                examples.append({"k": k, "source": name, "ops": ops, "false": [list(map(str, b)) for b in bad],
                                 "main": main.decode(), "parts": [p.decode() for p in parts]})
    return counts, examples


def attack(count: int, seed: int, workers: int = 1, small: bool = True, err=None, chunk: int = 200):
    start = time.monotonic()
    jobs = [(seed, lo, min(lo + chunk, count), small) for lo in range(0, count, chunk)]
    total: dict = {}
    examples: list = []
    if workers > 1:
        import multiprocessing
        pool = multiprocessing.get_context("fork").Pool(workers)
        results = pool.imap(run_range, jobs)
    else:
        pool, results = None, map(run_range, jobs)
    try:
        for counts, ex in results:
            for key, v in counts.items():
                total[key] = total.get(key, 0) + v
            examples.extend(ex[:10 - len(examples)])
            if err is not None:
                print(f"\r{total['generated']}/{count} mutants, {total['split']} split, {total['accepted']} accepted, "
                      f"{total['false']} false", end="", file=err, flush=True)
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
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--all", action="store_true", help="also the sources whose optima take the oracle seconds")
    parser.add_argument("--examples", help="write the false acceptances (JSON) here")
    args = parser.parse_args(argv)
    summary = attack(args.count, args.seed, args.workers, not args.all, err=sys.stderr)
    examples = summary.pop("examples")
    for key, value in summary.items():
        print(f"{key}: {value}")
    for ex in examples[:3]:
        print(f"example: mutant {ex['k']} of {ex['source']}: {ex['ops']}: {ex['false']}", file=sys.stderr)
    if args.examples:
        Path(args.examples).write_text(json.dumps(examples, indent=1) + "\n")
    return 1 if summary["false"] else 0


if __name__ == "__main__":
    sys.exit(main())
