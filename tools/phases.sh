#!/usr/bin/env bash
# Runs `make test`'s phases: stages one after another, and inside a stage its lanes side by
# side, each lane's make targets one after another. Stops after the first stage in which a
# target failed, and prints how long each target took and the CPU time it used (a lane that
# is all one core's work — wasm-opt, a fat-LTO link, a browser waiting on a page — leaves
# the other core to the other lane: that is why the lanes exist). tools/measure-cold-setup.sh
# reads the same lines from its log.
#
#   tools/phases.sh STAGE...      a STAGE is lanes separated by '|', a lane is make targets
#   e.g. tools/phases.sh setup-test 'lint test-native | dist' 'test-e2e | test-python'
#
# A stage of one lane prints as it goes. In a stage of several, each lane's output goes to
# target/phases/LANE.log and is printed whole when the stage ends, lane by lane, so the log
# reads as if they had run in turn; a line says when each target ends.
set -uo pipefail
start=$SECONDS
logs=target/phases
mkdir -p "$logs"
results=$(mktemp)
exec 3>&2   # progress lines, to the terminal even from a lane whose output goes to its log
trap 'rm -f "$results" "$times_file"' EXIT

# Sets CPU to the CPU seconds (user + system) of every finished child of this shell so far:
# bash's `times`, which must run in this shell itself (in a `$(…)` it would count the
# subshell's children, none).
times_file=$(mktemp)
cpu_now() {
  times > "$times_file"
  CPU=$(tail -1 "$times_file" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] } printf "%d", t + 0.5 }')
}

# Runs one lane's targets in order, stopping at the first that fails; appends one line per
# target to $results: "target wall cpu status".
run_lane() {
  local target began cpu_before status
  for target in "$@"; do
    began=$SECONDS
    cpu_now
    cpu_before=$CPU
    make --no-print-directory "$target"
    status=$?
    cpu_now
    printf '%s %d %d %d\n' "$target" $((SECONDS - began)) $((CPU - cpu_before)) "$status" >> "$results"
    printf 'phases: %s %s in %d s\n' "$target" "$([ "$status" -eq 0 ] && echo passed || echo FAILED)" $((SECONDS - began)) >&3
    [ "$status" -eq 0 ] || return "$status"
  done
}

failed=
for stage in "$@"; do
  IFS='|' read -r -a lanes <<< "$stage"
  if [ "${#lanes[@]}" -eq 1 ]; then
    # shellcheck disable=SC2086 # a lane is a word list of make targets
    run_lane ${lanes[0]} || failed=1
  else
    pids=()
    names=()
    for lane in "${lanes[@]}"; do
      # shellcheck disable=SC2086
      set -- $lane
      names+=("$1")
      ( run_lane "$@" ) > "$logs/$1.log" 2>&1 &
      pids+=($!)
    done
    for i in "${!pids[@]}"; do
      wait "${pids[$i]}" || failed=1
      # shellcheck disable=SC2086 # the lane printed with single spaces
      printf "\n===== lane %s (target/phases/%s.log) =====\n" "$(echo ${lanes[$i]})" "${names[$i]}"
      cat "$logs/${names[$i]}.log"
    done
  fi
  [ -z "$failed" ] || break
done

table() { awk '{ printf "  %-13s %5d s  (cpu %5d s)%s\n", $1, $2, $3, ($4 == 0 ? "" : "  FAILED") }' "$results"; }
if [ -n "$failed" ]; then
  printf 'phases: a target failed after %d s; the targets run:\n' $((SECONDS - start)) >&2
  table >&2
  exit 1
fi
printf 'phases: all passed in %d s:\n' $((SECONDS - start))
table
