package dev.tiprobe.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/** What to trace, shared by collect, start and run. */
final class TraceOptions {
    enum Mode { COUNT, TIME, TRACE }

    @Option(names = "--trace", required = true, paramLabel = "<filter>",
            description = "Methods to trace: patterns separated by ';', e.g. 'com.foo.**;!com.foo.internal.**', 'com.foo.Bar::get*', '@org.example.Timed'.")
    String filter;

    @Option(names = "--mode", paramLabel = "count|time|trace", description = "count (default), time, or trace (every call with arguments).")
    Mode mode;

    @Option(names = "--args", description = "Capture arguments and return values (trace mode).")
    boolean args;

    @Option(names = {"-f", "--file"}, paramLabel = "<file>", defaultValue = "tiprobe-%p-%t.json",
            description = "Results file (JSON); %%p is the pid, %%t a timestamp. Default: ${DEFAULT-VALUE}.")
    String file;

    Mode mode() {
        return mode != null ? mode : args ? Mode.TRACE : Mode.COUNT;
    }

    /** The agent's options for these settings; commas are the agent's separators. */
    String agentOptions(Path output) throws CliException {
        if (filter.contains(",")) throw new CliException("a filter cannot contain ',': separate patterns with ';'");
        if (output.toString().contains(",")) throw new CliException("the results file name cannot contain ','");
        return "trace=" + filter + ",mode=" + mode().name().toLowerCase() + ",file=" + output;
    }
}
