"""Static Mastermind: the search for a shortest list of questions, its certificate and its proof.

In Static Mastermind (docs/static.md) the codebreaker asks a list of questions at once, reads every
answer, then has one final guess, which must be the secret: a list works when every secret gets a
different vector of answers. The static value of a game is the least number of guesses, final
guess included (Jaeger and Drewes's count; the published 2-peg table counts the questions only).

The search goes up in the number of questions M. For each M it enumerates the sets of questions
of sizes 1, 2, ... that a counting rule cannot rule out, one per orbit under the permutations of
pegs and colours (a set's image separates the secrets exactly when the set does): a set is ruled
out when a group of secrets sharing its answers is larger than F(M - size), the most one group
can be split into with that many questions left (see ``capacity``). At size M a set that is not
ruled out separates every secret. The first M with one gives the certificate; the run of M - 1
lists what the lower-bound proof needs (docs/static-format.md), checked by
``certify/verify_static.py``, which shares no code with this module.

The feedback here is the colour-count formula on numpy arrays (blacks, then the common colours
minus the blacks); the checker has its own rule.
"""

from __future__ import annotations

import itertools
import json
import sys
import time

import numpy as np

from .errors import CertifyError

CERTIFICATE = "mastermind-static-certificate"
PROOF = "mastermind-static-lower-bound"
SYMMETRY = "peg-and-colour-permutations"
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
RULES = ("black-white", "black-only")
#: Largest game searched (codes): the feedback table is codes x codes bytes.
MAX_CODES = 4096


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class Game:
    """A static game's codes and its feedback table (answers numbered per game)."""

    def __init__(self, pegs: int, colors: int, repetition: bool = True, feedback: str = "black-white") -> None:
        if feedback not in RULES:
            raise CertifyError(f"unknown feedback rule {feedback!r} (expected {' or '.join(RULES)})")
        if not 1 <= pegs <= 8 or not 2 <= colors <= len(DIGITS):
            raise CertifyError(f"a static game has 1 to 8 pegs and 2 to {len(DIGITS)} colours, got {pegs}x{colors}")
        if not repetition and pegs > colors:
            raise CertifyError(f"{pegs} pegs without repetition need at least as many colours, got {colors}")
        self.pegs, self.colors, self.repetition, self.feedback = pegs, colors, repetition, feedback
        rows = (itertools.product(range(colors), repeat=pegs) if repetition
                else itertools.permutations(range(colors), pegs))
        self.codes = np.array(list(rows), dtype=np.int16).reshape(-1, pegs)
        self.n = len(self.codes)
        if self.n > MAX_CODES:
            raise CertifyError(f"{self.label()} has {self.n} codes; the static search takes at most {MAX_CODES}")
        self.names = ["".join(DIGITS[c] for c in row) for row in self.codes.tolist()]
        self.tuples = [tuple(row) for row in self.codes.tolist()]
        blacks = (self.codes[:, None, :] == self.codes[None, :, :]).sum(axis=2)
        if feedback == "black-only":
            answer = blacks
        else:
            counts = np.stack([(self.codes == c).sum(axis=1) for c in range(colors)], axis=1)  # n x colours
            common = np.minimum(counts[:, None, :], counts[None, :, :]).sum(axis=2)
            answer = blacks * (pegs + 1) + (common - blacks)
        _, numbered = np.unique(answer, return_inverse=True)
        self.table = numbered.reshape(self.n, self.n).astype(np.int32)  # table[guess, secret]
        self.answers = int(self.table.max()) + 1
        off = self.table.copy()
        off[np.arange(self.n), np.arange(self.n)] = -1
        # A: one more than the most distinct answers a question gets from the other secrets.
        self.spread = max(len(set(row.tolist()) - {-1}) for row in off) + 1

    def label(self) -> str:
        return (f"{self.pegs}x{self.colors}" + ("" if self.repetition else " without repetition")
                + (" black-only" if self.feedback == "black-only" else ""))

    def as_dict(self) -> dict:
        game = {"pegs": self.pegs, "colors": self.colors, "repetition": self.repetition}
        if self.feedback != "black-white":
            game["feedback"] = self.feedback
        return game

    def answer_text(self, guess: int, secret: int) -> str:
        g, s = self.codes[guess], self.codes[secret]
        black = int((g == s).sum())
        if self.feedback == "black-only":
            return str(black)
        common = sum(min(int((g == c).sum()), int((s == c).sum())) for c in range(self.colors))
        return f"{black},{common - black}"


