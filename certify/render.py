"""Draw a verified certificate with Graphviz: guesses as rows of coloured pegs, feedback as key pegs.

The caller verifies the certificate first (the CLI does); this module replays the secrets with the
independent verifier's own ``codes``/``feedback`` so every count it prints is a replayed one (a
black-peg game's with its ``blacks``: its keys are one number, drawn as black key pegs only).
Only the part of the tree that is drawn is replayed, so big trees cut at a small depth stay quick.
"""

from __future__ import annotations

import re

from . import verify
from .errors import CertifyError
from .text import shown

#: Output formats, chosen by the output file's extension.
FORMATS = {".svg": "svg", ".png": "png", ".pdf": "pdf", ".dot": "dot"}
LAYOUTS = ("dot", "twopi")
#: Nodes (guesses and summaries) the default depth allows, per layout.
LEGIBLE_NODES = {"dot": 50, "twopi": 3000}  # dot: a 5-peg root (20 replies) still shows level 2
#: Above this many guess nodes, guesses are drawn as small discs split into their pegs' colours.
COMPACT_OVER = 150
#: Above this many guesses one picture is refused: Graphviz would run for minutes (the 6,050 guesses
#: of last-guess 4x6 take about 10 s, the 34,752 of knuth 5x8 many minutes).
MAX_DRAWN = 8000
#: A dot picture is a strip nobody can read when its long side passes MAX_SIDE pixels and is more
#: than MAX_RATIO times its short side (--depth all on knuth 4x6: 17,737 x 331 px, 54:1); it is
#: drawn radially instead, or refused when dot was asked for. A tall picture of full-size guesses
#: (--depth 3 on 4x6: 1,204 x 7,668 px, 6:1) still reads, scrolling down.
MAX_SIDE = 4000
MAX_RATIO = 10
#: Graphviz's pixels per inch in a PNG (an SVG's 72 points per inch also show as 96 px).
DPI = 96

#: Peg colours by digit: Okabe & Ito's colour-blind-safe set first (the usual 6-colour game uses
#: only these; vermillion is 5 and sky blue 6, so the 6-colour game has no two blues), then Paul Tol's muted, light, dark and pale sets. Past 8 or so colours no palette
#: stays distinguishable for everyone, so every peg also shows its digit.
PALETTE = (
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#F0E442", "#D55E00", "#56B4E9", "#000000",
    "#332288", "#88CCEE", "#44AA99", "#117733", "#999933", "#DDCC77", "#CC6677", "#882255",
    "#AA4499", "#77AADD", "#EE8866", "#EEDD88", "#FFAABB", "#99DDFF", "#BBCC33", "#AAAA00",
    "#DDDDDD", "#222255", "#225555", "#225522", "#666633", "#663333", "#555555", "#BBCCEE",
    "#CCEEFF", "#CCDDAA", "#EEEEBB", "#FFCCCC",
)
HIGHLIGHT = "#C51B7D"  # the secret's path: a magenta no peg uses
#: The colour a --letters letter names (either case): English initials, K black as in CMYK, N brown
#: (B is blue). Where the default palette has the hue (B, O, G, Y, K) it is the same colour, so
#: the pictures look alike with and without letters. Other letters and digits name no colour.
LETTER_COLOURS = {
    "R": "#E41A1C", "G": "#009E73", "B": "#0072B2", "Y": "#F0E442", "O": "#E69F00", "P": "#7B3294",
    "C": "#00BCD4", "M": "#E040FB", "N": "#8C564B", "W": "#FFFFFF", "K": "#000000",
}
#: A letter naming no colour gets the first default colour at least this far (CIELAB delta E 1976)
#: from every colour already on the board: vermillion (30 from red) is not given beside R.
DISTINCT = 32
FONT = "DejaVu Sans"
_STEP = re.compile(r"\s*([0-9]{1,6})\s*(?:,\s*([0-9]{1,6})\s*)?")  # ASCII, short enough for int()

__all__ = ["FORMATS", "LAYOUTS", "PALETTE", "LETTER_COLOURS", "palette", "output_format", "parse_at",
           "estimate_size", "build_graph", "render"]


#: How to get Graphviz, in one line (only `render` needs it).
INSTALL_DOT = ("install Graphviz with 'sudo apt-get install graphviz', 'brew install graphviz' or "
               "'conda install -c conda-forge graphviz' (or write -o FILE.dot, which needs no Graphviz)")


