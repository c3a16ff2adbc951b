#!/usr/bin/env bash
# Runs make targets one after another, stops at the first that fails, and prints how long
# each took and the CPU time it used (both cores busy: CPU ≈ 2 × wall; a phase well below
# that leaves a core idle): `make test`'s time per phase, so a cold run shows where its
# minutes go (tools/measure-cold-setup.sh reads the same lines from its log).
#   tools/phases.sh TARGET...
set -uo pipefail
start=$SECONDS
times=()
# The CPU seconds (user + system) of every finished child so far, from bash's `times`.
children_cpu() {
  times | tail -1 | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } printf "%d", t }'
}
for target in "$@"; do
  began=$SECONDS
  cpu_before=$(children_cpu)
  make --no-print-directory "$target"
  status=$?
  times+=("$(printf '%-13s %5d s  (cpu %5d s)' "$target" $((SECONDS - began)) $(($(children_cpu) - cpu_before)))")
  if [ "$status" -ne 0 ]; then
    printf 'phases: %s failed (exit %d); the phases run:\n' "$target" "$status" >&2
    printf '  %s\n' "${times[@]}" >&2
    exit "$status"
  fi
done
printf 'phases: all passed in %d s:\n' $((SECONDS - start))
printf '  %s\n' "${times[@]}"