def capacity(left: int, spread: int) -> int:
    """F(left) = (A - 1) F(left - 1) + 1, F(0) = 1: the most secrets of one group that ``left``
    questions can separate (each splits a group into at most A - 1 groups that did not win and
    the one secret equal to it)."""
    f = 1
    for _ in range(left):
        f = (spread - 1) * f + 1
    return f


def canonical_form(game: Game, members) -> tuple:
    """The lowest image, as a sequence of codes, of a set of codes (indices) under the permutations
    of pegs and colours: codes taken in the order that gives the lowest sequence, colours renamed
    in order of first appearance (a tie explored both ways)."""
    best = None
    for perm in itertools.permutations(range(game.pegs)):
        start = [tuple(game.tuples[x][j] for j in perm) for x in members]
        todo = [((), {}, start)]
        while todo:
            seq, rename, left = todo.pop()
            if not left:
                best = seq if best is None or seq < best else best
                continue
            options = []
            for k, code in enumerate(left):
                new, out = dict(), []
                for colour in code:
                    if colour in rename:
                        out.append(rename[colour])
                    else:
                        out.append(new.setdefault(colour, len(rename) + len(new)))
                options.append((tuple(out), k))
            low = min(options)[0]
            if best is not None and seq + (low,) > best[:len(seq) + 1]:
                continue
            for image, k in options:
                if image == low:
                    grown = dict(rename)
                    for colour, name in zip(left[k], image):
                        grown.setdefault(colour, name)
                    todo.append((seq + (image,), grown, left[:k] + left[k + 1:]))
    return best


def _classes(game: Game, members) -> np.ndarray:
    """Each secret's group number under the answers to ``members``."""
    if not members:
        return np.zeros(game.n, dtype=np.int64)
    rows = game.table[list(members)]
    return np.unique(rows.T, axis=0, return_inverse=True)[1].reshape(-1).astype(np.int64)


def _open_extensions(game: Game, members, cap: int) -> np.ndarray:
    """The codes g (not in ``members``) such that members + g has no group larger than ``cap``."""
    cls = _classes(game, members)
    sizes = np.bincount(cls)
    big = np.nonzero(sizes[cls] > cap)[0]
    ok = np.ones(game.n, dtype=bool)
    ok[list(members)] = False
    if len(big) == 0:
        return np.nonzero(ok)[0]
    keys = cls[big][None, :] * game.answers + game.table[:, big]
    keys.sort(axis=1)
    flag = np.ones(keys.shape, dtype=bool)
    flag[:, 1:] = keys[:, 1:] != keys[:, :-1]
    idx = np.arange(keys.shape[1])
    start = np.maximum.accumulate(np.where(flag, idx, 0), axis=1)
    longest = (idx - start + 1).max(axis=1)
    return np.nonzero(ok & (longest <= cap))[0]


def levels(game: Game, m: int, progress=None):
    """For M = ``m`` questions: (levels, found), depth first. found = the first set of M questions
    met that separates every secret (sorted code indices), else None; then levels[i] = {canonical
    form: sorted code indices} holds every orbit of sets of size i < M not ruled out (the search
    met them all: a set's subsets are never ruled out when it is not)."""
    out = [{(): ()}] + [dict() for _ in range(max(m - 1, 0))]
    caps = [capacity(m - size - 1, game.spread) for size in range(m)]
    stack = [()] if m > 0 else []  # (no questions separate nothing: every game has 2 codes or more)
    seen = 0
    while stack:
        members = stack.pop()
        size = len(members)
        grown_sets = []
        for g in _open_extensions(game, members, caps[size]).tolist():
            grown = tuple(sorted(members + (g,)))
            if size + 1 == m:
                return out, grown  # (no group over F(0) = 1: it separates)
            key = canonical_form(game, grown)
            if key not in out[size + 1]:
                out[size + 1][key] = grown
                grown_sets.append(grown)
        stack.extend(reversed(grown_sets))  # (the lowest code first)
        seen += 1
        if progress and seen % 500 == 0:
            progress(f"{game.label()}, {m} question{'' if m == 1 else 's'}: {seen} sets extended, "
                     + ", ".join(f"{len(level)} of size {k}" for k, level in enumerate(out) if k))
    return out, None


def solve(game: Game, progress=None, start: int = 0):
    """(questions, proof levels): a shortest separating list (sorted code indices) and the levels of
    the run with one question fewer (None when the list is empty). ``start``: a number of
    questions known not to be enough plus one (the search begins there)."""
    previous = None
    m = start
    while True:
        t0 = time.monotonic()
        found_levels, found = levels(game, m, progress)
        if progress:
            progress(f"{game.label()}: {m} question{'' if m == 1 else 's'} "
                     f"{('separates' if m == 1 else 'separate') if found else ('does not separate' if m == 1 else 'do not separate')} "
                     f"({time.monotonic() - t0:.1f} s)")
        if found is not None:
            if previous is None and m > 0:
                previous = levels(game, m - 1, progress)[0]  # (when the search started at m)
            return found, previous, m
        previous = found_levels
        m += 1