def output_format(path) -> str:
    """The Graphviz format for an output path, from its extension."""
    from .files import format_from_extension

    return format_from_extension(path, FORMATS, "picture")


def parse_at(text: str | None) -> tuple[str, ...]:
    """``"1,0/0,2"`` -> ``("1,0", "0,2")``: feedback keys from the root, in the certificate's form
    (a black-peg certificate's: ``"1/2"``)."""
    if text is None or not text.strip():
        return ()
    steps = []
    for i, part in enumerate(text.split("/"), 1):
        m = _STEP.fullmatch(part)
        if not m:
            raise CertifyError(f"--at {shown(text, 40)}: step {i} {shown(part.strip(), 20)!r} is not a "
                               "feedback 'B,W' (or 'B' in a black-peg game)")
        steps.append(f"{int(m.group(1))},{int(m.group(2))}" if m.group(2) is not None else str(int(m.group(1))))
    return tuple(steps)


def text_color(hex_color: str) -> str:
    """Black or white, whichever reads better on the colour (WCAG relative luminance)."""
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(int(hex_color[i:i + 2], 16)) for i in (1, 3, 5))
    lum = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "black" if (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) else "white"


def _lab(hex_color: str) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour, to tell how far apart two colours look."""
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(int(hex_color[i:i + 2], 16)) for i in (1, 3, 5))
    xyz = ((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b,
           (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883)
    fx, fy, fz = (t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in xyz)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def palette(letters: str | None = None) -> tuple[str, ...]:
    """The colour of each digit: PALETTE, or with ``--letters`` one colour per letter. A letter that
    names a colour (LETTER_COLOURS) is drawn in it; the others get, in order, the default colours
    that stay DISTINCT from those already given (the farthest one when none does), so the terminal,
    the pictures and the page agree and no two colours are the same."""
    if not letters:
        return PALETTE
    colours: list[str | None] = [LETTER_COLOURS.get(ch.upper()) for ch in letters]
    used = [_lab(c) for c in colours if c]
    for i, c in enumerate(colours):
        if c:
            continue
        pool = [p for p in PALETTE if p not in colours]

        def gap(p):
            lab = _lab(p)
            return min((sum((a - b) ** 2 for a, b in zip(lab, u)) ** 0.5 for u in used), default=1e9)
        colours[i] = next((p for p in pool if gap(p) >= DISTINCT), None) or max(pool, key=gap)
        used.append(_lab(colours[i]))
    return tuple(colours)


class _Look:
    """How a digit looks: its colour, and the character on its peg (the digit, or its letter)."""

    def __init__(self, letters: str | None = None) -> None:
        self.letters = letters or None
        self.colours = palette(letters)
        self._names = str.maketrans(verify.ALPHABET[:len(letters)], letters) if letters else None

    def color(self, ch: str) -> str:
        return self.colours[verify.ALPHABET.index(ch)]

    def name(self, code: str) -> str:
        return code.translate(self._names) if self._names else code

    def code(self, text: str) -> str:
        """A code typed in letters (with --letters, as ``play`` reads them) in the game's digits."""
        if not self.letters:
            return text
        from .letters import Names

        return Names(self.letters, len(self.letters)).read(text, game="the game")


_PLAIN = _Look()


def _pegs_html(guess: str, look: _Look = _PLAIN) -> str:
    cells = "".join(
        f'<TD STYLE="rounded" BORDER="1" COLOR="#333333" BGCOLOR="{look.color(ch)}" WIDTH="20" HEIGHT="20" FIXEDSIZE="TRUE">'
        f'<FONT COLOR="{text_color(look.color(ch))}" POINT-SIZE="12"><B>{look.name(ch)}</B></FONT></TD>'
        for ch in guess)
    return f"<TR>{cells}</TR>"


