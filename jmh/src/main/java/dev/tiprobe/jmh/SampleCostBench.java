package dev.tiprobe.jmh;

import dev.tiprobe.jvmti.Jvmti;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What one sample costs: GetAllStackTraces with 8, 64 or 512 extra threads parked a few calls
 * deep, asking for 64 frames a thread or for the sampler's default of 2048 (JVMTI allocates room
 * for that many frames per thread on every walk). The walk runs at a safepoint, so this is also about how long every
 * thread of the JVM stands still per sample.
 *
 * <p>How to run: {@code java -jar jmh/target/benchmarks.jar SampleCostBench}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class SampleCostBench {
    @Param({"8", "64", "512"})
    int threads;

    @Param({"64", "2049"})
    int frames;

    private Jvmti jvmti;
    private final List<Thread> parked = new ArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);

    @Setup(Level.Trial)
    public void setUp() throws InterruptedException {
        jvmti = Jvmti.get();
        CountDownLatch ready = new CountDownLatch(threads);
        for (int i = 0; i < threads; i++) {
            parked.add(Thread.ofPlatform().daemon().start(() -> deep(10, ready)));
        }
        ready.await();
    }

    private void deep(int depth, CountDownLatch ready) {
        if (depth > 0) {
            deep(depth - 1, ready);
            return;
        }
        ready.countDown();
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        release.countDown();
        for (Thread t : parked) t.join();
    }

    @Benchmark
    public int allStackTraces() {
        return jvmti.allStackTraces(frames).size();
    }
}
