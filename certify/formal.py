"""Untrusted translation of certificates into the verified checker's simple format, and running it.

The verified checker (formal/: Coq definitions and proofs, extracted to OCaml) reads
whitespace-separated integers (formal/README.md). This module writes them from a strategy
certificate or a worst-case lower-bound proof. It is *not* part of the trusted core: a wrong
translation can make the verified checker refuse a good file or check another claim than the
file's, so the checker prints the claim it proved (game, D, histogram) and `certify verify
--formal` compares that line with the file's claims. Nothing in certify/verify*.py imports it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zlib
from pathlib import Path

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
#: Largest file translated, after decompression (the committed proofs are far below it).
MAX_BYTES = 512 << 20


class Untranslatable(ValueError):
    """The file cannot be written in the simple format (its shape is wrong): refused, exit 1."""


class Unsupported(Untranslatable):
    """A well-formed file this translation does not cover (a total claim, a split proof): exit 2."""


def load(path) -> dict:
    with open(path, "rb") as f:
        raw = f.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise Unsupported(f"more than {MAX_BYTES >> 20} MiB")
    if raw[:2] == b"\x1f\x8b":
        try:
            d = zlib.decompressobj(16 + zlib.MAX_WBITS)
            raw = d.decompress(raw, MAX_BYTES + 1)
            if len(raw) > MAX_BYTES:
                raise Unsupported(f"more than {MAX_BYTES >> 20} MiB once decompressed")
            if not d.eof or d.unused_data:
                raise Untranslatable("damaged gzip (truncated, or bytes after its end)")
        except (OSError, EOFError, zlib.error) as e:  # (Unsupported is none of these)
            raise Untranslatable(f"damaged gzip ({e.__class__.__name__})") from None
    def no_repeat(pairs):
        keys = [k for k, _ in pairs]
        if len(set(keys)) != len(keys):
            raise Untranslatable("a repeated key in an object")
        return dict(pairs)

    try:  # the project's JSON rules that decide which claim a file makes: UTF-8, no repeated key
        doc = json.loads(raw.decode("utf-8"), object_pairs_hook=no_repeat)
    except (ValueError, RecursionError) as e:
        if isinstance(e, Untranslatable):
            raise
        raise Untranslatable(f"not JSON in UTF-8 ({e.__class__.__name__})") from None
    if not isinstance(doc, dict):
        raise Untranslatable("not a JSON object")
    if doc.get("version") != 1 or type(doc.get("version")) is not int:
        raise Untranslatable("version is not 1")
    return doc


def _int(x, what) -> int:
    if type(x) is not int or x < 0:
        raise Untranslatable(f"{what} is not a non-negative integer")
    return x


def game_of(doc) -> tuple[int, int, bool, bool]:
    g = doc.get("game")
    if not isinstance(g, dict) or set(g) - {"pegs", "colors", "repetition", "feedback"}:
        raise Untranslatable("game is missing or has an unknown field")
    pegs, colors = _int(g.get("pegs"), "game.pegs"), _int(g.get("colors"), "game.colors")
    rep = g.get("repetition")
    fb = g.get("feedback", "black-white")
    if type(rep) is not bool or fb not in ("black-white", "black-only"):
        raise Untranslatable("game.repetition or game.feedback is malformed")
    if not 1 <= pegs <= 12 or not 1 <= colors <= 36:
        raise Unsupported("game out of range")
    return pegs, colors, rep, fb == "black-only"


def _code(s, pegs, colors) -> list[int]:
    if not isinstance(s, str) or len(s) != pegs or any(ch not in DIGITS[:colors] for ch in s):
        raise Untranslatable(f"not a code of the game: {s!r:.40}")
    return [DIGITS.index(ch) for ch in s]


def _answer(key, pegs, black_only) -> tuple[int, int]:
    parts = key.split(",") if isinstance(key, str) else []
    if (len(parts) != (1 if black_only else 2)
            or not all(p.isdigit() and p.isascii() and str(int(p)) == p for p in parts)):
        raise Untranslatable(f"not an answer: {key!r:.40}")
    nums = [int(p) for p in parts]
    return nums[0], (0 if black_only else nums[1])


def strategy_text(doc) -> str:
    """The simple format of a strategy certificate: header, claims, then the tree in prefix order."""
    if doc.get("format") != "mastermind-strategy-certificate":
        raise Untranslatable("not a strategy certificate")
    pegs, colors, rep, black_only = game_of(doc)
    claims = doc.get("claims")
    if not isinstance(claims, dict) or set(claims) != {"secrets", "max_guesses", "total_guesses", "histogram"}:
        raise Untranslatable("claims are missing or have an unknown field")
    depth = _int(claims.get("max_guesses"), "claims.max_guesses")
    secrets = _int(claims.get("secrets"), "claims.secrets")
    total = _int(claims.get("total_guesses"), "claims.total_guesses")
    hist = claims.get("histogram")
    if not isinstance(hist, dict) or depth < 1:
        raise Untranslatable("claims.histogram or max_guesses is malformed")
    counts = [0] * depth
    for key, n in hist.items():
        if not (key.isdigit() and key.isascii() and str(int(key)) == key and 1 <= int(key) <= depth):
            raise Untranslatable(f"histogram key {key!r:.20} is not a guess count 1..max_guesses")
        counts[int(key) - 1] = _int(n, "a histogram count")
        if n == 0:
            raise Untranslatable("a histogram count is 0 (zero counts are omitted)")
    out = ["mastermind-strategy", str(pegs), str(colors), str(int(rep)), str(int(black_only)),
           str(depth), " ".join(map(str, counts)), str(secrets), str(total)]
    stack = [doc.get("tree")]  # iterative: a deep tree must not exhaust Python's stack
    while stack:
        node = stack.pop()
        if isinstance(node, tuple):  # an answer written before its subtree
            out.append(f"{node[0]} {node[1]}")
            continue
        if not isinstance(node, dict) or set(node) - {"guess", "next"}:
            raise Untranslatable("a tree node is malformed")
        nxt = node.get("next", {})
        if not isinstance(nxt, dict) or ("next" in node and not nxt):
            raise Untranslatable("a node's next is malformed")
        out.append(" ".join(map(str, _code(node.get("guess"), pegs, colors))) + f" {len(nxt)}")
        for key, child in reversed(list(nxt.items())):
            stack.append(child)
            stack.append(_answer(key, pegs, black_only))
    return "\n".join(out) + "\n"


# ---------- worst-case lower bounds: elaboration into the core format ----------
#
# The core format (formal/README.md) lists, for every node, its set of secrets and the guesses it
# claims are too few ("left" = bound - 1), and a witness for each guess that the verified checker
# cannot refute by counting alone: an answer a and a node i whose set, mapped by a permutation P,
# lies inside the guess's class a. The checker enumerates every guess itself. Here the project's
# rules are unfolded: references and permuted references become witnesses, `same_as` and
# interchangeable colours become witnesses through composed permutations. The checker's counting
# bound is the project's (the answer (P-1, 1) never occurs), so every node of the core format is a
# node of the proof.

class _Perm:
    """A permutation in the project's form: y[sigma[i]] = tau[x[i]]."""

    def __init__(self, sigma, tau):
        self.sigma, self.tau = tuple(sigma), tuple(tau)

    @staticmethod
    def identity(pegs, colors):
        return _Perm(range(pegs), range(colors))

    @staticmethod
    def of(doc, pegs, colors):
        if not isinstance(doc, dict) or set(doc) != {"pegs", "colors"}:
            raise Untranslatable("a permutation is malformed")
        sigma, tau = doc["pegs"], doc["colors"]
        if sorted(sigma) != list(range(pegs)) or sorted(tau) != list(range(colors)):
            raise Untranslatable("a permutation is not one")
        return _Perm(sigma, tau)

    def inverse(self):
        s, t = [0] * len(self.sigma), [0] * len(self.tau)
        for i, v in enumerate(self.sigma):
            s[v] = i
        for i, v in enumerate(self.tau):
            t[v] = i
        return _Perm(s, t)

    def after(self, other):
        """self o other: other first."""
        return _Perm([self.sigma[v] for v in other.sigma], [self.tau[v] for v in other.tau])

    def core(self) -> str:
        """The core format's P then its inverse: peg_map with y[j] = tau[x[peg_map[j]]]."""
        inv = self.inverse()
        return " ".join(map(str, list(inv.sigma) + list(self.tau) + list(self.sigma) + list(inv.tau)))


