"""`certify import`: other programs' strategy trees become verified certificates.

Every format is round-tripped on trees of our own (tests/data/import/, written by
make_data.py's writers, which follow each program's writer and share no code with the importer),
and broken files (a missing branch, an answer in the wrong place, a wrong last guess, a false
statement, bad syntax) each give their one-line error and exit code."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from certify.__main__ import main

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "import"
CERTS = ROOT / "certificates"

_spec = importlib.util.spec_from_file_location("make_import_data", DATA / "make_data.py")
writers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(writers)


def run(capsys, *args):
    """(exit status, stdout, stderr) of `certify ARGS`, in this process."""
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def cert(name: str) -> dict:
    return json.loads((CERTS / name).read_text())


def imported(capsys, tmp_path, fmt, path, *options):
    out = tmp_path / "out.json"
    status, stdout, stderr = run(capsys, "import", fmt, path, "-o", out, *options)
    assert status == 0 and stderr == "", stderr
    assert stdout.startswith(f"{path} ({fmt}) -> {out}: valid: ")
    return json.loads(out.read_text())


def failure(capsys, tmp_path, fmt, text, *options, status=1):
    """The one line `certify import` prints for a file holding ``text``."""
    path = tmp_path / "broken"
    path.write_text(text)
    got, stdout, stderr = run(capsys, "import", fmt, path, "-o", tmp_path / "out.json", *options)
    assert got == status, stderr
    assert stdout == "" and stderr.count("\n") == 1 and "Traceback" not in stderr
    assert not (tmp_path / "out.json").exists()
    return stderr.strip()


def test_committed_data_is_what_the_writers_write():
    for name, text in writers.files().items():
        assert (DATA / name).read_text() == text, f"{name} is stale: run make_data.py"


ROUND_TRIPS = [(fmt, f"knuth-{game}{ext}", f"knuth-{game}.json")
               for game in ("3x3", "4x4")
               for fmt, ext in (("c-punchcard", ".cards"), ("c-yaml", ".yml"), ("cpp-text", ".txt"),
                                ("cuda-dot", ".gv"))]
ROUND_TRIPS.append(("cuda-dot", "knuth-3x3-solver.gv", "knuth-3x3.json"))


@pytest.mark.parametrize("fmt, name, source", ROUND_TRIPS)
def test_each_format_round_trips_our_tree(capsys, tmp_path, fmt, name, source):
    ours = cert(source)
    got = imported(capsys, tmp_path, fmt, DATA / name)
    assert got["game"] == ours["game"] and got["claims"] == ours["claims"]
    assert json.dumps(got["tree"]) == json.dumps(ours["tree"])  # the very tree, branches in order
    digest = hashlib.sha256((DATA / name).read_bytes()).hexdigest()
    assert got["strategy"]["name"] == "imported"
    assert got["strategy"]["params"]["format"] == fmt and got["strategy"]["params"]["sha256"] == digest


@pytest.mark.parametrize("fmt, write", [("c-punchcard", "write_punchcard"), ("c-yaml", "write_yaml"),
                                        ("cpp-text", "write_irving")])
def test_a_game_without_repetition_is_told_by_the_codes(capsys, tmp_path, fmt, write):
    ours = cert("optimal-total-3x4-norep.json")
    path = tmp_path / "tree"
    path.write_text(getattr(writers, write)(ours))
    got = imported(capsys, tmp_path, fmt, path)
    assert got["game"] == {"pegs": 3, "colors": 4, "repetition": False}
    assert got["tree"] == ours["tree"] and got["claims"] == ours["claims"]


@pytest.mark.parametrize("run_number, strategy, secret", [(1, "knuth", "210"), (2, "most-parts", "122")])
def test_cuda_results_are_rebuilt_and_every_number_checked(capsys, tmp_path, run_number, strategy, secret):
    from certify.certificate import make_certificate
    from certify.game import Game
    from certify.strategies import get_strategy

    got = imported(capsys, tmp_path, "cuda-json", DATA / "runs-3x3.json", "--run", run_number)
    record = [r["run"] for r in json.loads((DATA / "runs-3x3.json").read_text()) if "run" in r][run_number - 1]
    first = "".join(writers.OURS[writers.HEX.index(ch)] for ch in record["Initial Guess"])
    expected = make_certificate(get_strategy(strategy)(Game(3, 3), first=first))
    assert {k: v for k, v in got.items() if k != "generator"} == \
        {k: v for k, v in expected.items() if k != "generator"}
    assert got["claims"]["total_guesses"] == record["Total Turns"]


def test_cpp_text_reads_knuths_written_impossible_answer(capsys, tmp_path):
    """Knuth's tables write the answer (p-1,1), which never occurs, as "0,": the C++ reader
    takes it, and so does the importer."""
    text = (DATA / "knuth-3x3.txt").read_text()
    inner = list(re.finditer(r"; ([0-9]+) \(([0-9a-f]+): ", text))[0]  # the root's entry for 2,0
    path = tmp_path / "knuth.txt"
    path.write_text(text[:inner.start()] + "; 0, " + text[inner.start() + 2:])
    assert imported(capsys, tmp_path, "cpp-text", path)["tree"] == cert("knuth-3x3.json")["tree"]


def test_standard_input_to_standard_output():
    run = subprocess.run([sys.executable, "-m", "certify", "import", "c-yaml", "-", "-o", "-"], cwd=ROOT,
                         input=(DATA / "knuth-3x3.yml").read_text(), capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stderr == "- (c-yaml) -> standard output: valid: 27 secrets of 3x3, " \
        "max 4 guesses, total 74\n"
    assert json.loads(run.stdout)["tree"] == cert("knuth-3x3.json")["tree"]


# -- broken files -----------------------------------------------------------------------------


def cards_lines():
    return (DATA / "knuth-4x4.cards").read_text().split("\n")


def path_text(*steps):
    return " ".join(f"{g} -({b},{w})->" for g, (b, w) in steps)


def test_punchcard_missing_branch_names_the_secret(capsys, tmp_path):
    lines = cards_lines()
    fields = lines[1].split()
    root, leaf = fields[2], fields[3]  # the root's first answer leaves one secret: written as a code
    lines[1] = lines[1].replace(f" {leaf} ", " ---- ", 1)
    b, w = writers.feedback(root, leaf)
    line = failure(capsys, tmp_path, "c-punchcard", "\n".join(lines))
    assert line.endswith(f": invalid: secret {leaf}: the first guess {root} has no branch for its "
                         f"answer ({b},{w}) (line 2)")


def test_punchcard_answer_in_the_wrong_column(capsys, tmp_path):
    lines = cards_lines()
    header = lines[0].split()
    row = lines[2].split()   # line 001: the root's second answer
    j = next(i for i, cell in enumerate(row[3:]) if cell[0].isdigit() and header[i] != "XXXX")
    k = next(i for i in range(j + 1, len(header)) if row[3 + i] == "----")
    leaf = row[3 + j]
    row[3 + j], row[3 + k] = "----", leaf
    lines[2] = " ".join(row)
    root = lines[1].split()[2]
    line = failure(capsys, tmp_path, "c-punchcard", "\n".join(lines))
    b, w = writers.feedback(row[2], leaf)
    assert line.endswith(f"secret {leaf}: the guess {row[2]} after {path_text((root, writers.feedback(root, leaf)))} "
                         f"has no branch for its answer ({b},{w}) (line 3)")


def test_punchcard_wrong_last_guess(capsys, tmp_path):
    lines = cards_lines()
    leaf = lines[1].split()[3]
    wrong = leaf[:-1] + ("0" if leaf[-1] != "0" else "1")
    lines[1] = lines[1].replace(f" {leaf} ", f" {wrong} ", 1)
    root = lines[1].split()[2]
    line = failure(capsys, tmp_path, "c-punchcard", "\n".join(lines))
    assert line.endswith(f"secret {leaf}: the file says the guess {wrong} after "
                         f"{path_text((root, writers.feedback(root, leaf)))} is the secret left there "
                         f"(line 2), but the secret left there is {leaf}")


def test_punchcard_unmarked_win(capsys, tmp_path):
    lines = cards_lines()
    root = lines[1].split()[2]
    assert lines[1].endswith(f" {root}")  # Knuth's first guess is a secret: its XXXX column names it
    lines[1] = lines[1][: -len(root)] + "----"
    line = failure(capsys, tmp_path, "c-punchcard", "\n".join(lines))
    assert line.endswith(f"secret {root}: found in 1 guess by the first guess {root}, but the file "
                         "does not count it found there (line 2)")


def test_punchcard_syntax_errors_name_the_line(capsys, tmp_path):
    lines = cards_lines()
    lines[3] = lines[3].rsplit(" ", 1)[0]
    line = failure(capsys, tmp_path, "c-punchcard", "\n".join(lines), status=2)
    assert line.endswith(":4: expected 17 fields (line number, guess number, guess, 14 answers), got 16")
    lines = cards_lines()
    fields = lines[3].split()
    lines[3] = " ".join([fields[0], "7", *fields[2:]])
    assert failure(capsys, tmp_path, "c-punchcard", "\n".join(lines), status=2).endswith(
        ":4: guess number 7, but it follows guess number 2 (line 001)")
    assert "expected the header" in failure(capsys, tmp_path, "c-punchcard", "000 1 0012\n", status=2)


def test_yaml_errors(capsys, tmp_path):
    text = (DATA / "knuth-3x3.yml").read_text()
    line = failure(capsys, tmp_path, "c-yaml", text.replace("XO-: 220", 'XO-: "220', 1), status=2)
    assert line.startswith("certify import: error: ") and ": not YAML: " in line
    assert line.split(": not YAML: ")[0].endswith(f":{text.count(chr(10)) + 1}")  # the end: quote unclosed
    broken = text.replace("XO-: 220", "XO-: 202", 1)
    path = path_text(("001", writers.feedback("001", "220")), ("122", writers.feedback("122", "220")))
    assert failure(capsys, tmp_path, "c-yaml", broken).endswith(
        f"secret 220: the file says the guess 202 after {path} is the secret left there (line 6), "
        "but the secret left there is 220")
    assert failure(capsys, tmp_path, "c-yaml", "- &a 001\n- ---: *a\n", status=2).endswith(
        ":1: YAML anchors and aliases are not part of the format")
    # A scalar stays the string written: 0012 is a code, not the octal number 10.
    assert failure(capsys, tmp_path, "c-yaml", "- 001\n- XXX: 010\n", status=2).endswith(
        ":2: the win XXX must name the guess itself, got '010'")


def test_cpp_text_errors(capsys, tmp_path):
    text = (DATA / "knuth-3x3.txt").read_text()
    root = text.split("(")[1].split(":")[0]            # as the file writes it: 1-based
    theirs = {o: t for o, t in zip(writers.OURS, writers.IRVING)}
    ours_root = "".join(writers.OURS[writers.IRVING.index(ch)] for ch in root)
    secrets = writers.codes(cert("knuth-3x3.json")["game"])
    # A count that is wrong: the first class after the root is not what the file says.
    first = text.split(": 0, ", 1)[1].split(" ", 1)[0]
    broken = text.replace(f": 0, {first} ", f": 0, {int(first) + 1} ", 1)
    cls = [s for s in secrets if writers.feedback(ours_root, s) == (0, 2)]
    assert len(cls) == int(first)
    assert failure(capsys, tmp_path, "cpp-text", broken).endswith(
        f"after {root} -(0,2)->: the file counts {int(first) + 1} secrets left (line 1), but "
        f"{len(cls)} are left there ({', '.join(''.join(theirs[c] for c in s) for s in cls[:3])}"
        f"{', ...' if len(cls) > 3 else ''})")
    # '(G)' says every answer leaves one secret: not so for an elaborated guess.
    inner = list(re.finditer(r"([0-9]+) \(([0-9a-f]+): ", text))[1]   # the first elaborated child
    count, guess = inner.group(1), inner.group(2)
    end, depth = inner.end(), 1
    while depth:
        depth += {"(": 1, ")": -1}.get(text[end], 0)
        end += 1
    line = failure(capsys, tmp_path, "cpp-text", text[:inner.start()] + f"{count} ({guess})" + text[end:])
    assert line.split(": invalid: ", 1)[1].startswith("secret ") and "leaves 2 secrets" in line
    assert f"the file is wrong at line 1: its ({guess}) says every answer to {guess} leaves one secret" in line
    assert failure(capsys, tmp_path, "cpp-text", text.replace("; 1)", ", 1)", 1), status=2).startswith(
        "certify import: error: ") and "expected ';' after the entry for answer" in \
        failure(capsys, tmp_path, "cpp-text", text.replace("; 1)", ", 1)", 1), status=2)
    assert failure(capsys, tmp_path, "cpp-text", text.replace("27 (", "26 (", 1), status=2).endswith(
        ":1: 26 secrets at the root is the size of no game of 3 pegs: give --colors (and --no-repetition)")


def test_cuda_dot_errors(capsys, tmp_path):
    text = (DATA / "knuth-3x3.gv").read_text()
    edge = next(line for line in text.splitlines() if "->" in line and line.startswith("140565240896320 "))
    label = edge.split('label="')[1][:2]
    target = edge.split(" -> ")[1].split(" ")[0]
    moved = edge.replace(f'label="{label}"', 'label="21"')  # the same child under another answer
    line = failure(capsys, tmp_path, "cuda-dot", text.replace(edge, moved))
    assert ": invalid: " in line and "the first guess 112 has" in line
    # Without its edge, the child hangs from nothing.
    line = failure(capsys, tmp_path, "cuda-dot", text.replace(edge + "\n", ""), status=2)
    assert line.startswith("certify import: error: ") and "is not reached from the first guess" in line
    assert target in text
    assert failure(capsys, tmp_path, "cuda-dot", text.replace("digraph", "graph", 1), status=2).endswith(
        ":1: expected 'digraph' (a GraphViz strategy dump)")


def test_cuda_json_false_claims(capsys, tmp_path):
    doc = json.loads((DATA / "runs-3x3.json").read_text())
    knuth = cert("knuth-3x3.json")
    record = doc[1]["run"]
    for key, value, expected in [
        ("Total Turns", 75, "the file claims 75 guesses in all, certify's knuth from 112 takes 74"),
        ("Max Turns", 3, "but the file claims at most 3"),
        ("Sample Game", ["112", "211", "321"], "secret 321: the file's sample game plays 112 211 321, "
                                              "certify's knuth from 112 plays 112"),
    ]:
        broken = json.loads(json.dumps(doc))
        broken[1]["run"][key] = value
        line = failure(capsys, tmp_path, "cuda-json", json.dumps(broken), "--run", 1)
        assert line.startswith(f"{tmp_path / 'broken'}: invalid: run 1 (Knuth 3p3c): ")
        assert expected in line, line
    assert knuth["claims"]["total_guesses"] == record["Total Turns"] == 74
    assert failure(capsys, tmp_path, "cuda-json", json.dumps(doc), status=2).endswith(
        "2 runs in the file: choose one with --run N (1..2)")
    doc[1]["run"]["Strategy"] = "Random"
    assert "no certify strategy follows 'Random'" in failure(capsys, tmp_path, "cuda-json", json.dumps(doc),
                                                            "--run", 1, status=2)


# -- files, limits, output ----------------------------------------------------------------------


def test_hostile_input_gives_one_line_and_no_traceback(tmp_path):
    big = tmp_path / "big.cards"
    with open(big, "wb") as f:
        f.truncate((256 << 20) + 1)  # sparse: refused from its size, never read
    deep = tmp_path / "deep.yml"
    deep.write_text("[" * 100_000)
    nested = tmp_path / "deep.txt"
    nested.write_text("27 (112: " + "3 (113: " * 100_000)
    escape = tmp_path / "escape.cards"
    escape.write_text("---- XXXX\n000 1 0\x1b[31m1 ---- ----\n")
    for fmt, path, words in [("c-punchcard", big, "larger than 268435456 bytes"),
                             ("c-yaml", deep, "not YAML"), ("cpp-text", nested, "deeper than 256 guesses"),
                             ("c-punchcard", escape, "\\x1b")]:
        run = subprocess.run([sys.executable, "-m", "certify", "import", fmt, str(path), "-o",
                              str(tmp_path / "o.json")], capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert run.returncode == 2, run.stderr
        assert run.stderr.count("\n") == 1 and words in run.stderr and "\x1b" not in run.stderr, run.stderr


def test_output_rules_and_json(capsys, tmp_path):
    src = tmp_path / "tree.cards"
    src.write_bytes((DATA / "knuth-3x3.cards").read_bytes())
    status, _, err = run(capsys, "import", "c-punchcard", src, "-o", src)
    assert status == 2 and "it is the input file" in err
    assert src.read_bytes() == (DATA / "knuth-3x3.cards").read_bytes()
    status, out, err = run(capsys, "import", "c-punchcard", src, "-o", tmp_path / "k.json.gz", "--json")
    doc = json.loads(out)
    assert status == 0 and next(iter(doc)) == "import_version" and doc["claims"] == cert("knuth-3x3.json")["claims"]
    import gzip

    assert json.loads(gzip.decompress((tmp_path / "k.json.gz").read_bytes()))["tree"] == cert("knuth-3x3.json")["tree"]
    status, _, err = run(capsys, "import", "c-punchcard", src, "-o", tmp_path / "x.json", "--run", 2)
    assert status == 2 and "--run goes with cuda-json" in err
    status, _, err = run(capsys, "import", "c-punchcard", src, "-o", tmp_path / "x.json", "--pegs", 4)
    assert status == 2 and "the file's codes have 3 pegs, --pegs says 4" in err
    assert set(os.listdir(tmp_path)) == {"tree.cards", "k.json.gz"}  # no output from a refused import


# -- what real files hold: the writer's echo, Knuth's unelaborated situations, gzip ----------------


def echoed(lines):
    """The punch cards as the current mastermind.c writes them: every row's guess in the win column."""
    out, rows = [lines[0]], 0
    for line in lines[1:]:
        fields = line.split()
        if len(fields) > 3 and fields[-1] == "----":
            line = line[:-4] + fields[2]
            rows += 1
        out.append(line)
    return out, rows


