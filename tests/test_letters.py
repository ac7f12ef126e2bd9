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

from selenium.webdriver.common.by import By
from test_html import console_errors, driver, open_page, reaching, secret_path  # noqa: F401

from certify import render, verify
from certify.__main__ import main
from certify.play import Console, parse_letters

ROOT = Path(__file__).resolve().parents[1]
KNUTH = ROOT / "certificates" / "knuth-4x6.json"
SMALL = ROOT / "certificates" / "knuth-3x3.json"
WHY = ROOT / "certificates" / "bounds" / "worst-case-3x3.json"
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
     "'RGBZ' is not a code of the game: colour 'Z' is not one of R G B Y O P"),
    (["render", KNUTH, "--book", "--letters", "RGB", "-o", "{tmp}/x.pdf"], "3 letters for 6 colours"),
    (["explain", KNUTH, "RGBY", "--letters", "RGBYOR"], "repeated"),
    (["explain", KNUTH, "RGB", "--letters", "RGBYOP"], "'RGB' is not a code of the game (4 pegs x 6 colours): "
                                                       "it needs 4 pegs, not 3"),
    (["explain", KNUTH, "0123", "--letters", "RGBYOP"], "colour '0' is not one of R G B Y O P"),
    (["hint", "RGBX=1,0", "--letters", "RGBYOP"], "answer 'RGBX=1,0': 'RGBX' is not a code of 4x6: colour 'X'"),
    (["hint", "RGBY=1,0", "--letters", "RGBYO"], "5 letters for 6 colours"),
    (["consistent", "RGBB=1,0", "--no-repetition", "--letters", "RGBYOP"], "a colour is repeated"),
])
def test_bad_letters_are_one_line(tmp_path, capsys, args, message):
    assert run(*[str(a).replace("{tmp}", str(tmp_path)) for a in args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert not list(tmp_path.iterdir())


def test_page_pegs_show_letters_in_their_colours(driver, tmp_path):
    """In a real browser (chromium, as tests/test_html.py): the pegs show the letters, each on its
    colour, and the search box takes a secret typed in letters."""
    letters = "RXBQOP"
    page = tmp_path / "p.html"
    assert run("html", KNUTH, "--letters", letters, "-o", page) == 0
    d = driver
    open_page(d, page)
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
    path = ["".join(letters[int(ch)] for ch in g) for g in secret_path(cert, secret)]
    assert status == f"{named} is found in {len(path)} guesses: " + " \u2192 ".join(path)
    assert console_errors(d) == []


# -- every command: letters in, letters out ------------------------------------------------------
#
# Each command runs twice on knuth's 3x3 game: once with the game's digits, once with --letters RGB
# and every code it reads typed in letters. The second output must be the first with every code
# written in the letters (nothing else changed), and no code in digits may be left in it.

LETTERS = "RGB"
CODE = re.compile(r"(?<![0-9A-Za-z])[0-2]{3}(?![0-9A-Za-z])")  # a code of 3x3 in the game's digits


def named(text: str) -> str:
    """``text`` with every 3x3 code in it written in LETTERS."""
    return CODE.sub(lambda m: "".join(LETTERS[int(ch)] for ch in m.group()), text)


def typed(arg):
    """A command's argument as typed with letters: a code ("2 1 0") or a clue's guess ("001=0,2")."""
    if not isinstance(arg, str):
        return arg
    guess, sep, answer = arg.partition("=")
    if CODE.fullmatch("".join(guess.split())):
        return "".join(LETTERS[int(ch)] if ch in "012" else ch for ch in guess) + sep + answer
    return arg


def run_captured(capsys, monkeypatch, args, stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    status = run(*args)
    out = capsys.readouterr()
    return status, out.out, out.err


def _codemaker_input() -> str:
    from certify.game import Game
    from certify.play import secret_for

    secret = secret_for(Game(3, 3), 7)
    # a guess, one that the first score rules out (a note), ?, then the secret
    return "\n".join(["001", "222" if secret != "222" else "111", "?", secret]) + "\n"


# (name, arguments with {L} where --letters goes, standard input, the digits' text -> the letters' text)
COMMANDS = [
    ("explain", ["explain", SMALL, "210", "{L}"], "", {}),
    ("explain, spaces between pegs", ["explain", SMALL, "2 1 0", "{L}"], "", {}),
    ("hint", ["hint", "--pegs", "3", "--colors", "3", "001=0,2", "{L}"], "", {}),
    ("hint after two rows", ["hint", "--pegs", "3", "--colors", "3", "001=0,1", "112=1,1", "{L}"], "", {}),
    ("hint --certificate", ["hint", "--certificate", SMALL, "001=1,0", "{L}"], "", {}),
    ("hint contradiction", ["hint", "--pegs", "3", "--colors", "3", "001=3,0", "000=0,0", "{L}"], "", {}),
    ("hint --table", ["hint", "--pegs", "3", "--colors", "3", "001=1,0", "--table", "--sort", "weight", "{L}"],
     "", {"* = least weight (1)\n": "* = least weight (1)\ncodes written in the letters R G B\n"}),
    ("hint --table --csv", ["hint", "--pegs", "3", "--colors", "3", "001=1,0", "--table", "--csv", "{L}"], "", {}),
    ("hint --table --up-to-symmetry",
     ["hint", "--pegs", "3", "--colors", "3", "--table", "--up-to-symmetry", "{L}"],
     "", {"codes = how many codes\n": "codes = how many codes\ncodes written in the letters R G B\n"}),
    ("consistent", ["consistent", "--pegs", "3", "--colors", "3", "001=0,1", "{L}"], "", {}),
    ("consistent, contradiction", ["consistent", "--pegs", "3", "--colors", "3", "001=0,1", "122=0,0",
                                   "{L}"], "", {}),
    ("play, found", ["play", SMALL, "{L}"], "0,2\n1,2\n3,0\n", {"colours 0..2": "colours R G B"}),
    ("play, contradiction and the secret", ["play", SMALL, "{L}"], "0,1\n0,0\n222\n",
     {"colours 0..2": "colours R G B"}),
    ("play, bad input then undo", ["play", SMALL, "{L}"], "0,1\n3,1\nu\nu\n1,0\nq\n",
     {"colours 0..2": "colours R G B"}),
    ("play --auto", ["play", "--auto", SMALL, "--secret", "210", "{L}"], "", {}),
    ("play --codemaker", ["play", "--codemaker", "--pegs", "3", "--colors", "3", "--seed", "7", "{L}"],
     _codemaker_input(), {"colours 0..2": "colours R G B"}),
    ("why", ["why", WHY, "--depth", "2", "-q", "{L}"], "", {}),
]


@pytest.mark.parametrize("name, args, stdin, also", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_every_command_reads_and_shows_letters(capsys, monkeypatch, name, args, stdin, also):
    plain = [a for a in args if a != "{L}"]
    status, out, err = run_captured(capsys, monkeypatch, plain, stdin)
    lettered = [x for a in args for x in (["--letters", LETTERS] if a == "{L}" else [typed(a)])]
    status_l, out_l, err_l = run_captured(capsys, monkeypatch, lettered, named(stdin))
    assert status_l == status, (out_l, err_l)
    expected_out, expected_err = named(out), named(err)
    for digits, letters in also.items():
        expected_out = expected_out.replace(digits, letters)
    assert CODE.search(out + err), "the digits' run shows no code: nothing is tested"
    assert out_l == expected_out and err_l == expected_err
    assert not CODE.search(out_l + err_l)


def test_json_keeps_the_games_codes_and_names_the_letters(capsys, monkeypatch):
    for args in (["explain", SMALL, "{C}", "--json"],
                 ["hint", "--pegs", "3", "--colors", "3", "{C}=0,2", "--json"],
                 ["hint", "--pegs", "3", "--colors", "3", "{C}=0,2", "--table", "--json"],
                 ["consistent", "--pegs", "3", "--colors", "3", "{C}=0,2", "--json"],
                 ["why", WHY, "--depth", "2", "-q", "--json"]):
        status, out, err = run_captured(capsys, monkeypatch, [str(a).replace("{C}", "201") for a in args])
        assert status == 0, err
        status, out_l, err = run_captured(capsys, monkeypatch,
                                          [str(a).replace("{C}", "BRG") for a in args] + ["--letters", "RGBY"])
        assert status == 0, err
        doc, doc_l = json.loads(out), json.loads(out_l)
        assert doc_l.pop("letters") == "RGB"  # the letters past the game's colours are dropped
        assert doc_l == doc


def test_why_page_in_letters(tmp_path, capsys, monkeypatch):
    """why --html: the page with letters is the page without, every code in letters."""
    plain, lettered = tmp_path / "plain.html", tmp_path / "letters.html"
    assert run_captured(capsys, monkeypatch, ["why", WHY, "--depth", "2", "-q", "--html", plain])[0] == 0
    assert run_captured(capsys, monkeypatch, ["why", WHY, "--depth", "2", "-q", "--html", lettered,
                                              "--letters", LETTERS])[0] == 0
    head, body = plain.read_text(encoding="utf-8").split("<body>")  # (the style's #222 is no code)
    assert CODE.search(body)
    assert lettered.read_text(encoding="utf-8") == head + "<body>" + named(body)


def test_the_answer_notation_is_numbers_only(capsys, monkeypatch):
    """With letters, no help line, prompt or error writes an answer as letters ("B,W"): B is blue."""
    status, out, err = run_captured(capsys, monkeypatch, ["play", SMALL, "--letters", "RGB"], "?\nB,W\nq\n")
    assert status == 0
    assert "answer each guess with black,white" in out
    assert "'B,W' is not an answer: write black,white as two numbers (2,1, 2 1 or 21" in out
    said = out.replace("answer? B,W", "").replace("'B,W'", "")  # the person's own words, echoed
    assert "B,W" not in said and not re.search(r"\b[BW] ?=", said), said
    status, out, err = run_captured(capsys, monkeypatch,
                                    ["play", "--codemaker", "--seed", "1", "--letters", "RGBYOP"], "q\n")
    assert "Each guess is scored black,white: black = pegs of the right colour in the right place" in out
    assert "B,W" not in out and not re.search(r"\b[BW] ?=", out), out


# -- the page: every mode's messages in letters ----------------------------------------------------
#
# Screenshots of each state are saved in build/screenshots/ (not committed) to be looked at.

SHOTS = ROOT / "build" / "screenshots"
PAGE_LETTERS = "RGBYOP"
CODE46 = re.compile(r"(?<![0-9A-Za-z])[0-5]{4}(?![0-9A-Za-z])")  # a 4x6 code in the game's digits


def named46(code: str) -> str:
    return "".join(PAGE_LETTERS[int(ch)] for ch in code)


@pytest.fixture(scope="module")
def letters_page(tmp_path_factory):
    out = tmp_path_factory.mktemp("letters") / "knuth-4x6-letters.html"
    assert run("html", KNUTH, "--letters", PAGE_LETTERS, "-o", out) == 0
    return out


def _shot(d, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    d.save_screenshot(str(SHOTS / name))


def _click_reply(d, key):
    d.find_element(By.CSS_SELECTOR, f'#replies button[data-key="{key}"]').click()


def _page_text(d) -> str:
    """Every text of the page a person reads (and the titles a pointer shows), scripts left out."""
    return d.execute_script("""
        var out = [];
        (function walk(n) {
          if (n.nodeType === 3) { out.push(n.data); return; }
          if (n.nodeType !== 1 || n.tagName === "SCRIPT") return;
          if (n.title) out.push(n.title);
          if (n.placeholder) out.push(n.placeholder);
          for (var c = n.firstChild; c; c = c.nextSibling) walk(c);
        })(document.body);
        return out.join("|");""")


def test_page_play_won_game_in_letters(driver, letters_page):
    cert = json.loads(KNUTH.read_text())
    d = driver
    open_page(d, letters_page)
    d.find_element(By.ID, "playbtn").click()
    secret = "5243"
    path = secret_path(cert, secret)
    for guess in path:
        assert "".join(p.text for p in d.find_elements(By.CSS_SELECTOR, "#playguess .peg")) == named46(guess)
        _click_reply(d, "%d,%d" % verify.feedback(guess, secret))
    status = d.find_element(By.ID, "playstatus").text
    assert status == f"Found your secret {named46(secret)} in {len(path)} guesses."
    history = ["".join(p.text for p in li.find_elements(By.CSS_SELECTOR, ".peg"))
               for li in d.find_elements(By.CSS_SELECTOR, "#history li")]
    assert history == [named46(g) for g in path]
    _shot(d, "letters-play-won.png")
    assert not CODE46.search(_page_text(d))
    assert console_errors(d) == []


def test_page_play_contradiction_in_letters(driver, letters_page):
    cert = json.loads(KNUTH.read_text())
    d = driver
    open_page(d, letters_page)
    d.find_element(By.ID, "playbtn").click()
    root, everyone = cert["tree"], verify.codes(4, 6, True)
    allkeys = [f"{b},{w}" for b in range(5) for w in range(5 - b) if (b, w) != (3, 1)]
    first, impossible = next(
        (k, bad) for k, child in root["next"].items() for bad in allkeys
        if bad not in {"%d,%d" % verify.feedback(child["guess"], s)
                       for s in reaching([(root["guess"], k)], everyone)})
    second = root["next"][first]["guess"]
    _click_reply(d, first)
    _click_reply(d, impossible)
    status = d.find_element(By.ID, "playstatus").text
    b, w = impossible.split(",")
    assert status == (f"Contradiction: no secret gives all these replies (reply 2 to {named46(second)}, "
                      f"{b} black, {w} white, cannot follow the earlier ones). Undo it or start again.")
    _shot(d, "letters-play-contradiction.png")
    assert not CODE46.search(_page_text(d))
    assert console_errors(d) == []


def test_page_search_and_you_guess_in_letters(driver, letters_page):
    d = driver
    open_page(d, letters_page)
    search = d.find_element(By.ID, "search")
    assert not CODE46.search(search.get_attribute("placeholder"))
    search.send_keys("RGBX\n")
    assert d.find_element(By.ID, "status").text == "RGBX: 'X' is not a colour: use R G B Y O P"
    search.clear()
    search.send_keys("RGB\n")
    assert d.find_element(By.ID, "status").text == "RGB: a secret has 4 pegs (you typed 3)"
    d.find_element(By.ID, "guessbtn").click()
    secret = "0123"
    d.execute_script("window.__certifyTest.setSecret(arguments[0])", secret)  # the hook takes digits
    for guess in ("0011", "5555", "0123"):
        box = d.find_element(By.ID, "cmtype")
        box.clear()
        box.send_keys(named46(guess).lower() + "\n")
    rows = d.find_elements(By.CSS_SELECTOR, "#board > li:not(.end)")
    assert len(rows) == 3
    assert "note: PPPP could not be the secret: row 1 (RRGG)" in rows[1].text
    text = d.find_element(By.ID, "cmstatus").text
    assert text.startswith(f"You found {named46(secret)} in 3 guesses. knuth finds it in ")
    _shot(d, "letters-you-guess-won.png")
    assert not CODE46.search(_page_text(d))
    assert console_errors(d) == []



# -- the book ----------------------------------------------------------------------------------------

def _near(image, colour, tolerance: int = 12) -> int:
    """How many pixels of ``image`` (RGB) are within ``tolerance`` of ``colour`` in every channel."""
    import numpy as np

    a = np.asarray(image.convert("RGB"), dtype=np.int16)
    return int((np.abs(a - np.array(rgb(colour))) <= tolerance).all(axis=2).sum())


def test_book_shows_letters_in_their_colours(tmp_path):
    """render --book --letters: every title, subtitle and footer is the digits' book with each code
    in letters, no code is left in digits, and the pegs are drawn in the letters' colours (page 1
    rasterised with pdfium and saved in build/screenshots/)."""
    import pypdfium2
    from pypdf import PdfReader

    plain, lettered = tmp_path / "plain.pdf", tmp_path / "letters.pdf"
    assert run("render", SMALL, "--book", "-q", "-o", plain) == 0
    assert run("render", SMALL, "--book", "-q", "--letters", LETTERS, "-o", lettered) == 0
    pages = [p.extract_text() for p in PdfReader(plain).pages]
    pages_l = [p.extract_text() for p in PdfReader(lettered).pages]
    assert len(pages_l) == len(pages) == 7
    for text, text_l in zip(pages, pages_l):
        heads, heads_l = text.splitlines()[:3], text_l.splitlines()[:3]  # title, subtitle, footer
        assert heads_l == [named(line).replace("3 colours", "3 colours (R G B)") for line in heads]
        assert not CODE.search(text_l)
    assert pages_l[1].startswith("RRG -(0,1)-> GBB\n4 secrets reach GBB;")
    again = tmp_path / "again.pdf"
    assert run("render", SMALL, "--book", "-q", "--letters", LETTERS, "-o", again) == 0
    assert again.read_bytes() == lettered.read_bytes()  # deterministic with letters too
    pdf = pypdfium2.PdfDocument(str(lettered))
    image = pdf[0].render(scale=2).to_pil()
    SHOTS.mkdir(parents=True, exist_ok=True)
    image.save(SHOTS / "book-3x3-letters-page1.png")
    plain_image = pypdfium2.PdfDocument(str(plain))[0].render(scale=2).to_pil()
    red, green, blue = render.palette("RGB")
    # R is red, which the digits' book never draws; G and B are the pictures' own green and blue.
    assert _near(image, red) > 2000 and _near(plain_image, red) == 0
    assert _near(image, green) > 500 and _near(image, blue) > 500
    assert _near(image, render.PALETTE[1]) == 0  # the digits' colour 1 (orange) is not drawn
