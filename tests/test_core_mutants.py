"""Tests written for the mutants of the trusted core that the suite let live (issue 35,
docs/mutation-testing.md): each checks what a checker does with a file (refuses it, with which
message and place; accepts it; its exit status and its output), not how.

They run in-process, so a mutation run (tests/mutation/run.sh) counts them for the functions they
reach; the checkers' command lines are run as ``main(argv)`` for the same reason.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from certify import reader, verify, verify_bound, verify_mixed

ROOT = Path(__file__).resolve().parent.parent
CERTS = ROOT / "certificates"
MIXED = CERTS / "value" / "value-2x2-codebreaker.json"
STRATEGY = CERTS / "knuth-3x3.json"
BOUND = CERTS / "bounds" / "total-2x2.json"

CHECKERS = {
    "verify": lambda raw: verify.verify_bytes(raw),
    "verify_bound": lambda raw: verify_bound.check_bytes(raw),
    "verify_mixed": lambda raw: verify_mixed.check_bytes(raw),
}


def _json_error(raw: bytes) -> str:
    """The standard decoder's message for a malformed document, in the checkers' words."""
    try:
        json.loads(raw)
    except json.JSONDecodeError as e:
        return f"not valid JSON: {e.msg} at line {e.lineno} column {e.colno}"
    raise AssertionError(f"{raw!r} is valid JSON")


# -- reader: a malformed file is refused with the standard decoder's message and place -----------

#: Malformed documents on which the checkers' own tokenizer must say what json.loads says, in the
#: top-level object (read by reader.members) and in a field no checker reads (reader.skip).
MALFORMED = [
    b'{"extra": [1,]}',
    b'{"extra": {"a":1,}}',
    b'{"extra": [1 }}',
    b'{"extra": {"a":1]}',
    b'{"extra": }',
    b'{"extra": [1:2]}',
    b'{"extra": {"a":}}',
    b'{"extra": [[1]] ]}',
    b'{"extra": ,}',
    b'{"extra": :}',
    b'{"extra": [1,\n  2,\n  ]}',
    b'{"extra": {"a": [1, {"b": 2,}]}}',
    b'{"extra": "\xc3\xa9\xc3\xa9", "x": [1,,2]}',
    b'{"a":1,}',
    b'{,}',
    b'{"a":1 "b":2}',
    b'{"a":1]',
    b'[1,]',
    b'[1 2]',
    b'{"a":1} x',
    b'{"a":1} {}',
    b'  ]',
    b'}',
    b'{"a": tru}',
    b'{"a": -}',
    b'{"a": 01}',
    b'{"a": [1, 2]',
    b'{"a":',
    b'{"x": [1, 2,',
    b'\n\n  {"a": [\n\n ,]}',
    b'{"a": [1,],\n "b": 2\n}\n',
    b'{"extra": {"a": 1,},\n "b": 2\n}\n',
]


@pytest.mark.parametrize("raw", MALFORMED, ids=lambda raw: raw.decode("utf-8", "replace"))
@pytest.mark.parametrize("checker", sorted(CHECKERS))
def test_a_syntax_error_is_named_and_placed_as_the_standard_decoder_does(checker, raw):
    report = CHECKERS[checker](raw)
    assert not report.valid and report.status == 1
    assert report.error == _json_error(raw)


#: Where the tokenizer's words differ from json.loads (a truncated file, a bracket that closes
#: nothing open, a key without its ':'): still one line, its own message, the place of the fault.
OWN_WORDS = {
    b'{"extra": [}': "Expecting ',' delimiter at line 1 column 12",
    b'{"extra": {]}': "Expecting ',' delimiter at line 1 column 12",
    b'{"a": [1, 2': "Expecting value at line 1 column 12",
    b'{"a": {"b": 1': "Expecting value at line 1 column 14",
    b'{"a": 1,': "Expecting value at line 1 column 9",
    b'{"a": "x': "Unterminated string or invalid character in it at line 1 column 7",
    b'{"a": "x\x01"}': "Unterminated string or invalid character in it at line 1 column 7",
    b'{"a"': "Expecting ':' delimiter at line 1 column 2",
    b'{"extra": {"a" 1}}': "Expecting ':' delimiter at line 1 column 12",
    b'{"extra": {:1}}': "Expecting ',' delimiter at line 1 column 12",
    b'{"a": NaN}': "NaN is not a JSON number",
    b'{"extra": [-Infinity]}': "-Infinity is not a JSON number",
    b'{"a": 1e999}': "number 1e999 is out of range",
    b'{"extra": [1e400]}': "number 1e400 is out of range",
    b'{"a": 1e99999999999999999999999}': "number 1e999999999999999999... is out of range",
    b'{"a": ' + b"1" * 101 + b'}': "integer of 101 digits (limit 100)",
    b'{"extra": [-' + b"1" * 101 + b']}': "integer of 101 digits (limit 100)",
}


@pytest.mark.parametrize("raw", sorted(OWN_WORDS), ids=lambda raw: raw.decode("utf-8", "replace")[:30])
@pytest.mark.parametrize("checker", sorted(CHECKERS))
def test_a_syntax_error_the_standard_decoder_words_otherwise_is_still_named_and_placed(checker, raw):
    report = CHECKERS[checker](raw)
    assert not report.valid and report.status == 1
    assert report.error == "not valid JSON: " + OWN_WORDS[raw]


# -- reader: the checkers' command lines (parser, emit, interruptible), run in-process ------------

MAINS = {"verify": (verify, STRATEGY), "verify_bound": (verify_bound, BOUND), "verify_mixed": (verify_mixed, MIXED)}


@pytest.mark.parametrize("name", sorted(MAINS))
def test_the_json_report_is_written_whole_to_a_text_or_a_binary_stdout(name, tmp_path, monkeypatch):
    module, good = MAINS[name]
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"a":1,}')
    text_out, err = io.StringIO(), io.StringIO()  # no .buffer: the report is decoded and written
    assert module.run([str(good), str(bad)], as_json=True, out=text_out, err=err) == 1
    doc = json.loads(text_out.getvalue())
    assert [r["exit_code"] for r in doc["results"]] == [0, 1] and doc["tool"] == f"certify.{name}"
    assert err.getvalue() == ""
    binary = io.BytesIO()
    wrapper = io.TextIOWrapper(binary, encoding="utf-8")  # .buffer: the bytes go there as they are
    assert module.run([str(good)], as_json=True, out=wrapper, err=io.StringIO()) == 0
    assert binary.getvalue() == module.reports_json([CHECK_FILE[name](good)])


CHECK_FILE = {"verify": verify.verify_file, "verify_bound": verify_bound.check_file,
              "verify_mixed": verify_mixed.check_file}


@pytest.mark.parametrize("name", sorted(MAINS))
def test_one_line_a_file_valid_on_stdout_others_on_stderr_worst_status_wins(name, tmp_path, capsys):
    module, good = MAINS[name]
    bad, missing = tmp_path / "bad.json", tmp_path / "missing.json"
    bad.write_bytes(b"[1,]")
    assert module.main([str(good)]) == 0
    out, err = capsys.readouterr()
    assert out.count("\n") == 1 and out.startswith(f"{good}: valid") and err == ""
    assert module.main([str(good), str(bad)]) == 1
    out, err = capsys.readouterr()
    assert out.startswith(f"{good}: valid") and err == f"{bad}: invalid: not valid JSON: Expecting value at line 1 column 4\n"
    assert module.main([str(missing), str(bad), str(good)]) == 2
    out, err = capsys.readouterr()
    assert err.splitlines() == [f"{missing}: unusable: cannot read file: No such file or directory",
                                f"{bad}: invalid: not valid JSON: Expecting value at line 1 column 4"]
    assert module.main(["--json", str(missing)]) == 2
    out, err = capsys.readouterr()
    assert json.loads(out)["results"][0]["status"] == "unusable" and err == ""


@pytest.mark.parametrize("name", sorted(MAINS))
def test_a_usage_error_is_one_line_and_status_2(name, capsys):
    module, _ = MAINS[name]
    with pytest.raises(SystemExit) as stop:
        module.main([])
    assert stop.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith(f"{name}: error: the following arguments are required: FILE") and err.endswith(" (see --help)\n")
    with pytest.raises(SystemExit) as stop:
        module.main(["--no-such-option", "x.json"])
    assert stop.value.code == 2 and "unrecognized arguments: --no-such-option" in capsys.readouterr().err


@pytest.mark.parametrize("name", sorted(MAINS))
def test_ctrl_c_is_one_line_and_status_130(name, monkeypatch, capsys):
    module, good = MAINS[name]

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(module, "run", interrupted)
    assert module.main([str(good)]) == 130
    assert capsys.readouterr().err == f"{name}: interrupted\n"


@pytest.mark.parametrize("as_json", [False, True])
@pytest.mark.parametrize("name", sorted(MAINS))
def test_a_reader_that_went_away_costs_no_traceback_and_the_status_still_tells(name, as_json, tmp_path):
    """`verify_mixed FILE | head -0`: writing fails with EPIPE; the output is sent to /dev/null
    (so the interpreter's last flush cannot fail either) and the exit status is returned."""
    module, good = MAINS[name]
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"[1,]")
    files = [str(good)] * 300 + [str(bad)]  # more than a pipe holds, valid ones on stdout
    read, write = os.pipe()
    os.close(read)
    out = os.fdopen(write, "w", buffering=1)
    err = io.StringIO()
    try:
        assert module.run(files, as_json=as_json, out=out, err=err) == 1
        os.write(out.fileno(), b"x" * 100_000)  # /dev/null now: no EPIPE
    finally:
        out.close()


