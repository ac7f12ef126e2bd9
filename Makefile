# Every target does its own set-up: a fresh clone needs only `make run` or `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
CERTIFY := $(VENV)/bin/certify
STAMP  := $(VENV)/.installed-stamp

.PHONY: run test setup dot certificates verify bench clean

run: setup
	@mkdir -p build
	$(CERTIFY) build knuth --pegs 4 --colors 6 -o build/knuth-4x6.json
	$(CERTIFY) verify build/knuth-4x6.json --max-guesses 5
	@cmp -s build/knuth-4x6.json certificates/knuth-4x6.json \
		&& echo "build/knuth-4x6.json is byte-identical to certificates/knuth-4x6.json" \
		|| echo "note: build/knuth-4x6.json differs from the committed certificates/knuth-4x6.json"
	$(CERTIFY) stats build/knuth-4x6.json

test: setup
	$(PY) -m pytest -q

setup: $(STAMP) dot

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

# `make bench BENCH_ARGS=--quick` skips 5 pegs x 8 colours.
bench: setup
	$(PY) bench/bench.py $(BENCH_ARGS)

clean:
	rm -rf build .pytest_cache
