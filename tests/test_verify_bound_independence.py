"""The lower-bound checker is independent of the code whose results it checks: from certify it
imports verify.py alone (itself standard library only), besides the standard library only numpy
(for its counting, docs/lower-bound-format.md says why), and it runs as a script from a folder
that holds only the two files, with nothing but numpy importable beside them."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKER = ROOT / "certify" / "verify_bound.py"
VALID = ROOT / "tests" / "data" / "bounds" / "valid" / "total-2x6.json"
INVALID = ROOT / "tests" / "data" / "bounds" / "invalid" / "child-set-wrong.json"


def _imports(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, 0, alias.name
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                yield node.module or "", node.level, alias.name


def test_checker_imports_only_the_standard_library_numpy_and_verify():
    tree = ast.parse(CHECKER.read_text(), filename=str(CHECKER))
    found = list(_imports(tree))
    assert found, "the parser found no import at all"
    for module, level, name in found:
        if level:  # from . import verify: the only relative import allowed
            assert (level, module) == (1, "") and name in ("reader", "verify"), (level, module, name)
            continue
        top = module.split(".")[0]
        if top in ("verify", "reader"):  # the same modules when run as a script
            continue
        if (module, name) == ("numpy", "numpy"):  # import numpy as np, nothing from numpy's add-ons
            continue
        assert top in sys.stdlib_module_names, f"verify_bound.py imports {module!r}"
        assert top != "certify"
    calls = {n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
             for n in ast.walk(tree) if isinstance(n, ast.Call)}
    assert not calls & {"__import__", "import_module", "exec", "eval"}


# Runs the checker as a script, then reports which project modules got imported.
WRAPPER = """
import importlib.util, json, os, runpy, sys
sys.argv = [sys.argv[1]] + sys.argv[2:]
sys.path.insert(0, os.path.dirname(sys.argv[0]))
assert importlib.util.find_spec("certify") is None, "certify is importable"
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
except SystemExit as e:
    status = e.code
mods = sorted(m for m in sys.modules if m.split(".")[0] in ("certify", "verify", "reader", "numba"))
print(json.dumps({"status": status, "modules": mods}), file=sys.stderr)
"""


def test_standalone_with_nothing_but_verify_beside_it(tmp_path):
    alone = tmp_path / "alone"
    alone.mkdir()
    for name in ("verify_bound.py", "verify.py", "reader.py"):
        shutil.copy(ROOT / "certify" / name, alone / name)
    # -S: no site-packages (where the project is installed); numpy alone is put back on the path,
    # from a folder of its own that holds nothing else
    import numpy

    lib = tmp_path / "lib"
    lib.mkdir()
    os.symlink(os.path.dirname(numpy.__file__), lib / "numpy")
    env = {"PATH": "/usr/bin:/bin", "PYTHONNOUSERSITE": "1", "PYTHONPATH": str(lib)}
    for path, status in ((VALID, 0), (INVALID, 1)):
        proc = subprocess.run([sys.executable, "-S", "-c", WRAPPER, str(alone / "verify_bound.py"), str(path)],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env)
        result = json.loads(proc.stderr.strip().splitlines()[-1])
        assert result == {"status": status, "modules": ["reader", "verify"]}, proc.stderr
        assert "Traceback" not in proc.stderr
    proc = subprocess.run([sys.executable, "-S", str(alone / "verify_bound.py"), str(VALID)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    assert "valid lower bound: every strategy for 2x6 needs >= 132 guesses in total" in proc.stdout
