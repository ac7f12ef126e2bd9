"""Each kind says what it is, and the command line's habits (issue 43 items 5 and 8): a command
that reads strategy certificates, given a file of another kind, names the kind and the command
that reads it (exit 2), instead of "invalid: format: expected ..."; errors name the sub-command and
suggest the nearest command for a typo; '-' reads standard input; broken JSON is said before the
kind; the docs say how to serve the site for its search."""

from __future__ import annotations

import pytest

from conftest import CERTS, ROOT, run_cli

STATIC = CERTS / "static" / "static-2x10.json"
STATIC_PROOF = CERTS / "static" / "static-2x10-proof.json"
MIXED = CERTS / "value" / "value-2x10-codebreaker.json"
BOUND = CERTS / "bounds" / "total-2x6.json"
K46 = CERTS / "knuth-4x6.json"


def _args(command: str, path, tmp_path) -> list:
    return {"explain": ["explain", path, "01"], "html": ["html", path, "-o", tmp_path / "x.html"],
            "render": ["render", path, "-o", tmp_path / "x.svg"]}.get(command, [command, path])


@pytest.mark.parametrize("command", ["stats", "explain", "html", "render", "play", "compare"])
def test_a_file_of_another_kind_is_named_with_the_command_that_reads_it(command, tmp_path):
    for path, kind, reader in [(STATIC, "a static Mastermind certificate", f"`certify static verify {STATIC}`"),
                               (STATIC_PROOF, "a static Mastermind lower bound", "`certify static verify CERT "),
                               (MIXED, "a mixed-strategy certificate", f"`certify verify {MIXED}`"),
                               (BOUND, "a lower-bound proof", f"`certify verify {BOUND}`")]:
        done = run_cli(*_args(command, path, tmp_path), input="")
        assert done.returncode == 2, (command, path, done.stderr)
        assert done.stderr.startswith(f"certify {command}: error: {path}: this is {kind} "), done.stderr
        assert f"(`certify {command}` reads strategy certificates): check it with {reader}" in done.stderr
        assert "invalid" not in done.stderr and done.stderr.count("\n") == 1


def test_a_broken_strategy_certificate_is_still_invalid(tmp_path):
    broken = tmp_path / "b.json"
    broken.write_text(K46.read_text().replace('"format": "mastermind-strategy-certificate"', '"format": "other"'))
    done = run_cli("stats", broken)
    assert done.returncode == 1 and "invalid: format: expected 'mastermind-strategy-certificate', got 'other'" in done.stderr


def test_json_errors_come_before_kind_errors(tmp_path):
    cut = tmp_path / "cut.json"
    cut.write_bytes(K46.read_bytes()[:1000])  # a strategy certificate cut short
    done = run_cli("why", cut)
    assert done.returncode == 1 and "invalid: not valid JSON" in done.stderr and "lower-bound" not in done.stderr
    done = run_cli("why", K46)  # whole, it is named as what it is
    assert done.returncode == 2 and "is a strategy certificate, not a lower-bound proof" in done.stderr


def test_errors_name_the_sub_command_and_suggest_the_nearest():
    done = run_cli("why", "x.json", "--foo")
    assert done.returncode == 2
    assert done.stderr == "certify why: error: unrecognized arguments: --foo (see 'certify why --help')\n"
    done = run_cli("static", "verify", "a", "--zz")
    assert done.stderr.startswith("certify static verify: error: unrecognized arguments: --zz")
    done = run_cli("verfy", "x.json")
    assert done.returncode == 2
    assert done.stderr == ("certify: error: argument COMMAND: invalid choice: 'verfy'; did you mean 'verify'? "
                           "(see 'certify --help')\n")
    done = run_cli("zzzzzz")  # nothing near: the list of commands
    assert "did you mean" not in done.stderr and "(choose from 'build'" in done.stderr


def test_standard_input_is_read_where_a_file_is():
    text = K46.read_text()
    done = run_cli("verify", "-", input=text)
    assert done.returncode == 0 and done.stdout == "standard input: valid: 1296 secrets of 4x6, max 5 guesses, total 5801\n"
    done = run_cli("stats", "-", input=text)
    assert done.returncode == 0 and "knuth on 4 pegs x 6 colours" in done.stdout
    done = run_cli("why", "-", input=(CERTS / "bounds" / "worst-case-3x3.json").read_text())
    assert done.returncode == 0 and done.stdout.startswith("standard input: valid lower bound")
    done = run_cli("verify", "-", input="")
    assert done.returncode == 1 and "standard input: invalid: empty file" in done.stderr


def test_the_docs_say_how_to_serve_the_site():
    makefile = (ROOT / "Makefile").read_text()
    assert "\ndocs-serve: docs\n" in makefile and "http.server" in makefile
    for page in (ROOT / "README.md", ROOT / "docs" / "getting-started.md"):
        assert "make docs-serve" in page.read_text(), page
