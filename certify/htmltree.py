"""One self-contained HTML page for a verified certificate: a tree to unfold, a search box, a play
mode, the distribution and the header (issue 15); "You guess": the page keeps a secret drawn in the
browser and scores the class's guesses, then says what the tree needs for it.

The page is one file: the template, the style, the script and the data are all inline, and a
Content-Security-Policy lets only that script and that style run and nothing be fetched, so it
works from ``file://`` with no network. The data is what the verifier checked: the caller passes
the report and the document of :func:`certify.commands.common.load_verified`. Text from the file
goes through :func:`certify.text.shown` and is put in the page as escaped JSON that the script
shows with ``textContent`` only, so a name cannot become markup.

The tree is one string, in preorder: a node is its guess (the code's characters), then its number
of replies, then for each reply the index of its key (in ``keys``) and the child node. Numbers are
``width`` characters of the 64-character alphabet ``B64``. The script rebuilds the tree from it and
replays every secret with its own feedback rule to count the secrets reaching each guess.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from importlib import resources

from .errors import CertifyError
from .text import shown

B64 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_"
_MARK = re.compile(r"\{\{(title|csp|css|js|data)\}\}")

__all__ = ["B64", "encode_tree", "page", "write_html"]


def _asset(name: str) -> str:
    return (resources.files("certify") / "web" / name).read_text(encoding="utf-8")


def _key_order(key: str) -> tuple[int, ...]:
    """Keys sorted numerically: "B,W", or "B" in a black-peg game (so "10" comes after "9")."""
    return tuple(int(n) for n in key.split(","))


def encode_tree(tree: dict) -> tuple[str, list[str], int, int]:
    """(preorder string, keys, number width, node count) of a tree of ``{"guess", "next"}`` dicts."""
    keys: set[str] = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        nxt = node.get("next", {})
        keys.update(nxt)
        stack.extend(nxt.values())
    ordered = sorted(keys, key=_key_order)
    index = {k: i for i, k in enumerate(ordered)}
    width = 1
    while len(B64) ** width <= len(ordered):
        width += 1

    def num(n: int) -> str:
        digits = []
        for _ in range(width):
            n, d = divmod(n, len(B64))
            digits.append(B64[d])
        return "".join(reversed(digits))

    out: list[str] = []
    nodes = 0
    # Iterative preorder (trees may be deep): a string pushed on the stack is written as is.
    stack = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        nodes += 1
        nxt = item.get("next", {})
        out.append(item["guess"] + num(len(nxt)))
        for key, child in reversed(list(nxt.items())):
            stack.append(child)
            stack.append(num(index[key]))
    return "".join(out), ordered, width, nodes


def _json_for_script(obj) -> str:
    """JSON that cannot end its <script> element or open a comment: <, > and & as \\u escapes
    (they only occur inside strings, where the escapes mean the same characters)."""
    text = json.dumps(obj, ensure_ascii=True, separators=(",", ":"), sort_keys=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _digest(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()


def page(report, cert: dict, letters: str | None = None) -> tuple[str, dict]:
    """The page's text for a verified certificate, and facts about it. ``letters`` (one per colour,
    as ``play --letters``): pegs show them, in the colours they name (render.palette)."""
    from .render import PALETTE, palette, text_color

    game = cert["game"]
    if game["colors"] > len(PALETTE):
        raise CertifyError(f"{game['colors']} colours: the page has colours for at most {len(PALETTE)}")
    tree, keys, width, nodes = encode_tree(cert["tree"])
    strategy = cert["strategy"]
    params = strategy.get("params") or {}
    data = {
        "game": {"pegs": game["pegs"], "colors": game["colors"], "repetition": bool(game["repetition"]),
                 # only a black-peg game names its rule: a black-and-white page's data stays as it was
                 **({"feedback": "black-only"} if game.get("feedback") == "black-only" else {})},
        "name": shown(strategy["name"], 200),
        "params": shown(json.dumps(params, sort_keys=True, ensure_ascii=False), 400) if params else "",
        "reference": shown(strategy.get("reference") or "", 600),
        "claims": cert["claims"],
        "verified": report.replayed,
        "palette": [[c, text_color(c)] for c in palette(letters)[:game["colors"]]],
        "letters": (letters or "")[:game["colors"]],
        "alphabet": "0123456789abcdefghijklmnopqrstuvwxyz"[:game["colors"]],
        "keys": keys,
        "width": width,
        "b64": B64,
        "nodes": nodes,
        "tree": tree,
    }
    css, js = _asset("tree.css"), _asset("tree.js")
    for name, text in (("tree.css", css), ("tree.js", js)):
        if "</" in text or "<!--" in text:  # would end the element early
            raise CertifyError(f"certify/web/{name} must not contain '</' or '<!--' (it would end its element)")
    csp = (f"default-src 'none'; script-src '{_digest(js)}'; style-src '{_digest(css)}'; "
           "img-src data:; base-uri 'none'; form-action 'none'")
    parts = {
        "title": html.escape(f"{shown(strategy['name'], 80)} — {game['pegs']} pegs x {game['colors']} colours"
                             + (", black pegs only" if game.get("feedback") == "black-only" else "")),
        "csp": html.escape(csp),
        "css": css,
        "js": js,
        "data": _json_for_script(data),
    }
    # One pass, so nothing inserted is scanned for markers again.
    text = _MARK.sub(lambda m: parts[m.group(1)], _asset("page.html"))
    return text, {"nodes": nodes, "tree_chars": len(tree)}


def write_html(report, cert: dict, out, inputs=(), letters: str | None = None) -> dict:
    """Write the page of a verified certificate to ``out``; return facts (bytes, nodes)."""
    from .files import write_output

    text, info = page(report, cert, letters)
    data = text.encode("utf-8")
    write_output(out, data, inputs)
    info.update(file=str(out), bytes=len(data))
    return info
