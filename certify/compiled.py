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
#: The files whose bytes the module is compiled from (this one names the exports, aot.py builds them), relative
#: to this folder (the package): the search's loops and the heuristic strategies' scoring loops.
SOURCES = ("compiled.py", "aot.py", "search/engine.py", "search/kernel.py", "search/wengine.py",
           "strategies/kernel.py", "strategies/bitkernel.py", "strategies/scoring.py")
#: The functions Python calls, per module (the search's by their own name, the strategies' as
#: strategies_<name>): each has exactly one signature (the build checks; the strategies' kernel
#: hands them read-only int64 arrays of guesses and candidates, see ``readonly`` there).
EXPORTS = {
    "engine": ("solve", "find", "rehash", "node_entries", "entries_batch", "orbit_reps", "stabilizer",
               "node_scan"),
    "kernel": ("class_sizes", "partition_hashes", "same_partitions", "perfect_split", "split_within",
               "set_hashes", "find_map"),
    "wengine": ("wsolve", "wnode_entries"),
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


def main() -> int:
    """``python -m certify.compiled``: build the module unless it is there already (then
    silent: ``make setup`` runs this every time). The build (certify/aot.py) runs the search's
    and the strategies' loops, so it lives above them and runs in a child process with the JIT:
    this module, which they import for :func:`njit`, never imports them."""
    import subprocess
    import sys

    if AOT is not None:
        return 0
    env = dict(os.environ, CERTIFY_JIT="1")
    return subprocess.call([sys.executable, "-m", "certify.aot"], env=env)


if __name__ == "__main__":
    raise SystemExit(main())
