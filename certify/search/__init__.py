"""Exact search: lower-bound proofs (worst case, total guesses) and optimal strategies.

Not a heuristic strategy: it decides what *every* strategy needs, by AND/OR search over
candidate sets with symmetry and counting pruning, and writes the refutation as a
lower-bound certificate (docs/lower-bound-format.md) for the independent checker.

- :mod:`.space`: the game's full feedback matrix and the permutations of pegs and colours;
- :mod:`.counting`: the counting bounds, exactly as the checker computes them;
- :mod:`.symmetry`: which guesses are alike at a node (orbits, identical partitions);
- :mod:`.worst`: "every strategy needs >= D guesses" and its proof;
- :mod:`.total`: the exact optimum total (branch and bound), its strategy and its proof;
- :mod:`.proof`: nodes, references and the certificate's bytes;
- :mod:`.catalog`: the committed proofs under certificates/bounds/;
- the compiled loops (:mod:`.engine`, :mod:`.kernel`, :mod:`.wengine`) come from numba's JIT, or
  from the module ``make setup`` compiles ahead of time from the same source (:mod:`certify.compiled`).

Imports one way: this package uses the game and certificate writing; the checkers and the core
never import it. Only these do, lazily: the ``bound`` and ``build optimal`` commands, the
``optimal`` strategy, ``hint --up-to-symmetry`` (its orbits) and the API's ``build_optimal``
(tests/test_search_catalog.py keeps the list).
"""
