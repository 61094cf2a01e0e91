package dev.tiprobe.cli;

import dev.tiprobe.filter.MethodFilter;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** What to trace, shared by collect, start and run. */
final class TraceOptions {
    enum Mode { COUNT, TIME, TRACE }

    @Option(names = "--trace", paramLabel = "<filter>",
            description = "Methods to trace: patterns separated by ';', e.g. 'com.foo.**;!com.foo.internal.**', 'com.foo.Bar::get*', '@org.example.Timed'.")
    String filter;

    @Option(names = "--mode", paramLabel = "count|time|trace", description = "count (default), time, or trace (every call with arguments).")
    Mode mode;

    @Option(names = "--args", description = "Capture arguments and return values (trace mode).")
    boolean args;

    @Option(names = "--max-calls", paramLabel = "<n>",
            description = "Trace mode: calls kept, a sample spread over the whole session plus each method's first call (default 100000).")
    Integer maxCalls;

    @Option(names = "--calls-per-second", paramLabel = "<n>", description = "Trace mode: the most calls recorded a second, 0 for no cap (default 10000).")
    Long callsPerSecond;

    @Option(names = "--one-in", paramLabel = "<n>", description = "Trace mode: record one call in n on each thread (default 1: every call).")
    Integer oneIn;

    @Option(names = "--max-string", paramLabel = "<chars>", description = "Trace mode: strings captured up to this many characters (default 100).")
    Integer maxString;

    @Option(names = "--max-elements", paramLabel = "<n>", description = "Trace mode: array elements captured (default 8).")
    Integer maxElements;

    @Option(names = "--tostring", description = "Trace mode: describe other objects by their toString() (runs the application's code).")
    boolean callToString;

    @Option(names = "--overhead", paramLabel = "<percent>",
            description = "The most tracing may add, in percent of the program's CPU (default 5): above it the hottest methods lose their probes, keeping their counts so far. 0: no limit.")
    String overhead;

    @Option(names = "--sample", paramLabel = "<interval>", description = "Sample all threads' stacks every <interval> (10ms, 1s): a recording for flame graphs.")
    String sample;

    @Option(names = "--sample-mode", paramLabel = "wall|cpu", description = "wall (default): every thread; cpu: threads that used CPU, weighted by it.")
    SampleMode sampleMode;

    enum SampleMode { WALL, CPU }

    @Option(names = "--sample-threads", paramLabel = "<glob>",
            description = "Sample only threads whose names match: globs separated by ';', e.g. 'worker-*;main'.")
    String sampleThreads;

    @Option(names = {"-f", "--file"}, paramLabel = "<file>", defaultValue = "tiprobe-%p-%t.json",
            description = "Results file (JSON); %%p is the pid, %%t a timestamp. Default: ${DEFAULT-VALUE}.")
    String file;

    Mode mode() {
        return mode != null ? mode : args ? Mode.TRACE : Mode.COUNT;
    }

    /** The trace-mode limits given, as agent options; a usage error when given outside trace mode. */
    private String traceLimits() throws CliException {
        StringBuilder b = new StringBuilder();
        limit(b, "maxcalls", "--max-calls", maxCalls);
        limit(b, "rate", "--calls-per-second", callsPerSecond);
        limit(b, "sample", "--one-in", oneIn);
        limit(b, "maxstring", "--max-string", maxString);
        limit(b, "maxelements", "--max-elements", maxElements);
        if (callToString) b.append(",tostring");
        if (!b.isEmpty() && mode() != Mode.TRACE) {
            throw new UsageException("the trace limits (--max-calls, --calls-per-second, --one-in, --max-string, --max-elements,"
                    + " --tostring) need --mode trace");
        }
        return b.toString();
    }

    private static void limit(StringBuilder b, String agentKey, String flag, Number value) throws CliException {
        if (value == null) return;
        if (value.longValue() < 0) throw new UsageException(flag + " must not be negative: " + value);
        b.append(',').append(agentKey).append('=').append(value);
    }

    /** The agent's options for these settings; commas are the agent's separators. */
    String agentOptions(Path output) throws CliException {
        if (filter == null && sample == null) throw new CliException("say what to collect: --trace <filter>, --sample <interval>, or both");
        if (output.toString().contains(",")) throw new CliException("the results file name cannot contain ','");
        if (sample == null && sampleThreads != null) throw new CliException("--sample-threads needs --sample");
        if (sample == null && (file.endsWith(".html") || file.endsWith(".collapsed"))) {
            throw new CliException("-f " + file + " needs --sample: flame graphs are drawn from stack samples");
        }
        StringBuilder b = new StringBuilder("file=" + output);
        if (filter != null) {
            if (filter.contains(",")) throw new UsageException("a filter cannot contain ',': separate patterns with ';'");
            try {
                MethodFilter.parse(filter);  // checked here, before any process is touched
            } catch (MethodFilter.FilterSyntaxException e) {
                throw new UsageException(e.getMessage());
            }
            b.append(",trace=").append(filter).append(",mode=").append(mode().name().toLowerCase());
            b.append(traceLimits());
            if (overhead != null) b.append(",overhead=").append(overhead.strip());
        }
        if (sample != null) {
            b.append(",interval=").append(sample.strip().toLowerCase());
            if (sampleMode != null) b.append(",samplemode=").append(sampleMode.name().toLowerCase());
            if (sampleThreads != null) {
                if (sampleThreads.contains(",")) throw new CliException("--sample-threads cannot contain ',': separate globs with ';'");
                b.append(",threads=").append(sampleThreads);
            }
        }
        return b.toString();
    }
}
