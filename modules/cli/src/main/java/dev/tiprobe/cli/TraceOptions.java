package dev.tiprobe.cli;

import dev.tiprobe.report.Export;
import dev.tiprobe.filter.MethodFilter;
import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.options.AgentOptions.SampleMode;
import dev.tiprobe.options.AgentOptions.Sampling;
import dev.tiprobe.options.AgentOptions.TraceLimits;
import dev.tiprobe.options.AgentOptions.TraceMode;
import dev.tiprobe.options.Setting;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;

/** What to trace, shared by collect, start and run. */
final class TraceOptions {
    @Option(names = "--trace", paramLabel = "<filter>",
            description = "Methods to trace: patterns separated by ';', e.g. 'com.foo.**;!com.foo.internal.**', 'com.foo.Bar::get*', '@org.example.Timed'.")
    String filter;

    @Option(names = "--mode", paramLabel = "count|time|trace", description = "count (default), time, or trace (every call with arguments).")
    TraceMode mode;

    @Option(names = "--args", description = "Capture arguments and return values (trace mode).")
    boolean args;

    @Option(names = "--max-calls", paramLabel = "<n>",
            description = "Trace mode: calls kept, a sample spread over the whole session plus each method's first call (default " + TraceLimits.DEFAULT_MAX_CALLS + ").")
    Integer maxCalls;

    @Option(names = "--calls-per-second", paramLabel = "<n>", description = "Trace mode: the most calls recorded a second, 0 for no cap (default " + TraceLimits.DEFAULT_PER_SECOND + ").")
    Long callsPerSecond;

    @Option(names = "--one-in", paramLabel = "<n>", description = "Trace mode: record one call in n, at random (default " + TraceLimits.DEFAULT_EVERY_NTH + ": every call; each method's first call is always kept).")
    Integer oneIn;

    @Mixin
    ValueLimits values;

    @Option(names = "--tostring", description = "Trace mode: describe other objects by their toString() (runs the application's code).")
    boolean callToString;

    @Option(names = "--min-duration", paramLabel = "<duration>",
            description = "Trace mode: keep only calls that took at least this long (10ms, 500us), as async-profiler's --trace method:10ms;"
                    + " arguments are still captured at every call, and the rate cap and --max-calls apply to the calls kept.")
    String minDuration;

    @Option(names = "--overhead", paramLabel = "<percent>",
            description = "The most tracing may add, in percent of the program's CPU (default " + AgentOptions.Tracing.DEFAULT_BUDGET_PERCENT + "): above it the hottest methods lose their probes, keeping their counts so far. 0: no limit.")
    String overhead;

    @Option(names = "--sample", paramLabel = "<interval>", description = "Sample all threads' stacks every <interval> (10ms, 1s): a recording for flame graphs.")
    String sample;

    @Option(names = "--sample-mode", paramLabel = "wall|cpu", description = "cpu (default, as for -e cpu and for nothing named): threads that used CPU, weighted by it; wall: every thread.")
    SampleMode sampleMode;

    @Option(names = "--sample-threads", paramLabel = "<glob>",
            description = "Sample only threads whose names match: globs separated by ';', e.g. 'worker-*;main'.")
    String sampleThreads;

    @Option(names = {"-j", "--depth"}, paramLabel = "<frames>",
            description = "With sampling: the most frames kept of a stack, as asprof's -j (default " + Sampling.DEFAULT_DEPTH + "; 1 to " + MAX_DEPTH + "); deeper stacks"
                    + " are cut at the root and shown under [truncated]. JFR's samples keep at most JFR's own depth (64 attached, "
                    + Sampling.JFR_MAX_STACK_DEPTH + " under run); allocation and lock stacks at most " + Sampling.EVENT_DEPTH + ".")
    Integer depth;

    /** The deepest stack --depth takes: the recording's limit, less the [truncated] root. */
    static final int MAX_DEPTH = 4095;

    @Option(names = "--recompile", negatable = true, description = "With --sample, attached to a JVM that ran over 3 s: have HotSpot"
            + " compile the hottest classes again, so samples name the methods inlined into their loops (on by default; a class whose"
            + " loop runs throughout is left as compiled, and the report names it). --no-recompile leaves all code as compiled.")
    Boolean recompile;