def _guess_label(guess: str, count: int, here_too: bool, found: int | None = None,
                 candidate: bool = True, look: _Look = _PLAIN) -> str:
    """Pegs, then "n secrets" and, when the guess is one of them and more follow, "1 found here"
    (so the summaries beside it, which count the others, add up); ``found`` marks a path's end;
    a guess that cannot be the secret (the classic surprise of minimax) says so."""
    noun = "secret" if count == 1 else "secrets"
    text = f"{count} {noun}" + (", 1 found here" if here_too and count > 1 else "")
    rows = f'<TR><TD><FONT POINT-SIZE="10">{text}</FONT></TD></TR>'
    if not candidate:
        rows += ('<TR><TD><FONT POINT-SIZE="9" COLOR="#8A1C5C"><I>not a candidate</I></FONT></TD></TR>')
    if found is not None:
        rows += (f'<TR><TD BGCOLOR="{HIGHLIGHT}" CELLPADDING="2"><FONT POINT-SIZE="10" COLOR="white">'
                 f'<B> found in {found} guess{"es" if found != 1 else ""} </B></FONT></TD></TR>')
    # The pegs in a table of their own, so a wider line of text below does not spread them apart.
    pegs = f'<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="3" CELLPADDING="0">{_pegs_html(guess, look)}</TABLE>'
    return (f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="0"><TR><TD ALIGN="CENTER" FIXEDSIZE="TRUE" WIDTH="{23 * len(guess) + 3}" HEIGHT="26">{pegs}</TD></TR>'
            f"{rows}</TABLE>>")


def answer(game: dict):
    """The game's answer to ``guess`` for ``secret`` as a tree key, by the verifier's rule: "B,W",
    or "B" in a black-peg game ("feedback": "black-only")."""
    if game.get("feedback") == "black-only":
        return lambda guess, secret: str(verify.blacks(guess, secret)[0])
    return lambda guess, secret: "%d,%d" % verify.feedback(guess, secret)


def key_pegs(key: str) -> tuple[int, int]:
    """(black, white) of a key: "B,W", or "B" (a black-peg game's, white 0)."""
    b, _, w = key.partition(",")
    return int(b), int(w or 0)


def _key_html(key: str) -> str:
    """Key pegs: one black disc per black, one open disc per white; "none" for no key pegs. A
    black-peg game's key (one number) shows its number too: "●● 2"."""
    b, w = key_pegs(key)
    if b == 0 and w == 0:
        return '<<FONT POINT-SIZE="9" COLOR="#555555">none</FONT>>'
    if "," not in key:
        return f'<<FONT POINT-SIZE="13">{"●" * b}</FONT><FONT POINT-SIZE="9" COLOR="#555555"> {b}</FONT>>'
    return f'<<FONT POINT-SIZE="13">{"●" * b}{"○" * w}</FONT>>'


def _key_tip(key: str) -> str:
    b, w = key_pegs(key)
    return f"{key}: {b} black" + (f", {w} white" if "," in key else "")


def _edge(g, parent: str, child: str, key: str, compact: bool, on_path: bool) -> None:
    """The edge for feedback ``key``. Drawn in full, the key pegs sit on the edge as a small
    label node, so each reply reads unambiguously between its guess and the next one."""
    attrs = {"tooltip": _key_tip(key)}
    if on_path:
        attrs.update(color=HIGHLIGHT, penwidth="3", **{"class": "path"})
    if compact:
        g.edge(parent, child, **attrs)
        return
    knode = f"{child}|key"
    kattrs = {"label": _key_html(key), "tooltip": _key_tip(key), "class": "key", "fillcolor": "#F2F2F2",
              "color": "#BBBBBB", "margin": "0.05,0.02", "height": "0.1", "width": "0.1"}
    if on_path:
        kattrs.update(color=HIGHLIGHT, penwidth="2", **{"class": "key path"})
    g.node(knode, **kattrs)
    g.edge(parent, knode, arrowhead="none", **attrs)
    g.edge(knode, child, weight="8", **attrs)  # key pegs level with their guess: the fan from the parent does not cross


def _path_text(steps) -> str:
    return " ".join(f"{g} -({k})->" for g, k in steps)


def _height(node: dict) -> int:
    """Guesses on the longest path from ``node`` down (1 for a leaf), without recursion."""
    best = 0
    stack = [(node, 1)]
    while stack:
        n, d = stack.pop()
        best = max(best, d)
        stack.extend((c, d + 1) for c in n.get("next", {}).values())
    return best


def _levels(node: dict) -> list[tuple[int, int]]:
    """[(nodes, nodes with children)] per level below ``node`` (level 1 is ``node``)."""
    out = []
    level = [node]
    while level:
        out.append((len(level), sum(1 for n in level if n.get("next"))))
        level = [c for n in level for c in n.get("next", {}).values()]
    return out


