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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The flags a user types become the settings the agent parses, unchanged; bad ones never leave the command. */
class TraceOptionsTest {
    @Command
    static final class Flags {
        @Mixin
        TraceOptions trace;
    }

    static TraceOptions flags(String... args) {
        Flags f = new Flags();
        new CommandLine(f).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args);  // as Main configures it
        return f.trace;
    }

    static final Path OUT = Path.of("/tmp/out-%p.json");

    @Test
    void theFlagsArriveAtTheAgentAsTyped() throws CliException {
        AgentOptions sent = flags("--trace", "com.foo.**;!com.foo.internal.**", "--mode", "trace", "--max-calls", "500",
                "--calls-per-second", "0", "--one-in", "3", "--max-string", "20", "--max-elements", "2", "--tostring", "--max-depth", "2", "--max-fields", "4",
                "--overhead", "2.5", "--sample", "20MS", "--sample-mode", "cpu", "--sample-threads", "worker-*;main").settings(OUT);
        AgentOptions received = AgentOptions.parse(sent.format());
        assertEquals(sent, received);
        assertEquals(TraceMode.TRACE, received.tracing().mode());
        assertEquals(new TraceLimits(0, 3, 500, 20, 2, true, 2, 4), received.tracing().limits());
        assertEquals(0.025, received.tracing().overheadBudget());
        assertEquals(Duration.ofMillis(20), received.sampling().interval());
        assertEquals(SampleMode.CPU, received.sampling().mode());
        assertEquals("worker-*;main", received.sampling().threads());
        assertEquals(Path.of("/tmp/out-42.json"), received.resultsFile(42), "%p is the agent's to fill in");
        assertEquals(Path.of("/tmp/out-42.tpr"), received.recordingFile(42));

        AgentOptions plain = AgentOptions.parse(flags("--trace", "a.*").settings(OUT).format());
        assertEquals(TraceMode.COUNT, plain.tracing().mode());
        assertEquals(AgentOptions.Tracing.DEFAULT_BUDGET, plain.tracing().overheadBudget());
        assertEquals(TraceMode.TRACE, flags("--trace", "a.*", "--args").settings(OUT).tracing().mode(), "--args means trace mode");
    }

    @Test
    void badFlagsAreUsageErrorsThatNameTheFlag() {
        assertEquals("--sample must be a positive duration with its unit, such as 10ms, 5s or 5m, not '0ms'", usage("--sample", "0ms"));
        assertEquals("--overhead must be a percentage such as 5 (0: no limit), not 'lots'", usage("--trace", "a.*", "--overhead", "lots"));
        assertEquals("--one-in must be at least 1: 0", usage("--trace", "a.*", "--mode", "trace", "--one-in", "0"));
        assertEquals("--max-calls must not be negative: -1", usage("--trace", "a.*", "--mode", "trace", "--max-calls", "-1"));
        assertEquals("a filter cannot contain ',': separate patterns with ';'", usage("--trace", "a.*,b.*"));
        assertEquals("missing method name after '::' at position 5 of 'a.b::'", usage("--trace", "a.b::"));
    }

    static String usage(String... args) {
        return assertThrows(UsageException.class, () -> flags(args).settings(OUT)).getMessage();
    }
}
