"""The static checker is independent of the code it checks (tests/test_verify_independence.py's
rules): standard library only, of certify only the shared reader, no dynamic import, and it runs
standalone as a script without importing certify's other modules or numpy."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECKER = ROOT / "certify" / "verify_static.py"


def _imports(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, 0, [alias.name]
        elif isinstance(node, ast.ImportFrom):
            yield node.module or "", node.level, [a.name for a in node.names]


def test_checker_imports_only_the_standard_library_numpy_and_the_reader():
    """numpy as verify_bound.py: the feedback table and the counting rule (issue 46: bounded work)."""
    tree = ast.parse(CHECKER.read_text(), filename=str(CHECKER))
    found = list(_imports(tree))
    assert found
    for name, level, names in found:
        if level:
            assert (level, name, names) == (1, "", ["reader"]), f"relative import of {name or names!r}"
            continue
        top = name.split(".")[0]
        if top in ("__future__", "reader", "numpy"):
            continue
        assert top in sys.stdlib_module_names, f"verify_static.py imports {name!r}"
    calls = {n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
             for n in ast.walk(tree) if isinstance(n, ast.Call)}
    assert not calls & {"__import__", "import_module", "exec", "eval"}


def test_builder_and_checker_share_no_code():
    """The builder never imports the checker except for the catalog's table (which reports what the
    checker accepted); the checker never names the builder."""
    builder = (ROOT / "certify" / "static.py").read_text()
    tree = ast.parse(builder)
    top_level = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert not any("verify_static" in ast.dump(n) for n in top_level)
    assert "static" not in {name for name, _, _ in _imports(ast.parse(CHECKER.read_text()))}


WRAPPER = """
import json, runpy, sys
sys.argv = [sys.argv[1]] + sys.argv[2:]
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
except SystemExit as e:
    status = e.code
mods = sorted(m for m in sys.modules if m.split(".")[0] == "certify")
print(json.dumps({"status": status, "modules": mods}), file=sys.stderr)
"""


def test_standalone_script_checks_without_importing_certify(tmp_path):
    good = ROOT / "certificates" / "static" / "static-2x7-proof.json"
    bad = ROOT / "tests" / "data" / "static" / "invalid" / "proof-set-dropped.json"
    for path, status in ((good, 0), (bad, 1)):
        proc = subprocess.run([sys.executable, "-c", WRAPPER, str(CHECKER), str(path)],
                              cwd=tmp_path, capture_output=True, text=True, timeout=60)
        result = json.loads(proc.stderr.strip().splitlines()[-1])
        assert result == {"status": status, "modules": []}, proc.stderr
    proc = subprocess.run([sys.executable, str(CHECKER), str(good)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0 and "valid: no 4 questions separate the 49 secrets of 2x7" in proc.stdout
