package dev.tiprobe.cli;

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
            if (filter.contains(",")) throw new CliException("a filter cannot contain ',': separate patterns with ';'");
            b.append(",trace=").append(filter).append(",mode=").append(mode().name().toLowerCase());
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
