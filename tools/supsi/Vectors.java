// Prints reference vectors from the SUPSI engines (tools/supsi-vectors.sh). Each file
// replays "new N", "remove B", "restore B" and prints "KEY BUCKET" lines.
import ch.supsi.dti.isin.consistenthash.BucketBasedEngine;
import ch.supsi.dti.isin.consistenthash.dx.DxEngine;
import ch.supsi.dti.isin.consistenthash.memento.MementoEngine;
import ch.supsi.dti.isin.consistenthash.power.PowerEngine;
import ch.supsi.dti.isin.hashfunction.HashFunction;

public class Vectors {
  static final long[] KEYS = {0L, 1L, 42L, 0xDEAD10CCL, -1L, 0x123456789abcdefL, Long.MIN_VALUE,
      0x9e3779b97f4a7c15L, 7L, 1000003L, 0xfeedfacecafebeefL, 123456789L};
  static final HashFunction H = new HashFunction() {};

  static void keys(BucketBasedEngine e) {
    for (long k : KEYS) {
      String key = Long.toUnsignedString(k);
      System.out.println(key + " " + e.getBucket(key));
    }
  }

  public static void main(String[] a) {
    switch (a[0]) {
      case "memento": {
        System.out.println("# buckets printed by the authors' MementoEngine");
        System.out.println("new 10");
        MementoEngine m = new MementoEngine(10, H);
        keys(m);
        for (int b : new int[] {9, 3, 7, 0, 5}) {
          m.removeBucket(b);
          System.out.println("remove " + b);
          keys(m);
        }
        for (int i = 0; i < 4; i++) {
          System.out.println("restore " + m.addBucket());
          keys(m);
        }
        System.out.println("new 1000");
        MementoEngine big = new MementoEngine(1000, H);
        for (int b = 0; b < 900; b += 3) big.removeBucket(b);
        for (int b = 0; b < 900; b += 3) System.out.println("remove " + b);
        keys(big);
        break;
      }
      case "dx": {
        System.out.println("# buckets printed by SUPSI's DxEngine (java.util.Random)");
        System.out.println("new 10 16");
        DxEngine d = new DxEngine(10, 16, H);
        keys(d);
        for (int b : new int[] {3, 7, 0}) {
          d.removeBucket(b);
          System.out.println("remove " + b);
          keys(d);
        }
        System.out.println("restore " + d.addBucket());
        keys(d);
        System.out.println("restore " + d.addBucket());
        keys(d);
        break;
      }
      case "power": {
        System.out.println("# buckets printed by SUPSI's PowerEngine");
        for (int n : new int[] {1, 2, 3, 4, 5, 7, 8, 9, 10, 57, 100, 666, 1024, 1025, 100000}) {
          System.out.println("new " + n);
          keys(new PowerEngine(n, H));
        }
        break;
      }
      default:
        throw new IllegalArgumentException(a[0]);
    }
  }
}