    @Option(names = "--alloc", paramLabel = "<bytes>",
            description = "Profile allocations: a sample about every <bytes> a thread allocates (512k, 1m), with its class, size and stack.")
    String alloc;

    @Option(names = "--live", description = "With --alloc: keep only objects still alive when the recording ends (a leak finder).")
    boolean live;

    @Option(names = "--alloc-overhead", paramLabel = "<percent>",
            description = "With --alloc: the most sampling may cost, in percent of the program's CPU (default " + AgentOptions.Allocations.DEFAULT_BUDGET_PERCENT + "; 0: no limit)."
                    + " Above it the interval is raised, each sample weighing by the interval it was taken at.")
    String allocOverhead;

    @Option(names = "--lock", paramLabel = "<duration>",
            description = "Profile locks: waits of at least <duration> (1ms, 0) to enter a monitor or take a java.util.concurrent lock,"
                    + " and in Object.wait or parked for a condition, with the waiter's stack and, for a long one, the holder's.")
    String lock;

    @Option(names = "--max-memory", paramLabel = "<bytes>",
            description = "The most memory tiprobe's own tables may take in the target (64m); past it tracing instruments no new class,"
                    + " and if that is not enough the session stops itself, its recording finished (default "
                    + AgentOptions.AUTOMATIC_MAX_MEMORY_PERCENT + " %% of the max heap, at least " + AgentOptions.AUTOMATIC_MAX_MEMORY_MIN_MB + "m).")
    String maxMemory;

    @Option(names = {"-e", "--event"}, paramLabel = "<events>",
            description = "asprof's way to name what to collect: cpu or wall, alloc, lock, several with ',' (-e cpu,alloc);"
                    + " the same as --sample 10ms --sample-mode cpu|wall, --alloc 512k, --lock 10ms, which may come beside it.")
    String events;

    @Option(names = {"-i", "--interval"}, paramLabel = "<interval>",
            description = "The interval of -e's first event, or of the CPU profile when nothing is named, as asprof's -i"
                    + " (defaults: 10ms for cpu or wall, 512k for alloc, 10ms for lock).")
    String interval;

    @Option(names = {"-f", "--file"}, paramLabel = "<file>",
            description = "Output, by extension: .json, .txt, .html, .collapsed, .pb.gz (pprof), .jfr or .tpr; made from the recording"
                    + " the agent writes beside it (x.tpr for x.json). %%p is the pid, %%t a timestamp. Default:"
                    + " tiprobe-%%p-%%t.json; collect without --trace prints the top methods instead, as asprof does.")
    String file;

    /** What is collected where nothing is named, as asprof does: a CPU profile, a sample every 10 ms. */
    static final String DEFAULT_SAMPLE = "10ms";

    /** The output asked for with -f, or the default. */
    String file() {
        return file != null ? file : AgentOptions.DEFAULT_FILE;
    }

    /** What -e's alloc and lock mean without -i: async-profiler's habits. */
    static final String DEFAULT_ALLOC = "512k";
    static final String DEFAULT_LOCK = "10ms";

    /** Whether the flags name nothing to collect (then it is {@link #DEFAULT_SAMPLE}'s CPU profile). */
    boolean nothingNamed() {
        return filter == null && sample == null && alloc == null && lock == null && events == null;
    }

    /** What is profiled, from tiprobe's own flags or asprof's -e and -i; all null where nothing is. */
    record Profiled(String sample, SampleMode mode, String alloc, String lock) {
        boolean any() {
            return sample != null || alloc != null || lock != null;
        }
    }