def default_depth(node: dict, layout: str) -> int:
    """The deepest cut whose drawing (guesses plus one summary per cut node) stays legible."""
    levels = _levels(node)
    limit = LEGIBLE_NODES[layout]
    depth, drawn = 1, 0
    for i, (count, inner) in enumerate(levels, 1):
        drawn += count
        last = i == len(levels)
        if drawn + (0 if last else inner) > limit and i > 1:
            break
        depth = i
    return depth


def _fitting_depth(node: dict, limit: int) -> int:
    """The most levels whose guesses stay within ``limit``."""
    drawn, depth = 0, 1
    for i, (count, _) in enumerate(_levels(node), 1):
        drawn += count
        if drawn > limit:
            break
        depth = i
    return depth


def estimate_size(node: dict, depth: int) -> tuple[int, int]:
    """(width, height) in pixels of the dot picture of ``depth`` levels from ``node``, from the
    leaves drawn and without running dot (within about 15% on the committed 4x6 trees). A level
    is one rank; leaves side by side set the long side: across for a compact (discs, top down)
    picture, down for full-size guesses (left to right)."""
    levels, level = [], [node]
    for i in range(1, depth + 1):
        # leaves: nodes drawn without children drawn (at the cut, every node of the level)
        levels.append((len(level), len(level) if i == depth else sum(1 for n in level if not n.get("next"))))
        level = [c for n in level for c in n.get("next", {}).values()]
    n_guesses = sum(count for count, _ in levels)
    cut = bool(level)  # the last level's children are cut: summaries follow it
    if n_guesses > COMPACT_OVER:
        # Disc widths as drawn (0.5 in at the root, x0.7 per level, at least 0.12) plus nodesep.
        across = sum(leaves * (max(0.12, 0.5 * 0.7 ** i) + 0.08) for i, (_, leaves) in enumerate(levels))
        width, height = across, 0.62 * (depth + cut) + 0.6
    else:
        # A guess with its counts is about 0.75 in tall; a level (guess, key pegs, ranksep) 3.3 in.
        width, height = 3.3 * depth + 1.4 * cut, 0.75 * sum(leaves for _, leaves in levels) + 0.6
    return round(width * DPI), round(height * DPI)


def _strip(size: tuple[int, int]) -> bool:
    long, short = max(size), max(1, min(size))
    return long > MAX_SIDE and long > MAX_RATIO * short


def _choose_layout(start: dict, depth: int, height: int, layout: str | None, force: bool):
    """(layout, note, estimated dot size): dot unless its picture would be an unreadable strip;
    then twopi when no layout was asked for (the note says why), or an error unless forced."""
    if layout == "twopi":
        return layout, None, None
    size = estimate_size(start, depth)
    if not _strip(size):
        return "dot", None, size
    levels = f"--depth all ({depth} levels)" if depth >= height else f"--depth {depth}"
    why = (f"{levels} would make a dot picture of about {size[0]:,} x {size[1]:,} px "
           f"({max(size) // max(1, min(size))}:1), too {'wide' if size[0] > size[1] else 'tall'} to read")
    if layout is None:
        return "twopi", f"{why}: drawn radially (--layout twopi); --layout dot --force keeps the strip", size
    if force:
        return "dot", None, size
    fits = next((d for d in range(depth - 1, 0, -1) if not _strip(estimate_size(start, d))), 1)
    raise CertifyError(f"{why}: draw it radially with --layout twopi, or --depth {fits}, "
                       f"or add --force to draw the strip anyway")


def _split(guess: str, reaching: list[str], key) -> dict[str, list[str]]:
    """The secrets of ``reaching`` by their answer to ``guess`` (``key``: :func:`answer`)."""
    groups: dict[str, list[str]] = {}
    for s in reaching:
        groups.setdefault(key(guess, s), []).append(s)
    return groups


def _game_text(game: dict) -> str:
    rep = "" if game["repetition"] else ", no repetition"
    rule = ", black pegs only" if game.get("feedback") == "black-only" else ""
    return f"{game['pegs']} pegs x {game['colors']} colours{rep}{rule}"


def _walk(cert: dict, at: tuple[str, ...], everyone: list[str]):
    """The node ``at`` reaches, the secrets reaching it, and the (guess, key) steps to it."""
    node, reaching, steps, score = cert["tree"], everyone, [], answer(cert["game"])
    for i, key in enumerate(at, 1):
        branches = node.get("next", {})
        if key not in branches:
            where = _path_text(steps) + (" " if steps else "") + node["guess"]
            have = ", ".join(branches) if branches else "none, the guess ends the game"
            raise CertifyError(f"--at {'/'.join(at)}: step {i} {key!r} does not exist after {where} "
                               f"(its branches: {have})")
        reaching = _split(node["guess"], reaching, score)[key]
        steps.append((node["guess"], key))
        node = branches[key]
    return node, reaching, steps


