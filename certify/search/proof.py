"""Lower-bound certificates (docs/lower-bound-format.md): nodes, references, bytes.

The writer numbers each (candidate set, bound[, depth]) node in the order it is met; nodes are
laid out at the end so that every reference points forward: lower depth first (proofs with
max_guesses, where a child is one guess deeper), then bigger sets, then (same set) the higher
bound, then the order in which they were met. Elsewhere a child is a subset of its parent (a
class of it), with a lower bound when it is the very same set, so the order is a topological
one.

Memory (4x7's proof has 292,712 nodes): a node is a key (its set, 2 bytes a code, and its
bound and depth in one bytes object) and its body, serialised as soon as it is filled into one
buffer of all the bodies, each reference in it a placeholder ``"@<number met>"`` (no string of
a proof holds an @) that the layout replaces by the node's number in the document. The
document's nodes are one JSON array (:class:`Nodes`), which :func:`dumps` writes as it is.
"""

from __future__ import annotations

import io
import itertools
import re
import struct
from array import array
from collections import deque

import numpy as np
import orjson

from .._version import __version__
from .kernel import find_map, set_hashes

FORMAT = "mastermind-lower-bound-certificate"
VERSION = 1

#: A reference in a body before the layout: "@" and the number of the node in meeting order.
_PLACEHOLDER = re.compile(rb'"@(\d+)"')
#: A key's head: the node's bound and depth (-1: none), then its set.
_HEAD = struct.Struct("<qb")
#: Sets of more codes are never shared (their hash costs |S|^2).
SHARE_CAP = 1024
#: Nodes of one hash, size, bound and depth that a new set is compared with.
SHARE_TRIES = 4
#: Most pegs for which every peg permutation is tried to share a proof's sets (past it: the transpositions).
SHARE_PEGS = 9


def _swapped(pegs: int, i: int, j: int) -> list:
    """The permutation of ``pegs`` pegs that swaps i and j (the identity when i == j)."""
    perm = list(range(pegs))
    perm[i], perm[j] = perm[j], perm[i]
    return perm


def placeholder(number: int) -> str:
    """The reference to the node met ``number``-th, until the layout numbers it."""
    return f"@{number}"


class Nodes:
    """The nodes of a document: one JSON array, compact, keys sorted. Read as a list of dicts
    (parsed on demand; for small proofs), written by :func:`dumps` as it is."""

    __slots__ = ("data", "count")

    def __init__(self, data: bytes, count: int) -> None:
        self.data = data
        self.count = count

    def __len__(self) -> int:
        return self.count

    def __iter__(self):
        return iter(orjson.loads(self.data))

    def __getitem__(self, i):
        return orjson.loads(self.data)[i]

    def __eq__(self, other) -> bool:
        if isinstance(other, Nodes):
            return self.data == other.data
        return isinstance(other, list) and orjson.loads(self.data) == other

    __hash__ = None


class _Refs:
    """``writer.refs[key]``: the reference to a node already met."""

    __slots__ = ("ids",)

    def __init__(self, ids) -> None:
        self.ids = ids

    def __getitem__(self, key) -> str:
        return placeholder(self.ids[key])

    def __contains__(self, key) -> bool:
        return key in self.ids

    def __len__(self) -> int:
        return len(self.ids)


class _Bodies:
    """``writer.bodies[key] = body``: a node's body (a dict, references as placeholders)."""

    __slots__ = ("writer",)

    def __init__(self, writer) -> None:
        self.writer = writer

    def __setitem__(self, key, body: dict) -> None:
        w = self.writer
        w._set(w.ids[key], body)

    def __len__(self) -> int:
        return self.writer.node_count


