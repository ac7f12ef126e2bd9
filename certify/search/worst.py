"""Worst case: decide "every strategy needs >= k guesses for some secret of S", with proof.

needs(S, k) is an AND/OR search: for EVERY guess g (one per set of alike guesses, see
:mod:`.symmetry`), SOME non-winning class C of g's split of S needs k - 1. Shortcuts:
counting (|C| > N(k-2) settles the guess at once), k <= 2 (any set of 2 needs 2), k = 3
(S needs 3 unless one code splits it into classes of at most one: a compiled scan), and
|S| < k (playing the candidates one by one settles S within |S|). Results are memoised per
(candidate set, k); the memo keeps only True for a proven node (its choices were ~6 bytes for each
of up to all codes: 5x8, 175 KB a node), so the proof asks a proven node's choices again
(:meth:`WorstSearch._proof_choices`: for every representative guess counting leaves open, the class
it chose). The proof writer does so with the node's representatives and splits computed once, the biggest classes (nearly always the
chosen ones) looked up in batches, and a node where counting settles every guess (most nodes of a
big proof) told by one compiled scan (:func:`.kernel.split_within`).
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

from .counting import Counting
from .kernel import class_sizes, perfect_split, split_within
from .proof import ProofWriter
from .share import SHARE_EVERY
from .space import Space
from .symmetry import Alike


class WorstSearch:
    """The search for one game; reuse it for several k (the memo stays valid)."""

    def __init__(self, game, progress: bool = False, checkpoint: str | None = None,
                 every: float = 300.0, say=None) -> None:
        self.game = game
        self.space = Space(game)
        self.count = Counting(game.pegs, game.colors, game.repetition, game.black_only)
        self.alike = Alike(self.space)
        # Keys (candidate set, k) hold the set as uint16 (uint32 past 65,536 codes) bytes, values
        # whether the set needs k: 5x8's search reached 15 GB with int64 keys and a dict of choices
        # per proven node (choices() searches a proof node again instead).
        self.memo: dict = {}
        self._key_type = np.uint16 if self.space.n <= 1 << 16 else np.uint32
        self.nodes = 0  # AND nodes searched (memo misses)
        self.progress = progress
        self._last = time.monotonic()
        self._every = np.arange(self.space.n, dtype=np.int64)
        # A checkpoint: the memo saved every ``every`` seconds (and by save() when stopped), read
        # back here; see memofile for why a resumed search writes the same bytes.
        self.checkpoint, self._save_every, self._saved = checkpoint, every, time.monotonic()
        self.say = say or (lambda line: None)
        if checkpoint is not None and os.path.exists(checkpoint):
            from .memofile import load

            self.memo = load(checkpoint, game, np.dtype(self._key_type).itemsize)
            self.say(f"checkpoint {checkpoint}: resumed with {len(self.memo)} set{'' if len(self.memo) == 1 else 's'} already searched "
                     "(hints: what is found from them is checked at the end)")
        self.resumed = len(self.memo)  # sets read from the checkpoint: hints, not facts
        # On a worker (first_guess_task): the keys its own search settled, in order, and the
        # exchange it shares them through (:mod:`.share`); None in one process.
        self.fresh: list | None = None
        self._said: set = set()  # the exchange's lines said once (fan_out)
        self.exchange = None
        self.imported = 0  # sets taken from other tasks (on the client: the workers' sum)
        self.hinted = False  # some came from a file: hints, as a checkpoint's entries

    # -- the search -------------------------------------------------------------

    def needs(self, cands: np.ndarray, k: int) -> bool:
        """Whether every strategy needs at least k guesses for some secret of ``cands``."""
        n = len(cands)
        if k <= 1:
            return k <= 0 or n >= 1
        if n < k:
            return False
        if n > self.count.N(k - 1):
            return True
        if k == 2:
            return True
        if k == 3:
            return not perfect_split(self.space.fb, cands, self.space.n_fb, self.space.win)
        key = self._key(cands, k)
        found = self.memo.get(key)
        if found is not None:
            return found
        self.nodes += 1
        self._tick(n, k)
        result = self._search(cands, k)
        self.memo[key] = result is not None
        if self.fresh is not None:
            self.fresh.append(key)
            if self.exchange is not None and time.monotonic() - self.exchange.at >= SHARE_EVERY:
                self.share()
        if self.checkpoint is not None and time.monotonic() - self._saved >= self._save_every:
            self.save()
        return result is not None

    def save(self) -> None:
        """Write the memo to the checkpoint (atomically), if there is one."""
        if self.checkpoint is None:
            return
        from .memofile import save

        size = save(self.checkpoint, self.memo, self.game, np.dtype(self._key_type).itemsize)
        self._saved = time.monotonic()
        self.say(f"checkpoint {self.checkpoint}: {len(self.memo)} sets saved ({size / 1e6:.1f} MB)")

    def share(self) -> None:
        """Publish the entries settled here since the last time, import the others' (a worker's)."""
        ex = self.exchange
        ex.publish((key, self.memo[key]) for key in self.fresh[ex.pushed:])
        ex.pushed = len(self.fresh)
        for memo in ex.fetch():
            self.take(memo, hints=ex.kind == "folder")
        ex.at = time.monotonic()

    def take(self, memo: dict, hints: bool) -> int:
        """Add another search's entries to the memo (those not known here); how many were new.
        ``hints``: they come from a file, and what is found from them must be checked."""
        new = 0
        for key, value in memo.items():
            if key not in self.memo:
                self.memo[key] = value
                new += 1
        self.imported += new
        self.hinted = self.hinted or (hints and new > 0)
        return new

    def _key(self, cands, k):
        return cands.astype(self._key_type).tobytes(), k

    def _split(self, cands, guesses=None):
        """(representative guesses, their class sizes (win class 0), each one's biggest class)."""
        sp = self.space
        if guesses is None:
            guesses = self.representatives(cands)[0]
        sizes = class_sizes(sp.fb, guesses, cands, sp.n_fb)
        sizes[:, sp.win] = 0
        return guesses, sizes, sizes.max(axis=1)

    def _search(self, cands, k):
        guesses, sizes, biggest = self._split(cands)
        limit = self.count.N(k - 2)  # a class above this needs k - 1 by counting
        choices = {}
        # The guesses most likely to settle S within k - 1 first: a failure ends the search.
        for i in np.argsort(biggest, kind="stable"):
            g = int(guesses[i])
            if biggest[i] > limit:
                choices[g] = -1
                continue
            chosen = self._class_needing(cands, g, sizes[i], k)
            if chosen < 0:
                return None
            choices[g] = chosen
        return choices

    def _class_needing(self, cands, g: int, sizes, k: int) -> int:
        """The first class of g's split of ``cands`` (biggest first) that needs k - 1, or -1."""
        labels = self.space.fb[g][cands]
        for f in np.argsort(-sizes, kind="stable"):
            if sizes[f] < k - 1:
                break
            if self.needs(cands[labels == f], k - 1):
                return int(f)
        return -1

    def fan_out(self, k: int, run, share: tuple | None = None, say=None) -> None:
        """Settle needs(every code, k) on a cluster: ``run(first_guess_task, args)`` searches each
        first guess (one per set of alike guesses, those counting leaves open) in a task of its own,
        and the memo entries the tasks found are merged here. needs(S, k) is a function of (S, k)
        alone, so the memo says what a search in one process finds, and the proof and the strategy
        written from it have its bytes (the tasks' results are merged in the order of ``args``,
        whatever order they finish in; a task run again after a worker died gives the same
        entries). ``share``: where the tasks exchange what they settle while they run
        (:mod:`.share`), or None; ``say`` gets the lines the tasks' exchanges wrote (a batch
        skipped)."""
        sp, every = self.space, self._every
        n = len(every)
        if k <= 3 or n < k or n > self.count.N(k - 1) or self._key(every, k) in self.memo:
            return
        guesses = self.representatives(every)[0]
        sizes = class_sizes(sp.fb, guesses, every, sp.n_fb)
        sizes[:, sp.win] = 0
        limit = self.count.N(k - 2)
        biggest = sizes.max(axis=1)
        # _search's order (the smallest biggest class first): in representatives' order the first
        # rounds of 4x7 at k = 7 searched two guesses that fail, and the client then searched the
        # one _search tries first itself (942 sets against 441 in one process)
        args = [(self.game.key(), int(guesses[i]), k, share) for i in np.argsort(biggest, kind="stable").tolist()
                if biggest[i] <= limit]
        # In rounds of as many tasks as the cluster runs at once, in the search's order: a first
        # guess that fails (no class needs k - 1) settles the level, as in one process, and the
        # guesses after it are not searched (at most a round's worth more than one process).
        width = max(1, getattr(run, "width", 0) or len(args))
        new: dict = {}  # the entries not sent to the workers yet
        for at in range(0, len(args), width):
            failed = False
            for chosen, entries, nodes, info in run(first_guess_task, args[at:at + width]):
                for key, value in entries:
                    self.memo.setdefault(key, value)
                self.nodes += nodes  # the sets the tasks searched count as this search's
                self.imported += info["imported"]
                self.hinted = self.hinted or info["hinted"]
                for line in info["notes"]:
                    if say is not None and line not in self._said:
                        self._said.add(line)
                        say(line)
                failed = failed or chosen < 0
                new.update(entries)  # two tasks may have settled the same set
            if failed:
                break
            if share is not None and share[0] == "push" and new and at + width < len(args):
                # the next round's workers start from this one's entries (memofile's bytes:
                # the worker reads them within bounds as any batch)
                from .memofile import dumps

                taken = run.broadcast(take_entries, self.game.key(),
                                      dumps(new.items(), self.game, np.dtype(self._key_type).itemsize))
                self.imported += sum(taken.values())
                new = {}
        if self.checkpoint is not None and time.monotonic() - self._saved >= self._save_every:
            self.save()

    def representatives(self, cands):
        return self.alike.representatives(cands)

    def _tick(self, n, k):
        if self.progress and time.monotonic() - self._last > 2:
            self._last = time.monotonic()
            print(f"  worst case {self.game.slug}: {self.nodes} nodes searched, at |S| = {n}, k = {k}",
                  file=sys.stderr, flush=True)

    # -- a strategy within the least worst case -------------------------------------

    def guess_within(self, cands: np.ndarray, k: int) -> int:
        """A guess for a set that does not need k guesses (``needs(cands, k)`` is false): after
        it, no class of the split needs k - 1. The same cases as :meth:`needs`, constructively."""
        sp, n = self.space, len(cands)
        if n < k or n == 1:  # the candidates one by one: every class is smaller than k - 1
            return int(cands[0])
        if k == 3:  # a code that splits them into classes of at most one
            sizes = class_sizes(sp.fb, self._every, cands, sp.n_fb)
            sizes[:, sp.win] = 0
            perfect = np.flatnonzero(sizes.max(axis=1) <= 1)
            if not len(perfect):
                raise _inconsistent(f"a set of {n} codes marked as settled within 2 guesses is not")
            return int(perfect[0])
        guesses = self.representatives(cands)[0]
        sizes = class_sizes(sp.fb, guesses, cands, sp.n_fb)
        sizes[:, sp.win] = 0
        for i in np.argsort(sizes.max(axis=1), kind="stable").tolist():
            if sizes[i].max() > self.count.N(k - 2):
                break  # this class needs k - 1 by counting, and so do those of the guesses after
            g = int(guesses[i])
            labels = sp.fb[g][cands]
            if all(not self.needs(cands[labels == f], k - 1) for f in np.flatnonzero(sizes[i]).tolist()):
                return g
        raise _inconsistent(f"a set of {n} codes marked as settled within {k - 1} guesses is not")

    def strategy_certificate(self, d: int) -> dict:
        """A strategy certificate that never needs more than ``d`` guesses (needs(every, d + 1)
        must be false: the search found such a strategy, this writes it out)."""
        from ..certificate import make_certificate

        if self.needs(self._every, d + 1):
            raise ValueError(f"every strategy needs more than {d} guesses")
        return make_certificate(WithinWorst(self, d))

    # -- the proof --------------------------------------------------------------

    def prove(self, k: int) -> dict | None:
        """The lower-bound certificate "every strategy needs >= k", or None when some
        strategy does with k - 1."""
        every = self._every
        if not self.needs(every, k):
            return None
        writer = ProofWriter(self.space, {"worst_case": k})
        writer.root(every, k)
        while writer.pending:
            cands, bound = writer.next_pending()
            writer.fill(self._node_guesses(cands, bound, writer))
        return writer.document()

    def _node_guesses(self, cands, k, writer) -> dict:
        """The "guesses" object of the proven node (cands, k): every code not settled by
        counting gets its chosen class, or "same_as" its representative."""
        sp = self.space
        n = len(cands)
        if k <= 2 or n > self.count.N(k - 1) or k == 3:
            return {}  # counting settles every guess (k = 3: each split has a class of two)
        if self.memo.get(self._key(cands, k)) is not True:  # only a checkpoint's entry can say so
            raise _inconsistent(f"a set of {n} codes marked as needing {k} guesses does not")
        limit = self.count.N(k - 2)
        # Most proven nodes of a big proof have no entries: every code leaves a class above
        # N(k - 2) (5x9 without repetition: 16,695 of 17,094 nodes at k = 4). One compiled scan
        # that stops once every code has such a class says so, without the symmetry and the splits.
        if not split_within(sp.fb, cands, sp.n_fb, sp.win, limit):
            return {}
        # The representatives and the splits once, for the choices and the entries both.
        guesses, gens, rep, same = self.representatives(cands)
        split = self._split(cands, guesses)
        chosen = self._proof_choices(cands, k, split)
        # A code splits S as its orbit's representative does (a permutation that fixes S maps one
        # split onto the other, feedback kept), and that one as the guess same[] names: its
        # biggest class is that guess's, so which codes counting settles needs no split of its own.
        at = np.full(sp.n, -1, dtype=np.int64)
        at[guesses] = np.arange(len(guesses))
        top = at[same[rep]]
        if (top < 0).any():  # pragma: no cover - same[] names a searched guess for every orbit
            raise AssertionError("a representative without a searched guess")
        open_ = np.flatnonzero(split[2][top] <= limit)
        perms = self.alike.perms_to_rep(gens, rep, open_)
        out = {}
        texts, keys, fb = sp.texts, sp.keys, sp.fb
        for x in open_.tolist():
            r = int(rep[x])
            if r != x:
                out[texts[x]] = {"same_as": texts[r], "perm": writer.perm_json(perms[x])}
                continue
            raw, size, first = chosen[int(same[x])]
            if writer.dtype != self._key_type:  # (both 2 bytes a code up to 65,536 codes)
                raw = np.frombuffer(raw, self._key_type).astype(writer.dtype).tobytes()
            fx = int(fb[x, first])  # x splits S as same[x] does: the same class, x's feedback
            out[texts[x]] = {keys[fx]: writer.ref_raw(raw, size, k - 1)}
        return out

    def _proof_choices(self, cands, k, split) -> dict:
        """{guess: (its chosen class's key bytes, size, first code)} for every representative guess
        that counting leaves open at a proven node: :meth:`_search`'s choices, in its order. The
        chosen class is nearly always the biggest, proven in the memo: those are looked up in
        batches (one gather of the classes' codes, no mask per guess); any other guess goes
        through :meth:`_class_needing` as in the search (the raise is :meth:`choices`')."""
        sp = self.space
        guesses, sizes, biggest = split
        limit = self.count.N(k - 2)
        order = np.argsort(biggest, kind="stable")
        order = order[biggest[order] <= limit]
        memo, kt = self.memo, self._key_type
        out = {}
        first_class = sizes.argmax(axis=1)  # the first class _class_needing tries (stable: lowest f)
        keyed = cands.astype(kt)
        width = np.dtype(kt).itemsize
        # Classes of k - 1 >= 4 codes are memo entries (k - 1 = 3 is the compiled scan, not kept);
        # chunks of guesses bound the gather (a guesses x candidates table of bytes).
        fast = k - 1 >= 4
        step = max(1, (1 << 22) // max(1, len(cands)))
        for at in range(0, len(order), step):
            idx = order[at:at + step]
            if fast:
                fs = first_class[idx]
                table = sp.fb[guesses[idx]][:, cands]  # (chunk, |S|): each guess's feedback
                hit = table == fs[:, None].astype(table.dtype)
                counts = sizes[idx, fs].astype(np.int64)
                members = np.broadcast_to(keyed, hit.shape)[hit]
                firsts = cands[hit.argmax(axis=1)].tolist()
                data = members.tobytes()
                ends = np.cumsum(counts)
                starts = (ends - counts).tolist()
            for j, i in enumerate(idx.tolist()):
                g = int(guesses[i])
                if fast:
                    c, s0 = int(counts[j]), starts[j]
                    if c >= k - 1:
                        raw = data[s0 * width:(s0 + c) * width]
                        if memo.get((raw, k - 1)) is True:
                            out[g] = (raw, c, firsts[j])
                            continue
                f = self._class_needing(cands, g, sizes[i], k)
                if f < 0:
                    raise _inconsistent(f"a set of {len(cands)} codes marked as needing {k} guesses does not")
                child = cands[sp.fb[g][cands] == f]
                out[g] = (child.astype(kt).tobytes(), len(child), int(child[0]))
        return out


#: A worker's searches, one per game: its memo serves every task it runs (a task's entries are
#: facts of the game, whichever task found them).
_WORKER: dict = {}
#: Entries the client sent (take_entries) before this worker's first task of the game.
_PENDING: dict = {}


def first_guess_task(game_key: tuple, guess: int, k: int, share: tuple | None = None) -> tuple:
    """On a worker: (the first class of ``guess``'s split of every code, biggest first, that needs
    k - 1, or -1; the memo entries this task's own search added, in the order found; the sets it
    searched; {"imported": sets taken from other tasks, "hinted": some of this worker's came from a
    file, "notes": the exchange's lines}). The chosen class depends on the arguments alone, whichever
    worker runs it and however often. ``share``: the exchange (:mod:`.share`), or None."""
    from ..game import Game

    if share is not None and share[0] == "push":
        share = None  # the client sends the entries between rounds (take_entries)
    search, base = _WORKER.get(game_key), None
    if search is None or (search.hinted and (search.exchange is None or search.exchange.where != tuple(share or ()))):
        # a memo that took hints keeps to the run that read them (its entries are not facts)
        search = _WORKER[game_key] = WorstSearch(Game(*game_key))
        search.fresh, base = [], 0  # what it takes from the client's entries counts as this task's
        _take_pending(search, _PENDING.pop(game_key, []))
    if share is not None and (search.exchange is None or search.exchange.where != tuple(share)):
        from .share import Exchange

        # a new run's exchange: everything this worker settled itself goes out (pushed = 0)
        search.exchange = Exchange(share, search.game, np.dtype(search._key_type).itemsize)
    elif share is None:
        search.exchange = None
    sp, every = search.space, search._every
    mark, nodes, imported = len(search.fresh), search.nodes, search.imported if base is None else base
    if search.exchange is not None:
        search.share()  # the others' entries before starting
    sizes = class_sizes(sp.fb, np.array([guess], dtype=np.int64), every, sp.n_fb)[0]
    sizes[sp.win] = 0
    chosen = search._class_needing(every, guess, sizes, k)
    notes = []
    if search.exchange is not None:
        search.share()  # this task's entries out at its end
        notes, search.exchange.notes = search.exchange.notes, []
    info = {"imported": search.imported - imported, "hinted": search.hinted, "notes": notes}
    return chosen, [(key, search.memo[key]) for key in search.fresh[mark:]], search.nodes - nodes, info


def take_entries(game_key: tuple, raw: bytes) -> int:
    """On a worker, between two rounds (the client's ``run.broadcast``): add the entries of the
    memo file bytes ``raw`` (the round's tasks' own) to this worker's memo; how many were new."""
    search = _WORKER.get(game_key)
    if search is None:  # kept for the first task: building the game's tables here (Dask runs
        _PENDING.setdefault(game_key, []).append(raw)  # this in the worker's event loop) would stall it
        return 0
    return _take_pending(search, [raw])


def _take_pending(search, batches) -> int:
    from .memofile import loads

    width = np.dtype(search._key_type).itemsize
    return sum(search.take(loads(raw, "the client's entries", search.game, width), hints=False) for raw in batches)


def _inconsistent(what: str):
    """The memo contradicts itself: read from a checkpoint (a search's own entries agree)."""
    from ..errors import Inconsistent

    return Inconsistent(what)


def _strategy_base():
    from ..strategies.base import Strategy

    return Strategy


class WithinWorst(_strategy_base()):
    """Plays, at every set, a guess after which the least worst case still holds (the worst-case
    search's own choices): never more than D guesses."""

    id = "optimal-worst"
    description = "exact search: never more than the least worst case D (certify.search.worst)"
    accepts_first = False

    def __init__(self, search: WorstSearch, d: int) -> None:
        super().__init__(search.game)
        self.search, self.d = search, d
        self.reference = ("exact search: AND/OR search with counting bounds and guess equivalence; "
                          f"every secret within {d} guesses, the least worst case (the matching proof "
                          "is a certify lower-bound certificate)")

    def params(self) -> dict:
        return {"max_guesses": self.d}

    def pick(self, candidates, history):
        cands = np.ascontiguousarray(candidates, dtype=np.int64)
        return self.search.guess_within(cands, self.d - len(history) + 1)
