// Regenerates tests/reference/jumpback-splitmix64.txt from the paper's reference code
// (hash4j, https://github.com/dynatrace-oss/hash4j): put this file in hash4j's package
// com.dynatrace.hash4j.consistent, compile it with hash4j's sources (javac), and run it.
// Each line: the 64-bit hash (unsigned), the number of buckets, the bucket.
package com.dynatrace.hash4j.consistent;

public class JumpBackVectors {
  public static void main(String[] args) {
    ConsistentBucketHasher h = ConsistentJumpBackBucketHasherSplitMix64.get();
    long[] hashes = {0L, 1L, 42L, 0xDEAD10CCL, -1L, 0x123456789abcdefL, Long.MIN_VALUE, 0x9e3779b97f4a7c15L};
    int[] buckets = {1, 2, 3, 7, 10, 57, 100, 666, 1024, 1000000, Integer.MAX_VALUE};
    for (long hash : hashes)
      for (int n : buckets)
        System.out.println(Long.toUnsignedString(hash) + " " + n + " " + h.getBucket(hash, n));
  }
}
