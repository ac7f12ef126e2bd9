"""`render`, `render --book` and `export` of a black-peg certificate (issue 37, item 4): its keys are
one number, drawn as black key pegs only ("●● 2"), and every count is replayed here with the
independent verifier's ``blacks``, never read from the drawing code.
"""

from __future__ import annotations

import json

import networkx as nx
from pypdf import PdfReader
from conftest import CERTS
from test_render import HAVE_DOT, graph_label, groups, texts, title, tooltip

from certify import verify
from certify.__main__ import main
from certify.render import parse_at

SRC = CERTS / "black-peg" / "optimal-total-4x4-black.json"
P, C = 4, 4


def run(*args) -> int:
    try:
        return main([str(a) for a in args])
    except SystemExit as e:
        return e.code


def key(guess: str, secret: str) -> str:
    return str(verify.blacks(guess, secret)[0])


def reaching(cert: dict, keys) -> tuple[dict, list[str]]:
    node, here = cert["tree"], verify.codes(P, C, True)
    for k in keys:
        here = [s for s in here if key(node["guess"], s) == k]
        node = node["next"][k]
    return node, here


def path_of(cert: dict, secret: str) -> list[str]:
    node, out = cert["tree"], [cert["tree"]["guess"]]
    while node["guess"] != secret:
        node = node["next"][key(node["guess"], secret)]
        out.append(node["guess"])
    return out


def test_render_draws_black_key_pegs_with_replayed_counts(tmp_path):
    cert = json.loads(SRC.read_text())
    secret = "3102"
    path = path_of(cert, secret)
    dot = tmp_path / "b.dot"  # Graphviz's source needs no dot program: checked everywhere
    assert run("render", SRC, "-o", dot, "--depth", 2, "--secret", secret) == 0
    source = dot.read_text()
    assert "black pegs only" in source and "\u25CB" not in source and "white key peg" not in source
    assert 'tooltip="2: 2 black"' in source and "●●</FONT>" in source
    if not HAVE_DOT:
        return
    svg = tmp_path / "b.svg"
    assert run("render", SRC, "-o", svg, "--depth", 2, "--secret", secret) == 0
    label = graph_label(svg)
    assert "on 4 pegs x 4 colours, black pegs only" in label and f"secret {secret}: found in {len(path)}" in label
    assert "white key peg" not in label and "no key peg (black pegs only)" in label
    keys = {title(g): g for g in groups(svg, "key")}
    branches = cert["tree"]["next"]
    assert set(keys) == {f"n/{k}|key" for k in branches} | {f"n/{k}|key" for k in path_keys(cert, secret)}
    for k in branches:
        g = keys[f"n/{k}|key"]
        b = int(k)
        assert tooltip(g) == f"{k}: {k} black"
        assert "".join(texts(g)).replace(" ", "") == ("●" * b + k if b else "none")
        node, here = reaching(cert, [k])
        guess = next(g for g in groups(svg, "guess") if title(g) == f"n/{k}")
        assert f"{len(here)} secrets" in " ".join(texts(guess))
    # The secret's path: its guesses, in order, are the certificate's under the black-only rule.
    marked = [g for g in groups(svg, "path") if "guess" in g.get("class").split()]
    assert ["".join(t for t in texts(g) if len(t.strip()) == 1) for g in marked] == path
    assert all("○" not in "".join(texts(g)) for g in groups(svg, "key"))


def path_keys(cert: dict, secret: str) -> list[str]:
    """The keys of ``secret``'s path from the root, joined as render names its nodes."""
    node, names, name = cert["tree"], [], ""
    while node["guess"] != secret:
        k = key(node["guess"], secret)
        name = f"{name}/{k}" if name else k
        names.append(name)
        node = node["next"][k]
    return names


def test_at_takes_a_black_peg_step_and_names_the_branches(tmp_path, capsys):
    assert parse_at("1/ 2 /0") == ("1", "2", "0") and parse_at("1,0/0,2") == ("1,0", "0,2")
    cert = json.loads(SRC.read_text())
    out = tmp_path / "at.dot"
    assert run("render", SRC, "-o", out, "--at", "1/1", "--depth", 1) == 0
    node, here = reaching(cert, ["1", "1"])
    assert f"{len(here)} secrets" in out.read_text()
    assert f"the subtree at {cert['tree']['guess']} -(1)-> {cert['tree']['next']['1']['guess']} -(1)->" \
        in out.read_text()
    capsys.readouterr()
    assert run("render", SRC, "-o", tmp_path / "x.dot", "--at", "1,0") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "step 1 '1,0' does not exist after 0000 (its branches: 0, 1, 2, 3)" in err


def test_book_of_a_black_peg_certificate(tmp_path):
    cert = json.loads(SRC.read_text())
    out = tmp_path / "book.pdf"
    assert run("render", SRC, "--book", "-o", out) == 0
    pages = [p.extract_text() for p in PdfReader(out).pages]
    first = pages[0]
    assert first.startswith("optimal-total on 4 pegs x 4 colours, black pegs only")
    assert "white key peg" not in first and "no white pegs in this game" in first
    lines = ["".join(line.split()) for line in first.splitlines()]  # (the text's spacing varies)
    for k, child in cert["tree"]["next"].items():  # each reply: its key's number, its guess, replayed counts
        _, here = reaching(cert, [k])
        want = ("none0" if k == "0" else k) + child["guess"] + f"{len(here)}secrets,"
        assert any(line.startswith(want) for line in lines), (want, lines)
    # Each subtree's page is titled with its path in the one-number keys.
    root = cert["tree"]
    titles = {p.splitlines()[0] for p in pages[1:]}
    for k, child in root["next"].items():
        if "next" in child:
            assert f"{root['guess']} -({k})-> {child['guess']}" in titles
    again = tmp_path / "again.pdf"
    assert run("render", SRC, "--book", "-o", again) == 0 and again.read_bytes() == out.read_bytes()


def test_export_of_a_black_peg_certificate(tmp_path):
    cert = json.loads(SRC.read_text())
    out = tmp_path / "tree.graphml"
    assert run("export", SRC, "-o", out) == 0
    g = nx.read_graphml(str(out))
    assert g.graph["feedback"] == "black-only"
    found: dict[int, int] = {}
    for name, data in g.nodes(data=True):
        keys = [] if name == "root" else name.split("/")
        node, here = reaching(cert, keys)
        assert data["guess"] == node["guess"] and int(data["secrets"]) == len(here)
        assert int(data["wins"]) == (node["guess"] in here)
        found[int(data["depth"])] = found.get(int(data["depth"]), 0) + int(data["wins"])
    assert {str(k): v for k, v in sorted(found.items())} == cert["claims"]["histogram"]
    for a, b, data in g.edges(data=True):
        assert "," not in data["feedback"] and int(data["black"]) == int(data["feedback"]) and int(data["white"]) == 0


def test_the_api_draws_a_black_peg_certificate():
    """Certificate.svg goes through the same build_graph (it raised a KeyError on "B" keys before)."""
    from certify import api

    cert = api.load(SRC)
    source = cert.svg(depth=2) if HAVE_DOT else None
    if source is not None:
        assert "black pegs only" in source and "\u25CB" not in source and "2: 2 black" in source
    from certify.render import build_graph

    g, info = build_graph(json.loads(SRC.read_text()), depth=2, at=parse_at("2"))
    node, here = reaching(json.loads(SRC.read_text()), ["2"])
    assert info["start"] == node["guess"] and f"{len(here)} secrets" in g.source