def _secret_keys(start: dict, secret: str, game: dict, everyone, reaching, at,
                 look: _Look = _PLAIN) -> list[str]:
    """The feedback keys ``secret`` follows from ``start`` until a guess wins."""
    if secret not in set(everyone):
        raise CertifyError(f"secret {look.name(secret)!r} is not a code of the game ({_game_text(game)})")
    if secret not in set(reaching):
        raise CertifyError(f"secret {look.name(secret)} does not reach the node at --at {'/'.join(at)}")
    keys, node, score = [], start, answer(game)
    while node["guess"] != secret:
        keys.append(score(node["guess"], secret))
        node = node["next"][keys[-1]]
    return keys


def _graph_label(title: str, compact: bool, summaries: bool, path: bool, size: int,
                 black_only: bool = False) -> str:
    """The title lines, then a one-line legend of what the picture uses (HTML-like label)."""
    import html

    def cell(sample: str, text: str, extra: str = "") -> str:
        return (f'<TD{extra}>{sample}</TD><TD ALIGN="LEFT"><FONT POINT-SIZE="{size}" COLOR="#333333">'
                f"{html.escape(text)}</FONT></TD><TD WIDTH=\"{size}\"></TD>")

    small = f'<FONT POINT-SIZE="{size}">'
    if compact:
        items = [cell(f"{small}\u25D1</FONT>", "a guess: a disc split into its pegs' colours, clockwise")]
        if summaries:
            items.append(cell(f'{small}<FONT COLOR="#999999">\u25CF</FONT></FONT>', "replies not drawn"))
    else:
        items = [cell(f'<FONT POINT-SIZE="{size + 3}">\u25CF</FONT>', "black key peg: right colour, right place"),
                 cell(f'<FONT POINT-SIZE="{size + 3}">\u25CB</FONT>', "white key peg: right colour, wrong place"),
                 cell(f'<FONT POINT-SIZE="{size}" COLOR="#555555">none</FONT>', "no key peg")]
        if black_only:  # no white pegs in this game
            items = [items[0], cell(f'<FONT POINT-SIZE="{size}" COLOR="#555555">none</FONT>',
                                    "no key peg (black pegs only)")]
        if summaries:
            items.append(cell(f'{small}<FONT COLOR="#777777">n secrets</FONT></FONT>',
                              "replies not drawn, and the guesses they still need", ' BORDER="1" STYLE="dashed"'
                              ' COLOR="#777777"'))
    if path:
        items.append(cell(f'<FONT POINT-SIZE="{size + 3}" COLOR="{HIGHLIGHT}">\u2501\u2501</FONT>', "the secret's path"))
    lines = "".join(f"<TR><TD>{html.escape(line)}</TD></TR>" for line in title.split("\n"))
    legend = (f'<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="2" CELLPADDING="2"><TR>{"".join(items)}</TR></TABLE>')
    return f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0">{lines}<TR><TD>{legend}</TD></TR></TABLE>>'


def _new_graph(title: str, layout: str, compact: bool, summaries: bool = False, path: bool = False,
               black_only: bool = False):
    import graphviz

    g = graphviz.Digraph("certificate", engine=layout)
    size = 20 if compact and layout == "twopi" else 10
    g.attr(label=_graph_label(title, compact, summaries, path, size, black_only), labelloc="t", fontname=FONT,
           fontsize="16", bgcolor="white", tooltip=title.replace("\n", "; "))
    g.attr("node", fontname=FONT, shape="box", style="rounded,filled", fillcolor="white",
           color="#888888", margin="0.06,0.04")
    g.attr("edge", fontname=FONT, color="#555555", arrowsize="0.6")
    if layout == "dot":
        # Left to right: a guess has up to ~14 replies, so levels are tall, not wide. A compact
        # (big) tree is flat instead: hundreds of leaves read better across a screen than down it.
        g.attr(ordering="out", rankdir="TB" if compact else "LR", nodesep="0.08", ranksep="0.3")
    elif compact:
        # Outer rings hold far more nodes, so they get more room; overlap removal would wreck
        # the rings of a big tree, so nodes may touch there.
        g.attr(root="n", overlap="true", ranksep="2.6:1.6:2.4:3", size="12,12", fontsize="28")
    else:
        g.attr(root="n", overlap="false", ranksep="1.2")
    if compact:
        g.attr("node", shape="circle", style="wedged", label="", fixedsize="true",
               penwidth="0.4", color="#333333")
        g.attr("edge", arrowhead="none", penwidth="0.6", color="#999999")
    return g