def certificate(game: Game, questions) -> dict:
    """The certificate of a separating list (code indices): questions in code order, the table
    in the final guesses' code order."""
    questions = sorted(questions)
    table = [[" ".join(game.answer_text(q, s) for q in questions), game.names[s]] for s in range(game.n)]
    if len({row[0] for row in table}) != game.n:
        raise CertifyError("the questions do not separate every secret")  # (the search's invariant)
    return {"format": CERTIFICATE, "version": 1, "game": game.as_dict(),
            "claims": {"secrets": game.n, "questions": len(questions), "guesses": len(questions) + 1},
            "questions": [game.names[q] for q in questions], "table": table}


def proof(game: Game, m: int, proof_levels) -> dict:
    """The proof that no list of ``m`` questions separates every secret, from levels(game, m)."""
    sets = []
    for size in range(1, m):
        level = proof_levels[size] if size < len(proof_levels) else {}
        sets.extend(sorted([game.names[x] for x in members] for members in level.values()))
    return {"format": PROOF, "version": 1, "game": game.as_dict(), "symmetry": SYMMETRY,
            "claims": {"secrets": game.n, "questions": m, "guesses_at_least": m + 2}, "sets": sets}


def dumps(doc: dict) -> bytes:
    """Deterministic JSON: the header indented, a certificate's or proof's rows one a line."""
    listed = "table" if "table" in doc else "sets"
    head = json.dumps({k: v for k, v in doc.items() if k != listed}, indent=2)
    rows = ",\n".join("    " + json.dumps(row, separators=(",", ":")) for row in doc[listed])
    body = f"[\n{rows}\n  ]" if rows else "[]"
    return (head[:-2] + f',\n  "{listed}": {body}\n}}\n').encode()


def build(pegs: int, colors: int, repetition: bool = True, feedback: str = "black-white", progress=None):
    """(certificate, proof or None, game): a shortest separating list and the proof that one
    question fewer does not separate."""
    game = Game(pegs, colors, repetition, feedback)
    found, previous, m = solve(game, progress)
    lower = proof(game, m - 1, previous) if m > 0 else None
    return certificate(game, found), lower, game


# -- the committed catalog (certificates/static/, docs/static.md) ------------------------------

#: The games whose static value is committed: (pegs, colours, rule[, repetition]).
CATALOG = ([(2, c, "black-white") for c in range(2, 14)] + [(3, c, "black-white") for c in range(2, 8)]
           + [(2, c, "black-only") for c in range(2, 9)] + [(3, c, "black-only") for c in range(2, 6)]
           + [(2, c, "black-white", False) for c in range(3, 10)] + [(3, c, "black-white", False) for c in range(4, 8)]
           + [(2, c, "black-only", False) for c in range(3, 10)] + [(3, c, "black-only", False) for c in range(4, 7)])


