"""The builder's speed-ups change nothing: same feedback, same guesses, same certificates.

The plain path (every code scored with numpy, no symmetry) is the reference; the symmetry
filter and the compiled kernel must give byte-identical certificates on every game small
enough to build the plain way.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from certify.certificate import dumps, make_certificate
from certify.game import Game
from certify.strategies import STRATEGIES
from certify.strategies.minimax import Scored
from certify.strategies.partition import partition_counts
from certify.strategies.symmetry import Symmetry
from certify.verify import verify_bytes

SCORED = sorted(k for k, cls in STRATEGIES.items() if issubclass(cls, Scored))


def _reference_feedback(game, g, s):
    """Black and white from the digits, written the obvious way."""
    dg, ds = game.digits[g], game.digits[s]
    black = (dg[:, None, :] == ds[None, :, :]).sum(axis=2)
    total = np.minimum(game.counts[g][:, None, :], game.counts[s][None, :, :]).sum(axis=2)
    return black * (game.pegs + 1) + (total - black)


def _small_games():
    games = []
    for pegs in range(1, 5):
        for colors in range(2, 7):
            for repetition in (True, False):
                if not repetition and pegs > colors:
                    continue
                games.append(Game(pegs, colors, repetition))
    return games + [Game(5, 4), Game(5, 3), Game(3, 9, False), Game(2, 12)]


@pytest.mark.parametrize("game", [Game(1, 2), Game(3, 5), Game(4, 6, False), Game(5, 8), Game(3, 36),
                                  Game(6, 9), Game(4, 11, False)], ids=str)
def test_table_feedback_matches_the_definition(game):
    rng = np.random.default_rng(game.size)
    g = rng.integers(0, game.size, 60)
    s = rng.integers(0, game.size, 90)
    assert (game._feedback_tables(g, s) == _reference_feedback(game, g, s)).all()
    assert (game.feedback(g, s) == _reference_feedback(game, g, s)).all()
    row = game.feedback_row(int(g[0]), s)
    assert (row == _reference_feedback(game, g[:1], s)[0]).all()


def test_full_matrix_is_the_feedback_of_every_pair():
    game = Game(3, 4)
    every = np.arange(game.size)
    assert game.fb_matrix is not None
    assert (game.fb_matrix == _reference_feedback(game, every, every)).all()
    assert Game(5, 8).fb_matrix is None  # too big: tables only


def _random_history(game, rng, length):
    candidates = np.arange(game.size)
    history = ()
    secret = int(rng.integers(game.size))
    for _ in range(length):
        guess = int(rng.integers(game.size))
        fb = int(game.feedback([guess], [secret])[0, 0])
        history += ((guess, fb),)
        candidates = candidates[game.feedback([guess], candidates)[0] == fb]
    return candidates, history


@pytest.mark.parametrize("game", [Game(4, 6), Game(4, 6, False), Game(3, 5), Game(5, 3), Game(2, 7)], ids=str)
def test_symmetry_keeps_the_lowest_code_of_every_class_of_alike_guesses(game):
    """Alike = same class sizes for every feedback and same candidate status. Any score of
    the class sizes, candidates first or not, then lowest code, picks such a lowest code."""
    rng = np.random.default_rng(7)
    sym = Symmetry(game)
    for length in (0, 0, 1, 1, 1, 2, 2, 3):
        candidates, history = _random_history(game, rng, length)
        kept = sym.guesses(candidates, history)
        assert (np.diff(kept) > 0).all()
        counts = partition_counts(game, np.arange(game.size), candidates)
        is_candidate = np.zeros(game.size, dtype=bool)
        is_candidate[candidates] = True
        lowest = {}
        for code in range(game.size):
            lowest.setdefault((counts[code].tobytes(), bool(is_candidate[code])), code)
        assert set(lowest.values()) <= set(kept.tolist()), (history, sorted(set(lowest.values()) - set(kept.tolist())))
        kept_candidates = sym.guesses(candidates, history, pool=candidates)
        assert set(kept_candidates.tolist()) <= set(candidates.tolist())
        assert {v for (_, c), v in lowest.items() if c} <= set(kept_candidates.tolist())


def test_symmetry_drops_most_codes_at_the_start():
    game = Game(4, 6)
    kept = Symmetry(game).guesses(np.arange(game.size), ())
    # sorted codes whose colours appear in order 0, 1, 2, ...: one per composition of 4
    assert game.texts(kept) == ["0000", "0001", "0011", "0012", "0111", "0112", "0122", "0123"]


def _cert(name, game, **options):
    return dumps(make_certificate(STRATEGIES[name](game, **options)))


@pytest.mark.parametrize("name", SCORED)
def test_symmetry_and_kernel_build_the_same_certificates(name):
    """Byte-identical certificates: plain numpy, numpy with symmetry, kernel with and without."""
    for game in _small_games():
        plain = _cert(name, game, symmetry=False, engine="numpy")
        assert _cert(name, game, symmetry=True, engine="numpy") == plain, f"{name} {game} symmetry"
        assert _cert(name, game, symmetry=True, engine="kernel") == plain, f"{name} {game} kernel"
        if game.size <= 256:
            assert _cert(name, game, symmetry=False, engine="kernel") == plain, f"{name} {game} kernel plain"


@pytest.mark.parametrize("name", SCORED)
def test_fast_paths_pass_the_verifier_on_5x4(name):
    data = _cert(name, Game(5, 4), engine="kernel")
    assert verify_bytes(data).valid


def test_environment_selects_the_plain_path(monkeypatch):
    monkeypatch.setenv("CERTIFY_SYMMETRY", "0")
    monkeypatch.setenv("CERTIFY_ENGINE", "kernel")
    s = STRATEGIES["knuth"](Game(4, 6))
    assert (s.symmetry, s.engine) == (False, "kernel")
    monkeypatch.setenv("CERTIFY_ENGINE", "fast")
    with pytest.raises(ValueError, match="unknown engine"):
        STRATEGIES["knuth"](Game(4, 6))


@pytest.mark.parametrize("game", [Game(5, 4), Game(4, 6, False), Game(6, 3), Game(7, 2), Game(2, 12),
                                  Game(3, 9, False)], ids=str)
def test_bit_sliced_loop_returns_what_the_pair_loops_return(game):
    """Same scores, same +inf (hopeless, exact entropy ties, past a perfect split), same entropy
    reference: on random candidate sets of one word, several words, and a ragged last word."""
    from certify.strategies import kernel

    kern = kernel.Kernel(game)
    rng = np.random.default_rng(game.size)
    for n in sorted({1, 2, 5, 17, 64, 65, 130, min(game.size, 300)}):
        candidates = np.sort(rng.choice(game.size, size=min(n, game.size), replace=False))
        guesses = np.sort(rng.choice(game.size, size=min(400, game.size), replace=False))
        n = len(candidates)
        for kind in kernel.KINDS.values():
            floor = kernel.least_score(kind, n, game.pegs)
            tol = 1e-9 * max(1.0, n * np.log2(max(n, 1)))
            for limit in (np.inf, floor + 1, floor + 3):
                if kind == kernel.ENTROPY and limit != np.inf:
                    limit = max(0.0, float(limit)) * n  # some entropy limit within reach
                ref_a, ref_b = kern.reference(n), kern.reference(n)
                nlogn = np.zeros(n + 2)
                nlogn[2:] = np.arange(2, n + 2) * np.log2(np.arange(2, n + 2))
                ckeys = np.ascontiguousarray(kern.keys[candidates].T)
                loops = np.empty(len(guesses))
                kernel._scores(kern.flat, kern.rows, ckeys, guesses, kern.n_fb, kind, float(limit), floor,
                               tol, nlogn, ref_a[0], ref_a[1], loops)
                bits = np.empty(len(guesses))
                kern._bit_scores(kind, guesses, candidates, limit, floor, tol, ref_b, bits)
                where = f"{game} n={n} kind={kind} limit={limit}"
                assert np.array_equal(loops, bits), where
                assert np.array_equal(ref_a[0], ref_b[0]) and np.array_equal(ref_a[1], ref_b[1]), where
                if kind != kernel.ENTROPY and np.isfinite(loops).any():  # the scores are the real ones
                    i = int(np.flatnonzero(np.isfinite(loops))[-1])
                    counts = partition_counts(game, guesses[i:i + 1], candidates)[0]
                    exact = {kernel.MAX: counts.max(), kernel.SUMSQ: (counts * counts).sum(),
                             kernel.PARTS: -(counts > 0).sum()}[kind]
                    assert loops[i] == exact, where


@pytest.mark.parametrize("given, seen", [(None, "1"), ("3", "3")])
def test_the_cli_keeps_openblas_to_one_thread_unless_the_user_chose(given, seen):
    """Start-up work, not a result: OpenBLAS's thread pool cost every command 0.07-0.1 s of CPU
    (docs/speed.md). A user's own OPENBLAS_NUM_THREADS is left alone."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    code = "import os, certify.__main__; print(os.environ['OPENBLAS_NUM_THREADS'])"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == seen


