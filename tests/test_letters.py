"""`--letters`: a letter that names a colour is drawn in it, the same in the terminal (play), the
pictures (render) and the page (html); letters naming none keep distinct colours.

Colours are read back from what each output really holds: the terminal's 24-bit escape codes, the
fill of the SVG cell under each letter (drawn by Graphviz), the DOT source's discs and the page's
data block.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from certify import render
from certify.__main__ import main
from certify.play import Console, parse_letters

ROOT = Path(__file__).resolve().parents[1]
KNUTH = ROOT / "certificates" / "knuth-4x6.json"
SMALL = ROOT / "certificates" / "knuth-3x3.json"
SVG = "{http://www.w3.org/2000/svg}"
ESCAPE = re.compile(r"\x1b\[\d+;48;2;(\d+);(\d+);(\d+)m (\w) \x1b\[0m")


def rgb(hex_color: str) -> tuple[int, int, int]:
    return tuple(int(hex_color[i:i + 2], 16) for i in (1, 3, 5))


def is_red(c) -> bool:
    r, g, b = c
    return r >= 180 and g <= 80 and b <= 80


def run(*args) -> int:
    try:
        return main([str(a) for a in args])
    except SystemExit as e:
        return e.code


def terminal_colours(letters: str, code: str) -> dict[str, tuple[int, int, int]]:
    """{letter: RGB} of the pegs play draws on a terminal."""
    shown = Console(io.StringIO(), io.StringIO(), colour=True, letters=letters).code(code)
    pegs = ESCAPE.findall(shown)
    assert len(pegs) == len(code)
    out = {}
    for r, g, b, letter in pegs:
        assert out.setdefault(letter, (int(r), int(g), int(b))) == (int(r), int(g), int(b))
    return out


def svg_colours(path: Path) -> dict[str, tuple[int, int, int]]:
    """{letter: RGB}: each one-character text of the picture and the filled cell drawn under it."""
    out: dict[str, tuple[int, int, int]] = {}
    fill = None
    for el in ET.parse(path).iter():
        if el.tag == f"{SVG}path" and el.get("stroke") == "transparent":
            fill = el.get("fill")
        elif el.tag == f"{SVG}text" and el.text and len(el.text) == 1 and fill:
            assert out.setdefault(el.text, rgb(fill)) == rgb(fill), el.text
            fill = None
    return out


def page_data(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    return json.loads(re.search(r'<script type="application/json" id="data">(.*?)</script>', text, re.S).group(1))


def test_named_letters_take_their_colours_and_the_others_stay_distinct():
    assert is_red(rgb(render.palette("RGBYOP")[0]))
    assert render.palette("rgbyop") == render.palette("RGBYOP")
    assert render.palette(None) == render.PALETTE == render.palette("")
    for letters in ["RGBYOP", "XRQBZ", "0123456789", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
                    "R1O2Y3", "WKNQ"]:
        colours = render.palette(letters)
        assert len(colours) == len(letters) and len(set(colours)) == len(letters), letters
        for ch, c in zip(letters, colours):
            assert c == render.LETTER_COLOURS.get(ch.upper(), c)
    # A letter naming no colour avoids hues close to the named ones: not vermillion beside red.
    assert "#D55E00" not in render.palette("RX")
    assert render.palette("XYZ")[0] == render.PALETTE[0]  # X names nothing: the pictures' first colour
    # Extra letters take no colour: the palette is the game's letters only.
    assert parse_letters("RGBYOPWK", 6) == "RGBYOP"


def test_terminal_pegs_show_each_letter_in_its_colour():
    colours = terminal_colours("RGBYOP", "012345")
    assert is_red(colours["R"])
    r, g, b = colours["B"]
    assert b > 150 and b > r + 80  # blue
    r, g, b = colours["G"]
    assert g > r + 80 and g > b  # green
    assert len(set(colours.values())) == 6
    assert {k: rgb(c) for k, c in zip("RGBYOP", render.palette("RGBYOP"))} == colours


def test_render_page_and_terminal_agree(tmp_path, capsys):
    letters = "RXBQOP"  # X and Q name no colour
    dot = tmp_path / "t.dot"
    assert run("render", KNUTH, "--letters", letters, "--layout", "twopi", "-o", dot) == 0
    source = dot.read_text()
    # The radial discs: the root 0011 is two reds, then two of X's colour.
    expected = render.palette(letters)
    assert f'fillcolor="{expected[0]};0.2500:{expected[0]};0.2500:{expected[1]};0.2500:{expected[1]};0.2500"' in source
    assert "knuth on 4 pegs x 6 colours (R X B Q O P)" in source
    page = tmp_path / "p.html"
    assert run("html", KNUTH, "--letters", letters, "-o", page) == 0
    data = page_data(page)
    assert data["letters"] == letters
    assert [c for c, _ in data["palette"]] == list(expected)
    assert is_red(rgb(data["palette"][0][0]))
    term = terminal_colours(letters, "012345")
    assert term == {ch: rgb(c) for ch, c in zip(letters, expected)}
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not on the PATH: the SVG's cells were not checked")
    svg = tmp_path / "t.svg"
    # --secret in letters, as play reads them: 3132 is "QXQB".
    assert run("render", KNUTH, "--letters", letters, "--secret", "QXQB", "-o", svg) == 0
    assert "secret found in" in capsys.readouterr().out
    drawn = svg_colours(svg)
    assert set(drawn) <= set(letters) and {"R", "X"} <= set(drawn)
    assert drawn == {ch: term[ch] for ch in drawn}
    assert is_red(drawn["R"])
    assert "secret QXQB: found in 4 guesses" in svg.read_text()


def test_without_letters_nothing_changes(tmp_path):
    dot = tmp_path / "d.dot"
    assert run("render", SMALL, "-o", dot) == 0
    source = dot.read_text()
    assert f'BGCOLOR="{render.PALETTE[0]}"' in source and "<B>0</B>" in source
    page = tmp_path / "p.html"
    assert run("html", SMALL, "-o", page) == 0
    data = page_data(page)
    assert data["letters"] == "" and [c for c, _ in data["palette"]] == list(render.PALETTE[:3])


@pytest.mark.parametrize("args, message", [
    (["render", KNUTH, "--letters", "RGB", "-o", "{tmp}/x.svg"], "3 letters for 6 colours"),
    (["render", KNUTH, "--letters", "RGBYOR", "-o", "{tmp}/x.svg"], "repeated"),
    (["html", KNUTH, "--letters", "RGBYO\u00c9", "-o", "{tmp}/x.html"], "ASCII"),
    (["html", KNUTH, "--letters", "RGB", "-o", "{tmp}/x.html"], "3 letters for 6 colours"),
    (["render", KNUTH, "--letters", "RGBYOP", "--secret", "RGBZ", "-o", "{tmp}/x.svg"],
     "'Z' is not one of the --letters"),
    (["render", KNUTH, "--book", "--letters", "RGBYOP", "-o", "{tmp}/x.pdf"], "do not apply"),
])
def test_bad_letters_are_one_line(tmp_path, capsys, args, message):
    assert run(*[str(a).replace("{tmp}", str(tmp_path)) for a in args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert not list(tmp_path.iterdir())


def test_page_pegs_show_letters_in_their_colours(tmp_path):
    """In a real browser (chromium, as tests/test_html.py): the pegs show the letters, each on its
    colour, and the search box takes a secret typed in letters."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    from certify import verify

    letters = "RXBQOP"
    page = tmp_path / "p.html"
    assert run("html", KNUTH, "--letters", letters, "-o", page) == 0
    browser, driver_path = shutil.which("chromium") or shutil.which("chromium-browser"), shutil.which("chromedriver")
    assert browser and driver_path, "chromium or chromedriver is missing: run 'make browser'"
    options = Options()
    options.binary_location = browser
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(arg)
    d = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        d.get(page.as_uri())
        root = d.find_element(By.CSS_SELECTOR, '.row[data-id="0"]')
        pegs = root.find_elements(By.CSS_SELECTOR, ".peg")
        expected = render.palette(letters)
        shown = [(p.text, p.value_of_css_property("background-color")) for p in pegs]
        # The root 0011: R R X X, each on its letter's colour.
        assert shown == [(letters[int(ch)], "rgba({}, {}, {}, 1)".format(*rgb(expected[int(ch)])))
                         for ch in "0011"]
        assert is_red(rgb(expected[0]))
        secret = "3132"
        named = "".join(letters[int(ch)] for ch in secret)
        d.find_element(By.ID, "search").send_keys(named.lower() + "\n")
        status = d.find_element(By.ID, "status").text
        cert = json.loads(KNUTH.read_text())
        node, path = cert["tree"], []
        while True:
            path.append("".join(letters[int(ch)] for ch in node["guess"]))
            if node["guess"] == secret:
                break
            b, w = verify.feedback(node["guess"], secret)
            node = node["next"][f"{b},{w}"]
        assert status == f"{named} is found in {len(path)} guesses: " + " \u2192 ".join(path)
    finally:
        d.quit()
