#!/usr/bin/env bash
# Installs what the Python package's build and tests need and is missing, into a virtual
# environment of the project's own (target/py): maturin, pyarrow, DuckDB, Polars, pytest,
# at the versions crates/python/requirements-test.txt pins. Idempotent: under a second when
# the environment is already as pinned.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { printf 'setup-python: [%4ss] %s\n' "$SECONDS" "$*"; }
die() { printf 'setup-python: ERROR: %s\n' "$*" >&2; exit 1; }
requirements=crates/python/requirements-test.txt
stamp=target/py/.requirements
python=${PYTHON:-python3}
command -v "$python" >/dev/null || die "no $python: the package needs CPython 3.9 or newer"
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 9))' || die "$python is older than 3.9"
if [ ! -x target/py/bin/python ]; then
  say "creating target/py (a virtual environment)"
  "$python" -m venv target/py || die "python -m venv failed (Debian: apt-get install python3-venv)"
fi
if ! cmp -s "$requirements" "$stamp" 2>/dev/null; then
  say "installing $(grep -vc '^#' "$requirements") Python packages (pip, pinned)"
  target/py/bin/pip install --quiet --disable-pip-version-check -r "$requirements" || die "pip install -r $requirements failed"
  cp "$requirements" "$stamp"
fi
say "ok"
