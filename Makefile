# hashring-lab: every target installs what is missing first (tools/setup.sh), then runs.
#   make serve   build and serve the app on http://127.0.0.1:8080 (HOST=0.0.0.0: to the network)
#   make build   release build into dist/, then print the gzip size of wasm + js
#   make test    fmt, clippy, native tests, wasm build, browser tests, end-to-end tests,
#                the Python package (wheel built from the checkout, pytest)
#   make test-spark  the Python package inside Spark's local mode (installs pyspark and a JVM)
#   make bench   criterion benchmarks (native) and the in-browser page measurement
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
CARGO_HOME ?= $(HOME)/.cargo
export PATH := $(CURDIR)/node_modules/.bin:$(CARGO_HOME)/bin:$(PATH)
WASM_ENV := source target/tools/wasm.env &&
# The page's build adds build-std with immediate-abort panics (tools/setup.sh, step 1b).
PAGE_ENV := $(WASM_ENV) source target/tools/page.env &&
CHROMIUM_FLAGS := --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage

.PHONY: serve build test bench setup-build setup-test dist lint lint-native lint-wasm test-native test-browser test-e2e wheel duckdb-extension cli test-python python-tests test-spark

setup-build:
	@bash tools/setup.sh build

setup-test:
	@bash tools/setup.sh test

# The page is rebuilt only when something it is built from changed: an unchanged tree skips
# the wasm-bindgen and wasm-opt passes (~2 min: npm's wasm-opt is binaryen compiled to wasm,
# on one core). tools/build_page.mjs runs the build index.html and Trunk.toml describe and
# replaces dist/ as a whole, so a build that stopped half-way leaves the old page and the
# next run builds again.
# The Python package (bindings/python) is not built into the page: its changes do not count.
PAGE_INPUTS := $(shell find src static crates/short-md5 crates/plotters-canvas -type f 2>/dev/null) index.html Cargo.toml Cargo.lock \
	Trunk.toml .cargo/config.toml package-lock.json tools/versions.env tools/build_page.mjs tools/order_functions.mjs tools/wasm_features.mjs tools/short_names.py tools/wasm_early.py tools/inline_assets.py tools/csp_hashes.py \
	target/tools/wasm.env target/tools/page.env

target/tools/wasm.env target/tools/page.env:
	@bash tools/setup.sh build

dist/index.html: $(PAGE_INPUTS)
	$(PAGE_ENV) node tools/build_page.mjs
	@touch dist/index.html

# The page's size, and the release archive a documentation author hosts (tools/package.sh).
dist: dist/index.html
	@bash tools/size.sh dist
	@bash tools/package.sh

build: setup-build dist

# HOST=0.0.0.0 serves the page to the other machines on the network (a class's phones, by
# the QR code), and prints the address they use.
HOST ?= 127.0.0.1
PORT ?= 8080

serve: setup-build dist/index.html
	@case "$(HOST)" in 127.*|localhost) ;; *) \
	  for a in $$(hostname -I 2>/dev/null); do case "$$a" in *:*) ;; *) \
	    echo "Other machines open: http://$$a:$(PORT)/";; esac; done;; esac
	node tools/serve.mjs dist --host $(HOST) --port $(PORT)

# The publishing workflow is checked against GitHub's workflow schema (action-validator, from
# npm: actionlint's PyPI package downloads its binary from GitHub when built, which a machine
# that reaches only the registries cannot).
lint: lint-native lint-wasm

