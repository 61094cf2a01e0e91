package dev.tiprobe.jmh;

import dev.tiprobe.ids.ClassToken;
import dev.tiprobe.ids.IdMap;
import dev.tiprobe.ids.LoaderRef;
import dev.tiprobe.ids.MethodToken;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The other directions of the ID map, at 65,536 methods in 4,096 classes: a token back to its live
 * jmethodID (reverse lookup, answered from the map, never by loading), and a jmethodID to its human
 * name (forward lookup plus the per-token name cache).
 *
 * <p>How to run: {@code $JAVA_HOME/bin/java -jar jmh/target/benchmarks.jar IdMapNamesBench -prof gc}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class IdMapNamesBench {
    static final int CLASSES = 4096;
    static final int METHODS_PER_CLASS = 16;
    static final int BATCH = 1024;

    private final IdMap map = new IdMap();
    private long[] ids;
    private MethodToken[] tokens;
    private int cursor;

    @Setup
    public void setUp() {
        int n = CLASSES * METHODS_PER_CLASS;
        long[] all = new long[n];
        MethodToken[] allTokens = new MethodToken[n];
        for (int c = 0; c < CLASSES; c++) {
            ClassToken cls = new ClassToken("com.example.service.Class" + c, LoaderRef.APP, null, null, "file:/srv/app.jar");
            long tag = c + 1;
            map.addClass(tag, cls);
            for (int m = 0; m < METHODS_PER_CLASS; m++) {
                int i = c * METHODS_PER_CLASS + m;
                all[i] = IdMapBench.pointerKey(i);
                allTokens[i] = new MethodToken(cls, "method" + m, "(Ljava/lang/String;I)Ljava/util/List;",
                        "(Ljava/lang/String;I)Ljava/util/List<Ljava/math/BigDecimal;>;", 1, new int[] {0, 10 + m});
                map.addMethod(all[i], tag, allTokens[i]);
            }
        }
        SplittableRandom random = new SplittableRandom(1);
        ids = new long[BATCH * 16];
        tokens = new MethodToken[BATCH * 16];
        for (int i = 0; i < ids.length; i++) {
            int pick = random.nextInt(n);
            ids[i] = all[pick];
            tokens[i] = allTokens[pick];
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long reverseTokenToId() {
        long sum = 0;
        int start = (cursor = (cursor + BATCH) & (tokens.length - 1));
        for (int i = start; i < start + BATCH; i++) sum += map.methodsFor(tokens[i]).getFirst().methodId();
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int idToHumanName() {
        int length = 0;
        int start = (cursor = (cursor + BATCH) & (ids.length - 1));
        for (int i = start; i < start + BATCH; i++) length += map.humanName(map.method(ids[i]).tokenId()).length();
        return length;
    }
}
