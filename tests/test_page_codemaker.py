"""The page as codemaker ("You guess" in `certify html`), in chromium driven by selenium.

The page keeps a random secret; tests fix it with the test hook ``window.__certifyTest.setSecret``
(it starts a new game with that secret and never reads the current one). Every expected figure is
computed here with certify.game's feedback (key pegs, still-possible counts) or read from the
certificate's tree (the strategy's guesses), never from the page's own code. The screenshot test
reads pixels: the key pegs drawn and the peg colours must be what the rows say.
"""

from __future__ import annotations

import io
import json
import random

import numpy as np
import pytest
from PIL import Image
from selenium.webdriver.common.by import By
from test_html import CERT, ROOT, console_errors, driver, open_page, run, secret_path  # noqa: F401

from certify.game import Game
from certify.render import PALETTE, palette

GAME = Game(4, 6)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    out = tmp_path_factory.mktemp("codemaker") / "knuth-4x6.html"
    assert run("html", CERT, "-o", out) == 0
    return out


@pytest.fixture(scope="module")
def cert():
    return json.loads(CERT.read_text())


def key_of(game: Game, guess: str, secret: str) -> str:
    return "%d,%d" % game.decode(game.feedback([game.parse(guess)], [game.parse(secret)])[0, 0])


def still_possible(game: Game, rows) -> int:
    """How many codes give every (guess, key) of ``rows``, with certify.game's feedback."""
    alive = np.ones(game.size, dtype=bool)
    everyone = np.arange(game.size)
    for guess, key in rows:
        b, w = map(int, key.split(","))
        alive &= game.feedback([game.parse(guess)], everyone)[0] == game.encode(b, w)
    return int(alive.sum())


def start(d, secret, rows=None):
    if rows is not None:
        if not d.find_element(By.ID, "codemaker").is_displayed():
            d.find_element(By.ID, "guessbtn").click()
        box = d.find_element(By.ID, "cmrows")
        box.clear()
        box.send_keys(str(rows))
    d.execute_script("window.__certifyTest.setSecret(arguments[0])", secret)


def click_code(d, code, names="0123456789"):
    for ch in code:
        d.find_element(By.CSS_SELECTOR, f'#cmcolours button[data-colour="{names.index(ch)}"]').click()
    d.find_element(By.ID, "cmguess").click()


def type_code(d, text):
    box = d.find_element(By.ID, "cmtype")
    box.clear()
    box.send_keys(text + "\n")


def board_rows(d):
    return d.find_elements(By.CSS_SELECTOR, "#board > li:not(.end)")


def status(d):
    return d.find_element(By.ID, "cmstatus").text


def visible_text_and_attributes(d) -> str:
    """Every text node and attribute value of the page outside its scripts, '|'-separated."""
    return d.execute_script("""
        var out = [];
        (function walk(n) {
          if (n.nodeType === 3) { out.push(n.data); return; }
          if (n.nodeType !== 1 || n.tagName === "SCRIPT") return;
          for (var i = 0; i < n.attributes.length; i++) out.push(n.attributes[i].value);
          if (n.value) out.push(n.value);
          for (var c = n.firstChild; c; c = c.nextSibling) walk(c);
        })(document.documentElement);
        return out.join("|");""")


def _js_feedback(d, game: Game, pairs) -> None:
    """The page's feedback on ``pairs`` (code indices) equals certify.game's."""
    texts = game.texts(range(game.size))
    got = d.execute_script("""
        var f = window.__certifyTest.feedback;
        return arguments[0].map(function (p) { return f(p[0], p[1]); });""",
        [[texts[a], texts[b]] for a, b in pairs])
    g, s = np.array(pairs).T
    every = np.arange(game.size)
    assert got == ["%d,%d" % game.decode(v) for v in game.feedback(every, every)[g, s].tolist()]


def test_feedback_agrees_with_python(driver, page, tmp_path):
    """The page's feedback rule on random pairs of 4x6, and of 4x10 without repetition (1.3 us a
    pair in the page: all 1.7 million pairs of 4x6 would take 3 s)."""
    rng = random.Random(7)
    open_page(driver, page)
    _js_feedback(driver, GAME, [(rng.randrange(GAME.size), rng.randrange(GAME.size)) for _ in range(40_000)])
    norep = Game(4, 10, False)
    out = tmp_path / "norep.html"
    assert run("html", ROOT / "certificates" / "knuth-4x10-norep.json", "-o", out) == 0
    open_page(driver, out)
    _js_feedback(driver, norep, [(rng.randrange(norep.size), rng.randrange(norep.size)) for _ in range(20_000)])
    assert console_errors(driver) == []