def test_a_build_freezes_what_the_start_up_imported(tmp_path):
    """The CLI moves numpy's and numba's objects out of the garbage collector's full collections
    before a build (docs/speed.md): gc.freeze() has run when the build is done."""
    import subprocess
    import sys

    code = ("import gc, sys; from certify.__main__ import main; assert gc.get_freeze_count() == 0; "
            f"main(['build', 'knuth', '-q', '-o', {str(tmp_path / 'k.json')!r}]); print(gc.get_freeze_count())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(out.stdout.split()[-1]) > 10000


def test_a_build_starts_numba_without_importing_scipy_linalg(tmp_path):
    """numba's BLAS probe would import scipy.linalg (0.27 s of every build's start-up,
    docs/speed.md): the CLI hides it from that one import. The build is the same, and scipy.linalg still
    imports afterwards (certify value needs it)."""
    import subprocess
    import sys

    out_file = tmp_path / "o.json"
    code = ("import sys; from certify.__main__ import main; "
            f"rc = main(['build', 'optimal', '--pegs', '2', '--colors', '4', '-q', '-o', {str(out_file)!r}]); "
            "print(rc, 'scipy.linalg' in sys.modules, 'numba.np.arraymath' in sys.modules); "
            "import scipy.linalg, scipy.optimize; print(scipy.linalg.solve([[2.0]], [4.0])[0])")
    # numba's JIT (CERTIFY_JIT=1): it starts, without scipy.linalg; the search's module compiled
    # ahead of time (certify/compiled.py, the default): numba is not imported at all
    for jit, numba_array in (("1", "True"), ("0", "False")):
        env = dict(os.environ, CERTIFY_JIT=jit)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env=env)
        assert out.stdout.split()[-4:] == ["0", "False", numba_array, "2.0"]
        assert '"total_guesses": 45' in out_file.read_text()
    # the library itself leaves imports alone
    code = "import sys, numba, numba.np.arraymath; print('scipy.linalg' in sys.modules)"
    lib = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert lib.stdout.split() == ["True"]