def test_punchcard_echo_of_the_guess_is_read_as_an_echo(capsys, tmp_path):
    """mastermind.c stores each row's guess in the XXXX column, even where it cannot win: a file that
    writes ---- in no row of that column has those cells read as the echo, never reached, and says so."""
    lines, rows = echoed(cards_lines())
    assert rows == 11
    path = tmp_path / "echo.cards"
    path.write_text("\n".join(lines))
    out = tmp_path / "out.json"
    status, stdout, stderr = run(capsys, "import", "c-punchcard", path, "-o", out)
    assert status == 0 and stderr == (f"{path}: note: read 11 win marks as the writer's echo of a guess that "
                                      "is not a secret left there (the column is never reached there)\n")
    got = json.loads(out.read_text())
    ours = cert("knuth-4x4.json")
    assert got["tree"] == ours["tree"] and got["claims"] == ours["claims"]
    assert got["strategy"]["params"]["echoes"] == 11
    assert run(capsys, "import", "c-punchcard", path, "-o", out, "-q")[::2] == (0, "")  # -q: no note


def test_punchcard_real_contradictions_are_still_refused(capsys, tmp_path):
    """A file that writes ---- somewhere states the wins: a guess named where it is not a secret left
    is refused there; and ---- where the guess wins is refused in every file."""
    lines = cards_lines()
    row = next(i for i, line in enumerate(lines) if i and line.split()[-1:] == ["----"])
    fields = lines[row].split()
    lines[row] = lines[row][:-4] + fields[2]
    line = failure(capsys, tmp_path, "c-punchcard", "\n".join(lines))
    assert f"the file says the guess {fields[2]} " in line and "is a secret left there" in line
    lines, _ = echoed(cards_lines())
    root = lines[1].split()[2]
    lines[1] = lines[1][: -len(root)] + "----"
    assert failure(capsys, tmp_path, "c-punchcard", "\n".join(lines)).endswith(
        f"secret {root}: found in 1 guess by the first guess {root}, but the file does not count it found "
        "there (line 2)")


