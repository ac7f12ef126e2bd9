"""`render --depth all` on a big tree: a layered picture that would be an unreadable strip is drawn
radially instead (with a note), or refused with --layout dot unless --force.

The decision is made from an estimate, before Graphviz runs: the refusal is checked with
Graphviz's pipe made to fail, and the estimate against the size dot really draws.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import graphviz
import pytest

from certify import render
from certify.__main__ import main

ROOT = Path(__file__).resolve().parents[1]
KNUTH = ROOT / "certificates" / "knuth-4x6.json"
SMALL = ROOT / "certificates" / "knuth-3x3.json"
HAVE_DOT = shutil.which("dot") is not None


def run(*args) -> int:
    try:
        return main([str(a) for a in args])
    except SystemExit as e:
        return e.code


@pytest.fixture
def no_graphviz(monkeypatch):
    """Graphviz must not run: the decision comes before it."""
    def refuse(*args, **kwargs):
        raise AssertionError("Graphviz ran")
    monkeypatch.setattr(graphviz.Digraph, "pipe", refuse)


def svg_size(path: Path) -> tuple[float, float]:
    m = re.search(r'<svg width="(\d+)pt" height="(\d+)pt"', path.read_text())
    return int(m.group(1)) * render.DPI / 72, int(m.group(2)) * render.DPI / 72


def test_dot_strip_is_refused_before_graphviz_runs(tmp_path, capsys, no_graphviz):
    out = tmp_path / "all.png"
    assert run("render", KNUTH, "--depth", "all", "--layout", "dot", "-o", out) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert re.search(r"--depth all \(5 levels\) would make a dot picture of about [\d,]+ x \d+ px "
                     r"\(\d+:1\), too wide to read: draw it radially with --layout twopi, or --depth 3, "
                     r"or add --force", err), err
    assert not out.exists()
    # --depth 4 is a strip too (684 discs in a row); --depth 3 (full-size guesses, tall) is not.
    assert run("render", KNUTH, "--depth", "4", "--layout", "dot", "-o", out) == 2
    assert "--depth 4 would make" in capsys.readouterr().err
    cert = json.loads(KNUTH.read_text())
    width, height = render.estimate_size(cert["tree"], 3)
    assert height > width and not render._strip((width, height))


def test_without_a_layout_the_strip_is_drawn_radially(tmp_path, capsys, no_graphviz):
    out = tmp_path / "all.dot"  # DOT source: no Graphviz run
    assert run("render", KNUTH, "--depth", "all", "-o", out, "--json") == 0
    captured = capsys.readouterr()
    info = json.loads(captured.out)
    assert info["layout"] == "twopi" and info["guess_nodes"] == 1378 and info["depth"] == 5
    width, height = info["estimated_px"]
    assert width > render.MAX_SIDE and width > render.MAX_RATIO * height
    (note,) = captured.err.splitlines()
    assert note.startswith("note: --depth all (5 levels) would make a dot picture") and \
        "drawn radially (--layout twopi)" in note and "--layout dot --force" in note
    assert 'ranksep="2.6:1.6:2.4:3"' in out.read_text()  # the radial layout's rings
    # --force keeps the strip asked for.
    assert run("render", KNUTH, "--depth", "all", "--layout", "dot", "--force", "-o", out, "--json") == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["layout"] == "dot" and not captured.err
    assert "rankdir=TB" in out.read_text()


def test_small_tree_still_renders_with_dot(tmp_path, capsys):
    out = tmp_path / "small.svg"
    code = run("render", SMALL, "--depth", "all", "-o", out, "--json")
    if not HAVE_DOT:
        assert code == 2 and "apt-get install graphviz" in capsys.readouterr().err
        pytest.skip("Graphviz's dot is not on the PATH: checked render's install message instead")
    captured = capsys.readouterr()
    info = json.loads(captured.out)
    assert code == 0 and info["layout"] == "dot" and info["depth"] == info["height"] and not captured.err
    width, height = svg_size(out)
    est_w, est_h = info["estimated_px"]
    assert max(width, height) < render.MAX_SIDE
    assert 0.6 < est_w / width < 1.6 and 0.6 < est_h / height < 1.6


def test_estimate_matches_the_strip_dot_draws(tmp_path, capsys):
    """The refused picture, drawn with --force, really is the strip the estimate announced."""
    if not HAVE_DOT:
        pytest.skip("Graphviz's dot is not on the PATH: the estimate was not compared with dot")
    out = tmp_path / "strip.svg"
    assert run("render", KNUTH, "--depth", "all", "--layout", "dot", "--force", "-o", out, "--json") == 0
    est_w, est_h = json.loads(capsys.readouterr().out)["estimated_px"]
    width, height = svg_size(out)
    assert width > render.MAX_SIDE and width > render.MAX_RATIO * height  # unreadable indeed
    assert 0.8 < est_w / width < 1.25 and 0.7 < est_h / height < 1.4


def test_help_states_the_limit():
    import io
    from contextlib import redirect_stdout

    buf = io.StringIO()
    with redirect_stdout(buf):
        assert run("render", "--help") == 0
    text = " ".join(buf.getvalue().split())
    assert f"longer than {render.MAX_SIDE} px and {render.MAX_RATIO} times its width" in text
    assert "--force" in text and "--letters" in text
