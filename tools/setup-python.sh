#!/usr/bin/env bash
# Installs what the Python package's build and tests need and is missing, into a virtual
# environment of the project's own (target/py): maturin, pyarrow, DuckDB (the module and the
# `duckdb` command line), Polars, pytest,
# at the versions bindings/python/requirements-test.txt pins. Idempotent: under a second when
# the environment is already as pinned.
#   tools/setup-python.sh         the package's build and tests
#   tools/setup-python.sh spark   the above plus pyspark and pandas (requirements-spark.txt)
#                                 and a Java runtime (Debian's openjdk-17-jre-headless) if
#                                 there is no `java`
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf 'setup-python: [%4ss] %s\n' "$SECONDS" "$*"; }
die() { printf 'setup-python: ERROR: %s\n' "$*" >&2; exit 1; }
mode=${1:-test}
python=${PYTHON:-python3}
command -v "$python" >/dev/null || die "no $python: the package needs CPython 3.9 or newer"
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 9))' || die "$python is older than 3.9"
if [ ! -x target/py/bin/python ]; then
  say "creating target/py (a virtual environment)"
  "$python" -m venv target/py || die "python -m venv failed (Debian: apt-get install python3-venv)"
fi
# Each requirements file once, again when it changes.
pip_install() {
  local requirements=$1 stamp=target/py/.$(basename "$1")
  if ! cmp -s "$requirements" "$stamp" 2>/dev/null; then
    say "installing $(grep -vc '^#' "$requirements") Python packages from $requirements (pip, pinned)"
    # --no-compile: no .pyc for every file of pyarrow, Polars and DuckDB up front (CPU a cold
    # `make test` shares with its other lane); Python compiles what it imports, once.
    target/py/bin/pip install --quiet --disable-pip-version-check --no-compile -r "$requirements" || die "pip install -r $requirements failed"
    cp "$requirements" "$stamp"
  fi
}
pip_install bindings/python/requirements-test.txt
if [ "$mode" = spark ]; then
  if ! command -v java >/dev/null; then
    say "installing a Java runtime for Spark (apt-get install openjdk-17-jre-headless)"
    as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else die "need root (or sudo) to run: $*"; fi; }
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless >/dev/null \
      || { as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless >/dev/null; } \
      || die "apt-get install openjdk-17-jre-headless failed"
  fi
  pip_install bindings/python/requirements-spark.txt
fi
say "ok ($mode)"