def knuth_notation():
    """Our 3x3 tree written with Knuth's shorthands: a bare 2 ("guess either") and (Gx) ("every
    answer leaves at most two"), for a (G) and for the elaborated (113: ...)."""
    text = (DATA / "knuth-3x3.txt").read_text()
    assert "2 (121)" in text and "6 (133)" in text and "6 (113: 0, 0, 0, 0; 0, 2 (132), 2 (122); 1; 1)" in text
    return (text.replace("2 (121)", "2").replace("6 (133)", "6 (133x)")
            .replace("6 (113: 0, 0, 0, 0; 0, 2 (132), 2 (122); 1; 1)", "6 (113x)"))


def test_cpp_text_completes_knuths_trivial_situations(capsys, tmp_path):
    path = tmp_path / "knuth.txt"
    path.write_text(knuth_notation())
    out = tmp_path / "out.json"
    status, stdout, stderr = run(capsys, "import", "cpp-text", path, "-o", out)
    assert status == 0, stderr
    assert stderr.endswith(f"{path}: note: completed 3 trivial situations the file leaves unelaborated (a bare "
                           "2 or an 'x': the secrets left played in code order)\n")
    got = json.loads(out.read_text())
    # The rule, the secrets left played in code order, gives back our tree (which plays them so):
    # at (1,2) the bare 2 plays 121 (certify's 010) then 211 (100); at (2,0) 113x plays 113 (002),
    # then on (1,0) 122 (011) before 212 (101), on (1,1) 132 (021) before 312 (201).
    assert got["tree"] == cert("knuth-3x3.json")["tree"]
    assert got["tree"]["next"]["1,2"] == {"guess": "010", "next": {"1,2": {"guess": "100"}}}
    assert got["claims"] == cert("knuth-3x3.json")["claims"] and got["strategy"]["params"]["completed"] == 3
    again = tmp_path / "again.json"
    assert run(capsys, "import", "cpp-text", path, "-o", again, "-q")[0] == 0
    assert again.read_bytes() == out.read_bytes()  # deterministic


