"""The whole tree of a verified certificate as a book of A4 pages (matplotlib, PDF).

Page 1 holds the start guess (the root, or the node ``--at`` reaches), each of its replies with the
guess that follows and the page where that subtree is printed, the figures the verifier replayed and
a legend. Then each subtree gets its own page or pages, titled with its path from the root; it is
printed as an outline, one guess per line, indented by level, so no page is wider than A4 whatever
the tree. A continued subtree repeats, greyed, the guesses above its first line.

With ``letters`` (one per colour, as ``play --letters``) the pegs show them, in the colours they name
(render.palette), and so do the titles. Counts are replayed here with the independent verifier's
``codes``/``feedback``. The PDF carries
no date nor software version, so the same certificate gives the same bytes.
"""

from __future__ import annotations

import io

from . import verify
from .errors import CertifyError
from .text import shown

A4 = (8.27, 11.69)  # inches
MARGIN = 0.6
TOP = 1.25  # where the first line of a page's outline goes
LINE = 0.24  # inches per line: 9 pt text, pegs 0.17 in across
ROOM = A4[1] - TOP - MARGIN
ROWS = int(ROOM / LINE)
INDENT = 0.3
#: Above this many pages the book is refused (with the figure): print a subtree with --at.
MAX_PAGES = 400
BLACK, WHITE_EDGE = "#111111", "#111111"

__all__ = ["ROWS", "MAX_PAGES", "plan", "book"]


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def _path_title(steps, guess: str, name=str) -> str:
    """guess -(key)-> guess ..., the codes through ``name`` (the letters' names)."""
    return " ".join(f"{name(g)} -({k})->" for g, k in steps) + (" " if steps else "") + (name(guess) if guess else "")


class _Node:
    __slots__ = ("guess", "key", "count", "height", "wins", "kids", "parent", "depth")

    def __init__(self, guess, key, count, wins, parent, depth):
        self.guess, self.key, self.count, self.wins = guess, key, count, wins
        self.parent, self.depth, self.kids, self.height = parent, depth, [], 1


def _replay(start: dict, reaching: list[str], score) -> _Node:
    """The subtree as _Node objects with replayed counts and heights (no recursion); ``score``
    gives an answer's key (render.answer: the verifier's rule)."""
    root = _Node(start["guess"], None, len(reaching), start["guess"] in reaching, None, 0)
    order = [root]
    stack = [(start, root, reaching)]
    while stack:
        node, me, here = stack.pop()
        groups: dict[str, list[str]] = {}
        for s in here:
            groups.setdefault(score(node["guess"], s), []).append(s)
        for key, child in node.get("next", {}).items():
            got = groups.get(key, [])
            kid = _Node(child["guess"], key, len(got), child["guess"] in got, me, me.depth + 1)
            me.kids.append(kid)
            order.append(kid)
            stack.append((child, kid, got))
    for n in reversed(order):  # children after parents: heights bottom-up
        if n.kids:
            n.height = 1 + max(k.height for k in n.kids)
    return root


def _preorder(node: _Node) -> list[_Node]:
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(reversed(n.kids))
    return out


def plan(start: _Node):
    """[(subtree node, [pages: [(node, is_context)]], line height)] for the subtrees after page 1."""
    sections = []
    for kid in start.kids:
        if not kid.kids:
            continue  # a leaf: page 1 says it all
        lines = _preorder(kid)
        if len(lines) <= ROWS + ROWS // 6:  # a little too long: closer lines, not a page for a few
            sections.append((kid, [[(n, False) for n in lines]], min(LINE, ROOM / len(lines))))
            continue
        pages, i = [], 0
        while i < len(lines):
            context = []
            if i:  # the guesses above the first line, so a continued page reads on its own
                a = lines[i].parent
                while a is not None and a is not kid.parent:
                    context.append(a)
                    a = a.parent
                context.reverse()
            room = ROWS - len(context)
            pages.append([(n, True) for n in context] + [(n, False) for n in lines[i:i + room]])
            i += room
        sections.append((kid, pages, LINE))
    return sections


#: DejaVu Sans Mono's advance is 0.6021 em: at this size three characters span one peg step
#: (0.2 in = 14.4 pt), so a guess's digits of one text colour are ONE text, spaces between them.
_MONO_ADVANCE = 1233 / 2048
_DIGIT_PT = 14.4 / (3 * _MONO_ADVANCE)


