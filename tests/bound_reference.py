"""A second, independent checker of lower-bound certificates, and an exhaustive oracle, for tests.

Written from docs/lower-bound-format.md ("Nodes", "Candidate sets", "What a bound means", "What the
checker does", "Counting bounds", "Interchangeable colours") and the fixed same_as rule (a same_as
target must be refuted by its own partition), not from certify/verify_bound.py's code. It uses the
standard library only and imports nothing from ``certify``: its own code enumeration, feedback
rule, JSON reading, permutations and counting bounds.

Why it can be trusted (for the small games of the tests):

* it is short and literal: sets are ``frozenset``s of code strings, a class is a set comprehension
  ``{s in S: feedback(g, s) == key}``, every code of the game is enumerated by this module and
  looked at at every node (no array tricks, no merging of guesses, no cached verdicts);
* the only shortcut it takes is the format's own whole-node counting rule, whose proof is in the
  format document (and which the oracle below checks independently on small games);
* at_max claims (docs "Lexicographic claims: at_max"): the bounds are costs W x total + the
  secrets found at the last guess allowed, W = codes + 1; the counting is W countTotal(n) +
  max(0, n - N(r - 1)); ``optimum(..., "lex", r)`` minimises the *pair* (total, count) in
  lexicographic order by its own recursion (pairs, not weighted sums), and ``lex_cost`` turns the
  pair into the format's cost for the comparison; with ``"first": "at_max"`` the pair is (count,
  total) instead, the cost (codes x D + 1) x count + total, and ``optimum(..., "count", r)`` its
  own recursion over (count, total) pairs;
* weights claims ({"total": T, "weights": {lowest code of an orbit: w}}): the root's set is the
  codes of positive weight, a set's cost is the sum of w x guesses, a guess pays w(S), and the
  counting bound of a class gives its heaviest secrets the greedy depths (``count_weighted``);
  ``optimum(..., "weighted", weights=...)`` is the oracle's least weighted sum;
* ``optimum`` is a plain memoised minimax / min-sum over *every* code of the game as a guess; the
  only pruning is (a) skipping a guess whose partition is the single class S (it leads back to the
  same state, so it never helps), (b) trying once each distinct partition (the value of a guess
  depends only on its non-winning classes and whether it wins), and (c) abandoning a guess as soon
  as its partial value already reaches the best found (values are exact and non-negative, so the
  minimum is unchanged). ``true_bounds`` compares every node's bound with the oracle on its set.

Oracle limit: games of at most ``ORACLE_MAX_CODES`` codes (2x2..2x8, 3x2..3x4, 3x4/3x5 without
repetition, 4x3 when the sets are small); ``optimum`` refuses larger games.
"""

from __future__ import annotations

import gzip
import itertools
import json
import math
import re
import zlib

ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz"
FORMAT = "mastermind-lower-bound-certificate"
MAX_BYTES = 128 << 20  # input size, also after gzip decompression (the format's limit)
MAX_CODES = 10_000  # the format's game-size limit
MAX_INT_DIGITS = 100
MAX_META_DEPTH = 32
ORACLE_MAX_CODES = 81
_KEY = re.compile(r"(0|[1-9][0-9]*),(0|[1-9][0-9]*)")
_BLACK_KEY = re.compile(r"(0|[1-9][0-9]*)")  # "feedback": "black-only": the key is B alone


class Invalid(Exception):
    pass


# --------------------------------------------------------------------------------------------------
# Game: codes, feedback, counting bounds


def codes_of(pegs: int, colors: int, repetition: bool) -> list[str]:
    """Every code, in code order (base-colors numbers: itertools.product is lexicographic)."""
    out = []
    for digits in itertools.product(ALPHABET[:colors], repeat=pegs):
        if repetition or len(set(digits)) == pegs:
            out.append("".join(digits))
    return out


def feedback(g: str, s: str, black_only: bool = False) -> tuple[int, int]:
    black = sum(1 for a, b in zip(g, s) if a == b)
    if black_only:  # black-peg Mastermind: (black, 0)
        return black, 0
    common = sum(min(g.count(c), s.count(c)) for c in set(g))
    return black, common - black


