"""Imports flow one way (issue 38, item 6): the graph of which module of certify/ imports which,
read from the source (every import statement, at the top of a module or inside a function: the
lazy imports count), has no cycle. A cycle is reported by its modules' names."""

import ast
from pathlib import Path

import networkx as nx

PACKAGE = Path(__file__).resolve().parent.parent / "certify"


def _modules(root: Path) -> dict:
    """{dotted name: path} of the package's Python files (a package by its __init__.py)."""
    out = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def import_graph(root: Path = PACKAGE) -> nx.DiGraph:
    """module -> module it imports, for the modules under ``root``. ``from P import x`` is an edge
    to the submodule P.x when there is one, else to P (a name defined in P's module, or its
    __init__.py); ``import a.b`` is an edge to a.b. Each edge records the line of its first import."""
    modules = _modules(root)
    graph = nx.DiGraph()
    for name, path in modules.items():
        graph.add_node(name)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module
                targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source for a in node.names]
            for target in targets:
                if target in modules and target != name and not graph.has_edge(name, target):
                    graph.add_edge(name, target, line=node.lineno)
    return graph


def cycles_text(graph: nx.DiGraph, limit: int = 20) -> list[str]:
    """The shortest cycles first, each as 'a:LINE -> b:LINE -> ... -> a' from its first module by name."""
    rotated = [c[c.index(min(c)):] + c[:c.index(min(c))] for c in nx.simple_cycles(graph)]
    found = sorted(rotated, key=lambda c: (len(c), c))[:limit]
    return [" -> ".join(f"{m}:{graph.edges[m, c[(i + 1) % len(c)]]['line']}" for i, m in enumerate(c)) + f" -> {c[0]}"
            for c in found]


def test_the_package_imports_have_no_cycle():
    graph = import_graph()
    assert nx.is_directed_acyclic_graph(graph), "import cycles:\n" + "\n".join(cycles_text(graph))


def test_the_graph_sees_top_level_and_function_level_imports():
    graph = import_graph()
    assert len(graph) > 80
    assert graph.has_edge("certify.commands.checking", "certify.kinds")  # at the top
    assert graph.has_edge("certify.api", "certify.search.exact")  # inside a function
    assert graph.has_edge("certify.commands.building", "certify.commands.optimal")  # from . import-style
    assert graph.has_edge("certify.strategies.kernel", "certify.strategies.bitkernel")  # lazily, in a method
    assert graph.has_edge("certify", "certify.api")  # the package's lazy __getattr__
    # the pieces the cycles shared, now below both sides
    assert graph.has_edge("certify.strategies.optimal", "certify.paths")
    assert graph.has_edge("certify.catalog", "certify.paths")
    assert graph.has_edge("certify.aot", "certify.compiled")
    assert not graph.has_edge("certify.compiled", "certify.search.engine")
    assert graph.has_edge("certify.strategies.bitkernel", "certify.strategies.scoring")
    assert graph.has_edge("certify.certificate", "certify._version")


def test_a_cycle_is_reported_by_its_module_names(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .sub import b\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from ..c import g\n")  # a lazy import
    (pkg / "c.py").write_text("import os\n\n\ndef g():\n    from . import a\n")
    (pkg / "d.py").write_text("from .a import x\n")  # into the cycle, not part of it
    graph = import_graph(pkg)
    assert not nx.is_directed_acyclic_graph(graph)
    assert cycles_text(graph) == ["pkg.a:1 -> pkg.sub.b:2 -> pkg.c:5 -> pkg.a"]