@pytest.mark.parametrize("value, kind", [(b'{"a": 1, "a": 2}', "object"), (b"{}", "object"), (b"[1]", "array"),
                                         (b"true", "boolean True"), (b"null", "null"),
                                         (b"3", "integer 3"), (b"2.5", "number 2.5")])
@pytest.mark.parametrize("checker", sorted(CHECKERS))
def test_a_field_of_the_wrong_type_is_named_with_the_type_it_has(checker, value, kind):
    """An object with a repeated key is still an object where a string is expected."""
    report = CHECKERS[checker](b'{"format": ' + value + b'}')
    assert report.error == f"format: expected string, got {kind}"


# -- reader: a named pipe ---------------------------------------------------------------------------

def _fifo_with_writer(tmp_path, data: bytes, delay: float, chunk: int = 0):
    import threading
    import time

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)

    def write():
        time.sleep(delay)
        with open(fifo, "wb", buffering=0) as f:  # (blocks until the checker opens the pipe)
            step = chunk or len(data)
            for lo in range(0, len(data), step):
                f.write(data[lo:lo + step])
                if chunk:
                    time.sleep(0.02)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return fifo, thread


@pytest.mark.parametrize("name", sorted(MAINS))
def test_a_pipe_that_has_its_data_is_read_without_a_note(name, tmp_path):
    module, good = MAINS[name]
    fifo, thread = _fifo_with_writer(tmp_path, good.read_bytes(), 0)
    notes = []
    report = CHECK_FILE[name](str(fifo), on_wait=notes.append)
    thread.join(10)
    assert report.valid, report.error
    assert notes == []


def test_a_pipe_silent_for_a_second_gets_one_note_then_is_waited_for(tmp_path):
    fifo, thread = _fifo_with_writer(tmp_path, MIXED.read_bytes(), 1.6)
    out, err = io.StringIO(), io.StringIO()
    assert verify_mixed.run([str(fifo)], out=out, err=err) == 0
    thread.join(10)
    assert err.getvalue() == f"{fifo}: waiting for data from the pipe (Ctrl-C to stop)\n"
    assert out.getvalue().startswith(f"{fifo}: valid mixed strategy: ")


def test_a_pipe_written_slowly_is_read_to_its_end():
    """The pipe is read in blocking mode once it has data: a certificate that comes in pieces, the
    pipe empty in between, is read whole, not cut where the pipe was empty."""
    data = (CERTS / "knuth-4x10-norep.json").read_bytes()
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        fifo, thread = _fifo_with_writer(Path(tmp), data, 0, chunk=50_000)
        report = verify.verify_file(str(fifo))
        thread.join(10)
    assert report.valid, report.error
    assert report.replayed["secrets"] == 5040


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="Linux: a file whose read fails")
@pytest.mark.parametrize("name", sorted(MAINS))
def test_a_file_whose_read_fails_is_unusable_with_the_system_s_words(name):
    report = CHECK_FILE[name]("/proc/self/mem")  # a regular file of size 0 whose read() is EIO
    assert report.status == 2 and report.error == "cannot read file: Input/output error"


# -- reader: values shown in a message are short and on one line ---------------------------------

@pytest.mark.parametrize("value, shown", [
    ({}, "{}"), ({"a": 1}, "{...}"), ([], "[]"), ([1, 2], "[...]"), (True, "True"), (None, "None"), (1.5, "1.5"),
    ("x" * 50, "'" + "x" * 36 + "..."), ("y" * 39, "'" + "y" * 36 + "..."), ("z" * 38, "'" + "z" * 38 + "'"),
    ("a\nb", "'a\\nb'"),
])
def test_a_wrong_value_is_shown_short_in_the_message(value, shown):
    doc = json.loads(STRATEGY.read_text())
    doc["claims"]["histogram"]["1"] = value
    report = verify.verify_document(doc, verify.Report("x"))
    assert report.error == f"claims.histogram['1']: expected a positive integer, got {shown}"


# -- reader: the metadata budget and the header field limit, to the byte ----------------------------