class Feedback:
    """feedback() for one game, with each code's colour counts computed once (same rule)."""

    def __init__(self, codes, colors, black_only: bool = False):
        self.counts = {x: tuple(x.count(c) for c in ALPHABET[:colors]) for x in codes}
        self.black_only = black_only

    def __call__(self, g: str, s: str) -> tuple[int, int]:
        black = sum(map(str.__eq__, g, s))
        if self.black_only:
            return black, 0
        return black, sum(map(min, self.counts[g], self.counts[s])) - black


def b_of(pegs: int, colors: int, repetition: bool, black_only: bool = False) -> int:
    if black_only:  # B = 0 .. p - 1
        return pegs
    low = 0 if repetition else max(0, 2 * pegs - colors)
    pairs = sum(1 for B in range(pegs + 1) for W in range(pegs + 1) if low <= B + W <= pegs)
    return pairs - 2


def N(b: int, k: int) -> int:
    """The most secrets solvable within k guesses (0 for k <= 0)."""
    n = 0
    for _ in range(max(k, 0)):
        n = 1 + b * n
    return n


def more_than_N(b: int, n: int, k: int) -> bool:
    """n > N(k), without computing N(k) for huge k: b >= 1 in every game, so N(k) >= k, and
    k >= n gives N(k) >= n."""
    assert b >= 1
    return k < n and n > N(b, k)


def count_worst(b: int, n: int) -> int:
    k = 0
    while N(b, k) < n:
        k += 1
    return k


def count_total(b: int, n: int) -> int:
    total, depth, level, left = 0, 1, 1, n
    while left > 0:
        placed = min(level, left)
        total += placed * depth
        left -= placed
        depth += 1
        level *= b
    return total


def count_weighted(b: int, weights) -> int:
    """The greedy placement with weights: the heaviest secret at depth 1, the next b at depth 2,
    the next b^2 at depth 3... (at most b^(d-1) secrets are found at depth d)."""
    total, depth, level, placed = 0, 1, 1, 0
    for w in sorted(weights, reverse=True):
        if placed == level:
            depth, level, placed = depth + 1, level * b, 0
        total += w * depth
        placed += 1
    return total


def orbit_of(code: str) -> tuple:
    """A code's orbit under peg and colour permutations: how often each of its colours occurs."""
    return tuple(sorted((code.count(ch) for ch in set(code)), reverse=True))


def _weights(given, pegs: int, colors: int, rep: bool) -> dict:
    """code -> weight, from claims.weights (keys: the lowest code of each orbit, all of them)."""
    if type(given) is not dict:
        raise Invalid("claims.weights: expected object")
    lowest = {}
    for code in codes_of(pegs, colors, rep):  # in code order: the first of an orbit is its lowest
        lowest.setdefault(orbit_of(code), code)
    if set(given) != set(lowest.values()):
        raise Invalid("claims.weights: the keys must be the lowest codes of the orbits, each once")
    for code, w in given.items():
        _int(w, f"claims.weights.{code}", 0)
    if not any(given.values()):
        raise Invalid("claims.weights: all zero")
    return {code: given[lowest[orbit_of(code)]] for code in codes_of(pegs, colors, rep)}


def apply_perm(perm, x: str) -> str:
    sigma, tau = perm
    y = [""] * len(x)
    for i, ch in enumerate(x):
        y[sigma[i]] = ALPHABET[tau[ALPHABET.index(ch)]]
    return "".join(y)


def invert_perm(perm):
    sigma, tau = perm
    si, ti = [0] * len(sigma), [0] * len(tau)
    for i, v in enumerate(sigma):
        si[v] = i
    for i, v in enumerate(tau):
        ti[v] = i
    return tuple(si), tuple(ti)


# --------------------------------------------------------------------------------------------------
# JSON reading


class _Float:
    """A JSON number written with a fraction or an exponent: never an integer."""

    def __init__(self, text):
        self.text = text


def _pairs(pairs):
    out = {}
    for k, v in pairs:
        if k in out:
            raise Invalid(f"duplicate key {k!r}")
        out[k] = v
    return out


def _parse_int(text):
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise Invalid(f"integer of {len(text.lstrip('-'))} digits")
    return int(text)


def _parse_float(text):
    if math.isinf(float(text)):
        raise Invalid(f"number {text} is out of range")
    return _Float(text)