def _draw_pegs(ax, patches, colors, x, y, code, look, radius=0.085):
    """Pegs centred 0.2 in apart from ``x``, each with its digit (or letter: ``look``, a
    render._Look); returns the x after them. Text is the slow part of a PDF page, hence one text
    per digit colour instead of one per peg (digits only: see below)."""
    from matplotlib.patches import Circle

    from .render import text_color

    by_ink: dict[str, list[str]] = {}
    for i, ch in enumerate(code):
        c = look.color(ch)
        patches.append(Circle((x + i * 0.2, y), radius))
        colors.append(c)
        if look.letters:  # letters in a monospace font: O would read as 0, so one centred text each
            ax.text(x + i * 0.2, y, look.name(ch), ha="center", va="center_baseline", fontsize=_DIGIT_PT,
                    family="DejaVu Sans", fontweight="bold", color=text_color(c))
            continue
        line = by_ink.setdefault(text_color(c), [" "] * len(code))
        line[i] = ch
    start = x - _MONO_ADVANCE * _DIGIT_PT / 2 / 72  # the first character's centre on the first peg
    for ink, chars in by_ink.items():
        ax.text(start, y, "  ".join(chars), ha="left", va="center_baseline", fontsize=_DIGIT_PT,
                family="DejaVu Sans Mono", fontweight="bold", color=ink)
    return x + len(code) * 0.2


def _draw_key(ax, patches, colors, x, y, key: str, pegs: int):
    """Key pegs as small discs: filled for black, open for white; "none" for no key peg."""
    from matplotlib.patches import Circle

    from .render import key_pegs

    b, w = key_pegs(key)  # "B,W", or "B" in a black-peg game
    if b + w == 0:
        ax.text(x, y, "none", ha="left", va="center_baseline", fontsize=7, color="#555555")
    for i in range(b + w):
        patches.append(Circle((x + 0.045 + i * 0.11, y), 0.042))
        colors.append(BLACK if i < b else "white")
    ax.text(x + pegs * 0.11 + 0.04, y, key, ha="left", va="center_baseline", fontsize=6.5, color="#777777")
    return x + pegs * 0.11 + 0.32


def _line(ax, patches, colors, node: _Node, y: float, base: int, pegs: int, look, grey=False, page_ref=None):
    x = MARGIN + (node.depth - base) * INDENT
    if node.key is not None:
        x = _draw_key(ax, patches, colors, x, y, node.key, pegs)
    x = _draw_pegs(ax, patches, colors, x + 0.09, y, node.guess, look) + 0.05
    if not node.kids and node.wins:
        text = "\u2713 found"  # a leaf: its guess is the one secret that reaches it
    else:
        text = f"{_plural(node.count, 'secret')}, at most {_plural(node.height, 'guess', 'guesses')}"
    if node.wins and node.kids:
        text += "  \u2713 can win"
    if page_ref:
        text += f"   \u2192 page {page_ref}"
    if grey:
        text += "  (continued)"
    ax.text(x, y, text, ha="left", va="center_baseline", fontsize=8, color="#888888" if grey else "#222222")


def _page(title: str, subtitle: str, footer: str):
    from matplotlib.figure import Figure

    fig = Figure(figsize=A4)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, A4[0])
    ax.set_ylim(A4[1], 0)
    ax.axis("off")
    ax.text(MARGIN, 0.6, title, fontsize=12, fontweight="bold", va="baseline")
    ax.text(MARGIN, 0.9, subtitle, fontsize=8.5, color="#444444", va="baseline")
    ax.text(A4[0] / 2, A4[1] - 0.35, footer, fontsize=7.5, color="#666666", ha="center")
    return fig, ax


def _finish(ax, patches, colors):
    from matplotlib.collections import PatchCollection

    ax.add_collection(PatchCollection(patches, facecolors=colors, edgecolors="#222222", linewidths=0.5))


def _legend(ax, y: float, pegs: int, alphabet: str, look, black_only: bool = False) -> None:
    patches, colors = [], []
    ax.text(MARGIN, y, "How to read it", fontsize=10, fontweight="bold")
    keys = [("1", "black key peg: right colour in the right place"),
            ("0", "no key peg: no peg of the guess is right (black pegs only: no white pegs in this game)")] \
        if black_only else [("1,0", "black key peg: right colour in the right place"),
                            ("0,1", "white key peg: right colour in the wrong place"),
                            ("0,0", "no key peg: no colour of the guess is in the secret")]
    rows = [
        ("guess", f"a guess: one peg per position, its colour's {'letter' if look.letters else 'digit'} on it"),
        *keys,
        (None, "n secrets, at most k guesses: the secrets that reach a guess, and how many guesses "
               "they still need at most, this one included"),
        (None, "\u2713 can win: the guess itself is one of those secrets; \u2713 found: it is the only one"),
        (None, "indented lines are the replies to the line above, in the certificate's order"),
    ]
    for i, (what, text) in enumerate(rows):
        yy = y + 0.3 + i * 0.26
        if what == "guess":
            _draw_pegs(ax, patches, colors, MARGIN + 0.09, yy, alphabet[:pegs], look)
        elif what is not None:
            _draw_key(ax, patches, colors, MARGIN, yy, what, 3)
        ax.text(MARGIN + 1.25, yy, text, fontsize=8, va="center_baseline", wrap=True)
    _finish(ax, patches, colors)