def _array_of(n: int) -> bytes:
    """A JSON array of exactly ``n`` bytes (zeros, then spaces to make up the length)."""
    out = b"[" + b"0," * ((n - 2) // 2)
    out = out.rstrip(b",") + b"]"
    return out[:-1] + b" " * (n - len(out)) + b"]"


META_OVER = "the fields the checker does not read take more than 1048576 bytes of JSON (the limit for metadata)"


@pytest.mark.parametrize("checker", sorted(CHECKERS))
def test_metadata_within_one_mib_is_checked_one_byte_past_it_is_refused(checker):
    """(The top-level keys may be paid from the same budget: 64 bytes are left for them.)"""
    limit = reader.MAX_META_BYTES
    check = CHECKERS[checker]
    # (a format of the wrong type: the error that comes once the metadata is through)
    assert check(b'{"format": 1, "extra": ' + _array_of(limit - 64) + b"}").error == "format: expected string, got integer 1"
    assert check(b'{"format": 1, "extra": ' + _array_of(limit + 1) + b"}").error == f"extra: {META_OVER}"
    # the budget is for all the fields together: the one that passes it is named
    half = limit // 2
    two = b'{"format": 1, "x": ' + _array_of(half) + b', "y": ' + _array_of(limit - half - 64) + b"}"
    assert check(two).error == "format: expected string, got integer 1"
    two = b'{"format": 1, "x": ' + _array_of(half) + b', "y z": ' + _array_of(limit - half + 1) + b"}"
    assert check(two).error == f"['y z']: {META_OVER}"


@pytest.mark.parametrize("checker", sorted(CHECKERS))
def test_a_header_field_of_64_kib_is_read_one_byte_more_is_refused(checker):
    limit = reader.MAX_FIELD_BYTES
    check = CHECKERS[checker]
    at_limit = check(b'{"format": "' + b"x" * (limit - 2) + b'"}').error
    assert at_limit.startswith("format: expected 'mastermind-") and at_limit.endswith(", got 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...")
    over = check(b'{"format": "' + b"x" * (limit - 1) + b'"}').error
    assert over == "format: more than 65536 bytes of JSON (the limit for this field)"
    assert check(b'{"game": ' + _array_of(limit + 1) + b"}").error == "game: more than 65536 bytes of JSON (the limit for this field)"


@pytest.mark.parametrize("name", sorted(MAINS))
def test_help_says_what_the_checker_does_and_how_to_call_it(name, capsys):
    module, _ = MAINS[name]
    with pytest.raises(SystemExit) as stop:
        module.main(["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: {name} [-h] [--json]") and "FILE [FILE ...]" in out
    assert {"verify": "Independently verify Mastermind strategy certificates.",
            "verify_bound": "Check Mastermind lower-bound certificates.",
            "verify_mixed": "Check Mastermind mixed-strategy certificates."}[name] in out.splitlines()


# -- verify_mixed: what a report says -----------------------------------------------------------------

def _mixed():
    return json.loads(MIXED.read_text())


def test_a_valid_mixture_is_reported_in_words_and_in_json():
    report = verify_mixed.check_file(str(MIXED))
    assert report.line() == (f"{MIXED}: valid mixed strategy: a mixture of 2 trees through random peg and colour "
                             "permutations needs on average at most 2 (2.0000) guesses for every secret of 2x2 "
                             "(the claimed value)")
    assert report.to_json() == {
        "file": str(MIXED), "valid": True, "status": "valid", "exit_code": 0, "error": None,
        "game": {"pegs": 2, "colors": 2, "repetition": True}, "claims": {"value": "2"}, "strategies": 2,
        "maximum": "2", "orbits": [{"orbit": "00", "codes": 2, "expected": "2"},
                                   {"orbit": "01", "codes": 2, "expected": "2"}]}


def test_one_tree_within_a_higher_claim_and_a_game_without_repetition_are_worded_so():
    doc = _mixed()
    doc["strategies"] = [dict(doc["strategies"][0], probability="1")]
    doc["claims"] = {"value": "3"}
    report = verify_mixed.check_document(doc, "one.json")
    assert report.line() == ("one.json: valid mixed strategy: a mixture of 1 tree through random peg and colour "
                             "permutations needs on average at most 5/2 (2.5000) guesses for every secret of 2x2 "
                             "(within the claimed 3)")
    assert report.to_json()["orbits"] == [{"orbit": "00", "codes": 2, "expected": "3/2"},
                                          {"orbit": "01", "codes": 2, "expected": "5/2"}]
    norep = CERTS / "value" / "value-3x4-norep-codebreaker.json"
    assert verify_mixed.check_file(str(norep)).line().endswith(
        "at most 3 (3.0000) guesses for every secret of 3x4 without repetition (the claimed value)")


def test_an_invalid_mixture_is_reported_in_words_and_in_json(tmp_path):
    doc = _mixed()
    doc["claims"]["value"] = "2/1"
    report = verify_mixed.check_document(doc)
    assert report.line() == "<document>: invalid: claims.value: 2/1 is not in lowest terms (write 2)"
    assert report.to_json() == {"file": "<document>", "valid": False, "status": "invalid", "exit_code": 1,
                                "error": "claims.value: 2/1 is not in lowest terms (write 2)", "game": report.game,
                                "claims": None, "strategies": None, "maximum": None, "orbits": None}
    doc = _mixed()
    for s in doc["strategies"]:
        s["probability"] = "1"
    assert verify_mixed.check_document(doc).error == "strategies: the probabilities sum to 2, not 1"
    report = verify_mixed.check_document({"format": {1, 2}})
    assert report.line() == "<document>: invalid: not a JSON document (Object of type set is not JSON serializable)"
    report = verify_mixed.check_file(str(tmp_path / "none.json"))
    assert report.to_json()["status"] == "unusable" and report.to_json()["exit_code"] == 2
    assert report.line() == f"{tmp_path / 'none.json'}: unusable: cannot read file: No such file or directory"


def test_the_json_report_is_indented_ascii_and_names_the_tool(tmp_path):
    """(A file name out of ASCII is escaped: the report is the same bytes whatever the terminal.)"""
    odd = tmp_path / "é.json"
    odd.write_bytes(MIXED.read_bytes())
    out = io.StringIO()
    assert verify_mixed.run([str(odd)], as_json=True, out=out, err=io.StringIO()) == 0
    text = out.getvalue()
    doc = json.loads(text)
    assert doc["report_version"] == 1 and doc["tool"] == "certify.verify_mixed"
    assert text == json.dumps(doc, indent=2, ensure_ascii=True) + "\n" and "\\u00e9.json" in text


@pytest.mark.parametrize("n, error", [(610, "strategies[0]: expected object, got array"), (611, "JSON nested too deeply")])
def test_a_strategy_that_is_not_an_object_is_checked_to_the_nesting_limit(n, error):
    doc = _mixed()
    raw = json.dumps(dict(doc, strategies="X")).encode().replace(b'"X"', b"[" + b"[" * n + b"]" * n + b"]")
    assert verify_mixed.check_bytes(raw).error == error


def _with_in_strategy(value: bytes) -> bytes:
    """The 2x2 mixture with a field "x" of the given JSON in its first strategy."""
    doc = _mixed()
    doc["strategies"][0]["x"] = "X"
    return json.dumps(doc).encode().replace(b'"X"', value)


def test_an_unknown_field_of_a_strategy_is_metadata_named_by_its_path():
    check = verify_mixed.check_bytes
    assert check(_with_in_strategy(b"[" * 29 + b"]" * 29)).error == "strategies[0]: unknown field 'x'"
    assert check(_with_in_strategy(b"[" * 30 + b"]" * 30)).error == (
        "strategies[0].x" + "[0]" * 29 + ": nested more than 32 levels deep")
    assert check(_with_in_strategy(b'{"a": 1, "a": 2}')).error == "strategies[0].x: duplicate key 'a'"
    # more than a header field may hold (64 KiB), well within the metadata budget
    assert check(_with_in_strategy(_array_of(100_000))).error == "strategies[0]: unknown field 'x'"


@pytest.mark.parametrize("value, error", [({}, "strategies: expected array, got object"),
                                          ("x", "strategies: expected array, got string 'x'"),
                                          ([1], "strategies[0]: expected object, got integer 1"),
                                          ([[]], "strategies[0]: expected object, got array")])
def test_strategies_of_the_wrong_type_are_named(value, error):
    doc = _mixed()
    doc["strategies"] = value
    assert verify_mixed.check_document(doc).error == error


def test_a_tree_deeper_than_the_metadata_nesting_is_read_as_a_tree():
    """A tree's nesting is bounded by verify.py's depth (256 guesses), not the metadata's 32
    levels: a 1x20 chain of 19 guesses (39 levels) is a valid strategy."""
    colors = 20

    def chain(i):
        node = {"guess": verify.ALPHABET[i]}
        if i < colors - 1:
            node["next"] = {"0,0": chain(i + 1)}
        return node

    doc = {"format": verify_mixed.FORMAT, "version": 1, "game": {"pegs": 1, "colors": colors, "repetition": True},
           "mix": verify_mixed.MIX, "claims": {"value": "21/2"}, "strategies": [{"probability": "1", "tree": chain(0)}]}
    report = verify_mixed.check_document(doc)
    assert report.valid, report.error
    assert report.maximum == verify_mixed.Fraction(21, 2)


@pytest.mark.parametrize("change, error", [
    ({"game": {"pegs": 2, "colors": 2, "repetition": True, "x": 1}}, "game: unknown field 'x'"),
    ({"game": {"pegs": "2", "colors": 2, "repetition": True}}, "game.pegs: expected integer, got string '2'"),
    ({"game": {"pegs": 0, "colors": 2, "repetition": True}}, "game.pegs: must be >= 1, got 0"),
    ({"game": {"colors": 2, "repetition": True}}, "game: missing field 'pegs'"),
    ({"claims": {"value": "2", "extra": 1}}, "claims: unknown field 'extra'"),
    ({"claims": {"value": "-2"}}, "claims.value: '-2' is not a fraction \"a/b\" or \"a\" (decimal digits, at most 100 "
                                  "a side, no sign or leading zeros)"),
    ({"claims": {}}, "claims: missing field 'value'"),
])
def test_a_wrong_header_is_named_by_its_path(change, error):
    assert verify_mixed.check_document(dict(_mixed(), **change)).error == error


def test_a_repeated_top_level_key_is_named():
    raw = json.dumps(_mixed()).encode().replace(b'"mix"', b'"mix": "x", "mix"', 1)
    assert verify_mixed.check_bytes(raw).error == "top level: duplicate key 'mix'"


def test_a_file_refused_before_its_game_is_read_reports_nothing_else():
    assert verify_mixed.check_bytes(b"[1,]").to_json() == {
        "file": "<bytes>", "valid": False, "status": "invalid", "exit_code": 1,
        "error": "not valid JSON: Expecting value at line 1 column 4", "game": None, "claims": None,
        "strategies": None, "maximum": None, "orbits": None}


@pytest.mark.parametrize("raw, kind", [(b"[1]", "array"), (b' "x"', "string"), (b"3", "integer"), (b"-2.5e3", "number"),
                                       (b"true", "boolean"), (b"null", "null")])
@pytest.mark.parametrize("checker", sorted(CHECKERS))
def test_a_document_that_is_not_an_object_is_named_by_its_type(checker, raw, kind):
    assert CHECKERS[checker](raw).error == f"top level: expected object, got {kind}"


# -- verify_mixed: the limits and the probabilities ----------------------------------------------------

def _strategies(doc, items):
    return verify_mixed.check_document(dict(doc, strategies=items))


def test_a_thousand_trees_are_checked_one_more_is_refused():
    doc = _mixed()
    tree = doc["strategies"][0]["tree"]
    doc["claims"] = {"value": "5/2"}
    report = _strategies(doc, [{"probability": "1/1000", "tree": tree}] * 1000)
    assert report.valid and report.strategies == 1000, report.error
    report = _strategies(doc, [{"probability": "1/1001", "tree": tree}] * 1001)
    assert report.error == "strategies: 1001 trees, more than the limit 1000"


def test_the_replays_are_limited_before_any_tree_is_read():
    doc = dict(_mixed(), game={"pegs": 4, "colors": 10, "repetition": False})  # 5040 codes
    report = _strategies(doc, [{"probability": "1/1000", "tree": {}}] * 1000)
    assert report.status == 2 and report.error == (  # a limit: not checked, no verdict (issue 43)
        "strategies: 1000 trees x 5040 codes to replay, more than the work limit 5000000; "
        "not checked: --max-work 5040000 or more raises it")
    report = _strategies(doc, [{"probability": "1/992", "tree": {}}] * 992)  # 4,999,680 replays
    assert report.error == "strategies[0].tree: at root: node has no 'guess'"


def test_two_million_tree_nodes_are_read_one_more_is_refused():
    """Counted by their '{' (at least one a node), over all trees, before any tree is replayed."""
    doc = _mixed()

    def raw(extra: int) -> bytes:
        # two trees of one node each: '{' 1 + 999,999 in a string (at most 1 MiB) + extra
        trees = [{"probability": "1/2", "tree": {"guess": "00", "pad": "{" * (999_999 + extra)}},
                 {"probability": "1/2", "tree": {"guess": "00", "pad": "{" * 999_999}}]
        return json.dumps(dict(doc, strategies=trees)).encode()

    assert verify_mixed.check_bytes(raw(0)).error == "strategies[0].tree: at root: node: unknown field 'pad'"
    over = verify_mixed.check_bytes(raw(1))  # a limit, not a verdict: unusable, --max-nodes raises it
    assert over.status == 2 and over.error == (
        "strategies[1].tree: more than 2000000 tree nodes over all trees (the limit); "
        "not checked: --max-nodes N with N > 2000000 raises it")


@pytest.mark.parametrize("item, error", [
    ({"tree": {}}, "strategies[0]: missing field 'probability'"),
    ({"probability": "1"}, "strategies[0]: missing field 'tree'"),
    ({"probability": "3/2", "tree": {}}, "strategies[0].probability: must be > 0 and <= 1, got 3/2"),
    ({"probability": "2", "tree": {}}, "strategies[0].probability: must be > 0 and <= 1, got 2"),
    ({"probability": "0", "tree": {}}, "strategies[0].probability: must be > 0 and <= 1, got 0"),
    ({"probability": "1", "tree": []}, "strategies[0].tree: expected object, got array"),
    ({"probability": "1", "tree": 3}, "strategies[0].tree: expected object, got integer 3"),
    ({"probability": "1", "tree": "x"}, "strategies[0].tree: expected object, got string 'x'"),
])
def test_a_wrong_strategy_is_named(item, error):
    assert _strategies(_mixed(), [item]).error == error


def test_the_common_denominator_of_the_probabilities_is_limited_to_1000_digits():
    """Ten denominators of 100 digits, pairwise coprime: 997 digits, read; one more of 5 digits
    makes 1002 (fewer than the 1042 of 11 ** 1000): refused there."""
    doc = _mixed()
    tree = doc["strategies"][0]["tree"]
    powers = [2 ** 332, 3 ** 209, 5 ** 143, 7 ** 118, 11 ** 96, 13 ** 89, 17 ** 81, 19 ** 78, 23 ** 73, 29 ** 68]
    items = [{"probability": f"1/{d}", "tree": tree} for d in powers]
    error = _strategies(doc, items).error
    assert error.startswith("strategies: the probabilities sum to ") and error.endswith(", not 1")
    error = _strategies(doc, items + [{"probability": f"1/{31 ** 3}", "tree": tree}]).error
    assert error == ("strategies[10].probability: the probabilities' common denominator has more than 1000 digits "
                     "(the limit)")


def test_running_out_of_memory_is_one_line_and_unusable(monkeypatch):
    def exhausted(*args):
        raise MemoryError

    monkeypatch.setattr(verify_mixed, "_check", exhausted)
    report = verify_mixed.check_file(str(MIXED))
    assert report.status == 2 and report.line() == f"{MIXED}: unusable: out of memory"


def test_run_prints_lines_unless_asked_for_json():
    out, err = io.StringIO(), io.StringIO()
    assert verify_mixed.run([str(MIXED)], out=out, err=err) == 0
    assert out.getvalue().startswith(f"{MIXED}: valid mixed strategy: ") and out.getvalue().count("\n") == 1


def test_a_json_report_goes_to_stdout_s_bytes_whatever_its_text_encoding(tmp_path):
    """verify.py's report (orjson: UTF-8, file names not escaped) is written to the binary buffer
    under a text stdout, so a stdout whose encoding is ASCII still gets it whole."""
    odd = tmp_path / "é.json"
    odd.write_bytes(STRATEGY.read_bytes())
    binary = io.BytesIO()
    out = io.TextIOWrapper(binary, encoding="ascii")
    assert verify.run([str(odd)], as_json=True, out=out, err=io.StringIO()) == 0
    doc = json.loads(binary.getvalue().decode("utf-8"))
    assert doc["results"][0]["file"] == str(odd) and doc["results"][0]["valid"]


# -- verify_bound: what a report says, the command line and split proofs ------------------------------

BOUNDS = CERTS / "bounds"


@pytest.mark.parametrize("name, statement", [
    ("total-2x2.json", "every strategy for 2x2 needs >= 8 guesses in total (mean 2.0000) over the 4 secrets"),
    ("total-2x5-max4.json", "every strategy for 2x5 within 4 guesses needs >= 81 guesses in total (mean 3.2400) "
                            "over the 25 secrets"),
    ("total-3x4-norep.json", "every strategy for 3x4 without repetition (secrets and guesses of distinct colours) "
                             "needs >= 72 guesses in total (mean 3.0000) over the 24 secrets"),
    ("worst-case-3x3.json", "every strategy for 3x3 needs >= 4 guesses for some secret"),
    ("total-3x3-max4-count-first.json", "every strategy for 3x3 within 4 guesses has >= 1 secret needing 4 "
                                        "guesses; one with exactly 1 needs >= 73 guesses in total (mean 2.7037)"),
    ("total-2x5-max4-count-first.json", "every strategy for 2x5 within 4 guesses has >= 11 secrets needing 4 "
                                        "guesses; one with exactly 11 needs >= 81 guesses in total (mean 3.2400)"),
    ("total-3x3-max4-count.json", "every strategy for 3x3 within 4 guesses needs >= 73 guesses in total (mean "
                                  "2.7037) over the 27 secrets; one with exactly 73 has >= 1 secret needing 4 guesses"),
    ("total-2x5-max4-count.json", "every strategy for 2x5 within 4 guesses needs >= 81 guesses in total (mean "
                                  "3.2400) over the 25 secrets; one with exactly 81 has >= 11 secrets needing 4 guesses"),
])
def test_a_valid_lower_bound_says_what_it_proves_in_words(name, statement):
    path = BOUNDS / name
    report = verify_bound.check_file(str(path))
    assert report.line() == f"{path}: valid lower bound: {statement}"


def _split(tmp_path, name="total-3x3.json", depth=1):
    from certify.proofparts import write_split

    summary = write_split(BOUNDS / name, tmp_path / "parts", depth=depth)
    return Path(summary["main"]), [Path(p) for p in summary["parts"]]


def test_a_split_proof_is_checked_with_its_parts_given_one_by_one_or_as_a_folder(tmp_path, capsys):
    import hashlib

    main, parts = _split(tmp_path)
    assert verify_bound.main([str(main), *[x for p in parts for x in ("--part", str(p))]]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"{main}: valid lower bound, a split proof (") and err == ""
    assert verify_bound.main(["--json", str(main), "--parts", str(main.parent)]) == 0
    result = json.loads(capsys.readouterr().out)["results"][0]
    assert result["file"] == str(main) and result["secrets"] == 27 and result["valid"]
    assert result["sha256"] == hashlib.sha256(main.read_bytes()).hexdigest()
    assert sorted(p["file"] for p in result["parts"]) == sorted(map(str, parts))
    assert verify_bound.main([str(main)]) == 1  # alone: its lemmas are not proven
    assert "not proven" in capsys.readouterr().err


def test_a_parts_folder_that_cannot_be_read_is_one_line_and_status_2(tmp_path, capsys):
    main, _ = _split(tmp_path)
    assert verify_bound.main([str(main), "--parts", str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err == (f"verify_bound: cannot read parts folder {tmp_path / 'nowhere'}: "
                                       "No such file or directory\n")


def test_the_lower_bound_checker_s_help_names_its_options():
    import contextlib

    out = io.StringIO()
    with pytest.raises(SystemExit), contextlib.redirect_stdout(out):
        verify_bound.main(["--help"])
    help_text = " ".join(out.getvalue().split())
    for option in ("--part PART", "--parts DIR", "--jobs N", "a part file of a split proof (repeatable)",
                   "a folder of part files (*.json, *.json.gz)", "check the files in N processes"):
        assert option in help_text


def test_a_pipe_among_several_files_still_gets_its_waiting_note(tmp_path):
    """Several files checked in this process by default (jobs=1): a pipe's note reaches on_wait."""
    fifo, thread = _fifo_with_writer(tmp_path, BOUND.read_bytes(), 1.3)
    notes = []
    reports = verify_bound.check_split([str(fifo), str(BOUND)], on_wait=notes.append)
    thread.join(10)
    assert [r.valid for r in reports] == [True, True]
    assert notes == [f"{fifo}: waiting for data from the pipe (Ctrl-C to stop)"]


def test_files_checked_in_several_processes_are_reported_in_the_order_given(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"[1,]")
    files = [BOUND, BOUNDS / "total-3x3.json", bad, BOUNDS / "worst-case-3x3.json", tmp_path / "missing.json"]
    reports = verify_bound.check_split([str(f) for f in files], jobs=2)
    assert [r.file for r in reports] == [str(f) for f in files]
    assert [r.status for r in reports] == [0, 0, 1, 0, 2]
    assert [r.secrets for r in reports] == [4, 27, None, 27, None]


def test_a_permuted_lemma_reference_pays_for_its_image_an_unpermuted_one_does_not():
    """The work a file is charged (its budget; "checked": {"work"} in the report): a lemma reference
    with a permutation pays for the image of its class (IMAGE_COST + IMAGE_PER_SECRET a secret)."""
    from certify.proofparts import split

    main, _ = split(json.loads((BOUNDS / "total-3x3.json").read_text()), depth=1)
    doc = json.loads(main)
    plain = verify_bound.verdict_bytes(main)
    refs = [r for e in doc["nodes"][0]["guesses"].values() for r in e.values() if isinstance(r, dict) and "lemma" in r]
    assert len(refs) == 1 and plain.valid
    refs[0]["perm"] = {"pegs": [0, 1, 2], "colors": [0, 1, 2]}
    permuted = verify_bound.verdict_bytes(json.dumps(doc).encode())
    assert permuted.valid and permuted.assumptions == plain.assumptions
    secrets = plain.assumptions[0]["secrets"]
    assert permuted.checked["work"] - plain.checked["work"] == verify_bound.IMAGE_COST + verify_bound.IMAGE_PER_SECRET * secrets


def test_the_progress_line_is_redrawn_in_place_and_ended_once():
    err = io.StringIO()
    show = verify_bound.progress_printer(err)
    show(3, 10)
    show(7, 10)
    show(None, 10)
    assert err.getvalue() == "\rchecked 3/10 nodes\rchecked 7/10 nodes\n"


def test_a_parsed_proof_s_nodes_are_the_decoder_s_items_by_index():
    """parse() (used by `certify why` on the bytes the checker accepted) builds a node when asked."""
    raw = (BOUNDS / "worst-case-3x3.json").read_bytes()
    nodes, expected = verify_bound.parse(raw)["nodes"], json.loads(raw)["nodes"]
    assert len(nodes) == len(expected) > 2
    assert [nodes[0], nodes[1], nodes[-1]] == [expected[0], expected[1], expected[-1]]
    assert list(nodes) == expected
    with pytest.raises(IndexError):
        nodes[len(expected)]


# -- verify: reports, --max-guesses, the tree kept, the first problem of a node -------------------------

def test_a_strategy_report_with_max_guesses_says_the_bound_in_words_and_in_json():
    report = verify.verify_file(str(STRATEGY), max_guesses=5)
    assert report.line() == f"{STRATEGY}: valid: 27 secrets of 3x3, max 4 guesses (<= 5 as asked), total 74"
    doc = report.to_json()
    assert doc["file"] == str(STRATEGY) and doc["max_guesses_bound"] == 5
    assert sorted(doc) == ["claims", "error", "exit_code", "file", "game", "max_guesses_bound", "replayed",
                           "status", "strategy", "valid"]
    assert verify.verify_file(str(STRATEGY)).line() == f"{STRATEGY}: valid: 27 secrets of 3x3, max 4 guesses, total 74"


def test_max_guesses_on_the_command_line_is_a_whole_number_of_at_least_one(capsys):
    assert verify.main(["--max-guesses", "4", str(STRATEGY)]) == 0
    assert "(<= 4 as asked)" in capsys.readouterr().out
    assert verify.main(["--max-guesses", "3", str(STRATEGY)]) == 1
    assert "more than --max-guesses 3" in capsys.readouterr().err
    for value, words in (("x", "expected a whole number, got 'x'"), ("0", "expected a number >= 1, got 0")):
        with pytest.raises(SystemExit) as stop:
            verify.main(["--max-guesses", value, str(STRATEGY)])
        assert stop.value.code == 2 and words in capsys.readouterr().err
    with pytest.raises(SystemExit):
        verify.main(["--help"])
    assert "--max-guesses K" in capsys.readouterr().out


def test_a_verified_file_keeps_its_document_only_when_asked():
    assert verify.verify_file(str(STRATEGY)).document is None
    kept = verify.verify_file(str(STRATEGY), keep=True).document
    doc = json.loads(STRATEGY.read_text())  # the fields the verifier reads (not the metadata: "generator")
    assert kept == {k: doc[k] for k in ("format", "version", "game", "strategy", "claims", "tree")}


@pytest.mark.parametrize("fields, error", [
    ('"x": 1, "y": 2', "at root: node: unknown field 'x'"),
    ('"y": 2, "x": 1', "at root: node: unknown field 'y'"),
    ('"x": 1, "x": 2, "y": 1, "y": 2', "at root: duplicate key 'x' in node"),
])
def test_of_two_problems_of_the_same_kind_in_a_node_the_first_is_named(fields, error):
    raw = STRATEGY.read_bytes()
    doc = json.loads(raw)
    doc["tree"] = {"guess": doc["tree"]["guess"], "PLACE": 0, "next": doc["tree"]["next"]}
    raw = json.dumps(doc).encode().replace(b'"PLACE": 0', fields.encode())
    assert verify.verify_bytes(raw).error == error


def test_the_orbit_of_a_code_is_its_colours_numbers_of_occurrences():
    assert verify.orbit_key("0012") == (2, 1, 1) and verify.orbit_key("aaab") == (3, 1)
    assert verify.orbit_key("0123") == (1, 1, 1, 1) and verify.orbit_key("") == ()


def test_read_input_gives_a_file_s_bytes():
    assert verify.read_input(str(STRATEGY)) == STRATEGY.read_bytes()


@pytest.mark.parametrize("name", ["verify", "verify_bound"])
def test_a_pipe_checked_by_run_gets_one_note_on_stderr(name, tmp_path):
    module, good = MAINS[name]
    fifo, thread = _fifo_with_writer(tmp_path, good.read_bytes(), 1.3)
    out, err = io.StringIO(), io.StringIO()
    assert module.run([str(fifo)], out=out, err=err) == 0
    thread.join(10)
    assert err.getvalue() == f"{fifo}: waiting for data from the pipe (Ctrl-C to stop)\n"
    assert out.getvalue().startswith(f"{fifo}: valid")


def test_a_certificate_given_as_bytes_is_named_so():
    report = verify.verify_bytes(STRATEGY.read_bytes())
    assert report.file == "<bytes>" and report.line().startswith("<bytes>: valid: 27 secrets")


def test_the_strategy_verifier_s_json_report_is_utf_8_with_names_unescaped(tmp_path):
    pytest.importorskip("orjson")
    odd = tmp_path / "é.json"
    odd.write_bytes(STRATEGY.read_bytes())
    raw = verify.reports_json([verify.verify_file(str(odd))])
    assert str(odd).encode() in raw and raw.endswith(b"}\n")
    assert json.loads(raw)["results"][0]["file"] == str(odd)


def _sha(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def _combined(main: bytes, parts) -> "verify_bound.Report":
    return verify_bound.combine(verify_bound.verdict_bytes(main, "main.json"),
                                [verify_bound.verdict_bytes(p, f"part-{k}.json") for k, p in enumerate(parts)])


def test_a_part_about_a_permuted_other_set_is_named_with_its_permutation():
    from certify.proofparts import split

    main, (part,) = split(json.loads((BOUNDS / "total-3x3.json").read_text()), depth=1)
    doc = json.loads(part)
    doc["root"]["perm"] = {"pegs": [0, 2, 1], "colors": [0, 1, 2]}  # still a valid part, of another set
    other = json.dumps(doc).encode()
    report = _combined(main.replace(_sha(part).encode(), _sha(other).encode()), [other])
    assert report.error.endswith(": part part-0.json does not prove it: it is about another set of secrets "
                                 "(6 secrets at 001 -(2,0)-> (then permuted), the class has 6)")


def test_a_part_of_an_at_max_claim_in_the_other_order_is_of_another_kind():
    """(total, at_max) and (at_max, total) claims: the same set, bounds in other units."""
    from certify.proofparts import split

    main, parts = split(json.loads((BOUNDS / "total-3x3-max4-count.json").read_text()), depth=1)
    assert _combined(main, parts).valid
    _, others = split(json.loads((BOUNDS / "total-3x3-max4-count-first.json").read_text()), depth=1)
    path = json.loads(parts[0])["root"]["path"]
    twin = next(p for p in others if json.loads(p)["root"]["path"] == path)
    report = _combined(main.replace(_sha(parts[0]).encode(), _sha(twin).encode()), [twin] + parts[1:])
    assert not report.valid and "its claims are of another kind" in report.error


@pytest.mark.parametrize("name, lemma", [
    ("total-3x3.json", "every strategy for the 6 secrets of 3x3 at 001 -(2,0)-> needs >= 12 guesses in total"),
    ("worst-case-3x3.json", "every strategy for the 6 secrets of 3x3 at 001 -(2,0)-> needs >= 3 guesses for some of them"),
    ("total-2x5-max4.json", "every strategy for the 8 secrets of 2x5 at 01 -(1,0)-> within the 3 guesses left needs "
                            ">= 21 guesses in total"),
    ("total-3x3-max4-count.json", "every strategy for the 6 secrets of 3x3 at 001 -(2,0)-> within the 3 guesses left "
                                  "costs >= 337 (a cost as in an at_max claim, total first)"),
    ("total-3x3-max4-count-first.json", "every strategy for the 6 secrets of 3x3 at 012 -(0,2)-> within the 3 guesses "
                                        "left costs >= 122 (a cost as in an at_max claim, at_max first)"),
    ("total-3x4-norep.json", "every strategy for the 6 secrets of 3x4 without repetition at 012 -(1,1)-> needs >= 13 "
                             "guesses in total"),
])
def test_a_part_checked_alone_says_what_it_proves_about_its_set(name, lemma):
    from certify.proofparts import split

    _, parts = split(json.loads((BOUNDS / name).read_text()), depth=1)
    report = verify_bound.check_bytes(parts[0], "part.json")
    assert report.status == 1 and report.error == (
        f"a part of a split proof, not a proof of a claim about the game: {lemma}; check it with its main file (--part)")


def test_a_document_made_in_memory_with_a_lone_surrogate_is_refused_as_not_utf_8():
    doc = json.loads(STRATEGY.read_text())
    doc["strategy"]["name"] = "a\ud800b"
    report = verify.verify_document(doc, verify.Report("x"))
    assert report.status == 1 and report.error == "not UTF-8 text (byte 137)"
    with pytest.raises(verify.Invalid, match=r"not UTF-8 text \(byte 137\)"):
        verify.secret_depths(doc)


def test_a_lower_bound_given_as_bytes_is_named_so():
    report = verify_bound.check_bytes(BOUND.read_bytes())
    assert report.file == "<bytes>" and report.line().startswith("<bytes>: valid lower bound: ")
    assert verify_bound.verdict_bytes(BOUND.read_bytes()).file == "<bytes>"


def test_a_same_as_target_with_its_own_entry_is_refuted_by_that_entry():
    """The root of total-3x3 with its children entry moved from 001 to 110 (not the lowest code of
    its orbit under the interchangeable colours: that is 001), and 001, 010, 011 same_as 110: the
    target is 110 itself, refuted by its own partition, not the lowest code of its orbit."""
    doc = json.loads((BOUNDS / "total-3x3.json").read_text())
    swap = {"pegs": [0, 1, 2], "colors": [1, 0, 2]}
    doc["nodes"][0]["guesses"] = {
        "110": {"2,0": {"node": 1, "perm": swap}},
        "001": {"same_as": "110", "perm": swap},
        "010": {"same_as": "110", "perm": {"pegs": [0, 2, 1], "colors": [1, 0, 2]}},
        "011": {"same_as": "110", "perm": {"pegs": [2, 0, 1], "colors": [0, 1, 2]}},
    }
    report = verify_bound.check_bytes(json.dumps(doc).encode())
    assert report.valid, report.error
    # and a same_as target that is itself a same_as entry is still refused
    doc["nodes"][0]["guesses"]["010"] = {"same_as": "001", "perm": {"pegs": [0, 2, 1], "colors": [0, 1, 2]}}
    assert "001 has a same_as entry itself" in verify_bound.check_bytes(json.dumps(doc).encode()).error


@pytest.mark.parametrize("perm, error", [
    ({"pegs": [0, 2, 1]}, "node 0: guess '010'.perm: missing field 'colors'"),
    ({"colors": [0, 1, 2]}, "node 0: guess '010'.perm: missing field 'pegs'"),
    ({"pegs": "x", "colors": [0, 1, 2]}, "node 0: guess '010'.perm.pegs: expected array, got string 'x'"),
    ({"pegs": [0, 2, 1], "colors": {}}, "node 0: guess '010'.perm.colors: expected array, got object"),
    ({"pegs": [0, 2, 1], "colors": [0, 1, 1]}, "node 0: guess '010'.perm.colors: not a permutation of 0..2"),
])
def test_a_wrong_permutation_is_named_by_its_path(perm, error):
    doc = json.loads((BOUNDS / "total-3x3.json").read_text())
    doc["nodes"][0]["guesses"]["010"]["perm"] = perm
    assert verify_bound.check_bytes(json.dumps(doc).encode()).error == error


def test_a_node_that_does_not_hold_is_named_with_its_whole_path():
    doc = json.loads((BOUNDS / "total-2x6.json").read_text())
    doc["nodes"][4]["bound"] += 1
    assert verify_bound.check_bytes(json.dumps(doc).encode()).error == (
        "node 4 (bound 14) at 01 -(0,0)-> 23 -(1,0)->: guess 24 is not refuted: it gives at least 13 guesses in "
        "total, below the bound 14")


def test_a_document_checked_in_memory_is_not_kept():
    report = verify.verify_document(json.loads(STRATEGY.read_text()), verify.Report("x"))
    assert report.valid and report.document is None


def test_a_wrong_histogram_is_named_by_its_lowest_wrong_number_of_guesses():
    """Numbers of guesses in numeric order: '2' comes before '10'."""
    doc = json.loads(STRATEGY.read_text())
    doc["claims"]["histogram"]["10"] = 1
    doc["claims"]["histogram"]["2"] += 1
    assert verify.verify_document(doc, verify.Report("x")).error == "claims.histogram['2']: claimed 8, replay gives 7"


def test_an_invalid_or_unusable_part_makes_the_split_proof_so(tmp_path):
    from certify.proofparts import split

    main, (part,) = split(json.loads((BOUNDS / "total-3x3.json").read_text()), depth=1)
    doc = json.loads(part)
    doc["nodes"][0]["bound"] += 1
    broken = json.dumps(doc).encode()
    report = _combined(main, [broken])
    assert report.status == 1 and report.error.startswith("part part-0.json is invalid: node 0 (the root): bound ")
    unusable = verify_bound.verdict_file(str(tmp_path / "gone.json"))
    report = verify_bound.combine(verify_bound.verdict_bytes(main, "main.json"), [unusable])
    assert report.status == 2 and report.error == (
        f"part {tmp_path / 'gone.json'} is unusable: cannot read file: No such file or directory")


def test_a_game_of_more_than_63_feedback_classes_is_checked():
    """10 pegs: 64 non-winning feedbacks, more than a 64-bit mask holds with the win (the class
    masks of counted_small are then not used): a worst-case bound proven by counting alone."""
    doc = {"format": verify_bound.FORMAT, "version": 1, "game": {"pegs": 10, "colors": 2, "repetition": True},
           "claims": {"worst_case": 3}, "nodes": [{"bound": 3}]}
    report = verify_bound.check_bytes(json.dumps(doc).encode())
    assert report.valid, report.error
    assert report.line() == "<bytes>: valid lower bound: every strategy for 10x2 needs >= 3 guesses for some secret"


def test_an_at_max_node_proven_by_counting_as_a_whole_examines_no_guess():
    """2x3 within 3 guesses: counting's cost of the 9 secrets is 10 x 21 (its least total) + 4 (the
    secrets beyond the 5 that 2 guesses can find are found at the 3rd, the last): the root holds
    as a whole, no guess examined ("checked" in the report)."""
    doc = {"format": verify_bound.FORMAT, "version": 1, "game": {"pegs": 2, "colors": 3, "repetition": True},
           "claims": {"total": 21, "max_guesses": 3, "at_max": 4}, "nodes": [{"bound": 214}]}
    report = verify_bound.check_bytes(json.dumps(doc).encode())
    assert report.valid, report.error
    assert report.checked == {"nodes": 1, "guesses": 0, "counting_nodes": 1, "work": 0, "peak_set_bytes": 130}


def test_a_branch_no_secret_reaches_is_named_unreachable():
    doc = json.loads(STRATEGY.read_text())
    doc["tree"]["next"]["0,1"]["next"]["0,0"] = {"guess": "000"}
    assert verify.verify_document(doc, verify.Report("x")).error == (
        "at 001 -(0,1)-> 122: branch 0,0 is unreachable: no secret reaching this node gives that feedback")


def test_a_worst_case_bound_of_2_on_one_secret_is_refused():
    """1x2: after guess 0 the one secret left, 1, is found by the next guess: a claim of 3 guesses
    (2 more at that node) is false, and the guess that wins at once is named."""
    doc = {"format": verify_bound.FORMAT, "version": 1, "game": {"pegs": 1, "colors": 2, "repetition": True},
           "claims": {"worst_case": 3},
           "nodes": [{"bound": 3, "guesses": {"0": {"0,0": 1}, "1": {"0,0": 2}}}, {"bound": 2}, {"bound": 2}]}
    assert verify_bound.check_bytes(json.dumps(doc).encode()).error == (
        "node 1 (bound 2) at 0 -(0,0)->: guess 1 is not refuted: it wins at once (the node's set is {1})")


@pytest.mark.parametrize("value, shown", [(b"1.5e0", "number 1.5"), (b"-12", "integer -12"), (b"2.50", "number 2.5")])
def test_a_guess_that_is_a_number_is_named_with_its_value(value, shown):
    raw = json.dumps(json.loads(STRATEGY.read_text())).encode().replace(b'"guess": "001"', b'"guess": ' + value, 1)
    assert verify.verify_bytes(raw).error == f"at root: guess must be a string, got {shown}"


def test_weighted_counting_is_charged_at_its_cost_in_the_work_reported():
    """A node that does not hold is counted for every guess; with weights that counting costs
    WEIGHTED_COST (8) times the pairs: the work a weighted proof is charged (its budget) and reports."""
    report = verify_bound.check_file(str(CERTS / "value" / "value-2x3-codemaker.json"))
    assert report.valid, report.error
    assert report.checked == {"nodes": 2, "guesses": 18, "counting_nodes": 0, "work": 5710, "peak_set_bytes": 130}


def test_of_two_leaves_that_fail_in_one_batch_the_lower_node_is_named():
    """2x2: nodes 1 and 2, {01, 10} and {00, 11}, each claimed to need 4 guesses in total (3 do):
    every guess outside either set is refuted by counting, so both are left to the batched check
    of leaves, where both fail; the lower node is named, with its first guess not refuted."""
    doc = {"format": verify_bound.FORMAT, "version": 1, "game": {"pegs": 2, "colors": 2, "repetition": True},
           "claims": {"total": 9},
           "nodes": [{"bound": 9, "guesses": {"00": {"1,0": 1}, "11": {"1,0": 1}, "01": {"1,0": 2}, "10": {"1,0": 2}}},
                     {"bound": 4}, {"bound": 4}]}
    assert verify_bound.check_bytes(json.dumps(doc).encode()).error == (
        "node 1 (bound 4) at 00 -(1,0)->: guess 01 is not refuted: it gives at least 3 guesses in total, below the bound 4")


@pytest.mark.parametrize("old, new", [(b'"guess": "001"', b'"guess" "001"'), (b'"guess": "122"', b'"guess" "122"'),
                                      (b'"0,1": {', b'"0,1" {')])
def test_a_key_without_its_colon_in_the_tree_is_named_and_placed(old, new):
    raw = json.dumps(json.loads(STRATEGY.read_text())).encode().replace(old, new, 1)
    column = raw.index(new) + 1  # (where the key starts, as for the other fields)
    assert verify.verify_bytes(raw).error == f"not valid JSON: Expecting ':' delimiter at line 1 column {column}"


@pytest.mark.parametrize("new, error", [
    (b'"guess": 1e999', "not valid JSON: number 1e999 is out of range"),
    (b'"guess": "122", "x": -1.5e400', "not valid JSON: number -1.5e400 is out of range"),
    (b'"guess": "122", "x": [1e400]', "not valid JSON: number 1e400 is out of range"),
])
def test_a_number_out_of_range_anywhere_in_the_tree_is_refused_as_such(new, error):
    """(An unknown field of a node is refused too, but the JSON is read first: its numbers as well.)"""
    raw = json.dumps(json.loads(STRATEGY.read_text())).encode().replace(b'"guess": "122"', new, 1)
    assert verify.verify_bytes(raw).error == error


def _part_2x2(path) -> bytes:
    return json.dumps({"format": verify_bound.FORMAT, "version": 1, "game": {"pegs": 2, "colors": 2, "repetition": True},
                       "claims": {"total": 3}, "root": {"path": path}, "nodes": [{"bound": 3}]}).encode()


def test_a_part_s_root_path_of_100_steps_is_read_101_are_refused():
    """(Guess 00 answered 1,0 again and again: the set {01, 10} each time.)"""
    report = verify_bound.verdict_bytes(_part_2x2([["00", "1,0"]] * 100))
    assert report.valid and report.root["secrets"] == 2 and len(report.root["path"]) == 100, report.error
    assert verify_bound.verdict_bytes(_part_2x2([["00", "1,0"]] * 101)).error == "root.path: 101 steps, more than the limit 100"


def test_a_part_s_root_path_through_the_win_is_refused():
    assert verify_bound.verdict_bytes(_part_2x2([["00", "1,0"], ["01", "2,0"]])).error == (
        "root.path[1]: key '2,0' is the win (a set of one secret at most)")


def test_max_guesses_exceeded_names_the_first_secret_found_deepest_with_its_path():
    """knuth-3x3 finds two secrets at the 4th guess: the first in the tree's order is named."""
    assert verify.verify_file(str(STRATEGY), max_guesses=3).error == (
        "secret 101 needs 4 guesses, more than --max-guesses 3: 001 -(2,0)-> 002 -(1,0)-> 011 -(1,2)-> 101")


@pytest.mark.parametrize("checker", sorted(CHECKERS))
def test_a_document_of_10000_keys_is_read_one_more_is_refused(checker):
    n = reader.MAX_KEYS
    keys = lambda k: b"{" + b",".join(b'"k%d": 0' % i for i in range(k)) + b"}"  # noqa: E731
    assert CHECKERS[checker](keys(n)).error == "top level: missing field 'format'"
    assert CHECKERS[checker](keys(n + 1)).error == f"top level: an object with more than {n} keys (the limit)"


def test_first_total_may_be_written_out_and_means_the_default_order():
    doc = json.loads((BOUNDS / "total-3x3-max4-count.json").read_text())
    plain = verify_bound.check_bytes(json.dumps(doc).encode())
    doc["claims"]["first"] = "total"
    written = verify_bound.check_bytes(json.dumps(doc).encode())
    assert written.valid and written.statement() == plain.statement(), written.error
    doc["claims"]["first"] = "x"
    assert verify_bound.check_bytes(json.dumps(doc).encode()).error == 'claims.first: must be "total" or "at_max", got \'x\''


# -- reader: the tokenizer proper (skip, document) on fields no checker reads ----------------------

#: A field inside a container no checker reads, where json.loads names the fault by what the
#: container expected there: a ':' after a key's ':' or a ',', a ':' or ']' after an object's ','.
MISPLACED = [
    b'{"extra": {"a"::1}}',
    b'{"extra": [1,:]}',
    b'{"extra": {"a":1,:}}',
    b'{"extra": {"a":1,]}}',
    b'{"extra": {"a": 1, 2: 3}}',
    b'{"extra": ["a": 1]}',
    b'{"extra": [1, "b" : 2]}',
    b'{"extra": {"a": 1 2}}',
]


@pytest.mark.parametrize("raw", MISPLACED, ids=lambda raw: raw.decode())
@pytest.mark.parametrize("checker", sorted(CHECKERS))
def test_a_misplaced_colon_or_key_in_a_nested_container_is_named_as_the_standard_decoder_does(checker, raw):
    assert CHECKERS[checker](raw).error == _json_error(raw)


FILES = {"verify": STRATEGY, "verify_bound": BOUND, "verify_mixed": MIXED}


def _valid_with(checker: str, field: bytes) -> bytes:
    """A valid certificate of the checker with ``field`` ("key": value) written first."""
    raw = FILES[checker].read_bytes()
    at = raw.index(b"{") + 1
    return raw[:at] + field + b", " + raw[at:]


@pytest.mark.parametrize("field, error", [
    (b'"extra": [1]', None),
    (b'"extra": "\\ud800"', "extra: string '\\ud800' is not valid Unicode (lone surrogate)"),
    (b'"extra": {"\\ud800": 1}', "extra: string '\\ud800' is not valid Unicode (lone surrogate)"),
    (b'"extra": [0, {"a": 1}, [{"\\udc00": 1}]]', "extra[2][0]: string '\\udc00' is not valid Unicode (lone surrogate)"),
    (b'"extra": [0, 1, {"a": "\\ud800x"}]', "extra[2].a: string '\\ud800x' is not valid Unicode (lone surrogate)"),
    (b'"\\ud800": 1', "top level: string '\\ud800' is not valid Unicode (lone surrogate)"),
    (b'"extra": [{"x": 1}, {"a": 1, "a": 2}]', "extra[1]: duplicate key 'a'"),
    (b'"extra": [0, 1, {"a": 1, "a": 2}]', "extra[2]: duplicate key 'a'"),
    (b'"extra": {"a": [[{"b": ' + b"[" * 28 + b"]" * 28 + b"}]]}",
     "extra.a[0][0].b" + "[0]" * 27 + ": nested more than 32 levels deep"),
    (b'"extra": [{"x": 1}, {"b": ' + b"[" * 30 + b"]" * 30 + b"}]", "extra[1].b" + "[0]" * 29 + ": nested more than 32 levels deep"),
])
@pytest.mark.parametrize("checker", sorted(CHECKERS))
def test_a_problem_in_metadata_is_named_by_its_path_once_the_certificate_is_checked(checker, field, error):
    """A lone surrogate (a string, a key, a top-level key), a repeated key or metadata nested too
    deeply, in a field no checker reads: the certificate is otherwise valid, the problem is named
    with the path of the value that has it (keys, and array indices counted item by item)."""
    report = CHECKERS[checker](_valid_with(checker, field))
    assert report.error == error and report.valid == (error is None), report.error


@pytest.mark.parametrize("checker", sorted(CHECKERS))
def test_an_object_of_10000_keys_anywhere_is_read_one_more_is_refused(checker):
    """MAX_KEYS below the top level: in an array at the top level (named by its index) and in metadata."""
    n = reader.MAX_KEYS
    keys = lambda k: b"{" + b",".join(b'"k%d": 0' % i for i in range(k)) + b"}"  # noqa: E731
    check = CHECKERS[checker]
    assert check(b"[" + keys(n) + b"]").error == "top level: expected object, got array"
    assert check(b"[" + keys(n + 1) + b"]").error == f"[0]: an object with more than {n} keys (the limit)"
    assert check(b"[0, " + keys(n + 1) + b"]").error == f"[1]: an object with more than {n} keys (the limit)"
    assert check(_valid_with(checker, b'"extra": ' + keys(n))).valid
    assert check(_valid_with(checker, b'"extra": ' + keys(n + 1))).error == f"extra: an object with more than {n} keys (the limit)"


@pytest.mark.parametrize("checker", sorted(CHECKERS))
def test_a_string_of_one_mib_is_read_one_byte_more_is_refused_with_its_place(checker):
    """MAX_STRING counts a string's bytes of JSON, its quotes included: in an array and as a key."""
    n, check = reader.MAX_STRING, CHECKERS[checker]
    assert check(b'["' + b"k" * (n - 2) + b'"]').error == "top level: expected object, got array"
    over = f"is longer than {n} bytes (the limit)"
    assert check(b'["' + b"k" * (n - 1) + b'"]').error == f"the string at line 1 column 2 {over}"
    assert check(b'{"format": 1,\n  "' + b"k" * (n - 1) + b'": 0}').error == f"the string at line 2 column 3 {over}"