def test_cpp_text_refuses_what_completion_cannot_decide(capsys, tmp_path):
    text = (DATA / "knuth-3x3.txt").read_text()
    assert failure(capsys, tmp_path, "cpp-text", text.replace("3 (231)", "3"), status=2).endswith(
        ":1: 3 secrets left, but no guess for them (only 0, 1 or 2 may stand alone: for 3 or more, which "
        "guess is played changes the total)")
    # 333 leaves 111, 122 and 212 on (0,0) of the 6 secrets left after 112 -(2,0)->
    line = failure(capsys, tmp_path, "cpp-text",
                   text.replace("6 (113: 0, 0, 0, 0; 0, 2 (132), 2 (122); 1; 1)", "6 (333x)"))
    assert line.endswith(": invalid: secret 111: the file is wrong at line 1: its (333x) says every answer to "
                         "333 leaves at most two secrets, but answer (0,0) to the guess 333 after 112 -(2,0)-> "
                         "leaves 3 secrets (111, 122, 212)")
    assert failure(capsys, tmp_path, "cpp-text", text.replace("(233)", "(233x: 1)"), status=2).endswith(
        ":1: expected ')' after the 'x' mark (answers leave at most two secrets, not written), got ': 1), 1; 2 ('")


def test_cpp_text_checks_g_only_where_the_file_marks_g_star(capsys, tmp_path):
    """(G) says G is a secret left only in a file that marks the others (G*): Knuth's notation has no '*'."""
    text = (DATA / "knuth-3x3.txt").read_text()
    assert "*" not in text
    # 122 is not one of 221, 231, 321 (left after 112 -(0,2)->), and tells them apart.
    path = tmp_path / "knuth.txt"
    path.write_text(text.replace("3 (231)", "3 (122)"))
    status, stdout, stderr = run(capsys, "import", "cpp-text", path, "-o", tmp_path / "ok.json")
    assert status == 0 and stderr == (f"{path}: note: read 1 (G) guess that is not a secret left, though not "
                                      "marked '*': the file marks none (Knuth's notation), so (G) does not say "
                                      "whether G is one\n")
    assert json.loads((tmp_path / "ok.json").read_text())["strategy"]["params"]["unmarked"] == 1
    # The same in a file that marks 232 '*' (rightly: not one of 223, 233, 323, 331): (122) is a claim.
    starred = text.replace("3 (231)", "3 (122)").replace("4 (233)", "4 (232*)")
    assert failure(capsys, tmp_path, "cpp-text", starred).endswith(
        ": invalid: secret 221: the file says the guess 122 after 112 -(0,2)-> is a secret left there (line 1), "
        "but it is not one of the 3 secrets left there (221, 231, 321)")


