"""Our own trees written in the other programs' formats, for tests/test_import.py.

Each writer follows the program's own writer (docs/import-formats.md names the source files)
and shares no code with certify.importers: it replays the certificate with its own feedback
rule to learn what each format writes beside the tree (counts, which guesses win).

    python tests/data/import/make_data.py        # rewrite the files beside this script
"""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
OURS = "0123456789abcdefghijklmnopqrstuvwxyz"
IRVING = "1234567890abcdef"   # the C++ solver's colours
HEX = "123456789abcdef"       # the CUDA project's colours


def feedback(guess: str, secret: str) -> tuple[int, int]:
    black = sum(a == b for a, b in zip(guess, secret))
    return black, sum(min(guess.count(c), secret.count(c)) for c in set(guess)) - black


def codes(game: dict) -> list[str]:
    every = ("".join(t) for t in itertools.product(OURS[:game["colors"]], repeat=game["pegs"]))
    return [c for c in every if game["repetition"] or len(set(c)) == len(c)]


def classes(node: dict, secrets: list[str]) -> dict[tuple[int, int], list[str]]:
    """The secrets reaching ``node`` by their answer to its guess (the win left out)."""
    out: dict[tuple[int, int], list[str]] = {}
    for s in secrets:
        fb = feedback(node["guess"], s)
        if s != node["guess"]:
            out.setdefault(fb, []).append(s)
    return out


def child(node: dict, answer) -> dict:
    return node["next"][f"{answer[0]},{answer[1]}"]


def write_punchcard(cert: dict) -> str:
    """arfst23/Mastermind mastermind.c printsolution(): a header, one line per guess."""
    p = cert["game"]["pegs"]
    columns = [(b, w) for b in range(p + 1) for w in range(p + 1 - b) if (b, w) != (p - 1, 1)]
    lines = [" " * 11 + " ".join("X" * b + "O" * w + "-" * (p - b - w) for b, w in columns)]
    numbers = {id(cert["tree"]): 0}
    counter = itertools.count(1)

    def row(node, secrets, depth):  # children are numbered before the row is printed (DFS)
        parts = classes(node, secrets)
        for answer in columns:
            if answer in parts and "next" in child(node, answer):
                numbers[id(child(node, answer))] = next(counter)
        cells = []
        for answer in columns:
            if answer == (p, 0):
                cells.append(node["guess"] if node["guess"] in secrets else "-" * p)
            elif answer not in parts:
                cells.append("-" * p)
            elif "next" in child(node, answer):
                cells.append(f">{numbers[id(child(node, answer))]:03d}")
            else:
                cells.append(child(node, answer)["guess"])
        lines.append(f"{numbers[id(node)]:03d} {depth:1d} {node['guess']} " + " ".join(cells))
        for answer in columns:
            if answer in parts and "next" in child(node, answer):
                row(child(node, answer), parts[answer], depth + 1)

    row(cert["tree"], codes(cert["game"]), 1)
    return "\n".join(lines) + "\ncpu=0.0s\n"


def write_yaml(cert: dict) -> str:
    """arfst23/Mastermind solution-*.yml: [guess, {answer: code | [guess, {...}]}], block style."""
    p = cert["game"]["pegs"]
    lines = ["---"]

    def mark(answer):
        return "X" * answer[0] + "O" * answer[1] + "-" * (p - sum(answer))

    def node_lines(node, secrets, dash):
        parts = classes(node, secrets)
        lines.append(" " * dash + "- " + node["guess"])
        entries = sorted(parts)
        first = True
        items = [(mark(a), a) for a in entries]
        if node["guess"] in secrets:
            items.append(("X" * p, None))
        for text, answer in sorted(items):
            lead = " " * dash + "- " if first else " " * (dash + 2)
            first = False
            if answer is None:
                lines.append(f"{lead}{text}: {node['guess']}")
            elif "next" not in child(node, answer):
                lines.append(f"{lead}{text}: {child(node, answer)['guess']}")
            else:
                lines.append(f"{lead}{text}:")
                node_lines(child(node, answer), parts[answer], dash + 4)

    node_lines(cert["tree"], codes(cert["game"]), 0)
    return "\n".join(lines) + "\n"


def write_irving(cert: dict) -> str:
    """widmaN/mastermind-strategy StrategyTree.cpp WriteStrategy_TextFormat(): Irving's notation."""
    p = cert["game"]["pegs"]
    symbols: dict[str, str] = {}

    def show(code):
        return "".join(IRVING[OURS.index(ch)] for ch in code)

    def depth(node, secrets):  # guesses the state needs at most
        parts = classes(node, secrets)
        deeper = [depth(child(node, a), s) for a, s in parts.items()]
        return 1 + max(deeper, default=0) if secrets else 0

    def state(node, secrets, level, root=False):
        out = str(len(secrets))
        most = depth(node, secrets)
        if most <= 1:
            return out
        if most <= 2:
            return out + " (" + show(node["guess"]) + ("" if node["guess"] in secrets else "*") + ")"
        parts = classes(node, secrets)
        text = " (" + show(node["guess"]) + ":"
        for a in range(p + 1):
            for b in range(p - a, -1, -1):
                if (a, b) == (p - 1, 1):
                    continue
                text += " "
                if a == p:
                    text += "1" if node["guess"] in secrets else "0"
                elif (a, b) not in parts:
                    text += "0"
                else:
                    text += state(child(node, (a, b)), parts[(a, b)], level - 1)
                text += "," if b > 0 else (";" if a < p else ")")
        if level > 0 and not root and len(secrets) >= p * (p + 3) // 2:
            label = chr(ord("A") + len(symbols))
            symbols[label] = text
            return out + label
        return out + text

    top = state(cert["tree"], codes(cert["game"]), 2, root=True)
    return top + "\n\n" + "".join(f"{k} ={v}\n\n" for k, v in sorted(symbols.items()))


