"""Write tests/data/static/invalid/*.json and expected.json: static certificates and lower-bound
proofs the checker must refuse, each with the reason (a piece of the one-line error) it must give.

    python tests/data/static/make_corpus.py

Each file is a small valid file (built by certify/static.py) with one thing wrong. The script
checks every file against certify/verify_static.py before writing, so a reason that no longer
matches fails here first.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))

from certify import static, verify_static  # noqa: E402


def _base():
    cert23, _, _ = static.build(2, 3)  # 2 questions
    cert25, proof25, _ = static.build(2, 5)  # 4 questions; proof: no 3 (5 sets)
    _, proof25b, _ = static.build(2, 5, feedback="black-only")  # proof: no 5 (62 sets)
    game23 = static.Game(2, 3)
    level1 = {}  # every orbit of one question of 2x3 not ruled out when 2 questions are asked
    for g in static._open_extensions(game23, (), static.capacity(1, game23.spread)).tolist():
        level1.setdefault(static.canonical_form(game23, (g,)), [game23.names[g]])
    false23 = {"format": static.PROOF, "version": 1, "game": game23.as_dict(), "symmetry": static.SYMMETRY,
               "claims": {"secrets": 9, "questions": 2, "guesses_at_least": 4}, "sets": sorted(level1.values())}
    return cert23, cert25, proof25, proof25b, false23


def corpus():
    """{name: (document or raw bytes, reason)}."""
    cert23, cert25, proof25, proof25b, false23 = _base()
    out = {}

    def cert(name, reason, change, base=cert25):
        doc = copy.deepcopy(base)
        change(doc)
        out[name] = (doc, reason)

    def prf(name, reason, change, base=proof25):
        doc = copy.deepcopy(base)
        change(doc)
        out[name] = (doc, reason)

    cert("cert-format.json", "format: expected", lambda d: d.update(format="mastermind-static-certificat"))
    cert("cert-version.json", "version: this checker reads version 1", lambda d: d.update(version=2))
    cert("cert-unknown-rule.json", "unknown feedback rule 'white-only'", lambda d: d["game"].update(feedback="white-only"))
    cert("cert-game-field.json", "game: unknown field 'board'", lambda d: d["game"].update(board=1))
    cert("cert-colour-out-of-game.json", "questions[0]: '05' is not a code of this game",
         lambda d: d["questions"].__setitem__(0, "05"))
    cert("cert-question-number.json", "questions[1]: expected a code (string), got integer", lambda d: d["questions"].__setitem__(1, 12))
    cert("cert-claimed-questions.json", "claims.questions: claimed 3", lambda d: d["claims"].update(questions=3))
    cert("cert-claimed-guesses.json", "claims.guesses: claimed 4, but 4 questions and the final guess make 5",
         lambda d: d["claims"].update(guesses=4))
    cert("cert-claimed-secrets.json", "claims.secrets: claimed 24", lambda d: d["claims"].update(secrets=24))
    cert("cert-claims-field.json", "claims: unknown field 'value'", lambda d: d["claims"].update(value=5))
    cert("cert-top-field.json", "top level: unknown field 'strategy'", lambda d: d.update(strategy={}))

    def not_separating(d):  # one question fewer: two secrets share their answers
        d["questions"] = d["questions"][1:]
        d["claims"].update(questions=3, guesses=4)
        d["table"] = [[" ".join(row[0].split(" ")[1:]), row[1]] for row in d["table"]]
        seen = set()
        d["table"] = [r for r in d["table"] if not (r[0] in seen or seen.add(r[0]))]
    cert("cert-not-separating.json", "get the same answers", not_separating)

    def swap(d):
        t = d["table"]
        t[0][1], t[1][1] = t[1][1], t[0][1]
    cert("cert-final-guess-swapped.json", "table: the final guess for", swap)
    cert("cert-row-missing.json", "table: no row for the answer vector", lambda d: d["table"].pop(7))
    cert("cert-row-extra.json", "is no secret's answer to these questions",
         lambda d: d["table"].append(["2,0 2,0 2,0 2,0", "00"]))
    cert("cert-row-repeated.json", "is already in the table", lambda d: d["table"].append(list(d["table"][3])))
    cert("cert-row-shape.json", "table[2]: expected [answer vector (string), final guess]",
         lambda d: d["table"].__setitem__(2, d["table"][2] + ["x"]))
    cert("cert-final-not-code.json", "table[4][1]: '0a' is not a code of this game",
         lambda d: d["table"][4].__setitem__(1, "0a"))
    cert("cert-rule-swapped.json", "table: no row for the answer vector", lambda d: d["game"].update(feedback="black-only"))
    cert("cert-norep-claimed.json", "2x3 without repetition has 6 secrets",
         lambda d: d["game"].update(repetition=False), base=cert23)
    cert("cert-too-many-codes.json", "game: 10000 codes is too many for the static checker (limit 4096)",
         lambda d: d["game"].update(pegs=4, colors=10))
    cert("cert-no-pegs.json", "game.pegs: must be from 1 to 8", lambda d: d["game"].update(pegs=0))
    out["cert-repeated-key.json"] = (b'{"format": "mastermind-static-certificate", "version": 1, "version": 1}\n',
                                     "duplicate key 'version'")
    out["cert-not-json.json"] = (b'{"format": "mastermind-static-certificate",\n', "not valid JSON")

    prf("proof-symmetry.json", "symmetry: expected 'peg-and-colour-permutations'", lambda d: d.update(symmetry="none"))
    prf("proof-claimed-guesses.json", "claims.guesses_at_least: claimed 6",
        lambda d: d["claims"].update(guesses_at_least=6))
    prf("proof-claimed-secrets.json", "claims.secrets: claimed 26", lambda d: d["claims"].update(secrets=26))
    prf("proof-set-dropped.json", "no listed set is in its orbit", lambda d: d["sets"].pop(2))
    prf("proof-first-level-dropped.json", "the empty set with", lambda d: d["sets"].pop(0))
    prf("proof-same-orbit.json", "in the same orbit as sets[",
        lambda d: d["sets"].insert(1, ["11"]))  # (an image of ["00"])
    prf("proof-unreached.json", "not reached from any set listed before it",
        lambda d: d["sets"].insert(3, ["00", "11"]))  # ruled out by counting: listed for nothing
    prf("proof-set-too-big.json", "3 codes; the proof lists sets of 1 to 2 codes",
        lambda d: d["sets"].append(["01", "23", "40"]))
    prf("proof-not-by-size.json", "(sets are listed by size)", lambda d: d["sets"].append(["02"]))
    prf("proof-code-twice.json", "a code appears twice", lambda d: d["sets"][-1].__setitem__(1, d["sets"][-1][0]))
    prf("proof-code-not-in-game.json", "'07' is not a code of this game", lambda d: d["sets"][0].__setitem__(0, "07"))
    prf("proof-set-not-array.json", "sets[1]: expected an array of codes", lambda d: d["sets"].__setitem__(1, "01"))
    prf("proof-more-colours.json", "sets[0]: not reached from any set listed before it", lambda d: d["game"].update(colors=6)
        or d["claims"].update(secrets=36))
    prf("proof-rule-swapped.json", "no listed set is in its orbit",
        lambda d: d["game"].pop("feedback"), base=proof25b)  # 2x5 black-white: 4 questions do separate
    prf("proof-claim-raised.json", "no listed set is in its orbit",
        lambda d: d["claims"].update(questions=4, guesses_at_least=6))
    out["proof-claim-false.json"] = (false23, "give every secret different answers; the claim is false")
    prf("proof-claim-beyond-codes.json", "3 questions or more always separate the 4 secrets",
        lambda d: d.update(game={"pegs": 2, "colors": 2, "repetition": True}, sets=[["00"], ["01"], ["00", "01"]],
                           claims={"secrets": 4, "questions": 3, "guesses_at_least": 5}))
    return out


def render(items) -> dict:
    """{name: bytes} of the corpus files and expected.json."""
    files, expected = {}, {}
    for name, (doc, reason) in items.items():
        data = doc if isinstance(doc, bytes) else static.dumps(doc)
        report = verify_static.check_bytes(data, name)
        assert not report.valid and reason in report.error, (name, report.error)
        files[name] = data
        expected[name] = {"exit": report.status, "reason": reason}
    files["expected.json"] = (json.dumps(expected, indent=1, sort_keys=True) + "\n").encode()
    return files


def main() -> None:
    target = HERE / "invalid"
    target.mkdir(exist_ok=True)
    files = render(corpus())
    for old in target.glob("*.json"):
        old.unlink()
    for name, data in files.items():
        (HERE / name if name == "expected.json" else target / name).write_bytes(data)
    print(f"wrote {len(files) - 1} files in {target}")


if __name__ == "__main__":
    main()
