package dev.tiprobe.jmh;

import dev.tiprobe.ids.LongMap;
import it.unimi.dsi.fastutil.longs.Long2ObjectOpenHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.LongObjectHashMap;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.HashMap;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Lookups in tiprobe's {@link LongMap} against the maps a user would pick instead, in one run:
 * fastutil, Agrona, Eclipse Collections, HPPC, {@code HashMap<Long,...>} and
 * {@code ConcurrentHashMap<Long,...>}. Keys have the two shapes of jmethodID: pointers into
 * per-loader blocks (JDK 25: 8-byte slots, 64 to a block, blocks scattered) and counters (JDK 26).
 * {@code hit} and {@code miss} are independent random lookups over the whole map (throughput);
 * {@code chain} derives each key from the previous answer (latency: the next lookup cannot start
 * early).
 *
 * <p>How to run: {@code ./mvnw25 -pl jmh -am package -DskipTests && $JAVA_HOME/bin/java -jar
 * jmh/target/benchmarks.jar IdMapBench -prof gc}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "-Xmx4g")
public class IdMapBench {
    static final int BATCH = 1024;

    @Param({"1000", "65536", "1048576"})
    int size;

    @Param({"pointer", "counter"})
    String keys;

    @Param({"tiprobe", "fastutil", "agrona", "eclipse", "hppc", "hashmap", "chm"})
    String impl;

    /** A value that names the next key of the chain. */
    public static final class Node {
        final long next;

        Node(long next) {
            this.next = next;
        }
    }

    interface Lookup {
        Node get(long key);
    }

    private Lookup map;
    private long[] hitKeys;
    private long[] missKeys;
    private long chainStart;

    /** Slot {@code i % 64} of block {@code i / 64}; blocks sit at scattered 1 KiB-aligned addresses. */
    static long pointerKey(long i) {
        long block = i / 64;
        long base = 0x7f00_0000_0000L + ((block * 0x9E3779B97F4A7C15L) >>> 24 & 0xFFFF_FFFFL) * 1024;
        return base + (i % 64) * 8;
    }

    /** A present key, or a missing key of the same shape (another address range, or past the counter). */
    long key(long i, boolean present) {
        if (keys.equals("pointer")) return pointerKey(i) + (present ? 0 : 0x1000_0000_0000L);
        return present ? i + 1 : size + i + 1;
    }

    @Setup
    public void setUp() {
        long[] all = new long[size];
        for (int i = 0; i < size; i++) all[i] = key(i, true);
        // The chain visits every key once, in a random order.
        SplittableRandom random = new SplittableRandom(size);
        int[] order = new int[size];
        for (int i = 0; i < size; i++) order[i] = i;
        for (int i = size - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        Node[] nodes = new Node[size];
        for (int i = 0; i < size; i++) nodes[order[i]] = new Node(all[order[(i + 1) % size]]);
        chainStart = all[order[0]];
        map = fill(impl, all, nodes);
        // As many probe keys as entries (at least 16 batches): lookups range over the whole map
        // instead of a few thousand slots that would stay in the cache.
        int probes = Integer.highestOneBit(Math.max(size, BATCH * 16) * 2 - 1);
        hitKeys = new long[probes];
        missKeys = new long[probes];
        for (int i = 0; i < hitKeys.length; i++) {
            hitKeys[i] = all[random.nextInt(size)];
            missKeys[i] = key(random.nextInt(size), false);
        }
        for (long k : missKeys) if (map.get(k) != null) throw new IllegalStateException("a miss key hits");
    }

    private static Lookup fill(String impl, long[] keys, Node[] nodes) {
        switch (impl) {
            case "tiprobe": {
                LongMap<Node> m = new LongMap<>();
                for (int i = 0; i < keys.length; i++) m.put(keys[i], nodes[i]);
                return m::get;
            }
            case "fastutil": {
                Long2ObjectOpenHashMap<Node> m = new Long2ObjectOpenHashMap<>();
                for (int i = 0; i < keys.length; i++) m.put(keys[i], nodes[i]);
                return m::get;
            }
            case "agrona": {
                Long2ObjectHashMap<Node> m = new Long2ObjectHashMap<>();
                for (int i = 0; i < keys.length; i++) m.put(keys[i], nodes[i]);
                return m::get;
            }
            case "eclipse": {
                LongObjectHashMap<Node> m = new LongObjectHashMap<>();
                for (int i = 0; i < keys.length; i++) m.put(keys[i], nodes[i]);
                return m::get;
            }
            case "hppc": {
                com.carrotsearch.hppc.LongObjectHashMap<Node> m = new com.carrotsearch.hppc.LongObjectHashMap<>();
                for (int i = 0; i < keys.length; i++) m.put(keys[i], nodes[i]);
                return m::get;
            }
            case "hashmap": {
                HashMap<Long, Node> m = new HashMap<>();
                for (int i = 0; i < keys.length; i++) m.put(keys[i], nodes[i]);
                return m::get;
            }
            case "chm": {
                ConcurrentHashMap<Long, Node> m = new ConcurrentHashMap<>();
                for (int i = 0; i < keys.length; i++) m.put(keys[i], nodes[i]);
                return m::get;
            }
            default:
                throw new IllegalArgumentException(impl);
        }
    }

    private int cursor;

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long hit() {
        long sum = 0;
        int start = (cursor = (cursor + BATCH) & (hitKeys.length - 1));
        for (int i = start; i < start + BATCH; i++) sum += map.get(hitKeys[i]).next;
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int miss() {
        int found = 0;
        int start = (cursor = (cursor + BATCH) & (missKeys.length - 1));
        for (int i = start; i < start + BATCH; i++) if (map.get(missKeys[i]) != null) found++;
        return found;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long chain() {
        long k = chainStart;
        for (int i = 0; i < BATCH; i++) k = map.get(k).next;
        chainStart = k;
        return k;
    }
}