    /**
     * The profiling these flags ask for: tiprobe's own flags, asprof's {@code -e} beside them (each
     * thing named once), {@code -i} for the first event of {@code -e} or, with nothing named, for
     * the CPU profile that is then taken; a usage error where they do not make sense.
     */
    Profiled profiled() throws CliException {
        if (nothingNamed()) return new Profiled(interval != null ? interval : DEFAULT_SAMPLE, sampleMode != null ? sampleMode : SampleMode.CPU, null, null);
        if (events == null) {
            if (interval != null) throw new UsageException("-i sets the interval of -e's first event, or of the CPU profile when nothing else is named");
            return new Profiled(sample, sampleMode, alloc, lock);
        }
        String sampled = sample;
        String allocations = alloc;
        String waits = lock;
        SampleMode mode = sampleMode;
        String first = null;
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (String event : events.split(",")) {
            String e = event.strip().toLowerCase(java.util.Locale.ROOT);
            if (!seen.add(e)) throw new UsageException("-e names " + e + " twice");
            switch (e) {
                case "cpu", "wall" -> {
                    if (sample != null) throw new UsageException("-e " + e + " and --sample both name the stack sampling: name it once");
                    if (sampled != null) throw new UsageException("-e takes one of cpu and wall");
                    if (sampleMode != null) throw new UsageException("-e " + e + " says the sampling mode: leave out --sample-mode");
                    sampled = DEFAULT_SAMPLE;
                    mode = e.equals("cpu") ? SampleMode.CPU : SampleMode.WALL;
                }
                case "alloc" -> {
                    if (alloc != null) throw new UsageException("-e alloc and --alloc both name allocation profiling: name it once");
                    allocations = DEFAULT_ALLOC;
                }
                case "lock" -> {
                    if (lock != null) throw new UsageException("-e lock and --lock both name lock profiling: name it once");
                    waits = DEFAULT_LOCK;
                }
                default -> throw new UsageException("-e names cpu, wall, alloc or lock (several with ','), not '" + event.strip() + "'");
            }
            if (first == null) first = e;
        }
        if (interval != null) {
            switch (first) {
                case "alloc" -> allocations = interval;
                case "lock" -> waits = interval;
                default -> sampled = interval;
            }
        }
        return new Profiled(sampled, mode, allocations, waits);
    }

    /** collect without -f and without --trace: the profile goes to stdout as text, as asprof prints a flat profile. */
    boolean textToStdout() {
        return file == null && filter == null;
    }

    TraceMode mode() {
        return mode != null ? mode : args ? TraceMode.TRACE : TraceMode.COUNT;
    }