lint-native:
	for workflow in .github/workflows/*.yml; do node_modules/.bin/action-validator $$workflow || exit 1; done
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings

# The wasm clippy. `make test` runs it beside the end-to-end suite, not beside `dist`: three
# fresh clones in a row on 2026-12-06 (the third with a build directory of its own) failed it
# there, its compiler probe reading another compiler's error message as its source ("failed
# to run `rustc` to learn about target-specific information"); run alone it passes.
lint-wasm:
	$(WASM_ENV) cargo clippy --workspace --exclude hashring-lab-python --exclude hashring-lab-duckdb --target wasm32-unknown-unknown --lib --bins --test browser -- -D warnings

# The Python package has no Rust tests (pytest tests it, below).
test-native:
	cargo test --workspace --exclude hashring-lab-python

test-browser:
	$(WASM_ENV) CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --test browser

# Two test files at a time: one file's browser waits on the page about half the time
# (2 cores: 113-137 s one at a time, 105-126 s two at a time, measured alternately), the
# largest files first (size stands in for running time) so the two lanes end together
# (alphabetical 124/140 s, largest first 111/111 s, alternately).
test-e2e:
	node --test --test-concurrency=2 $$(ls -S tests/e2e/*.test.mjs)

# The Python package (bindings/python): one abi3 wheel built from the checkout by maturin into
# target/wheels, installed into the project's own virtual environment (target/py), tested by
# pytest against the command line's answers. PY_PROFILE=release (the default: `make wheel`,
# what a user installs, and `make test-spark`) or dev: `make test` builds the wheel in the
# dev profile — the same code with overflow checks on, compiled in 76 s instead of 202 s on a
# cold 2-core machine, for tests 18 s slower — and compares with the debug command line
# `make test-native` already built.
WHEEL_DIR := target/wheels
PY_PROFILE ?= release
PY_BIN := target/$(if $(filter dev,$(PY_PROFILE)),debug,$(PY_PROFILE))/hashring-lab

# The DuckDB extension (bindings/duckdb): the shared library with DuckDB's footer, named as
# DuckDB's LOAD wants it (the file's name is the extension's).
DUCKDB_EXTENSION := target/duckdb/hashring_lab.duckdb_extension
PY_LIB := target/$(if $(filter dev,$(PY_PROFILE)),debug,$(PY_PROFILE))/libhashring_lab_duckdb.so

duckdb-extension:
	cargo build --profile $(PY_PROFILE) -p hashring-lab-duckdb
	@mkdir -p $(dir $(DUCKDB_EXTENSION))
	python3 tools/duckdb_extension.py $(PY_LIB) $(DUCKDB_EXTENSION) v$$(awk -F'"' '/^version/{print $$2; exit}' bindings/duckdb/Cargo.toml)

# The wheel carries the DuckDB extension beside the package (hashring_lab.duckdb loads it).
wheel: duckdb-extension
	@bash tools/setup-python.sh
	rm -rf $(WHEEL_DIR)
	cp $(DUCKDB_EXTENSION) bindings/python/python/hashring_lab/
	target/py/bin/maturin build --profile $(PY_PROFILE) --quiet -m bindings/python/Cargo.toml -o $(WHEEL_DIR)
	target/py/bin/pip install --quiet --disable-pip-version-check --force-reinstall --no-deps $(WHEEL_DIR)/*.whl

# The command line the package's answers are compared with.
cli:
	cargo build --profile $(PY_PROFILE) --bin hashring-lab

PYTEST := HASHRING_LAB_BIN=$(PY_BIN) HASHRING_LAB_WHEEL_DIR=$(WHEEL_DIR) HASHRING_LAB_DUCKDB_EXTENSION=$(DUCKDB_EXTENSION) target/py/bin/pytest -q

# Also against the page (dist/, in headless Chromium: test_page_agreement.py).
test-python: wheel dist cli
	$(MAKE) --no-print-directory python-tests

# The tests alone, on what test-python builds (make test builds it in its lanes).
python-tests:
	HASHRING_LAB_PAGE=1 $(PYTEST) bindings/python/tests --ignore=bindings/python/tests/test_spark.py

# Spark's local mode: pyspark (a 456 MB download) and a JVM do not fit the cold `make test`'s
# time, so they are a target of their own, which CI runs after `make test`.
test-spark:
	@bash tools/setup-python.sh spark
	$(MAKE) --no-print-directory wheel cli
	$(PYTEST) bindings/python/tests/test_spark.py

# Each phase timed (tools/phases.sh), stopping after the first stage that fails. Two lanes
# side by side on the machine's two cores. First the checks and native tests beside the
# page's build, which is partly one core's work (npm's wasm-opt is binaryen compiled to wasm,
# single-threaded; the fat-LTO link); then the end-to-end suite (it needs the page and the
# debug command line) beside the browser tests and the Python package. The lanes' cargo
# builds use different profiles or targets (debug / wasm-release), so neither waits long on
# the other's build-directory lock.
test:
	@PY_PROFILE=dev bash tools/phases.sh setup-test 'lint-native test-native | dist' 'test-e2e | lint-wasm test-browser wheel python-tests'

bench: setup-test
	cargo bench --bench engine
	$(MAKE) --no-print-directory dist
	node tests/perf/measure.mjs
