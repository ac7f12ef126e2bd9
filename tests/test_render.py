"""`certify render` and `certify stats --plot`, through the CLI, with the real Graphviz and matplotlib.

Expected figures come from the certificate itself, replayed with the independent verifier's
``codes``/``feedback`` (never from the renderer), and the pictures are parsed, not just produced.
"""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import graphviz
import pytest

from certify import verify
from certify.__main__ import main

CERT = Path(__file__).resolve().parents[1] / "certificates" / "knuth-4x6.json"
SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"
KEY_PEGS = {"●": "black", "○": "white"}


@pytest.fixture(scope="module")
def cert():
    return json.loads(CERT.read_text())


@pytest.fixture(scope="module")
def secrets():
    return verify.codes(4, 6, True)


def run(*args) -> int:
    try:
        return main([str(a) for a in args])
    except SystemExit as e:  # argparse and the verification step exit this way
        return e.code


#: Only `render` needs Graphviz's dot; `make test` also runs where it is missing (CI as a user).
HAVE_DOT = shutil.which("dot") is not None


def without_dot(out, *args):
    """Where dot is missing no picture can be checked: check instead that render says how to
    install it (one line, exit 2, nothing written), and say so as a skip."""
    proc = subprocess.run([sys.executable, "-m", "certify", "render", str(CERT), "-o", str(out), *map(str, args)],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "apt-get install graphviz" in proc.stderr and not out.exists()
    pytest.skip("Graphviz's dot is not on the PATH: checked render's install message instead")


def render(tmp_path, name, *args):
    out = tmp_path / name
    if not HAVE_DOT and not name.endswith(".dot"):
        without_dot(out, *args)
    assert run("render", CERT, "-o", out, *args) == 0
    return out


def test_render_without_dot_says_how_to_install_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))
    out = tmp_path / "x.svg"
    assert run("render", CERT, "-o", out) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    for way in ("apt-get install graphviz", "brew install graphviz", "conda install -c conda-forge graphviz"):
        assert way in err
    assert not out.exists()
    # A .dot file needs no Graphviz program.
    assert run("render", CERT, "-o", tmp_path / "x.dot") == 0
    assert (tmp_path / "x.dot").read_text().startswith("digraph")


def groups(svg_path, kind):
    """The SVG <g> groups of graph nodes or edges whose class list holds ``kind``."""
    root = ET.parse(svg_path).getroot()
    return [g for g in root.iter(f"{SVG}g")
            if kind in (g.get("class") or "").split() and g.get("class").split()[0] in ("node", "edge")]


def title(g) -> str:
    return g.find(f"{SVG}title").text


def texts(g) -> list[str]:
    return [t.text for t in g.iter(f"{SVG}text")]


def graph_label(svg_path) -> str:
    """The graph's own label (its title lines), outside every node and edge."""
    graph = ET.parse(svg_path).getroot().find(f"{SVG}g")
    return " ".join(t.text for g in graph.findall(f"{SVG}g") if g.get("id") == "a_graph0"
                    for t in g.iter(f"{SVG}text"))


def tooltip(g) -> str:
    a = next(g.iter(f"{SVG}a"), None)
    return a.get(f"{XLINK}title") if a is not None else ""


def reaching(cert, keys, secrets):
    """Secrets that follow the feedback ``keys`` from the root, by the verifier's rule."""
    node, here = cert["tree"], secrets
    for key in keys:
        b, w = map(int, key.split(","))
        here = [s for s in here if verify.feedback(node["guess"], s) == (b, w)]
        node = node["next"][key]
    return node, here


def play(cert, secret):
    """The guesses ``secret`` sees through the tree."""
    node, guesses = cert["tree"], []
    while True:
        guesses.append(node["guess"])
        b, w = verify.feedback(node["guess"], secret)
        if (b, w) == (4, 0):
            return guesses
        node = node["next"][f"{b},{w}"]


def height(node) -> int:
    return 1 + max((height(c) for c in node.get("next", {}).values()), default=0)


# -- the layered overview ------------------------------------------------------------