    /** The trace-mode limits given over the defaults. */
    private TraceLimits traceLimits() throws CliException {
        TraceLimits d = TraceLimits.DEFAULT;
        long minNanos;
        try {
            minNanos = minDuration == null ? d.minNanos() : AgentOptions.duration("--min-duration", minDuration).toNanos();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (oneIn != null && oneIn < 1) throw new UsageException("--one-in must be at least 1: " + oneIn);
        return values.with(notNegative("--calls-per-second", callsPerSecond, d.perSecond()), (int) notNegative("--one-in", oneIn, d.everyNth()),
                (int) notNegative("--max-calls", maxCalls, d.maxCalls()), callToString, minNanos);
    }

    /** {@code value}, or {@code otherwise} when the flag was not given; a negative one is refused as the flag's. */
    static long notNegative(String flag, Number value, long otherwise) throws CliException {
        if (value == null) return otherwise;
        if (value.longValue() < 0) throw new UsageException(flag + " must not be negative: " + value);
        return value.longValue();
    }

    /**
     * The session these flags ask for, results to {@code output}: every setting is checked here,
     * before any process is touched, with the flag's name in the message.
     */
    AgentOptions settings(Path output) throws CliException {
        return settings(output, null);
    }

    /** As {@link #settings(Path)}, looping as {@code loop} says (null: one recording). */
    AgentOptions settings(Path output, AgentOptions.Loop loop) throws CliException {
        Profiled profiled = profiled();
        boolean profiling = profiled.any();
        String sample = profiled.sample();
        SampleMode sampleMode = profiled.mode();
        String alloc = profiled.alloc();
        String lock = profiled.lock();
        try {
            Map<Setting, String> given = given(profiled);
            if (loop != null) given(given, Setting.LOOP, loop);
            Setting.checkNeeds(given, mode(), Setting.Naming.COMMAND);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        if (output.toString().contains(",")) throw new CliException("the output's name cannot contain ','");
        Report.checked(output);
        if (depth != null && (depth < 1 || depth > MAX_DEPTH)) throw new UsageException("--depth must be 1 to " + MAX_DEPTH + " frames, not " + depth);
        if (!profiling && Export.forFile(file()).map(Export::drawnFromStacks).orElse(false)) {
            throw new CliException("-f " + file() + " needs --sample, --alloc or --lock: flame graphs and profiles are drawn from stacks");
        }
        if (filter != null && AgentOptions.split(filter).size() > 1) {
            if (filter.chars().filter(c -> c == '(').count() > filter.chars().filter(c -> c == ')').count()) {
                try {
                    MethodFilter.parse(filter);  // an unclosed parameter list says so, as the agent would
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
            }
            throw new UsageException("a filter cannot contain ',' outside a parameter list: separate patterns with ';'");
        }
        if (sampleThreads != null && sampleThreads.contains(",")) {
            throw new CliException("--sample-threads cannot contain ',': separate globs with ';'");
        }
        try {
            AgentOptions.Tracing tracing = null;
            if (filter != null) {
                double budget = overhead == null ? AgentOptions.Tracing.DEFAULT_BUDGET : AgentOptions.percent("--overhead", overhead.strip());
                tracing = new AgentOptions.Tracing(MethodFilter.parse(filter), mode(), traceLimits(), budget);
            }
            Sampling sampling = sample == null ? null : new Sampling(AgentOptions.duration(sample.equals(interval) ? "-i" : "--sample", sample),
                    sampleMode != null ? sampleMode : SampleMode.CPU, depth != null ? depth : Sampling.DEFAULT_DEPTH, sampleThreads,
                    recompile == null || recompile);
            AgentOptions.Allocations allocations = alloc == null ? null
                    : new AgentOptions.Allocations(AgentOptions.bytes(alloc.equals(interval) ? "-i" : "--alloc", alloc.strip()), live, allocOverhead == null
                            ? AgentOptions.Allocations.DEFAULT_BUDGET : AgentOptions.percent("--alloc-overhead", allocOverhead.strip()));
            AgentOptions.Locks locks = lock == null ? null
                    : new AgentOptions.Locks(AgentOptions.threshold(lock.equals(interval) ? "-i" : "--lock", lock));
            long ceiling = maxMemory == null ? 0 : AgentOptions.maxMemory("--max-memory", maxMemory.strip());
            return new AgentOptions(tracing, sampling, output.toString(), null, loop, allocations, locks, false, ceiling);
        } catch (IllegalArgumentException e) {  // a malformed filter, a bad duration, size or percentage
            throw new UsageException(e.getMessage());
        }
    }

    /** The options these flags give, each by its flag, for {@link Setting#checkNeeds}. */
    private Map<Setting, String> given(Profiled profiled) {
        Map<Setting, String> given = new EnumMap<>(Setting.class);
        given(given, Setting.TRACE, filter);
        if (mode != null || args) given.put(Setting.MODE, mode != null ? Setting.MODE.flag() : "--args");
        given(given, Setting.OVERHEAD, overhead);
        given(given, Setting.MAX_CALLS, maxCalls);
        given(given, Setting.RATE, callsPerSecond);
        given(given, Setting.ONE_IN, oneIn);
        values.given(given);
        if (callToString) given(given, Setting.TO_STRING, true);
        given(given, Setting.MIN_DURATION, minDuration);
        given(given, Setting.INTERVAL, profiled.sample());
        given(given, Setting.SAMPLE_MODE, sampleMode);
        given(given, Setting.DEPTH, depth);
        given(given, Setting.THREADS, sampleThreads);
        if (recompile != null) given.put(Setting.RECOMPILE, recompile ? "--recompile" : "--no-recompile");
        given(given, Setting.ALLOC, profiled.alloc());
        if (live) given(given, Setting.LIVE, true);
        given(given, Setting.ALLOC_OVERHEAD, allocOverhead);
        given(given, Setting.LOCK, profiled.lock());
        given(given, Setting.MAX_MEMORY, maxMemory);
        return given;
    }

    /** Adds {@code setting}, by its flag, when its flag's {@code value} was given. */
    static void given(Map<Setting, String> given, Setting setting, Object value) {
        if (value != null) given.put(setting, setting.flag());
    }

    /** The agent's option string for these settings. */
    String agentOptions(Path output) throws CliException {
        return agentOptions(output, null);
    }

    /** As {@link #agentOptions(Path)}, looping as {@code loop} says (null: one recording). */
    String agentOptions(Path output, AgentOptions.Loop loop) throws CliException {
        AgentOptions settings = settings(output, loop);
        try {
            return settings.format();
        } catch (IllegalArgumentException e) {  // a rule the flags' own check missed: said before the target is touched
            throw new UsageException(e.getMessage());
        }
    }
}