@pytest.mark.parametrize("game", [Game(5, 4), Game(4, 6, False), Game(3, 9, False), Game(4, 5)], ids=str)
@pytest.mark.parametrize("kind", ["sumsq", "max"])
def test_the_multiset_bound_never_drops_a_guess_at_its_own_score(game, kind):
    """The sum of squares and the largest class: each guess alone, with its own score as the limit,
    keeps that score (the bound of its colour multiset is never above a score of the multiset's
    guesses); and the bound is taken (fewer (guess, candidate) pairs counted than without it, the
    same scores)."""
    from certify.strategies import kernel

    kind = kernel.KINDS[kind]
    kern = kernel.Kernel(game)
    rng = np.random.default_rng(11)
    every = np.arange(game.size)
    saved = 0
    for n in (8, 20, 70, 150):
        candidates = np.sort(rng.choice(game.size, size=min(n, game.size), replace=False))
        n = len(candidates)
        counts = partition_counts(game, every, candidates)
        exact = (counts * counts).sum(axis=1) if kind == kernel.SUMSQ else counts.max(axis=1)
        for g in rng.choice(game.size, size=60, replace=False):
            out = np.empty(1)
            kern._bit_scores(kind, every[g:g + 1], candidates, float(exact[g]), 0, 0.0, kern.reference(n), out)
            assert out[0] == exact[g], (game, n, g)
        best = float(exact.min())
        with_bound, without = np.empty(game.size), np.empty(game.size)
        pairs = kern._bit_scores(kind, every, candidates, best, 0, 0.0, kern.reference(n), with_bound)
        kern._multisets = (kern._multiset_tables()[0], 0, kern._multisets[2])  # n_ms = 0: no bound
        plain = kern._bit_scores(kind, every, candidates, best, 0, 0.0, kern.reference(n), without)
        kern._multisets = None
        assert np.array_equal(with_bound, without), (game, n)
        saved += plain - pairs
    assert saved > 0


def test_entropy_with_a_perfect_reference_stops_as_the_loops_do():
    """Entropy entered with a reference of singletons (ref = 0): the bit-sliced loop stops at the
    first guess it scores, with or without the multiset bound (which it then leaves aside)."""
    from certify.strategies import kernel

    game = Game(5, 4)
    kern = kernel.Kernel(game)
    rng = np.random.default_rng(5)
    candidates = np.sort(rng.choice(game.size, size=40, replace=False))
    guesses = np.sort(rng.choice(game.size, size=300, replace=False))
    n = len(candidates)
    nlogn = np.zeros(n + 2)
    nlogn[2:] = np.arange(2, n + 2) * np.log2(np.arange(2, n + 2))
    ref_a, ref_b = kern.reference(n), kern.reference(n)
    ref_a[0][0] = ref_b[0][0] = 0
    loops, bits = np.empty(len(guesses)), np.empty(len(guesses))
    ckeys = np.ascontiguousarray(kern.keys[candidates].T)
    kernel._scores(kern.flat, kern.rows, ckeys, guesses, kern.n_fb, kernel.ENTROPY, 1e6, 0, 1e-9, nlogn,
                   ref_a[0], ref_a[1], loops)
    kern._bit_scores(kernel.ENTROPY, guesses, candidates, 1e6, 0, 1e-9, ref_b, bits)
    assert np.array_equal(loops, bits)
