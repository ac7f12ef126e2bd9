"""The CLI explains itself: bare `certify` prints the help, every sub-command's --help has a
description and runnable-looking examples, and every --json output follows one shape (an object
whose first key is KIND_version)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from certify.__main__ import make_parser

ROOT = Path(__file__).resolve().parent.parent
KNUTH = ROOT / "certificates" / "knuth-4x6.json"
K33 = ROOT / "certificates" / "knuth-3x3.json"


def certify(*args):
    return subprocess.run([sys.executable, "-m", "certify", *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, timeout=300)


def sub_commands() -> list[str]:
    parser = make_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return list(sub.choices)


def test_bare_certify_prints_the_help():
    run = certify()
    assert run.returncode == 0 and run.stderr == ""
    assert run.stdout.startswith("usage: certify")
    for name in sub_commands():
        assert re.search(rf"^\s+{re.escape(name)}\b", run.stdout, re.M), name


@pytest.mark.parametrize("name", sub_commands())
def test_every_sub_command_has_a_description_and_an_example(name):
    run = certify(name, "--help")
    assert run.returncode == 0
    blocks = run.stdout.split("\n\n")
    assert blocks[0].startswith(f"usage: certify {name}")
    description = blocks[1].strip()
    assert description and not description.startswith(("positional", "options")), run.stdout
    examples = run.stdout.split("examples:\n", 1)[1].splitlines()
    assert examples and all(line.startswith(f"  certify {name}") for line in examples if line.strip())


def _json(*args):
    run = certify(*args)
    assert run.returncode in (0, 1), run.stderr
    return json.loads(run.stdout)


def test_every_json_output_has_a_version_key_first(tmp_path):
    outputs = {
        "build": _json("build", "knuth", "--pegs", 3, "--colors", 3, "-q", "-o", tmp_path / "k.json", "--json"),
        "verify": _json("verify", K33, "--json"),
        "stats": _json("stats", KNUTH, "--json"),
        "explain": _json("explain", KNUTH, "3132", "--json"),
        "compare": _json("compare", KNUTH, K33, "--json"),
        "strategies": _json("strategies", "--json"),
        "render": _json("render", K33, "-o", tmp_path / "k.dot", "--json"),
        "export": _json("export", K33, "-o", tmp_path / "k.graphml", "--json"),
        "consistent": _json("consistent", "0011=1,0", "--json"),
        "hint": _json("hint", "0011=1,0", "--json"),
        "table": _json("hint", "--pegs", 3, "--colors", 3, "--table", "--json"),
        "html": _json("html", K33, "-o", tmp_path / "k.html", "--json"),
        "bound": _json("bound", "--pegs", 3, "--colors", 3, "--worst", "-q", "-o", tmp_path / "b.json", "--json"),
    }
    for kind, doc in outputs.items():
        assert isinstance(doc, dict), kind
        first = next(iter(doc))
        assert first.endswith("_version") and doc[first] == 1, (kind, first)
    stats = outputs["stats"]
    assert stats["mean"] == stats["verified"]["total_guesses"] / stats["verified"]["secrets"]
    assert [s["id"] for s in outputs["strategies"]["strategies"]][0] == "knuth"
