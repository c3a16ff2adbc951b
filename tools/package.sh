#!/usr/bin/env bash
# Packs the built page (dist/) with a hosting README (docs/HOSTING.md) as the release archive
# a documentation author unpacks under any path of a static server:
# target/release-page/hashring-lab-page-VERSION.tar.gz (VERSION: Cargo.toml's). The archive
# is the same bytes for the same dist/ (sorted names, fixed times and owners).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f dist/index.html ] || { echo "package: no dist/index.html: run make dist" >&2; exit 1; }
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
name=hashring-lab-page-$version
out=target/release-page
rm -rf "${out:?}/$name" "$out/$name.tar.gz"
mkdir -p "$out/$name"
cp -R dist/. "$out/$name/"
find "$out/$name" -name ".*" -type f -delete   # Trunk's lock file
cp docs/HOSTING.md "$out/$name/README.md"
tar --sort=name --mtime='2026-01-01 00:00Z' --owner=0 --group=0 --numeric-owner \
  -C "$out" -czf "$out/$name.tar.gz" "$name"
rm -rf "${out:?}/$name"
printf '%-50s %9d bytes\n' "archive $out/$name.tar.gz" "$(stat -c %s "$out/$name.tar.gz")"