def _parse_constant(text):
    raise Invalid(f"{text} is not a JSON number")


def _lone_surrogate(s: str) -> bool:
    return any(0xD800 <= ord(ch) <= 0xDFFF for ch in s)


def _scan(value, depth=0, meta=False):
    """Refuse lone surrogates anywhere, and metadata nested deeper than MAX_META_DEPTH."""
    stack = [(value, depth)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, str):
            if _lone_surrogate(v):
                raise Invalid("lone surrogate")
        elif isinstance(v, (dict, list)):
            if meta and d >= MAX_META_DEPTH:
                raise Invalid("metadata nested too deep")
            if isinstance(v, dict):
                for k, item in v.items():
                    if _lone_surrogate(k):
                        raise Invalid("lone surrogate")
                    stack.append((item, d + 1))
            else:
                stack.extend((item, d + 1) for item in v)


def load(raw: bytes):
    if raw[:2] == b"\x1f\x8b":
        try:
            d = zlib.decompressobj(16 + zlib.MAX_WBITS)
            out = d.decompress(raw, MAX_BYTES + 1)
            if len(out) > MAX_BYTES or d.unconsumed_tail:
                raise Invalid("gzip data decompresses to too many bytes")
            if not d.eof:
                raise Invalid("corrupt gzip data")
            raw = out
        except zlib.error:
            raise Invalid("corrupt gzip data") from None
    if len(raw) > MAX_BYTES:
        raise Invalid("file too big")
    if not raw.strip():
        raise Invalid("empty file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Invalid("not UTF-8 text") from None
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_int=_parse_int,
                          parse_float=_parse_float, parse_constant=_parse_constant)
    except RecursionError:
        raise Invalid("JSON nested too deeply") from None
    except ValueError as e:  # json.JSONDecodeError, int() digit limits
        raise Invalid(f"not valid JSON: {e}") from None


def _int(v, where, low=None):
    if type(v) is not int:
        raise Invalid(f"{where}: expected integer, got {type(v).__name__}")
    if low is not None and v < low:
        raise Invalid(f"{where}: must be >= {low}")
    return v


def _obj(v, where, required, optional=()):
    if type(v) is not dict:
        raise Invalid(f"{where}: expected object")
    for k in v:
        if k not in required and k not in optional:
            raise Invalid(f"{where}: unknown field {k!r}")
    for k in required:
        if k not in v:
            raise Invalid(f"{where}: missing field {k!r}")
    return v


def _perm(v, pegs, colors, where):
    _obj(v, where, ("pegs", "colors"))
    out = []
    for name, n in (("pegs", pegs), ("colors", colors)):
        lst = v[name]
        if type(lst) is not list or any(type(x) is not int for x in lst) or sorted(lst) != list(range(n)):
            raise Invalid(f"{where}.{name}: not a permutation of 0..{n - 1}")
        out.append(tuple(lst))
    return tuple(out)


# --------------------------------------------------------------------------------------------------
# The checker


class Result:
    """The verdict, and what was computed on the way (a plain class: the module may be loaded from
    its file path without being in sys.modules)."""

    def __init__(self, valid: bool = False) -> None:
        self.valid: bool = valid
        self.reason: str | None = None
        self.sets: list | None = None  # each node's set (None where not reached, when invalid)
        self.depths: list | None = None
        self.game: tuple | None = None  # (pegs, colors, repetition)
        self.black_only = False  # the game's rule
        self.claims: dict = {}
        self.bounds: list | None = None  # each node's bound, once the nodes' shapes are checked

    def __repr__(self) -> str:
        return f"Result(valid={self.valid}, reason={self.reason!r}, game={self.game}, claims={self.claims})"


def check(doc_or_bytes) -> Result:
    """Check a lower-bound certificate (bytes, plain or gzip JSON, or an already-parsed dict)."""
    result = Result(valid=False)
    try:
        _check(doc_or_bytes, result)
    except Invalid as e:
        result.valid, result.reason = False, str(e)
    else:
        result.valid, result.reason = True, None
    return result


