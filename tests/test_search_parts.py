"""A search's proof written and checked in parts (``--proof-parts N``, the API's ``proof_parts``):
for proofs past the lower-bound checker's size or node limit as one file (Bulls and Cows
count-first: 236 MB; 10x2's worst case: 202 MB). Small games here: the split is the one
``certify split-proof`` makes of the whole proof (same bytes), the checker accepts it, and a
whole proof over a limit says how to write it in parts."""

import gzip
import json
import os

import pytest

from certify import api, verify_bound
from certify.errors import CertifyError
from certify.game import Game
from certify.search import exact
from tests.conftest import run_here


def _folder(path):
    return {name: (path / name).read_bytes() for name in sorted(os.listdir(path))}


def test_bound_in_parts_is_split_proof_of_the_whole(tmp_path):
    whole, split_dir, parts_dir = tmp_path / "w.json.gz", tmp_path / "split", tmp_path / "parts"
    r = run_here("bound", "--pegs", 4, "--colors", 5, "--worst", "-q", "-o", whole)
    assert r.returncode == 0, r.stderr
    r = run_here("split-proof", whole, "--parts", 5, "-o", split_dir)
    assert r.returncode == 0, r.stderr
    r = run_here("bound", "--pegs", 4, "--colors", 5, "--worst", "--proof-parts", 5, "--json", "-o", parts_dir)
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["file"] == str(parts_dir / "main.json.gz") and summary["parts"] == 4
    assert summary["check_command"].endswith(f"--parts {parts_dir} --jobs 2")
    written = _folder(parts_dir)
    assert written == _folder(split_dir) and len(written) == 5  # main.json.gz and 4 parts
    main = json.loads(gzip.decompress(written["main.json.gz"]))
    assert main["claims"] == json.loads(gzip.decompress(whole.read_bytes()))["claims"] == {"worst_case": 5}
    assert sum("lemma" in json.dumps(node) for node in main["nodes"]) >= 1  # it leans on its parts
    r = run_here("verify", parts_dir / "main.json.gz", "--parts", parts_dir)
    assert r.returncode == 0 and "a split proof (4 lemmas" in r.stdout, r.stdout + r.stderr
    r = run_here("verify", parts_dir / "main.json.gz")  # alone, the main file proves nothing
    assert r.returncode != 0


def test_count_first_in_parts_with_checkpoint_meets_its_strategy(tmp_path):
    out, proof = tmp_path / "s.json", tmp_path / "proof"
    r = run_here("build", "optimal", "--pegs", 4, "--colors", 5, "--max-guesses", 5, "--objective",
                 "max-count,total", "--checkpoint", tmp_path / "ck", "--proof", proof, "--proof-parts", 6,
                 "-q", "--json", "-o", out)
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["proof_file"] == str(proof / "main.json.gz") and summary["proof_parts"] > 6
    assert summary["proof_claims"]["at_max"] == 68 and summary["claims"]["total_guesses"] == 2465
    assert len(os.listdir(proof)) == summary["proof_parts"] + 1
    r = run_here(*summary["check_command"].split()[1:])  # the command it prints, as printed
    assert r.returncode == 0 and "optimal" in r.stdout, r.stdout + r.stderr
    # a part changed by one byte of its JSON: the whole is refused (its sha256 is named in the main file)
    part = sorted(proof.glob("part-*.json.gz"))[0]
    doc = json.loads(gzip.decompress(part.read_bytes()))
    doc["comment"] += "!"
    part.write_bytes(gzip.compress(json.dumps(doc).encode()))
    r = run_here(*summary["check_command"].split()[1:])
    assert r.returncode == 1, r.stdout + r.stderr


def test_whole_proof_over_the_size_limit_names_the_option(monkeypatch):
    split = exact.worst_case(Game(3, 5), parts=8)  # 19 nodes, 20,093 bytes whole
    assert split.checked.valid and split.checked.claims == {"worst_case": 5} and len(split.parts) > 4
    biggest = max(len(gzip.decompress(raw)) for raw in [split.data, *split.parts])
    monkeypatch.setattr(verify_bound, "MAX_BYTES", biggest)  # below the whole proof's size
    with pytest.raises(CertifyError, match="could not be checked.*larger than.*--proof-parts N"):
        exact.worst_case(Game(3, 5))
    found = exact.worst_case(Game(3, 5), parts=8)  # each file within the limit: the same bytes
    assert found.checked.valid and (found.data, found.parts) == (split.data, split.parts)
    monkeypatch.undo()
    monkeypatch.setattr(verify_bound, "MAX_NODES", 18)
    with pytest.raises(CertifyError, match="could not be checked.*--max-nodes.*--proof-parts N"):
        exact.worst_case(Game(3, 5))
    monkeypatch.undo()
    # a limit parts do not lower (the work budget): no verdict, and no advice to cut the proof
    monkeypatch.setattr(verify_bound, "MAX_PAIRS", 10)
    with pytest.raises(CertifyError, match="could not be checked") as e:
        exact.worst_case(Game(3, 5))
    assert "--proof-parts" not in str(e.value)


@pytest.mark.parametrize("args, words", [
    (["bound", "--pegs", 3, "--colors", 3, "--worst", "--proof-parts", 2, "-o", "-"], "not standard output"),
    (["build", "knuth", "--pegs", 3, "--colors", 3, "--proof-parts", 2, "-o", "{tmp}/k.json"], "build optimal"),
    (["build", "optimal", "--pegs", 3, "--colors", 3, "--proof-parts", 2, "-o", "{tmp}/k.json"], "--proof DIR"),
    (["build", "optimal", "--pegs", 3, "--colors", 3, "--objective", "worst,total", "--proof", "{tmp}/p",
      "--proof-parts", 2, "-o", "{tmp}/k.json"], "worst,total"),
    (["bound", "--pegs", 3, "--colors", 3, "--worst", "--proof-parts", 2, "-o", "{tmp}/file"], "not a folder"),
    (["bound", "--pegs", 3, "--colors", 3, "--worst", "--proof-parts", 2, "-o", "{tmp}/full"], "already holds"),
])
def test_refused_before_the_search(tmp_path, args, words):
    (tmp_path / "file").write_text("x")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "main.json").write_text("{}")
    r = run_here(*[a.format(tmp=tmp_path) if isinstance(a, str) else a for a in args])
    assert r.returncode == 2 and words in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "search:" not in r.stderr and not (tmp_path / "k.json").exists()


def test_api_bound_in_parts_saves_a_folder_the_checker_accepts(tmp_path):
    found = api.bound(4, 5, kind="worst", proof_parts=5)
    assert found.claims == {"worst_case": 5} and len(found.parts) == 4
    found.save(tmp_path / "p")
    assert _folder(tmp_path / "p")["main.json.gz"] == found.data
    (report,) = api.verify_parts(tmp_path / "p" / "main.json.gz", tmp_path / "p")
    assert report.valid and report.claims == {"worst_case": 5}
    with pytest.raises(CertifyError, match="proof_parts must be an integer"):
        api.bound(3, 3, proof_parts=0)
