#!/usr/bin/env bash
# Regenerates tests/reference/vectors.txt by running the seeds' own Java code (needs a JDK).
set -euo pipefail
cd "$(dirname "$0")/../tests/reference"
out=$(mktemp -d)
javac -encoding UTF-8 -d "$out" SeedVectors.java
java -Dfile.encoding=UTF-8 -cp "$out" SeedVectors > vectors.txt
echo "wrote tests/reference/vectors.txt ($(wc -l < vectors.txt) lines)"
