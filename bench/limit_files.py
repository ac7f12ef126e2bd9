"""The worst files each reader limit lets through (certify/reader.py, verify_bound.py, verify.py):
what a file may cost when it is *not* refused, or refused only after the work the limit allows.

    python bench/limit_files.py OUTDIR [--big] [--only NAME...]

writes (``-bound``: a lower-bound proof for verify_bound.py, ``-strategy``: a strategy certificate
for verify.py, ``-mixed``: a mixed strategy for verify_mixed.py; the base documents are the
committed one-node 4x6 proof, knuth-4x6.json and value-2x3-codebreaker.json without their own
metadata, so the new field has the whole budget):

* ``meta-objects-*.json``: a top-level field of ``{"a":1}`` objects, exactly MAX_META_BYTES (1 MiB)
  of JSON: accepted; ``meta-objects-over-bound.json`` one byte more: refused;
* ``meta-deep-*.json``: a field nested to level 32 (MAX_META_DEPTH) holding a flat array of zeros
  there (the slowest shape measured: at the deepest level the reader takes every token alone),
  1 MiB: accepted;
* ``meta-nested-*.json``: ``[[0]]`` items, 1 MiB (the slowest shape at shallow depth): accepted;
* ``meta-string-*.json``: one string of MAX_STRING (1 MiB) bytes of JSON, escaped surrogate pairs
  (valid, but each one decoded to check there is no lone surrogate): accepted;
  ``meta-string-plain-*.json``: the same of plain ASCII letters (the slowest string: matched a
  character at a time);
* ``header-params-strategy.json``: knuth-4x6 whose ``strategy.params`` makes that header field
  just under MAX_FIELD_BYTES (64 KiB) of chains of 27 nested arrays (the most objects a byte
  within the 32 levels a header field may have): built, accepted; ``header-claims-bound.json``:
  the same inside a proof's ``claims``: built, then refused (an unknown key);
* ``node-8mib-bound.json``: a 4x6 proof whose node 0 has, beside its bound, an unknown field of
  chains of 40 nested arrays up to just under MAX_NODE_BYTES (8 MiB): the node is built (~45 bytes
  of objects a byte), then refused for the field;
* ``nodes-2m-bound.json.gz``: a 4x6 proof of MAX_NODES (2,000,000) nodes, the root and
  1,999,999 ``{"bound":0}``;
* ``toplevel-keys-*.json.gz``: the base plus as many top-level fields whose *keys* are 1 MiB strings
  (each value 0) as the checker's file limit holds (255 for verify.py's 256 MiB, 127 for
  verify_bound.py's 128 MiB, 63 for verify_mixed.py's 64 MiB): keys are outside the metadata budget;
* ``tree-32mib-strategy.json.gz``: knuth-5x8 (32,768 secrets) with 41 useless guesses above every
  leaf (each leaves the one secret where it was), its claims made again: a valid tree of 1,022,975
  nodes, 32 MiB; with ``--big`` also ``tree-256mib-strategy.json.gz``: 249 useless guesses (paths
  256 guesses long, MAX_DEPTH), 6,036,399 nodes, 190 MiB (as near 256 MiB as this tree's leaves
  allow at that depth; minutes to check).

Every file is deterministic. The figures are in the report of this file's commit.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CERTS = ROOT / "certificates"
MAX_META_BYTES = 1 << 20  # certify/reader.py (copied, not imported: the reader is being edited)
MAX_STRING = 1 << 20
MAX_META_DEPTH = 32
MAX_FIELD_BYTES = 64 << 10
MAX_NODE_BYTES = 8 << 20
MAX_NODES = 2_000_000
STRATEGY_MAX_BYTES = 256 << 20  # verify.py
BOUND_MAX_BYTES = 128 << 20  # verify_bound.py
MIXED_MAX_BYTES = 64 << 20  # verify_mixed.py
MAX_DEPTH = 256
ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
CHAIN = 40  # nested arrays in a chain: 81 bytes, 40 lists (about 45 bytes of objects a byte)
#: In a header field (built only when nested at most MAX_META_DEPTH levels): the chains start at level
#: 5 in strategy.params.p, at level 4 in claims.x.
HEADER_CHAIN = MAX_META_DEPTH - 5


def _bases() -> dict:
    """kind -> (the base document's JSON, its header keys): only what its checker reads."""
    bound = json.loads((CERTS / "bounds" / "worst-case-4x6.json").read_bytes())
    strategy = json.loads((CERTS / "knuth-4x6.json").read_bytes())
    mixed = json.loads((CERTS / "value" / "value-2x3-codebreaker.json").read_bytes())
    keep = {"bound": ("format", "version", "game", "claims", "nodes"),
            "strategy": ("format", "version", "game", "strategy", "claims", "tree"),
            "mixed": tuple(mixed)}
    docs = {"bound": bound, "strategy": strategy, "mixed": mixed}
    out = {}
    for kind, doc in docs.items():
        if kind == "mixed":  # keep its own fields but any generator/comment metadata
            doc = {k: v for k, v in doc.items() if k not in ("generator", "comment", "note")}
        else:
            doc = {k: doc[k] for k in keep[kind] if k in doc}
        out[kind] = json.dumps(doc, separators=(",", ":")).encode()
    return out


def with_field(base: bytes, key: bytes, value: bytes) -> bytes:
    """``base`` (a JSON object) with one more member "key": value (its bytes as given)."""
    assert base.endswith(b"}")
    return base[:-1] + b',"' + key + b'":' + value + b"}"


def array_of(unit: bytes, size: int) -> bytes:
    """``[unit,unit,...]`` of exactly ``size`` bytes (padded with spaces before the ']')."""
    n = (size - 1) // (len(unit) + 1)
    body = b"[" + b",".join([unit] * n)
    return body + b" " * (size - 1 - len(body)) + b"]"


def chain(depth: int = CHAIN) -> bytes:
    return b"[" * depth + b"]" * depth


def meta_objects(size: int = MAX_META_BYTES) -> bytes:
    return array_of(b'{"a":1}', size)


def meta_deep(size: int = MAX_META_BYTES) -> bytes:
    """The field's value is level 2; 31 brackets reach level 32, the zeros are inside it."""
    d = MAX_META_DEPTH - 1
    inner = size - 2 * d
    zeros = b"0," * ((inner - 1) // 2) + b"0"
    return b"[" * d + zeros + b" " * (inner - len(zeros)) + b"]" * d


def meta_nested(size: int = MAX_META_BYTES) -> bytes:
    return array_of(b"[[0]]", size)


def meta_string(size: int = MAX_STRING) -> bytes:
    """A JSON string of exactly ``size`` bytes: escaped surrogate pairs (valid), then 'a's."""
    pair = b"\\ud83d\\ude00"
    n = (size - 2) // len(pair)
    return b'"' + pair * n + b"a" * (size - 2 - n * len(pair)) + b'"'


def meta_string_plain(size: int = MAX_STRING) -> bytes:
    """A JSON string of exactly ``size`` bytes of plain ASCII: the reader's string pattern takes it a
    character at a time (the slowest string per byte, and the most memory while it is matched)."""
    return b'"' + b"k" * (size - 2) + b'"'


def header_params(base: bytes) -> bytes:
    """knuth-4x6 with strategy.params {"p": [chains...]}: the strategy field just under 64 KiB."""
    doc = json.loads(base)
    head = json.dumps(doc["strategy"], separators=(",", ":")).encode()
    room = MAX_FIELD_BYTES - len(head) - len(b',"p":') - 16
    doc["strategy"]["params"] = {"p": "@@"}
    text = json.dumps(doc, separators=(",", ":")).encode()
    return text.replace(b'"@@"', array_of(chain(HEADER_CHAIN), room))


def header_claims(base: bytes) -> bytes:
    doc = json.loads(base)
    doc["claims"]["x"] = "@@"
    room = MAX_FIELD_BYTES - len(json.dumps(doc["claims"], separators=(",", ":"))) - 16
    text = json.dumps(doc, separators=(",", ":")).encode()
    return text.replace(b'"@@"', array_of(chain(HEADER_CHAIN), room))


def node_8mib(base: bytes) -> bytes:
    doc = json.loads(base)
    assert doc["nodes"] == [{"bound": 5}]
    doc["nodes"] = "@@"
    node = b'{"bound":5,"x":' + array_of(chain(), MAX_NODE_BYTES - 64) + b"}"
    return json.dumps(doc, separators=(",", ":")).encode().replace(b'"@@"', b"[" + node + b"]")


def gzip_parts(parts) -> bytes:
    z = zlib.compressobj(6, zlib.DEFLATED, 31)
    return b"".join(z.compress(p) for p in parts) + z.flush()


def nodes_2m(base: bytes) -> bytes:
    doc = json.loads(base)
    doc["nodes"] = "@@"
    head, tail = json.dumps(doc, separators=(",", ":")).encode().split(b'"@@"')
    rest = b',{"bound":0}' * (MAX_NODES - 1)
    return gzip_parts([head, b'[{"bound":5}', rest, b"]", tail])


def toplevel_keys(base: bytes, max_bytes: int) -> bytes:
    """As many fields of value 0 as fit in ``max_bytes`` whose keys are 1 MiB strings (distinct:
    numbered first)."""
    size = MAX_STRING - 2  # the key's characters; its JSON (with quotes) is MAX_STRING bytes
    count = (max_bytes - len(base)) // (MAX_STRING + 3)
    parts = [base[:-1]]
    filler = b"k" * size
    for i in range(count):
        number = b"%06d" % i
        parts.append(b',"' + number + filler[len(number):] + b'":0')
    parts.append(b"}")
    assert sum(map(len, parts)) <= max_bytes
    return gzip_parts(parts)


def _feedback(guess: str, secret: str) -> str:
    black = sum(a == b for a, b in zip(guess, secret))
    both = sum(min(guess.count(c), secret.count(c)) for c in set(guess))
    return f"{black},{both - black}"


def _histogram(tree: dict, game: dict, useless: int) -> dict:
    """guesses -> secrets found with that many, once ``useless`` guesses are above every leaf."""
    codes = ["".join(c) for c in itertools.product(ALPHABET[:game["colors"]], repeat=game["pegs"])]
    histogram: dict = {}
    stack = [(tree, codes, 1)]
    while stack:
        node, secrets, depth = stack.pop()
        guess = node["guess"]
        if "next" not in node:
            assert secrets == [guess]
            histogram[depth + useless] = histogram.get(depth + useless, 0) + 1
            continue
        if guess in secrets:
            histogram[depth] = histogram.get(depth, 0) + 1
        parts: dict = {}
        for s in secrets:
            if s != guess:
                parts.setdefault(_feedback(guess, s), []).append(s)
        assert set(parts) == set(node["next"])
        stack.extend((child, parts[key], depth + 1) for key, child in node["next"].items())
    return histogram


def padded_tree(useless: int) -> bytes:
    """knuth-5x8 with ``useless`` guesses above every leaf (gzip), its claims made again: each leaf
    {"guess": X} becomes a chain of nodes guessing Y (00000, or 11111 for X = 00000), each with one
    branch, the feedback of Y to X, down to {"guess": X}."""
    doc = json.loads(gzip.decompress((CERTS / "knuth-5x8.json.gz").read_bytes()))
    tree = doc.pop("tree")
    histogram = _histogram(tree, doc["game"], useless)
    doc["claims"] = {"secrets": sum(histogram.values()), "max_guesses": max(histogram),
                     "total_guesses": sum(d * n for d, n in histogram.items()),
                     "histogram": {str(d): histogram[d] for d in sorted(histogram)}}
    head = json.dumps(doc, separators=(",", ":")).encode()
    z = zlib.compressobj(6, zlib.DEFLATED, 31)
    out, pieces = [z.compress(head[:-1] + b',"tree":')], []

    def leaf(x: str) -> bytes:
        y = "11111" if x == "00000" else "00000"
        step = b'{"guess":"%s","next":{"%s":' % (y.encode(), _feedback(y, x).encode())
        return step * useless + b'{"guess":"%s"}' % x.encode() + b"}}" * useless

    def write(node) -> None:  # (knuth-5x8 is 7 guesses deep: recursion is fine)
        if "next" not in node:
            pieces.append(leaf(node["guess"]))
        else:
            pieces.append(b'{"guess":"%s","next":{' % node["guess"].encode())
            for k, (key, child) in enumerate(node["next"].items()):
                pieces.append(b'%s"%s":' % (b"," if k else b"", key.encode()))
                write(child)
            pieces.append(b"}}")
        if len(pieces) > 4096:
            out.append(z.compress(b"".join(pieces)))
            pieces.clear()

    write(tree)
    out.append(z.compress(b"".join(pieces) + b"}"))
    out.append(z.flush())
    return b"".join(out)


def files(big: bool = False) -> dict:
    """name -> bytes of every limit file."""
    bases = _bases()
    out = {}
    for kind, base in bases.items():
        out[f"meta-objects-{kind}.json"] = with_field(base, b"meta", meta_objects())
        out[f"meta-deep-{kind}.json"] = with_field(base, b"meta", meta_deep())
        out[f"meta-nested-{kind}.json"] = with_field(base, b"meta", meta_nested())
        out[f"meta-string-{kind}.json"] = with_field(base, b"meta", meta_string())
        out[f"meta-string-plain-{kind}.json"] = with_field(base, b"meta", meta_string_plain())
    out["meta-objects-over-bound.json"] = with_field(bases["bound"], b"meta", meta_objects(MAX_META_BYTES + 1))
    out["header-params-strategy.json"] = header_params(bases["strategy"])
    out["header-claims-bound.json"] = header_claims(bases["bound"])
    out["node-8mib-bound.json"] = node_8mib(bases["bound"])
    out["nodes-2m-bound.json.gz"] = lambda: nodes_2m(bases["bound"])
    for kind, limit in (("strategy", STRATEGY_MAX_BYTES), ("bound", BOUND_MAX_BYTES), ("mixed", MIXED_MAX_BYTES)):
        out[f"toplevel-keys-{kind}.json.gz"] = lambda base=bases[kind], limit=limit: toplevel_keys(base, limit)
    out["tree-32mib-strategy.json.gz"] = lambda: padded_tree(41)
    if big:
        out["tree-256mib-strategy.json.gz"] = lambda: padded_tree(MAX_DEPTH - 7)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--big", action="store_true", help="also the 256 MiB strategy tree (a minute to write)")
    parser.add_argument("--only", nargs="*", default=None, metavar="NAME", help="only the files with these names")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, data in files(args.big).items():
        if args.only is not None and name not in args.only:
            continue
        data = data() if callable(data) else data
        path = args.out / name
        path.write_bytes(data)
        size = len(gzip.decompress(data)) if data[:2] == b"\x1f\x8b" else len(data)
        print(f"{name}: {len(data)} bytes ({size} of JSON)", flush=True)


if __name__ == "__main__":
    main()
