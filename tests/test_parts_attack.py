"""Split proofs under attack (tests/parts_attack.py), CI-sized: mutants of split small proofs (bounds
raised, root paths and permutations changed, lemmas swapped, retargeted, made cyclic, parts
dropped, duplicated, foreign, of another kind, vacuous, whole-file mutations inside parts...),
each combination judged by the exhaustive oracle. The checker must accept no false statement; and
the generator must be strong enough to find the holes of weakened versions of combine() (each
check of _meets dropped in turn, and the parts' own assumptions ignored), on the same mutants.
The big run: ``.venv/bin/python tests/parts_attack.py --count 50000 --seed 1``."""

from __future__ import annotations

import copy
import importlib.util
import sys
from pathlib import Path

from certify import verify_bound

_spec = importlib.util.spec_from_file_location("parts_attack", Path(__file__).parent / "parts_attack.py")
pa = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("parts_attack", pa)
_spec.loader.exec_module(pa)

SEED, COUNT = 5, 300


def _weakened(field):
    """_meets without one of its checks (the assumption made to agree with the part on it)."""
    real = verify_bound._meets

    def meets(part, user, a):
        a = dict(a)
        if field == "kind":
            user = copy.copy(user)
            user.claims = part.claims
        elif field == "bound":
            a["bound"] = min(a["bound"], part.root["bound"])
        else:
            a[field] = part.root[field]
        return real(part, user, a)
    return meets


def test_split_proof_mutants_are_never_falsely_accepted(monkeypatch):
    weak = {field: _weakened(field) for field in ("bound", "set", "depth", "kind")}
    caught = dict.fromkeys([*weak, "parts' assumptions ignored"], 0)
    accepted = split = 0
    real = verify_bound._meets
    for k in range(COUNT):
        got = pa.mutant(SEED, k)
        if got is None:
            continue
        split += 1
        _, main, parts, ops = got
        mv, pv = pa.verdicts(main, parts)
        report = verify_bound.combine(mv, pv)
        if report.valid:
            accepted += 1
            bad = pa.falses(report, main, parts)
            assert not bad, (k, ops, bad)  # a FALSE ACCEPTANCE
        for field, meets in weak.items():
            monkeypatch.setattr(verify_bound, "_meets", meets)
            report = verify_bound.combine(mv, pv)
            monkeypatch.setattr(verify_bound, "_meets", real)
            if report.valid and pa.falses(report, main, parts):
                caught[field] += 1
        free = []
        for p in pv:
            q = copy.copy(p)
            q.assumptions = []
            free.append(q)
        report = verify_bound.combine(mv, free)
        if report.valid and pa.falses(report, main, parts):
            caught["parts' assumptions ignored"] += 1
    assert split > COUNT // 3 and accepted >= 20, (split, accepted)
    assert all(caught.values()), caught  # the generator finds each weakened check's hole
