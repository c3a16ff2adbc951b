// Prints reference vectors computed by the seeds' own Java code (copied verbatim where
// possible). Regenerate with tools/reference-vectors.sh; the output is committed as
// tests/reference/vectors.txt and checked by tests/reference.rs.
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.*;

public class SeedVectors {
    // Seed 000: ConsistentHash.HashFunction.hash (MurmurHash64A, seed 0x1234ABCD).
    static int murmur(Object key) {
        ByteBuffer buf = ByteBuffer.wrap(key.toString().getBytes());
        int seed = 0x1234ABCD;
        ByteOrder byteOrder = buf.order();
        buf.order(ByteOrder.LITTLE_ENDIAN);
        long m = 0xc6a4a7935bd1e995L;
        int r = 47;
        long h = seed ^ (buf.remaining() * m);
        long k;
        while (buf.remaining() >= 8) {
            k = buf.getLong();
            k *= m; k ^= k >>> r; k *= m;
            h ^= k; h *= m;
        }
        if (buf.remaining() > 0) {
            ByteBuffer finish = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            finish.put(buf).rewind();
            h ^= finish.getLong();
            h *= m;
        }
        h ^= h >>> r; h *= m; h ^= h >>> r;
        buf.order(byteOrder);
        return (int) h;
    }

    // Seeds 001/003: Hutool HashUtil.fnvHash as printed in seed 003.
    static int fnv(String str) {
        final int p = 16777619;
        int hash = (int) 2166136261L;
        for (int i = 0; i < str.length(); i++)
            hash = (hash ^ str.charAt(i)) * p;
        hash += hash << 13;
        hash ^= hash >> 7;
        hash += hash << 3;
        hash ^= hash >> 17;
        hash += hash << 5;
        if (hash < 0)
            hash = Math.abs(hash);
        return hash;
    }

    // Seed 002: HashMap-style spread of String.hashCode.
    static int javaString(String str) {
        int h;
        return (str == null) ? 0 : (h = str.hashCode()) ^ (h >>> 16);
    }

    static <T> T lookup(TreeMap<Integer, T> circle, int hash) {
        SortedMap<Integer, T> tail = circle.tailMap(hash);
        return circle.get(tail.isEmpty() ? circle.firstKey() : tail.firstKey());
    }

    public static void main(String[] args) {
        String[] samples = {"", "a", "hello", "127.1.1.1#A0", "127.1.1.1#A199", "节点1999", "192.168.0.1", "0.123456789", "key-12345678901", "\uD83D\uDE00"};
        for (String s : samples) {
            System.out.println("hash\tmurmur64a-seed\t" + s + "\t" + Integer.toUnsignedString(murmur(s)));
            System.out.println("hash\tfnv-hutool\t" + s + "\t" + Integer.toUnsignedString(fnv(s)));
            System.out.println("hash\tjava-string\t" + s + "\t" + Integer.toUnsignedString(javaString(s)));
        }

        // Seed 001: 3 nodes x 1000 replicas, label node+i, keys 0..999, FNV.
        TreeMap<Integer, String> c1 = new TreeMap<>();
        for (String node : Arrays.asList("节点1", "节点2", "节点3"))
            for (int i = 0; i < 1000; i++) c1.put(fnv(node + i), node);
        Map<String, Integer> counts1 = new TreeMap<>();
        for (int i = 0; i < 1000; i++) counts1.merge(lookup(c1, fnv(Integer.toString(i))), 1, Integer::sum);
        for (Map.Entry<String, Integer> e : counts1.entrySet())
            System.out.println("seed001\t" + e.getKey() + "\t" + e.getValue());

        // Seed 002: four server IPs on a plain ring (no vnodes), four user ids.
        TreeMap<Integer, String> c2 = new TreeMap<>();
        for (String ip : new String[]{"192.168.0.1", "88.89.90.91", "77.78.79.80", "127.0.0.1"}) c2.put(javaString(ip), ip);
        for (String user : new String[]{"1241414", "42452356", "4214", "777789"})
            System.out.println("seed002\t" + user + "\t" + lookup(c2, javaString(user)));

        // Seed 003: 10 servers x 5 vnodes "server@i", FNV; deterministic keys instead of Math.random.
        TreeMap<Integer, String> c3 = new TreeMap<>();
        for (int s = 1; s <= 10; s++)
            for (int i = 0; i < 5; i++) c3.put(fnv("127.0.0." + s + "@" + i), "127.0.0." + s);
        Map<String, Integer> counts3 = new TreeMap<>();
        for (int n = 0; n < 100000; n++) counts3.merge(lookup(c3, fnv("k" + n)), 1, Integer::sum);
        for (Map.Entry<String, Integer> e : counts3.entrySet())
            System.out.println("seed003\t" + e.getKey() + "\t" + e.getValue());
    }
}