def _check(doc_or_bytes, result: Result) -> None:
    if isinstance(doc_or_bytes, (bytes, bytearray)):
        doc = load(bytes(doc_or_bytes))
    else:
        doc = doc_or_bytes
    if type(doc) is not dict:
        raise Invalid("top level: expected object")
    for k in ("format", "version", "game", "claims", "nodes"):
        if k not in doc:
            raise Invalid(f"top level: missing field {k!r}")
    for k, v in doc.items():
        if k not in ("format", "version", "game", "claims", "nodes"):
            _scan(v, meta=True)
    _scan([doc["format"], doc["version"], doc["game"], doc["claims"]])
    if doc["format"] != FORMAT:
        raise Invalid("format: wrong format")
    if _int(doc["version"], "version") != 1:
        raise Invalid("version: not 1")

    game = _obj(doc["game"], "game", ("pegs", "colors", "repetition"), ("feedback",))
    if game.get("feedback", "black-white") not in ("black-white", "black-only"):
        raise Invalid("game.feedback: unknown feedback rule")
    black_only = game.get("feedback") == "black-only"
    pegs = _int(game["pegs"], "game.pegs", 1)
    colors = _int(game["colors"], "game.colors", 2)
    rep = game["repetition"]
    if colors > 36:
        raise Invalid("game.colors: at most 36")
    if type(rep) is not bool:
        raise Invalid("game.repetition: expected boolean")
    if not rep and pegs > colors:
        raise Invalid("game: more pegs than colours without repetition")
    count = 1
    for k in range(pegs):  # (stops early: pegs may be huge)
        count *= colors if rep else colors - k
        if count > MAX_CODES:
            break
    if count > MAX_CODES:
        raise Invalid(f"game: {count} codes is too many (resource limit)")
    result.game = (pegs, colors, rep)
    result.black_only = black_only

    claims = doc["claims"]
    if type(claims) is not dict:
        raise Invalid("claims: expected object")
    lex = False  # the at_max claim: bounds are costs A x (total) + B x (secrets at the maximum)
    A, B = 1, 0
    weight = None  # with weights: code -> w
    if set(claims) == {"total", "weights"}:
        kind, D = "total", None
        claim = _int(claims["total"], "claims.total", 0)
        weight = _weights(claims["weights"], pegs, colors, rep)
    elif set(claims) == {"worst_case"}:
        kind, D = "worst", None
        claim = _int(claims["worst_case"], "claims.worst_case", 1)
    elif set(claims) == {"total"}:
        kind, D = "total", None
        claim = _int(claims["total"], "claims.total", 0)
    elif set(claims) in ({"total", "max_guesses"}, {"total", "max_guesses", "at_max"},
                         {"total", "max_guesses", "at_max", "first"}):
        kind = "total"
        claim = _int(claims["total"], "claims.total", 0)
        D = _int(claims["max_guesses"], "claims.max_guesses", 1)
        if "at_max" in claims:
            lex = True
            K = _int(claims["at_max"], "claims.at_max", 0)
            if K > count:
                raise Invalid("claims.at_max: more than the game's secrets")
            first = claims.get("first", "total")
            if first == "total":
                A, B = count + 1, 1
            elif first == "at_max":
                A, B = 1, count * D + 1
                if claim > count * D:
                    raise Invalid("claims.total: more than D x secrets with first at_max")
            else:
                raise Invalid("claims.first: must be 'total' or 'at_max'")
            claim = A * claim + B * K
    else:
        raise Invalid("claims: exactly one of worst_case, total, total + max_guesses (+ at_max)")
    result.claims = dict(claims)

    nodes = doc["nodes"]
    if type(nodes) is not list or not nodes:
        raise Invalid("nodes: expected a non-empty array")
    _scan(nodes)

    codes = codes_of(pegs, colors, rep)
    code_set = frozenset(codes)
    b = b_of(pegs, colors, rep, black_only)
    win = (pegs, 0)
    fb_of = Feedback(codes, colors, black_only)
    W = A  # what each secret pays per guess

    def cost(n: int, r) -> int:
        """Counting: A x countTotal(n), and with at_max B x the n - N(r - 1) secrets (if more)
        that cannot be found before the r-th guess."""
        extra = max(0, n - N(b, r - 1)) if lex and r >= 1 else 0
        return A * count_total(b, n) + B * extra

    # Shape of every node first (a malformed node anywhere makes the file invalid).
    parsed = []
    for i, node in enumerate(nodes):
        where = f"node {i}"
        _obj(node, where, ("bound",), ("guesses", "interchangeable"))
        d = _int(node["bound"], f"{where}.bound", 0)
        entries = {}
        guesses = node.get("guesses", {})
        if type(guesses) is not dict:
            raise Invalid(f"{where}.guesses: expected object")
        for g, entry in guesses.items():
            if g not in code_set:
                raise Invalid(f"{where}: guess {g!r} is not a code of the game")
            if type(entry) is not dict:
                raise Invalid(f"{where}: guess {g!r}: expected object")
            if not entry:
                raise Invalid(f"{where}: guess {g!r}: empty entry")
            if "same_as" in entry:
                _obj(entry, f"{where}: guess {g!r}", ("same_as", "perm"))
                h = entry["same_as"]
                if type(h) is not str or h not in code_set:
                    raise Invalid(f"{where}: guess {g!r}.same_as: not a code of the game")
                entries[g] = ("same", h, _perm(entry["perm"], pegs, colors, f"{where}: guess {g!r}.perm"))
            else:
                children = []
                for key, ref in entry.items():
                    m = (_BLACK_KEY if black_only else _KEY).fullmatch(key)
                    if not m:
                        raise Invalid(f"{where}: guess {g!r}: malformed feedback key {key!r}")
                    fb = (int(m.group(1)), 0 if black_only else int(m.group(2)))
                    if fb == win:
                        raise Invalid(f"{where}: guess {g!r}: key {key!r} is the win")
                    if type(ref) is int:
                        j, perm = ref, None
                    else:
                        _obj(ref, f"{where}: guess {g!r}: {key}", ("node", "perm"))
                        j = _int(ref["node"], f"{where}: guess {g!r}: {key}.node")
                        perm = _perm(ref["perm"], pegs, colors, f"{where}: guess {g!r}: {key}.perm")
                    if not i < j < len(nodes):
                        raise Invalid(f"{where}: guess {g}: reference to node {j}: must point forward")
                    children.append((key, fb, j, perm))
                entries[g] = ("children", children)
        blocks = []
        if "interchangeable" in node:
            lists = node["interchangeable"]
            if type(lists) is not list:
                raise Invalid(f"{where}.interchangeable: expected array")
            used = set()
            for L in lists:
                if (type(L) is not list or len(L) < 2 or any(type(c) is not int for c in L)
                        or any(not 0 <= c < colors for c in L) or any(a >= b_ for a, b_ in zip(L, L[1:]))
                        or used & set(L)):
                    raise Invalid(f"{where}.interchangeable: bad colour list {L!r}")
                used |= set(L)
                blocks.append(tuple(L))
        parsed.append((d, entries, blocks))

    result.bounds = [p[0] for p in parsed]
    if parsed[0][0] != claim:
        raise Invalid(f"node 0 (the root): bound {parsed[0][0]} is not the claimed {claim}")

    sets: list = [None] * len(nodes)
    depths: list = [None] * len(nodes)
    sets[0], depths[0] = frozenset(codes), 0
    if weight is not None:
        sets[0] = frozenset(c for c in codes if weight[c] > 0)
    result.sets, result.depths = sets, depths  # filled as the nodes are checked

    def canon(g: str, blocks) -> str:
        rename = {}
        for L in blocks:
            seen = [c for c in dict.fromkeys(ALPHABET.index(ch) for ch in g) if c in L]
            rename.update(zip(seen, L))
        return "".join(ALPHABET[rename.get(ALPHABET.index(ch), ALPHABET.index(ch))] for ch in g)

    for i, (d, entries, blocks) in enumerate(parsed):
        S = sets[i]
        if S is None:
            raise Invalid(f"node {i}: not referenced by any earlier node")
        r = D - depths[i] if D is not None else None
        size = len(S)

        # Interchangeable colours: every neighbour swap maps S onto S.
        for L in blocks:
            for a, c in zip(L, L[1:]):
                tau = list(range(colors))
                tau[a], tau[c] = c, a
                P = (tuple(range(pegs)), tuple(tau))
                if frozenset(apply_perm(P, x) for x in S) != S:
                    raise Invalid(f"node {i}: interchangeable colours {a} and {c}: swapping them "
                                  "does not map the node's set onto itself")

        # References of every children entry (guesses in code order, keys in file order).
        for g in sorted(entries):
            entry = entries[g]
            if entry[0] != "children":
                continue
            seen_keys = set()
            for key, fb, j, perm in entry[1]:
                if fb in seen_keys:  # (cannot happen after the duplicate-key check; kept literal)
                    raise Invalid(f"node {i}: guess {g}: class {key} twice")
                seen_keys.add(fb)
                C = frozenset(s for s in S if fb_of(g, s) == fb)
                if not C:
                    raise Invalid(f"node {i}: guess {g}, class {key}: no secret of the node gives this feedback")
                target = C if perm is None else frozenset(apply_perm(invert_perm(perm), x) for x in C)
                if sets[j] is None:
                    sets[j], depths[j] = target, depths[i] + 1
                else:
                    if sets[j] != target:
                        raise Invalid(f"node {i}: guess {g}, class {key}: node {j} does not stand for the class")
                    if D is not None and depths[j] != depths[i] + 1:
                        raise Invalid(f"node {j} is reached at depth {depths[i] + 1} here and at depth {depths[j]}")

        # Whole-node counting.
        if kind == "worst":
            holds = d <= 1 or more_than_N(b, size, d - 1)
        elif weight is not None:
            holds = count_weighted(b, [weight[x] for x in S]) >= d
        else:
            holds = (r is not None and more_than_N(b, size, r)) or cost(size, r) >= d

        def direct(g: str) -> bool:
            """g refuted by its own partition, valued by counting and by g's own children."""
            if holds:
                return True
            entry = entries.get(g)
            refs = {}
            if entry is not None and entry[0] == "children":
                refs = {fb: parsed[j][0] for _, fb, j, _ in entry[1]}
            classes = {}
            for s in S:
                fb = fb_of(g, s)
                if fb != win:
                    classes[fb] = classes.get(fb, 0) + 1
            if weight is not None:
                members = {}
                for s in S:
                    fb = fb_of(g, s)
                    if fb != win:
                        members.setdefault(fb, []).append(weight[s])
                return (sum(weight[s] for s in S)
                        + sum(max(count_weighted(b, ws), refs.get(fb, 0)) for fb, ws in members.items()) >= d)
            if kind == "worst":
                if d <= 1:
                    return True
                best = max((max(count_worst(b, n), refs.get(fb, 0)) for fb, n in classes.items()), default=0)
                return best >= d - 1
            if r is not None and any(more_than_N(b, n, r - 1) for n in classes.values()):
                return True
            rc = None if r is None else r - 1
            return W * size + sum(max(cost(n, rc), refs.get(fb, 0)) for fb, n in classes.items()) >= d

        # Every children entry refutes its own guess directly (unless counting settles the node).
        for g in sorted(entries):
            if entries[g][0] == "children" and not direct(g):
                raise Invalid(f"node {i} (bound {d}): guess {g} is not refuted")
        # Every same_as entry: P(g) = H, P(S) = S, and its target is refuted directly.
        for g in sorted(entries):
            entry = entries[g]
            if entry[0] != "same":
                continue
            _, h, P = entry
            t = h if h in entries else canon(h, blocks)
            if entries.get(t, ("",))[0] == "same":
                raise Invalid(f"node {i}: guess {g} same_as {h}: {t} has a same_as entry itself")
            if apply_perm(P, g) != h:
                raise Invalid(f"node {i}: guess {g} same_as {h}: the permutation maps {g} to {apply_perm(P, g)}")
            if frozenset(apply_perm(P, x) for x in S) != S:
                raise Invalid(f"node {i}: guess {g} same_as {h}: the permutation does not map the node's set onto itself")
            if not direct(t):
                raise Invalid(f"node {i} (bound {d}): guess {g} same_as {h}: {t} is not refuted")
        # Every code of the game: refuted through canon(g) (an entry there was checked above).
        if not holds:
            for g in codes:
                c = canon(g, blocks)
                if c in entries:
                    continue  # its children refute it directly, or its same_as was checked
                if g in entries:
                    continue  # checked above
                if not direct(c):
                    raise Invalid(f"node {i} (bound {d}): guess {g} is not refuted")