def test_a_whole_game(driver, page, cert):
    open_page(driver, page)
    before = visible_text_and_attributes(driver)
    rng = random.Random(3)
    codes = GAME.texts(range(GAME.size))
    # A secret that appears nowhere on the page yet, so that its absence below means something;
    # and one the strategy needs 5 guesses for.
    secret = next(s for s in rng.sample(codes, len(codes))
                  if s not in before and len(secret_path(cert, s)) == 5)
    driver.find_element(By.ID, "guessbtn").click()
    intro = driver.find_element(By.ID, "cmintro").text
    assert "4 pegs, colours 0..5, repeats allowed" in intro and "12 guesses" in intro
    start(driver, secret)
    assert "(set by a test)" in driver.find_element(By.ID, "cmintro").text

    # Guesses: two honest ones, one that an earlier row rules out (the note), then the secret.
    first = "0011"
    second = next(c for c in codes if c != secret and key_of(GAME, first, c) == key_of(GAME, first, secret))
    third = next(c for c in codes if c != secret and key_of(GAME, first, c) != key_of(GAME, first, secret))
    guesses = [first, second, third, secret]
    rows = []
    for n, guess in enumerate(guesses, 1):
        if n % 2:
            click_code(driver, guess)
        else:
            type_code(driver, guess)
        rows.append((guess, key_of(GAME, guess, secret)))
        li = board_rows(driver)[-1]
        assert len(board_rows(driver)) == n
        assert "".join(p.text for p in li.find_elements(By.CSS_SELECTOR, ".pegs .peg")) == guess
        key = rows[-1][1]
        assert li.get_attribute("data-key") == key
        b, w = map(int, key.split(","))
        assert len(li.find_elements(By.CSS_SELECTOR, ".hole.b")) == b
        assert len(li.find_elements(By.CSS_SELECTOR, ".hole.w")) == w
        left = still_possible(GAME, rows)
        assert f"{left} secret{'s' if left != 1 else ''} still possible" in li.text
        notes = li.find_elements(By.CSS_SELECTOR, ".note")
        ruled_out = [i for i, (g, k) in enumerate(rows[:-1], 1) if key_of(GAME, g, guess) != k]
        if ruled_out:
            i = ruled_out[0]
            g, k = rows[i - 1]
            assert notes and notes[0].text == (
                f"note: {guess} could not be the secret: row {i} ({g}) scored {k}, "
                f"and for {guess} it would be {key_of(GAME, g, guess)}")
        else:
            assert not notes
        if guess != secret:
            assert status(driver) == f"Guess {n + 1} of 12."
            assert secret not in visible_text_and_attributes(driver)  # not shown before the end
    assert [bool(li.find_elements(By.CSS_SELECTOR, ".note")) for li in board_rows(driver)] == \
        [False, False, True, False]
    path = secret_path(cert, secret)
    assert status(driver) == (f"You found {secret} in 4 guesses. knuth finds it in 5 guesses (you: 4): "
                              + " ".join(path))
    assert not driver.find_element(By.ID, "entry").is_displayed()
    assert not driver.find_element(By.ID, "giveup").is_displayed()
    shown = driver.find_element(By.CSS_SELECTOR, "#board li.end .pegs")
    assert "".join(p.text for p in shown.find_elements(By.CSS_SELECTOR, ".peg")) == secret
    assert console_errors(driver) == []


def test_mistyped_guesses_are_refused(driver, page):
    open_page(driver, page)
    start(driver, "0000")
    type_code(driver, "0017")
    assert status(driver) == "0017: '7' is not a colour: use 0 1 2 3 4 5"
    type_code(driver, "001")
    assert "4 pegs" in status(driver) and "you typed 3" in status(driver)
    assert board_rows(driver) == []
    # One game at a time: Play closes this one (kept), "You guess" closes Play and comes back to it.
    driver.find_element(By.ID, "playbtn").click()
    assert not driver.find_element(By.ID, "codemaker").is_displayed()
    driver.find_element(By.ID, "guessbtn").click()
    assert not driver.find_element(By.ID, "play").is_displayed()
    assert "4 pegs" in status(driver) and driver.find_element(By.ID, "cmtype").get_attribute("value") == "001"
    with pytest.raises(Exception, match="not a colour"):  # the hook takes only codes of the game
        driver.execute_script("window.__certifyTest.setSecret('0009')")


