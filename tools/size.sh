#!/usr/bin/env bash
# Prints the raw and gzip (-9) size of the built page's wasm + js.
set -euo pipefail
dir=${1:-dist}
total_raw=0; total_gz=0
for f in "$dir"/*.wasm "$dir"/*.js; do
  [ -e "$f" ] || continue
  raw=$(stat -c %s "$f"); gz=$(gzip -9 -c "$f" | wc -c)
  printf '%-50s %9d bytes  %8d gzip\n' "$(basename "$f")" "$raw" "$gz"
  total_raw=$((total_raw + raw)); total_gz=$((total_gz + gz))
done
printf "%-50s %9d bytes  %8d gzip (%s KB)\n" "wasm + js" "$total_raw" "$total_gz" "$(awk "BEGIN{printf \"%.1f\", $total_gz/1024}")"
