#!/usr/bin/env bash
# Times `make test` from a fresh clone with fresh caches, end to end, the way a newcomer
# runs it on a new machine: an empty CARGO_HOME (no trunk, no wasm-bindgen, no downloaded
# crates), an empty target dir, no node_modules, and — unless --keep-system is given —
# without the rustup wasm32 target, std's source (rust-src, for the page's build-std) and
# without Debian's chromium/chromium-driver (they are
# removed first, and apt's package cache emptied, so setup fetches them again), and an empty
# pip cache for the Python package's environment. Then times `make test-spark` (CI's second
# step) in the same clone.
# Only rustup's toolchain, Node and Java stay, as on the machine image.
#
#   tools/measure-cold-setup.sh [--keep-system] [REPO]   (REPO defaults to this checkout)
#
# Prints the phase times and the total; the log is in $WORK/make-test.log.
set -euo pipefail
keep_system=
if [ "${1:-}" = --keep-system ]; then keep_system=1; shift; fi
repo=$(cd "${1:-$(dirname "$0")/..}" && pwd)
WORK=$(mktemp -d /tmp/cold-setup.XXXXXX)
echo "cold set-up of $repo in $WORK"

if [ -z "$keep_system" ]; then
  rustup target remove wasm32-unknown-unknown >/dev/null 2>&1 || true
  rustup component remove rust-src >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq chromium chromium-driver >/dev/null 2>&1 || true
  apt-get clean
fi

# A PATH with rustup's proxies but none of the tools installed into the usual CARGO_HOME.
mkdir -p "$WORK/bin"
for tool in cargo rustc rustup rustfmt cargo-fmt cargo-clippy clippy-driver rustdoc; do
  [ -e "$HOME/.cargo/bin/$tool" ] && ln -s "$HOME/.cargo/bin/$tool" "$WORK/bin/$tool"
done
clean_path="$WORK/bin:$(echo "$PATH" | tr ':' '\n' | grep -v -e '\.cargo/bin' -e node_modules | paste -sd:)"

git clone -q "$repo" "$WORK/clone"
start=$(date +%s)
(
  cd "$WORK/clone"
  env -u CARGO_TARGET_DIR PATH="$clean_path" CARGO_HOME="$WORK/cargo-home" RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}" \
    PIP_CACHE_DIR="$WORK/pip-cache" bash -c 'time make test' > "$WORK/make-test.log" 2>&1
) && status=ok || status=FAILED
end=$(date +%s)
total=$((end - start))
# Then what CI runs after it: Spark's local mode (pyspark and, when missing, a JVM).
(
  cd "$WORK/clone"
  env -u CARGO_TARGET_DIR PATH="$clean_path" CARGO_HOME="$WORK/cargo-home" RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}" \
    PIP_CACHE_DIR="$WORK/pip-cache" bash -c 'time make test-spark' > "$WORK/make-test-spark.log" 2>&1
) && spark_status=ok || spark_status=FAILED
spark_total=$(( $(date +%s) - end ))
grep -E '^setup: |^setup-python: |^phases: |^  [a-z0-9-]+ +[0-9]+ s|^real' "$WORK/make-test.log" || true
grep -E 'test result|^# (pass|fail)' "$WORK/make-test.log" | tail -4 || true
printf 'make test from a fresh clone with fresh caches: %s in %d min %02d s\n' "$status" $((total / 60)) $((total % 60))
grep -E '^setup-python: |passed|failed' "$WORK/make-test-spark.log" | tail -4 || true
printf 'then make test-spark: %s in %d min %02d s\n' "$spark_status" $((spark_total / 60)) $((spark_total % 60))
