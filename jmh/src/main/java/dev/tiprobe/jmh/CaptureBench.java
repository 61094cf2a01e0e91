package dev.tiprobe.jmh;

import bench.target.Work;
import dev.tiprobe.probe.Captured;
import dev.tiprobe.probe.TraceSettings;
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
 * What trace mode spends capturing one argument of a recorded call: an object of five fields
 * ({@code Work.Order}) shown by its fields, against the same call's String argument, and the
 * object shown by class and identity only ({@code maxdepth=0}). The probe runs in process, from
 * the boot class path as the agent puts it there. In EnterPathBench a recorded call's capture is
 * hidden: past the kept-calls buffer most calls are dropped before any capture.
 *
 * <p>How to run, from the repository root: {@code java -jar jmh/target/benchmarks.jar CaptureBench}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = "-Xbootclasspath/a:modules/agent/target/tiprobe-probe.jar")
public class CaptureBench {
    static final TraceSettings FIELDS = new TraceSettings(true, 0, 1, 100, 8, false, 1, 8, 0);
    static final TraceSettings IDENTITY = new TraceSettings(true, 0, 1, 100, 8, false, 0, 8, 0);

    Work.Order order = new Work.Order(5, "c-3", 3, 12.5, true);
    String text = "tiprobe";

    @Benchmark
    public Object objectByFields() {
        return Captured.of(order, FIELDS);
    }

    @Benchmark
    public Object objectByIdentity() {
        return Captured.of(order, IDENTITY);
    }

    @Benchmark
    public Object string() {
        return Captured.of(text, FIELDS);
    }
}
