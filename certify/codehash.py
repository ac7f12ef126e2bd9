"""A fingerprint of the code some modules run: the package's Python files they import, statically.

:func:`import_closure` follows every import of the package's own modules (``from .x import y``,
``from ..x import module``, ``import certify.x``, at any depth, also inside functions) from the
given modules, by reading their source with :mod:`ast` (nothing is imported). :func:`code_fingerprint`
is a sha256 over those files, each with its path, as :func:`certify.distributed.fingerprint` does
over the whole package. A checkpoint folder is bound to the closure of its tasks' modules (an edit
elsewhere in the package leaves it valid); a Dask worker still must run the very code of the
client (the whole package).
"""

from __future__ import annotations

import ast
import hashlib
from pathlib import Path

PACKAGE = "certify"
ROOT = Path(__file__).resolve().parent

__all__ = ["code_fingerprint", "files_fingerprint", "import_closure", "module_name"]


def module_name(path: Path, root: Path = ROOT) -> str:
    """The module whose source is ``path`` (below ``root``): certify/search/split.py, certify.search.split."""
    parts = [PACKAGE, *path.relative_to(root).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _file(name: str, root: Path) -> Path | None:
    """The source of module ``name`` (a module file or a package's __init__.py), or None."""
    parts = name.split(".")
    if parts[0] != PACKAGE:
        return None
    base = root.joinpath(*parts[1:])
    for path in (base.with_suffix(".py") if len(parts) > 1 else None, base / "__init__.py"):
        if path is not None and path.is_file():
            return path
    return None


def _imports(name: str, path: Path, root: Path) -> set[str]:
    """The package's modules that ``name`` (its source at ``path``) imports, wherever in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                up = package.split(".")
                base = ".".join(up[:len(up) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                if _file(f"{base}.{alias.name}", root) is not None:
                    found.add(f"{base}.{alias.name}")  # a submodule: ``from . import space``
                else:
                    found.add(base)  # a name defined in ``base`` (its __init__.py for a package)
    return {m for m in found if _file(m, root) is not None}


def import_closure(modules, root: Path = ROOT) -> list[Path]:
    """The source files of ``modules`` and of every module of the package they import, directly or
    not, sorted by their path below ``root``.

    A package's __init__.py counts only where it is imported by name (``from .. import x``, x not a
    submodule), not for each of its submodules: Python runs it, but the package's own (certify's
    lazy API, certify.search's docstring) would bind a search to every module again."""
    seen: dict[str, Path] = {}
    todo = list(modules)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        path = _file(name, root)
        if path is None:
            raise ValueError(f"no module {name} in {root}")
        seen[name] = path
        todo.extend(_imports(name, path, root) - seen.keys())
    return sorted(set(seen.values()), key=lambda p: p.relative_to(root).as_posix())


def code_fingerprint(modules, root: Path = ROOT) -> str:
    """16 hex digits of the sha256 over the files of :func:`import_closure` (:func:`files_fingerprint`)."""
    return files_fingerprint(import_closure(modules, root), root)


def files_fingerprint(files, root: Path = ROOT) -> str:
    """16 hex digits of the sha256 over ``files`` (an import closure), each with its path.

    The package's version (certify/_version.py) is left out: it is a label written into a proof's
    header by whoever stitches the proof, never into a task's result, and a release that changes
    no file of the closure changes no task."""
    digest = hashlib.sha256()
    for path in files:
        rel = path.relative_to(root).as_posix()
        if rel == "_version.py":
            continue
        digest.update(rel.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]
