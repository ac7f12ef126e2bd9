"""The hostile files of issue 35, made again: small files that asked a checker for GBs or minutes.

    python bench/hostile_files.py OUTDIR [--scale F]

writes (gzip, so a few KB stand for 100+ MiB of JSON):

* ``bound-meta-44m.json.gz``: a one-node 4x6 proof (a true claim) plus a top-level field of 44
  million empty arrays (126 MiB of JSON, under the lower-bound checker's 128 MiB);
* ``bound-meta-11m.json.gz``: the same with 11 million (the 33 KB file of the issue);
* ``mixed-meta-22m.json.gz``: value-2x3-codebreaker.json plus a field of 22 million empty arrays
  (64 MiB of JSON, the mixed checker's limit);
* ``strategy-meta-88m.json.gz``: knuth-4x6.json plus 88 million (256 MiB, the strategy verifier's);
* ``perm-*.json``: a permutation whose ``pegs`` holds a list, in each place a permutation is read
  (same_as, a permuted reference, a lemma reference, a part's root.perm);
* ``leaf-4x10.json``: the single leaf {"bound": 47426} for 4 pegs x 10 colours, between the counting
  bound 47422 and the cheapest even split 47426 (the root would be a batched leaf);
* ``parts/``: a main proof leaning on one lemma and, beside its part, three copies of the 44 million
  bomb: ``certify verify parts/main.json --parts parts --jobs N``.

``--scale F`` multiplies the array counts (tests use small ones; the figures in
docs/verifier-limits.md are for 1).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOUND = "mastermind-lower-bound-certificate"


def with_field(base: bytes, count: int) -> bytes:
    """A JSON object's text plus a last field "junk": [[], [], ...] of count + 1 empty arrays, gzip."""
    base = base.rstrip()
    assert base.endswith(b"}")
    z = zlib.compressobj(9, zlib.DEFLATED, 31)
    head = z.compress(base[:-1] + b',"junk":')
    body = [z.compress(b"[")]
    piece = b"[]," * (1 << 20)
    left = count
    while left > 0:
        k = min(left, 1 << 20)
        body.append(z.compress(piece if k == 1 << 20 else b"[]," * k))
        left -= k
    return head + b"".join(body) + z.compress(b"[]]}") + z.flush()


def one_node_4x6() -> bytes:
    """The committed one-node proof that 4x6 needs 5 guesses (every guess refuted by counting)."""
    return (ROOT / "certificates" / "bounds" / "worst-case-4x6.json").read_bytes()


def perm_files() -> dict:
    """name -> bytes: a 2x2 worst-case proof with a list inside a permutation, in each place one is read."""
    game = {"colors": 2, "pegs": 2, "repetition": True}
    bad = {"pegs": [[0], 1], "colors": [0, 1]}

    def doc(nodes, **extra):
        return json.dumps({"claims": {"worst_case": 3}, "format": BOUND, "game": game, "nodes": nodes,
                           "version": 1, **extra}).encode()
    return {
        "perm-same-as.json": doc([{"bound": 3, "guesses": {"01": {"same_as": "00", "perm": bad}}}]),
        "perm-reference.json": doc([{"bound": 3, "guesses": {"00": {"0,0": {"node": 1, "perm": bad}}}},
                                    {"bound": 2}]),
        "perm-lemma.json": doc([{"bound": 3, "guesses": {"00": {"0,0": {"lemma": "0" * 64, "bound": 2,
                                                                       "perm": bad}}}}]),
        "perm-root.json": doc([{"bound": 2}], root={"path": [["00", "0,0"]], "perm": bad}),
        "perm-colors-object.json": doc([{"bound": 3, "guesses": {"01": {"same_as": "00", "perm": {
            "pegs": [1, 0], "colors": [{"a": 1}, 0]}}}}]),
    }


def leaf_4x10() -> bytes:
    return json.dumps({"claims": {"total": 47426}, "format": BOUND,
                       "game": {"colors": 10, "pegs": 4, "repetition": True}, "nodes": [{"bound": 47426}],
                       "version": 1}).encode()


def parts(out: Path, count: int, copies: int = 3) -> None:
    """A main proof of 2x2's worst case whose class 0,0 of guess 00 is a lemma, its part, and
    ``copies`` bombs that are not parts of anything, in one folder."""
    out.mkdir(parents=True, exist_ok=True)
    game = {"colors": 2, "pegs": 2, "repetition": True}
    part = json.dumps({"claims": {"worst_case": 1}, "format": BOUND, "game": game, "nodes": [{"bound": 1}],
                       "root": {"path": [["00", "0,0"]]}, "version": 1}).encode()  # the class {11}: one guess
    (out / "part.json").write_bytes(part)
    sha = hashlib.sha256(part).hexdigest()
    main = {"claims": {"worst_case": 3}, "format": BOUND, "game": game, "version": 1,
            "nodes": [{"bound": 3, "guesses": {"00": {"0,0": {"lemma": sha, "bound": 1}}}}]}
    (out / "main.json").write_bytes(json.dumps(main).encode())
    for k in range(copies):
        (out / f"bomb-{k}.json.gz").write_bytes(with_field(one_node_4x6(), count))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    out, f = args.out, args.scale
    out.mkdir(parents=True, exist_ok=True)
    (out / "bound-meta-44m.json.gz").write_bytes(with_field(one_node_4x6(), int(44_000_000 * f)))
    (out / "bound-meta-11m.json.gz").write_bytes(with_field(one_node_4x6(), int(11_000_000 * f)))
    mixed = (ROOT / "certificates" / "value" / "value-2x3-codebreaker.json").read_bytes()
    (out / "mixed-meta-22m.json.gz").write_bytes(with_field(mixed, int(22_000_000 * f)))
    knuth = (ROOT / "certificates" / "knuth-4x6.json").read_bytes()
    (out / "strategy-meta-88m.json.gz").write_bytes(with_field(knuth, int(88_000_000 * f)))
    for name, data in perm_files().items():
        (out / name).write_bytes(data)
    (out / "leaf-4x10.json").write_bytes(leaf_4x10())
    parts(out / "parts", int(44_000_000 * f))
    for p in sorted(out.rglob("*")):
        if p.is_file():
            size = len(gzip.decompress(p.read_bytes())) if p.suffix == ".gz" else p.stat().st_size
            print(f"{p.relative_to(out)}: {p.stat().st_size} bytes ({size} of JSON)")


if __name__ == "__main__":
    main()