def build_graph(cert: dict, depth: int | None = None, secret: str | None = None,
                at: tuple[str, ...] = (), layout: str | None = None, force: bool = False,
                letters: str | None = None):
    """A ``graphviz.Digraph`` of a verified certificate, and facts about it (a dict).

    ``depth`` levels are drawn from the start node (the root, or the node ``at`` reaches);
    each drawn node's cut children become one summary node. ``secret``'s path is always drawn.
    ``layout`` None: dot, or twopi when dot would draw an unreadable strip (``info["note"]`` says
    why); ``layout="dot"`` refuses such a strip unless ``force``. ``letters`` (one per colour, as
    ``play --letters``): pegs show them, in the colours they name (:func:`palette`), and
    ``secret`` is typed in them.
    """
    if layout is not None and layout not in LAYOUTS:
        raise CertifyError(f"unknown layout {layout!r} (use {' or '.join(LAYOUTS)})")
    game = cert["game"]
    pegs = game["pegs"]
    look = _Look(letters[:game["colors"]] if letters else None)
    everyone = verify.codes(pegs, game["colors"], game["repetition"])
    start, reaching, prefix = _walk(cert, at, everyone)
    path_keys: list[str] = []
    if secret is not None:
        secret = look.code(secret.strip()).lower()
        path_keys = _secret_keys(start, secret, game, everyone, reaching, at, look)

    height = _height(start)
    depth = max(1, min(default_depth(start, layout or "dot") if depth is None else depth, height))
    n_guesses = sum(c for c, _ in _levels(start)[:depth]) + max(0, len(path_keys) + 1 - depth)
    compact = n_guesses > COMPACT_OVER

    if n_guesses > MAX_DRAWN:
        fits = _fitting_depth(start, MAX_DRAWN)
        raise CertifyError(f"{n_guesses} guesses are too many for one picture (limit {MAX_DRAWN}; Graphviz "
                           f"would run for minutes): draw --depth {fits} or a subtree with --at, "
                           f"or browse the whole tree with 'certify html'")
    layout, note, size = _choose_layout(start, depth, height, layout, force)
    title = f"{shown(cert['strategy']['name'], 80)} on {_game_text(game)}"
    if look.letters:
        title += f" ({' '.join(look.letters)})"
    if prefix:  # one notation, the tooltips' and the book's: guess -(key)-> guess
        prefix = [(look.name(g), k) for g, k in prefix]
        title += f", the subtree at {_path_text(prefix)} {look.name(start['guess'])}"
    what = "levels" if height > 1 else "level"
    title += ": " + (f"all {height} {what}" if depth >= height else f"the first {depth} of {height} levels")
    needed = len(prefix) + len(path_keys) + 1 if secret is not None else None
    if secret is not None:
        title += f"\nsecret {look.name(secret)}: found in {needed} guess{'es' if needed > 1 else ''}"
    g = _new_graph(title, layout, compact, summaries=depth < height, path=secret is not None,
                   black_only=game.get("feedback") == "black-only")
    score = answer(game)

    drawn = summaries = on_path = not_candidates = 0
    # Stack entries: node, its name, the secrets reaching it, its level, steps from the root,
    # and whether the secret's path runs through it.
    stack = [(start, "n", reaching, 1, prefix, secret is not None)]
    while stack:
        node, name, here, level, steps, is_path = stack.pop()
        guess = node["guess"]
        drawn += 1
        where = _path_text(steps) + (" " if steps else "") + look.name(guess)
        tip = f"{where}\n{len(here)} candidate{'s' if len(here) != 1 else ''} left"
        candidate = guess in here
        if candidate:
            tip += f", {look.name(guess)} itself among them"
        else:
            tip += f"; {look.name(guess)} is not a candidate (it cannot be the secret)"
            not_candidates += 1
        attrs = {"tooltip": tip, "class": "guess" if candidate else "guess not-candidate"}
        if compact:
            attrs["fillcolor"] = ":".join(f"{look.color(ch)};{1 / pegs:.4f}" for ch in guess)
            if is_path and guess == secret:
                attrs["xlabel"] = f"found in {needed} guess{'es' if needed != 1 else ''}"
                attrs["fontcolor"] = HIGHLIGHT
            width = max(0.12, 0.5 * 0.7 ** (level - 1))  # smaller further out
            attrs["width"] = f"{max(width, 0.25) if is_path else width:.2f}"
        else:
            end = needed if is_path and guess == secret else None
            attrs["label"] = _guess_label(guess, len(here), candidate, end, candidate, look)
        if is_path:
            on_path += 1
            attrs.update(color=HIGHLIGHT, penwidth="3", **{"class": attrs["class"] + " path"})
            if not compact:
                attrs["fillcolor"] = "#FCE4F1"
        g.node(name, **attrs)

        branches = node.get("next", {})
        if not branches:
            continue
        groups = _split(guess, here, score)
        path_key = path_keys[level - 1] if is_path and level <= len(path_keys) else None
        kept = [(k, c) for k, c in branches.items() if level < depth or k == path_key]
        cut = [(k, c) for k, c in branches.items() if not (level < depth or k == path_key)]
        for key, _ in kept:
            _edge(g, name, f"{name}/{key}", key, compact, key == path_key)
        for key, child in reversed(kept):
            stack.append((child, f"{name}/{key}", groups[key], level + 1, steps + [(look.name(guess), key)],
                          key == path_key))
        if cut:
            summaries += 1
            _summary(g, name, where, cut, groups, compact, partial=bool(kept))

    info = {"guess_nodes": drawn, "summary_nodes": summaries, "depth": depth, "height": height,
            "compact": compact, "path_nodes": on_path, "guesses_needed": needed,
            "not_candidate_nodes": not_candidates,
            "start": start["guess"], "layout": layout, "estimated_px": size, "note": note}
    return g, info