# --------------------------------------------------------------------------------------------------
# The oracle: exact optima by exhaustive search


class _Oracle:
    def __init__(self, pegs, colors, rep, black_only=False):
        self.codes = codes_of(pegs, colors, rep)
        if len(self.codes) > ORACLE_MAX_CODES:
            raise ValueError(f"{len(self.codes)} codes: the oracle is limited to {ORACLE_MAX_CODES}")
        self.index = {c: k for k, c in enumerate(self.codes)}
        win = (pegs, 0)
        # masks[g] = (bit of g, [mask of the codes s with feedback(g, s) = f, for each non-win f])
        self.masks = []
        for g in self.codes:
            by = {}
            for k, s in enumerate(self.codes):
                fb = feedback(g, s, black_only)
                if fb != win:
                    by[fb] = by.get(fb, 0) | (1 << k)
            self.masks.append((1 << self.index[g], list(by.values())))
        self.worst_memo = {}
        self.total_memo = {}
        self.lex_memo = {}
        self.count_memo = {}
        self.weighted_memo = {}

    def options(self, S: int):
        """Distinct (wins, non-winning classes) of the guesses at S, skipping the useless ones."""
        seen = set()
        out = []
        for bit, ms in self.masks:
            classes = tuple(sorted(c for c in (S & m for m in ms) if c))
            wins = bool(S & bit)
            if not wins and classes == (S,):
                continue  # the same state again: never helps
            key = (wins, classes)
            if key not in seen:
                seen.add(key)
                out.append(key)
        return out

    def weighted(self, S: int, w: tuple) -> float:
        """The least sum over S of w x guesses (w: a weight per code index), like ``total``."""
        if S == 0:
            return 0
        key = (S, w)
        got = self.weighted_memo.get(key)
        if got is not None:
            return got
        if S & (S - 1) == 0:
            return w[S.bit_length() - 1]
        here = sum(w[k] for k in range(len(w)) if S >> k & 1)
        best = math.inf
        for _, classes in self.options(S):
            value = here
            for C in sorted(classes, key=lambda c: -c.bit_count()):
                if value >= best:
                    break
                value += self.weighted(C, w)
            best = min(best, value)
        self.weighted_memo[key] = best
        return best

    def worst(self, S: int) -> int:
        if S == 0:
            return 0
        if S & (S - 1) == 0:
            return 1
        got = self.worst_memo.get(S)
        if got is not None:
            return got
        best = math.inf
        for wins, classes in self.options(S):
            value = 1 if wins else 0
            for C in sorted(classes, key=lambda c: -c.bit_count()):
                if value >= best:
                    break
                value = max(value, 1 + self.worst(C))
            best = min(best, value)
        self.worst_memo[S] = best
        return best

    def total(self, S: int, r) -> float:
        if S == 0:
            return 0
        if r is not None and r <= 0:
            return math.inf
        n = S.bit_count()
        if n == 1:
            return 1
        key = (S, r)
        got = self.total_memo.get(key)
        if got is not None:
            return got
        best = math.inf
        nr = None if r is None else r - 1
        for _, classes in self.options(S):
            value = n
            for C in sorted(classes, key=lambda c: -c.bit_count()):
                if value >= best:
                    break
                value += self.total(C, nr)
            best = min(best, value)
        self.total_memo[key] = best
        return best


    def lex(self, S: int, r: int):
        """(least total, then fewest secrets found at the r-th guess) over the strategies solving S
        within r guesses, compared as pairs in lexicographic order (math.inf when there is none).
        Pairs add: the order is kept by adding the same pair to both sides, so each class's best
        pair gives the best sum, and a pair that reaches the best can be abandoned."""
        if S == 0:
            return (0, 0)
        if r <= 0:
            return math.inf
        n = S.bit_count()
        if n == 1:
            return (1, 1 if r == 1 else 0)  # guessed at once: at the r-th guess when r = 1
        key = (S, r)
        got = self.lex_memo.get(key)
        if got is not None:
            return got
        best = math.inf
        for wins, classes in self.options(S):
            value = (n, 1 if wins and r == 1 else 0)
            for C in sorted(classes, key=lambda c: -c.bit_count()):
                if best != math.inf and value >= best:
                    break
                sub = self.lex(C, r - 1)
                if sub == math.inf:
                    value = math.inf
                    break
                value = (value[0] + sub[0], value[1] + sub[1])
            if value != math.inf and (best == math.inf or value < best):
                best = value
        self.lex_memo[key] = best
        return best


    def count(self, S: int, r: int):
        """(fewest secrets found at the r-th guess, then least total) over the strategies solving S
        within r guesses, as pairs in lexicographic order (math.inf when there is none): ``lex``
        with the pair's order swapped, written out on its own."""
        if S == 0:
            return (0, 0)
        if r <= 0:
            return math.inf
        n = S.bit_count()
        if n == 1:
            return (1 if r == 1 else 0, 1)
        key = (S, r)
        got = self.count_memo.get(key)
        if got is not None:
            return got
        best = math.inf
        for wins, classes in self.options(S):
            value = (1 if wins and r == 1 else 0, n)
            for C in sorted(classes, key=lambda c: -c.bit_count()):
                if best != math.inf and value >= best:
                    break
                sub = self.count(C, r - 1)
                if sub == math.inf:
                    value = math.inf
                    break
                value = (value[0] + sub[0], value[1] + sub[1])
            if value != math.inf and (best == math.inf or value < best):
                best = value
        self.count_memo[key] = best
        return best


