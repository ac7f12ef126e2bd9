# Every target does its own set-up: a fresh clone needs only `make run` or `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
CERTIFY := $(VENV)/bin/certify
STAMP  := $(VENV)/.installed-stamp

.PHONY: run test setup dot browser certificates verify atlas rebuild-check bench pictures docs docs-serve clean notebook formal

run: setup
	@mkdir -p build
	$(CERTIFY) build knuth --pegs 4 --colors 6 -o build/knuth-4x6.json
	$(CERTIFY) verify build/knuth-4x6.json --max-guesses 5
	@cmp -s build/knuth-4x6.json certificates/knuth-4x6.json \
		&& echo "build/knuth-4x6.json is byte-identical to certificates/knuth-4x6.json" \
		|| echo "note: build/knuth-4x6.json differs from the committed certificates/knuth-4x6.json"
	$(CERTIFY) stats build/knuth-4x6.json
	@if command -v dot >/dev/null 2>&1; then \
		$(CERTIFY) render build/knuth-4x6.json -o build/knuth-4x6-overview.svg; \
	else echo "(no Graphviz dot: the picture is left out; tools/system-packages.sh says how to install it)"; fi

# `make test TESTS=tests/test_render.py` runs part of the suite. The tests run on one process per
# core, at most 4 (pytest-xdist): the whole suite took 631 s on one process of this 2-core machine,
# 322 s on two (same 2014 tests passed). --dist loadfile: a test file's tests run in one process,
# so what a file computes once (a module-scoped fixture: the book, a page, the built site; the
# per-process caches of tests/conftest.py: the committed proofs' reports, the atlas table) is not
# computed again in the other process (test_book's 40-page book was drawn twice, 12 s, when its tests
# fell on both); files go out most tests first, so the last ones are small. (--dist loadgroup would
# group across files, but xdist 3.8 marks groups through Item._nodeid, which pytest 9 no longer
# reads: its groups were split.) Sampled by default, whole with a switch: CERTIFY_AGREEMENT=all
# (tests/test_api_agreement.py), CERTIFY_SCHEMA=all (test_verify_bound_committed.py),
# CERTIFY_IMPORT_SHARED=all (test_import_shared.py). CERTIFY_TEST_CPU=FILE logs each test's CPU.
# Measured 2026-11-29 (CERTIFY_TEST_CPU, summed over tests): 1,097 s of CPU before (654 s wall,
# 3,440 passed); 932 s after the sampling, the shared copies, the smaller book and loadfile (3,430
# passed, the four fuzzing runs then stopping at once on a false out-of-memory, fixed since: ~50 s
# more with them), 2,016 s wall on a machine loaded 6-8 by other searches (the wall says little).
TESTS ?=
test: setup
	$(PY) -m pytest -q -n auto --maxprocesses 4 --dist loadfile $(TESTS)

# The search's and the heuristic strategies' loops compiled ahead of time for this machine
# (certify/compiled.py: ~45 s, once per change of their sources; then a search or a big heuristic
# build starts without importing numba). Without a C compiler they run on numba's JIT and the note
# says so.
setup: $(STAMP) dot
	@$(PY) -m certify.compiled || true

# pip -qq: errors only (no notice of the editable install, nor of the machine's pip configuration).
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -qq --upgrade pip
	$(PY) -m pip install -qq -e '.[test]'
	$(PY) -m compileall -q certify  # bytecode even where PYTHONDONTWRITEBYTECODE is set (~0.05 s a run)
	@# The heuristics' numba loops (cached on disk, ~20 s: what runs without a C compiler) compile
	@# on one core while all loops are compiled ahead of time on the other (setup's step below then
	@# finds them up to date). CERTIFY_JIT=1: numba's even when a compiled module is there already
	@# (a set-up run again after pyproject.toml changed), whose exports a module run as __main__ cannot name.
	CERTIFY_JIT=1 $(PY) -m certify.strategies.kernel & warm=$$!; $(PY) -m certify.compiled || true; wait $$warm
	@touch $(STAMP)

# System packages (tools/system-packages.sh: Graphviz's dot for `certify render`, chromium and its
# driver for the browser tests): installed with apt-get when we can (root and apt-get present);
# otherwise a note says how, and the set-up goes on. `make browser` is the same step.
dot browser:
	@sh tools/system-packages.sh

# `make formal`: the checker proven correct in Coq (docs/formal.md): build it (fails on any Admitted,
# axiom or assumption), then check with it what the Python side translates (certify/formal.py):
# Knuth's 4x6 tree, the worst-case proofs of 4x6, 4x7, 6x4, 5x7, 5x6, 4x10 and the strategies that
# meet them (about 10 minutes of CPU, most of it 5x6 and 4x10; FORMAL_FILES=... for fewer).
FORMAL_FILES ?= certificates/knuth-4x6.json certificates/bounds/worst-case-4x6.json \
	certificates/bounds/worst-case-4x7.json.gz $(foreach g,6x4 5x7 5x6 4x10,\
	certificates/atlas/optimal-worst-case-$(g).json.gz certificates/atlas/worst-case-$(g).json.gz)
formal: setup
	sh formal/build.sh
	@set -e; for f in $(FORMAL_FILES); do $(PY) -m certify.formal "$$f"; done

