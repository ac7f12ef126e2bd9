"""Cut a lower-bound proof into independently checkable parts (docs/lower-bound-format.md, "Parts
of a proof"). Untrusted: whatever this writes, the checker (verify_bound.py) checks every file and
its combining step decides; a wrong split is refused there, never accepted.

The main file keeps the top of the proof (a set M of nodes that contains the root and, with every
node, a node that references it); every reference from a node of M to a node outside M becomes a
lemma reference ``{"lemma": SHA256, "bound": B[, "perm": P]}`` to a part file whose root is that
node. A part holds every node reachable from its root (nodes reachable from two parts are copied
into each), renumbered in the original order, so references still point forward; its ``root``
field names the root's set by a path from the game's codes and a permutation, found by following
the first reference of each node down from the root (any reference would do: the checker has
verified that all references to a node give the same set).

Two ways to choose M: ``depth`` K keeps the nodes first reached within K - 1 guesses (the parts
are the nodes at depth K referenced from there); ``parts`` N starts from the root and moves the
biggest candidate (by its number of nodes in the tree of first references) into M until there are
at least N candidates. Output bytes are deterministic: the same input and options give the same
files (keys sorted, no spaces, gzip with mtime 0).
"""

from __future__ import annotations

import gzip
import hashlib
import heapq
import json
import os

from . import verify
from .errors import CertifyError

ALPHABET = verify.ALPHABET


def _dumps(doc) -> bytes:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def _pack(data: bytes, gz: bool) -> bytes:
    # as certify.files.write_output compresses a ``.gz`` name (the sha256 is of these bytes)
    return gzip.compress(data, compresslevel=9, mtime=0) if gz else data


def _refs(node):
    """(guess, key, reference) of every children reference of a node, in the file's order."""
    for g, entry in (node.get("guesses") or {}).items():
        if "same_as" in entry:
            continue
        for key, ref in entry.items():
            yield g, key, ref


def _target(ref):
    """(node index or None for a lemma, perm or None) of a reference."""
    if isinstance(ref, int):
        return ref, None
    if "lemma" in ref:
        return None, ref.get("perm")
    return ref["node"], ref["perm"]


def _identity(pegs: int, colors: int) -> dict:
    return {"colors": list(range(colors)), "pegs": list(range(pegs))}


def _compose(q: dict, p: dict) -> dict:
    """Q after P: x -> Q(P(x)). P maps x to y with y[sp[i]] = tp[x[i]]; then z[sq[j]] = tq[y[j]]."""
    return {"colors": [q["colors"][c] for c in p["colors"]], "pegs": [q["pegs"][i] for i in p["pegs"]]}


def _apply(perm: dict, code: str) -> str:
    out = [""] * len(code)
    for i, ch in enumerate(code):
        out[perm["pegs"][i]] = ALPHABET[perm["colors"][ALPHABET.index(ch)]]
    return "".join(out)


def _part_claims(claims: dict, bound: int, n: int) -> dict:
    """The claims of a part whose root has this bound (a cost with at_max), as check_bytes reads them."""
    out = {k: v for k, v in claims.items() if k not in ("worst_case", "total", "at_max")}
    if "worst_case" in claims:
        if bound < 1:
            raise CertifyError(f"a node of bound {bound} cannot be a part of a worst-case proof (claims >= 1)")
        out["worst_case"] = bound
    elif "at_max" in claims:
        if claims.get("first") == "at_max":
            unit = n * claims["max_guesses"] + 1
            out["at_max"], out["total"] = divmod(bound, unit)
            if out["at_max"] > n:
                raise CertifyError(f"a node of cost {bound} cannot be a part (its count would pass the {n} secrets)")
        else:
            out["total"], out["at_max"] = divmod(bound, n + 1)
    else:
        out["total"] = bound
    return out


