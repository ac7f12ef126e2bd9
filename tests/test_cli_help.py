"""The CLI explains itself: bare `certify` prints the help, every sub-command's --help has a
description and runnable-looking examples, and every --json output follows one shape (an object
whose first key is KIND_version)."""

from __future__ import annotations

import argparse
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


def _arguments(parser=None, prefix=""):
    """(sub-command, action) for every argument of every sub-command (and of theirs: static build)
    but --help."""
    parser = parser or make_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sp in sub.choices.items():
        for action in sp._actions:
            if isinstance(action, argparse._SubParsersAction):
                yield from _arguments(sp, f"{prefix}{name} ")
            if not isinstance(action, argparse._HelpAction):
                yield prefix + name, action


def test_every_argument_of_every_sub_command_is_described():
    missing = [f"{name} {'/'.join(a.option_strings) or a.metavar or a.dest}" for name, a in _arguments()
               if not a.help or a.help == argparse.SUPPRESS or not a.help.strip()]
    assert missing == []
    # and --help shows it: a positional's line has text after its name
    run = certify("stats", "--help")
    assert re.search(r"^  FILE +\S", run.stdout, re.M), run.stdout


def test_dash_o_means_the_same_everywhere():
    """-o/--output names what the command writes, and its help says whether it is required or what
    the default is; value's two files take --prefix (its old -o is kept, marked deprecated)."""
    with_o = [(name, a) for name, a in _arguments() if "-o" in a.option_strings]
    assert {name for name, _ in with_o} >= {"build", "bound", "render", "export", "html", "import",
                                             "split-proof", "value"}
    for name, a in with_o:
        assert a.option_strings == ["-o", "--output"], name
        if name == "value":
            assert a.help.startswith("deprecated: the same as --prefix")
            continue
        assert " written" in a.help, (name, a.help)
        assert a.metavar == ("DIR" if name == "split-proof" else "FILE"), name
        assert a.help.count(" written") == 1, (name, a.help)
        assert a.help.endswith("; required") == a.required, (name, a.help)
        assert a.required or "default" in a.help, name


def test_dash_o_writes_the_bytes_it_would_print(tmp_path):
    """The same output, whether -o names a file or - (standard output), in every command that writes
    one text file."""
    runs = {
        "build": ("build", "knuth", "--pegs", 3, "--colors", 3),
        "bound": ("bound", "--pegs", 3, "--colors", 3, "--worst"),
        "html": ("html", K33),
        "import": ("import", "cpp-text", ROOT / "tests" / "data" / "import" / "knuth-3x3.txt"),
    }
    for name, args in runs.items():
        out = tmp_path / f"{name}.out"
        to_file = certify(*args, "-q", "-o", out)
        to_stdout = certify(*args, "-o", "-")  # not quiet: the summary goes to stderr, not into the output
        assert to_file.returncode == 0 == to_stdout.returncode, (name, to_file.stderr, to_stdout.stderr)
        assert out.read_text() == to_stdout.stdout and to_stdout.stdout, name


def test_value_takes_prefix_and_its_old_dash_o_with_a_note(tmp_path):
    new = certify("value", "--pegs", 2, "--colors", 2, "--prefix", tmp_path / "new")
    old = certify("value", "--pegs", 2, "--colors", 2, "-o", tmp_path / "old")
    assert new.returncode == 0 == old.returncode, (new.stderr, old.stderr)
    assert "deprecated" not in new.stderr and "-o PREFIX is deprecated" in old.stderr
    for side in ("codemaker", "codebreaker"):
        assert (tmp_path / f"new-{side}.json").read_bytes() == (tmp_path / f"old-{side}.json").read_bytes()
    quiet = certify("value", "--pegs", 2, "--colors", 2, "-o", tmp_path / "q", "-q")
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_stats_names_a_proof_path_that_works_from_where_the_user_stands(tmp_path):
    """From the repository the proof is shown relative to it; from elsewhere, a path that opens from
    there (it used to be relative to the repository wherever the user stood)."""
    for cwd in (ROOT, ROOT / "certificates", tmp_path):
        run = subprocess.run([sys.executable, "-m", "certify", "stats", str(KNUTH)], capture_output=True,
                             text=True, cwd=cwd, timeout=300)
        line = next(x for x in run.stdout.splitlines() if x.startswith("  proof certificate "))
        path, manifest = re.fullmatch(r"  proof certificate (\S+) \(listed in (\S+?)[,;] .*", line).groups()
        assert (cwd / path).is_file() and (cwd / manifest).is_file(), (cwd, line)
        assert (cwd / path).resolve() == ROOT / "certificates" / "bounds" / "worst-case-4x6.json"
        assert Path(path).is_absolute() == (cwd == tmp_path), line
