"""A static game on one HTML page (issue 37, item 4, the static half): every question asked at
once, as rows of pegs, then the answer table (each secret's answers and the final guess), with a
box that finds the row of the answers typed. Drawn only from a certificate the trusted checker
accepted (the very bytes it checked); every string from the file escaped."""

from __future__ import annotations

import html
import json

from .errors import CertifyError

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
.row { display: flex; align-items: center; gap: .4em; margin: .25em 0; }
.peg { display: inline-flex; width: 1.6em; height: 1.6em; border-radius: 50%; align-items: center;
       justify-content: center; font-size: .8em; border: 1px solid #444; }
.key { font-family: monospace; letter-spacing: .1em; }
table { border-collapse: collapse; margin-top: 1em; }
td, th { border: 1px solid #ccc; padding: .2em .5em; text-align: center; }
tr.hidden { display: none; }
"""

_SCRIPT = """
const box = document.getElementById('find');
box.addEventListener('input', () => {
  const want = box.value.trim().split(/\\s+/).filter(Boolean);
  for (const tr of document.querySelectorAll('tbody tr')) {
    const got = tr.dataset.answers.split(' ');
    tr.classList.toggle('hidden', want.some((w, i) => got[i] !== w));
  }
});
"""


def _pegs(code: str, colours, letters: str | None = None) -> str:
    """A code as pegs in the colours of render.palette (the other pages' convention), each showing
    its digit, or its letter with --letters."""
    from .render import text_color

    out = []
    for ch in code:
        k = int(ch, 36)
        colour, shown = colours[k], letters[k] if letters else ch
        out.append(f'<span class="peg" style="background:{colour};color:{text_color(colour)}">{html.escape(shown)}</span>')
    return "".join(out)


def _keys(answer: str) -> str:
    """An answer as key pegs: one filled circle a black, one open circle a white, then the numbers."""
    parts = [int(x) for x in answer.split(",")]
    black, white = parts[0], parts[1] if len(parts) > 1 else 0
    return f'<span class="key">{"●" * black}{"○" * white}</span> {html.escape(answer)}'


def page(raw: bytes, name: str = "<bytes>", report=None, letters: str | None = None) -> str:
    """The page of a static certificate's bytes, after the trusted checker accepted them (``report``:
    its report of these very bytes, when the caller already checked them). ``letters`` (one per
    colour, as ``html --letters``): pegs show them, in the colours they name (render.palette)."""
    from . import verify_static
    from .render import PALETTE, palette

    report = report or verify_static.check_bytes(raw, name)
    if not report.valid or report.kind != verify_static.CERTIFICATE:
        raise CertifyError(report.line() if not report.valid else f"{report.file}: not a static certificate")
    from .reader import text

    doc = json.loads(text(raw, verify_static.MAX_BYTES))  # (the bytes the checker read, gzip or not)
    game, questions, table = doc["game"], doc["questions"], doc["table"]
    if game["colors"] > len(PALETTE):
        raise CertifyError(f"{game['colors']} colours: the page has colours for at most {len(PALETTE)}")
    colours = palette(letters)
    rule = game.get("feedback", "black-white")
    title = (f"Static Mastermind {game['pegs']}x{game['colors']}"
             + ("" if game["repetition"] else " without repetition")
             + (" (black pegs only)" if rule == "black-only" else ""))
    lines = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">', f"<title>{html.escape(title)}</title>",
             f"<style>{_STYLE}</style></head><body>", f"<h1>{html.escape(title)}</h1>",
             f"<p>{len(questions)} questions are asked at once; their answers tell every one of the "
             f"{report.secrets} secrets apart, so the final guess always wins: {len(questions) + 1} guesses "
             f"(checked by certify/verify_static.py).</p>",
             "<h2>The questions, asked at once</h2>"]
    for i, q in enumerate(questions, 1):
        lines.append(f'<div class="row"><span>{i}.</span>{_pegs(q, colours, letters)}</div>')
    lines += ["<h2>The answers, then the final guess</h2>",
              '<p><label>Answers (' + ("black,white" if rule == "black-white" else "blacks")
              + ' for each question, separated by spaces): <input id="find" size="40"></label></p>',
              "<table><thead><tr>" + "".join(f"<th>{i}</th>" for i in range(1, len(questions) + 1))
              + "<th>final guess</th></tr></thead><tbody>"]
    for vector, final in table:
        answers = vector.split(" ") if vector else []
        cells = "".join(f"<td>{_keys(a)}</td>" for a in answers)
        lines.append(f'<tr data-answers="{html.escape(vector)}">{cells}<td>{_pegs(final, colours, letters)}</td></tr>')
    lines += ["</tbody></table>", f"<script>{_SCRIPT}</script>", "</body></html>", ""]
    return "\n".join(lines)
