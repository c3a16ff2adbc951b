#!/usr/bin/env bash
# Regenerates tests/reference/{memento,dx,power}.txt by running the engines of SUPSI's
# java-consistent-hashing-algorithms (Memento is its authors' own code) with the stand-in
# HashFunction in tools/supsi/. Needs a JDK, Guava (Debian's libguava-java) and a checkout
# of that repository (a work tree or a bare git directory): tools/supsi-vectors.sh PATH
set -euo pipefail
repo=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
mkdir -p "$work/src" "$work/repo"
git -C "$repo" archive HEAD src/main/java | tar -x -C "$work/repo"
src=$work/repo/src/main/java/ch/supsi/dti/isin/consistenthash
cp "$src/BucketBasedEngine.java" "$src/memento/MementoEngine.java" "$src/dx/DxEngine.java" \
  "$src/power/PowerEngine.java" "$work/src/"
# Memento.java's toString uses nerd4j, which is not needed here: drop that method.
perl -0pe 's/\@Override\s*public String toString\(\)\s*\{.*?\}\s*\}/}/s; s/import org\.nerd4j[^\n]*\n//' \
  "$src/memento/Memento.java" > "$work/src/Memento.java"
guava=$(ls /usr/share/java/guava*.jar | head -1)
javac -nowarn -cp "$guava" -d "$work/classes" "$work"/src/*.java "$here/supsi/HashFunction.java" "$here/supsi/Vectors.java"
for engine in memento dx power; do
  java -cp "$work/classes:$guava" Vectors "$engine" > "$here/../tests/reference/$engine.txt"
  echo "wrote tests/reference/$engine.txt ($(wc -l < "$here/../tests/reference/$engine.txt") lines)"
done
