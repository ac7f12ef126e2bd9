"""`certify html` for a black-peg certificate (issue 37, item 4): the page replays the black-only
rule, draws only black key pegs, and browse, search, Play and "You guess" work with one-number
answers. In chromium, as tests/test_html.py; every expected figure comes from the certificate and the
independent verifier's ``blacks``, never from the page. A screenshot is saved in build/screenshots/.
"""

from __future__ import annotations

import json

import pytest
from selenium.webdriver.common.by import By
from test_html import ROOT, console_errors, driver, open_page, row, run  # noqa: F401

from certify import verify

SRC = ROOT / "certificates" / "black-peg" / "optimal-total-4x4-black.json"
SHOTS = ROOT / "build" / "screenshots"
P, C = 4, 4


def key(guess: str, secret: str) -> str:
    return str(verify.blacks(guess, secret)[0])


def path_of(cert: dict, secret: str) -> list[str]:
    node, out = cert["tree"], [cert["tree"]["guess"]]
    while node["guess"] != secret:
        node = node["next"][key(node["guess"], secret)]
        out.append(node["guess"])
    return out


def test_a_black_peg_page_in_every_mode(driver, tmp_path):  # noqa: F811
    cert = json.loads(SRC.read_text())
    assert cert["game"]["feedback"] == "black-only"
    out = tmp_path / "black.html"
    assert run("html", SRC, "-o", out) == 0
    text = out.read_text()
    assert "pegs x 4 colours, black pegs only</title>" in text
    open_page(driver, out)
    everyone = verify.codes(P, C, True)

    # The header and the page's own replay under the black-only rule.
    assert driver.find_element(By.ID, "title").text.endswith("on 4 pegs x 4 colours, black pegs only")
    assert "same distribution" in driver.find_element(By.ID, "check").text
    legend = driver.find_element(By.ID, "legendlist").text
    assert "black key peg" in legend and "white key peg" not in legend
    got = driver.execute_script("""var f = window.__certifyTest.feedback, c = arguments[0], out = [];
        for (var i = 0; i < c.length; i++) for (var j = 0; j < c.length; j++) out.push(f(c[i], c[j]));
        return out;""", everyone)
    assert got == [key(g, s) for g in everyone for s in everyone]  # all 65,536 pairs

    # Browse: the root's replies are the certificate's, one number each, drawn as black pegs only.
    root = row(driver, 0)
    assert f"{len(everyone)} secrets" in root.text
    replies = root.find_elements(By.XPATH, "../ul/li/div[contains(@class, 'row')]")
    keys = [r.get_attribute("data-key") for r in replies]
    assert keys == list(cert["tree"]["next"]) and all("," not in k for k in keys)
    for r, k in zip(replies, keys):
        kp = r.find_elements(By.CSS_SELECTOR, ".reply .kp")
        assert (kp[0].text if kp else "") == "\u25CF" * int(k)
        assert r.find_element(By.CSS_SELECTOR, ".reply .kn").text == k
        n = sum(key(cert["tree"]["guess"], s) == k for s in everyone)
        assert f"{n} secret" in r.text or "\u2713 found" in r.text
    assert "\u25CB" not in driver.find_element(By.ID, "tree").text

    # Find a secret: the path of the certificate under the black-only rule.
    secret = "3102"
    path = path_of(cert, secret)
    driver.find_element(By.ID, "search").send_keys(secret)
    assert [r.get_attribute("data-guess") for r in driver.find_elements(By.CSS_SELECTOR, ".row.hl")] == path
    assert driver.find_element(By.ID, "status").text == \
        f"{secret} is found in {len(path)} guesses: " + " \u2192 ".join(path)

    # Play: the page guesses, the answers are numbers of black pegs (0..4 and nothing else).
    driver.find_element(By.ID, "playbtn").click()
    buttons = driver.find_elements(By.CSS_SELECTOR, "#replies button")
    assert [b.get_attribute("data-key") for b in buttons] == [str(b) for b in range(P + 1)]
    assert buttons[-1].text == f"all right ({P})"
    for guess in path:
        assert "".join(p.text for p in driver.find_elements(By.CSS_SELECTOR, "#playguess .peg")) == guess
        driver.find_element(By.CSS_SELECTOR, f'#replies button[data-key="{key(guess, secret)}"]').click()
    assert driver.find_element(By.ID, "playstatus").text == \
        f"Found your secret {secret} in {len(path)} guesses."
    history = driver.find_elements(By.CSS_SELECTOR, "#history li .reply .kn")
    assert [h.text for h in history] == [key(g, secret) for g in path]
    # A contradiction is named in black pegs only.
    driver.find_element(By.ID, "restart").click()
    root = cert["tree"]
    k1, bad = next((k, str(b)) for k, child in root["next"].items() for b in range(P + 1)
                   if str(b) not in {key(child["guess"], s) for s in everyone if key(root["guess"], s) == k})
    for k in (k1, bad):
        driver.find_element(By.CSS_SELECTOR, f'#replies button[data-key="{k}"]').click()
    status = driver.find_element(By.ID, "playstatus").text
    assert status == (f"Contradiction: no secret gives all these replies (reply 2 to {root['next'][k1]['guess']}, "
                      f"{bad} black, cannot follow the earlier ones). Undo it or start again.")
    driver.find_element(By.ID, "undo").click()

    # You guess: the page keeps the secret and answers with black pegs only.
    driver.find_element(By.ID, "guessbtn").click()
    driver.execute_script("window.__certifyTest.setSecret(arguments[0])", secret)
    assert "I answer with black pegs only" in driver.find_element(By.ID, "cmintro").text
    guesses = ["0011", "2233", "3012", secret]
    for n, guess in enumerate(guesses, 1):
        box = driver.find_element(By.ID, "cmtype")
        box.clear()
        box.send_keys(guess + "\n")
        li = driver.find_elements(By.CSS_SELECTOR, "#board > li:not(.end)")[-1]
        b = int(key(guess, secret))
        assert li.get_attribute("data-key") == str(b)
        assert len(li.find_elements(By.CSS_SELECTOR, ".hole.b")) == b
        assert not li.find_elements(By.CSS_SELECTOR, ".hole.w") and len(li.find_elements(By.CSS_SELECTOR, ".hole")) == P
        left = sum(all(key(g, s) == key(g, secret) for g in guesses[:n]) for s in everyone)
        assert f"{left} secret{'s' if left != 1 else ''} still possible" in li.text
    assert driver.find_element(By.ID, "cmstatus").text == (
        f"You found {secret} in 4 guesses. {cert['strategy']['name']} finds it in {len(path)} guesses "
        f"(you: 4): " + " ".join(path))
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SHOTS / "black-peg-page.png"))
    assert console_errors(driver) == []


