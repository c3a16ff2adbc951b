// Stand-in for SUPSI's ch.supsi.dti.isin.hashfunction.HashFunction, used only to print
// reference vectors (tools/supsi-vectors.sh): a key is its own 64-bit digest written in
// decimal, and seeded hashes are hashring-lab's rehash (src/engine/jump.rs), so the
// authors' engines run on exactly the numbers our transcriptions see.
package ch.supsi.dti.isin.hashfunction;

public interface HashFunction {
  static long splitmix64(long x) {
    x += 0x9E3779B97F4A7C15L;
    x = (x ^ (x >>> 30)) * 0xBF58476D1CE4E5B9L;
    x = (x ^ (x >>> 27)) * 0x94D049BB133111EBL;
    return x ^ (x >>> 31);
  }

  static long rehash(long value, int seed) {
    return splitmix64(value ^ ((long) seed << 32));
  }

  default long hash(String key) {
    return Long.parseUnsignedLong(key);
  }

  // Memento takes Math.abs of this; hashring-lab keeps the top 63 bits instead.
  default long hash(String key, int seed) {
    return rehash(hash(key), seed) >>> 1;
  }

  default long hash(long key, int seed) {
    return rehash(key, seed);
  }
}