@pytest.mark.parametrize("fmt, name", [(fmt, name) for fmt, name, _ in ROUND_TRIPS] +
                         [("cuda-json", "runs-3x3.json")])
def test_every_format_reads_gzip(capsys, tmp_path, fmt, name):
    import gzip

    path = tmp_path / (name + ".gz")
    raw = gzip.compress((DATA / name).read_bytes(), mtime=0)
    path.write_bytes(raw)
    options = ("--run", 1) if fmt == "cuda-json" else ()
    got = imported(capsys, tmp_path, fmt, path, *options)
    plain = imported(capsys, tmp_path, fmt, DATA / name, *options)
    assert got["tree"] == plain["tree"] and got["claims"] == plain["claims"]
    if fmt != "cuda-json":
        assert got["strategy"]["params"]["sha256"] == hashlib.sha256(raw).hexdigest()  # the file as given


def test_gzip_is_bounded_and_checked(capsys, tmp_path, monkeypatch):
    import gzip

    from certify import importers

    path = tmp_path / "tree.gv.gz"
    path.write_bytes(gzip.compress(b"x" * 5000, mtime=0))
    monkeypatch.setattr(importers, "MAX_BYTES", 4096)
    with pytest.raises(importers.ParseError, match="decompresses to more than 4096 bytes"):
        importers.import_certificate("cuda-dot", path.read_bytes(), "tree.gv.gz")
    monkeypatch.undo()
    assert failure(capsys, tmp_path, "cuda-dot", "", status=2)  # an empty file: one line
    path = tmp_path / "broken"
    path.write_bytes(gzip.compress(b"digraph {}", mtime=0)[:-6])
    got, stdout, stderr = run(capsys, "import", "cuda-dot", path, "-o", tmp_path / "out.json")
    assert got == 2 and stderr.startswith(f"certify import: error: {path}: corrupt gzip data") and \
        stderr.count("\n") == 1
