"""Fuzzing: random damage to real certificates, at the byte level and in the JSON structure.

Whatever the damage, the verifier returns a report (never raises), with status 0 or 1 and a
one-line reason; whenever it accepts, the replay equals the claims.
"""

from __future__ import annotations

import copy
import gzip
import json
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from certify import verify

VALID = Path(__file__).resolve().parent / "data" / "valid"
K33 = (VALID / "knuth-3x3.json").read_bytes()
K34N = (VALID / "knuth-3x4-norep.json").read_bytes()


def _check(report):
    assert report.status in (0, 1) or (report.status == 2 and report.limit is not None), report  # 2: a limit
    if report.valid:
        assert report.error is None and report.replayed == report.claims
    else:
        assert report.error and "\n" not in report.error and len(report.error) < 400, report.error
    report.line().encode("utf-8")
    json.loads(verify.reports_json([report]))


def _damage(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        i = rng.randrange(len(b))
        j = min(len(b), i + rng.randrange(1, 16))
        op = rng.randrange(6)
        if op == 0:
            b[i] = rng.randrange(256)
        elif op == 1:
            b[i] = rng.choice(b'{}[]",:0123456789 \\ntruefalsenull-+.eE')
        elif op == 2:
            del b[i:j]
        elif op == 3:
            b[i:i] = b[i:j]
        elif op == 4:
            b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 4)))
        else:
            b[i] ^= 1 << rng.randrange(8)
    return bytes(b)


def test_byte_level_damage_never_crashes_the_verifier():
    rng = random.Random(1987)
    seen = {0: 0, 1: 0}
    for base in (K33, K34N, gzip.compress(K33, mtime=0)):
        for _ in range(700):
            report = verify.verify_bytes(_damage(base, rng), "fuzzed")
            _check(report)
            seen[report.status] += 1
    assert seen[1] > 1500  # most damage is caught; the rest hit whitespace or free text


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6) | st.sampled_from(["001", "0,0", "1,2", "3,0", "guess", "next", "222"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["guess", "next", "0,0", "1,2", "2,0", "pegs", "x"]) | st.text(max_size=4), inner,
        max_size=4),
    max_leaves=12)


def _slots(doc):
    """Every (container, key) in the document, found iteratively."""
    out, stack = [], [doc]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for k, v in items:
            out.append((node, k))
            if isinstance(v, (dict, list)):
                stack.append(v)
    return out


@settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(base=st.sampled_from([K33, K34N]), where=st.integers(0, 10**6), value=json_values,
       how=st.sampled_from(["replace", "add", "delete"]))
def test_structural_damage_never_crashes_the_verifier(base, where, value, how):
    doc = copy.deepcopy(json.loads(base))
    slots = _slots(doc)
    container, key = slots[where % len(slots)]
    if how == "replace":
        container[key] = value
    elif how == "delete":
        del container[key]
    elif isinstance(container, dict):
        container[f"{key}~" if isinstance(value, (dict, list)) else "0,0"] = value
    else:
        container.append(value)
    raw = json.dumps(doc).encode()
    _check(verify.verify_bytes(raw, "fuzzed"))