def test_overview_depth_2_has_root_and_first_level(tmp_path, cert, secrets):
    svg = render(tmp_path, "o.svg", "--depth", 2)
    guesses = {title(g): g for g in groups(svg, "guess")}
    branches = cert["tree"]["next"]
    assert len(branches) >= 12
    assert set(guesses) == {"n"} | {f"n/{k}" for k in branches}
    root = guesses["n"]
    assert texts(root)[:4] == list("0011") == list(cert["tree"]["guess"])
    # "n secrets, 1 found here" when the guess is one of them: the summaries beside count the others.
    assert f"{len(secrets)} secrets, 1 found here" in texts(root)
    for key, child in branches.items():
        g = guesses[f"n/{key}"]
        _, here = reaching(cert, [key], secrets)
        assert texts(g)[:4] == list(child["guess"])
        found = ", 1 found here" if child["guess"] in here and len(here) > 1 else ""
        assert f"{len(here)} secret{'s' if len(here) > 1 else ''}{found}" in texts(g)
        assert tooltip(g).startswith(f"0011 -({key})-> {child['guess']}")
        assert f"{len(here)} candidate" in tooltip(g)
    # One summary per cut node, counting the secrets below it and the guesses they still need.
    summaries = groups(svg, "summary")
    inner = [k for k, c in branches.items() if "next" in c]
    assert sorted(title(g) for g in summaries) == sorted(f"n/{k}/..." for k in inner)
    for key in inner:
        g = next(s for s in summaries if title(s) == f"n/{key}/...")
        node, here = reaching(cert, [key], secrets)
        below = len(here) - (node["guess"] in here)
        more = height(node) - 1
        assert " ".join(texts(g)) == f"{below} secrets, at most {more} more guess" + ("es" if more > 1 else "")


def test_edges_carry_key_pegs_and_tooltips(tmp_path, cert):
    svg = render(tmp_path, "o.svg", "--depth", 2)
    keys = {title(g): g for g in groups(svg, "key")}
    for key in cert["tree"]["next"]:
        b, w = map(int, key.split(","))
        label = "".join(texts(keys[f"n/{key}|key"]))
        if b + w:
            assert label == "●" * b + "○" * w
        else:
            assert label == "none"
        assert tooltip(keys[f"n/{key}|key"]).startswith(f"{key}:")
    edges = groups(svg, "edge")
    assert edges and all(tooltip(e) for e in edges)
    into_child = [e for e in edges if title(e) == "n/1,0|key->n/1,0"]
    assert len(into_child) == 1 and tooltip(into_child[0]).startswith("1,0: 1 black, 0 white")


def test_default_depth_stays_legible(tmp_path, cert):
    svg = render(tmp_path, "d.svg")
    n_guess, n_summary = len(groups(svg, "guess")), len(groups(svg, "summary"))
    assert 1 + len(cert["tree"]["next"]) <= n_guess
    assert n_guess + n_summary <= 60
    assert "the first 2 of 5 levels" in graph_label(svg)


def test_depth_1_is_root_and_one_summary(tmp_path, cert):
    svg = render(tmp_path, "one.svg", "--depth", 1)
    assert [title(g) for g in groups(svg, "guess")] == ["n"]
    (summary,) = groups(svg, "summary")
    assert texts(summary) == ["1295 secrets,", f"at most {height(cert['tree']) - 1} more guesses"]


# -- the secret's path -----------------------------------------------------------------

@pytest.mark.parametrize("secret", ["3132", "deepest"])
def test_secret_path_is_highlighted_beyond_the_depth(tmp_path, cert, secrets, secret):
    if secret == "deepest":
        secret = max(secrets, key=lambda s: len(play(cert, s)))
    guesses = play(cert, secret)
    svg = render(tmp_path, "s.svg", "--secret", secret.upper())
    on_path = groups(svg, "path")
    nodes = [g for g in on_path if g.get("class").startswith("node") and "guess" in g.get("class")]
    assert len(nodes) == len(guesses)
    assert len(guesses) > 2  # so part of the path lies below the default depth of 2
    assert sorted("".join(texts(g)[:4]) for g in nodes) == sorted(guesses)
    last = max(nodes, key=lambda g: title(g).count("/"))
    assert "".join(texts(last)[:4]) == secret and texts(last)[4] == "1 secret"
    assert texts(last)[5].strip() == f"found in {len(guesses)} guesses"  # the path's end is marked
    assert not [g for g in nodes if g is not last and "found in" in " ".join(texts(g))]
    # Every highlighted node is drawn with the highlight colour, and no other guess is.
    path_names = {title(g) for g in nodes}
    for g in groups(svg, "guess"):
        strokes = {p.get("stroke") for p in g.iter() if p.tag in (f"{SVG}path", f"{SVG}polygon")}
        assert ("#c51b7d" in strokes) == (title(g) in path_names)
    assert [e for e in on_path if e.get("class").startswith("edge")]
    assert f"secret {secret}: found in {len(guesses)} guesses" in graph_label(svg)


