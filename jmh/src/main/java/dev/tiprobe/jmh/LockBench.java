package dev.tiprobe.jmh;

import bench.target.Contended;
import bench.target.ContendedLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;

/**
 * Throughput of a contended workload (two threads taking turns in one monitor) while a profiler
 * watches monitor waits of 10 ms or more, each profiler in forks of its own, all in one run: none;
 * tiprobe {@code lock=10ms}; async-profiler {@code lock=10ms}; JFR's {@code jdk.JavaMonitorEnter}
 * at a 10 ms threshold ({@code jmh/jfr/lock.jfc}). No wait is long enough to be recorded, so the
 * loss against the first row is what watching costs: async-profiler's JVMTI events are raised at
 * every contended entry; tiprobe reads JFR's events, and turns JVMTI's on only while long
 * contentions want their owners named (never here). The {@code reentrant} rows take the same
 * turns in a {@code ReentrantLock} and record its parks: every one (threshold 0) or those of 1 ms
 * and more, tiprobe from JFR's {@code jdk.ThreadPark}, async-profiler from its own hook.
 *
 * <p>How to run, from the repository root: {@code java -jar jmh/target/benchmarks.jar LockBench
 * -jvmArgsPrepend --sun-misc-unsafe-memory-access=allow}.
 */
public class LockBench extends ProfiledThroughput {
    static final String TIPROBE = Peers.TIPROBE_AGENT + "file=jmh/target/lock-%p.tpr,lock=10ms";
    static final String ASYNC_PROFILER = Peers.ASYNC_PROFILER_AGENT + "start,lock=10ms,"
            + "file=jmh/target/lock-ap-%p.jfr";
    static final String JFR = "-XX:StartFlightRecording:settings=jmh/jfr/lock.jfc,filename=jmh/target/lock-%p.jfr";

    @Benchmark
    @Fork(value = 1)
    public long none() {
        return seed = Contended.round(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {Peers.NATIVE, TIPROBE})
    public long tiprobeLock() {
        return seed = Contended.round(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = ASYNC_PROFILER)
    public long asyncProfilerLock() {
        return seed = Contended.round(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = JFR)
    public long jfrMonitorEnter() {
        return seed = Contended.round(seed);
    }

    // The same turns taken in a ReentrantLock, recording every park (threshold 0) or those of 1 ms and more.

    @Benchmark
    @Fork(value = 1)
    public long reentrantNone() {
        return seed = ContendedLock.round(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {Peers.NATIVE, Peers.TIPROBE_AGENT + "file=jmh/target/rlock0-%p.tpr,lock=0"})
    public long reentrantTiprobe0() {
        return seed = ContendedLock.round(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {Peers.NATIVE, Peers.TIPROBE_AGENT + "file=jmh/target/rlock1-%p.tpr,lock=1ms"})
    public long reentrantTiprobe1ms() {
        return seed = ContendedLock.round(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = Peers.ASYNC_PROFILER_AGENT + "start,lock=0,file=jmh/target/rlock0-ap-%p.jfr")
    public long reentrantAsyncProfiler0() {
        return seed = ContendedLock.round(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = Peers.ASYNC_PROFILER_AGENT + "start,lock=1ms,file=jmh/target/rlock1-ap-%p.jfr")
    public long reentrantAsyncProfiler1ms() {
        return seed = ContendedLock.round(seed);
    }
}