_ORACLES: dict = {}


def _oracle(pegs, colors, repetition, black_only=False) -> _Oracle:
    key = (pegs, colors, bool(repetition), bool(black_only))
    if key not in _ORACLES:
        _ORACLES[key] = _Oracle(*key)
    return _ORACLES[key]


def optimum(pegs: int, colors: int, repetition: bool, S, kind: str, r: int | None = None, weights=None,
            black_only: bool = False):
    """The exact optimum over all strategies (guessing any code of the game) starting from S:
    kind "worst": the least worst-case number of guesses; "total": the least sum of guesses over
    S (among the strategies solving every secret within r guesses when r is given; math.inf when
    there is none); "lex" (r needed): the least pair (total, secrets found at the r-th guess) in
    lexicographic order, or math.inf."""
    o = _oracle(pegs, colors, repetition, black_only)
    mask = 0
    for s in S:
        mask |= 1 << o.index[s]
    if kind == "worst":
        return o.worst(mask)
    if kind == "total":
        return o.total(mask, r)
    if kind == "lex":
        return o.lex(mask, r)
    if kind == "count":
        return o.count(mask, r)
    if kind == "weighted":  # weights: code -> w
        return o.weighted(mask, tuple(weights[c] for c in o.codes))
    raise ValueError(f"kind must be 'worst', 'total' or 'lex', got {kind!r}")


