# Every target does its own set-up: a fresh clone needs only `make run` or `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
CERTIFY := $(VENV)/bin/certify
STAMP  := $(VENV)/.installed-stamp

.PHONY: run test setup dot browser certificates verify bench pictures clean

run: setup
	@mkdir -p build
	$(CERTIFY) build knuth --pegs 4 --colors 6 -o build/knuth-4x6.json
	$(CERTIFY) verify build/knuth-4x6.json --max-guesses 5
	@cmp -s build/knuth-4x6.json certificates/knuth-4x6.json \
		&& echo "build/knuth-4x6.json is byte-identical to certificates/knuth-4x6.json" \
		|| echo "note: build/knuth-4x6.json differs from the committed certificates/knuth-4x6.json"
	$(CERTIFY) stats build/knuth-4x6.json
	$(CERTIFY) render build/knuth-4x6.json -o build/knuth-4x6-overview.svg

test: setup
	$(PY) -m pytest -q

setup: $(STAMP) dot browser

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test]'
	$(PY) -m certify.strategies.kernel  # compile the numba loop once (cached on disk)
	@touch $(STAMP)

# Graphviz's `dot` program, for rendering (installed with apt-get when missing; we run as root).
dot:
	@command -v dot >/dev/null 2>&1 || { \
		echo "installing graphviz (dot) with apt-get"; \
		apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q graphviz >/dev/null; }
	@command -v dot >/dev/null 2>&1 || { echo "error: graphviz 'dot' is still missing" >&2; exit 1; }

certificates: setup
	$(PY) -m certify.catalog build

verify: setup
	$(PY) -m certify.catalog verify
	$(PY) -m certify.catalog verify-bounds

# `make bench BENCH_ARGS=--quick` skips 5 pegs x 8 colours.
bench: setup
	$(PY) bench/bench.py $(BENCH_ARGS)
	$(PY) bench/bench_html.py

# The README gallery (README.md, section Gallery), drawn from the committed certificate. The radial PNG is
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

clean:
	rm -rf build .pytest_cache

# A real browser for tests/test_html.py: Debian's chromium and its driver (apt-get, only as root
# on a Debian-like system; otherwise the tests say what is missing).
browser:
	@command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "installing chromium and chromium-driver with apt-get"; \
			apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver >/dev/null; \
		else echo "note: chromium/chromedriver missing and cannot apt-get them: tests/test_html.py will fail" >&2; fi; }

# The exact search's lower-bound proofs (certificates/bounds/) and the optimal-total strategies.
bounds: setup
	$(PY) -m certify.search.catalog build
