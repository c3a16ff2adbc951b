// Regenerates tests/reference/binomial.txt from BinomialEngine.java of the authors' repository
// (SUPSI-DTI-ISIN/java-consistent-hashing-algorithms): compile it with that file and a
// HashFunction whose hash(key) parses the key as an unsigned 64-bit number. Each line: the
// hash, the number of buckets, the bucket.
import ch.supsi.dti.isin.consistenthash.binomial.BinomialEngine;
import ch.supsi.dti.isin.hashfunction.HashFunction;
public class BinomialVectors {
  public static void main(String[] a) {
    HashFunction h = new HashFunction() {};
    long[] hashes = {0L, 1L, 42L, 0xDEAD10CCL, -1L, 0x123456789abcdefL, Long.MIN_VALUE, 0x9e3779b97f4a7c15L, 7L, 1000003L};
    int[] sizes = {1, 2, 3, 4, 5, 7, 8, 9, 10, 57, 100, 666, 1024, 1025, 100000};
    for (long x : hashes) for (int n : sizes) System.out.println(Long.toUnsignedString(x) + " " + n + " " + new BinomialEngine(n, h).getBucket(Long.toUnsignedString(x)));
  }
}