def test_row_limit_give_up_and_new_games(driver, page, cert):
    open_page(driver, page)
    start(driver, "5555", rows=3)
    for guess in ("0011", "0123", "1234"):
        click_code(driver, guess)
    assert len(board_rows(driver)) == 3
    path = secret_path(cert, "5555")
    assert status(driver) == (f"No guesses left: the secret was 5555. knuth finds it in "
                              f"{len(path)} guesses: " + " ".join(path))
    assert not driver.find_element(By.ID, "entry").is_displayed()

    # New games draw their secret in the page (crypto.getRandomValues): give up after two rows and
    # check the rows against the secret revealed.
    revealed = []
    for _ in range(3):
        driver.find_element(By.ID, "newgame").click()
        assert board_rows(driver) == [] and status(driver) == "Guess 1 of 3."
        assert "(set by a test)" not in driver.find_element(By.ID, "cmintro").text
        for guess in ("0011", "2345"):
            type_code(driver, guess)
        keys = [li.get_attribute("data-key") for li in board_rows(driver)]
        driver.find_element(By.ID, "giveup").click()
        text = status(driver)
        assert text.startswith("You gave up: the secret was ")
        secret = text.split("the secret was ")[1][:4]
        assert keys == [key_of(GAME, "0011", secret), key_of(GAME, "2345", secret)]
        shown = driver.find_element(By.CSS_SELECTOR, "#board li.end .pegs")
        assert "".join(p.text for p in shown.find_elements(By.CSS_SELECTOR, ".peg")) == secret
        assert f"knuth finds it in {len(secret_path(cert, secret))} guesses: " in text
        revealed.append(secret)
    assert len(set(revealed)) > 1  # three equal draws out of 1296 codes: about 1 in 1.7 million
    assert console_errors(driver) == []


def _pixels(d):
    return Image.open(io.BytesIO(d.get_screenshot_as_png())).convert("RGB")


def _rects(d, selector):
    """Viewport rectangles (in screenshot pixels) of the elements matching ``selector``."""
    return d.execute_script("""
        var r = window.devicePixelRatio;
        return Array.from(document.querySelectorAll(arguments[0])).map(function (e) {
          var b = e.getBoundingClientRect();
          return [b.left * r, b.top * r, b.width * r, b.height * r]; });""",
        selector)


def _hex(rgb) -> str:
    return "#%02X%02X%02X" % rgb


def test_screenshot_shows_the_key_pegs_and_colours(driver, page, tmp_path):
    open_page(driver, page)
    secret = "3132"
    start(driver, secret)
    guesses = ["0011", "1233", "3123"]  # keys 0,1 then 1,3 then 2,2
    for guess in guesses:
        click_code(driver, guess)
    driver.execute_script("document.getElementById('board').scrollIntoView()")
    image = _pixels(driver)
    image.save(tmp_path / "codemaker.png")
    for n, guess in enumerate(guesses, 1):
        b, w = map(int, key_of(GAME, guess, secret).split(","))
        # Each key-peg hole's centre: black, white, or the empty hole's colour.
        seen = []
        for x, y, wd, ht in _rects(driver, f"#board > li:nth-child({n}) .hole"):
            r, g, bl = image.getpixel((int(x + wd / 2), int(y + ht / 2)))
            seen.append("b" if max(r, g, bl) < 60 else "w" if min(r, g, bl) > 235 else "o")
        assert sorted(seen) == sorted("b" * b + "w" * w + "o" * (4 - b - w)), (guess, seen)
        # Each peg's colour, sampled left of its centre (the digit is drawn in the middle).
        drawn = []
        for x, y, wd, ht in _rects(driver, f"#board > li:nth-child({n}) .pegs .peg"):
            drawn.append(_hex(image.getpixel((int(x + wd * 0.25), int(y + ht / 2)))))
        assert drawn == [PALETTE[int(ch)] for ch in guess]
    # The colour buttons are the palette, in order.
    buttons = [_hex(image.getpixel((int(x + wd * 0.22), int(y + ht / 2))))
               for x, y, wd, ht in _rects(driver, "#cmcolours button")]
    assert buttons == list(PALETTE[:6])
    assert console_errors(driver) == []


def test_letters_on_the_pegs(driver, tmp_path):
    out = tmp_path / "letters.html"
    assert run("html", CERT, "-o", out, "--letters", "RGBYOP") == 0
    open_page(driver, out)
    start(driver, "0123")  # the hook takes the game's digits
    assert "colours R G B Y O P" in driver.find_element(By.ID, "cmintro").text
    assert [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#cmcolours button")] == list("RGBYOP")
    click_code(driver, "RRGG", names="RGBYOP")
    type_code(driver, "gbyo")  # typed in either case
    rows = board_rows(driver)
    assert ["".join(p.text for p in li.find_elements(By.CSS_SELECTOR, ".pegs .peg")) for li in rows] == \
        ["RRGG", "GBYO"]
    assert [li.get_attribute("data-key") for li in rows] == [key_of(GAME, "0011", "0123"),
                                                             key_of(GAME, "1234", "0123")]
    assert "note: GBYO could not be the secret: row 1 (RRGG)" in rows[1].text
    type_code(driver, "RGB5")
    assert status(driver) == "RGB5: '5' is not a colour: use R G B Y O P"
    image = _pixels(driver)  # the buttons in the colours their letters name
    drawn = [_hex(image.getpixel((int(x + wd * 0.22), int(y + ht / 2))))
             for x, y, wd, ht in _rects(driver, "#cmcolours button")]
    assert drawn == [c.upper() for c in palette("RGBYOP")[:6]]
    type_code(driver, "RGBY")
    assert status(driver).startswith("You found RGBY in 3 guesses.")
    assert console_errors(driver) == []
