// Stand-in for SUPSI's ch.supsi.dti.isin.hashfunction.HashFunction for the timing run
// (tools/supsi-bench.sh): every hash is hash4j's XXH3-64, the hash hashring-lab's bucket
// algorithms use, so both sides pay for the same hash and differ only in the algorithm.
package ch.supsi.dti.isin.hashfunction;

import com.dynatrace.hash4j.hashing.Hasher64;
import com.dynatrace.hash4j.hashing.Hashing;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

public interface HashFunction {
  Hasher64 XXH3 = Hashing.xxh3_64();

  default long hash(byte[] bytes) {
    return XXH3.hashBytesToLong(bytes);
  }

  default long hash(String key) {
    return hash(key.getBytes(StandardCharsets.UTF_8));
  }

  default long hash(String key, int seed) {
    if (seed == 0) return hash(key);
    byte[] b = key.getBytes(StandardCharsets.UTF_8);
    return hash(ByteBuffer.allocate(b.length + 4).put(b).putInt(seed).array());
  }

  default long hash(long key, int seed) {
    return hash(ByteBuffer.allocate(12).putLong(key).putInt(seed).array());
  }

  default long hash(long key, int index, int seed) {
    return hash(ByteBuffer.allocate(16).putLong(key).putInt(index).putInt(seed).array());
  }
}
