"""The lower-bound checker against its corpus: every file in tests/data/bounds/valid/ is accepted,
every file in tests/data/bounds/invalid/ is rejected with the exit status and reason listed in
expected.json; in-process, and as a standalone script in a subprocess (all files at once)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from certify import reader, verify_bound
from conftest import bound_corpus

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "bounds"
EXPECTED = json.loads((DATA / "expected.json").read_text())
VALID = sorted((DATA / "valid").iterdir())
INVALID = sorted((DATA / "invalid").iterdir())
SCHEMA = json.loads((ROOT / "docs" / "lower-bound.schema.json").read_text())


def _ids(paths):
    return [p.name for p in paths]


def _run(path: Path):
    out, err = io.StringIO(), io.StringIO()
    status = verify_bound.run([str(path)], out=out, err=err)
    return status, out.getvalue(), err.getvalue()


def test_corpus_is_exactly_what_the_generator_makes():
    module = bound_corpus()  # the same generator, its proofs written once for the session
    wanted = module.render(*module.corpus())
    have = module.committed()
    assert sorted(wanted) == sorted(have), "run: python tests/data/bounds/make_corpus.py"
    stale = [k for k in wanted if wanted[k] != have[k]]
    assert not stale, f"stale corpus files {stale}: run python tests/data/bounds/make_corpus.py"


def test_every_invalid_file_has_an_expectation_and_the_corpus_is_broad():
    assert sorted(p.name for p in INVALID) == sorted(EXPECTED)
    assert len(VALID) >= 20 and len(INVALID) >= 70
    # The proofs that carry the argument: children, permutations, same_as, max_guesses, no repetition.
    texts = [p.read_bytes() for p in VALID if p.suffix == ".json"]
    assert sum(b'"same_as"' in t for t in texts) >= 4
    assert sum(b'"perm":{"colors"' in t and b'"node":' in t for t in texts) >= 3
    assert sum(b'"max_guesses"' in t for t in texts) >= 3
    assert sum(b'"repetition":false' in t for t in texts) >= 2


@pytest.mark.parametrize("path", VALID, ids=_ids(VALID))
def test_valid_file_is_accepted(path):
    status, out, err = _run(path)
    assert (status, err) == (0, "")
    assert out.count("\n") == 1 and out.startswith(f"{path}: valid lower bound: every strategy for ")
    report = verify_bound.check_file(str(path))
    assert report.valid and report.checked["nodes"] >= 1
    doc = json.loads(verify_bound.reports_json([report]))
    assert doc["report_version"] == 1 and doc["results"][0]["exit_code"] == 0


@pytest.mark.parametrize("path", [p for p in VALID if p.suffix == ".json"],
                         ids=_ids([p for p in VALID if p.suffix == ".json"]))
def test_valid_file_fits_the_schema(path):
    jsonschema.validate(json.loads(path.read_bytes()), SCHEMA)


@pytest.mark.parametrize("path", INVALID, ids=_ids(INVALID))
def test_invalid_file_is_rejected_with_a_one_line_reason(path):
    want = EXPECTED[path.name]
    status, out, err = _run(path)
    kind = {1: "invalid", 2: "unusable"}[want["exit"]]
    assert status == want["exit"]
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(f"{path}: {kind}: "), err
    assert want["reason"] in err, err
    assert "Traceback" not in err
    doc = json.loads(verify_bound.reports_json([verify_bound.check_file(str(path))]))
    assert doc["results"][0]["exit_code"] == want["exit"] and doc["results"][0]["valid"] is False


def test_standalone_script_checks_the_whole_corpus_in_one_run(tmp_path):
    script = ROOT / "certify" / "verify_bound.py"
    proc = subprocess.run([sys.executable, str(script), "--json", *map(str, VALID + INVALID)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == max(e["exit"] for e in EXPECTED.values()), proc.stderr
    results = {Path(r["file"]).name: r for r in json.loads(proc.stdout)["results"]}
    for p in VALID:
        assert results[p.name]["exit_code"] == 0, results[p.name]
    for p in INVALID:
        assert results[p.name]["exit_code"] == EXPECTED[p.name]["exit"]
        assert EXPECTED[p.name]["reason"] in results[p.name]["error"]


def test_unreadable_files_are_unusable(tmp_path):
    status, out, err = _run(tmp_path / "missing.json")
    assert status == 2 and err.startswith(f"{tmp_path / 'missing.json'}: unusable: cannot read file")
    status, out, err = _run(tmp_path)
    assert status == 2 and "Is a directory" in err
    proc = subprocess.run([sys.executable, str(ROOT / "certify" / "verify_bound.py")],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def _whole(raw: bytes):
    """The reference reading: the standard json module on the whole text (with the rules: repeated
    keys kept, no NaN, at most 100 digits), every field outside the nodes scanned for repeated
    keys and lone surrogates; the checker's nodes of that list."""
    text = raw.decode("utf-8")
    doc = json.loads(text, object_pairs_hook=reader.pairs, parse_int=reader._int, parse_float=reader._float,
                     parse_constant=reader._no_constant)
    stack = [(v, 2) for k, v in doc.items() if k not in ("nodes",)] if type(doc) is dict else []
    while stack:
        v, level = stack.pop()
        if type(v) is reader.Dup:
            raise verify_bound.Invalid("duplicate key")
        if type(v) is str:
            v.encode("utf-8")
        elif type(v) in (dict, list):
            if level > reader.MAX_META_DEPTH:
                raise verify_bound.Invalid("nested too deeply")
            stack.extend((x, level + 1) for x in (v.values() if type(v) is dict else v))
    return doc


