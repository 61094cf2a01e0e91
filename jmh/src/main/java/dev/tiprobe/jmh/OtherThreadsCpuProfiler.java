package dev.tiprobe.jmh;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.List;

/**
 * The share of the forked JVM's CPU that went to threads other than the benchmark's, each
 * iteration ({@code -prof dev.tiprobe.jmh.OtherThreadsCpuProfiler}): a profiler's threads, JFR's,
 * and the JIT compiling their code. With every core busy that CPU is taken from the benchmark.
 *
 * <p>Why beside throughput: on this shared two-core machine a 2 s iteration of a busy benchmark
 * varies 10 to 20 % with the neighbours (work per CPU-millisecond moves as much, so it is not
 * stolen time but slower CPU), which hides a one-point cost. Which thread used the CPU does not
 * depend on how fast it ran: this share varies by a tenth of a point. It leaves out a profiler's
 * work inside the benchmark's threads (async-profiler's and JFR's CPU-time signal handlers),
 * which {@code ·ops/worker-cpu-ms} shows, as noisily as throughput.
 */
public final class OtherThreadsCpuProfiler implements InternalProfiler {
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private long processBefore;
    private long workersBefore;

    @Override
    public String getDescription() {
        return "the share of the JVM's CPU used by threads other than the benchmark's";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmark, IterationParams iteration) {
        processBefore = OS.getProcessCpuTime();
        workersBefore = workersCpu();
    }

    @Override
    @SuppressWarnings("rawtypes")  // JMH's interface names the raw type
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmark, IterationParams iteration,
                                                       IterationResult result) {
        long workers = workersCpu() - workersBefore;
        long process = OS.getProcessCpuTime() - processBefore;
        if (process <= 0 || workers <= 0) return List.of();
        return List.of(
                new ScalarResult("·other-cpu", 100.0 * (process - workers) / process, "%", AggregationPolicy.AVG),
                new ScalarResult("·ops/worker-cpu-ms", result.getMetadata().getMeasuredOps() / (workers / 1e6),
                        "ops/cpu-ms", AggregationPolicy.AVG));
    }

    /** The CPU time of JMH's worker threads, which run the benchmark method (threads of ended iterations stay counted out). */
    private static long workersCpu() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) root = root.getParent();
        Thread[] all = new Thread[root.activeCount() + 64];
        int n = root.enumerate(all, true);
        long sum = 0;
        for (int i = 0; i < n; i++) {
            if (all[i].getName().contains("jmh-worker")) sum += Math.max(0, THREADS.getThreadCpuTime(all[i].threadId()));
        }
        return sum;
    }
}