def write_dot(cert: dict, style: str = "strategy") -> str:
    """mikemag/Mastermind strategy.inl Strategy::dump() ("strategy": numeric ids, children in
    hash-map order) or solver.inl Solver::dump() ("solver": quoted region ids, root IG)."""
    game = cert["game"]
    p = game["pegs"]
    lines = [f"digraph Mastermind_Strategy_Knuth_{p}p{game['colors']}c {{", 'size="40,40"', "overlap=true",
             "ranksep=5", "ordering=out", "node [shape=plaintext]"]
    ids = itertools.count(140565240896320, 16)

    def show(code):
        return "".join(HEX[OURS.index(ch)] for ch in code)

    def ident(path):
        if style == "strategy":
            return str(next(ids))
        return '"' + "".join(f"{b:x}{w:x}" for b, w in path) + '"'

    root = "IG" if style == "solver" else ident(())
    lines.append(f"root={root}")
    lines.append(f'{root} [label="{show(cert["tree"]["guess"])}{" - 0" if style == "strategy" else ""}",'
                 'shape=circle,color=red]')

    def children(node, secrets, me, path):
        parts = classes(node, secrets)
        for answer in sorted(parts, reverse=style == "strategy"):
            sub = child(node, answer)
            them = ident(path + (answer,))
            count = f" - {len(parts[answer])}" if style == "strategy" and "next" in sub and len(path) % 2 else ""
            lines.append(f'{them} [label="{show(sub["guess"])}{count}"'
                         f'{"" if count else ",fontcolor=green,style=bold"}]')
            children(sub, parts[answer], them, path + (answer,))
            lines.append(f'{me} -> {them} [label="{answer[0]:x}{answer[1]:x}"]')

    children(cert["tree"], codes(game), root, ())
    lines.append("}")
    return "\n".join(lines) + "\n"


def run_record(cert: dict, rule: str, secret: str) -> dict:
    """A run of mikemag/Mastermind main.cpp runSingleSolver() (StatsRecorder's JSON)."""
    game, claims = cert["game"], cert["claims"]
    node, played = cert["tree"], []
    while True:
        played.append("".join(HEX[OURS.index(ch)] for ch in node["guess"]))
        if node["guess"] == secret:
            break
        node = child(node, feedback(node["guess"], secret))
    return {"Average Turns": claims["total_guesses"] / claims["secrets"], "Color Count": game["colors"],
            "Initial Guess": played[0], "Max Turns": claims["max_guesses"], "Pin Count": game["pegs"],
            "Sample Game": played, "Solver": "CUDA", "Strategy": rule,
            "Total Codewords": claims["secrets"], "Total Turns": claims["total_guesses"],
            "Verification": "Verified"}


def write_runs(records: list[dict]) -> str:
    lines = ['[', '{"system_specs":{"Machine Name":"test","HW CPU Arch":"x86_64"}}']
    lines += [',' + json.dumps({"run": r}, separators=(",", ":")) for r in records]
    return "\n".join(lines) + "\n]\n"


def certificate(name: str) -> dict:
    return json.loads((ROOT / "certificates" / name).read_text())


def built(strategy: str, pegs: int, colors: int) -> dict:
    sys.path.insert(0, str(ROOT))
    from certify.certificate import make_certificate
    from certify.game import Game
    from certify.strategies import get_strategy

    return make_certificate(get_strategy(strategy)(Game(pegs, colors)))


def files() -> dict[str, str]:
    """{file name: text} of every file this script writes."""
    out = {}
    for name in ("knuth-3x3", "knuth-4x4"):
        cert = certificate(f"{name}.json")
        out[f"{name}.cards"] = write_punchcard(cert)
        out[f"{name}.yml"] = write_yaml(cert)
        out[f"{name}.txt"] = write_irving(cert)
        out[f"{name}.gv"] = write_dot(cert, "strategy")
    out["knuth-3x3-solver.gv"] = write_dot(certificate("knuth-3x3.json"), "solver")
    out["runs-3x3.json"] = write_runs([run_record(certificate("knuth-3x3.json"), "Knuth", "210"),
                                       run_record(built("most-parts", 3, 3), "Most Parts", "122")])
    return out


if __name__ == "__main__":
    for name, text in files().items():
        (HERE / name).write_text(text)
        print(f"wrote {name}")
