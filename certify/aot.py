"""The ahead-of-time build of :mod:`certify.compiled`'s exports: ``python -m certify.aot`` (run by
``python -m certify.compiled``, in a process started with ``CERTIFY_JIT=1``).

It calls every export once on a small game so that each has its one signature, then compiles them
with numba's ahead-of-time compiler into ``_aot_<key>`` beside the package. It imports the search
and the strategies' kernels, which import :mod:`certify.compiled` for ``njit``: so the build is
here, above both, and compiled.py imports none of them.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from .compiled import AOT, EXPORTS, HERE, module_name


def _exercise() -> None:
    """Call every export once on a small game (JIT mode), so each has its one signature."""
    from .game import Game
    from .search import engine, kernel
    from .search.counting import Counting
    from .search.proof import ProofWriter
    from .search.space import Space
    from .search.wengine import WeightedSearch
    from .strategies import kernel as skernel

    engine.warm_up()
    game = Game(3, 3, True)
    space = Space(game)
    every = np.arange(game.size, dtype=np.int64)
    eng = engine.Engine(space, Counting(3, 3, True))  # (warm_up solved 3x3 on its own engine)
    eng._grow()  # rehash
    gsig, gtau = engine.stabilizer(every, eng.mask, eng.digits, 3, eng.pperms, eng.pows, eng.vindex,
                                   np.arange(3))
    engine.orbit_reps(gsig, gtau, eng.digits, eng.pows, eng.vindex)
    kernel.class_sizes(space.fb, every, every, space.n_fb)
    kernel.partition_hashes(space.fb, every, every, space.n_fb, space.win)
    kernel.same_partitions(space.fb, every, every, every, space.n_fb, space.win)
    kernel.perfect_split(space.fb, every, space.n_fb, space.win)
    kernel.split_within(space.fb, every, space.n_fb, space.win, 2)
    WeightedSearch(game, np.ones(game.size, dtype=np.int64)).value()
    # the weighted proof's entries (weights 2, 5, 1 on 000, 001, 012: not 0 and 1)
    WeightedSearch(game, [{3: 1, 2: 5, 1: 2}[len(set(game.text(i)))] for i in range(game.size)]).prove()
    skernel.warm_up()  # every scoring loop, the bit-sliced ones and most-parts' too
    # set_hashes and find_map, as the proof writer calls them: {000, 001, 012}, then its image
    # under a swap of two pegs.
    writer = ProofWriter(space, {})
    writer.ref(np.array([0, 1, 5], dtype=np.int64), 9)
    writer.ref(np.array([0, 3, 7], dtype=np.int64), 9)


def _python_signatures(modules) -> dict:
    """{(module, export): {signature}} of the calls Python makes in :func:`_exercise`: each
    export is swapped for a recorder while it runs a second time (its callers among the
    compiled functions were compiled in the first run and keep the real one)."""
    import numba

    seen = {}

    def recorder(mod, fname, disp):
        def call(*args):
            types = tuple(numba.typeof(a) for a in args)
            result = disp(*args)
            seen.setdefault((mod, fname), set()).add(disp.overloads[types].signature)
            return result
        return call

    real = {id(getattr(modules[mod], fname)): (mod, fname, getattr(modules[mod], fname))
            for mod, names in EXPORTS.items() for fname in names}
    from .search import proof

    swapped = []  # (module, name, real): wengine imports find from engine, say
    for module in (*modules.values(), proof):  # (the proof writer calls two kernel loops)
        for attr, value in list(vars(module).items()):
            if id(value) in real:
                mod, fname, disp = real[id(value)]
                setattr(module, attr, recorder(mod, fname, disp))
                swapped.append((module, attr, disp))
    try:
        _exercise()
    finally:
        for module, attr, disp in swapped:
            setattr(module, attr, disp)
    return seen


def build(out: Path = HERE, say=print) -> Path:
    """Compile the exports into ``out`` / _aot_<key><suffix> (atomically); remove older ones."""
    import importlib.machinery
    import tempfile

    if os.environ.get("CERTIFY_JIT") != "1" or AOT is not None:
        raise RuntimeError("build() runs in a process started with CERTIFY_JIT=1")
    import llvmlite.binding as llvm
    import numba.pycc.compiler as pycc_compiler
    from numba.pycc import CC

    from .search import engine, kernel, wengine
    from .strategies import bitkernel as sbitkernel
    from .strategies import kernel as skernel

    modules = {"engine": engine, "kernel": kernel, "wengine": wengine, "strategies_kernel": skernel,
               "strategies_bitkernel": sbitkernel}
    _exercise()  # compiles every function (their calls inside compiled code are fixed now)
    seen = _python_signatures(modules)
    name = module_name()
    cc = CC(name)
    cc.target_cpu = llvm.get_host_cpu_name()
    cc.verbose = False
    for mod, names in EXPORTS.items():
        for fname in names:
            sigs = seen.get((mod, fname), set())
            if len(sigs) != 1:
                raise RuntimeError(f"Python called {mod}.{fname} with {len(sigs)} signatures; "
                                   "an export needs one")
            cc.export(f"{mod}__{fname}", sigs.pop())(getattr(modules[mod], fname).py_func)

    base = pycc_compiler.Flags

    class ReleaseGil(base):
        """The exports' wrappers release the GIL (numba's own default keeps it)."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.release_gil = True

    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    with tempfile.TemporaryDirectory(prefix=".aot-", dir=out) as tmp:
        cc.output_dir = tmp
        pycc_compiler.Flags = ReleaseGil
        try:
            say(f"compiling the search's and the strategies' loops ahead of time into {name}{suffix} "
                "(~45 s) ...")
            cc.compile()
        finally:
            pycc_compiler.Flags = base
        made = Path(tmp) / f"{name}{suffix}"
        target = out / made.name
        os.replace(made, target)
    for old in (*out.glob("_aot_*"), *(out / "search").glob("_aot_*")):  # (earlier ones lived there)
        if old.name != target.name and old.is_file() and not old.is_symlink():
            old.unlink()
    return target


def main() -> int:
    """Build the module (in a process started with ``CERTIFY_JIT=1``; else in a child that is)."""
    import subprocess
    import sys

    if AOT is not None:
        return 0
    if os.environ.get("CERTIFY_JIT") != "1":
        env = dict(os.environ, CERTIFY_JIT="1")
        return subprocess.call([sys.executable, "-m", "certify.aot"], env=env)
    try:
        path = build()
    except Exception as e:  # no C compiler, say: the loops still run on numba's JIT
        print(f"note: could not compile the search's and the strategies' loops ahead of time "
              f"({type(e).__name__}: {e}); they run on numba's JIT", file=sys.stderr)
        return 1
    print(f"wrote {path.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
