"""Independent checker for Mastermind lower-bound certificates (format v1).

Trusted core, like ``verify.py``: from the rest of ``certify`` it imports only ``reader.py`` (the
trusted checkers' shared reader: file reading, JSON rules and limits) and ``verify.py`` (code
enumeration, alphabet, the game's fields), and besides the standard library only numpy. It runs on its own::

    python certify/verify_bound.py FILE... [--json]

A certificate proves that every strategy needs at least D guesses for some secret, or at least
T guesses in total, or (at_max) at least the pair (T guesses in total, K secrets needing the
maximum) in lexicographic order, or with "first": "at_max" the pair (K, T), written as one cost,
or (weights) at least T as the sum over secrets of w(s) x guesses(s), w constant on the orbits of
the peg and colour permutations: a lower bound on the mean against the codemaker's distribution
w / sum(w) (docs/lower-bound-format.md). Its nodes are checked in index order. A node's
set of secrets is computed here, never read: the root's is every code, a child's is the class of
a guess at an earlier node (through a permutation when one is given). At every node EVERY code
of the game is tried as the next guess, and each must be refuted by counting or by the node's
children. Exit status: 0 valid, 1 invalid, 2 unusable.

A big proof may be split into part files (``python certify/verify_bound.py MAIN --parts DIR
--jobs N``): a part's root set is reached by a path of classes from the game's codes, a lemma
reference takes a class's bound from a part named by its sha256 and records an assumption, and
``combine`` accepts the main file's claim only when every assumption is met by a valid part
(docs/lower-bound-format.md, "Parts of a proof"; soundness rule 12).

Why numpy: at every node, every guess's class sizes are needed (n guesses x |S| secrets). With
a table of all feedbacks (n x n bytes, built here from the definition: black = #pegs with equal
colours, black + white = sum over colours of min(count in guess, count in secret); black-only
games: black alone), they are one
``bincount`` over table rows, and the counting verdicts a few whole-array operations; in pure
Python the same loop costs a minute or more for the 4x6 least-total proof (30 million (node,
guess) pairs), here a few seconds. Sets are sorted numpy arrays of code indices. Tests compare
the table with ``verify.feedback`` on every pair of several games, and the vectorised counting
with a plain loop.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import sys
import time

import numpy as np

try:
    from . import reader, verify
except ImportError:  # run as a script: python certify/verify_bound.py (or runpy.run_path: no path added)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import reader
    import verify

FORMAT = "mastermind-lower-bound-certificate"
VERSION = 1
#: Largest input (bytes, also after gzip decompression).
MAX_BYTES = 128 << 20
#: Largest node, in bytes of JSON (10 times the largest in a real proof, 418 KB): a node is built as
#: Python objects when the check reaches it, at most about 45 bytes for each byte of its JSON
#: (arrays nested 40 deep, measured: 451 MB for 8 MiB), so about 230 MB.
MAX_NODE_BYTES = 4 << 20
#: Deepest nesting inside a node (the proof format needs 5 levels; the decoder's own limit is ~1000).
NODE_ROOM = 600
#: Largest game (codes) by default: every guess is enumerated at every node, and the game's feedback
#: table takes one byte a pair (100 MB at 10,000 codes). ``--max-codes N`` (``max_codes=``) raises it
#: up to CODES_CEILING: 282 MB for 5x7 (16,807 codes), 1 GiB for 5x8, 2.2 GB for 6x6, asked for by
#: the user, never by the file.
MAX_CODES = 10_000
CODES_CEILING = 46_656
#: Most nodes by default, and most guess entries plus references over all nodes (ENTRIES_PER_NODE
#: for each node allowed): ``--max-nodes N`` (``max_nodes=``) raises both, asked for by the user;
#: the input's size (MAX_BYTES) still bounds the memory the nodes' index takes (16 bytes a node).
MAX_NODES = 2_000_000
MAX_ENTRIES = 10_000_000
ENTRIES_PER_NODE = MAX_ENTRIES // MAX_NODES
#: Most (node, guess) pairs to examine: nodes x codes, refused before any work. Bulls and Cows'
#: least-total proof has 4.0e9 (795,984 nodes x 5040 codes): 208 s of CPU, 740 MB; the one the
#: split search writes on Dask workers 5.2e9 (1,029,194 nodes).
MAX_WORK = 10_000_000_000
#: The work budget, in (guess, secret) pairs or their equivalent in time (a pair costs a few ns):
#: summed over the nodes as they are reached, and counted before the work it pays for. A node
#: that counting does not settle costs n (|S| + b + 1) (the class sizes of every guess); a guess
#: looked at one by one |S| + GUESS_COST; a node's interchangeable colours n + (SWAP_COST + 2 |S|)
#: per swap of neighbours; an image of a set under a permutation (a same_as's P(S) = S, a permuted
#: reference) IMAGE_COST + IMAGE_PER_SECRET x |S|. The budget is min(MAX_PAIRS, WORK_BASE + WORK_PER_BYTE x the size of
#: the file as given, gzip or not): a small file cannot ask for hours (docs/verifier-limits.md).
MAX_PAIRS = 300_000_000_000
WORK_BASE = 1_000_000_000
WORK_PER_BYTE = 30_000
GUESS_COST = 2_000
#: With weights every guess's row is sorted by class: counted as this many plain (guess, secret) pairs.
WEIGHTED_COST = 8
SWAP_COST = 1_000
IMAGE_COST = 4_000
IMAGE_PER_SECRET = 32
#: Most bytes held in the sets of the nodes referenced but not yet checked (2 bytes a secret, plus
#: SET_OVERHEAD a set): the memory a file of fan-out nodes can make the checker hold.
MAX_PENDING = 256 << 20
SET_OVERHEAD = 112
#: A set is a sorted array of code indices; CODES_CEILING codes fit in 16 bits.
SET = np.uint16
EXIT_VALID, EXIT_INVALID, EXIT_UNUSABLE = 0, 1, 2
_KEY = re.compile(r"(0|[1-9][0-9]{0,5}),(0|[1-9][0-9]{0,5})")
_BLACK_KEY = re.compile(r"(0|[1-9][0-9]{0,5})")  # a black-only game's keys: "B"
_SHA = re.compile(r"[0-9a-f]{64}")
#: Most steps in a part's root path, and most distinct assumptions (lemma, set, depth) in a file
#: (docs: "Parts of a proof").
MAX_PATH = 100
MAX_ASSUMPTIONS = 1_000_000
_short, _display = reader.short, reader.display
#: Most (guess, secret) pairs held at once while class sizes are counted (8 bytes each).
BLOCK = 1 << 22
#: Most codes for which the checker keeps the feedback table's one-hot form (_Proof.counted_small).
ONEHOT_CODES = 6000
#: check_leaves() runs when the deferred leaves' keys and class sizes reach this many (2 MiB each),
#: so a batch holds fewer than 2 x LEAF_BATCH (8-byte keys: 4 MiB); a leaf bigger than LEAF_BATCH
#: on its own is checked where it stands. 0 checks every leaf where it stands (the tests compare both ways).
LEAF_BATCH = 1 << 18


Invalid = reader.Invalid  # the certificate is wrong; the message says what and where
Limit = reader.Limit  # the file is over a limit of the checker: not checked (unusable), no verdict


# -- reading ----------------------------------------------------------------------------------
#
# The reader (reader.py) checks the document: the header fields are built (each at most
# MAX_FIELD_BYTES of JSON), the metadata only checked. The nodes array is split into its items by
# its structure alone (_spans: quotes, brackets and commas outside strings, numpy a block at a
# time), each item at most MAX_NODE_BYTES; an item is built, and its syntax checked, when the check
# reaches it. So the memory is the text, 16 bytes a node, and one node's objects.

_Dup, _get, _typed, _only = reader.Dup, reader.get, reader.typed, reader.only
_HEAD = ("format", "version", "game", "claims", "root")
_BOUND = re.compile(rb'[ \t\n\r]*\{[ \t\n\r]*"bound"[ \t\n\r]*:[ \t\n\r]*(0|[1-9][0-9]{0,18})[ \t\n\r]*([,}])')
_LEAF = re.compile(rb'[ \t\n\r]*\{"bound":(0|[1-9][0-9]{0,18})\}[ \t\n\r]*')
_SCAN_BLOCK = 1 << 20


class _Nodes:
    """The items of a file's nodes array, as spans of its text; iterated, each is built in turn."""

    def __init__(self, buf: bytes, starts, ends) -> None:
        self.buf, self.starts, self.ends = buf, starts, ends

    def __len__(self) -> int:
        return len(self.starts)

    def item(self, i: int):
        buf, s, e = self.buf, int(self.starts[i]), int(self.ends[i])
        leaf = _LEAF.fullmatch(buf, s, e)
        if leaf:  # {"bound":N} as the writer spells a leaf: the value the decoder would give
            return {"bound": int(leaf[1])}
        try:
            return reader.DECODER.decode(buf[s:e].decode("utf-8"))
        except json.JSONDecodeError as x:
            raise reader.syntax(buf, s + len(buf[s:e].decode()[:x.pos].encode()), x.msg) from None
        except ValueError as x:  # the rules: digits, finite numbers, no NaN
            raise Invalid(f"not valid JSON: {reader.one_line(x)}") from None
        except RecursionError:
            raise Invalid("JSON nested too deeply") from None

    def __iter__(self):
        return (self.item(i) for i in range(len(self.starts)))

    def __getitem__(self, i: int):
        return self.item(range(len(self.starts))[i])

    def bound(self, i: int):
        """Node i's bound when it is written first, as the writer does (checked again when the node
        is built), else None."""
        m = _BOUND.match(self.buf, int(self.starts[i]), int(self.ends[i]))
        return int(m[1]) if m else None


