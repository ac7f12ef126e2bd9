"""Human-readable text from certificates and verifier reports (tables, summaries, one secret's game).

Only the standard library, the independent verifier, the paper bounds (``certify.bounds``,
stdlib only) and the committed proofs' manifest (``certify.why``) are used here, so `stats` and
`explain` print what the verifier replayed, not what the file claims.
"""

from __future__ import annotations

from . import verify
from .text import shown


def game_text(game: dict) -> str:
    rep = "" if game["repetition"] else ", no repetition"
    rule = ", black pegs only" if game.get("feedback") == "black-only" else ""
    return f"{game['pegs']} pegs x {game['colors']} colours{rep}{rule}"


def figures(stats: dict) -> dict:
    """The figures of a replay under the keys every --json output uses for them (stats, verify,
    compare, explain): secrets, max_guesses, total_guesses, mean and histogram."""
    return {"secrets": stats["secrets"], "max_guesses": stats["max_guesses"],
            "total_guesses": stats["total_guesses"], "mean": stats["total_guesses"] / stats["secrets"],
            "histogram": dict(stats["histogram"])}


def _mean(stats: dict) -> str:
    return f"{stats['total_guesses'] / stats['secrets']:.3f}"


def summary_lines(name: str, game: dict, claims: dict) -> list[str]:
    # k:count pairs: zero counts are absent from the histogram, so bare counts would not line up.
    hist = " ".join(f"{k}:{v}" for k, v in claims["histogram"].items())
    return [
        f"strategy {name} on {game_text(game)}: {claims['secrets']} secrets",
        f"distribution (guesses:secrets): {hist}",
        f"max {claims['max_guesses']}, total {claims['total_guesses']}, mean {_mean(claims)}",
    ]


def distribution_table(strategy: dict, game: dict, stats: dict, proven="index", max_codes=None) -> str:
    """The table as the published studies print it: guesses, count, frequency %, cumulative %;
    then the lower bounds on the worst case, each named by where it comes from. ``proven``: the
    best proven one ({"bound", "file", "source"}: a proof checked in this run), None for none, or
    "index" to take the committed proof its manifest lists (certify.why.committed_worst_case)."""
    n = stats["secrets"]
    rows = [f"{shown(strategy['name'], 80)} on {game_text(game)} ({n} secrets), verified",
            f"{'guesses':>7}  {'count':>7}  {'frequency %':>11}  {'cumulative %':>12}"]
    cumulative = 0
    for k in range(1, stats["max_guesses"] + 1):
        count = stats["histogram"].get(str(k), 0)
        cumulative += count
        rows.append(f"{k:>7}  {count:>7}  {100 * count / n:>11.2f}  {100 * cumulative / n:>12.2f}")
    rows.append(f"{'total':>7}  {n:>7}  {100:>11.2f}")
    rows.append(f"mean {_mean(stats)} guesses ({stats['total_guesses']}/{n}), max {stats['max_guesses']}")
    b = bounds(strategy, game)
    if proven == "index":
        from .why import committed_worst_case

        proven = committed_worst_case(game, max_codes=max_codes)
    rows.append("lower bounds on the worst case (guesses every strategy needs for some secret):")
    rows.append(f"  counting, from the number of answers alone (Viaud 1987, VI: q0 = {b['q0']}): >= {b['lower']}")
    if proven and proven.get("bound") is None:
        rows.append(f"  proof certificate {shown(proven['file'])}: {shown(proven['source'], 300)}")
    elif proven:
        rows.append(f"  proof certificate {shown(proven['file'])} ({proven['source']}; `certify why` explains "
                    f"it): >= {proven['bound']}")
    else:
        rows.append("  proof certificate: none on file for this game (`certify bound --worst` writes one)")
    if "viaud_prop_v1" in b:
        rows.append(f"upper bound: {b['viaud_prop_v1']} guesses (Viaud 1987, Prop. V.1 + 1 to show the code), "
                    f"measured max {stats['max_guesses']}")
    return "\n".join(rows)


def bounds(strategy: dict, game: dict) -> dict:
    """The paper's bounds for this game: q0 for any strategy, Proposition V.1 for viaud."""
    import math

    from .bounds import q0, viaud_max_guesses

    n, m = game["pegs"], game["colors"]
    codes = m**n if game["repetition"] else math.perm(m, n)
    # the count of answers is the game's rule's: n + 1 under black-only (0..n blacks)
    answers = n + 1 if game.get("feedback") == "black-only" else None
    out = {"q0": q0(n, m, codes, answers)}
    out["lower"] = out["q0"] + 1
    if strategy["name"] == "viaud" and game["repetition"]:
        out["viaud_prop_v1"] = viaud_max_guesses(n, m)
    return out


def explain_secret(cert: dict, secret: str, letters: str | None = None) -> tuple[list[str], list[dict]]:
    """The game ``secret`` plays through a (verified) certificate: text lines and JSON steps.
    ``letters`` (one per colour, as ``play --letters``): the secret is typed and the lines show
    codes in them; the steps keep the game's own codes."""
    from .errors import CertifyError
    from .letters import Names

    game = cert["game"]
    pegs, colors, repetition = game["pegs"], game["colors"], game["repetition"]
    names = Names(letters, colors)
    name = names.name
    candidates = verify.codes(pegs, colors, repetition)
    if names:
        secret = names.read(secret, pegs, repetition, f"the game ({game_text(game)})")
    secret = "".join(secret.split()).lower()  # "3 1 3 2" as "3132", as answers take "2, 0"
    if secret not in set(candidates):
        raise CertifyError(f"{secret!r} is not a code of the game ({game_text(game)})")
    lines = [f"secret {name(secret)}, strategy {shown(cert['strategy']['name'], 80)} on {game_text(game)}"]
    steps = []
    node = cert["tree"]
    black_only = game.get("feedback") == "black-only"
    score = verify.blacks if black_only else verify.feedback  # black-peg games: (black, 0), key "B"
    n = 0
    while True:
        n += 1
        guess = node["guess"]
        b, w = score(guess, secret)
        answer = verify.key_text((b, w), black_only)
        candidate = guess in candidates  # before this answer: could the guess be the secret?
        candidates = [c for c in candidates if score(guess, c) == (b, w)]
        steps.append({"guess": guess, "black": b, "white": w, "candidates_left": len(candidates),
                      "candidate": candidate})
        if (b, w) == (pegs, 0):
            lines.append(f"{n:>3}. {name(guess)}  {answer}  found {name(secret)} in {n} guess{'es' if n > 1 else ''}")
            return lines, steps
        left = f"{len(candidates)} candidate{'s' if len(candidates) != 1 else ''} left"
        mark = "" if candidate else f"  ({name(guess)} was not a candidate: it could not be the secret)"
        lines.append(f"{n:>3}. {name(guess)}  {answer}  {left}{mark}")
        node = node["next"][answer]
