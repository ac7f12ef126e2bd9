"""`certify html` in a real browser: Debian's chromium and chromedriver, driven by selenium.

Every expected figure is replayed here from the certificate with the independent verifier's
``codes``/``feedback``, never read from the page's own code. A screenshot of each state is saved
in the module's temporary folder (its path is printed with ``-s``).
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from certify import verify
from certify.__main__ import main

ROOT = Path(__file__).resolve().parents[1]
CERT = ROOT / "certificates" / "knuth-4x6.json"
BIG = ROOT / "certificates" / "knuth-5x8.json.gz"
XSS = "</script><script>window.pwned=1;alert(1)</script>"


def run(*args) -> int:
    try:
        return main([str(a) for a in args])
    except SystemExit as e:
        return e.code


def _binary(names):
    for name in names:
        path = shutil.which(name) or (f"/usr/bin/{name}" if Path(f"/usr/bin/{name}").exists() else None)
        if path:
            return path
    raise AssertionError(f"{' or '.join(names)} is missing: run 'make browser' (apt-get install chromium chromium-driver)")


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = tmp_path_factory.mktemp("html-screenshots")
    print(f"\nscreenshots in {folder}")
    return folder


@pytest.fixture(scope="module")
def driver():
    options = Options()
    options.binary_location = _binary(["chromium", "chromium-browser"])
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1300,1000",
                "--disable-gpu"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(_binary(["chromedriver"])), options=options)
    yield d
    d.quit()


def console_errors(d) -> list:
    return [e for e in d.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]


@pytest.fixture(scope="module")
def cert():
    return json.loads(CERT.read_text())


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    out = tmp_path_factory.mktemp("html") / "knuth-4x6.html"
    assert run("html", CERT, "-o", out) == 0
    return out


def open_page(d, path):
    d.get(path.as_uri())
    d.get_log("browser")  # start each page with an empty log
    d.get(path.as_uri())


def row(d, node_id):
    return d.find_element(By.CSS_SELECTOR, f'.row[data-id="{node_id}"]')


def child_rows(d, parent_row):
    li = parent_row.find_element(By.XPATH, "..")
    return li.find_elements(By.CSS_SELECTOR, ":scope > ul.kids > li > .row")


def reaching(guess_path, everyone):
    """The secrets that follow ``guess_path`` [(guess, key)...], replayed with the verifier's rule."""
    out = everyone
    for g, key in guess_path:
        out = [s for s in out if "%d,%d" % verify.feedback(g, s) == key]
    return out


def secret_path(cert, secret):
    node, path = cert["tree"], [cert["tree"]["guess"]]
    while node["guess"] != secret:
        node = node["next"]["%d,%d" % verify.feedback(node["guess"], secret)]
        path.append(node["guess"])
    return path


def test_page_is_one_file_with_no_outside_reference(page):
    text = page.read_text()
    assert text.count("<script") == 2  # the data block and the script, both inline
    for outside in ("http://", "https://", "src=", "@import", "url("):
        assert outside not in text.replace("http://www.w3.org/2000/svg", ""), outside
    assert "Content-Security-Policy" in text


def test_root_and_unfolding_a_reply(driver, page, cert, shots):
    open_page(driver, page)
    root = row(driver, 0)
    assert root.get_attribute("data-guess") == cert["tree"]["guess"]
    assert "".join(p.text for p in root.find_elements(By.CSS_SELECTOR, ".peg")) == cert["tree"]["guess"]
    everyone = verify.codes(4, 6, True)
    assert f"{len(everyone)} secrets" in root.text
    driver.save_screenshot(str(shots / "1-root.png"))

    # The root is open: its replies are the certificate's, in its order, with replayed counts.
    replies = child_rows(driver, root)
    assert [r.get_attribute("data-key") for r in replies] == list(cert["tree"]["next"])
    key = "1,1"
    reply = next(r for r in replies if r.get_attribute("data-key") == key)
    node = cert["tree"]["next"][key]
    assert reply.get_attribute("data-guess") == node["guess"]
    here = reaching([(cert["tree"]["guess"], key)], everyone)
    assert f"{len(here)} secrets" in reply.text
    assert not child_rows(driver, reply)  # lazy: nothing below until unfolded
    reply.click()
    below = child_rows(driver, reply)
    assert [r.get_attribute("data-key") for r in below] == list(node["next"])
    assert [r.get_attribute("data-guess") for r in below] == [c["guess"] for c in node["next"].values()]
    for r, (k, child) in zip(below, node["next"].items()):
        n = len(reaching([(cert["tree"]["guess"], key), (node["guess"], k)], everyone))
        # A leaf is the one secret reaching it; an inner guess says how many reach it.
        assert ("\u2713 found" in r.text) if "next" not in child else (f"{n} secret" in r.text), r.text
    driver.save_screenshot(str(shots / "2-unfolded-1,1.png"))
    reply.click()  # folds again
    assert not child_rows(driver, reply)
    assert console_errors(driver) == []