class _Bound:
    def __init__(self, doc, max_codes=20_000):
        import numpy as np  # noqa: PLC0415 (only the translation of bounds needs it)

        self.np = np
        if doc.get("format") != "mastermind-lower-bound-certificate":
            raise Untranslatable("not a lower-bound certificate")
        self.pegs, self.colors, self.rep, self.black_only = game_of(doc)
        claims = doc.get("claims")
        if not isinstance(claims, dict) or set(claims) != {"worst_case"}:
            raise Unsupported("only worst-case claims are translated (not totals)")
        self.depth = _int(claims["worst_case"], "claims.worst_case")
        if self.depth > 64:  # more guesses than any game of the translation's size needs
            raise Unsupported("claims.worst_case above 64")
        nodes = doc.get("nodes")
        if "root" in doc or not isinstance(nodes, list) or not nodes:
            raise (Unsupported("parts of split proofs are not translated") if "root" in doc
                   else Untranslatable("nodes are malformed"))
        self.nodes = nodes
        import itertools  # noqa: PLC0415
        import math  # noqa: PLC0415

        n = self.colors ** self.pegs if self.rep else math.perm(self.colors, self.pegs)
        if not 1 <= n <= max_codes:
            raise Unsupported(f"the game has {n} codes: the translation takes at most {max_codes}")

        allc = [c for c in itertools.product(range(self.colors), repeat=self.pegs)
                if self.rep or len(set(c)) == self.pegs]
        self.index = {c: i for i, c in enumerate(allc)}
        self.tuples = allc
        p = self.pegs
        # the checker's answers besides the win: (p-1, 1) never occurs (no_almost_win), nor, without
        # repetition, b + w < 2p - c (common_norep)
        low = 0 if self.rep else max(0, 2 * p - self.colors)
        answers = p if self.black_only else sum(
            1 for bl in range(p + 1) for wh in range(p + 1 - bl)
            if (bl, wh) not in ((p, 0), (p - 1, 1)) and bl + wh >= low)
        self.most = [0]  # most[k]: the most secrets k guesses can find (the checker's counting bound)
        for _ in range(self.depth + 1):
            self.most.append(1 + answers * self.most[-1])
        self._game = None

    # The feedback table of the Python checker's game (n x n bytes, built once): the translation
    # partitions every node's set for every guess, as that checker does.
    def game(self):
        if self._game is None:
            from . import verify_bound  # noqa: PLC0415 (a trusted module; the translation may use it)

            self._game = verify_bound._game(self.pegs, self.colors, self.rep, self.black_only)
            self._class = {fb: k for k, fb in enumerate(self._game.feedbacks)}
        return self._game

    def class_sizes(self, cols):
        """For every guess, the size of each class at the set `cols` (the win excluded): n x classes."""
        game = self.game()
        return game.class_sizes(cols)[:game.win].T

    def klass(self, g, cols, key):
        """The codes of `cols` (ascending) giving answer `key` to guess g (an impossible answer: none)."""
        k = self._class.get(divmod(key, self.pegs + 1)) if self.game() else None
        if k is None:
            return []
        return cols[self._game.table[g, cols] == k].tolist()

    def key_of(self, text):
        b, w = _answer(text, self.pegs, self.black_only)
        return b * (self.pegs + 1) + w

    def apply(self, P, i):
        x = self.tuples[i]
        y = [0] * self.pegs
        for j in range(self.pegs):
            y[P.sigma[j]] = P.tau[x[j]]
        return self.index[tuple(y)]


