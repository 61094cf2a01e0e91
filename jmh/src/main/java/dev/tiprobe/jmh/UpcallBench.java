package dev.tiprobe.jmh;

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

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The floor every tiprobe callback pays: one warmed FFM upcall round trip (C calls a Java
 * method through an upcall stub and gets its answer back), against the same C loop calling a C
 * function. Each invocation makes {@link #CALLS} calls from C, so the score is per call.
 *
 * <p>How to run: {@code ./mvnw25 -pl jmh -am package -DskipTests && $JAVA_HOME/bin/java -jar
 * jmh/target/benchmarks.jar UpcallBench} (gcc must be on PATH).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class UpcallBench {
    static final int CALLS = 1000;

    private CBaseline c;
    private MemorySegment javaIdentity;

    @Setup
    public void setUp() throws Throwable {
        c = CBaseline.load();
        javaIdentity = CBaseline.LINKER.upcallStub(
                MethodHandles.lookup().findStatic(UpcallBench.class, "identity", MethodType.methodType(long.class, long.class)),
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), Arena.global());
    }

    static long identity(long x) {
        return x;
    }

    @Benchmark
    @OperationsPerInvocation(CALLS)
    public long javaUpcall() throws Throwable {
        return (long) c.callNHandle.invokeExact(javaIdentity, (long) CALLS);
    }

    @Benchmark
    @OperationsPerInvocation(CALLS)
    public long cCallee() throws Throwable {
        return (long) c.callNHandle.invokeExact(c.cIdentity, (long) CALLS);
    }
}