def test_radial_full_tree(tmp_path, cert):
    svg = render(tmp_path, "r.svg", "--layout", "twopi", "--secret", "3132")
    count, stack = 0, [cert["tree"]]
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(node.get("next", {}).values())
    assert count > 1300
    guesses = groups(svg, "guess")
    assert len(guesses) == count
    assert not groups(svg, "summary")
    assert len([g for g in guesses if "path" in g.get("class")]) == len(play(cert, "3132"))
    assert all("candidate" in tooltip(g) for g in guesses)


# -- other formats ---------------------------------------------------------------------

def test_png_and_pdf(tmp_path):
    png = render(tmp_path, "o.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    width, height_ = struct.unpack(">II", png[16:24])
    assert 300 <= width <= 4000 and 300 <= height_ <= 4000
    pdf = render(tmp_path, "o.pdf").read_bytes()
    assert pdf[:5] == b"%PDF-" and b"%%EOF" in pdf[-1024:]


def test_dot_output_parses_as_the_same_graph(tmp_path):
    dot = render(tmp_path, "o.dot", "--secret", "3132").read_text()
    svg = render(tmp_path, "o.svg", "--secret", "3132")  # (without dot: the message, then a skip)
    laid_out = json.loads(graphviz.Source(dot).pipe(format="json0"))
    objects = laid_out["objects"]
    assert laid_out["directed"]
    for kind in ("guess", "summary", "key"):
        assert sorted(o["name"] for o in objects if kind in o.get("class", "").split()) == \
            sorted(title(g) for g in groups(svg, kind))
    assert len(laid_out["edges"]) == len(groups(svg, "edge"))


# -- --at ------------------------------------------------------------------------------

def test_at_draws_the_subtree(tmp_path, cert, secrets):
    node, here = reaching(cert, ["1,0", "0,2"], secrets)
    svg = render(tmp_path, "a.svg", "--at", "1,0/0,2", "--depth", "2")
    guesses = {title(g): g for g in groups(svg, "guess")}
    assert set(guesses) == {"n"} | {f"n/{k}" for k in node["next"]}
    root = guesses["n"]
    assert "".join(texts(root)[:4]) == node["guess"]
    assert any(t.startswith(f"{len(here)} secrets") for t in texts(root))
    first = cert["tree"]["next"]["1,0"]["guess"]
    # The title names the subtree in the tooltips' notation, and does not call it the whole tree.
    label = graph_label(svg)
    assert f"the subtree at 0011 -(1,0)-> {first} -(0,2)-> {node['guess']}: the first 2 of" in label
    assert "whole tree" not in label
    assert tooltip(root).startswith(f"0011 -(1,0)-> {first} -(0,2)-> {node['guess']}")


def test_at_bad_step_names_it(tmp_path, capsys):
    out = tmp_path / "a.svg"
    assert run("render", CERT, "-o", out, "--at", "1,0/3,1") == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "step 2 '3,1' does not exist after 0011 -(1,0)->" in err
    assert run("render", CERT, "-o", out, "--at", "1,0/x") == 2
    assert "step 2 'x' is not a feedback" in capsys.readouterr().err
    assert not out.exists()


# -- errors ----------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["-o", "{tmp}/x.gif"], "cannot tell the picture format from '.gif'"),
    (["-o", "{tmp}/x"], "cannot tell the picture format"),
    (["-o", "{tmp}/x.svg", "--secret", "0016"], "secret '0016' is not a code of the game"),
    (["-o", "{tmp}/x.svg", "--secret", "2234", "--at", "1,0"], "secret 2234 does not reach"),
    (["-o", "{tmp}/x.svg", "--depth", "0"], "expected a number >= 1"),
    (["-o", "{tmp}/x.svg", "--layout", "neato"], "invalid choice"),
])
def test_bad_arguments_exit_2(tmp_path, capsys, args, message):
    args = [a.format(tmp=tmp_path) for a in args]
    assert run("render", CERT, *args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())


def test_invalid_certificate_is_not_drawn(tmp_path, capsys, cert):
    bad = json.loads(json.dumps(cert))
    bad["tree"]["next"]["1,0"]["guess"] = "5555"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    out = tmp_path / "bad.svg"
    assert run("render", path, "-o", out) == 1
    assert "invalid" in capsys.readouterr().err
    assert not out.exists()


def test_cli_process_exit_code(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "certify", "render", str(CERT), "-o", str(tmp_path / "x.jpg")],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


# -- stats --plot ----------------------------------------------------------------------