def published(pegs: int, colors: int, rule: str, repetition: bool = True):
    """(static value, source) published for a game, final guess counted; None when not published.
    Without repetition, black-only (the static black-peg AB game): Jaeger and Drewes (arXiv
    2210.04652) give ceil(4c/3) - 1 for 2 pegs and floor((3c - 1)/2) for 3 pegs, c >= 4.
    The 2-peg table of a 2002 Static-Mastermind page gives the questions only (value - 1), marks 8 to 10 colours
    with "?" (a list known, not known to be shortest)."""
    if not repetition:
        if rule == "black-only" and pegs == 2:
            return -(-4 * colors // 3) - 1, "ceil(4c/3) - 1, Jaeger and Drewes (AB game)"
        if rule == "black-only" and pegs == 3 and colors >= 4:
            return (3 * colors - 1) // 2, "floor((3c - 1)/2), Jaeger and Drewes (AB game)"
        return None
    if rule == "black-white" and pegs == 2:
        if colors <= 7:
            return {2: 3, 3: 3, 4: 4, 5: 5, 6: 5, 7: 6}[colors], "2002 table"
        if colors <= 10:
            return f"<= {-(-2 * colors // 3) + 1} (\"?\")", "2002 table"
        return f"{-(-2 * colors // 3) + 1} for large c", "Goddard's ceil(2c/3) + 1"
    if rule == "black-white" and pegs == 3 and colors >= 4:
        return f"{colors} for large c", "Goddard's c"
    if rule == "black-only" and pegs == 2:
        return -(-(4 * colors - 1) // 3), "ceil((4c - 1)/3), Jaeger and Drewes"
    if rule == "black-only" and pegs == 3:
        return 3 * colors // 2 + 1, "floor(3c/2) + 1, Jaeger and Drewes"
    return None


#: Proofs past this many bytes are written gzipped (.json.gz: deterministic bytes, read by the checker).
GZIP_PAST = 1 << 20


def catalog_paths(folder, pegs: int, colors: int, rule: str, repetition: bool = True):
    """(certificate, proof) paths of a catalog game: the proof's .json.gz when that file exists."""
    from pathlib import Path

    stem = (f"static-{pegs}x{colors}" + ("" if repetition else "-norep")
            + ("-black-only" if rule == "black-only" else ""))
    proof = Path(folder) / f"{stem}-proof.json"
    zipped = proof.with_name(proof.name + ".gz")
    return Path(folder) / f"{stem}.json", zipped if zipped.exists() else proof


def write_catalog(folder="certificates/static", games=None, progress=_stderr) -> None:
    """Build every catalog game whose certificate is missing and write it with its proof."""
    from .files import write_output

    for pegs, colors, rule, *norep in games or CATALOG:
        repetition = not norep
        cert_path, proof_path = catalog_paths(folder, pegs, colors, rule, repetition)
        if cert_path.exists() and proof_path.exists():
            continue
        t0 = time.monotonic()
        cert, lower, game = build(pegs, colors, repetition, rule, progress)
        data = dumps(lower)
        if len(data) > GZIP_PAST:
            proof_path = proof_path.with_name(proof_path.name + ".gz")
        write_output(cert_path, dumps(cert))
        write_output(proof_path, data)
        progress(f"{game.label()}: static value {cert['claims']['guesses']} ({time.monotonic() - t0:.1f} s); "
                 f"wrote {cert_path} and {proof_path}")


def table(folder="certificates/static", games=None, max_work=None) -> str:
    """docs/static.md's table: every catalog game checked by the trusted checker, timed. A row shows
    only what its files prove: each is the kind its name says and is for the row's game (pegs,
    colours, repetition and rule, as the checker read them), else the table is refused."""
    from . import verify_static

    rows = ["| game | rule | questions | static value | published | proof (sets, bytes) | check time |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    for pegs, colors, rule, *norep in games or CATALOG:
        repetition = not norep
        cert_path, proof_path = catalog_paths(folder, pegs, colors, rule, repetition)
        reports = []
        t0 = time.process_time()
        want = {"pegs": pegs, "colors": colors, "repetition": repetition}
        if rule != "black-white":
            want["feedback"] = rule
        for path, kind in ((cert_path, verify_static.CERTIFICATE), (proof_path, verify_static.PROOF)):
            report = verify_static.check_file(path, max_work=max_work)
            if not report.valid:
                raise CertifyError(report.line())
            if report.kind != kind:
                raise CertifyError(f"{path}: a {report.kind}, where the row needs a {kind}")
            if report.game != want:
                raise CertifyError(f"{path}: a file for {verify_static._label(report.game)}, in the row of "
                                   f"{verify_static._label(want)}")
            reports.append(report)
        seconds = time.process_time() - t0
        upper, lower = reports
        value = upper.claims["guesses"]
        if lower.claims["guesses_at_least"] != value:
            raise CertifyError(f"{cert_path}: value {value}, but its proof shows only "
                               f">= {lower.claims['guesses_at_least']}")
        pub = published(pegs, colors, rule, repetition)
        pub_text = "not published" if pub is None else f"{pub[0]} ({pub[1]})"
        rows.append(f"| {pegs}x{colors}{'' if repetition else ' no repetition'} | {rule} | {value - 1} | {value} | {pub_text} | {lower.sets}, "
                    f"{proof_path.stat().st_size:,} | {seconds:.2f} s |")
    return "\n".join(rows) + "\n"


def main(argv=None) -> int:
    """python -m certify.static write|table: rebuild the missing catalog files; print the table."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["write"]:
        write_catalog()
        return 0
    if args[:1] == ["table"] and (len(args) == 1 or (len(args) == 3 and args[1] == "--max-work" and args[2].isdigit())):
        try:  # (the biggest proofs need more than the default work: python -m certify.static table --max-work N)
            sys.stdout.write(table(max_work=int(args[2]) if len(args) == 3 else None))
        except CertifyError as e:
            print(f"table: {e}", file=sys.stderr)
            return 1
        return 0
    print("usage: python -m certify.static write | table [--max-work N]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
