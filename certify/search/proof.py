"""Lower-bound certificates (docs/lower-bound-format.md): nodes, references, bytes.

The writer hands out a :class:`Ref` per (candidate set, bound[, depth]) node; nodes are laid
out at the end so that every reference points forward: lower depth first (proofs with
max_guesses, where a child is one guess deeper), then bigger sets, then (same set) the higher
bound, then the order in which they were met. Elsewhere a child is a subset of its parent (a
class of it), with a lower bound when it is the very same set, so the order is a topological
one.
"""

from __future__ import annotations

from collections import deque

import orjson

from .. import __version__

FORMAT = "mastermind-lower-bound-certificate"
VERSION = 1


class Ref:
    """A reference to a node, numbered when the document is laid out."""

    __slots__ = ("index", "order")

    def __init__(self, order) -> None:
        self.order = order
        self.index = None


class ProofWriter:
    def __init__(self, space, claims: dict) -> None:
        self.space = space
        self.claims = claims
        self.refs: dict = {}  # key -> Ref
        self.bodies: dict = {}  # key -> node dict
        self.pending: deque = deque()
        self._current = None

    def key(self, cands, bound, depth=None):
        return (cands.tobytes(), bound, depth)

    def root(self, cands, bound, depth=None) -> Ref:
        return self.ref(cands, bound, depth)

    def ref(self, cands, bound: int, depth=None) -> Ref:
        """The reference to node (cands, bound[, depth]), queued for filling if new."""
        key = self.key(cands, bound, depth)
        found = self.refs.get(key)
        if found is None:
            found = self.refs[key] = Ref((0 if depth is None else depth, -len(cands), -bound,
                                          len(self.refs)))
            self.pending.append((key, cands, bound, depth))
        return found

    def next_pending(self):
        key, cands, bound, depth = self.pending.popleft()
        self._current = (key, bound)
        return (cands, bound) if depth is None else (cands, bound, depth)

    def next_pending_full(self):
        """(cands, bound, depth) of the next node to fill."""
        key, cands, bound, depth = self.pending.popleft()
        self._current = (key, bound)
        return cands, bound, depth

    def take_pending(self) -> list:
        """Every node waiting to be filled: [(key, cands, bound, depth)], in order."""
        out = list(self.pending)
        self.pending.clear()
        return out

    def fill_key(self, key, bound: int, guesses: dict, blocks=()) -> None:
        """Node ``key``: its guess entries (none when counting settles it whole) and its
        interchangeable colours (codes that are not the lowest of their orbit have no entry)."""
        body = {"bound": bound}
        if guesses:
            body["guesses"] = guesses
        if blocks:
            body["interchangeable"] = [list(b) for b in blocks]
        self.bodies[key] = body

    def fill(self, guesses: dict) -> None:
        key, bound = self._current
        # A node that counting settles whole has no entries: "guesses" is left out.
        self.bodies[key] = {"bound": bound, "guesses": guesses} if guesses else {"bound": bound}

    def perm_json(self, perm) -> dict:
        pegs, colors = perm
        return {"colors": list(colors), "pegs": list(pegs)}

    @property
    def node_count(self) -> int:
        return len(self.bodies)

    def extra(self, key, order) -> Ref:
        """A node filled by the caller (``bodies[key]``), laid out by ``order``: (depth or 0,
        -size, -bound) and the order met, as :meth:`ref` makes them."""
        ref = self.refs[key] = Ref(tuple(order) + (len(self.refs),))
        return ref

    def laid_out(self) -> list:
        """[(key, body)] in document order, every reference numbered."""
        order = sorted(self.refs, key=lambda k: self.refs[k].order)
        for i, key in enumerate(order):
            self.refs[key].index = i
        return [(key, self.bodies[key]) for key in order]

    def document(self, comment: str | None = None) -> dict:
        nodes = [body for _, body in self.laid_out()]
        doc = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.space.game.to_json(),
            "claims": self.claims,
            "generator": {"name": "certify", "version": __version__},
            "nodes": nodes,
        }
        if comment:
            doc["comment"] = comment
        return doc


def renumbered(body: dict, number) -> dict:
    """The node ``body`` with each reference r (a node number, or {"node": r, "perm": P})
    replaced by number(r)."""
    if "guesses" not in body:
        return body
    guesses = {}
    for code, entry in body["guesses"].items():
        if "same_as" not in entry:
            entry = {fb: ({"node": number(ref["node"]), "perm": ref["perm"]} if isinstance(ref, dict)
                          else number(ref)) for fb, ref in entry.items()}
        guesses[code] = entry
    return {**body, "guesses": guesses}


def _default(obj):
    if isinstance(obj, Ref):
        return obj.index
    raise TypeError(type(obj).__name__)


def dumps(doc: dict) -> bytes:
    """Compact JSON with sorted keys: the same document always gives the same bytes."""
    return orjson.dumps(doc, default=_default, option=orjson.OPT_SORT_KEYS) + b"\n"