certificates: setup
	$(PY) -m certify.catalog build

verify: setup
	$(PY) -m certify.catalog verify
	$(PY) -m certify.catalog verify-bounds
	@# (the biggest static proofs need more work than their size allows by default: docs/static.md)
	$(PY) -m certify.verify_static --max-work 1000000000000 certificates/static/*.json*
	@# black-peg results (docs/black-peg.md): each proof checked, with the strategy that meets it
	@set -e; for proof in certificates/black-peg/worst-case-*.json* certificates/black-peg/total-*.json*; do \
		name=$${proof##*/}; $(CERTIFY) verify "$${proof%/*}/optimal-$${name%.gz}" --optimal "$$proof"; done

# `make atlas`: the atlas's missing searches (python -m certify.search.atlas build: each in a child
# process within ATLAS_BUDGET seconds; one that runs past it leaves no file and is tried again only
# with a larger budget; files already there are kept), then every file the atlas names checked by
# the trusted checkers and the table written (certificates/atlas/table.json, docs/atlas.md).
# --max-work: the most any file's default work budget reaches (a budget given replaces the default),
# which the 6x5 proof needs (its search printed --max-work 27107829077).
ATLAS_BUDGET ?= 600
atlas: setup
	$(PY) -m certify.search.atlas build --budget $(ATLAS_BUDGET)
	$(PY) -m certify.atlas write --max-codes 46656 --max-work 300000000000 --jobs 2

# `make rebuild-check`: every record of certificates/rebuild/index.json followed literally in a scratch
# folder, its bytes compared with the committed file's (python -m certify.rebuild run; long: it reruns
# every search of the atlas, the black-peg and value folders; not part of `make test`).
rebuild-check: setup
	$(PY) -m certify.rebuild run

# `make bench`: every workload of the peers' table beside their figures, and 4x8 (9 min 12 s on 2026-11-27);
# `make bench BENCH_ARGS=--quick` skips 5 pegs x 8 colours and the big exact searches.
bench: setup
	$(PY) bench/bench.py $(BENCH_ARGS)
	$(PY) bench/bench_html.py

# `make notebook`: JupyterLab on the venv, opened on the walk-through docs/example.ipynb (installs the
# notebook extra once: JupyterLab; the kernel is the venv's Python, so `import certify` works there).
# NOTEBOOK_ARGS passes options on, e.g. NOTEBOOK_ARGS='--no-browser --port 8899'.
NOTEBOOK_STAMP := $(VENV)/.notebook-stamp
NOTEBOOK_ARGS ?=
$(NOTEBOOK_STAMP): $(STAMP) pyproject.toml
	$(PY) -m pip install -qq -e '.[test,notebook]'
	@touch $(NOTEBOOK_STAMP)

notebook: setup $(NOTEBOOK_STAMP)
	$(VENV)/bin/jupyter lab docs/example.ipynb $(NOTEBOOK_ARGS)

# The gallery's pictures (docs/gallery.md, and one in the README), drawn from the committed certificate. The radial PNG is
# reduced to a 128-colour palette, which keeps it a third of the size with no visible change.
pictures: setup
	@mkdir -p docs
	$(CERTIFY) render certificates/knuth-4x6.json -o docs/knuth-4x6-overview.png
	$(CERTIFY) render certificates/knuth-4x6.json -o docs/knuth-4x6-overview.svg
	$(CERTIFY) render certificates/knuth-4x6.json --secret 3132 -o docs/knuth-4x6-secret-3132.png
	$(CERTIFY) render certificates/knuth-4x6.json --secret 3132 -o docs/knuth-4x6-secret-3132.svg
	$(CERTIFY) render certificates/knuth-4x6.json --layout twopi -o docs/knuth-4x6-radial.png
	$(PY) -c "import sys; from PIL import Image; Image.open(sys.argv[1]).convert('RGB').quantize(128, dither=Image.Dither.NONE).save(sys.argv[1], optimize=True)" docs/knuth-4x6-radial.png
	$(CERTIFY) stats certificates/knuth-4x6.json --plot docs/knuth-4x6-distribution.png > /dev/null

# `make docs`: the documentation site (mkdocs.yml: docs/ and the API's docstrings) in build/site, built
# offline with --strict (a broken link or anchor stops it; tests/test_docs.py builds it too, ~10 s).
# Open build/site/index.html (every page reads from file://, but the search does not: a browser
# refuses its index there), or `make docs-serve`.
docs: setup
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --site-dir build/site

# `make docs-serve`: the site built, then served at http://127.0.0.1:8000 (DOCS_PORT=N for another
# port; on this machine only) with its search working. Ctrl-C stops it.
DOCS_PORT ?= 8000
.PHONY: docs-serve
docs-serve: docs
	@echo "serving build/site at http://127.0.0.1:$(DOCS_PORT)/ (search included; Ctrl-C to stop)"
	$(PY) -m http.server $(DOCS_PORT) --bind 127.0.0.1 --directory build/site

clean:
	rm -rf build .pytest_cache

# The exact search's lower-bound proofs (certificates/bounds/) and the optimal-total strategies.
bounds: setup
	$(PY) -m certify.search.catalog build