class ProofWriter:
    def __init__(self, space, claims: dict) -> None:
        self.space = space
        self.claims = claims
        # A set's codes take 2 bytes each in a key (4 beyond 65,536 codes).
        self.dtype = np.dtype(np.uint16 if space.n <= 1 << 16 else np.int32)
        self.ids: dict = {}  # key -> number met
        self.keys: list = []  # number met -> key
        # number met -> what lays it out: (depth or 0, -size, -bound)
        self.depths = array("q")
        self.sizes = array("q")
        self.bounds = array("q")
        # The bodies, one after the other in one buffer (no object per body): number met ->
        # its bytes heap[start:end] (start -1 until filled).
        self.heap = bytearray()
        self.start = array("q")
        self.end = array("q")
        self.filled = 0
        self.pending: deque = deque()  # numbers met, not yet filled
        self._current = None
        # Shared sub-proofs: a set that a permutation maps from a node's set (same size, bound
        # and depth) is a reference {"node": j, "perm": P} to that node, not a node of its own
        # (docs/lower-bound-format.md, "Candidate sets"). Nodes are looked up by a hash that
        # the permutations keep; the map is searched, and the checker checks it. (SHARE_CAP = 0
        # turns it off.)
        self.alias: dict = {}  # key -> its permuted reference
        self.buckets: dict = {}  # (hash, size, bound, depth) -> [numbers met]
        self._digits = np.ascontiguousarray(space.digits, dtype=np.int64)
        # Every peg permutation is tried for a map; past SHARE_PEGS pegs (10! = 3.6 million, 290 MB,
        # each tried per candidate node) the identity and the transpositions of two pegs only, as
        # the symmetry does past 7 pegs: fewer sets shared (a bigger proof), never a wrong map.
        pegs = range(space.pegs)
        self._perms = np.array(list(itertools.permutations(pegs)) if space.pegs <= SHARE_PEGS else
                               [_swapped(space.pegs, 0, 0)] + [_swapped(space.pegs, i, j) for i in pegs for j in pegs if i < j],
                               dtype=np.int64)
        self._mark = np.zeros(space.n, dtype=np.bool_)
        self._out = np.zeros(space.pegs + space.colors, dtype=np.int64)

    # -- keys and references -------------------------------------------------------------

    def root(self, cands, bound, depth=None) -> str:
        return self.ref(cands, bound, depth)

    def ref(self, cands, bound: int, depth=None):
        """The reference to node (cands, bound[, depth]), queued for filling if new."""
        return self.ref_raw(cands.astype(self.dtype).tobytes(), len(cands), bound, depth)

    def hashes(self, pool, starts, sizes) -> np.ndarray:
        """:func:`.kernel.set_hashes` of the sets pool[starts[t]:starts[t] + sizes[t]], as
        :meth:`ref_raw` takes them."""
        sp, c = self.space, np.ascontiguousarray
        return set_hashes(sp.fb, c(pool, np.int64), c(starts, np.int64), c(sizes, np.int64), sp.n_fb,
                          SHARE_CAP)

    def ref_raw(self, raw: bytes, size: int, bound: int, depth=None, settled: bool = False,
                h=None):
        """:meth:`ref` of a set given as its key bytes (``raw``: its codes in :attr:`dtype`).
        ``settled``: the caller knows the node has no entries (counting settles it), so its body
        is written at once instead of being queued for filling. ``h``: the set's
        :meth:`hashes` if the caller has it. The reference is a placeholder, or a dict
        {"node": placeholder, "perm": P} when the set is the image of a node's set."""
        key = _HEAD.pack(bound, -1 if depth is None else depth) + raw
        found = self.ids.get(key)
        if found is not None:
            return placeholder(found)
        bucket = None
        if not settled and size <= SHARE_CAP:
            alias = self.alias.get(key)
            if alias is not None:
                return alias
            T = np.frombuffer(raw, self.dtype).astype(np.int64)
            if h is None:
                h = self.hashes(T, np.zeros(1, np.int64), np.array([size], np.int64))[0]
            bucket = self.buckets.setdefault((int(h), size, bound, depth), [])
            sp = self.space
            for number in bucket:
                R = np.frombuffer(self.keys[number], self.dtype, offset=_HEAD.size).astype(np.int64)
                if find_map(R, T, self._digits, sp.colors, self._perms, sp.pows, sp.vindex, self._mark,
                            self._out):
                    out = self._out.tolist()
                    perm = self.perm_json((out[:sp.pegs], out[sp.pegs:]))
                    alias = self.alias[key] = {"node": placeholder(number), "perm": perm}
                    return alias
        found = self._new(key, 0 if depth is None else depth, size, bound)
        if bucket is not None and len(bucket) < SHARE_TRIES:
            bucket.append(found)
        if settled:  # orjson's bytes of {"bound": bound}, without the dict (most nodes)
            self._set_bytes(found, b'{"bound":%d}' % bound)
        else:
            self.pending.append(found)
        return placeholder(found)

    def _new(self, key, depth, size, bound) -> int:
        number = self.ids[key] = len(self.keys)
        self.keys.append(key)
        self.depths.append(depth)
        self.sizes.append(size)
        self.bounds.append(bound)
        self.start.append(-1)
        self.end.append(-1)
        return number

    def _node(self, number):
        """(key, cands, bound, depth) of the node met ``number``-th."""
        key = self.keys[number]
        bound, depth = _HEAD.unpack_from(key)
        cands = np.frombuffer(key, self.dtype, offset=_HEAD.size).astype(np.int64)
        return key, cands, bound, None if depth < 0 else depth

    @property
    def refs(self) -> _Refs:
        return _Refs(self.ids)

    @property
    def bodies(self) -> _Bodies:
        return _Bodies(self)

    # -- filling -------------------------------------------------------------------------

    def next_pending(self):
        key, cands, bound, depth = self._node(self.pending.popleft())
        self._current = key
        return (cands, bound) if depth is None else (cands, bound, depth)

    def next_pending_full(self):
        """(cands, bound, depth) of the next node to fill."""
        key, cands, bound, depth = self._node(self.pending.popleft())
        self._current = key
        return cands, bound, depth

    def take_pending(self, limit: int | None = None, codes: int | None = None) -> list:
        """The nodes waiting to be filled, in order: [(key, cands, bound, depth)]; at most
        ``limit`` of them, and no more once their sets hold ``codes`` codes in all."""
        pending, out, held = self.pending, [], 0
        while pending and (limit is None or len(out) < limit) and (codes is None or held < codes):
            number = pending.popleft()
            out.append(self._node(number))
            held += self.sizes[number]
        return out

    def fill_key(self, key, bound: int, guesses: dict, blocks=()) -> None:
        """Node ``key``: its guess entries (none when counting settles it whole) and its
        interchangeable colours (codes that are not the lowest of their orbit have no entry)."""
        body = {"bound": bound}
        if guesses:
            body["guesses"] = guesses
        if blocks:
            body["interchangeable"] = [list(b) for b in blocks]
        self._set(self.ids[key], body)

    def fill(self, guesses: dict) -> None:
        key = self._current
        bound = _HEAD.unpack_from(key)[0]
        # A node that counting settles whole has no entries: "guesses" is left out.
        self._set(self.ids[key], {"bound": bound, "guesses": guesses} if guesses else {"bound": bound})

    def _set(self, number: int, body: dict) -> None:
        self._set_bytes(number, orjson.dumps(body, option=orjson.OPT_SORT_KEYS))

    def _set_bytes(self, number: int, data: bytes) -> None:
        if self.start[number] < 0:
            self.filled += 1
        heap = self.heap
        self.start[number] = len(heap)
        heap += data
        self.end[number] = len(heap)

    def perm_json(self, perm) -> dict:
        pegs, colors = perm
        return {"colors": list(colors), "pegs": list(pegs)}

    @property
    def node_count(self) -> int:
        return self.filled

    def extra(self, key, order) -> str:
        """A node filled by the caller (``bodies[key]``), laid out by ``order``: (depth or 0,
        -size, -bound), after those met before it, as :meth:`ref` makes them."""
        depth, size, bound = order
        return placeholder(self._new(key, depth, -size, -bound))

    # -- layout --------------------------------------------------------------------------

    def order(self):
        """The numbers met, in document order, and each one's number in the document."""
        met = np.arange(len(self.start), dtype=np.int64)
        order = np.lexsort((met, -np.asarray(self.bounds), -np.asarray(self.sizes),
                            np.asarray(self.depths)))
        index = np.empty_like(order)
        index[order] = met
        return order, index

    def laid_out(self):
        """(number met, body bytes with references numbered), in document order."""
        order, index = self.order()
        index = array("q", index.tobytes())  # (an array indexes faster than numpy, per item)
        # A body split at its references: text, number met, text, ...: each number replaced by
        # the node's place in the document (a join, not a callback per reference).
        heap, start, end, split = memoryview(self.heap), self.start, self.end, _PLACEHOLDER.split
        for i in order.tolist():
            if start[i] < 0:  # pragma: no cover - a writer bug
                raise AssertionError("a node of the proof was never filled")
            b = heap[start[i]:end[i]].tobytes()
            if b"@" in b:
                parts = split(b)
                parts[1::2] = [b"%d" % index[int(m)] for m in parts[1::2]]
                b = b"".join(parts)
            yield i, b
        heap.release()

    def nodes(self) -> Nodes:
        """The document's nodes, written into one buffer (no list of the written bodies, no
        copy to join them). The writer is spent: its keys go first, its bodies last."""
        count = len(self.keys)
        self.ids, self.keys = {}, []
        out = io.BytesIO()
        out.write(b"[")
        for _, b in self.laid_out():
            if out.tell() > 1:
                out.write(b",")
            out.write(b)
        out.write(b"]")
        self.heap = bytearray()
        return Nodes(out.getvalue(), count)

    def below(self):
        """[(depth, size, bound, body, set's key bytes)] in document order, bodies parsed (for
        :meth:`.total.TotalSearch.prove_below`)."""
        out = []
        for i, b in self.laid_out():
            _, cands, bound, depth = self._node(i)
            out.append((depth, self.sizes[i], bound, orjson.loads(b), cands.tobytes()))
        return out

    def document(self, comment: str | None = None) -> dict:
        doc = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.space.game.to_json(),
            "claims": self.claims,
            "generator": {"name": "certify", "version": __version__},
            "nodes": self.nodes(),
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
    if isinstance(obj, Nodes):
        return orjson.Fragment(obj.data)
    raise TypeError(type(obj).__name__)


def dumps(doc: dict) -> bytes:
    """Compact JSON with sorted keys: the same document always gives the same bytes."""
    return orjson.dumps(doc, default=_default, option=orjson.OPT_SORT_KEYS | orjson.OPT_APPEND_NEWLINE)
