package dev.tiprobe.jmh;

import bench.target.Allocating;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;

/**
 * Throughput of an allocating workload on two threads while a profiler samples allocations, each
 * profiler in forks of its own, all in one run: none; tiprobe {@code alloc=512k} under its default
 * overhead budget (2 %: at this workload's ~12 GB/s it raises the interval to a few MiB), with
 * {@code live}, and without a budget ({@code allocoverhead=0}: every sample at 512 KiB, what one
 * sample costs); async-profiler {@code alloc=512k}; JFR's {@code jdk.ObjectAllocationSample} at its
 * profile setting (300 a second, {@code jmh/jfr/alloc.jfc}). The loss against the first row is the
 * cost of allocation profiling.
 *
 * <p>How to run, from the repository root (agent paths are relative to it): {@code java -jar
 * jmh/target/benchmarks.jar AllocBench -jvmArgsPrepend --sun-misc-unsafe-memory-access=allow}.
 */
public class AllocBench extends ProfiledThroughput {
    static final String TIPROBE = Peers.TIPROBE_AGENT + "file=jmh/target/alloc-%p.tpr,alloc=512k";
    static final String ASYNC_PROFILER = Peers.ASYNC_PROFILER_AGENT + "start,alloc=512k,"
            + "file=jmh/target/alloc-ap-%p.jfr";
    static final String JFR = "-XX:StartFlightRecording:settings=jmh/jfr/alloc.jfc,filename=jmh/target/alloc-%p.jfr";

    @Benchmark
    @Fork(value = 1)
    public long none() {
        return seed = Allocating.round(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {Peers.NATIVE, TIPROBE})
    public long tiprobeAlloc() {
        return seed = Allocating.round(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {Peers.NATIVE, TIPROBE + ",live"})
    public long tiprobeAllocLive() {
        return seed = Allocating.round(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {Peers.NATIVE, TIPROBE + ",allocoverhead=0"})
    public long tiprobeAllocNoBudget() {
        return seed = Allocating.round(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = ASYNC_PROFILER)
    public long asyncProfilerAlloc() {
        return seed = Allocating.round(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = JFR)
    public long jfrAllocationSample() {
        return seed = Allocating.round(seed);
    }
}