def read_proof(path) -> tuple[dict, bool]:
    """(document, was it gzip) of a proof file, read within the lower-bound checker's size limit
    (gzip decompressed within it too); CertifyError when unreadable, not JSON or not shaped as a
    lower-bound proof (a "game" of whole numbers, "claims", a non-empty list of "nodes")."""
    from . import reader
    from .verify_bound import MAX_BYTES

    name = verify._display(str(path))
    try:
        raw = verify.read_input(path)
        gz = raw[:2] == b"\x1f\x8b"
        doc = json.loads(reader.text(raw, MAX_BYTES))
    except (verify.Unreadable, verify.Invalid) as e:
        raise CertifyError(f"cannot read {name}: {e}") from None
    except (ValueError, RecursionError) as e:
        raise CertifyError(f"{name}: not a readable JSON proof ({verify._one_line(e)})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("nodes"), list) or not doc["nodes"]:
        raise CertifyError(f"{name}: not a lower-bound proof (no nodes)")
    game = doc.get("game")
    if not (isinstance(game, dict) and all(type(game.get(k)) is int and game[k] > 0 for k in ("pegs", "colors"))
            and type(game.get("repetition")) is bool and isinstance(doc.get("claims"), dict)
            and all(isinstance(n, dict) for n in doc["nodes"])):
        raise CertifyError(f"{name}: not a lower-bound proof (a game of whole pegs and colours, claims and "
                           f"nodes are needed; `certify verify {name}` says what is wrong)")
    return doc, gz


#: A part past this share of the lower-bound checker's limits (bytes of JSON, nodes) is cut again
#: below its root: ``parts`` is a floor, and the closure of one root (with the nodes it shares with
#: others) can hold most of a proof (4x9's least total: one of 34 parts past 128 MiB).
PART_SHARE = (3, 4)


def _part_limits() -> tuple[int, int]:
    from .verify_bound import MAX_BYTES, MAX_NODES

    num, den = PART_SHARE
    return MAX_BYTES * num // den, MAX_NODES * num // den


def split(doc: dict, depth: int | None = None, parts: int | None = None, gz: bool = False):
    """(main bytes, [part bytes]) for a proof document, cut at ``depth`` or into about ``parts``
    parts; each part's bytes as written (gzip when ``gz``). A proof too small to cut gives no part
    (and the main file is the proof, renumbered). A part over :data:`PART_SHARE` of the checker's
    limits is not written: its root joins the main file and its children become parts."""
    game, claims, nodes = doc["game"], doc["claims"], doc["nodes"]
    pegs, colors = game["pegs"], game["colors"]
    n = verify._n_codes(pegs, colors, game["repetition"])
    count = len(nodes)
    first = [None] * count  # (parent, guess, key, perm) of the first reference in the file's order
    level = [0] * count
    children = [[] for _ in range(count)]  # node -> the nodes it references (first references)
    for i, node in enumerate(nodes):
        for g, key, ref in _refs(node):
            j, perm = _target(ref)
            if j is None:
                continue
            if not i < j < count:
                raise CertifyError(f"node {i}: a reference to node {j} does not point forward (check the proof first)")
            if first[j] is None:
                first[j] = (i, g, key, perm)
                level[j] = level[i] + 1
                children[i].append(j)
    size = [1] * count  # nodes in the tree of first references below each node
    for j in range(count - 1, 0, -1):
        if first[j] is None:
            raise CertifyError(f"node {j}: not referenced by any earlier node (check the proof first)")
        size[first[j][0]] += size[j]
    if depth is not None:
        if depth < 1:
            raise CertifyError("--depth: must be >= 1 (depth 0 is the whole proof)")
        keep = {j for j in range(count) if level[j] < depth}
    else:
        if parts is None or parts < 1:
            raise CertifyError("--parts: must be >= 1")
        keep, heap, queued = {0}, [], set()

        def offer(i):
            for _, _, ref in _refs(nodes[i]):
                j = _target(ref)[0]
                if j is not None and j not in keep and j not in queued:
                    queued.add(j)
                    heapq.heappush(heap, (-size[j], j))
        offer(0)
        while heap and len(heap) < parts:
            _, j = heapq.heappop(heap)
            if size[j] == 1:  # a leaf: no better cut below
                heapq.heappush(heap, (-1, j))
                break
            queued.discard(j)
            keep.add(j)
            offer(j)
    # the lemma roots: nodes outside M referenced from M; a node whose bound the claims cannot state
    # for a part (a worst-case bound 0; with "first": "at_max", a vacuous node's huge cost) stays in M;
    # a root whose part is over the limits (_part_limits) joins M too, and the roots are found again
    most_bytes, most_nodes = _part_limits()
    path_of = {0: [list(step) for step in (doc.get("root") or {}).get("path", [])]}
    perm_of = {0: (doc.get("root") or {}).get("perm") or _identity(pegs, colors)}

    def locate(j):
        # path and permutation of each node on the way to a root: S_j = Q_j^-1(the class the path reaches)
        chain = []
        while j not in path_of:
            chain.append(j)
            j = first[j][0]
        for j in reversed(chain):
            i, g, key, perm = first[j]
            q = perm_of[i]
            path_of[j] = path_of[i] + [[_apply(q, g), key]]
            perm_of[j] = q if perm is None else _compose(q, perm)
        return path_of[j], perm_of[j]

    meta = {k: v for k, v in doc.items() if k in ("generator",)}
    head = {"format": doc["format"], "game": game, "version": doc["version"], **meta}
    written = {}  # root -> its part's bytes (a root's part does not change when others are cut)
    while True:
        while True:
            roots = sorted({j for i in keep for _, _, ref in _refs(nodes[i])
                            for j in [_target(ref)[0]] if j is not None and j not in keep})
            stay = set()
            for r in roots:
                try:
                    _part_claims(claims, nodes[r]["bound"], n)
                except CertifyError:
                    stay.add(r)
            if not stay:
                break
            keep |= stay
        over = set()
        for r in roots:
            if r in written:
                continue
            closure, todo = {r}, [r]
            while todo:
                i = todo.pop()
                for _, _, ref in _refs(nodes[i]):
                    j = _target(ref)[0]
                    if j is not None and j not in closure:
                        closure.add(j)
                        todo.append(j)
            order = sorted(closure)
            if len(order) > 1 and len(order) > most_nodes:
                over.add(r)
                continue
            path, perm = locate(r)
            root = {"path": path}
            if perm != _identity(pegs, colors):
                root["perm"] = perm
            part = dict(head, claims=_part_claims(claims, nodes[r]["bound"], n), root=root,
                        nodes=_renumber(nodes, order, {j: k for k, j in enumerate(order)}, {}),
                        comment=f"a part of a split proof: node {r} of the original, with its {len(order)} nodes")
            text = _dumps(part)
            if len(order) > 1 and len(text) > most_bytes:
                over.add(r)
                continue
            written[r] = _pack(text, gz)
        if not over:
            break
        keep |= over  # cut again below them
    lemma = {}  # root -> (sha256, bound)
    out = []
    for r in roots:
        data = written[r]
        lemma[r] = (hashlib.sha256(data).hexdigest(), nodes[r]["bound"])
        out.append(data)
    order = sorted(keep)
    main = dict(head, claims=claims, nodes=_renumber(nodes, order, {j: k for k, j in enumerate(order)}, lemma))
    if "root" in doc:
        main["root"] = doc["root"]
    if roots:
        main["comment"] = f"the top of a split proof: {len(order)} nodes, {len(roots)} lemmas in part files"
    return _pack(_dumps(main), gz), out


def _renumber(nodes, order, new, lemma) -> list:
    """The nodes ``order`` with references renumbered (``new``) or turned into lemma references."""
    out = []
    for i in order:
        node = dict(nodes[i])
        if "guesses" in node:
            guesses = {}
            for g, entry in node["guesses"].items():
                if "same_as" not in entry:
                    entry = {key: _moved(ref, new, lemma) for key, ref in entry.items()}
                guesses[g] = entry
            node["guesses"] = guesses
        out.append(node)
    return out


def _moved(ref, new, lemma):
    j, perm = _target(ref)
    if j is None:
        return ref  # already a lemma reference
    if j in new:
        return new[j] if perm is None else {"node": new[j], "perm": perm}
    sha, bound = lemma[j]
    return {"lemma": sha, "bound": bound, **({} if perm is None else {"perm": perm})}


class OverLimit(CertifyError):
    """The proof is over a limit the user gave for its check (``limit``: {"option", "limit",
    "needed"}): not split, since the check it is for would not run (exit 2, as unusable)."""

    def __init__(self, message: str, limit: dict) -> None:
        super().__init__(message)
        self.limit = limit


def write_split(path, folder, depth=None, parts=None, max_codes=None, max_nodes=None) -> dict:
    """Split the proof at ``path`` into ``folder`` (created; it must hold no *.json or *.json.gz):
    part-NNNN.json[.gz] first, then main.json[.gz] (each written atomically). Returns a summary.
    ``max_codes``, ``max_nodes``: the limits of the check the split is for (OverLimit, nothing
    written, when the proof is over one)."""
    doc, gz = read_proof(path)
    game = doc["game"]
    codes = verify._n_codes(min(game["pegs"], 64), game["colors"], game["repetition"])
    for option, limit, needed in (("--max-codes", max_codes, codes), ("--max-nodes", max_nodes, len(doc["nodes"]))):
        if limit is not None and needed > limit:
            raise OverLimit(f"{verify._display(str(path))}: {needed} {option[6:]}, more than the {option} {limit} given "
                            f"for its check; not split: {option} {needed} raises it",
                            {"option": option, "limit": limit, "needed": needed})
    try:
        main, pieces = split(doc, depth, parts, gz)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:  # a node of another shape
        if isinstance(e, CertifyError):
            raise
        name = verify._display(str(path))
        raise CertifyError(f"{name}: not a lower-bound proof split-proof can cut (a node of another shape); "
                           f"`certify verify {name}` says what is wrong") from None
    main_name, names = write_folder(folder, main, pieces, gz)
    return {"main": main_name, "parts": names, "nodes": len(doc["nodes"]), "codes": codes}


def check_folder(folder) -> None:
    """Refuse, before any long work, a folder for a split proof that is not a folder or already
    holds certificates (a split proof is a main file and its parts, nothing else)."""
    if os.path.lexists(folder) and not os.path.isdir(folder):
        raise CertifyError(f"{verify._display(str(folder))} is not a folder: a split proof is written in a folder")
    if os.path.isdir(folder) and any(n.endswith((".json", ".json.gz")) for n in os.listdir(folder)):
        raise CertifyError(f"{verify._display(str(folder))} already holds certificates: give an empty folder")


def write_folder(folder, main: bytes, pieces, gz: bool) -> tuple[str, list]:
    """Write a split proof (split()'s bytes) into ``folder``: part-NNNN.json[.gz] first, then
    main.json[.gz], each atomically, so a folder with a main file has all its parts. Returns (the
    main file's path, the parts' paths)."""
    from .files import write_output

    check_folder(folder)
    os.makedirs(folder, exist_ok=True)
    ext = ".json.gz" if gz else ".json"
    names = []
    for k, data in enumerate(pieces, 1):
        names.append(os.path.join(folder, f"part-{k:04d}{ext}"))
        _write(names[-1], data, gz, write_output)
    main_name = os.path.join(folder, f"main{ext}")
    _write(main_name, main, gz, write_output)
    return main_name, names


def _write(path, data: bytes, gz: bool, write_output) -> None:
    """Atomically, the exact bytes (write_output gzips a .gz name itself: it gets the JSON)."""
    write_output(path, gzip.decompress(data) if gz else data)
    with open(path, "rb") as f:
        if f.read() != data:  # the sha256 in the main file must be of the bytes on disk
            raise CertifyError(f"{verify._display(str(path))}: written bytes differ from the ones hashed")
