package dev.tiprobe.cli;

import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.options.AgentOptions.SampleMode;
import dev.tiprobe.options.AgentOptions.TraceLimits;
import dev.tiprobe.options.AgentOptions.TraceMode;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The flags a user types become the settings the agent parses, unchanged; bad ones never leave the command. */
class TraceOptionsTest {
    @Command
    static final class Flags {
        @Mixin
        TraceOptions trace;
    }

    static TraceOptions flags(String... args) {
        Flags f = new Flags();
        TableFlags.addTo(new CommandLine(f)).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args);  // as Main configures it
        return f.trace;
    }

    static final Path OUT = Path.of("/tmp/out-%p.json");

    @Test
    void theFlagsArriveAtTheAgentAsTyped() throws CliException {
        AgentOptions sent = flags("--trace", "com.foo.**;!com.foo.internal.**", "--mode", "trace", "--max-calls", "500",
                "--calls-per-second", "0", "--one-in", "3", "--max-string", "20", "--max-elements", "2", "--tostring", "--max-depth", "2", "--max-fields", "4",
                "--min-duration", "1500us", "--overhead", "2.5", "--sample", "20MS", "--sample-mode", "cpu", "--sample-threads", "worker-*;main").settings(OUT);
        AgentOptions received = AgentOptions.parse(sent.format());
        assertEquals(sent, received);
        assertEquals(TraceMode.TRACE, received.tracing().mode());
        TraceLimits limits = received.tracing().limits();
        assertEquals(List.of(0L, 3, 500, 20, 2, true, 2, 4, 1_500_000L), List.of(limits.perSecond(), limits.everyNth(), limits.maxCalls(),
                limits.maxString(), limits.maxElements(), limits.callToString(), limits.maxDepth(), limits.maxFields(), limits.minNanos()));
        assertEquals(0.025, received.tracing().overheadBudget());
        assertEquals(Duration.ofMillis(20), received.sampling().interval());
        assertEquals(SampleMode.CPU, received.sampling().mode());
        assertEquals("worker-*;main", received.sampling().threads());
        assertEquals(Path.of("/tmp/out-42.json"), received.resultsFile(42), "%p is the agent's to fill in");
        assertEquals(Path.of("/tmp/out-42.tpr"), received.recordingFile(42));

        AgentOptions plain = AgentOptions.parse(flags("--trace", "a.*").settings(OUT).format());
        assertEquals(TraceMode.COUNT, plain.tracing().mode());
        assertEquals(AgentOptions.Tracing.DEFAULT_BUDGET_PERCENT / 100.0, plain.tracing().overheadBudget());
        assertEquals(TraceMode.TRACE, flags("--trace", "a.*", "--args").settings(OUT).tracing().mode(), "--args means trace mode");
    }

    /** asprof's habit: nothing named is a CPU profile every 10 ms; a wait threshold of 0 and sub-ms intervals survive the trip to the agent. */
    @Test
    void nothingNamedIsACpuProfileAndEveryDurationArrivesAsTyped() throws CliException {
        TraceOptions none = flags();
        assertTrue(none.nothingNamed() && none.textToStdout(), "collect prints the top methods");
        AgentOptions cpu = AgentOptions.parse(none.settings(OUT).format());
        assertEquals(Duration.ofMillis(10), cpu.sampling().interval());
        assertEquals(SampleMode.CPU, cpu.sampling().mode());
        assertEquals(null, cpu.tracing());
        assertEquals(SampleMode.CPU, flags("--sample", "10ms").settings(OUT).sampling().mode(), "named sampling has the same default, cpu");
        assertEquals(SampleMode.CPU, AgentOptions.parse("interval=10ms").sampling().mode(), "and so has the agent's option");
        assertTrue(flags("--trace", "a.*").textToStdout(), "tracing with no file named prints its tables too");
        assertEquals(false, flags("--trace", "a.*", "-f", "t.json").textToStdout(), "a file named is written");

        assertEquals(Duration.ZERO, AgentOptions.parse(flags("--lock", "0").settings(OUT).format()).locks().threshold());
        assertEquals(Duration.ofNanos(1_500_000), AgentOptions.parse(flags("--sample", "1500us").settings(OUT).format()).sampling().interval());
        assertEquals("the sampling interval must be at least 1ms, not 250000ns", usage("--sample", "250us"));
    }

    /** asprof's -e and -i mean what --sample, --alloc and --lock mean. */
    @Test
    void asprofsEventsAndIntervalAreTiprobesFlags() throws CliException {
        AgentOptions cpuAlloc = AgentOptions.parse(flags("-e", "cpu,alloc", "-i", "5ms").settings(OUT).format());
        assertEquals(Duration.ofMillis(5), cpuAlloc.sampling().interval(), "-i goes to the first event");
        assertEquals(SampleMode.CPU, cpuAlloc.sampling().mode());
        assertEquals(512 * 1024, cpuAlloc.allocations().intervalBytes());
        assertEquals(null, cpuAlloc.locks());
        AgentOptions lock = AgentOptions.parse(flags("-e", "lock,wall", "-i", "1ms").settings(OUT).format());
        assertEquals(Duration.ofMillis(1), lock.locks().threshold());
        assertEquals(SampleMode.WALL, lock.sampling().mode());
        assertEquals(Duration.ofMillis(10), lock.sampling().interval());
        assertEquals(1 << 20, flags("--event", "alloc", "--interval", "1m", "--live").settings(OUT).allocations().intervalBytes());

        assertEquals("-e takes one of cpu and wall", usage("-e", "cpu,wall"));
        assertEquals("-e names cpu, wall, alloc or lock (several with ','), not 'gpu'", usage("-e", "cpu,gpu"));
        assertEquals("-e cpu and --sample both name the stack sampling: name it once", usage("-e", "cpu", "--sample", "10ms"));
        assertEquals("-e wall says the sampling mode: leave out --sample-mode", usage("-e", "wall", "--sample-mode", "cpu"));
        assertEquals("-e alloc and --alloc both name allocation profiling: name it once", usage("-e", "alloc", "--alloc", "1m"));
        assertEquals("-i sets the interval of -e's first event, or of the CPU profile when nothing else is named",
                usage("--alloc", "1m", "-i", "5ms"));
        AgentOptions beside = flags("-e", "cpu", "--alloc", "2m").settings(OUT);
        assertEquals(2 << 20, beside.allocations().intervalBytes(), "asprof's -e cpu --alloc 2m");
        assertEquals(SampleMode.CPU, beside.sampling().mode());
        AgentOptions fast = flags("-i", "1ms").settings(OUT);
        assertEquals(Duration.ofMillis(1), fast.sampling().interval(), "asprof's -i alone: the CPU profile's interval");
        assertEquals(SampleMode.CPU, fast.sampling().mode());
        assertEquals("--mode is for tracing: it needs --trace <filter>", usage("--mode", "time"));
        assertEquals("--args is for tracing: it needs --trace <filter>", usage("--args"));
        assertEquals("--sample-mode is for stack sampling: it needs --sample <interval> or -e cpu|wall", usage("--alloc", "1m", "--sample-mode", "wall"));
        assertEquals("-i must be a positive duration with its unit, such as 10ms, 5s or 5m, not '1000000'", usage("-e", "cpu", "-i", "1000000"));
    }

    /** Attached late, the hottest code is compiled again unless --no-recompile says not to. */
    @Test
    void recompilingIsOnByDefaultAndNoRecompileTurnsItOff() throws CliException {
        assertTrue(AgentOptions.parse(flags("-e", "cpu").settings(OUT).format()).sampling().recompile());
        assertFalse(AgentOptions.parse(flags("-e", "cpu", "--no-recompile").settings(OUT).format()).sampling().recompile());
        assertTrue(AgentOptions.parse(flags("-e", "cpu", "--recompile").settings(OUT).format()).sampling().recompile());
    }

    /** asprof's -j: the sampled stacks' depth reaches the agent; out of range, or without sampling, is a usage error. */
    @Test
    void theStackDepthIsAFlag() throws CliException {
        assertEquals(100, AgentOptions.parse(flags("-j", "100", "-e", "cpu").settings(OUT).format()).sampling().depth());
        assertEquals(4095, AgentOptions.parse(flags("--depth", "4095").settings(OUT).format()).sampling().depth(),
                "with nothing named, the CPU profile's");
        assertEquals("--depth must be 1 to 4095 frames, not '0'", usage("--sample", "10ms", "--depth", "0"));
        assertEquals("--depth must be 1 to 4095 frames, not '5000'", usage("--sample", "10ms", "-j", "5000"));
        assertEquals("--depth is for stack sampling: it needs --sample <interval> or -e cpu|wall", usage("--alloc", "512k", "-j", "10"));
    }

    @Test
    void badFlagsAreUsageErrorsThatNameTheFlag() {
        assertEquals("--sample must be a positive duration with its unit, such as 10ms, 5s or 5m, not '0ms'", usage("--sample", "0ms"));
        assertEquals("--overhead must be a percentage such as 5 (0: no limit), not 'lots'", usage("--trace", "a.*", "--overhead", "lots"));
        assertEquals("--one-in must be a whole number from 1, not '0'", usage("--trace", "a.*", "--mode", "trace", "--one-in", "0"));
        assertEquals("--max-calls must be a non-negative number, not '-1'", usage("--trace", "a.*", "--mode", "trace", "--max-calls", "-1"));
        assertEquals("--min-duration must be a positive duration with its unit, such as 10ms, 5s or 5m, not '10'",
                usage("--trace", "a.*", "--mode", "trace", "--min-duration", "10"));
        assertTrue(usage("--trace", "a.*", "--mode", "time", "--min-duration", "10ms").endsWith("--min-duration is for trace mode: it needs --trace <filter> and --mode trace"));
        assertEquals("a filter cannot contain ',' outside a parameter list: separate patterns with ';'", usage("--trace", "a.*,b.*"));
        assertEquals("missing ')' at position 16 of 'T::f(String, int'", usage("--trace", "T::f(String, int"));
        assertEquals("missing method name after '::' at position 5 of 'a.b::'", usage("--trace", "a.b::"));
        assertEquals("--sample-threads cannot contain ',': separate globs with ';'", usage("--sample", "10ms", "--sample-threads", "a,b"));
        assertEquals("-f t.collapsed needs --sample, --alloc or --lock: .collapsed and .pb.gz files hold only stacks"
                        + " (.json, .txt, .html or .jfr show traced methods)",
                assertThrows(UsageException.class, () -> flags("--trace", "a.*", "-f", "t.collapsed").settings(Path.of("/tmp/t.collapsed")))
                        .getMessage());
        assertEquals("the output's name cannot contain ','",
                assertThrows(UsageException.class, () -> flags("--sample", "10ms").settings(Path.of("/tmp/a,b.json"))).getMessage());
    }

    @Command
    static final class Looping {
        @Mixin
        TraceOptions trace;
        @Mixin
        LoopOptions loop;
    }

    /** The loop's flags are checked against the table as the others are. */
    @Test
    void keepWithoutALoopIsAUsageError() {
        Looping l = looping("--keep", "5");
        assertEquals("--keep is for a loop of recordings: it needs --loop <period>",
                assertThrows(UsageException.class, () -> l.trace.settings(OUT, l.loop)).getMessage());
    }

    /** A loop rotates profiles: the table says so, to the command as to the agent. */
    @Test
    void aLoopTakesProfilesOnly() throws CliException {
        Looping traced = looping("--loop", "60s", "--trace", "a.*", "--sample", "10ms");
        assertEquals("--loop is for rotating profiles: it needs --sample, --alloc or --lock, and no --trace",
                assertThrows(UsageException.class, () -> traced.trace.settings(Path.of("/tmp/x-%t.tpr"), traced.loop)).getMessage());
        Looping sampled = looping("--loop", "60s", "--sample", "10ms", "--keep", "5");
        assertEquals("a loop writes a file per period: put %t (the time) in the file's name, e.g. profiles/cpu-%t.pb.gz",
                assertThrows(UsageException.class, () -> sampled.trace.settings(Path.of("/tmp/x.tpr"), sampled.loop)).getMessage());
        AgentOptions.Loop loop = sampled.trace.settings(Path.of("/tmp/x-%t.tpr"), sampled.loop).loop();
        assertEquals(List.of(Duration.ofSeconds(60), 5), List.of(loop.period(), loop.keep()));
    }

    static Looping looping(String... args) {
        Looping l = new Looping();
        TableFlags.addTo(new CommandLine(l)).parseArgs(args);
        return l;
    }

    static String usage(String... args) {
        return assertThrows(UsageException.class, () -> flags(args).settings(OUT)).getMessage();
    }
}
