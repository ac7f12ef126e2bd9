"""The search's loops compiled ahead of time (certify/compiled.py): `make setup` built them,
the search uses them without importing numba, they compute what numba's JIT computes from the same
source, they release the GIL, and a changed source or machine names another module."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from conftest import ROOT
from certify import compiled

#: Runs in a subprocess in either mode and prints a digest of what the compiled exports return:
#: proofs (engine: solve, find, node_entries, entries_batch; orbits and stabilizers through
#: same_as), strategies, a worst-case proof (kernel), weighted values and trees (wengine), and
#: the heuristic strategies' certificates (their scoring loops).
DIGEST = r"""
import hashlib, sys
import numpy as np
from certify.certificate import dumps as strategy_bytes
from certify.game import Game
from certify import compiled
from certify.search import engine
from certify.search.proof import dumps
from certify.search.total import TotalSearch
from certify.search.wengine import WeightedSearch
from certify.search.worst import WorstSearch
h = hashlib.sha256()
for pegs, colors, rep, cap, top in [(4, 4, True, None, 0), (4, 4, False, 5, 0), (3, 5, True, None, 0),
                                    (4, 5, True, None, None), (3, 4, True, 4, None)]:
    s = TotalSearch(Game(pegs, colors, rep), cap)
    if top is not None:
        s.top = top
    h.update(str(s.solve()).encode() + dumps(s.prove()) + strategy_bytes(s.strategy_certificate()))
w = WorstSearch(Game(3, 5, True))
h.update(dumps(w.prove(5)) + repr(w.prove(6)).encode())
g = Game(3, 4, True)
weights = np.array([(0, 2, 5, 1)[len(set(g.text(i)))] for i in range(g.size)], dtype=np.int64)
ws = WeightedSearch(g, weights)
h.update(str(ws.value()).encode() + repr(ws.tree()).encode())
# The heuristic strategies' scoring loops (strategies/kernel.py, bitkernel.py): 4x6 through the
# loops and the bit-sliced ones, 5x4 too (their certificates' bytes).
from certify.certificate import make_certificate
from certify.strategies import STRATEGIES
for name in ("knuth", "most-parts", "entropy", "expected-size"):
    for game in (Game(4, 6, True), Game(5, 4, True)):
        h.update(strategy_bytes(make_certificate(STRATEGIES[name](game, engine="kernel"))))
print("numba" in sys.modules, compiled.AOT is not None, h.hexdigest())
"""


def run_python(code, jit: bool):
    env = dict(os.environ)
    env.pop("CERTIFY_JIT", None)
    if jit:
        env["CERTIFY_JIT"] = "1"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=600)


def test_setup_built_the_module_and_the_search_uses_it():
    """`make setup` (which runs before the suite) compiled this very source for this machine."""
    assert compiled.AOT is not None, "no up-to-date certify/_aot_*: run `make setup`"
    from certify.search import engine, kernel, wengine

    assert engine.solve is compiled.AOT.engine__solve
    assert kernel.class_sizes is compiled.AOT.kernel__class_sizes
    assert wengine.wsolve is compiled.AOT.wengine__wsolve
    from certify.strategies import bitkernel
    from certify.strategies import kernel as skernel

    assert skernel._parts is compiled.AOT.strategies_kernel___parts
    assert bitkernel.parts_scores is compiled.AOT.strategies_bitkernel__parts_scores
    assert not hasattr(engine.solve, "py_func")  # not a numba dispatcher


def test_the_search_starts_without_numba():
    out = run_python("import sys, certify.search.total, certify.search.worst, certify.search.wengine,"
                     " certify.search.split, certify.strategies.kernel, certify.strategies.bitkernel;"
                     " print(sorted(m for m in sys.modules if 'numba' in m))", jit=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_ahead_of_time_and_jit_compute_the_same():
    aot = run_python(DIGEST, jit=False)
    jit = run_python(DIGEST, jit=True)
    assert aot.returncode == 0 and jit.returncode == 0, aot.stderr + jit.stderr
    a_numba, a_mode, a_digest = aot.stdout.split()
    j_numba, j_mode, j_digest = jit.stdout.split()
    assert (a_numba, a_mode) == ("False", "True")  # the compiled module, no numba
    assert (j_numba, j_mode) == ("True", "False")  # numba's JIT
    assert a_digest == j_digest


def test_optimal_4x6_with_its_proof_is_the_committed_bytes_in_both_modes(tmp_path):
    for jit in (False, True):
        proof, strategy = tmp_path / f"p{jit}.json.gz", tmp_path / f"s{jit}.json"
        env = dict(os.environ, CERTIFY_JIT="1" if jit else "0")
        out = subprocess.run([sys.executable, "-m", "certify", "build", "optimal", "--pegs", "4",
                              "--colors", "6", "-q", "--proof", str(proof), "-o", str(strategy)],
                             capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
        assert out.returncode == 0, out.stderr
        assert proof.read_bytes() == (ROOT / "certificates/bounds/total-4x6.json.gz").read_bytes()
        assert strategy.read_bytes() == (ROOT / "certificates/optimal-total-4x6.json").read_bytes()


def test_the_exports_release_the_gil():
    """The progress thread reports while the search runs: the main thread keeps running during
    one compiled call (held, it would not run once until the call returned)."""
    from certify.game import Game
    from certify.search import engine
    from certify.search.counting import Counting
    from certify.search.space import Space

    game = Game(4, 6, True)
    eng = engine.Engine(Space(game), Counting(4, 6, True))
    every = np.arange(game.size, dtype=np.int64)
    out = []
    thread = threading.Thread(target=lambda: out.append(eng.solve(every, None, engine.INF)))
    ticks = 0
    thread.start()
    while thread.is_alive():
        ticks += 1
        time.sleep(0.0005)
    assert out == [5625]
    assert ticks >= 5


def test_the_name_follows_every_source_byte(tmp_path):
    for name in compiled.SOURCES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(compiled.HERE / name, tmp_path / name)
    assert compiled.key(tmp_path) == compiled.key()
    for name in compiled.SOURCES:
        path = tmp_path / name
        data = path.read_bytes()
        path.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
        assert compiled.key(tmp_path) != compiled.key(), name
        path.write_bytes(data)
    assert compiled.key(tmp_path) == compiled.key()


def test_the_name_follows_the_cpu_and_numpy(monkeypatch):
    before = compiled.key()
    monkeypatch.setattr(compiled, "_cpu", lambda: b"flags : fpu sse2")
    assert compiled.key() != before
    monkeypatch.undo()
    monkeypatch.setattr(compiled.np, "__version__", "0.0.0")
    assert compiled.key() != before


def test_cpu_identity_leaves_out_the_clock():
    cpu = compiled._cpu()
    if os.path.exists("/proc/cpuinfo"):
        assert b"flags" in cpu
        assert b"MHz" not in cpu and b"bogomips" not in cpu


def test_jit_mode_when_asked():
    out = run_python("from certify import compiled; from certify.search import engine; "
                     "print(compiled.AOT is None, hasattr(engine.solve, 'py_func'))", jit=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "True"]
