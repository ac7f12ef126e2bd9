"""`certify compare`: verified figures side by side; a bad file stops it with the verifier's status."""

from __future__ import annotations

import orjson

from certify import catalog
from certify.__main__ import main

FILES = [str(catalog.ROOT / n) for n in ("knuth-4x6.json", "greenwell-4x6.json", "knuth-3x3.json")]


def compare_json(capsys, files):
    assert main(["compare", *files, "--json"]) == 0
    return orjson.loads(capsys.readouterr().out)["rows"]


def test_rows_are_the_verified_figures(capsys):
    rows = compare_json(capsys, FILES)
    assert [r["file"] for r in rows] == FILES
    for r in rows:
        cert = orjson.loads(open(r["file"], "rb").read())
        hist = cert["claims"]["histogram"]  # the verifier accepted it, so claims == replay
        n = r["secrets"]
        assert len(r["cumulative"]) == r["max_guesses"] == cert["claims"]["max_guesses"]
        assert r["cumulative"][-1] == n == cert["claims"]["secrets"]
        steps = [b - a for a, b in zip([0] + r["cumulative"], r["cumulative"])]
        assert steps == [hist.get(str(k), 0) for k in range(1, r["max_guesses"] + 1)]
        assert r["total_guesses"] == sum(k * s for k, s in enumerate(steps, 1))
        assert abs(r["mean"] - r["total_guesses"] / n) < 1e-12
        k = r["guesses_for_90_percent"]
        assert 10 * r["cumulative"][k - 1] >= 9 * n
        assert k == 1 or 10 * r["cumulative"][k - 2] < 9 * n
    # Knuth 4x6: 1, 7, 69, 602 found within 1..4 guesses (602 < 90% of 1296): 5 are needed.
    assert rows[0]["cumulative"] == [1, 7, 69, 602, 1296] and rows[0]["guesses_for_90_percent"] == 5


def test_table_has_one_row_per_file(capsys):
    assert main(["compare", *FILES]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = lines[1].split()
    assert header[:6] == ["strategy", "game", "max", "mean", "total", "90%"]
    assert header[6:] == [str(k) for k in range(1, 8)]  # greenwell needs up to 7
    body = [line.split() for line in lines[2:]]
    assert [b[:3] for b in body] == [["knuth", "4x6", "5"], ["greenwell", "4x6", "7"], ["knuth", "3x3", "4"]]
    assert body[0][3:6] == ["4.476", "5801", "5"]


def test_same_strategy_twice_is_told_apart_by_file(capsys, tmp_path):
    copy = tmp_path / "copy.json"
    copy.write_bytes(open(FILES[0], "rb").read())
    assert main(["compare", FILES[0], str(copy)]) == 0
    out = capsys.readouterr().out
    assert "knuth (knuth-4x6.json)" in out and "knuth (copy.json)" in out


def test_invalid_file_is_refused(capsys, tmp_path):
    cert = orjson.loads(open(FILES[0], "rb").read())
    cert["claims"]["total_guesses"] -= 1
    bad = tmp_path / "bad.json"
    bad.write_bytes(orjson.dumps(cert))
    assert main(["compare", FILES[0], str(bad)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip().splitlines() == [
        f"{bad}: invalid: claims.total_guesses: claimed 5800, replay gives 5801"]
    assert main(["compare", FILES[0], str(tmp_path / "missing.json")]) == 2
    assert "cannot read file" in capsys.readouterr().err