def np_arr(b, xs):
    return b.np.array(xs, dtype=b.np.int64)


def _canon_perm(bound, g, lists):
    """The colour permutation mapping g to the lowest code of its orbit under `lists`."""
    tau = list(range(bound.colors))
    x = bound.tuples[g]
    for lst in lists:
        seen = []
        for c in x:
            if c in lst and c not in seen:
                seen.append(c)
        rest = [c for c in lst if c not in seen]
        for src, dst in zip(seen + rest, lst):
            tau[src] = dst
    return _Perm(range(bound.pegs), tau)


def bound_text(doc) -> str:
    """The core format of a worst-case lower-bound proof (see the section comment above)."""
    b = _Bound(doc)
    np = b.np
    n_proj = len(b.nodes)
    sets = [None] * n_proj
    sets[0] = list(range(len(b.tuples)))
    core = []  # per core node: (set, left, witnesses {guess: (key, node, perm)})

    def ref_of(r):
        if type(r) is int:
            return r, _Perm.identity(b.pegs, b.colors)
        if isinstance(r, dict) and "lemma" in r:
            raise Unsupported("lemma references (split proofs) are not translated")
        if not isinstance(r, dict) or set(r) != {"node", "perm"} or type(r["node"]) is not int:
            raise Untranslatable("a reference is malformed")
        return r["node"], _Perm.of(r["perm"], b.pegs, b.colors)

    def bound_of(j):
        node = b.nodes[j]
        if not isinstance(node, dict) or type(node.get("bound")) is not int:
            raise Untranslatable(f"node {j} is malformed")
        if not 0 <= node["bound"] <= b.depth:  # no set of codes needs more than all of them
            raise Untranslatable(f"node {j}: bound out of range")
        return node["bound"]

    for j in range(n_proj):
        node = b.nodes[j]
        d = bound_of(j)
        S = sets[j]
        if S is None:
            raise Untranslatable(f"node {j} is never referenced")
        left = d - 1
        guesses = node.get("guesses", {})
        if not isinstance(guesses, dict):
            raise Untranslatable(f"node {j}: guesses is malformed")
        cols = np_arr(b, S)
        # define the children's sets (first reference wins, as in the project's checker)
        direct = {}
        for text, entry in guesses.items():
            g = b.index[tuple(_code(text, b.pegs, b.colors))]
            if isinstance(entry, dict) and "same_as" not in entry:
                for key_text, r in entry.items():
                    key = b.key_of(key_text)
                    i, P = ref_of(r)
                    if not j < i < n_proj:
                        raise Untranslatable(f"node {j}: a reference does not point forward")
                    cls = b.klass(g, cols, key)
                    if sets[i] is None:
                        Pinv = P.inverse()
                        sets[i] = sorted(b.apply(Pinv, c) for c in cls)
                    if bound_of(i) >= d - 1:
                        direct.setdefault(g, (key, i, P))
        witnesses = {}
        if left >= 1 and len(S) <= b.most[left]:
            counted = b.class_sizes(cols).max(axis=1) > b.most[left - 1]  # per guess
            lists = node.get("interchangeable", [])

            def refute(g, hops=0):
                """(key, node, perm) for guess g, or None when counting refutes it."""
                if counted[g]:
                    return None
                if g in direct:
                    return direct[g]
                entry = guesses.get("".join(DIGITS[c] for c in b.tuples[g]))
                if hops < 3 and isinstance(entry, dict) and "same_as" in entry:
                    h = b.index[tuple(_code(entry["same_as"], b.pegs, b.colors))]
                    P = _Perm.of(entry.get("perm"), b.pegs, b.colors)
                    r = refute(h, hops + 1)
                    return r and (r[0], r[1], P.inverse().after(r[2]))
                if hops < 3 and lists:
                    pi = _canon_perm(b, g, lists)
                    c = b.apply(pi, g)
                    if c != g:
                        r = refute(c, hops + 1)
                        return r and (r[0], r[1], pi.inverse().after(r[2]))
                return None  # no witness: the checker refuses the node

            for g in np.flatnonzero(~counted).tolist():
                r = refute(g)
                if r is not None:
                    witnesses[g] = r
        core.append((S, left, witnesses))

    out = ["mastermind-bound", str(b.pegs), str(b.colors), str(int(b.rep)), str(int(b.black_only)),
           str(b.depth), str(len(core))]
    p1 = b.pegs + 1
    for S, left, witnesses in core:
        out.append(f"{left} {len(S)}")
        out.append(" ".join(" ".join(map(str, b.tuples[c])) for c in S))
        out.append(str(len(witnesses)))
        for g in sorted(witnesses):
            key, i, P = witnesses[g]
            out.append(" ".join(map(str, b.tuples[g])) + f" {key // p1} {key % p1} {i} {P.core()}")
    return "\n".join(out) + "\n"


