package dev.tiprobe.jmh;

import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * How the benchmarks that compare profilers on a workload run (JMH takes a benchmark class's
 * settings from its superclasses): the workload's throughput on two threads, each profiler in forks
 * of its own, each row a round of the workload from {@link #seed}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Threads(2)
public abstract class ProfiledThroughput {
    /** Where each round of the workload starts; its result is kept, so no round is optimised away. */
    long seed = 42;
}