def _summary(g, parent: str, where: str, cut, groups, compact: bool, partial: bool = False) -> None:
    """One node standing for the cut subtrees of ``parent`` (``partial``: some replies are drawn)."""
    secrets = sum(len(groups[k]) for k, _ in cut)
    more = max(_height(c) for _, c in cut)
    other = "other " if partial else ""
    text = (f"{secrets} {other}secret{'s' if secrets != 1 else ''},\n"
            f"at most {more} more guess{'es' if more != 1 else ''}")
    keys = " ".join(k for k, _ in cut)
    attrs = {"tooltip": f"{where} -({keys})->\n{text.replace(chr(10), ' ')}", "class": "summary"}
    if compact:
        attrs.update(shape="point", width="0.08", color="#999999", fillcolor="#999999")
    else:
        attrs.update(label=text, shape="box", style="rounded,dashed", fontsize="10", color="#777777",
                     fontcolor="#333333")
    g.node(f"{parent}/...", **attrs)
    # minlen 2: the summary stands where the children would, past the key-peg labels.
    g.edge(parent, f"{parent}/...", style="dashed", tooltip=f"feedback {keys}", color="#999999",
           minlen="1" if compact else "2")


def render(cert: dict, out, depth: int | None = None, secret: str | None = None,
           at: tuple[str, ...] = (), layout: str | None = None, inputs=(), force: bool = False,
           letters: str | None = None) -> dict:
    """Draw a verified certificate into ``out`` (format from its extension); return facts
    (``layout``: the one drawn, ``note``: why it is not the one asked for; see build_graph)."""
    import graphviz

    from .files import write_output

    fmt = output_format(out)
    g, info = build_graph(cert, depth, secret, at, layout, force, letters)
    layout = info["layout"]
    if fmt == "dot":
        data = g.source.encode()
    else:
        try:
            data = g.pipe(format=fmt, engine=layout, quiet=True)
        except graphviz.ExecutableNotFound:
            raise CertifyError(f"Graphviz's {layout!r} program is not installed: {INSTALL_DOT}") from None
        except graphviz.CalledProcessError as e:
            msg = (e.stderr or b"").decode(errors="replace").strip().splitlines()
            raise CertifyError(f"{layout} failed: {msg[0] if msg else e}") from None
    write_output(out, data, inputs)
    info.update(file=str(out), format=fmt, bytes=len(data))
    return info
