// Times SUPSI's bucket engines (tools/supsi-bench.sh): lookups of 10,000 keys "key-0".."key-9999"
// at 10 / 100 / 1,000 / 10,000 buckets, after a warm-up, best of five one-second rounds.
// Prints "ALGO SERVERS NS_PER_LOOKUP".
import ch.supsi.dti.isin.consistenthash.BucketBasedEngine;
import ch.supsi.dti.isin.consistenthash.anchor.AnchorEngine;
import ch.supsi.dti.isin.consistenthash.binomial.BinomialEngine;
import ch.supsi.dti.isin.consistenthash.dx.DxEngine;
import ch.supsi.dti.isin.consistenthash.flip.FlipEngine;
import ch.supsi.dti.isin.consistenthash.jump.JumpEngine;
import ch.supsi.dti.isin.consistenthash.jumpback.JumpBackEngine;
import ch.supsi.dti.isin.consistenthash.memento.MementoEngine;
import ch.supsi.dti.isin.consistenthash.power.PowerEngine;
import ch.supsi.dti.isin.hashfunction.HashFunction;
import java.util.function.IntFunction;

public class Bench {
  static final HashFunction H = new HashFunction() {};
  static final String[] KEYS = new String[10_000];
  static long sink;

  static double nsPerLookup(BucketBasedEngine e) {
    double best = Double.MAX_VALUE;
    for (int round = 0; round < 6; round++) {
      long start = System.nanoTime();
      long lookups = 0;
      while (System.nanoTime() - start < 1_000_000_000L) {
        for (String k : KEYS) sink += e.getBucket(k);
        lookups += KEYS.length;
      }
      double ns = (System.nanoTime() - start) / (double) lookups;
      if (round > 0) best = Math.min(best, ns); // round 0 warms the JIT up
    }
    return best;
  }

  static void run(String name, IntFunction<BucketBasedEngine> make) {
    for (int n : new int[] {10, 100, 1000, 10000}) {
      System.out.printf("%s %d %.1f%n", name, n, nsPerLookup(make.apply(n)));
    }
  }

  public static void main(String[] a) {
    for (int i = 0; i < KEYS.length; i++) KEYS[i] = "key-" + i;
    run("jump", n -> new JumpEngine(n, H));
    run("jumpback", n -> new JumpBackEngine(n, H));
    run("binomial", n -> new BinomialEngine(n, H));
    run("flip", n -> new FlipEngine(n, H));
    run("power", n -> new PowerEngine(n, H));
    run("memento", n -> new MementoEngine(n, H));
    // Anchor and Dx with the capacity hashring-lab gives them: 100, or twice the servers.
    run("anchor", n -> new AnchorEngine(n, Math.max(100, 2 * n), H));
    run("dx", n -> new DxEngine(n, Math.max(100, 2 * n), H));
    System.err.println(sink);
  }
}
