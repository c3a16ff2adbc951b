#!/usr/bin/env bash
# Times SUPSI's Java bucket engines on this machine, beside `cargo bench --bench algorithms`
# (docs/PERFORMANCE.md). Needs a JDK, Guava (Debian's libguava-java), and checkouts (work
# trees or bare git directories) of SUPSI-DTI-ISIN/java-consistent-hashing-algorithms and
# dynatrace-oss/hash4j (for XXH3, and for SUPSI's JumpBack engine):
#   tools/supsi-bench.sh SUPSI-REPO HASH4J-REPO
set -euo pipefail
supsi=$(realpath "$1")
hash4j=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
mkdir -p "$work/supsi" "$work/hash4j" "$work/src"
git -C "$supsi" archive HEAD src/main/java 2>/dev/null | tar -x -C "$work/supsi"
git -C "$hash4j" archive HEAD src/main/java 2>/dev/null | tar -x -C "$work/hash4j"
src=$work/supsi/src/main/java/ch/supsi/dti/isin/consistenthash
for f in BucketBasedEngine.java jump/JumpEngine.java jumpback/JumpBackEngine.java \
  binomial/BinomialEngine.java flip/FlipEngine.java power/PowerEngine.java \
  memento/MementoEngine.java anchor/AnchorEngine.java dx/DxEngine.java; do
  cp "$src/$f" "$work/src/"
done
perl -0pe 's/\@Override\s*public String toString\(\)\s*\{.*?\}\s*\}/}/s; s/import org\.nerd4j[^\n]*\n//' \
  "$src/memento/Memento.java" > "$work/src/Memento.java"
guava=$(ls /usr/share/java/guava*.jar | head -1)
find "$work/hash4j/src/main/java" -name '*.java' ! -name module-info.java > "$work/hash4j.txt"
javac -nowarn -encoding UTF-8 -cp "$guava" -d "$work/classes" @"$work/hash4j.txt" \
  "$work"/src/*.java "$here/supsi-bench/HashFunction.java" "$here/supsi-bench/Bench.java" 2>&1 | grep -v '^Note:' || true
java -cp "$work/classes:$guava" Bench
