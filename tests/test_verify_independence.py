"""The verifier is independent of the code it checks: standard library (and optionally
orjson) only, no relative import, nothing from certify or numpy, and it runs standalone."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERIFY = ROOT / "certify" / "verify.py"


def _imports(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, 0
        elif isinstance(node, ast.ImportFrom):
            yield node.module or "", node.level


def test_verify_imports_only_the_standard_library_and_orjson():
    tree = ast.parse(VERIFY.read_text(), filename=str(VERIFY))
    found = list(_imports(tree))
    assert found, "the parser found no import at all"
    for name, level in found:
        if level:  # from . import reader: the trusted checkers' one shared reader
            assert (level, name) == (1, ""), f"relative import of {name!r}"
            continue
        top = name.split(".")[0]
        if top in ("__future__", "reader"):  # (reader: the same module when run as a script)
            continue
        assert top in sys.stdlib_module_names or top == "orjson", f"verify.py imports {name!r}"
        assert top not in ("certify", "numpy")
    # No way around the rule through dynamic imports either.
    calls = {n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
             for n in ast.walk(tree) if isinstance(n, ast.Call)}
    assert not calls & {"__import__", "import_module", "exec", "eval"}


# Runs verify.py as a script, then reports what got imported (the script's own exit is caught).
WRAPPER = """
import json, runpy, sys
sys.argv = [sys.argv[1]] + sys.argv[2:]
try:
    runpy.run_path(sys.argv[0], run_name="__main__")
except SystemExit as e:
    status = e.code
mods = sorted(m for m in sys.modules if m.split(".")[0] in ("certify", "numpy") or m == "verify")
print(json.dumps({"status": status, "modules": mods}), file=sys.stderr)
"""


def test_standalone_script_verifies_without_importing_certify_or_numpy(tmp_path):
    cert = ROOT / "certificates" / "knuth-4x6.json"
    bad = ROOT / "tests" / "data" / "invalid" / "guess-changed-at-leaf.json"
    for path, status in ((cert, 0), (bad, 1)):
        proc = subprocess.run([sys.executable, "-c", WRAPPER, str(VERIFY), str(path)],
                              cwd=tmp_path, capture_output=True, text=True, timeout=60)
        result = json.loads(proc.stderr.strip().splitlines()[-1])
        assert result == {"status": status, "modules": []}, proc.stderr
        assert "Traceback" not in proc.stderr
    # And plainly, as documented: python certify/verify.py FILE
    proc = subprocess.run([sys.executable, str(VERIFY), str(cert), "--max-guesses", "5"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "valid: 1296 secrets of 4x6, max 5 guesses" in proc.stdout
