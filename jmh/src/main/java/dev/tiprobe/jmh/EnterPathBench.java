package dev.tiprobe.jmh;

import bench.target.Work;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * The cost a method tracer adds to each call of a small method, {@code Work.work(int)}, and of a
 * two-argument one, {@code Work.work2(int, String)}: each peer runs in forks of its own, all in one
 * run. tiprobe's agent jar in count, time and trace mode (trace with its default limits: 10,000
 * calls a second recorded with both arguments, the rest counted as dropped); JFR method timing
 * (JEP 520); async-profiler's method tracing; a C JVMTI agent with a MethodEntry callback.
 *
 * <p>How to run, from the repository root (the agent paths are relative to it):
 * {@code ./mvnw25 -pl jmh -am package -DskipTests && $JAVA_HOME/bin/java -jar
 * jmh/target/benchmarks.jar EnterPathBench}. The async-profiler row needs linux-x64.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class EnterPathBench {
    /** overhead=0: the budget would take the probes out of methods this hot within a second, and the rows would time nothing. */
    static final String TIPROBE = Peers.TIPROBE_AGENT + "trace=bench.target.Work::work*,overhead=0,file=jmh/target/enterpath-%p.json,mode=";
    /** Trace mode recording every call (no rate cap), for the object-argument rows. */
    static final String TIPROBE_RECORD_ALL = Peers.TIPROBE_AGENT + "trace=bench.target.Work::take*,"
            + "overhead=0,file=jmh/target/enterpath-take-%p.json,mode=trace,rate=0";
    static final String JFR = "-XX:StartFlightRecording:jdk.MethodTiming#filter=bench.target.Work::work;bench.target.Work::work2,filename=jmh/target/enterpath-%p.jfr";
    static final String ASYNC_PROFILER = Peers.ASYNC_PROFILER_AGENT + "start,trace=bench.target.Work.work*,file=jmh/target/enterpath-ap-%p.txt";
    static final String C_AGENT = "-agentpath:jmh/target/native/libmethodentry.so";

    int x;
    String s = "tiprobe";
    Work.Order order = new Work.Order(5, "c-3", 3, 12.5, true);

    @Benchmark
    @Fork(value = 1)
    public int baselineObject() {
        return Work.takeObject(order);
    }

    @Benchmark
    @Fork(value = 1)
    public int baselineString() {
        return Work.takeString(s);
    }

    /** Trace mode, every call recorded, its argument an object of five fields shown by its fields. */
    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {Peers.NATIVE, TIPROBE_RECORD_ALL})
    public int tiprobeTraceObject() {
        return Work.takeObject(order);
    }

    /** The same with a String argument: what reading the fields adds is the difference. */
    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {Peers.NATIVE, TIPROBE_RECORD_ALL})
    public int tiprobeTraceString() {
        return Work.takeString(s);
    }

    @Benchmark
    @Fork(value = 1)
    public int baseline1() {
        return Work.work(x++);
    }

    @Benchmark
    @Fork(value = 1)
    public int baseline2() {
        return Work.work2(x++, s);
    }

    /**
     * The counter time mode reads where it can, and a downcall that does nothing: the clock's own
     * cost. A class of their own, so only the forks of the two rows below map them.
     */
    static final class Clocks {
        static final java.lang.invoke.MethodHandle TSC = dev.tiprobe.jvmti.TimeStampCounter.reader().orElse(null);
        static final java.lang.invoke.MethodHandle EMPTY = dev.tiprobe.jvmti.TimeStampCounter.emptyFunction().orElse(null);
    }

    /** Two reads of the time-stamp counter through its downcall, as time mode makes them. */
    @Benchmark
    @Fork(value = 1, jvmArgsAppend = Peers.NATIVE)
    public long tscPair() throws Throwable {
        return (long) Clocks.TSC.invokeExact() - (long) Clocks.TSC.invokeExact();
    }

    /** Two downcalls of a function that returns at once: what is left is the read itself. */
    @Benchmark
    @Fork(value = 1, jvmArgsAppend = Peers.NATIVE)
    public long emptyDowncallPair() throws Throwable {
        return (long) Clocks.EMPTY.invokeExact() - (long) Clocks.EMPTY.invokeExact();
    }

    /** Two reads of the clock a Java timer has: the floor under any inclusive timing in Java. */
    @Benchmark
    @Fork(value = 1)
    public long nanoTimePair() {
        return System.nanoTime() - System.nanoTime();
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {Peers.NATIVE, TIPROBE + "count"})
    public int tiprobeCount1() {
        return Work.work(x++);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {Peers.NATIVE, TIPROBE + "count"})
    public int tiprobeCount2() {
        return Work.work2(x++, s);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {Peers.NATIVE, TIPROBE + "time"})
    public int tiprobeTime1() {
        return Work.work(x++);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {Peers.NATIVE, TIPROBE + "time"})
    public int tiprobeTime2() {
        return Work.work2(x++, s);
    }

    /** Time mode on System.nanoTime(), as before the time-stamp counter: the clock's share, side by side. */
    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {Peers.NATIVE, "-Dtiprobe.clock=nanotime", TIPROBE + "time"})
    public int tiprobeTimeNanoTime1() {
        return Work.work(x++);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {Peers.NATIVE, TIPROBE + "trace"})
    public int tiprobeTrace1() {
        return Work.work(x++);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {Peers.NATIVE, TIPROBE + "trace"})
    public int tiprobeTrace2() {
        return Work.work2(x++, s);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = JFR)
    public int jfrMethodTiming1() {
        return Work.work(x++);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = JFR)
    public int jfrMethodTiming2() {
        return Work.work2(x++, s);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = ASYNC_PROFILER)
    public int asyncProfilerTrace1() {
        return Work.work(x++);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = ASYNC_PROFILER)
    public int asyncProfilerTrace2() {
        return Work.work2(x++, s);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = C_AGENT)
    public int cMethodEntry1() {
        return Work.work(x++);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = C_AGENT)
    public int cMethodEntry2() {
        return Work.work2(x++, s);
    }
}
