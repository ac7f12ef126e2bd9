"""Why a worst-case lower bound holds, in plain words, from the proof itself (``certify why``).

Not trusted, like ``report.py``: the proof's bytes are read once and checked by the trusted
checker (``verify_bound.check_bytes``); only a valid proof is explained, from the document parsed
from those same bytes, with the checker's own feedback table, class sizes and counting figures
(``verify_bound.Game``) for every number shown. The argument is the checker's (format document,
"What the checker does"): at a node of set S and bound d, a strategy finds at most N(k) secrets
within k guesses, so either |S| > N(d - 1) ("counting alone"), or every guess g leaves, under
some answer, a class that needs >= d - 1 more guesses: more than N(d - 2) secrets (counting), or
a class the proof names, whose node needs >= d - 1 (explained in turn, to ``depth`` levels).

Guesses shown inside a permuted reference are translated back to the game's own codes (the
permutations keep feedback), so every line reads as play from the root.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path

from .errors import CertifyError
from .text import from_here, shown

__all__ = ["Why", "explain_bytes", "committed_worst_case", "items", "text_lines", "html_page"]

#: The committed proofs and their manifest (present in a checkout, not in an installed wheel).
BOUNDS = Path(__file__).resolve().parent.parent / "certificates" / "bounds"
_CLAIMS = re.compile(rb'"claims"\s*:\s*(\{[^{}]*\})')


class Why:
    """A checked proof (``report``: the checker's) and its explanation (``doc``, JSON-ready)."""

    def __init__(self, report, doc: dict) -> None:
        self.report, self.doc = report, doc

    def with_letters(self, letters: str | None) -> "Why":
        """The same explanation with every code shown in ``letters`` (one per colour, as
        ``play --letters``), for the text and the page; ``doc`` itself keeps the game's codes."""
        if not letters:
            return self
        from .letters import Names

        name = Names(letters, self.doc["game"]["colors"]).name

        def node(n: dict) -> dict:
            n = dict(n)
            if "by_counting" in n and "best" in n["by_counting"]:
                n["by_counting"] = {**n["by_counting"], "best": name(n["by_counting"]["best"])}
            if "kinds" in n:
                n["kinds"] = [{**k, "example": name(k["example"])} for k in n["kinds"]]
            if "by_answers" in n:
                n["by_answers"] = [{**item, "guess": name(item["guess"]), "child": node(item["child"])}
                                   for item in n["by_answers"]]
            return n

        return Why(self.report, {**self.doc, "root": node(self.doc["root"]), "letters": letters})


def _head(raw: bytes) -> bytes:
    import zlib

    if raw[:2] == b"\x1f\x8b":
        try:
            return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(raw, 1 << 16)
        except zlib.error:
            return b""
    return raw[:1 << 16]


def _refuse_totals(raw: bytes, name: str) -> None:
    """A total proof is refused before the (possibly long) check: only its header is looked at,
    and a wrong guess here only changes which one-line error the user sees."""
    m = _CLAIMS.search(_head(raw))
    if m:
        try:
            claims = json.loads(m.group(1))
        except ValueError:
            return
        if isinstance(claims, dict) and "total" in claims and "worst_case" not in claims:
            raise CertifyError(f"{name} proves a total number of guesses; `certify why` explains "
                               "worst-case proofs (\"needs >= D guesses for some secret\")")


def explain_bytes(raw: bytes, path: str, depth: int = 1, branches: int = 5, progress=None,
                  max_codes: int | None = None, max_work: int | None = None, max_nodes: int | None = None):
    """The checker's report of ``raw`` and, when it is a valid worst-case proof, its explanation:
    (report, Why or None). Nodes are explained ``depth`` levels below the root, at most
    ``branches`` guesses listed at each. ``max_codes`` and ``max_work`` are the checker's limits
    (a file over one: an unusable report, status 2). Raises CertifyError for a valid file of
    another kind or a total proof; a broken file of another kind gets its own checker's report
    (broken JSON is said before the kind)."""
    from . import verify_bound
    from .kinds import WORDS, check_bytes
    from .optimality import LOWER_BOUND, kind_of

    name = shown(path)
    if kind_of(raw) != LOWER_BOUND:
        kind, report = check_bytes(raw, path, max_codes=max_codes, max_work=max_work, max_nodes=max_nodes)
        if not report.valid:  # broken JSON, a broken file: said first, by the checker of its kind
            return report, None
        reader = ("`certify stats` reads strategy certificates" if kind == "strategy"
                  else f"`certify verify {name}` checks it")
        raise CertifyError(f"{name} is a {WORDS[kind]} certificate, not a lower-bound proof (`certify why` "
                           f"explains the proofs of `certify bound --worst`; {reader})")
    _refuse_totals(raw, name)
    report = verify_bound.check_bytes(raw, path, progress, max_codes or verify_bound.MAX_CODES, max_work, max_nodes)
    if not report.valid:
        return report, None
    if "worst_case" not in report.claims:
        raise CertifyError(f"{name} proves a total number of guesses; `certify why` explains "
                           "worst-case proofs (\"needs >= D guesses for some secret\")")
    proof = verify_bound.parse(raw)  # the very bytes the checker accepted
    del raw
    return report, Why(report, _Explainer(proof, depth, branches).run(report))


# -- permutations and codes ---------------------------------------------------------------------

def _perm(value) -> tuple:
    return tuple(value["pegs"]), tuple(value["colors"])


def _inverse(perm) -> tuple:
    """P^-1, as the checker computes it (this module explains the checker's reasoning)."""
    from .verify_bound import _inverse as checkers

    return checkers(perm)


def _then(q, p) -> tuple:
    """Q after P: x -> Q(P(x)) (P(x)[sigma_p[i]] = tau_p[x[i]])."""
    return tuple(q[0][j] for j in p[0]), tuple(q[1][c] for c in p[1])


def _kind(code: str) -> tuple:
    """What a code is up to renaming colours and moving pegs: how often each colour occurs."""
    return tuple(sorted((code.count(ch) for ch in set(code)), reverse=True))


# -- the explanation ----------------------------------------------------------------------------

class _Explainer:
    def __init__(self, proof: dict, depth: int, branches: int) -> None:
        from . import verify_bound

        g = proof["game"]
        self.game = verify_bound.Game(g["pegs"], g["colors"], g["repetition"], g.get("feedback") == "black-only")
        self.nodes = proof["nodes"]
        self.depth, self.branches = depth, branches
        self.shown: set = set()  # nodes explained so far (a shared node is explained once)
        self.alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"

    def most(self, k: int) -> int:
        """N(k): the most secrets a strategy finds within k guesses. The checker's list (game.solved)
        stops at the first N(k) >= the game's size; past it, the same recurrence."""
        solved = list(self.game.solved)
        while k >= len(solved):
            solved.append(1 + self.game.win * solved[-1])
        return solved[max(k, 0)]

    def code(self, index: int, q) -> str:
        """The code ``index`` of a node, in the game's own coordinates (through Q)."""
        x = self.game.codes[index]
        if q is None:
            return x
        sigma, tau = q
        y = [""] * len(x)
        for i, ch in enumerate(x):
            y[sigma[i]] = self.alphabet[tau[self.alphabet.index(ch)]]
        return "".join(y)

    def run(self, report) -> dict:
        import numpy as np

        game = self.game
        root = self.node(0, np.arange(game.n, dtype=np.uint16), None, 0)
        d = report.claims["worst_case"]
        return {"file": report.file, "game": report.game, "claims": report.claims,
                "statement": report.statement(), "secrets": game.n, "answers": game.win,
                "win": f"{game.pegs}" if game.black_only else f"{game.pegs},0",
                "most_found_within": {str(k): self.most(k) for k in range(1, max(d, 2))},
                "depth": self.depth, "branches": self.branches, "root": root}

    def node(self, j: int, S, q, level: int) -> dict:
        import numpy as np

        game, node = self.game, self.nodes[j]
        d, size = node["bound"], len(S)
        self.shown.add(j)
        out = {"node": j, "secrets": size, "needs": d}
        if d <= 1:
            out["rule"] = "trivial"
            return out
        if size > self.most(d - 1):  # the checker's whole-node shortcut
            out.update(rule="counting", within=d - 1, most_found=self.most(d - 1))
            return out
        sizes = game.class_sizes(S)[:game.win]  # the checker's class sizes, every guess at once
        largest = sizes.max(axis=0)
        threshold = self.most(d - 2)
        counted = largest > threshold
        out.update(rule="guesses", guesses=game.n, within=d - 2, most_found=threshold)
        if counted.any():
            least = int(largest[counted].min())
            best = np.flatnonzero(counted & (largest == least))
            shown_best = sorted(self.code(int(g), q) for g in best)
            g0 = int(next(g for g in best if self.code(int(g), q) == shown_best[0]))
            answers = [game.keys[k] for k in np.flatnonzero(sizes[:, g0] == least)]
            out["by_counting"] = {"guesses": int(counted.sum()), "least_largest": least,
                                  "best": shown_best[0], "best_guesses": len(best), "answers": answers}
        else:
            out["by_counting"] = {"guesses": 0}
        out["by_counting"].update(largest_min=int(largest.min()), largest_max=int(largest.max()))
        if j == 0:
            out["kinds"] = self.kinds(sizes, largest)
        if counted.all():
            return out
        # The other guesses: each refuted through the class its proof entry names, directly or
        # through a same_as entry or the interchangeable colours (the checker's rules).
        entries = {game.by_text[t]: e for t, e in node.get("guesses", {}).items()}
        blocks = [tuple(b) for b in node.get("interchangeable", [])]
        same = {g: game.by_text[e["same_as"]] for g, e in entries.items() if "same_as" in e}

        def target(h: int) -> int:
            return h if h in entries else self.game.canon(h, blocks)

        via: dict = {}
        for g in np.flatnonzero(~counted).tolist():
            if g in same:
                rep = target(same[g])
            elif g in entries:
                rep = g
            else:
                rep = self.game.canon(g, blocks)
                if rep in same:
                    rep = target(same[rep])
            via.setdefault(rep, []).append(g)
        direct = sorted(via, key=lambda g: self.code(g, q))
        out["by_answers"], listed = [], direct[:self.branches]
        for g in listed:
            out["by_answers"].append(self.answer(g, entries[g], S, q, d, level, len(via[g]) - 1))
        rest = direct[len(listed):]
        out["more"] = {"guesses": len(rest), "alike": sum(len(via[g]) - 1 for g in rest)}
        out["same_as"] = sum(len(v) - 1 for v in via.values())
        return out

    def answer(self, g: int, entry: dict, S, q, d: int, level: int, alike: int) -> dict:
        """The class through which the proof refutes g: the first it names whose node needs >= d - 1."""
        import numpy as np

        game = self.game
        row = game.table[g, S]
        for key, ref in entry.items():
            j, perm = (ref, None) if isinstance(ref, int) else (ref["node"], _perm(ref["perm"]))
            if self.nodes[j]["bound"] >= d - 1:
                break
        else:  # impossible after the checker accepted the proof
            raise RuntimeError(f"guess {game.codes[g]}: no class needing {d - 1} more guesses")
        C = S[row == game.class_of[key]]
        item = {"guess": self.code(g, q), "alike": alike, "answer": key, "secrets": len(C)}
        child = {"node": j, "needs": self.nodes[j]["bound"], "secrets": len(C)}
        if j in self.shown:
            child["shown"] = "above"
        elif level >= self.depth:
            child["shown"] = "deeper"
        else:
            T = C if perm is None else game.image(_inverse(perm), C)  # S_j: C = P(S_j)
            inner = q if perm is None else (perm if q is None else _then(q, perm))
            child = self.node(j, np.asarray(T), inner, level + 1)
        item["child"] = child
        return item

    def kinds(self, sizes, largest) -> list:
        """The root's guesses by kind (the root's set, every code, is mapped onto itself by every
        renaming of colours and moving of pegs: guesses of one kind have the same class sizes)."""
        import numpy as np

        game, groups = self.game, {}
        for g, code in enumerate(game.codes):
            groups.setdefault(_kind(code), []).append(g)
        out = []
        for members in sorted(groups.values()):
            g = members[0]
            top = int(largest[g])
            out.append({"example": game.codes[g], "guesses": len(members), "largest": top,
                        "answers": [game.keys[k] for k in np.flatnonzero(sizes[:, g] == top)]})
        return out


# -- text and HTML -------------------------------------------------------------------------------
#
# The explanation is a list of items (text, sub-items, table): the terminal indents them, the page
# nests them; a table item's sub-items are rows in a fixed-width font.

#: Stands for a space that must not become a line break (inside a formula); a space once wrapped.
_KEEP = "\x00"


def _keep(text: str) -> str:
    return text.replace(" ", _KEEP)


def _n(b: int, k: int, value: int) -> str:
    """N(k) written out: "N(3) = 1 + 13 + 169 = 183", or "N(6) = 1 + 13 + ... + 13^5 = 402234"."""
    if k <= 1:
        return _keep(f"N({k}) = {value}")
    terms = " + ".join(str(b ** i) for i in range(k)) if k <= 4 else f"1 + {b} + ... + {b}^{k - 1}"
    return _keep(f"N({k}) = {terms} = {value}")


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _alike(n: int) -> str:
    return f" (and {n} like it)" if n else ""


def _answers(keys: list) -> str:
    """Feedback keys hold a comma: listed with "or"."""
    return " or ".join(keys)


def items(doc: dict) -> list:
    """The explanation as nested items."""
    b = doc["answers"]
    figures = ", ".join(_keep(f"N({k}) = {v}") for k, v in doc["most_found_within"].items())
    formula = _keep(f"N(k) = 1 + {b} + ... + {b}^(k-1)")
    intro = (f"counting: a guess has {_count(b, 'answer', 'answers')} besides the win ({doc['win']}), so "
             f"within k guesses a strategy finds at most {formula} secrets (one guess, then one for each "
             f"answer, ...): {figures}")
    return [(intro, [], False)] + _node_items(doc["root"], b)


def _node_items(node: dict, b: int, lead: str = "") -> list:
    """Items for one node; ``lead``: the guess and answer that lead to it (none for the root)."""
    d, size = node["needs"], node["secrets"]
    which, whiches = ("next guess", "next guesses") if lead else ("first guess", "first guesses")
    if lead:
        head = f"{lead} {_count(size, 'secret', 'secrets')}, which need >= {d} more guesses (node {node['node']})"
    else:
        head = f"the {size} secrets need >= {d} guesses"
    rule = node.get("rule")
    if rule is None:  # not explained here
        tail = ": explained above" if node.get("shown") == "above" else " (a larger --depth shows why)"
        return [(head + tail, [], False)]
    if rule == "trivial":
        return [(f"{head}: every secret needs a guess", [], False)]
    if rule == "counting":
        k = d - 1
        return [(f"{head}: there are {size}, more than the {_n(b, k, node['most_found'])} a strategy "
                 f"finds within {_count(k, 'guess', 'guesses')}", [], False)]
    k, sub = d - 2, []
    counting, n = node["by_counting"], node["guesses"]
    done = counting["guesses"]
    if done == n:
        found = f"{_n(b, k, node['most_found'])} that {_count(k, 'more guess', 'more guesses')} can find"
        if lead:
            head += (f": whatever the {which} (all {n} checked), some answer leaves at least "
                     f"{counting['least_largest']} secrets, more than the {found}")
        else:
            head += (f": whatever the {which}, some answer leaves at least {counting['least_largest']} secrets "
                     f"(the checker found one for each of the {n} {whiches}), more than the {found}; "
                     f"so some secret needs {_keep(f'1 + {d - 1}')} guesses")
        ties = counting["best_guesses"]
        best = (f"the best {which}, {counting['best']}," if ties == 1 else
                f"the best {whiches} ({ties} of them), e.g. {counting['best']},")
        sub.append((f"{best} leave{'s' if ties == 1 else ''} {counting['least_largest']} after "
                    f"{_answers(counting['answers'])}", [], False))
    else:
        head += f": whatever the {which}, some answer leaves secrets that need >= {d - 1} more guesses"
        if done:
            sub.append((f"counting refutes {done} of the {n} {whiches}: each leaves more than N({k}) = "
                        f"{node['most_found']} secrets after some answer (at least {counting['least_largest']}, "
                        f"e.g. {counting['best']} after {_answers(counting['answers'])})", [], False))
        else:
            low, high = counting["largest_min"], counting["largest_max"]
            span = f"their largest classes, {low} to {high} secrets, are" if low != high else \
                f"the largest class of each is {low} secrets,"
            sub.append((f"counting refutes none of the {n} {whiches}: {span} within N({k}) = "
                        f"{node['most_found']}", [], False))
    if "kinds" in node:
        sub.append(_kinds_item(node["kinds"], n))
    if "by_answers" in node:
        direct = len(node["by_answers"]) + node["more"]["guesses"]
        note = (f"; the {node['same_as']} others are like one of them: the same up to renaming colours "
                "and moving pegs, which the checker verified") if node["same_as"] else ""
        sub.append((f"{'all' if not done else 'the other'} {n - done} are refuted by the answers the proof names: "
                    f"{_count(direct, 'guess', 'guesses')} directly{note}", [], False))
        for item in node["by_answers"]:
            lead_in = f"{item['guess']}{_alike(item['alike'])} -({item['answer']})->"
            sub.extend(_node_items(item["child"], b, lead=lead_in))
        more = node["more"]
        if more["guesses"]:
            like = f" (and {more['alike']} like them)" if more["alike"] else ""
            sub.append((f"and {_count(more['guesses'], 'more guess', 'more guesses')}{like} refuted the "
                        "same way (a larger --branches lists them)", [], False))
    return [(head, sub, False)]


def _kinds_item(kinds: list, n: int) -> tuple:
    width = max(4, len(kinds[0]["example"]))
    rows = [f"{'kind':<{width}}  {'guesses':>7}  largest class"]
    for k in kinds:
        rows.append(f"{k['example']:<{width}}  {k['guesses']:>7}  {k['largest']} after {_answers(k['answers'])}")
    return (f"the {n} first guesses are of {_count(len(kinds), 'kind', 'kinds')} (the same up to renaming "
            "colours and moving pegs, so with the same class sizes):", [(row, [], False) for row in rows], True)


def text_lines(why: Why, width: int = 100) -> list:
    """The checker's line, then the explanation, indented by depth, wrapped at ``width`` columns
    (continuation lines 4 further in; table rows never wrapped)."""
    import textwrap

    lines = [why.report.line()]

    def walk(entries, indent, table=False):
        for text, sub, mono in entries:
            if table:
                lines.append(" " * indent + text)
            else:
                lines.extend(line.replace(_KEEP, " ") for line in textwrap.wrap(
                    text, width, initial_indent=" " * indent, subsequent_indent=" " * (indent + 4),
                    break_long_words=False, break_on_hyphens=False))
            walk(sub, indent + 2, mono)

    walk(items(why.doc), 0)
    return lines


_CSS = ("body{font:16px/1.45 system-ui,sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#222}"
        "h1{font-size:1.4em}ul{padding-left:1.4em}li{margin:.25em 0}"
        ".table{list-style:none;padding-left:.5em;font-family:ui-monospace,monospace;white-space:pre}"
        ".table li{margin:0}.file{color:#555}")


def html_page(why: Why) -> str:
    """A small self-contained page of the explanation (no script; every text escaped)."""
    import base64

    doc = why.doc
    title = (f"Why every strategy for {_label(doc['game'])} needs {doc['claims']['worst_case']} "
             "guesses for some secret")

    def ul(entries, table=False) -> str:
        if not entries:
            return ""
        rows = "".join(f"<li>{html.escape(text.replace(_KEEP, ' '))}{ul(sub, mono)}</li>"
                       for text, sub, mono in entries)
        return ('<ul class="table">' if table else "<ul>") + rows + "</ul>"

    digest = base64.b64encode(hashlib.sha256(_CSS.encode()).digest()).decode()
    csp = f"default-src 'none'; style-src 'sha256-{digest}'; base-uri 'none'; form-action 'none'"
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"{html.escape(csp)}\">"
            f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>\n"
            f"<h1>{html.escape(title)}</h1>\n<p class=\"file\">{html.escape(why.report.line())}</p>\n"
            f"{ul(items(doc))}\n</body></html>\n")


