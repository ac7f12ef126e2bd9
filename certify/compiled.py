"""Where the compiled loops come from: numba's JIT, or the same functions compiled ahead of time
into an extension module.

The search (:mod:`.search.engine`, :mod:`.search.kernel`, :mod:`.search.wengine`) and the
heuristic strategies' scoring (:mod:`.strategies.kernel`, :mod:`.strategies.bitkernel`) decorate
their loops with :func:`njit` from here. ``python -m certify.compiled`` (run by ``make setup``)
compiles the functions that Python calls (``EXPORTS``, with everything they call) from these very
sources with numba's ahead-of-time compiler into ``_aot_<key>``, an extension module beside this
file. When that module is present, the decorated names are its functions and numba is never
imported: a search command saves numba's import and its loading of cached functions, about half of
``certify build optimal --pegs 4 --colors 6 --proof P`` (0.95 -> 0.5 s CPU here), and so does a
heuristic build of a big game (most-parts 5x8: about 0.45 s). Otherwise, or with ``CERTIFY_JIT=1``
in the environment, numba compiles them just in time as before. Both run the same source, so the
results are the same (tests/test_compiled.py compares them).

The key is a hash of the sources, of numpy's version and of the CPU: the module is compiled for
this CPU (generic x86-64 code ran 4x7's search 1.3x slower), so a stale module, or one copied to
another machine, has another name and is never loaded. The exports release the GIL as the JIT's
``nogil=True`` does (the search's progress thread relies on it).
"""

from __future__ import annotations

import hashlib
import importlib
import os
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
#: The files whose bytes the module is compiled from (this one: it names the exports), relative
#: to this folder (the package): the search's loops and the heuristic strategies' scoring loops.
SOURCES = ("compiled.py", "search/engine.py", "search/kernel.py", "search/wengine.py",
           "strategies/kernel.py", "strategies/bitkernel.py")
#: The functions Python calls, per module (the search's by their own name, the strategies' as
#: strategies_<name>): each has exactly one signature (the build checks; the strategies' kernel
#: hands them read-only int64 arrays of guesses and candidates, see ``readonly`` there).
EXPORTS = {
    "engine": ("solve", "find", "rehash", "node_entries", "entries_batch", "orbit_reps", "stabilizer"),
    "kernel": ("class_sizes", "partition_hashes", "same_partitions", "perfect_split", "set_hashes",
               "find_map"),
    "wengine": ("wsolve",),
    "strategies_kernel": ("_max", "_sumsq", "_parts", "_entropy", "_split"),
    "strategies_bitkernel": ("node_masks", "bit_scores", "parts_scores"),
}


def _short(module: str) -> str:
    """The EXPORTS key of a module: certify.search.engine -> engine, certify.strategies.kernel
    -> strategies_kernel."""
    parts = module.split(".")
    return parts[-1] if parts[-2] == "search" else f"{parts[-2]}_{parts[-1]}"


def _cpu() -> bytes:
    """What identifies this CPU's instruction set (Linux: /proc/cpuinfo's first processor,
    without its clock lines), or b"" where that file is missing."""
    try:
        with open("/proc/cpuinfo", "rb") as f:
            text = f.read(1 << 20)
    except OSError:
        return b""
    keep = (b"vendor_id", b"cpu family", b"model", b"model name", b"flags")
    first = text.split(b"\n\n", 1)[0]
    return b"\n".join(line for line in first.splitlines() if line.split(b":")[0].strip() in keep)


def key(folder: Path = HERE) -> str:
    """The hash that names the module compiled from ``folder``'s sources for this machine."""
    h = hashlib.sha256()
    h.update(np.__version__.encode() + b"\0" + _cpu() + b"\0")
    for name in SOURCES:
        data = (folder / name).read_bytes()
        h.update(name.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    return h.hexdigest()[:16]


def module_name() -> str:
    return f"_aot_{key()}"


def _load():
    if os.environ.get("CERTIFY_JIT") == "1":
        return None
    try:
        return importlib.import_module(f"{__package__}.{module_name()}")
    except ImportError:
        return None


#: The ahead-of-time module in use, or None (numba's JIT).
AOT = _load()


def njit(**options):
    """numba.njit(**options), or the compiled module's function of the same name."""
    def decorate(func):
        if AOT is None:
            import numba

            return numba.njit(**options)(func)
        mod = _short(func.__module__)
        if func.__name__ in EXPORTS.get(mod, ()):
            return getattr(AOT, f"{mod}__{func.__name__}")
        return func  # called only by compiled code, which the module holds compiled
    return decorate


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
    WeightedSearch(game, np.ones(game.size, dtype=np.int64)).value()
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
    """``python -m certify.compiled``: build the module unless it is there already (then
    silent: ``make setup`` runs this every time)."""
    import subprocess
    import sys

    if AOT is not None:
        return 0
    if os.environ.get("CERTIFY_JIT") != "1":
        env = dict(os.environ, CERTIFY_JIT="1")
        return subprocess.call([sys.executable, "-m", "certify.compiled"], env=env)
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