def lex_cost(pair, codes: int):
    """The at_max claims' unit: a pair (total, secrets at the maximum) as (codes + 1) x total +
    secrets (math.inf stays)."""
    return math.inf if pair == math.inf else (codes + 1) * pair[0] + pair[1]


def count_cost(pair, codes: int, D: int):
    """The "first": "at_max" claims' unit: a pair (secrets at the maximum, total) as
    (codes x D + 1) x secrets + total (math.inf stays)."""
    return math.inf if pair == math.inf else (codes * D + 1) * pair[0] + pair[1]


def true_bounds(result: Result) -> list:
    """For a valid result on a small game: the nodes whose bound exceeds the exact optimum of their
    set (with r = D - depth for max_guesses proofs), as (node, bound, optimum); empty = all true."""
    if not result.valid:
        raise ValueError("true_bounds needs a valid result")
    pegs, colors, rep = result.game
    claims = result.claims
    kind = "worst" if "worst_case" in claims else "lex" if "at_max" in claims else "total"
    if kind == "lex" and claims.get("first") == "at_max":
        kind = "count"
    weights = None
    if "weights" in claims:
        kind, weights = "weighted", _weights(claims["weights"], pegs, colors, rep)
    D = claims.get("max_guesses")
    bounds = result.bounds
    out = []
    codes = len(codes_of(pegs, colors, rep))
    for i, (S, depth) in enumerate(zip(result.sets, result.depths)):
        r = None if D is None else D - depth
        opt = optimum(pegs, colors, rep, S, kind, r, weights, result.black_only)
        if kind == "lex":
            opt = lex_cost(opt, codes)
        elif kind == "count":
            opt = count_cost(opt, codes, D)
        if bounds[i] > opt:
            out.append((i, bounds[i], opt))
    return out