def test_search_shows_the_path(driver, page, cert, shots):
    open_page(driver, page)
    expected = secret_path(cert, "3132")
    assert expected == ["0011", "1233", "3123", "3132"]  # the path, checked on the certificate
    box = driver.find_element(By.ID, "search")
    box.send_keys("3132")  # as you type: the fourth digit triggers the search
    marked = driver.find_elements(By.CSS_SELECTOR, ".row.hl")
    assert [r.get_attribute("data-guess") for r in marked] == expected
    assert "found in 4 guesses" in marked[-1].find_element(By.CSS_SELECTOR, ".found").text
    status = driver.find_element(By.ID, "status").text
    assert "3132 is found in 4 guesses" in status
    driver.save_screenshot(str(shots / "3-search-3132.png"))

    box.clear()
    box.send_keys("3172", Keys.ENTER)
    assert "'7' is not a colour" in driver.find_element(By.ID, "status").text
    assert console_errors(driver) == []


def click_reply(d, key):
    d.find_element(By.CSS_SELECTOR, f'#replies button[data-key="{key}"]').click()


def test_play_finds_a_secret(driver, page, cert, shots):
    open_page(driver, page)
    driver.find_element(By.ID, "playbtn").click()
    secret = "5243"
    path = secret_path(cert, secret)
    for guess in path:
        shown = "".join(p.text for p in driver.find_elements(By.CSS_SELECTOR, "#playguess .peg"))
        assert shown == guess
        click_reply(driver, "%d,%d" % verify.feedback(guess, secret))
    status = driver.find_element(By.ID, "playstatus").text
    assert f"Found your secret {secret} in {len(path)} guesses" in status
    marked = driver.find_elements(By.CSS_SELECTOR, ".row.hl")
    assert [r.get_attribute("data-guess") for r in marked] == path
    driver.save_screenshot(str(shots / "4-play-found.png"))
    assert console_errors(driver) == []


def test_play_catches_a_contradiction(driver, page, cert, shots):
    open_page(driver, page)
    driver.find_element(By.ID, "playbtn").click()
    everyone = verify.codes(4, 6, True)
    root = cert["tree"]
    allkeys = [f"{b},{w}" for b in range(5) for w in range(5 - b) if (b, w) != (3, 1)]
    # The first reply to the root, then a reply to the second guess that no remaining secret gives.
    first, impossible = next(
        (k, bad) for k, child in root["next"].items()
        for bad in allkeys
        if bad not in {"%d,%d" % verify.feedback(child["guess"], s)
                       for s in reaching([(root["guess"], k)], everyone)})
    click_reply(driver, first)
    click_reply(driver, impossible)
    status = driver.find_element(By.ID, "playstatus").text
    b, w = impossible.split(",")
    assert "Contradiction" in status and f"{b} black, {w} white" in status
    assert f"to {root['next'][first]['guess']}," in status
    assert not driver.find_elements(By.CSS_SELECTOR, "#replies button")  # the game is over
    driver.save_screenshot(str(shots / "5-play-contradiction.png"))
    driver.find_element(By.ID, "undo").click()  # and can be undone
    assert driver.find_elements(By.CSS_SELECTOR, "#replies button")
    assert console_errors(driver) == []