def _shape(raw: bytes, streamed: bool):
    """The nodes as the checker reads them (its spans, each node built in turn), or as the whole
    document read by json.loads gives them; or the error."""
    try:
        doc = verify_bound._read(reader.text(raw, verify_bound.MAX_BYTES)) if streamed else _whole(raw)
        game, _ = verify_bound._header(doc)
        return verify_bound._nodes(doc["nodes"], len(doc["nodes"]), game)
    except (verify_bound.Invalid, reader.Limit, ValueError, RecursionError) as e:  # (UnicodeError is a ValueError)
        return "refused" if isinstance(e, (json.JSONDecodeError, UnicodeError, RecursionError)) or streamed \
            or "JSON" in str(e) else str(e)


def _same(raw: bytes) -> bool:
    """The checker's reading agrees with json.loads: the same nodes, or both refuse (the messages
    of the two readers differ for broken JSON: only the verdict is compared then)."""
    a, b = _shape(raw, True), _shape(raw, False)
    return a == b or (type(a) is str and type(b) is str)


BASES = [DATA / "valid" / name for name in ("worst-3x3-symmetric.json", "total-3x3-max4.json", "metadata-allowed.json")]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from(BASES), edits=st.lists(st.tuples(st.floats(0, 1), st.sampled_from(
    ["delete", "{", "}", "[", "]", ",", ":", '"', " ", "1", "-", "NaN", "1e999", '"nodes":[],', "[" * 3000]),
    st.integers(1, 40)), min_size=1, max_size=3))
def test_reading_the_nodes_one_at_a_time_reads_as_json_loads(base, edits):
    """Damaged text (characters deleted or inserted anywhere, top level included): the streamed reading
    gives the same nodes or the same error as json.loads of the whole document."""
    text = base.read_text()
    for where, what, length in edits:
        at = int(where * len(text))
        text = text[:at] + text[at + length:] if what == "delete" else text[:at] + what + text[at:]
    raw = text.encode()
    assert _same(raw)


def test_the_streamed_reading_is_used_and_equal_on_the_whole_corpus():
    for path in VALID + INVALID:
        raw = path.read_bytes()
        if raw[:2] == b"\x1f\x8b":
            continue
        assert _same(raw), path.name
        if not path.name.startswith("json") and raw.strip().startswith(b"{"):
            try:
                doc = verify_bound.parse(raw)
            except verify_bound.Invalid:
                continue
            if isinstance(doc.get("nodes"), verify_bound._Nodes):
                try:
                    got = list(doc["nodes"])
                except verify_bound.Invalid:
                    continue
                assert got == json.loads(raw)["nodes"], path.name  # the spans are the items
    text = (DATA / "valid" / "total-3x3.json").read_bytes()
    nodes = verify_bound.parse(text)["nodes"]
    assert [nodes.bound(i) for i in range(len(nodes))] == [n["bound"] for n in json.loads(text)["nodes"]]


_TEXT = st.text(alphabet='"\\[]{},: ab\u00e9\n', max_size=12)
_VALUE = st.recursive(st.none() | st.booleans() | st.integers(-5, 5) | _TEXT,
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
                      max_leaves=8)


@settings(max_examples=400, deadline=None)
@given(items=st.lists(_VALUE, max_size=6), block=st.integers(1, 40), space=st.booleans())
def test_the_split_into_items_follows_strings_escapes_and_blocks(items, block, space):
    """The nodes array split by its structure (quotes, escapes, brackets and commas outside strings,
    a block of bytes at a time, blocks as small as one byte) gives the items json.loads gives."""
    text = json.dumps(items, ensure_ascii=False, indent=1 if space else None).encode()
    saved = verify_bound._SCAN_BLOCK
    verify_bound._SCAN_BLOCK = block
    try:
        nodes, end = verify_bound._spans(text, 0)
    finally:
        verify_bound._SCAN_BLOCK = saved
    assert end == len(text)
    assert list(nodes) == items
