#!/usr/bin/env bash
# Runs make targets one after another, stops at the first that fails, and prints how long
# each took: `make test`'s time per phase, so a cold run shows where its minutes go
# (tools/measure-cold-setup.sh reads the same lines from its log).
#   tools/phases.sh TARGET...
set -uo pipefail
start=$SECONDS
times=()
for target in "$@"; do
  began=$SECONDS
  make --no-print-directory "$target"
  status=$?
  times+=("$(printf '%-13s %5d s' "$target" $((SECONDS - began)))")
  if [ "$status" -ne 0 ]; then
    printf 'phases: %s failed (exit %d); the phases run:\n' "$target" "$status" >&2
    printf '  %s\n' "${times[@]}" >&2
    exit "$status"
  fi
done
printf 'phases: all passed in %d s:\n' $((SECONDS - start))
printf '  %s\n' "${times[@]}"
