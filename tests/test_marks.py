"""`explain` and `render` mark the guesses that cannot be the secret (not candidates), as checked by
brute force with the verifier's feedback rule over every code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from certify import verify
from certify.certificate import read

ROOT = Path(__file__).resolve().parent.parent
KNUTH = ROOT / "certificates" / "knuth-4x6.json"


def certify(*args):
    return subprocess.run([sys.executable, "-m", "certify", *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)


def non_candidates(cert) -> int:
    """Nodes of the tree whose guess is not among the secrets that reach them."""
    g = cert["game"]
    stack, count = [(cert["tree"], verify.codes(g["pegs"], g["colors"], g["repetition"]))], 0
    while stack:
        node, here = stack.pop()
        count += node["guess"] not in here
        for key, child in node.get("next", {}).items():
            fb = tuple(map(int, key.split(",")))
            stack.append((child, [s for s in here if verify.feedback(node["guess"], s) == fb]))
    return count


def test_explain_marks_a_guess_that_cannot_be_the_secret(capsys):
    """`certify explain` run in this process (72 command lines; as child processes they took 12 s
    for process start-up alone; the CLI's own process is run by the render test below)."""
    from certify.__main__ import main

    def explain(*args):
        capsys.readouterr()
        assert main(["explain", str(KNUTH), *args]) == 0
        return capsys.readouterr().out

    codes = verify.codes(4, 6, True)
    marked = 0
    for secret in codes[::37]:
        doc = json.loads(explain(secret, "--json"))
        text = explain(secret).splitlines()[1:]
        here = codes
        for step, line in zip(doc["steps"], text):
            assert step["candidate"] == (step["guess"] in here)
            assert ("was not a candidate" in line) == (not step["candidate"])
            marked += not step["candidate"]
            here = [c for c in here if verify.feedback(step["guess"], c) == (step["black"], step["white"])]
    assert marked  # Knuth's tree does play such guesses


def test_render_marks_non_candidates(tmp_path):
    cert = read(KNUTH)
    out = tmp_path / "all.dot"
    run = certify("render", KNUTH, "-o", out, "--depth", "all", "--json")
    assert run.returncode == 0, run.stderr
    info = json.loads(run.stdout)
    expected = non_candidates(cert)
    assert expected > 0
    assert info["not_candidate_nodes"] == expected
    source = out.read_text()
    assert source.count("not-candidate") == expected
    small = tmp_path / "top.dot"
    run = certify("render", KNUTH, "-o", small, "--depth", 2, "--json")
    info = json.loads(run.stdout)
    assert small.read_text().count("not a candidate</I>") == info["not_candidate_nodes"]