def _spans(buf: bytes, start: int, max_nodes: int = MAX_NODES):
    """(_Nodes, end): the items of the array at buf[start], found by the structure alone: a
    quote opens or closes a string, brackets outside strings open and close, and the commas
    outside strings at depth 1 separate the items (each is built, which checks its syntax, when
    the check reaches it; a file is accepted only when every item is, so only then do the spans
    matter). A quote after an odd run of backslashes is escaped: no quote (a block never ends
    inside a run of backslashes)."""
    a = np.frombuffer(buf, np.uint8)
    starts, ends = [np.array([start + 1], np.int64)], []
    depth, inside, count = 1, 0, 0
    lo = start + 1
    while True:
        if lo >= len(buf):
            raise reader.syntax(buf, len(buf), "Expecting ',' delimiter")
        hi = lo + _SCAN_BLOCK
        while hi < len(buf) and buf[hi - 1] == 92:
            hi += 1
        seg = a[lo:hi]
        quotes = seg == 34
        if 92 in seg:  # last[p]: the last byte at or before p that is no backslash (-1: none)
            last = np.maximum.accumulate(np.where(seg == 92, -1, np.arange(len(seg))))
            q = np.flatnonzero(quotes[1:]) + 1
            quotes[q[(q - 1 - last[q - 1]) % 2 == 1]] = False
        outside = ((np.cumsum(quotes, dtype=np.int64) + inside) & 1) == 0
        opens = ((seg == 91) | (seg == 123)) & outside
        closes = ((seg == 93) | (seg == 125)) & outside
        level = np.cumsum(opens.astype(np.int32) - closes, dtype=np.int64) + depth
        if level.max(initial=0) > NODE_ROOM + 1:
            raise Invalid("JSON nested too deeply")
        done = np.flatnonzero(level == 0)
        stop = len(seg) if not len(done) else int(done[0])
        commas = np.flatnonzero((seg[:stop] == 44) & outside[:stop] & (level[:stop] == 1)) + lo
        count += len(commas)
        if count >= max_nodes:
            raise Limit(f"nodes: more than {max_nodes} node{'s' * (max_nodes != 1)} (the limit)", "--max-nodes",
                        max_nodes)
        ends.append(commas)
        starts.append(commas + 1)
        if len(done):
            end = lo + stop
            if buf[end] != 93:  # a '}' closing the array
                raise reader.syntax(buf, end, "Expecting ',' delimiter")
            ends.append(np.array([end], np.int64))
            break
        depth, inside = int(level[-1]), (int(np.count_nonzero(quotes)) + inside) & 1
        lo += len(seg)
    starts, ends = np.concatenate(starts), np.concatenate(ends)
    if len(starts) == 1 and not buf[starts[0]:ends[0]].strip():
        starts, ends = starts[:0], ends[:0]  # []: no item
    long = np.flatnonzero(ends - starts > MAX_NODE_BYTES)
    if len(long):
        raise Invalid(f"node {long[0]}: more than {MAX_NODE_BYTES} bytes of JSON (the limit for one node)")
    return _Nodes(buf, starts, ends), end + 1


def _read(buf: bytes, max_nodes: int = MAX_NODES):
    """The document as a dict of its top-level fields (reader.fields): the header fields built,
    "nodes" as _Nodes when it is an array (of at most ``max_nodes`` items)."""
    return reader.fields(buf, _HEAD, "nodes", lambda start: _spans(buf, start, max_nodes))


def parse(raw: bytes):
    """The JSON document in ``raw`` (plain or gzip), read as the checker reads it (its nodes built
    one at a time when asked for: a _Nodes); raises Invalid."""
    doc = _read(reader.text(raw, MAX_BYTES))
    if type(doc) in (dict, _Dup):
        doc.pop(None, None)
    return doc


# -- the game ---------------------------------------------------------------------------------

