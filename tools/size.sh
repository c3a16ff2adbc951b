#!/usr/bin/env bash
# Prints the raw and gzip (-9) size of the page: index.html and the wasm, js and css it
# loads (read from the built index.html, so the sample embed page's own files, which the
# app never loads, are not counted).
set -euo pipefail
dir=${1:-dist}
total_raw=0; total_gz=0
files=$(printf 'index.html\n'; grep -oE '\./[A-Za-z0-9._-]+\.(wasm|js|css)' "$dir/index.html" | sed 's#^\./##' | sort -u)
for f in $files; do
  raw=$(stat -c %s "$dir/$f"); gz=$(gzip -9 -c "$dir/$f" | wc -c)
  printf '%-50s %9d bytes  %8d gzip\n' "$f" "$raw" "$gz"
  total_raw=$((total_raw + raw)); total_gz=$((total_gz + gz))
done
printf "%-50s %9d bytes  %8d gzip (%s KB)\n" "page (html + wasm + js + css)" "$total_raw" "$total_gz" "$(awk "BEGIN{printf \"%.1f\", $total_gz/1024}")"
