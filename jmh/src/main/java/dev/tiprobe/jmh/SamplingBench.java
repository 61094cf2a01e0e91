package dev.tiprobe.jmh;

import bench.target.Busy;
import bench.target.Spin;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Throughput of a CPU-bound workload on two threads while a profiler samples every 10 ms, each
 * profiler in forks of its own, all in one run: none; tiprobe wall and cpu sampling; async-profiler
 * 4.6 itimer and wall; JFR with its profile settings (execution samples every 10 ms, and the
 * profile's other events); JFR with execution samples every 10 ms alone, what tiprobe asks of JFR
 * off Linux or beside another profiler holding SIGPROF; JFR with CPU-time samples every 10 ms of a
 * thread's CPU alone, what tiprobe's cpu and wall modes ask of JFR on Linux: the difference between
 * such a row and tiprobe's is tiprobe's own cost. The loss
 * against the first row is the cost of sampling. The loop rows profile continuously, a file a
 * second (tiprobe {@code loop=1s,keep=3}, async-profiler {@code loop=1s}): against the rows without a
 * loop, the cost of finishing one recording and beginning the next every period. {@code parked}
 * threads wait in the background (500: a server's pool), which wall mode must not pay for at
 * every sample.
 *
 * <p>How to run, from the repository root (agent paths are relative to it): {@code java -jar
 * jmh/target/benchmarks.jar SamplingBench -prof dev.tiprobe.jmh.OtherThreadsCpuProfiler
 * -jvmArgsPrepend --sun-misc-unsafe-memory-access=allow}; with {@code -p parked=500}, the rows with
 * 500 parked threads only. The profiler adds the share of the JVM's CPU its other threads took, which
 * ranks the rows where the machine's noise hides their throughput ({@link OtherThreadsCpuProfiler}).
 */
public class SamplingBench extends ProfiledThroughput {
    static final String TIPROBE = Peers.TIPROBE_AGENT + "file=jmh/target/sampling-%p.json,interval=10ms,samplemode=";
    static final String ASYNC_PROFILER = Peers.ASYNC_PROFILER_AGENT + "start,interval=10ms,file=jmh/target/sampling-ap-%p.jfr,event=";
    static final String TIPROBE_LOOP = Peers.TIPROBE_AGENT + "file=jmh/target/sampling-loop-%p-%t.tpr,"
            + "interval=10ms,samplemode=cpu,loop=1s,keep=3";
    static final String ASYNC_PROFILER_LOOP = Peers.ASYNC_PROFILER_AGENT + "start,interval=10ms,"
            + "event=itimer,loop=1s,file=jmh/target/sampling-ap-loop-%p-%t.jfr";
    static final String JFR = "-XX:StartFlightRecording:settings=profile,filename=jmh/target/sampling-%p.jfr";
    /** JFR asked for execution samples every 10 ms and nothing else: what tiprobe asks of it off Linux, or beside another SIGPROF profiler. */
    static final String JFR_SAMPLES = "-XX:StartFlightRecording:settings=none,+jdk.ExecutionSample#enabled=true,"
            + "+jdk.ExecutionSample#period=10ms,filename=jmh/target/sampling-samples-%p.jfr";
    /** JFR asked for what tiprobe asks of it on Linux, CPU-time samples every 10 ms of a thread's CPU, and nothing else. */
    static final String JFR_CPU_TIME_SAMPLES = "-XX:StartFlightRecording:settings=none,+jdk.CPUTimeSample#enabled=true,"
            + "+jdk.CPUTimeSample#throttle=10ms,filename=jmh/target/sampling-cpu-time-%p.jfr";

    /** Threads parked for the whole fork, beside the two busy ones. */
    @State(Scope.Benchmark)
    public static class Parked {
        @Param({"0", "500"})
        int parked;

        @Setup
        public void park() {
            Spin.park(parked);
        }
    }

    @Benchmark
    @Fork(value = 1)
    public long none(Parked parked) {
        return seed = Busy.outer(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {Peers.NATIVE, TIPROBE + "wall"})
    public long tiprobeWall(Parked parked) {
        return seed = Busy.outer(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {Peers.NATIVE, TIPROBE + "cpu"})
    public long tiprobeCpu(Parked parked) {
        return seed = Busy.outer(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {Peers.NATIVE, TIPROBE_LOOP})
    public long tiprobeCpuLoop(Parked parked) {
        return seed = Busy.outer(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = ASYNC_PROFILER + "itimer")
    public long asyncProfilerItimer(Parked parked) {
        return seed = Busy.outer(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = ASYNC_PROFILER + "wall")
    public long asyncProfilerWall(Parked parked) {
        return seed = Busy.outer(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = ASYNC_PROFILER_LOOP)
    public long asyncProfilerItimerLoop(Parked parked) {
        return seed = Busy.outer(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = JFR)
    public long jfrProfile(Parked parked) {
        return seed = Busy.outer(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = JFR_SAMPLES)
    public long jfrExecutionSamples(Parked parked) {
        return seed = Busy.outer(seed);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = JFR_CPU_TIME_SAMPLES)
    public long jfrCpuTimeSamples(Parked parked) {
        return seed = Busy.outer(seed);
    }
}