class Game:
    """Codes, feedback table and counting bounds of one game."""

    def __init__(self, pegs: int, colors: int, repetition: bool, black_only: bool = False) -> None:
        self.pegs, self.colors, self.repetition, self.black_only = pegs, colors, repetition, black_only
        self.codes = verify.codes(pegs, colors, repetition)  # in code order
        self.n = n = len(self.codes)
        self.by_text = {code: k for k, code in enumerate(self.codes)}
        self.perms: dict = {}  # the distinct permutations met in the file
        self.swaps: dict = {}  # (a, b) -> the codes' indices with colours a and b exchanged
        digits = np.array([[verify.ALPHABET.index(ch) for ch in code] for code in self.codes], np.int8)
        self.digits = digits.reshape(n, pegs)
        self.code_digits = self.digits.tolist()
        self.canons: dict = {}  # (code, interchangeable lists) -> canon(): met again and again
        self.weight = colors ** np.arange(pegs - 1, -1, -1)  # code order = order of these numbers
        self.value = self.digits @ self.weight
        if not np.all(self.value[1:] > self.value[:-1]):
            raise RuntimeError("codes are not in code order")
        # The non-winning feedbacks any guess can give (docs: "b"); class k is keys[k], the win is
        # class b (the last).
        # Black-only: the answer is (b, 0), b < pegs (b = pegs - 1 is possible: 00 against 01).
        low = 0 if repetition else max(0, 2 * pegs - colors)
        self.feedbacks = ([(b, 0) for b in range(pegs)] if black_only else
                          [(b, w) for b in range(pegs + 1) for w in range(pegs + 1 - b)
                           if b + w >= low and (b, w) not in ((pegs - 1, 1), (pegs, 0))])
        self.keys = [verify.key_text(fb, black_only) for fb in self.feedbacks]
        self.class_of = {key: k for k, key in enumerate(self.keys)}
        self.win = b = len(self.feedbacks)
        class_at = np.full((pegs + 1, pegs + 1), -1)  # (black, white) -> class
        for k, (black, white) in enumerate(self.feedbacks):
            class_at[black, white] = k
        class_at[pegs, 0] = b
        # table[g, s]: the class of feedback(g, s). black = #pegs i where s[i] = g[i]; black + white
        # = sum over the colours c of g of min(occurrences of c in g, occurrences of c in s); under
        # the black-only rule white = 0.
        at = self.digits.T  # at[i][s]: the colour of code s at peg i
        held = np.array([(self.digits == c).sum(axis=1) for c in range(colors)], np.int8)  # held[c][s]
        self.table = np.empty((n, n), np.uint8)
        self.guess_index = np.arange(n)  # (intp: table[S] * n + guess_index is computed in intp)
        for g, d in enumerate(self.digits.tolist()):
            black = sum(at[i] == d[i] for i in range(pegs))
            both = black if black_only else sum(np.minimum(held[c], held[c][g]) for c in set(d))
            row = class_at[black, both - black]
            if row.min() < 0:  # b would be too small: never trust it
                raise RuntimeError(f"guess {self.codes[g]}: a feedback outside the counted ones")
            self.table[g] = row
        for lo in range(0, n, 1024):  # feedback(g, s) = feedback(s, g): row s is also column s
            if not np.array_equal(self.table[lo:lo + 1024], self.table[:, lo:lo + 1024].T):
                raise RuntimeError("the feedback table is not symmetric")
        # solved[k] = N(k): most secrets solvable within k guesses, up to the first k with N(k) >= n.
        self.solved = [0]
        while self.solved[-1] < n:
            self.solved.append(1 + b * self.solved[-1])
        # worst[s]: guesses needed for s secrets by counting; total[s]: least total by counting.
        self.worst = [0] * (n + 1)
        self.total = [0] * (n + 1)
        k = 0
        for s in range(1, n + 1):
            while self.solved[k] < s:
                k += 1
            self.worst[s] = k
        depth, room, placed, acc = 1, 1, 0, 0
        for s in range(1, n + 1):
            if placed == room:
                depth, room, placed = depth + 1, room * b, 0
            placed += 1
            acc += depth
            self.total[s] = acc
        self.total_of = np.array(self.total, np.int64)
        # A guess's non-empty classes at a set as the bits of one unsigned integer (bit k: class k),
        # for counted_small(); None when the b + 1 classes do not fit in 64 bits.
        self.bits = next((t for t in (np.uint16, np.uint32, np.uint64) if np.iinfo(t).bits > b), None)
        # With at most 16 classes and ONEHOT_CODES codes: onehot[s, g] = 2^table[s, g] made once
        # (2 n^2 bytes: 50 MB for Bulls and Cows) and each mask's verdict read from a table.
        self.onehot = None
        if self.bits is np.uint16 and n <= ONEHOT_CODES:
            self.onehot = np.left_shift(np.uint16(1), self.table, dtype=np.uint16)

    def feedback_of(self, key: str, at: str) -> tuple[int, int]:
        """(black, white) of a feedback key: "B,W", or "B" in a black-only game; Invalid if malformed."""
        m = (_BLACK_KEY if self.black_only else _KEY).fullmatch(key)
        if not m:
            form = "'B' (the game is black-only)" if self.black_only else "'B,W'"
            raise Invalid(f"{at}: malformed feedback key {_short(key)} (expected {form})")
        return int(m[1]), 0 if self.black_only else int(m[2])

    def fits(self, size: int, k: int) -> bool:
        """Can ``size`` secrets be solved within k guesses, by counting (size <= N(k))?"""
        return k >= 0 and (k >= len(self.solved) or size <= self.solved[k])

    def most(self, k: int) -> int:
        """N(k), capped at n (no set is larger): the largest class solvable within k guesses."""
        return -1 if k < 0 else self.solved[k] if k < len(self.solved) else self.n

    def class_sizes(self, S, guesses=None) -> np.ndarray:
        """sizes[k, j] = #{s in S : feedback(g, s) is class k}, g the j-th of ``guesses`` (default:
        every code; the win: k = b). One bincount over the keys class * n + j of the pairs (g, s),
        taken from the table's rows s (= its columns), a block of secrets at a time (bounded
        memory): class by class, each row contiguous (the sums and maxima over classes are then
        fast), with no transposed copy."""
        width = self.win + 1
        n = self.n if guesses is None else len(guesses)
        step = max(1, BLOCK // max(1, n))
        sizes = np.zeros(width * n, np.int64)
        for lo in range(0, len(S), step):
            rows = self.table[S[lo:lo + step]]
            keys = np.multiply(rows if guesses is None else rows[:, guesses], n, dtype=np.intp)
            keys += self.guess_index[:n]
            sizes += np.bincount(keys.ravel(), minlength=width * n)
        return sizes.reshape(width, n)

    def moved(self, perm, S) -> np.ndarray:
        """The indices of P(x) for the codes x of S (in S's order), P = (sigma, tau): code x goes
        to the code y with y[sigma[i]] = tau[x[i]], so the number of y is the sum over pegs i of
        tau[x[i]] * weight[sigma[i]]."""
        sigma, tau = perm
        number = np.array(tau)[self.digits[S]] @ self.weight[list(sigma)]
        out = np.searchsorted(self.value, number)
        if (self.value.take(out, mode="clip") != number).any():  # impossible: P maps codes onto codes
            raise RuntimeError("a permutation maps a code outside the game")
        return out

    def swap(self, a: int, b: int) -> np.ndarray:
        """index[x] = the index of code x with colours a and b exchanged, for every code x (made once
        per pair of colours met: at most 630 arrays of n entries)."""
        if (a, b) not in self.swaps:
            tau = list(range(self.colors))
            tau[a], tau[b] = b, a
            self.swaps[(a, b)] = self.moved((tuple(range(self.pegs)), tuple(tau)), np.arange(self.n)).astype(SET)
        return self.swaps[(a, b)]

    def canon(self, g: int, blocks) -> int:
        """The lowest code of g's orbit under the permutations of each list's colours in ``blocks``:
        g's colours from each list, in order of first appearance, renamed to the list's first colours.
        It is the same for every code of the orbit, and it is in the orbit (a renaming within the
        lists): a permutation P of the lists' colours that maps a node's set S onto S maps g's
        classes onto P(g)'s, so g is refuted at S exactly when canon(g) is."""
        if not blocks:
            return g
        key = (g, blocks if type(blocks) is tuple else tuple(blocks))
        found = self.canons.get(key)
        if found is None:
            if len(self.canons) >= 1 << 18:  # (bounded memory: a few tens of MB at most)
                self.canons.clear()
            digits = self.code_digits[g]
            rename = {}
            for block in blocks:
                rename.update(zip([c for c in dict.fromkeys(digits) if c in block], block))
            found = self.canons[key] = self.by_text["".join(verify.ALPHABET[rename.get(c, c)] for c in digits)]
        return found

    def moved_one(self, perm, g: int) -> int:
        """moved(perm, [g])[0], one code at a time: y[sigma[i]] = tau[x[i]]."""
        sigma, tau = perm
        y = [0] * self.pegs
        for i, c in enumerate(self.code_digits[g]):
            y[sigma[i]] = tau[c]
        return self.by_text["".join(verify.ALPHABET[c] for c in y)]

    def image(self, perm, S) -> np.ndarray:
        """P(S), sorted."""
        return np.sort(self.moved(perm, S)).astype(SET)


def _inverse(perm):
    sigma, tau = perm
    inv_s, inv_t = [0] * len(sigma), [0] * len(tau)
    for i, j in enumerate(sigma):
        inv_s[j] = i
    for c, e in enumerate(tau):
        inv_t[e] = c
    return tuple(inv_s), tuple(inv_t)


# -- the document -----------------------------------------------------------------------------

def _header(doc, max_codes: int = MAX_CODES, max_work: int | None = None, max_nodes: int = MAX_NODES):
    """(game, claims) after checking every field outside the nodes. Over ``max_codes`` codes, or
    over ``max_work`` (node, guess) pairs (default MAX_WORK), the file is not checked (Limit)."""
    _typed(doc, dict, "top level")
    fmt = _get(doc, "format", str, "")
    if fmt != FORMAT:
        raise Invalid(f"format: expected {FORMAT!r}, got {_short(fmt)}")
    if _get(doc, "version", int, "") != VERSION:
        raise Invalid(f"version: this checker reads version {VERSION}, got {_short(doc['version'])}")
    pegs, colors, repetition, rule = verify.game_fields(doc)
    if pegs < 1:
        raise Invalid(f"game.pegs: must be >= 1, got {pegs}")
    if not 2 <= colors <= len(verify.ALPHABET):
        raise Invalid(f"game.colors: must be from 2 to {len(verify.ALPHABET)}, got {_short(colors)}")
    if not repetition and pegs > colors:
        raise Invalid(f"game: {_short(pegs)} pegs without repetition need at least as many colors, got {colors}")
    codes = verify._n_codes(min(pegs, 64), colors, repetition)
    if pegs > 64 or codes > max_codes:  # (past 64 pegs the size is not worth computing)
        shown = "more than 10^19" if pegs > 64 else str(codes)
        if pegs > 64 or codes > CODES_CEILING:
            raise Limit(f"game: {shown} codes is too many for the lower-bound checker (ceiling {CODES_CEILING})")
        raise Limit(f"game: {shown} codes is too many for the lower-bound checker (limit {max_codes})",
                    "--max-codes", max_codes, codes)
    claims = _get(doc, "claims", dict, "")
    _only(claims, ("worst_case", "total", "max_guesses", "at_max", "first", "weights"), "claims")
    if "weights" in claims and set(claims) != {"total", "weights"}:
        raise Invalid("claims: 'weights' goes only with 'total' (no max_guesses, at_max or worst_case)")
    if ("worst_case" in claims) == ("total" in claims):
        raise Invalid("claims: exactly one of 'worst_case' and 'total' is needed")
    if "worst_case" in claims and "max_guesses" in claims:
        raise Invalid("claims: 'max_guesses' goes only with 'total'")
    if "at_max" in claims and "max_guesses" not in claims:
        raise Invalid("claims: 'at_max' goes only with 'total' and 'max_guesses'")
    if "weights" in claims:
        _get(claims, "weights", dict, "claims")
    for key, low in (("worst_case", 1), ("total", 0), ("max_guesses", 1), ("at_max", 0)):
        if key in claims and _get(claims, key, int, "claims") < low:
            raise Invalid(f"claims.{key}: must be >= {low}, got {claims[key]}")
    if "first" in claims:
        if "at_max" not in claims:
            raise Invalid("claims: 'first' goes only with 'at_max'")
        if _get(claims, "first", str, "claims") not in ("total", "at_max"):
            raise Invalid(f"claims.first: must be \"total\" or \"at_max\", got {_short(claims['first'])}")
    nodes = doc.get("nodes")
    if type(nodes) is not _Nodes:
        nodes = _get(doc, "nodes", list, "")
    if not len(nodes):
        raise Invalid("nodes: empty (the root is nodes[0])")
    if len(nodes) > max_nodes:
        raise Limit(f"nodes: {len(nodes)} nodes, more than the limit {max_nodes}", "--max-nodes", max_nodes,
                    len(nodes), enough=False)
    if claims.get("at_max", 0) > codes:  # (the bounds' unit needs at_max < codes + 1)
        raise Invalid(f"claims.at_max: {claims['at_max']} is more than the game's {codes} secrets")
    if claims.get("first") == "at_max":
        most = codes * claims["max_guesses"]  # the largest total of any strategy within D
        if claims["total"] > most:  # (the unit B = most + 1 needs total < B)
            raise Invalid(f"claims.total: {claims['total']} is more than {most}, the most any strategy "
                          f"within {claims['max_guesses']} guesses can need for the {codes} secrets")
        if (most + 1) * (codes + 1) + codes * (codes + 2) >= 2 ** 62:
            raise Invalid(f"claims.max_guesses: {claims['max_guesses']} is too large for the checker's "
                          "arithmetic with \"first\": \"at_max\"")
    most = MAX_WORK if max_work is None else max_work
    if len(nodes) * codes > most:
        raise Limit(f"nodes: {len(nodes)} nodes x {codes} guesses each is more than the {most} "
                    "(node, guess) pairs the checker examines (its work limit)", "--max-work", most,
                    len(nodes) * codes, enough=False)
    if doc.get(None):  # the first problem in the metadata (reader.Meta)
        raise Invalid(doc[None])
    return _game(pegs, colors, repetition, rule == "black-only"), dict(claims)


@functools.lru_cache(maxsize=1)
def _game(pegs: int, colors: int, repetition: bool, black_only: bool = False) -> Game:
    """The game, built once for a run of files of the same game (the parts of a split proof): its
    codes and table depend on (pegs, colors, repetition, rule) alone; its caches (the permutations
    and swaps met) are pure functions of it."""
    return Game(pegs, colors, repetition, black_only)


def _root(doc, game: Game):
    """A part's "root": ([(guess index, feedback key)], perm or None) after shape checks, or None
    (the root's set is then every code of the game, or the support with weights)."""
    if "root" not in doc:
        return None
    root = _get(doc, "root", dict, "")
    _only(root, ("path", "perm"), "root")
    path = _get(root, "path", list, "root")
    if len(path) > MAX_PATH:
        raise Invalid(f"root.path: {len(path)} steps, more than the limit {MAX_PATH}")
    steps = []
    for k, step in enumerate(path):
        at = f"root.path[{k}]"
        step = _typed(step, list, at)
        if len(step) != 2 or any(type(x) is not str for x in step):
            raise Invalid(f"{at}: expected [guess, feedback key], two strings")
        g = game.by_text.get(step[0])
        if g is None:
            raise Invalid(f"{at}: {_short(step[0])} is not a code of the game")
        if game.feedback_of(step[1], at) == (game.pegs, 0):
            raise Invalid(f"{at}: key {step[1]!r} is the win (a set of one secret at most)")
        steps.append((g, step[1]))
    perm = _perm(root["perm"], game, "root.perm") if "perm" in root else None
    return steps, perm


def digest(S) -> str:
    """The set digest of a sorted array of code indices: sha256 of the indices as little-endian
    uint32 (4 bytes each, in increasing order), in hex (docs: "Parts of a proof")."""
    return hashlib.sha256(np.asarray(S, dtype="<u4").tobytes()).hexdigest()


def _perm(value, game: Game, where: str):
    """A checked permutation as (sigma, tau) tuples."""
    value = _typed(value, dict, where)
    _only(value, ("pegs", "colors"), where)
    if (len(value) == 2 and type(value["pegs"]) is list and type(value["colors"]) is list
            and all(type(x) is int for x in value["pegs"] + value["colors"])):
        # met before (files repeat them)? Types first: a list or an object cannot be looked up
        found = game.perms.get((tuple(value["pegs"]), tuple(value["colors"])))
        if found is not None:
            return found
    out = []
    for key, size in (("pegs", game.pegs), ("colors", game.colors)):
        items = _get(value, key, list, where)
        if (len(items) != size or any(type(x) is not int for x in items)
                or sorted(items) != list(range(size))):
            raise Invalid(f"{where}.{key}: not a permutation of 0..{size - 1}")
        out.append(tuple(items))
    return game.perms.setdefault(tuple(out), tuple(out))  # one copy of each (files repeat them)


def _blocks(value, game: Game, where: str) -> tuple:
    """A node's interchangeable colours: lists of at least two colours in increasing order, no
    colour in two lists (what they claim is checked at the node)."""
    at, seen, out = f"{where}.interchangeable", set(), []
    for k, block in enumerate(_typed(value, list, at)):
        block = _typed(block, list, f"{at}[{k}]")
        if (len(block) < 2 or any(type(c) is not int or not 0 <= c < game.colors for c in block)
                or any(a >= b for a, b in zip(block, block[1:])) or seen.intersection(block)):
            raise Invalid(f"{at}[{k}]: expected at least two colours from 0 to {game.colors - 1} in "
                          "increasing order, none of them in an earlier list")
        seen.update(block)
        out.append(tuple(block))
    return tuple(out)


def _nodes(nodes, count: int, game: Game, max_nodes: int = MAX_NODES) -> list:
    """Per node of the ``count`` nodes: (bound, {guess index: entry}, interchangeable colour lists);
    an entry is ("same", h, perm) or ("children", [(key, j, perm or None)]). Shape only; the
    meaning is checked by _Proof."""
    return list(_node_stream(nodes, count, game, max_nodes=max_nodes))


def _node_stream(nodes, count: int, game: Game, bounds=None, max_nodes: int = MAX_NODES):
    """_nodes(), one node at a time (what _Proof.check() reads as it goes: the nodes are never
    all held); with ``bounds``, each node's bound must be the one given."""
    entries, most = 0, ENTRIES_PER_NODE * max_nodes
    last = count - 1
    for i, node in enumerate(nodes):
        if type(node) is dict and len(node) == 1 and type(node.get("bound")) is int and node["bound"] >= 0 \
                and (bounds is None or node["bound"] == bounds[i]):
            yield node["bound"], {}, ()  # a leaf, {"bound": d}: what the general reading below gives
            continue
        where = f"node {i}"
        node = _typed(node, dict, where)
        _only(node, ("bound", "guesses", "interchangeable"), where)
        bound = _get(node, "bound", int, where)
        if bound < 0:
            raise Invalid(f"{where}.bound: must be >= 0, got {bound}")
        guesses = {}
        for text, entry in _typed(node.get("guesses", {}), dict, f"{where}.guesses").items():
            g = game.by_text.get(text)
            at = f"{where}: guess {_short(text)}"
            if g is None:
                raise Invalid(f"{at} is not a code of the game")
            entry = _typed(entry, dict, at)
            entries += 1 + len(entry)
            if entries > most:  # (a limit, not a verdict: --max-nodes raises it with the nodes)
                raise Limit(f"{where}: more than {most} guess entries and references (the limit: "
                            f"{ENTRIES_PER_NODE} a node allowed)", "--max-nodes", max_nodes)
            if "same_as" in entry:
                _only(entry, ("same_as", "perm"), at)
                h = game.by_text.get(_get(entry, "same_as", str, at))
                if h is None:
                    raise Invalid(f"{at}.same_as: {_short(entry['same_as'])} is not a code of the game")
                if "perm" not in entry:
                    raise Invalid(f"{at}: missing field 'perm'")
                guesses[g] = ("same", h, _perm(entry["perm"], game, f"{at}.perm"))
                continue
            if not entry:
                raise Invalid(f"{at}: empty entry (omit the guess when counting refutes it)")
            children = []
            for key, ref in entry.items():
                if game.feedback_of(key, at) == (game.pegs, 0):
                    raise Invalid(f"{at}: key {key!r} is the win, which has no child")
                rat = f"{at}, class {key}"
                perm = None
                if type(ref) in (dict, _Dup):
                    ref = _typed(ref, dict, rat)
                    if "lemma" in ref:  # a class proven in another file: an assumption
                        _only(ref, ("lemma", "bound", "perm"), rat)
                        sha = _get(ref, "lemma", str, rat)
                        if not _SHA.fullmatch(sha):
                            raise Invalid(f"{rat}.lemma: expected the sha256 of a part file (64 lowercase "
                                          f"hex digits), got {_short(sha)}")
                        used = _get(ref, "bound", int, rat)
                        if used < 0:
                            raise Invalid(f"{rat}.bound: must be >= 0, got {used}")
                        perm = _perm(ref["perm"], game, f"{rat}.perm") if "perm" in ref else None
                        children.append((key, (sys.intern(sha), used), perm))
                        continue
                    _only(ref, ("node", "perm"), rat)
                    if "perm" not in ref:
                        raise Invalid(f"{rat}: missing field 'perm' (write the node number alone)")
                    perm = _perm(ref["perm"], game, f"{rat}.perm")
                    j = _get(ref, "node", int, rat)
                else:
                    j = _typed(ref, int, rat)
                if not i < j <= last:
                    raise Invalid(f"{rat}: reference to node {j}: must point forward, to a node "
                                  f"from {i + 1} to {last}")
                children.append((key, j, perm))
            guesses[g] = ("children", children)
        if bounds is not None and bound != bounds[i]:  # (cannot happen: one reading rule for both)
            raise Invalid(f"{where}.bound: read as {bound} here and as {bounds[i]} before")
        yield bound, guesses, _blocks(node.get("interchangeable", []), game, where)


# -- checking ---------------------------------------------------------------------------------

orbit_key = verify.orbit_key


def weights_of(claims: dict, game: "Game"):
    """w[s] for every code (int64), from claims.weights: one entry per orbit, keyed by its lowest
    code, each a non-negative integer; None without weights."""
    if "weights" not in claims:
        return None
    given = claims["weights"]
    lowest: dict = {}  # orbit -> its lowest code (codes are enumerated in code order)
    orbit = []
    for code in game.codes:
        key = orbit_key(code)
        lowest.setdefault(key, code)
        orbit.append(key)
    for code, value in given.items():
        if code not in game.by_text:
            raise Invalid(f"claims.weights: {_short(code)} is not a code of the game")
        key = orbit_key(code)
        if lowest[key] != code:
            raise Invalid(f"claims.weights: {code} is not the lowest code of its orbit (write {lowest[key]})")
        if type(value) is not int or value < 0:
            raise Invalid(f"claims.weights.{code}: must be an integer >= 0, got {_short(value)}")
    missing = [code for code in lowest.values() if code not in given]
    if missing:
        raise Invalid(f"claims.weights: no weight for the orbit of {missing[0]} (one entry per orbit, "
                      f"{len(lowest)} in this game)")
    w = np.array([given[lowest[key]] for key in orbit], dtype=object)
    total = int(w.sum())
    if total == 0:
        raise Invalid("claims.weights: every weight is 0 (the codemaker needs a secret)")
    if total * (game.n * (game.n + 1) + 1) >= 2 ** 62:  # the arithmetic stays within 64 bits
        raise Invalid(f"claims.weights: they sum to {total}, too large for the checker's arithmetic "
                      f"(the limit: sum x (n^2 + n + 1) < 2^62)")
    return w.astype(np.int64)


def units(claims: dict, n: int) -> tuple:
    """(A, B): with at_max, a secret found at the l-th guess of the r left costs A l, plus B when
    l = r (rule 10). Total first: (n + 1, 1), a cost (n + 1) total + K; at_max first: (1, n D + 1),
    a cost (n D + 1) K + total, n D being the largest total of any strategy within D."""
    if "at_max" not in claims:
        return 1, 0
    if claims.get("first") == "at_max":
        return 1, n * claims["max_guesses"] + 1
    return n + 1, 1


class _Proof:
    """The sets, origins and depths of the nodes met so far, and the checking of one node."""

    def __init__(self, game: Game, claims: dict, nodes, size: int = 0, root=None, bounds=None,
                 max_work: int | None = None) -> None:
        """``nodes``: the list of nodes, or (with their ``bounds``) an iterator over them, each
        read when check() reaches it."""
        self.game, self.nodes = game, nodes
        self.bounds = [node[0] for node in nodes] if bounds is None else bounds
        self.worst_case = "worst_case" in claims
        self.max_guesses = claims.get("max_guesses")
        # A secret found at the l-th guess of r left costs A l, plus B when l = r (rule 10).
        self.at_max = "at_max" in claims
        self.weight, self.unit = units(claims, game.n)
        self.first = claims.get("first", "total")
        # More than counting ever adds up for a guess: A (|S| + countTotal) + B |S| < cap.
        self.cap = self.weight * (game.n * (game.n + 1) + 1) + self.unit * (game.n + 1)
        self.costs_at: dict = {}
        self.masks: dict = {}  # (A, C, need) -> verdicts()
        self.leaves: dict = {}  # (size, guesses left) -> [(node, set, bound)]: check_leaves()
        self.deferred = 0  # their keys and class sizes (defer())
        self.sets = [None] * len(self.bounds)
        self.sets[0] = np.arange(game.n, dtype=SET)  # a set: the sorted indices of its codes
        # With weights the sets hold the secrets of positive weight only (the root: the support).
        self.w = weights_of(claims, game)
        if self.w is not None:
            self.sets[0] = np.flatnonzero(self.w > 0).astype(SET)
            self.cap = int(self.w.sum()) * (game.n * (game.n + 1) + 1)
            self.depth_of_rank = np.array([d for d in range(1, len(game.solved))
                                           for _ in range(game.solved[d] - game.solved[d - 1])][:game.n],
                                          dtype=np.int64)
        # check_leaves() counts in int64: total claims (not weighted) whose cap fits
        self.batch = LEAF_BATCH > 0 and self.w is None and not self.worst_case and self.cap < 1 << 62
        self.origin = [None] * len(self.bounds)  # (parent, guess, key, permuted) of the first reference
        self.depth = [0] * len(self.bounds)
        # (lemma sha256, set digest, depth) -> (bound, secrets, where first used): the classes
        # whose bounds are taken from other files (docs: "Parts of a proof")
        self.assumptions: dict = {}
        if root is not None:  # a part: its root's set is reached from the game's by a path
            steps, perm = root
            S = self.sets[0]
            for k, (g, key) in enumerate(steps):
                c = game.class_of.get(key)
                S = S[game.table[g, S] == c] if c is not None else S[:0]
                if not len(S):
                    raise Invalid(f"root.path[{k}]: no secret of the set reached gives feedback {key} "
                                  f"to {game.codes[g]} (an empty class)")
            if perm is not None:  # the file's root set R with P(R) = the class reached
                S = game.image(_inverse(perm), S)
            self.sets[0], self.depth[0] = S, len(steps)
        self.stats = {"nodes": len(self.bounds), "guesses": 0, "counting_nodes": 0}
        self.pairs = 0  # work done so far, in (guess, secret) pairs or their equivalent
        # The default budget grows with the file's bytes (a small file cannot ask for hours); the
        # user's max_work replaces it (the budget is the user's, never the file's).
        self.budget = min(MAX_PAIRS, WORK_BASE + WORK_PER_BYTE * size) if max_work is None else max_work
        self.budget_given = max_work is not None
        self.pending = self.peak = SET_OVERHEAD + 2 * game.n  # bytes of the sets waiting

    def path(self, node: int) -> str:
        steps = []
        while node:
            parent, g, key, permuted = self.origin[node]
            steps.append(f"{self.game.codes[g]} -({key})->" + (" (permuted)" if permuted else ""))
            node = parent
        steps.reverse()
        if len(steps) > 16:
            steps[8:-4] = [f"[{len(steps) - 12} more steps]"]
        return " ".join(steps) or "root"

    def where(self, node: int) -> str:
        return f"node {node} (bound {self.bounds[node]}) at {self.path(node)}"

    def check(self, progress=None) -> None:
        """Every node in index order; ``progress(done, total)`` is called about once a second."""
        next_time, total, shown = time.monotonic() + 1, len(self.bounds), False
        nodes = iter(self.nodes)
        try:
            for i in range(total):
                node = next(nodes)
                if self.sets[i] is None:
                    raise Invalid(f"node {i}: not referenced by any earlier node")
                self.check_node(i, node)
                if progress is not None and time.monotonic() > next_time:
                    progress(i + 1, total)
                    next_time, shown = time.monotonic() + 1, True
        except Invalid:
            self.check_leaves()  # a failing leaf deferred from an earlier node comes first
            raise
        finally:
            if shown:
                progress(None, total)  # ends the progress line
        self.check_leaves()
        self.stats["work"], self.stats["peak_set_bytes"] = self.pairs, self.peak

    def check_node(self, i: int, node) -> None:
        """Node i holds when every code g of the game is refuted at S_i. Every refutation ends, in at
        most two steps, in a *direct* one: g's own partition of S_i, valued by counting and by g's
        own children (docs/lower-bound-format.md, "Soundness"):

        - direct: counting refutes the whole node, or g, or g's partition with its children does;
        - interchangeable colours: g is refuted when canon(g), the lowest code of its orbit, is;
        - same_as H with P: g is refuted when H is (P(g) = H, P(S) = S), and the *target* t that is
          refuted for H must be refuted directly: t = H when H has an entry, else canon(H); t
          never has a same_as entry itself. So no refutation leans on another indirect one."""
        game, (d, entries, blocks) = self.game, node
        S, self.sets[i] = self.sets[i], None  # (no later reference to node i: freed once checked)
        size = len(S)
        self.interchangeable(i, S, blocks)
        left = None if self.max_guesses is None else self.max_guesses - self.depth[i]
        if self.worst_case:
            holds = d <= 1 or not game.fits(size, d - 1)
        elif self.w is not None:
            holds = self.wcount(self.w[S]) >= d
        else:
            holds = self.cost_list(left)[size] >= d or (left is not None and not game.fits(size, left))
        if holds and not entries:
            self.stats["counting_nodes"] += 1
        self.stats["guesses"] += len(entries) if holds else game.n
        self.pending -= SET_OVERHEAD + 2 * size
        swaps = sum(len(b) - 1 for b in blocks)
        self.spend(i, (0 if holds else game.n * (size + game.win + 1) * (1 if self.w is None else WEIGHTED_COST))
                   + len(entries) * (size + GUESS_COST)
                   + (game.n + swaps * (SWAP_COST + 2 * size) if blocks else 0))
        if (not holds and not entries and not blocks and self.batch and size * (size + game.win + 1) <= LEAF_BATCH
                and self.outside_counted(size, d, left)):
            self.defer(i, S, d, left)  # a leaf where counting refutes every guess outside S
            return
        same = {g: entry for g, entry in entries.items() if entry[0] == "same"}
        # The guess refuted directly for a same_as target h: h when h has an entry, else canon(h).
        target = {g: h if h in entries else game.canon(h, blocks) for g, (_, h, _) in same.items()}
        # The guesses refuted directly, each by its own partition: every children entry (its
        # references define the children's sets, whatever counting says) and every same_as
        # target; then, unless counting settles the whole node, every lowest code of an orbit
        # that counting does not refute and that has no same_as entry.
        direct = {g for g in entries if g not in same} | {t for t in target.values() if t not in same}
        counted = None
        if not holds:
            if self.w is None:
                counted = self.counted_small(S, size, d, left)
                if counted is None:
                    sizes = game.class_sizes(S)[:game.win]  # the non-winning classes of every guess
                    counted = self.counted(sizes, size, d, left)
            else:  # w(S) + the weighted counting bounds of the classes, for every guess
                counted = (int(self.w[S].sum()) + self.wclasses(S, np.arange(game.n)).sum(axis=1)
                           >= min(d, self.cap))
            left_over = [] if counted.all() else np.flatnonzero(~counted).tolist()
            direct.update(c for c in ({game.canon(g, blocks) for g in left_over} if blocks else left_over)
                          if c not in same)
        self.spend(i, sum(size + GUESS_COST for g in direct if not holds and g not in entries and not counted[g])
                   # (no image to compute for the whole game: every permutation maps it onto itself)
                   + (0 if size == game.n else self.image_cost(size) * len({perm for _, _, perm in same.values()})))
        for g in sorted(direct):  # code order; the same_as entries are looked at after
            entry = entries.get(g)
            if entry is None and (holds or counted[g]):
                continue  # refuted by counting alone
            refuted = self.guess(i, g, S, size, d, left, entry[1] if entry else ())
            if not (holds or refuted is True):
                raise Invalid(f"{self.where(i)}: guess {game.codes[g]} is not refuted: {refuted}")
        fixes = {}  # permutation -> does it map S onto S?
        for g in sorted(same):
            _, h, perm = same[g]
            t, problem, moved = target[g], None, game.moved_one(perm, g)
            if t in same:
                through = "" if t == h else f" (through interchangeable colours, {game.codes[t]})"
                problem = (f"{game.codes[h]}{through} has a same_as entry itself: a same_as target "
                           "must be refuted by its own partition")
            elif moved != h:
                problem = f"the permutation maps {game.codes[g]} to {game.codes[moved]}"
            else:
                if perm not in fixes:  # (P is a bijection of the game's codes: it maps them all onto all)
                    fixes[perm] = size == game.n or np.array_equal(game.image(perm, S), S)
                if not fixes[perm]:
                    outside = game.codes[np.setdiff1d(game.image(perm, S), S)[0]]
                    problem = (f"the permutation does not map the node's set onto itself "
                               f"({outside} is in the image, not in the set)")
            if problem:
                raise Invalid(f"{self.where(i)}: guess {game.codes[g]} same_as {game.codes[h]}: {problem}")

    def spend(self, i: int, work: int) -> None:
        """Count ``work`` before doing it; past the budget the file is refused."""
        self.pairs += work
        if self.pairs > self.budget:
            limit = "the --max-work given" if self.budget_given else "the limit for a file of this size, by default"
            raise Limit(f"{self.where(i)}: more than {self.budget} (guess, secret) pairs or their "
                        f"equivalent to look at ({limit})", "--max-work", self.budget)

    @staticmethod
    def image_cost(size: int) -> int:
        return IMAGE_COST + IMAGE_PER_SECRET * size

    def interchangeable(self, i: int, S, blocks) -> None:
        """Swapping two neighbours of a list of interchangeable colours maps S onto S; these swaps
        generate every permutation of the list's colours, so each of those maps S onto S too."""
        game = self.game
        if not blocks:
            return
        member = np.zeros(game.n, bool)
        member[S] = True
        for block in blocks:
            for a, b in zip(block, block[1:]):
                moved = game.swap(a, b)[S]  # a swap is one-to-one: P(S) within S means P(S) = S
                if not member[moved].all():
                    outside = game.codes[moved[~member[moved]][0]]
                    raise Invalid(f"{self.where(i)}: interchangeable colours {a} and {b}: swapping them "
                                  f"does not map the node's set onto itself ({outside} is in the "
                                  "image, not in the set)")

    def costs(self, r) -> np.ndarray:
        """Counting's bound on the cost of k secrets with r guesses left, for k = 0..n: the least
        total (countTotal), and with at_max weighted, plus 1 for each secret beyond the N(r - 1)
        that r - 1 guesses can find: those are found at the r-th guess, the last allowed."""
        if r not in self.costs_at:
            found = self.game.total_of * self.weight
            if self.at_max and r is not None and r >= 1:
                found = found + self.unit * np.maximum(0, np.arange(self.game.n + 1) - self.game.most(r - 1))
            self.costs_at[r] = found
        return self.costs_at[r]

    def cost_list(self, r) -> list:
        """costs(r) as a list of ints (read one at a time, faster than the array)."""
        if ("list", r) not in self.costs_at:
            self.costs_at[("list", r)] = self.costs(r).tolist()
        return self.costs_at[("list", r)]

    def wcount(self, weights) -> int:
        """countW: the least sum of w x guesses for secrets of these weights, by counting: the
        heaviest at the greedy depths (1, then 2 for b of them, 3 for b^2...). Any strategy finds
        at most b^(d - 1) secrets at depth d, so its k-th smallest depth is at least the greedy
        k-th, and by the rearrangement inequality the heaviest take the smallest (rule 11)."""
        ordered = np.sort(np.asarray(weights, dtype=np.int64))[::-1]
        return int(ordered @ self.depth_of_rank[:len(ordered)])

    def wclasses(self, S, guesses) -> np.ndarray:
        """out[j, k] = countW of the non-winning class k of guesses[j] at S (0 for the win and empty
        classes). S ordered by weight, heaviest first; in each guess's row a stable sort by class
        keeps that order within a class, so a secret's place within its class is its rank."""
        game, width = self.game, self.game.win + 1
        order = np.argsort(-self.w[S], kind="stable")
        T, wT = S[order], self.w[S][order]
        m = len(T)
        out = np.zeros((len(guesses), width), dtype=np.int64)
        step = max(1, BLOCK // max(1, m))
        place = np.arange(m)
        for lo in range(0, len(guesses), step):
            G = guesses[lo:lo + step]
            labels = game.table[np.ix_(G, T)]
            idx = np.argsort(labels, axis=1, kind="stable")
            cls = np.take_along_axis(labels, idx, axis=1)
            start = np.ones(cls.shape, bool)
            start[:, 1:] = cls[:, 1:] != cls[:, :-1]
            first = np.maximum.accumulate(np.where(start, place, 0), axis=1)
            part = wT[idx] * self.depth_of_rank[place - first]
            cum = np.cumsum(part, axis=1)
            end = np.ones(cls.shape, bool)
            end[:, :-1] = cls[:, 1:] != cls[:, :-1]
            rows, cols = np.nonzero(end)
            before = np.where(first[rows, cols] > 0, cum[rows, first[rows, cols] - 1], 0)
            out[lo + rows, cls[rows, cols]] = cum[rows, cols] - before
        out[:, game.win] = 0
        return out

    def counted(self, sizes: np.ndarray, size: int, d, left) -> np.ndarray:
        """For every guess g, given the sizes[k, g] of its non-winning classes at the node: is it refuted
        by counting alone? (Never a wrong True; a False goes to guess(), which decides.) d: the
        node's bound, or (check_leaves) an array of one bound per guess."""
        game = self.game
        if self.worst_case:  # some class needs >= d - 1 guesses: more than N(d - 2) secrets
            return sizes.max(axis=0) > game.most(d - 2)
        # |S| + the counting totals of the classes (weighted); no guess reaches the cap
        refuted = (self.weight * size + self.costs(None if left is None else left - 1)[sizes].sum(axis=0)
                   >= (np.minimum(d, self.cap) if type(d) is np.ndarray else min(d, self.cap)))
        if left is not None:  # some class cannot be solved in the r - 1 guesses left
            refuted |= sizes.max(axis=0) > game.most(left - 1)
        return refuted

    def line(self, r) -> tuple:
        """(A, C, M, L): costs(r)[m] = A m + C for every m from 1 to M (M >= 1), and costs(r)[m] >=
        A m + C for every m from 1 to L (L >= M): read off the array."""
        if ("line", r) not in self.costs_at:
            found = self.costs(r)
            a = int(found[2] - found[1]) if len(found) > 2 else 0
            c = int(found[1]) - a
            m = 1
            while m + 1 < len(found) and found[m + 1] - found[m] == a:
                m += 1
            above = found[1:] >= a * np.arange(1, len(found), dtype=np.int64) + c
            low = len(above) if above.all() else int(np.argmin(above))
            self.costs_at[("line", r)] = (a, c, m, low)
        return self.costs_at[("line", r)]

    def cheapest_split(self, m: int, r) -> int:
        """The least sum of cost(n_k) (cost = costs(r)) over the ways to split m secrets into at
        most b classes, when cost is convex with cost(0) = 0 (checked on the array; else 0, a
        bound that never refutes). If n_i >= n_j + 2, moving a secret from class i to class j
        changes the sum by (cost(n_j + 1) - cost(n_j)) - (cost(n_i) - cost(n_i - 1)) <= 0, the
        steps of a convex array growing; so the even split (the sizes differ by at most 1) costs
        least."""
        key = ("split", r)
        if key not in self.costs_at:
            found = self.costs(r)
            self.costs_at[key] = bool(found[0] == 0 and (np.diff(found, 2) >= 0).all())
        if not self.costs_at[key]:
            return 0
        b, found = self.game.win, self.cost_list(r)
        q, extra = divmod(m, b)
        return (b - extra) * found[q] + (extra * found[q + 1] if extra else 0)

    def outside_counted(self, m: int, d: int, left) -> bool:
        """Does counting refute every guess outside a set of m secrets, whatever the set? Such a
        guess wins none of them, so its non-winning classes hold all m: W m + the sum of their
        counting values is at least W m + cheapest_split(m)."""
        return d < 1 << 62 and (self.weight * m + self.cheapest_split(m, None if left is None else left - 1)
                                >= min(d, self.cap))

    def defer(self, i: int, S, d: int, left) -> None:
        """Leave leaf i to check_leaves(), in a batch of leaves of its size and guesses left."""
        self.leaves.setdefault((len(S), left), []).append((i, S, d))
        self.deferred += len(S) * (len(S) + self.game.win + 1)  # its keys and class sizes
        if self.deferred >= LEAF_BATCH:
            self.check_leaves()

    def check_leaves(self) -> None:
        """The leaves check_node() deferred: nodes with no entry and no interchangeable colours
        where counting refutes every guess outside S (cheapest_split), so that they hold exactly
        when counting refutes every guess of S too (a guess counting leaves would be partitioned
        by guess() with no children: counting's own value again, so not refuted). For the L leaves
        of one size m and one number of guesses left, one bincount over the keys
        table[S_l[j], S_l[t]] + (l m + j)(b + 1) gives sizes[k, l m + j], the secrets of S_l in class
        k of guess S_l[j], and counted() decides each (l, j) against S_l's bound. A leaf that fails
        is checked again alone, which names its first guess not refuted (the lowest node first)."""
        game, width, failed = self.game, self.game.win + 1, []
        for (m, left), leaves in self.leaves.items():
            sets = np.array([S for _, S, _ in leaves], np.intp)  # (L, m)
            rows = np.arange(0, len(leaves) * m * width, width, dtype=np.intp).reshape(len(leaves), m, 1)
            keys = game.table[sets[:, :, None], sets[:, None, :]] + rows
            sizes = np.bincount(keys.ravel(), minlength=len(leaves) * m * width).reshape(-1, width).T
            bounds = np.repeat(np.array([d for _, _, d in leaves], np.int64), m)
            refuted = self.counted(sizes[:game.win], m, bounds, left).reshape(len(leaves), m).all(axis=1)
            failed += [(leaves[l][0], leaves[l][1], leaves[l][2], left) for l in np.flatnonzero(~refuted)]
        self.leaves, self.deferred = {}, 0
        if failed:
            i, S, d, left = min(failed, key=lambda leaf: leaf[0])
            counted = self.counted(game.class_sizes(S)[:game.win], len(S), d, left)
            for g in np.flatnonzero(~counted).tolist():
                refuted = self.guess(i, g, S, len(S), d, left, ())
                if refuted is not True:
                    raise Invalid(f"{self.where(i)}: guess {game.codes[g]} is not refuted: {refuted}")
            raise RuntimeError(f"node {i}: the batched count and the node's own disagree")

    def counted_small(self, S, size: int, d: int, left):
        """counted(), computed mostly without class sizes; None when this way does not apply (the
        caller then counts every guess's class sizes).

        If cost(m) >= A m + C for 1 <= m <= |S| (cost = counting's bound with r - 1 guesses left),
        then for any guess g, whose k non-empty non-winning classes hold |S| - [g in S] secrets,
        each between 1 and |S|, the sum of cost over them is at least A (|S| - [g in S]) + C k: so
        counted()'s value is at least W |S| + A (|S| - [g in S]) + C k, and g is refuted when that
        is >= the bound. k and [g in S] come from the bits of g's classes: the OR over the secrets
        s of 2^table[s, g] (bit b is the win). When cost(m) = A m + C all the way to |S| and no
        class can exceed N(r - 1) (|S| <= N(r - 1)), that is exactly counted()'s verdict; else the
        guesses it leaves are given counted()'s verdict from their own class sizes."""
        game = self.game
        r = None if left is None else left - 1
        if self.worst_case or game.bits is None:
            return None
        a, c, upto, low = self.line(r)
        # refuted iff W |S| + A (|S| - won) + C (met - won) >= min(d, cap), met = k + won the
        # classes met (the win too), won = [g in S]; in 32 bits when no term can overflow them
        need = min(d, self.cap) - (self.weight + a) * size
        if size > low or abs(c) + abs(a + c) > 1 << 20 or abs(need) > 1 << 30:
            return None
        if game.onehot is not None:  # the same test, once for every 16-bit mask (verdicts())
            refuted = self.verdicts(a, c, need).take(np.bitwise_or.reduce(game.onehot.take(S, axis=0), axis=0))
        else:  # a block of secrets at a time (bounded memory: BLOCK pairs)
            bits = np.zeros(game.n, game.bits)
            step = max(1, BLOCK // game.n)
            for lo in range(0, size, step):
                rows = game.table.take(S[lo:lo + step], axis=0).astype(game.bits)
                bits |= np.bitwise_or.reduce(np.left_shift(game.bits(1), rows, out=rows), axis=0)
            refuted = self.mask_test(bits, a, c, need)
        if size > upto or (r is not None and game.most(r) < size):  # a lower bound only
            rest = np.flatnonzero(~refuted)
            if len(rest):
                refuted[rest] = self.counted(game.class_sizes(S, rest)[:game.win], size, d, left)
        return refuted

    def mask_test(self, bits, a: int, c: int, need: int) -> np.ndarray:
        """counted_small()'s test on class masks: C met - (A + C) won >= need, met a mask's number
        of bits (its classes, the win included), won its bit b ([g in S])."""
        met = np.bitwise_count(bits).astype(np.int32)
        won = ((bits >> self.game.win) & 1).astype(np.int32)
        return c * met - (a + c) * won >= need

    def verdicts(self, a: int, c: int, need: int) -> np.ndarray:
        """mask_test() of every 16-bit mask, made once per (A, C, need) met (at most 256 kept)."""
        key = (a, c, need)
        found = self.masks.get(key)
        if found is None:
            if len(self.masks) >= 256:
                self.masks.clear()
            found = self.masks[key] = self.mask_test(np.arange(1 << 16, dtype=np.uint16), a, c, need)
        return found

    def guess(self, i: int, g: int, S, size: int, d: int, left, children):
        """True if guess g is refuted at node i, else the reason it is not. Checks g's children."""
        game = self.game
        row = game.table[g, S]  # the class of each secret of S
        sizes = np.bincount(row, minlength=game.win + 1).tolist()
        given = {}
        for key, j, perm in children:
            k = game.class_of.get(key)
            if k is None or not sizes[k]:
                raise Invalid(f"{self.where(i)}: guess {game.codes[g]}, class {key}: no secret of the "
                              "node gives this feedback (an empty class)")
            if type(j) is tuple:  # a lemma: (sha256, bound), checked with its part
                self.lemma(i, g, key, S[row == k], j, perm)
                given[k] = j[1]
                continue
            self.reach(i, g, key, S[row == k], j, perm)
            given[k] = self.bounds[j]
        best, total = (0, None), self.weight * size
        if self.w is not None:  # w(S) + the weighted counting bound or the child's, class by class
            counts = self.wclasses(S, np.array([g]))[0]
            total = int(self.w[S].sum()) + sum(max(int(counts[k]), given.get(k, 0))
                                               for k, n in enumerate(sizes[:game.win]) if n)
            if total >= d:
                return True
            return f"it gives at least {total} weighted guesses in total, below the bound {d}"
        counts = game.worst if self.worst_case else self.cost_list(None if left is None else left - 1)
        for k, n in enumerate(sizes[:game.win]):
            if not n:
                continue
            if left is not None and not game.fits(n, left - 1):
                return True  # this class cannot be solved within the guesses left
            value = max(counts[n], given.get(k, 0))
            if self.worst_case:
                best = max(best, (value, game.keys[k]))
            total += value
        if self.worst_case:
            if d <= 1 or best[0] >= d - 1:
                return True
            if best == (0, None):
                return f"it wins at once (the node's set is {{{game.codes[g]}}})"
            value, key = best
            ref = dict((k, j) for k, j, _ in children).get(key)
            via = ("" if game.class_of[key] not in given else f", node {ref}" if type(ref) is int
                   else f", lemma {ref[0][:16]}...")
            return (f"its best non-winning class {key} ({sizes[game.class_of[key]]} secrets{via}) needs "
                    f"{value} more guesses, the bound needs {d - 1}")
        if total >= d:
            return True
        if self.at_max and self.first == "at_max":
            k, t = divmod(total, self.unit)
            return f"it costs at least {total} ({k} secrets at the maximum, then {t} guesses in total), below the bound {d}"
        if self.at_max:
            t, k = divmod(total, self.weight)
            return f"it costs at least {total} ({t} guesses in total, then {k} at the maximum), below the bound {d}"
        return f"it gives at least {total} guesses in total, below the bound {d}"

    def lemma(self, i: int, g: int, key: str, C, ref, perm) -> None:
        """Class C's bound comes from a part file: recorded as an assumption, (sha256, the digest of
        the set the part must be about (C, or P^-1(C): C = P(S_part)), the depth of C) -> the bound
        used. The file is then valid only under its assumptions: combine() decides."""
        if perm is not None:
            self.spend(i, self.image_cost(len(C)))
        T = C if perm is None else self.game.image(_inverse(perm), C)
        sha, bound = ref
        at = (sha, digest(T), self.depth[i] + 1)
        if at not in self.assumptions and len(self.assumptions) >= MAX_ASSUMPTIONS:
            raise Invalid(f"{self.where(i)}: guess {self.game.codes[g]}, class {key}: more than "
                          f"{MAX_ASSUMPTIONS} distinct lemma assumptions (the limit)")
        if at not in self.assumptions or self.assumptions[at][0] < bound:
            self.assumptions[at] = (bound, len(T), f"{self.where(i)}: guess {self.game.codes[g]}, class {key}")

    def reach(self, i: int, g: int, key: str, C, j: int, perm) -> None:
        """Node j is referenced for class C (= S_j, or P(S_j)); the first reference defines S_j."""
        game = self.game
        if perm is not None:
            self.spend(i, self.image_cost(len(C)))
        T = C if perm is None else game.image(_inverse(perm), C)
        if self.sets[j] is None:
            self.pending += SET_OVERHEAD + 2 * len(T)
            self.peak = max(self.peak, self.pending)
            if self.pending > MAX_PENDING:
                raise Invalid(f"{self.where(i)}: guess {game.codes[g]}, class {key}: the sets of the nodes "
                              f"referenced and not yet checked would hold more than {MAX_PENDING} bytes "
                              "(the limit: check nodes nearer their first reference)")
            self.sets[j], self.origin[j], self.depth[j] = T, (i, g, key, perm is not None), self.depth[i] + 1
            return
        if not np.array_equal(self.sets[j], T):
            diff = game.codes[np.setxor1d(self.sets[j], T)[0]]
            what = "the permuted class" if perm else "the class"
            raise Invalid(f"{self.where(i)}: guess {game.codes[g]}, class {key}: node {j} does not "
                          f"stand for {what} ({len(C)} secrets): they differ on {diff}; node {j} "
                          f"was first reached at {self.path(j)}")
        if self.max_guesses is not None and self.depth[j] != self.depth[i] + 1:
            raise Invalid(f"{self.where(i)}: guess {game.codes[g]}, class {key}: node {j} is reached at "
                          f"depth {self.depth[i] + 1} here and at depth "
                          f"{self.depth[j]} at {self.path(j)} (with max_guesses a node has one depth)")


# -- reports and command line -----------------------------------------------------------------

class Report(reader.Report):
    """Outcome of checking one file."""

    def __init__(self, file: str) -> None:
        super().__init__(file)
        self.game: dict | None = None
        self.claims: dict | None = None
        self.secrets: int | None = None
        self.checked: dict | None = None
        self.weight_sum: int | None = None  # with weights: sum of w over every code, and the
        self.support: int | None = None  # number of codes of positive weight
        # Parts of a split proof (docs: "Parts of a proof"): the sha256 of the file's bytes as given;
        # for a part, its root ({"path", "perm", "depth", "secrets", "set", "bound"}); the
        # assumptions its lemma references make ({"lemma", "set", "depth", "bound", "secrets", "at"});
        # after combine(), the part files its claim rests on.
        self.sha256: str | None = None
        self.root: dict | None = None
        self.assumptions: list = []
        self.parts: list | None = None

    def to_json(self) -> dict:
        return {**super().to_json(), "game": self.game, "claims": self.claims, "secrets": self.secrets,
                "checked": self.checked, "sha256": self.sha256,
                **({} if self.root is None else {"root": self.root}),
                **({} if not self.assumptions else {"assumptions": self.assumptions}),
                **({} if self.parts is None else {"parts": self.parts}),
                **({} if self.weight_sum is None else {"weight_sum": self.weight_sum, "support": self.support,
                                                       "mean": f"{self.claims['total']}/{self.weight_sum}"})}

    def statement(self) -> str:
        """What a valid file proves, in words. Without repetition the guesses are codes of the game
        too (distinct colours): under house rules that allow any guess, the optima differ. A total
        above D x secrets within D guesses holds only when no strategy fits: said in words."""
        g, c = self.game, self.claims
        label = f"{g['pegs']}x{g['colors']}"
        if not g["repetition"]:
            label += " without repetition (secrets and guesses of distinct colours)"
        if "feedback" in g:
            label += " with black-only answers"
        if "worst_case" in c:
            return f"every strategy for {label} needs >= {c['worst_case']} guesses for some secret"
        if "weights" in c:
            t, w = c["total"], self.weight_sum
            return (f"every strategy for {label} needs >= {t} guesses weighted by the claims' weights "
                    f"(sum {w}, {self.support} secrets of positive weight): a mean >= {t}/{w} = "
                    f"{t / w:.4f} against the codemaker's distribution w / {w}")
        if "max_guesses" in c and c["total"] > c["max_guesses"] * self.secrets:
            d = c["max_guesses"]
            return (f"no strategy for {label} solves every secret within {d} guesses (every strategy "
                    f"needs >= {d + 1} for some secret)")
        within = f" within {c['max_guesses']} guesses" if "max_guesses" in c else ""
        then = ""
        if c.get("first") == "at_max":  # the pair (secrets needing the maximum, total)
            k = c["at_max"]
            return (f"every strategy for {label}{within} has >= {k} secret{'' if k == 1 else 's'} "
                    f"needing {c['max_guesses']} guesses; one with exactly {k} needs >= {c['total']} "
                    f"guesses in total (mean {c['total'] / self.secrets:.4f})")
        if "at_max" in c:  # the pair (total, secrets needing the maximum), in lexicographic order
            then = (f"; one with exactly {c['total']} has >= {c['at_max']} "
                    f"secret{'' if c['at_max'] == 1 else 's'} needing {c['max_guesses']} guesses")
        return (f"every strategy for {label}{within} needs >= {c['total']} guesses in total "
                f"(mean {c['total'] / self.secrets:.4f}) over the {self.secrets} secrets{then}")

    def lemma_statement(self) -> str:
        """What a valid part proves about its root's set, in words."""
        g, c, r = self.game, self.claims, self.root
        label = (f"{g['pegs']}x{g['colors']}" + ("" if g["repetition"] else " without repetition")
                 + (" black-only" if "feedback" in g else ""))
        where = f"the {r['secrets']} secrets of {label} at {_steps(r['path'], r['perm'] is not None)}"
        if "worst_case" in c:
            return f"every strategy for {where} needs >= {r['bound']} guesses for some of them"
        if "weights" in c:
            return f"every strategy for {where} needs >= {r['bound']} guesses weighted by the claims' weights"
        if "max_guesses" not in c:
            return f"every strategy for {where} needs >= {r['bound']} guesses in total"
        left = c["max_guesses"] - r["depth"]
        if "at_max" in c:
            return (f"every strategy for {where} within the {left} guesses left costs >= {r['bound']} "
                    f"(a cost as in an at_max claim, {c.get('first', 'total')} first)")
        return f"every strategy for {where} within the {left} guesses left needs >= {r['bound']} guesses in total"

    def line(self) -> str:
        if self.valid and self.parts:
            lemmas = len({a["lemma"] for a in self.assumptions})
            return (f"{self.file}: valid lower bound, a split proof ({lemmas} lemma{'' if lemmas == 1 else 's'} "
                    f"proven by {len(self.parts)} part file{'' if len(self.parts) == 1 else 's'}): {self.statement()}")
        if self.valid:
            return f"{self.file}: valid lower bound: {self.statement()}"
        return self.failure()


def _steps(path, permuted: bool) -> str:
    """A part's root path in words, as the checker's paths are shown."""
    steps = " ".join(f"{g} -({f})->" for g, f in path) or "the root of the game"
    return steps + (" (then permuted)" if permuted else "")


def check_bytes(raw: bytes, file: str = "<bytes>", progress=None, max_codes: int = MAX_CODES,
                max_work: int | None = None, max_nodes: int | None = None) -> Report:
    """Check a certificate given as bytes (plain or gzipped JSON) on its own: a file that leans on
    parts (lemma references) or is a part is not a proof of its claim by itself (combine());
    ``progress(done, total)`` is called about once a second while nodes are checked."""
    return combine(verdict_bytes(raw, file, progress, max_codes, max_work, max_nodes))


def verdict_bytes(raw: bytes, file: str = "<bytes>", progress=None, max_codes: int = MAX_CODES,
                  max_work: int | None = None, max_nodes: int | None = None) -> Report:
    """What one file shows by itself: valid means valid *under its assumptions* (report.assumptions),
    and about its root's set (report.root, for a part). Only combine() says what is proven.
    ``max_codes`` and ``max_work`` (work in (guess, secret) pairs; default: by the file's size) are
    the user's limits, and ``max_nodes`` (default MAX_NODES): a file over one is not checked (status
    2, report.limit says which)."""
    report = Report(file)
    max_nodes = max_nodes or MAX_NODES
    report.sha256 = hashlib.sha256(raw).hexdigest()
    with report.checking():
        buf, size = reader.text(raw, MAX_BYTES), len(raw)
        del raw
        doc = _read(buf, max_nodes)
        game, claims = _header(doc, min(max_codes or MAX_CODES, CODES_CEILING), max_work, max_nodes)
        root = _root(doc, game)
        nodes = doc["nodes"]
        count = len(nodes)
        bounds = [nodes.bound(i) for i in range(count)]
        if None in bounds:  # (an unusual file: every node read and checked for shape first)
            nodes = _nodes(nodes, count, game, max_nodes)
            bounds = [node[0] for node in nodes]
        else:  # each node built when the check reaches it (the text is kept instead of the nodes)
            nodes = _node_stream(nodes, count, game, bounds, max_nodes)
        del doc
        claim = claims.get("worst_case", claims.get("total"))
        if "at_max" in claims:  # bounds are costs: A x total + B x the secrets at the maximum
            a, b = units(claims, game.n)
            claim = a * claim + b * claims["at_max"]
        if bounds[0] != claim:
            raise Invalid(f"node 0 (the root): bound {bounds[0]} is not the claimed {claim}")
        proof = _Proof(game, claims, nodes, size, root, bounds, max_work)
        if root is not None:
            report.root = {"path": [[game.codes[g], key] for g, key in root[0]],
                           "perm": None if root[1] is None else {"pegs": list(root[1][0]), "colors": list(root[1][1])},
                           "depth": proof.depth[0], "secrets": len(proof.sets[0]), "set": digest(proof.sets[0]),
                           "bound": bounds[0]}
        proof.check(progress)
        report.assumptions = [{"lemma": sha, "set": dig, "depth": depth, "bound": bound, "secrets": m, "at": where}
                              for (sha, dig, depth), (bound, m, where) in sorted(proof.assumptions.items())]
        if proof.w is not None:
            report.weight_sum, report.support = int(proof.w.sum()), int((proof.w > 0).sum())
        report.game = {"pegs": game.pegs, "colors": game.colors, "repetition": game.repetition,
                       **({"feedback": "black-only"} if game.black_only else {})}
        report.claims, report.secrets, report.checked = claims, game.n, proof.stats
    return report


# -- combining the verdicts of a split proof (docs: "Parts of a proof") --------------------------

def _kind(claims: dict) -> dict:
    """What a claim is about, apart from its value: a part's claims must have the same kind as the
    claims of the file that uses it (worst case, total, at_max and its order, max_guesses, weights)."""
    out = {k: v for k, v in claims.items() if k not in ("worst_case", "total", "at_max", "first")}
    out["kind"] = "worst_case" if "worst_case" in claims else "at_max" if "at_max" in claims else "total"
    if "at_max" in claims:
        out["first"] = claims.get("first", "total")
    return out


def _meets(part: Report, user: Report, a: dict):
    """None when the valid part ``part`` proves the assumption ``a`` of the verdict ``user``, else why not."""
    r = part.root
    if r is None:
        return "it is not a part (no 'root' field)"
    if part.game != user.game:
        return "it is about another game"
    if _kind(part.claims) != _kind(user.claims):
        return "its claims are of another kind (worst case, total, max_guesses, at_max, first, weights)"
    if r["set"] != a["set"]:
        return (f"it is about another set of secrets ({r['secrets']} secrets at "
                f"{_steps(r['path'], r['perm'] is not None)}, the class has {a['secrets']})")
    if "max_guesses" in user.claims and r["depth"] != a["depth"]:
        return f"its root is at depth {r['depth']}, the class at depth {a['depth']} (with max_guesses the depth counts)"
    if r["bound"] < a["bound"]:
        return f"it proves {r['bound']}, less than the {a['bound']} used"
    return None


def combine(main: Report, parts=()) -> Report:
    """The verdict on ``main``'s claim, given the verdicts of part files (each from verdict_bytes).
    Proven iff every file is valid, ``main`` is not a part, and every assumption of ``main`` is met
    by an *accepted* part: one whose sha256 is the assumption's, whose game, claims kind, set digest
    (and, with max_guesses, depth) are the assumption's, whose bound is at least the one used, and
    whose own assumptions are met by accepted parts. Accepted parts are found as a least fixed
    point (a part is accepted only after all it leans on), so parts that lean on one another in a
    cycle are never accepted. The trusted step of a split proof: docs/lower-bound-format.md."""
    if not main.valid:
        return main
    out = Report(main.file)
    out.__dict__.update(main.__dict__)
    out.assumptions = list(main.assumptions)

    def fail(status: int, error: str) -> Report:
        out.status, out.error = status, error
        return out

    if main.root is not None:
        return fail(EXIT_INVALID, f"a part of a split proof, not a proof of a claim about the game: "
                                  f"{main.lemma_statement()}; check it with its main file (--part)")
    for p in parts:
        if not p.valid:
            out.limit = p.limit  # (a part over a limit: the whole is not checked)
            return fail(p.status, f"part {p.file} is {'invalid' if p.status == EXIT_INVALID else 'unusable'}: {p.error}")
        if p.root is None:
            return fail(EXIT_INVALID, f"part {p.file} is not a part of a split proof (no 'root' field)")
    by_sha: dict = {}
    for p in parts:
        by_sha.setdefault(p.sha256, p)  # the same bytes: the same verdict
    # The least fixed point, as a worklist (time linear in the assumptions, not rounds x parts): a
    # part is looked at once every part it names is accepted, and accepted if they meet all its
    # assumptions (accepted parts never change, so a part refused then is refused for good).
    accepted: dict = {}
    unmet = {sha: len({a["lemma"] for a in p.assumptions}) for sha, p in by_sha.items()}
    waiting: dict = {}  # sha256 -> the parts that name it
    for sha, p in by_sha.items():
        for lemma in {a["lemma"] for a in p.assumptions}:
            waiting.setdefault(lemma, []).append(sha)
    ready = [sha for sha, count in unmet.items() if not count]
    while ready:
        sha = ready.pop()
        p = by_sha[sha]
        if all(_meets(accepted[a["lemma"]], p, a) is None for a in p.assumptions):
            accepted[sha] = p
            for user in waiting.get(sha, ()):
                unmet[user] -= 1
                if not unmet[user]:
                    ready.append(user)
    for a in main.assumptions:
        if not (a["lemma"] in accepted and _meets(accepted[a["lemma"]], main, a) is None):
            return fail(EXIT_INVALID, _unmet(a, main, by_sha, accepted, len(parts)))
    used, todo = {}, [a["lemma"] for a in main.assumptions]
    while todo:  # the parts the claim rests on
        sha = todo.pop()
        if sha not in used:
            used[sha] = accepted[sha]
            todo.extend(a["lemma"] for a in accepted[sha].assumptions)
    out.parts = [{"file": p.file, "sha256": sha} for sha, p in sorted(used.items())] if used else None
    return out


def _unmet(a: dict, user: Report, by_sha: dict, accepted: dict, given: int) -> str:
    """Why assumption ``a`` of ``user`` is not met: followed down through parts whose own
    assumptions are not met, to the first reason (a cycle is named as one)."""
    seen, through = set(), []
    while True:
        shown = through if len(through) <= 16 else (  # a long chain: elided in the middle, as paths are
            through[:8] + [f"[{len(through) - 12} more parts]"] + through[-4:])
        head = (f"not proven: {''.join(f'{t}, ' for t in shown)}{a['at']}: lemma {a['lemma'][:16]}... ({a['secrets']} secrets, "
                f"bound {a['bound']})")
        p = by_sha.get(a["lemma"])
        if p is None:
            if not given:
                return (f"{head}: valid only under this and the file's other lemmas "
                        f"({len({x['lemma'] for x in user.assumptions})} in all), and no part was given: "
                        "a split proof is checked with its parts (--part FILE, --parts DIR)")
            return f"{head}: no part among the {given} given has this sha256 (missing or edited)"
        why = _meets(p, user, a)
        if why is not None:
            return f"{head}: part {p.file} does not prove it: {why}"
        if p.sha256 in seen:
            return f"{head}: part {p.file} leans on itself through lemmas (a cycle)"
        seen.add(p.sha256)
        a = next(b for b in p.assumptions if not (b["lemma"] in accepted and _meets(accepted[b["lemma"]], p, b) is None))
        user = p
        through.append(f"part {p.file}")


def verdict_file(path, on_wait=None, progress=None, max_codes: int = MAX_CODES, max_work: int | None = None,
                 max_nodes: int | None = None) -> Report:
    """verdict_bytes() of a file read once; an unreadable file gives status 2."""
    report = Report(path)
    raw = reader.load(path, MAX_BYTES, report, on_wait)
    return report if raw is None else verdict_bytes(raw, path, progress, max_codes, max_work, max_nodes)


def part_files(folder) -> list:
    """The certificates in a parts folder: its files named *.json or *.json.gz, in name order."""
    try:
        names = sorted(os.listdir(folder))
    except OSError as e:
        raise reader.Unreadable(f"{_display(folder)}: {e.strerror or e}") from None
    return [os.path.join(folder, n) for n in names if n.endswith((".json", ".json.gz"))
            and os.path.isfile(os.path.join(folder, n))]


def check_split(files, parts=(), jobs: int = 1, on_wait=None, progress=None, max_codes: int = MAX_CODES,
                max_work: int | None = None, max_nodes: int | None = None) -> list:
    """The combined verdict on each of ``files`` with the part files ``parts`` (a file among the
    parts that is also one of ``files`` is left out of the parts), every file checked in
    ``jobs`` processes (1: in this one)."""
    def same(a, b):
        try:
            return os.path.samefile(a, b)
        except OSError:
            return False
    parts = [p for p in parts if not any(same(p, f) for f in files)]
    paths = list(files) + parts
    jobs = min(jobs, cores())  # each worker holds one file's checker at a time: memory N x one file
    if jobs <= 1 or len(paths) == 1:
        verdicts = [verdict_file(f, on_wait, progress if len(paths) == 1 else None, max_codes, max_work, max_nodes)
                    for f in paths]
    else:
        from concurrent.futures import ProcessPoolExecutor

        def size(k):
            try:
                return os.path.getsize(paths[k])
            except OSError:
                return 0
        order = sorted(range(len(paths)), key=lambda k: -size(k))  # the biggest first: balanced
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            check = functools.partial(verdict_file, max_codes=max_codes, max_work=max_work, max_nodes=max_nodes)
            done = dict(zip(order, pool.map(check, [paths[k] for k in order])))
        verdicts = [done[k] for k in range(len(paths))]
    given = verdicts[len(files):]
    return [combine(v, given) for v in verdicts[:len(files)]]


def cores() -> int:
    """The ceiling of --jobs: the cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def check_file(path, on_wait=None, progress=None, max_codes: int = MAX_CODES, max_work: int | None = None,
               max_nodes: int | None = None) -> Report:
    """Check a certificate file, read once, on its own (combine()); an unreadable file gives status 2."""
    return combine(verdict_file(path, on_wait, progress, max_codes, max_work, max_nodes))


def progress_printer(err):
    """A progress callback that redraws one line on ``err`` (for a terminal); None ends the line."""
    def show(done, total: int) -> None:
        print("" if done is None else f"\rchecked {done}/{total} nodes", end="" if done else "\n",
              file=err, flush=True)
    return show


def reports_json(reports) -> bytes:
    return reader.reports_json("certify.verify_bound", reports)


def run(files, as_json=False, out=None, err=None, parts=(), jobs: int = 1, max_codes: int = MAX_CODES,
        max_work: int | None = None) -> int:
    """Check files (each with the part files ``parts``, in ``jobs`` processes), print one line each
    (or a JSON report); return the exit status."""
    out, err = out or sys.stdout, err or sys.stderr
    progress = progress_printer(err) if err.isatty() else None
    reports = check_split(files, parts, jobs, lambda note: print(note, file=err, flush=True), progress, max_codes,
                          max_work)
    return reader.emit(reports, as_json, reports_json, out, err)


def main(argv=None) -> int:
    parser = reader.parser("verify_bound", "Check Mastermind lower-bound certificates.")
    parser.add_argument("--part", action="append", default=[], metavar="PART",
                        help="a part file of a split proof (repeatable)")
    parser.add_argument("--parts", action="append", default=[], metavar="DIR",
                        help="a folder of part files (*.json, *.json.gz)")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="check the files in N processes (at most the machine's cores)")
    parser.add_argument("--max-codes", type=int, default=MAX_CODES, metavar="N",
                        help=f"check games of up to N codes (default {MAX_CODES}, at most {CODES_CEILING}; "
                             "memory: N x N bytes)")
    parser.add_argument("--max-work", type=int, default=None, metavar="N",
                        help="look at up to N (guess, secret) pairs (default: by the file's size)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs: must be >= 1, got {args.jobs}")
    if not 1 <= args.max_codes <= CODES_CEILING:
        parser.error(f"--max-codes: must be from 1 to {CODES_CEILING}, got {args.max_codes}")
    if args.max_work is not None and args.max_work < 1:
        parser.error(f"--max-work: must be >= 1, got {args.max_work}")
    try:
        parts = list(args.part)
        for folder in args.parts:
            parts += part_files(folder)
    except reader.Unreadable as e:
        print(f"verify_bound: cannot read parts folder {e}", file=sys.stderr)
        return EXIT_UNUSABLE
    return reader.interruptible("verify_bound", lambda: run(args.files, args.json, parts=parts, jobs=args.jobs,
                                                            max_codes=args.max_codes, max_work=args.max_work))


if __name__ == "__main__":
    sys.exit(main())