def test_stats_plot_png_and_svg(tmp_path, cert):
    png = tmp_path / "d.png"
    assert run("stats", CERT, "--plot", png) == 0
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height_ = struct.unpack(">II", data[16:24])
    assert 400 <= width <= 3000 and 300 <= height_ <= 3000
    svg = tmp_path / "d.svg"
    assert run("stats", CERT, "--plot", svg) == 0
    words = " ".join(t.text or "" for t in ET.parse(svg).getroot().iter(f"{SVG}text"))
    claims = cert["claims"]
    assert "knuth" in words and "4 pegs x 6 colours" in words
    for count in claims["histogram"].values():
        assert str(count) in words.split()
    assert f"mean {claims['total_guesses'] / claims['secrets']:.3f}" in words


def test_stats_plot_bad_extension(tmp_path, capsys):
    assert run("stats", CERT, "--plot", tmp_path / "d.txt") == 2
    assert "cannot tell the chart format" in capsys.readouterr().err


# -- polish from looking at the pictures (issue 15) ------------------------------------

def test_overview_has_a_legend(tmp_path):
    label = graph_label(render(tmp_path, "o.svg", "--depth", 2))
    for words in ("black key peg", "white key peg", "no key peg", "replies not drawn"):
        assert words in label
    label = graph_label(render(tmp_path, "r.svg", "--layout", "twopi"))
    assert "a guess: a disc split into its pegs' colours" in label


def test_radial_replies_in_natural_order(tmp_path, cert):
    dot = render(tmp_path, "r.dot", "--layout", "twopi").read_text()
    # The order in which the root's edges are written is the order the layout places them in.
    order = [line.split('"')[1][2:] for line in dot.splitlines()
             if line.strip().startswith('n -> "n/') or line.strip().startswith('"n" -> "n/')]
    assert order and order == list(cert["tree"]["next"])


def test_depth_all_on_5x8_is_refused_with_the_reason(tmp_path, capsys):
    big = CERT.parent / "knuth-5x8.json.gz"
    out = tmp_path / "all.svg"
    assert run("render", big, "--depth", "all", "-o", out) == 2
    err = capsys.readouterr().err
    assert "34752 guesses are too many for one picture" in err and "certify html" in err
    assert not out.exists()


@pytest.mark.parametrize("name", ["last-guess-4x6.json", "knuth-5x8.json.gz", "knuth-4x6.json"])
def test_plot_labels_never_overlap_nor_say_zero_percent(name):
    from certify import plot

    report = verify.verify_file(str(CERT.parent / name))
    assert report.valid
    fig, labels = plot.figure(report)
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in labels]
    assert len(boxes) == report.replayed["max_guesses"]
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    axes = fig.axes[0].get_window_extent(renderer)
    assert all(b.y1 <= axes.y1 + 1 for b in boxes)  # inside the plot, under the title
    for count, t in zip((report.replayed["histogram"].get(str(k), 0)
                         for k in range(1, report.replayed["max_guesses"] + 1)), labels):
        assert t.get_text().split("\n")[0] == str(count)
        assert not (count and "0.0%" in t.get_text())


def test_percent_never_rounds_to_nothing():
    from certify.plot import percent

    assert percent(1, 32768) == "<0.1%" and percent(0, 5) == "0.0%"
    assert percent(32767, 32768) == ">99.9%" and percent(5, 5) == "100.0%"
    assert percent(533, 1296) == "41.1%"


def test_key_pegs_stand_level_with_their_guess(tmp_path, cert):
    """Each reply's key pegs sit level with the guess they lead to, in the certificate's order, so
    the fan of edges from a guess never crosses itself (laid out by dot, read from its json0)."""
    if not HAVE_DOT:  # laying the graph out is dot's work
        without_dot(tmp_path / "k.svg", "--at", "1,0", "--depth", "3")
    dot = render(tmp_path, "k.dot", "--at", "1,0", "--depth", "3").read_text()
    objects = json.loads(graphviz.Source(dot).pipe(format="json0"))["objects"]
    pos = {o["name"]: tuple(map(float, o["pos"].split(","))) for o in objects if "pos" in o}
    node = cert["tree"]["next"]["1,0"]
    checked = 0
    for name, here in [("n", node)] + [(f"n/{k}", c) for k, c in node["next"].items()]:
        kids = list(here.get("next", {}))
        ys = [pos[f"{name}/{k}|key"][1] for k in kids]
        assert ys == sorted(ys, reverse=True)  # top to bottom in the certificate's order
        for k in kids:
            assert abs(pos[f"{name}/{k}|key"][1] - pos[f"{name}/{k}"][1]) < 1.0
            checked += 1
    assert checked > 50
