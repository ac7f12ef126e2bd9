"""`certify export`: the tree as a graph file, read back with networkx."""

from collections import Counter

import networkx as nx
import orjson
import pytest

from conftest import CERTS, run_cli

KNUTH = CERTS / "knuth-4x6.json"


def _tree_size(node):
    n, stack = 0, [node]
    while stack:
        node = stack.pop()
        n += 1
        stack.extend(node.get("next", {}).values())
    return n


@pytest.mark.parametrize("ext, reader", [
    (".graphml", nx.read_graphml), (".gexf", nx.read_gexf), (".gml", nx.read_gml),
    (".json", lambda p: nx.node_link_graph(orjson.loads(open(p, "rb").read()), edges="edges")),
])
def test_export_round_trips_and_counts_are_the_replay(tmp_path, ext, reader):
    cert = orjson.loads(KNUTH.read_bytes())
    out = tmp_path / f"tree{ext}"
    r = run_cli("export", KNUTH, "-o", out)
    assert r.returncode == 0, r.stderr
    g = reader(str(out))
    assert g.number_of_nodes() == _tree_size(cert["tree"]) == g.number_of_edges() + 1
    assert g.nodes["root"]["guess"] == "0011" and int(g.nodes["root"]["secrets"]) == 1296
    # Every secret is won exactly once, at the depth the claims say.
    found = Counter()
    for name, data in g.nodes(data=True):
        children = sum(int(g.nodes[c]["secrets"]) for c in g.successors(name))
        assert int(data["secrets"]) == int(data["wins"]) + children
        found[int(data["depth"])] += int(data["wins"])
    assert {str(k): v for k, v in sorted(found.items())} == cert["claims"]["histogram"]
    assert g.edges["root", "1,0"]["feedback"] == "1,0" and int(g.edges["root", "1,0"]["black"]) == 1


def test_export_refuses_bad_extension_and_invalid_certificate(tmp_path):
    r = run_cli("export", KNUTH, "-o", tmp_path / "tree.txt")
    assert r.returncode == 2 and "cannot tell the graph format" in r.stderr and "Traceback" not in r.stderr
    bad = orjson.loads(KNUTH.read_bytes())
    bad["claims"]["total_guesses"] += 1
    (tmp_path / "bad.json").write_bytes(orjson.dumps(bad))
    r = run_cli("export", tmp_path / "bad.json", "-o", tmp_path / "tree.graphml")
    assert r.returncode == 1 and not (tmp_path / "tree.graphml").exists()
