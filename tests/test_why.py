"""`certify why`: a worst-case lower-bound proof explained in words. Every figure the explanation
shows is recomputed here by brute force with the strategy verifier's own feedback rule
(``verify.feedback``, one pair at a time), along the paths as printed (in the game's own codes,
also through permuted references); and `stats` keeps the counting bound and the proven bound apart."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

from certify import verify
from certify.why import committed_worst_case, explain_bytes, html_page, items, text_lines
from conftest import run_here

ROOT = Path(__file__).resolve().parent.parent
BOUNDS = ROOT / "certificates" / "bounds"
CORPUS = ROOT / "tests" / "data" / "bounds" / "valid"
WORST_4X6 = BOUNDS / "worst-case-4x6.json"
WORST_3X3 = BOUNDS / "worst-case-3x3.json"


def certify(*args, cwd=None):
    """`certify ARGS` in this process (conftest.run_here: no interpreter start for each of the calls)."""
    return run_here(*args, cwd=cwd)


def explained(path, depth=3, branches=50):
    report, why = explain_bytes(Path(path).read_bytes(), str(path), depth, branches)
    assert report.valid and why is not None, report.line()
    return why


# -- an independent brute force -------------------------------------------------------------------

def counting(pegs: int):
    """b (the non-winning answers: black + white <= pegs, without (pegs-1, 1) and the win) and
    N(k) = 1 + b N(k-1), the most secrets k guesses find, written from the format document."""
    b = sum(1 for bl in range(pegs + 1) for w in range(pegs + 1 - bl)) - 2
    most = [0]
    for _ in range(12):
        most.append(1 + b * most[-1])
    return b, most


def classes(guess: str, secrets: list, pegs: int) -> Counter:
    sizes = Counter(verify.feedback(guess, s) for s in secrets)
    sizes.pop((pegs, 0), None)
    return Counter({f"{b},{w}": n for (b, w), n in sizes.items()})


def check_node(node: dict, secrets: list, codes: list, pegs: int, sample=None) -> int:
    """Recompute a node of the explanation on its secrets (codes of the game, reached along the
    printed path); every guess when ``sample`` is None, else those sampled and the named ones.
    Returns the number of nodes checked."""
    _, most = counting(pegs)
    d = node["needs"]
    assert node["secrets"] == len(secrets)
    if node["rule"] == "counting":
        assert (node["within"], node["most_found"]) == (d - 1, most[d - 1]) and most[d - 1] < len(secrets)
        return 1
    assert node["rule"] == "guesses" and (node["within"], node["most_found"]) == (d - 2, most[d - 2])
    assert len(secrets) <= most[d - 1]
    top = {}
    named = [node["by_counting"].get("best")] + [i["guess"] for i in node.get("by_answers", [])]
    for g in (codes if sample is None else sample + [x for x in named if x]):
        top[g] = max(classes(g, secrets, pegs).values())
    counted = {g for g, n in top.items() if n > most[d - 2]}
    by_counting = node["by_counting"]
    if sample is None:
        assert by_counting["guesses"] == len(counted)
        assert (by_counting["largest_min"], by_counting["largest_max"]) == (min(top.values()), max(top.values()))
        if counted:
            least = min(top[g] for g in counted)
            best = sorted(g for g in counted if top[g] == least)
            assert (by_counting["least_largest"], by_counting["best"]) == (least, best[0])
            assert by_counting["best_guesses"] == len(best)
    if by_counting["guesses"]:
        best = by_counting["best"]
        assert top[best] == by_counting["least_largest"] > most[d - 2]
        sizes = classes(best, secrets, pegs)
        assert sorted(by_counting["answers"]) == sorted(k for k, n in sizes.items() if n == top[best])
        if by_counting["guesses"] == len(codes):
            assert all(n >= top[best] for n in top.values())
    checked = 1
    for item in node.get("by_answers", []):
        g = item["guess"]
        assert g not in counted  # refuted by its answer, not by counting
        left = [s for s in secrets if "%d,%d" % verify.feedback(g, s) == item["answer"]]
        assert len(left) == item["secrets"]
        child = item["child"]
        assert child["needs"] >= d - 1
        if "rule" in child:
            checked += check_node(child, left, codes, pegs, sample)
    if "by_answers" in node:  # every guess accounted for once
        alike = sum(1 + i["alike"] for i in node["by_answers"]) + node["more"]["guesses"] + node["more"]["alike"]
        assert by_counting["guesses"] + alike == len(codes)
    return checked


def test_3x3_every_figure_is_recomputed_by_brute_force():
    doc = explained(WORST_3X3).doc
    codes = verify.codes(3, 3, True)
    b, most = counting(3)
    assert (doc["answers"], doc["secrets"], doc["claims"]) == (b, 27, {"worst_case": 4})
    assert doc["most_found_within"] == {str(k): most[k] for k in (1, 2, 3)}
    root = doc["root"]
    assert check_node(root, codes, codes, 3) == 3  # the root and both children, every guess
    assert root["by_counting"]["guesses"] == 3  # 000, 111, 222: 12 secrets after 1,0 > N(2) = 9
    kinds = {k["example"]: (k["guesses"], k["largest"]) for k in root["kinds"]}
    for example, (count, largest) in kinds.items():
        same = [c for c in codes if sorted(Counter(c).values()) == sorted(Counter(example).values())]
        assert count == len(same)
        assert {max(classes(c, codes, 3).values()) for c in same} == {largest}
    assert kinds == {"000": (3, 12), "001": (18, 6), "012": (6, 6)}
    # 4x4: 256 secrets, more than the N(3) = 183 three guesses find: counting alone, at the root.
    codes = verify.codes(4, 4, True)
    root = explained(BOUNDS / "worst-case-4x4.json").doc["root"]
    assert root["rule"] == "counting" and check_node(root, codes, codes, 4) == 1


def test_permuted_references_and_interchangeable_colours_are_explained_in_the_games_codes(tmp_path):
    codes = verify.codes(3, 3, True)
    # Permuted references: the child's guesses are shown through the permutation.
    symmetric = explained(CORPUS / "worst-3x3-symmetric.json").doc
    assert check_node(symmetric["root"], codes, codes, 3) == 3
    # Interchangeable colours at the root: only the lowest code of each orbit needs an entry.
    doc = json.loads(WORST_3X3.read_text())
    root = doc["nodes"][0]
    root["guesses"] = {g: root["guesses"][g] for g in ("001", "010", "011", "012")}
    root["interchangeable"] = [[0, 1, 2]]
    path = tmp_path / "interchangeable-3x3.json"
    path.write_text(json.dumps(doc))
    why = explained(path)
    assert check_node(why.doc["root"], codes, codes, 3) == 3
    assert [(i["guess"], i["alike"]) for i in why.doc["root"]["by_answers"]] == [("001", 17), ("012", 5)]


def test_4x6_why_five_from_the_one_node_proof():
    why = explained(WORST_4X6)
    doc, root = why.doc, why.doc["root"]
    b, most = counting(4)
    assert (b, most[3]) == (13, 183) and doc["most_found_within"]["3"] == 183
    assert (root["needs"], root["secrets"], root["guesses"]) == (5, 1296, 1296)
    counted = root["by_counting"]
    assert counted["guesses"] == 1296  # every first guess refuted by counting, no child needed
    assert (counted["least_largest"], counted["best"], counted["best_guesses"]) == (256, "0011", 90)
    codes = verify.codes(4, 6, True)
    # The figures, recomputed: each kind's representative, 60 random guesses and the named best.
    sample = ["0000", "0001", "0011", "0012", "0123"] + random.Random(7).sample(codes, 60)
    check_node(root, codes, codes, 4, sample)
    kinds = {k["example"]: (k["guesses"], k["largest"], k["answers"]) for k in root["kinds"]}
    assert kinds == {"0000": (6, 625, ["0,0"]), "0001": (120, 317, ["1,0"]),
                     "0011": (90, 256, ["0,0", "0,1", "1,0"]), "0012": (720, 276, ["0,1"]),
                     "0123": (360, 312, ["0,2"])}
    for example, (_, largest, answers) in kinds.items():
        sizes = classes(example, codes, 4)
        assert max(sizes.values()) == largest and sorted(k for k, n in sizes.items() if n == largest) == answers
    for g in sample:
        pattern = sorted(Counter(g).values())
        kind = next(e for e in kinds if sorted(Counter(e).values()) == pattern)
        assert max(classes(g, codes, 4).values()) == kinds[kind][1]
    formula = "N(3) = 1 + 13 + 169 = 183 that 3 more guesses can find; so some secret needs 1 + 4 guesses"
    assert any(line.endswith(formula) for line in text_lines(why))  # wrapped at 100 columns, never inside a formula
    text = "\n".join(text_lines(why, width=1000))
    assert "whatever the first guess, some answer leaves at least 256 secrets" in text
    assert "N(3) = 1 + 13 + 169 = 183 that 3 more guesses can find" in text
    assert "the best first guesses (90 of them), e.g. 0011, leave 256 after 0,0 or 0,1 or 1,0" in text


def test_4x7_path_by_path_with_bounded_output():
    why = explained(BOUNDS / "worst-case-4x7.json.gz", depth=1, branches=2)
    root = why.doc["root"]
    assert root["needs"] == 6 and root["by_counting"]["guesses"] == 0
    assert [i["guess"] for i in root["by_answers"]] == ["0000", "0001"]
    assert root["more"] == {"guesses": 3, "alike": 126 + 1260 + 840 - 3}
    codes = verify.codes(4, 7, True)
    sample = random.Random(3).sample(codes, 8)
    assert check_node(root, codes, codes, 4, sample) == 3
    first = root["by_answers"][0]["child"]  # 0000 -(0,0)-> the 1296 codes of colours 1-6: the 4x6 argument
    counted = first["by_counting"]
    assert (first["secrets"], counted["least_largest"], counted["guesses"]) == (1296, 256, 2401)
    deeper = root["by_answers"][1]["child"]["by_answers"][0]["child"]
    assert deeper.get("shown") == "deeper" and "rule" not in deeper  # --depth 1 stops there
    lines = text_lines(why)
    assert all(len(line) <= 100 for line in lines[1:] if not line.lstrip().startswith(("0", "kind")))
    text = "\n".join(lines)
    assert "and 3 more guesses (and 2223 like them) refuted the same way" in text
    assert "0011 (and 125 like it)" not in text  # beyond --branches 2


def test_cli_text_json_and_html(tmp_path):
    name = tmp_path / 'odd <b>&"name.json'
    name.write_bytes(WORST_3X3.read_bytes())
    page = tmp_path / "why.html"
    run = certify("why", name, "--html", page)
    assert run.returncode == 0, run.stderr
    statement = "every strategy for 3x3 needs >= 4 guesses for some secret"
    assert run.stdout.splitlines()[0] == f"{name}: valid lower bound: {statement}"
    assert "001 (and 17 like it) -(2,0)-> 6 secrets, which need >= 3 more guesses (node 1)" in run.stdout
    html = page.read_text()
    assert "odd &lt;b&gt;&amp;&quot;name.json" in html and "<b>" not in html and "<script" not in html
    assert "-(2,0)-&gt; 6 secrets" in html and "Content-Security-Policy" in html
    run = certify("why", name, "--json", "--depth", "0")
    doc = json.loads(run.stdout)
    assert list(doc)[0] == "why_version" and doc["why_version"] == 1
    assert doc["statement"] == statement
    assert {"node", "secrets", "needs", "rule", "guesses", "by_counting", "by_answers", "more"} <= set(doc["root"])
    assert all(i["child"]["shown"] == "deeper" for i in doc["root"]["by_answers"])
    # The page's text is the terminal's, escaped.
    why = explained(name)
    assert html_page(why).count("<li>") == sum(1 for _ in _walk(items(why.doc)))


def _walk(entries):
    for text, sub, _ in entries:
        yield text
        yield from _walk(sub)


def test_refusals_are_one_line(tmp_path):
    tampered = tmp_path / "tampered.json"
    doc = json.loads(WORST_4X6.read_text())
    doc["claims"]["worst_case"] = doc["nodes"][0]["bound"] = 6
    tampered.write_text(json.dumps(doc))
    page = tmp_path / "why.html"
    run = certify("why", tampered, "--html", page)
    assert run.returncode == 1 and run.stdout == "" and not page.exists()
    assert run.stderr.count("\n") == 1 and "invalid: node 0 (bound 6) at root: guess 0000 is not refuted" in run.stderr
    for args, says in [((ROOT / "certificates" / "knuth-3x3.json",), "is a strategy certificate, not a lower-bound proof"),
                       ((BOUNDS / "total-3x3.json",), "proves a total number of guesses"),
                       ((tmp_path / "missing.json",), "cannot read"),
                       ((WORST_3X3, "--html", WORST_3X3), "it is the input file")]:
        run = certify("why", *args)
        assert run.returncode == 2 and run.stdout == "" and run.stderr.count("\n") == 1, run.stderr
        assert says in run.stderr and "Traceback" not in run.stderr


def test_stats_names_the_counting_bound_and_the_proven_one(tmp_path):
    run = certify("stats", ROOT / "certificates" / "knuth-4x6.json")
    lines = run.stdout.splitlines()
    at = lines.index("lower bounds on the worst case (guesses every strategy needs for some secret):")
    assert lines[at + 1] == "  counting, from the number of answers alone (Viaud 1987, VI: q0 = 3): >= 4"
    assert lines[at + 2] == ("  proof certificate certificates/bounds/worst-case-4x6.json (listed in "
                             "certificates/bounds/index.json, checked now; `certify why` explains it): >= 5")
    doc = json.loads(certify("stats", ROOT / "certificates" / "knuth-4x6.json", "--json").stdout)
    assert doc["bounds"]["lower"] == 4
    assert doc["bounds"]["proven_worst_case"] == {"bound": 5, "file": "certificates/bounds/worst-case-4x6.json",
                                                  "source": "listed in certificates/bounds/index.json, checked now"}
    # Only a listed file its checker accepts counts: the manifest's claim is never taken.
    folder = tmp_path / "bounds"
    folder.mkdir()
    (folder / "worst-case-4x6.json").write_bytes(WORST_4X6.read_bytes())
    entry = next(e for e in json.loads((BOUNDS / "index.json").read_text())["proofs"]
                 if e["file"] == "worst-case-4x6.json")
    (folder / "index.json").write_text(json.dumps({"proofs": [entry]}))
    game = {"pegs": 4, "colors": 6, "repetition": True}
    assert committed_worst_case(game, folder)["bound"] == 5
    assert committed_worst_case(dict(game, colors=5), folder) is None
    doc = json.loads(WORST_4X6.read_bytes())
    doc["claims"]["worst_case"] = 6  # false: Knuth's strategy needs only 5
    (folder / "worst-case-4x6.json").write_text(json.dumps(doc))
    assert committed_worst_case(game, folder) is None


def test_importing_the_explanation_is_cheap():
    code = "import sys, certify.why, certify.report; assert 'numpy' not in sys.modules"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


def test_the_docs_show_the_real_output():
    readme = (ROOT / "docs" / "exact-search.md").read_text()  # moved there from the README
    blocks = re.findall(r"```\n\$ certify (why [^\n]+)\n(.*?)```", readme, re.S)
    assert [b[0].split()[1] for b in blocks] == ["certificates/bounds/worst-case-4x6.json",
                                                 "certificates/bounds/worst-case-4x7.json.gz"]
    for command, shown_output in blocks:
        run = certify(*command.split())
        assert run.returncode == 0 and run.stdout == shown_output, command