def _label(game: dict) -> str:
    return f"{game['pegs']}x{game['colors']}" + ("" if game["repetition"] else " without repetition")


# -- the committed proofs, for `certify stats` ----------------------------------------------------

def committed_worst_case(game: dict, folder: Path = BOUNDS, max_codes=None, max_work=None, max_nodes=None):
    """The best committed worst-case proof of ``game`` (its rule included) that the catalogues list
    (certificates/bounds/index.json, certificates/atlas/index.json, the black-peg proofs), read
    through the bounded reader and accepted by the lower-bound checker now, within the user's limits:
    {"bound", "file", "source"}; else None. A manifest's claim is only the order in which files
    are tried: the figure is the checker's."""
    from . import atlas
    from .kinds import LOWER_BOUND, check_bytes

    root = folder.parent
    want = {"pegs": game["pegs"], "colors": game["colors"], "repetition": game["repetition"],
            **({"feedback": game["feedback"]} if game.get("feedback", "black-white") != "black-white" else {})}
    candidates, problems = [], []
    for rel, key, sub in (("bounds/index.json", "proofs", folder.name), ("atlas/index.json", "files", "atlas")):
        for entry in atlas._manifest(root, rel, key, problems):
            claims = entry.get("claims")
            if (isinstance(entry.get("game"), dict) and _key(entry["game"]) == atlas.slug(want) and isinstance(claims, dict) and type(claims.get("worst_case")) is int
                    and atlas._safe_name(entry["file"])):
                candidates.append((claims["worst_case"], f"{sub}/{entry['file']}", f"listed in {from_here(root / rel)}"))
    black = root / "black-peg"
    if want.get("feedback") == "black-only" and black.is_dir():
        name = atlas.slug(want)
        for path in sorted(black.glob(f"worst-case-{name}.json*")):
            candidates.append((0, f"black-peg/{path.name}", f"in {from_here(black)}"))
    unchecked = None
    for _, name, source in sorted(candidates, key=lambda c: -c[0]):
        try:
            raw = atlas.read_file(root / name, atlas._bases(root))
        except atlas.Unread:
            continue
        kind, report = check_bytes(raw, name, max_codes=max_codes, max_work=max_work, max_nodes=max_nodes)
        if kind == LOWER_BOUND and report.valid and atlas.slug(report.game) == atlas.slug(want) \
                and "worst_case" in report.claims:
            return {"bound": report.claims["worst_case"], "file": from_here(root / name),
                    "source": f"{source}, checked now"}
        if unchecked is None and (report.status == 2 or "--max-codes" in (report.error or "")):
            unchecked = {"bound": None, "file": from_here(root / name), "source": f"{source}: {report.error}"}  # (its error says "not checked" and the option)
    return unchecked


def _key(game: dict) -> str:
    from . import atlas

    try:
        return atlas.slug(game)
    except (KeyError, TypeError):
        return ""
