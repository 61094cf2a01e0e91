package dev.tiprobe.cli;

import dev.tiprobe.options.AgentOptions.TraceLimits;
import dev.tiprobe.options.Setting;

import picocli.CommandLine.Option;

/** How much of a captured value is kept: the flags that trace mode and {@code watch} share. */
final class ValueLimits {
    @Option(names = "--max-string", paramLabel = "<chars>",
            description = "Trace mode and watch: strings captured up to this many characters (default " + TraceLimits.DEFAULT_MAX_STRING
                    + "); watch's --where compares what was captured.")
    Integer maxString;

    @Option(names = "--max-elements", paramLabel = "<n>",
            description = "Trace mode and watch: array elements captured, and read by --where (default " + TraceLimits.DEFAULT_MAX_ELEMENTS + ").")
    Integer maxElements;

    @Option(names = "--max-depth", paramLabel = "<n>",
            description = "Trace mode and watch: how deep objects are shown by their fields, read without running the application's code"
                    + " (default " + TraceLimits.DEFAULT_MAX_DEPTH + ": an argument's own fields; 0: class and identity only).")
    Integer maxDepth;

    @Option(names = "--max-fields", paramLabel = "<n>",
            description = "Trace mode and watch: fields shown of one object, and read by --where (default " + TraceLimits.DEFAULT_MAX_FIELDS + ").")
    Integer maxFields;

    /** Adds the options of these flags that were given, each by its flag. */
    void given(java.util.Map<Setting, String> given) {
        TraceOptions.given(given, Setting.MAX_STRING, maxString);
        TraceOptions.given(given, Setting.MAX_ELEMENTS, maxElements);
        TraceOptions.given(given, Setting.MAX_DEPTH, maxDepth);
        TraceOptions.given(given, Setting.MAX_FIELDS, maxFields);
    }

    /** The limits with these values where given, the defaults elsewhere; a usage error for a negative one. */
    TraceLimits with(long perSecond, int everyNth, int maxCalls, boolean callToString, long minNanos) throws CliException {
        TraceLimits d = TraceLimits.DEFAULT;
        return new TraceLimits(perSecond, everyNth, maxCalls,
                (int) TraceOptions.notNegative("--max-string", maxString, d.maxString()),
                (int) TraceOptions.notNegative("--max-elements", maxElements, d.maxElements()),
                callToString,
                (int) TraceOptions.notNegative("--max-depth", maxDepth, d.maxDepth()),
                (int) TraceOptions.notNegative("--max-fields", maxFields, d.maxFields()),
                minNanos);
    }
}