def binary() -> Path:
    """The extracted checker built by `make formal` (CERTIFY_FORMAL overrides the path)."""
    return Path(os.environ.get("CERTIFY_FORMAL") or Path(__file__).resolve().parent.parent / "build" / "formal" / "mmcheck")


def translate(path) -> str:
    return translate_doc(load(path))


def translate_doc(doc) -> str:
    """The simple format of a certificate already parsed."""
    fmt = doc.get("format")
    if fmt == "mastermind-strategy-certificate":
        return strategy_text(doc)
    if fmt == "mastermind-lower-bound-certificate":
        return bound_text(doc)
    raise Untranslatable("neither a strategy certificate nor a lower-bound certificate")


def check_text(text: str, exe=None) -> tuple[int, str]:
    """Run the verified checker on simple-format text; (exit code, its output line)."""
    exe = Path(exe or binary())
    if not exe.exists():
        raise FileNotFoundError(f"{exe} is not built: run `make formal`")
    tmp = exe.parent / f"input-{os.getpid()}.txt"
    try:
        tmp.write_text(text)
        p = subprocess.run([str(exe), str(tmp)], capture_output=True, text=True)
    finally:
        tmp.unlink(missing_ok=True)
    return p.returncode, (p.stdout + p.stderr).strip().replace(str(tmp), "input")