def book(cert: dict, report, out, at: tuple[str, ...] = (), inputs=(), progress: bool = True,
         letters: str | None = None) -> dict:
    """Write the book of a verified certificate (or of the subtree ``at`` reaches) to ``out`` (.pdf);
    ``progress``: a bar of the pages on stderr when it is a terminal; ``letters``: pegs and titles
    show them (one per colour, as ``play --letters``)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.backends.backend_pdf import PdfPages

    from .files import write_output
    from .render import _game_text, _Look, _walk, answer

    game = cert["game"]
    pegs = game["pegs"]
    look = _Look(letters[:game["colors"]] if letters else None)
    name = look.name
    everyone = verify.codes(pegs, game["colors"], game["repetition"])
    start_dict, reaching, prefix = _walk(cert, at, everyone)
    start = _replay(start_dict, reaching, answer(game))
    sections = plan(start)
    total = 1 + sum(len(p) for _, p, _ in sections)
    if total > MAX_PAGES:
        raise CertifyError(f"the book would take {total} A4 pages (limit {MAX_PAGES}): print a subtree "
                           f"with --at, e.g. --at {start.kids[0].key}")
    first_page, page_no = {}, 2
    for kid, pages, _ in sections:
        first_page[id(kid)] = page_no
        page_no += len(pages)

    strategy = shown(cert["strategy"]["name"], 60)
    where = f", subtree at {'/'.join(at)}" if at else ""
    shown_as = f" ({' '.join(look.letters)})" if look.letters else ""
    footer_base = f"{strategy} on {_game_text(game)}{shown_as}{where}: verified certificate"
    buf = io.BytesIO()
    rc = {"pdf.fonttype": 42, "font.family": "DejaVu Sans", "pdf.compression": 6}
    with matplotlib.rc_context(rc), PdfPages(buf, metadata={"CreationDate": None, "ModDate": None,
                                                            "Creator": None, "Producer": None}) as pdf:
        r = report.replayed
        title = f"{strategy} on {_game_text(game)}{shown_as}{where}"
        sub = (f"verified: {r['secrets']} secrets, every one found in at most {r['max_guesses']} guesses, "
               f"{r['total_guesses']} in all; the start guess and its replies")
        fig, ax = _page(title, sub, f"{footer_base} \u2014 page 1 of {total}")
        patches, colors = [], []
        y = TOP
        if prefix:
            ax.text(MARGIN, y, "after " + _path_title(prefix, "", name).rstrip(), fontsize=8, color="#444444")
            y += LINE
        _line(ax, patches, colors, start, y, 0, pegs, look)
        for kid in start.kids:
            y += LINE
            _line(ax, patches, colors, kid, y, 0, pegs, look, page_ref=first_page.get(id(kid)))
        _finish(ax, patches, colors)
        _legend(ax, y + 0.6, pegs, verify.ALPHABET, look, game.get("feedback") == "black-only")
        pdf.savefig(fig)

        from .progress import Progress

        bar = Progress(total, "book", enabled=progress, unit="page", initial=1)
        page_no = 2
        for kid, pages, step in sections:
            steps = list(prefix) + [(start.guess, kid.key)]
            head = _path_title(steps, kid.guess, name)
            for i, lines in enumerate(pages, 1):
                part = f" (part {i} of {len(pages)})" if len(pages) > 1 else ""
                sub = (f"{_plural(kid.count, 'secret')} reach {name(kid.guess)}; with it they need at most "
                       f"{_plural(kid.height, 'guess', 'guesses')}{part}")
                fig, ax = _page(head, sub, f"{footer_base} \u2014 page {page_no} of {total}")
                patches, colors = [], []
                for j, (node, grey) in enumerate(lines):
                    _line(ax, patches, colors, node, TOP + j * step, kid.depth, pegs, look, grey=grey)
                _finish(ax, patches, colors)
                pdf.savefig(fig)
                page_no += 1
                bar.update()
        bar.close()
    data = buf.getvalue()
    write_output(out, data, inputs)
    return {"file": str(out), "pages": total, "subtrees": len(sections), "bytes": len(data),
            "start": start.guess}