@pytest.mark.parametrize("name", ["optimal-worst-case-2x10-norep-black.json", "optimal-worst-case-3x3-black.json",
                                  "optimal-worst-case-5x6-norep-black.json", "optimal-total-6x2-black.json"])
def test_other_black_peg_games_replay_alike(driver, tmp_path, name):  # noqa: F811
    """Other sizes, without repetition and 2 colours: the page's own black-only replay agrees with
    the verifier, a secret's path is the certificate's, and Play offers the answers 0..p."""
    src = ROOT / "certificates" / "black-peg" / name
    doc = json.loads(src.read_text())
    game = doc["game"]
    out = tmp_path / "page.html"
    assert run("html", src, "-o", out, "--letters", "RGBYOPCMNK"[:game["colors"]]) == 0
    open_page(driver, out)
    assert "same distribution" in driver.find_element(By.ID, "check").text
    secret = verify.codes(game["pegs"], game["colors"], game["repetition"])[-1]
    node, path = doc["tree"], [doc["tree"]["guess"]]
    while node["guess"] != secret:
        node = node["next"][key(node["guess"], secret)]
        path.append(node["guess"])
    names = str.maketrans("0123456789", "RGBYOPCMNK")
    driver.find_element(By.ID, "search").send_keys(secret.translate(names))
    assert [r.get_attribute("data-guess") for r in driver.find_elements(By.CSS_SELECTOR, ".row.hl")] == path
    driver.find_element(By.ID, "playbtn").click()
    assert [b.get_attribute("data-key") for b in driver.find_elements(By.CSS_SELECTOR, "#replies button")] == \
        [str(b) for b in range(game["pegs"] + 1)]
    assert console_errors(driver) == []