def verify_files(paths, as_json: bool = False) -> int:
    """`certify verify --formal`: each file translated, then checked by the verified checker.

    Exit 0 when all are accepted, 1 when one is refused, 2 when one could not be checked.
    """
    from .reader import display  # noqa: PLC0415 (escapes a path for the terminal)

    worst, rows = 0, []
    for path in paths:
        try:
            code, line = check_text(translate(path))
            status = {0: "valid", 1: "invalid"}.get(code, "unusable")
        except Unsupported as e:
            code, status, line = 2, "unusable", f"not translated: {e}"
        except Untranslatable as e:
            code, status, line = 1, "invalid", f"refused by the translation: {e}"
        except (OSError, FileNotFoundError) as e:
            code, status, line = 2, "unusable", f"not checked: {e.__class__.__name__}: {e}"
        except Exception as e:  # noqa: BLE001 (the translation is untrusted: a crash is not a verdict)
            code, status, line = 2, "unusable", f"the translation failed: {e.__class__.__name__}"
        worst = max(worst, code)
        rows.append({"file": str(path), "checker": "formal", "status": status, "message": line})
        if not as_json:
            print(f"{display(path)}: {line.encode('ascii', 'backslashreplace').decode()}")
    if as_json:
        print(json.dumps({"results": rows}, indent=2))
    return worst


def main(argv=None) -> int:
    """python -m certify.formal [--text] FILE: translate and check (or only print the translation)."""
    args = list(sys.argv[1:] if argv is None else argv)
    only_text = "--text" in args
    args = [a for a in args if a != "--text"]
    if len(args) != 1:
        print("usage: python -m certify.formal [--text] FILE", file=sys.stderr)
        return 2
    if not only_text:
        return verify_files(args)
    try:
        sys.stdout.write(translate(args[0]))
    except (Untranslatable, OSError) as e:
        print(f"refused: {e}", file=sys.stderr)
        return 2 if isinstance(e, (Unsupported, OSError)) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
