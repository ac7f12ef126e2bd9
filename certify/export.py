"""Export a verified certificate's tree as a graph file for other tools (Gephi, yEd, Cytoscape...).

The tree becomes a networkx DiGraph: one node per guess, named by its feedback path from the root
(``root``, ``1,0``, ``1,0/0,2``...), with the guess, its depth (guess number), how many secrets reach
it and whether it wins for one of them; one edge per answer with ``feedback`` "B,W", ``black`` and
``white``. Counts come from replaying the secrets with the independent verifier's rule. A black-peg
certificate's graph says ``feedback="black-only"``; its edges' ``feedback`` is one number "B" (white 0).
"""

from __future__ import annotations

import io
from pathlib import Path

from . import verify

FORMATS = {".graphml": "graphml", ".gexf": "gexf", ".gml": "gml", ".json": "node-link JSON"}

__all__ = ["FORMATS", "to_networkx", "export"]


def output_format(path) -> str:
    """The extension of an export path, if it is one of FORMATS."""
    from .files import format_from_extension

    format_from_extension(path, FORMATS, "graph")
    return Path(str(path)).suffix.lower()


def to_networkx(cert: dict):
    """The certificate's tree as a networkx DiGraph (the certificate is assumed verified)."""
    import networkx as nx

    from .render import answer, key_pegs

    game = cert["game"]
    rule = {"feedback": "black-only"} if game.get("feedback") == "black-only" else {}  # black-white: as before
    graph = nx.DiGraph(strategy=cert["strategy"]["name"], pegs=game["pegs"], colors=game["colors"],
                       repetition=game["repetition"], **rule)
    score = answer(game)
    everyone = verify.codes(game["pegs"], game["colors"], game["repetition"])
    stack = [(cert["tree"], everyone, "root", 1)]
    while stack:
        node, reaching, name, depth = stack.pop()
        guess = node["guess"]
        groups: dict[str, list[str]] = {}
        for s in reaching:
            groups.setdefault(score(guess, s), []).append(s)
        graph.add_node(name, guess=guess, depth=depth, secrets=len(reaching), wins=int(guess in reaching))
        for key, child in node.get("next", {}).items():
            child_name = key if name == "root" else f"{name}/{key}"
            b, w = key_pegs(key)
            graph.add_edge(name, child_name, feedback=key, black=b, white=w)
            stack.append((child, groups[key], child_name, depth + 1))
    return graph


def export(cert: dict, path, inputs=()) -> dict:
    """Write the graph to ``path`` (format from the extension), atomically; return a summary."""
    import networkx as nx
    import orjson

    from .files import write_output

    suffix = output_format(path)
    graph = to_networkx(cert)
    if suffix == ".json":
        data = orjson.dumps(nx.node_link_data(graph, edges="edges"), option=orjson.OPT_INDENT_2) + b"\n"
    else:
        buffer = io.BytesIO()
        {".graphml": nx.write_graphml, ".gexf": nx.write_gexf, ".gml": nx.write_gml}[suffix](graph, buffer)
        data = buffer.getvalue()
    write_output(path, data, inputs)
    return {"file": str(path), "format": FORMATS[suffix], "nodes": graph.number_of_nodes(),
            "edges": graph.number_of_edges(), "height": nx.dag_longest_path_length(graph) + 1}