def test_a_hostile_name_stays_text(driver, tmp_path, cert, shots):
    doc = json.loads(CERT.read_text())
    doc["strategy"]["name"] = XSS
    doc["strategy"]["reference"] = "<img src=x onerror=\"window.pwned=2\"> & \u2028 <!--"
    src = tmp_path / "hostile.json"
    src.write_text(json.dumps(doc))
    out = tmp_path / "hostile.html"
    assert run("html", src, "-o", out) == 0
    text = out.read_text()
    assert text.count("<script") == 2 and "<img" not in text
    open_page(driver, out)
    with pytest.raises(NoAlertPresentException):
        driver.switch_to.alert.text
    assert driver.execute_script("return window.pwned === undefined")
    h1 = driver.find_element(By.ID, "title").text
    assert h1.startswith(XSS)  # shown literally, as text
    assert driver.title.startswith(XSS)
    assert "<img src=x" in driver.find_element(By.ID, "facts").text
    assert not driver.find_elements(By.CSS_SELECTOR, "img")
    driver.save_screenshot(str(shots / "6-hostile-name.png"))
    assert console_errors(driver) == []


def test_big_tree_unfolds_quickly(driver, tmp_path, shots):
    out = tmp_path / "knuth-5x8.html"
    assert run("html", BIG, "-o", out) == 0
    size = out.stat().st_size
    start = time.perf_counter()
    open_page(driver, out)
    loaded = time.perf_counter() - start
    root = row(driver, 0)
    assert "32768 secrets" in root.text
    assert "same distribution" in driver.find_element(By.ID, "check").text
    biggest = max(child_rows(driver, root), key=lambda r: int(r.text.split(" secret")[0].split()[-1]))
    # Time the unfold inside the page: the click handler and the layout it forces.
    took = driver.execute_script("""
        var row = arguments[0], t0 = performance.now();
        row.click();
        var n = row.parentNode.querySelectorAll(':scope > ul.kids > li').length;
        row.getBoundingClientRect(); document.body.offsetHeight;
        return [performance.now() - t0, n];""", biggest)
    print(f"\n5x8 page: {size} bytes, loaded in {loaded:.2f} s (two loads), unfold {took[0]:.1f} ms, {took[1]} replies")
    assert took[1] > 1
    assert took[0] < 1000, f"unfolding took {took[0]:.0f} ms"  # generous: speed targets live in make bench
    driver.find_element(By.ID, "search").send_keys("76543")
    assert len(driver.find_elements(By.CSS_SELECTOR, ".row.hl")) >= 2
    driver.save_screenshot(str(shots / "7-5x8-unfolded.png"))
    assert console_errors(driver) == []


@pytest.mark.parametrize("name", ["knuth-3x3.json", "knuth-4x10-norep.json"])
def test_other_games_replay_alike(driver, tmp_path, name):
    """Other sizes and a game without repetition: the page's own replay agrees with the verifier."""
    src = ROOT / "certificates" / name
    doc = json.loads(src.read_text())
    out = tmp_path / "page.html"
    assert run("html", src, "-o", out) == 0
    open_page(driver, out)
    assert "same distribution" in driver.find_element(By.ID, "check").text
    root = row(driver, 0)
    assert root.get_attribute("data-guess") == doc["tree"]["guess"]
    assert f"{doc['claims']['secrets']} secrets" in root.text
    game = doc["game"]
    secret = verify.codes(game["pegs"], game["colors"], game["repetition"])[-1]
    driver.find_element(By.ID, "search").send_keys(secret)
    assert [r.get_attribute("data-guess") for r in driver.find_elements(By.CSS_SELECTOR, ".row.hl")] == \
        secret_path(doc, secret)
    assert console_errors(driver) == []


def test_only_a_verified_certificate_becomes_a_page(tmp_path, capsys):
    doc = json.loads(CERT.read_text())
    doc["tree"]["next"]["1,0"]["guess"] = "5555"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    out = tmp_path / "bad.html"
    assert run("html", bad, "-o", out) == 1
    assert "invalid" in capsys.readouterr().err and not out.exists()
    assert run("html", CERT, "-o", tmp_path) == 2  # a folder
    assert "it is a directory" in capsys.readouterr().err
    assert run("html", CERT, "-o", CERT) == 2  # never over its input
    assert "input file" in capsys.readouterr().err


def test_page_bytes_are_deterministic(tmp_path, page):
    again = tmp_path / "again.html"
    assert run("html", CERT, "-o", again) == 0
    assert again.read_bytes() == page.read_bytes()
