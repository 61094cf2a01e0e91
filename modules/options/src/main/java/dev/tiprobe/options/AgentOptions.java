package dev.tiprobe.options;

import dev.tiprobe.filter.CallCondition;
import dev.tiprobe.filter.MethodFilter;
import dev.tiprobe.filter.Untraceable;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One session's settings, and the agent option string that carries them
 * ({@code trace=com.foo.**,mode=time,interval=10ms,file=/tmp/out-%p.json}): the command makes it
 * from its flags ({@link #of}) and {@link #format()}s it, the agent {@link #parse}s it, and both
 * name files by the same rules ({@link #expand}, {@link #recordingBeside}). Tracing, sampling, or both (either may be null, not
 * both).
 *
 * <p>The keys, how their values are read and written, their defaults and what each needs beside
 * it are the options table's ({@link Setting}, docs/options.md). Commas separate options, so no
 * value may contain one.
 *
 * @param tracing   method tracing, or null
 * @param sampling  stack sampling, or null
 * @param file      the output asked for; {@code %p} and {@code %t} are expanded where the session runs
 * @param recording the recording, or null for the one beside the output
 * @param loop      continuous profiling: a recording per period, or null for one recording
 * @param allocations allocation profiling, or null
 * @param locks     lock profiling, or null
 * @param quiet     the agent prints no line at exit on where the recording is (a launching command does)
 * @param maxMemory the agent's memory ceiling in bytes, or 0 for {@link #automaticMaxMemory}
 */
public record AgentOptions(Tracing tracing, Sampling sampling, String file, String recording, Loop loop,
                           Allocations allocations, Locks locks, boolean quiet, long maxMemory) {

    /** With the automatic memory ceiling. */
    public AgentOptions(Tracing tracing, Sampling sampling, String file, String recording, Loop loop,
                        Allocations allocations, Locks locks, boolean quiet) {
        this(tracing, sampling, file, recording, loop, allocations, locks, quiet, 0);
    }

    /**
     * The memory ceiling where none is asked for: 5 % of the heap the JVM may grow to, and never
     * under 64 MB. On a program that makes and drops 35 Groovy scripts a second, with every engine
     * on and every script's methods traced, the agent's tables follow the classes the JVM has not
     * unloaded yet: about 17 MB after a full collection, up to 77 MB just before G1 unloaded 55,000
     * dead classes at once.
     */
    public static long automaticMaxMemory(long maxHeapBytes) {
        return Math.max((long) AUTOMATIC_MAX_MEMORY_MIN_MB << 20, maxHeapBytes / 100 * AUTOMATIC_MAX_MEMORY_PERCENT);  // no overflow where the heap has no limit (Long.MAX_VALUE)
    }

    /** {@link #automaticMaxMemory}'s share of the max heap, and its floor, as the help text also says. */
    public static final int AUTOMATIC_MAX_MEMORY_PERCENT = 5;
    public static final int AUTOMATIC_MAX_MEMORY_MIN_MB = 64;

    /** A memory ceiling as given: a {@link #bytes size} of at least 1 MB (a bare {@code 64} would be 64 bytes). */
    public static long maxMemory(String name, String value) {
        long bytes = bytes(name, value);
        if (bytes < 1L << 20) throw new IllegalArgumentException(name + " must be at least 1m, not '" + value + "' (a size such as 64m)");
        return bytes;
    }

    /** The memory ceiling of this session in a JVM whose heap may grow to {@code maxHeapBytes}. */
    public long maxMemory(long maxHeapBytes) {
        return maxMemory > 0 ? maxMemory : automaticMaxMemory(maxHeapBytes);
    }
    public static final String DEFAULT_FILE = "tiprobe-%p-%t.json";

    public enum TraceMode { COUNT, TIME, TRACE }

    public enum SampleMode { WALL, CPU }

    /**
     * What trace mode records.
     *
     * @param perSecond    calls recorded per second over all threads; 0 for no cap
     * @param everyNth     record one call in n (the sampling ratio)
     * @param maxCalls     traced calls kept at most; later ones are counted as dropped
     * @param maxString    characters kept of a string
     * @param maxElements  array elements kept
     * @param callToString describe other objects by their toString() too
     * @param maxDepth     how deep objects are shown by their fields (1: an argument's own fields)
     * @param maxFields    fields kept of one object
     * @param minNanos     calls kept only when they took at least this long, in nanoseconds; 0 keeps any
     */
    public record TraceLimits(long perSecond, int everyNth, int maxCalls, int maxString, int maxElements,
                              boolean callToString, int maxDepth, int maxFields, long minNanos) {
        // Each default a constant, so the command's help text is made from the same numbers.
        public static final int DEFAULT_PER_SECOND = 10_000;
        public static final int DEFAULT_EVERY_NTH = 1;
        public static final int DEFAULT_MAX_CALLS = 100_000;
        public static final int DEFAULT_MAX_STRING = 100;
        public static final int DEFAULT_MAX_ELEMENTS = 8;
        public static final int DEFAULT_MAX_DEPTH = 1;
        public static final int DEFAULT_MAX_FIELDS = 8;
        public static final TraceLimits DEFAULT = new TraceLimits(DEFAULT_PER_SECOND, DEFAULT_EVERY_NTH, DEFAULT_MAX_CALLS,
                DEFAULT_MAX_STRING, DEFAULT_MAX_ELEMENTS, false, DEFAULT_MAX_DEPTH, DEFAULT_MAX_FIELDS, 0);

        public TraceLimits {
            if (perSecond < 0 || maxCalls < 0 || maxString < 0 || maxElements < 0 || maxDepth < 0 || maxFields < 0 || minNanos < 0) {
                throw new IllegalArgumentException("trace limits must not be negative");
            }
            if (everyNth < 1) throw new IllegalArgumentException("onein (record one call in n) must be at least 1: " + everyNth);
        }
    }

    /**
     * What to trace and how.
     *
     * @param filter         which methods ({@link MethodFilter})
     * @param mode           count, time, or trace
     * @param limits         what trace mode records
     * @param overheadBudget the most the probes may add, as a share of the program's own CPU;
     *                       above it the hottest methods lose their probes (0: no budget, every
     *                       method is traced whatever it costs)
     * @param where          trace mode: calls kept only where this holds at their end, or null for any
     * @param tree           trace mode: each call also times the call sites of the method's body,
     *                       one level of callees (a watch's call tree)
     */
    public record Tracing(MethodFilter filter, TraceMode mode, TraceLimits limits, double overheadBudget, CallCondition where,
                          boolean tree) {
        /** The agent's default budget: 5 % of the program's CPU. */
        public static final int DEFAULT_BUDGET_PERCENT = 5;
        public static final double DEFAULT_BUDGET = DEFAULT_BUDGET_PERCENT / 100.0;

        /** @throws IllegalArgumentException also for a filter that names what can never be traced ({@link Untraceable}) */
        public Tracing {
            String refused = Untraceable.refused(filter);
            if (refused != null) throw new IllegalArgumentException(refused);
            if (!(overheadBudget >= 0 && overheadBudget <= 10)) {
                throw new IllegalArgumentException("overhead must be a percentage such as 5 (0: no limit), not " + overheadBudget * 100);
            }
        }

        public Tracing(MethodFilter filter, TraceMode mode, TraceLimits limits, double overheadBudget) {
            this(filter, mode, limits, overheadBudget, null, false);
        }

        /** No budget: what tests of exact counts want. */
        public static Tracing of(String filter, TraceMode mode) {
            return new Tracing(MethodFilter.parse(filter), mode, TraceLimits.DEFAULT, 0);
        }
    }

    /**
     * What to sample: every {@code interval}, up to {@code depth} frames (a deeper stack is kept
     * leaf first and marked truncated), the threads whose names match {@code threads} (globs
     * separated by {@code ;}; null: all); with {@code recompile} (the default), in a JVM that ran a
     * while before the session, the hottest classes are retransformed once so that HotSpot compiles
     * their code again with inlined methods' positions (the agent's {@code Recompiler} says what
     * that costs and what it leaves alone).
     */
    public record Sampling(Duration interval, SampleMode mode, int depth, String threads, boolean recompile) {
        /** As async-profiler: deep enough for compilers' and frameworks' stacks. */
        public static final int DEFAULT_DEPTH = 2048;
        /** The deepest stack sampling takes: the recording's 4,096 frames, less the {@code [truncated]} root. */
        public static final int MAX_DEPTH = 4095;
        /** Frames kept of an allocation's or a wait's stack, whatever the sampling depth. */
        public static final int EVENT_DEPTH = 256;

        /**
         * The name of the JFR recording a JVM started for sampling runs from its first moment
         * ({@link #jvmFlags}); the agent reads its samples instead of starting a recording of its own.
         */
        public static final String JVM_RECORDING = "tiprobe";
        /** How the JVM's command line begins the option that starts {@link #JVM_RECORDING}. */
        public static final String JVM_RECORDING_OPTION = "-XX:StartFlightRecording:name=" + JVM_RECORDING + ",";
        /** The shortest sampling interval: JFR's execution sampler takes no shorter period. */
        public static final Duration MIN_INTERVAL = Duration.ofMillis(1);
        /** The deepest stacks JFR keeps ({@code stackdepth}'s maximum). */
        public static final int JFR_MAX_STACK_DEPTH = 2048;

        public Sampling {
            if (interval.compareTo(MIN_INTERVAL) < 0) throw new IllegalArgumentException("the sampling interval must be at least 1ms, not " + interval.toNanos() + "ns");
            if (depth < 1 || depth > MAX_DEPTH) throw new IllegalArgumentException("depth must be 1 to " + MAX_DEPTH + ": " + depth);
        }

        /** Recompiling, as by default. */
        public Sampling(Duration interval, SampleMode mode, int depth, String threads) {
            this(interval, mode, depth, threads, true);
        }

        /** JFR's sampler of threads running Java code, at a wall-clock period, taken by a JFR thread. */
        public static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";
        /**
         * JFR's CPU-time sampler (JDK 25, Linux): each thread is sampled by its own CPU clock, in
         * Java or native code, by a signal it takes itself; one in Java code walks its own stack,
         * as async-profiler's {@code itimer} works in the sampled thread (JFR's CPU sampler thread
         * walks only threads found in native code).
         */
        public static final String CPU_TIME_SAMPLE = "jdk.CPUTimeSample";

        /**
         * The JFR event this sampling reads for running threads, in either mode: on Linux {@link
         * #CPU_TIME_SAMPLE}, elsewhere {@link #EXECUTION_SAMPLE} (JDK 25 has the CPU-time sampler on
         * Linux only). Wall mode takes the threads not running Java code itself.
         */
        public String jfrEvent() {
            return System.getProperty("os.name", "").startsWith("Linux") ? CPU_TIME_SAMPLE : EXECUTION_SAMPLE;
        }

        /**
         * As {@link #jfrEvent()}, for a JVM started with {@code jvmArgs}: one with a native agent
         * ({@code -agentpath:}, or {@code -agentlib:} but the debugger's) gets {@link
         * #EXECUTION_SAMPLE}, as such an agent may hold SIGPROF (async-profiler's {@code cpu} and
         * {@code itimer} do), which the CPU-time sampler needs: JFR then records none and prints
         * "Conflicting SIGPROF handler found" into the program's output.
         */
        public String jfrEvent(List<String> jvmArgs) {
            boolean nativeAgent = jvmArgs.stream().anyMatch(a -> a.startsWith("-agentpath:")
                    || a.startsWith("-agentlib:") && !a.startsWith("-agentlib:jdwp"));
            return nativeAgent ? EXECUTION_SAMPLE : jfrEvent();
        }

        /** The setting that makes {@code event} sample every {@code interval}: JFR names it differently per event. */
        public static String jfrPeriodSetting(String event) {
            return event.equals(CPU_TIME_SAMPLE) ? "throttle" : "period";
        }

        /**
         * The flags that make a JVM started for this sampling ({@code tiprobe run}) sample from its
         * first moment, with {@code jvmArgs} its other options: JFR's samples ({@link
         * #jfrEvent(List)}) at the interval in a recording named
         * {@link #JVM_RECORDING}, started before {@code main} (JFR takes about 0.4 s to start, which
         * the program would otherwise spend unsampled), JFR's startup lines left out of the
         * program's output; stacks as deep as asked (JFR keeps 64 frames otherwise, settable only
         * before its first recording); and DebugNonSafepoints, so code compiled before the agent
         * reaches JVMTI names its inlined methods too (a diagnostic flag that only adds debug
         * information to compiled code). The recording keeps a minute of samples on disk at most.
         * For a runtime without the {@code jdk.jfr} module ({@code jfr} false), which refuses to
         * start with JFR's flags, only the last.
         */
        public List<String> jvmFlags(boolean jfr, List<String> jvmArgs) {
            List<String> debugInfo = List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints");
            if (!jfr) return debugInfo;
            String event = jfrEvent(jvmArgs);
            return List.of(debugInfo.get(0), debugInfo.get(1),
                    "-XX:FlightRecorderOptions:stackdepth=" + Math.min(depth, JFR_MAX_STACK_DEPTH),
                    JVM_RECORDING_OPTION + "settings=none,maxage=1m,+" + event + "#enabled=true,"
                            + "+" + event + "#" + jfrPeriodSetting(event) + "=" + interval.toNanos() + "ns",
                    "-Xlog:jfr+startup=off");
        }
    }

    /**
     * Continuous profiling, after async-profiler's {@code --loop}: the session's recording is
     * finished every {@code period} and a new one begun, named by {@code %t} at that moment, so
     * each is complete and readable on its own; the {@code keep} newest stay, older ones are deleted.
     */
    public record Loop(Duration period, int keep) {
        /** An hour of one-minute profiles. */
        public static final int DEFAULT_KEEP = 60;

        public Loop {
            if (period.compareTo(Duration.ofSeconds(1)) < 0) throw new IllegalArgumentException("the loop period must be at least 1s");
            if (keep < 1) throw new IllegalArgumentException("keep must be at least 1: " + keep);
        }
    }

    /**
     * Allocation profiling, after async-profiler's {@code --alloc}: JVMTI reports about one object
     * per {@code intervalBytes} a thread allocates, with its class, size and stack; {@code live}
     * keeps only those still alive when the recording ends (a leak finder), tracking at most
     * {@link #MAX_TRACKED} objects at once. {@code overheadBudget}: the most sampling may cost, as a
     * share of the program's CPU; above it the interval is raised (0: never).
     */
    public record Allocations(long intervalBytes, boolean live, double overheadBudget) {
        /** Objects tracked for {@code live} at once; samples beyond it are counted, not tracked. */
        public static final int MAX_TRACKED = 65_536;
        /**
         * The default budget, 1 % of the program's CPU: with what the agent costs besides (its heap
         * makes G1 work a little more, about 1 % in AllocBench), the whole stays near 2 %.
         */
        public static final int DEFAULT_BUDGET_PERCENT = 1;
        public static final double DEFAULT_BUDGET = DEFAULT_BUDGET_PERCENT / 100.0;

        public Allocations {
            if (intervalBytes < 1 || intervalBytes > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("alloc must be a size from 1 byte to 2g, such as 512k, not " + intervalBytes);
            }
            if (!(overheadBudget >= 0 && overheadBudget <= 10)) {
                throw new IllegalArgumentException("the allocation overhead must be a percentage such as 2 (0: no limit), not " + overheadBudget * 100);
            }
        }

        /** With the default budget. */
        public Allocations(long intervalBytes, boolean live) {
            this(intervalBytes, live, DEFAULT_BUDGET);
        }
    }

    /**
     * Lock profiling, after async-profiler's {@code --lock}: waits to enter a monitor or take a
     * {@code java.util.concurrent} lock, {@code Object.wait} calls and parks for a condition, that
     * lasted at least {@code threshold}, with the waiter's stack and, for a long one, the holder's.
     */
    public record Locks(Duration threshold) {
        public Locks {
            if (threshold.isNegative()) throw new IllegalArgumentException("lock must not be negative");
        }
    }

    /** Not quiet. */
    public AgentOptions(Tracing tracing, Sampling sampling, String file, String recording, Loop loop,
                        Allocations allocations, Locks locks) {
        this(tracing, sampling, file, recording, loop, allocations, locks, false);
    }

    /** One recording for the whole session (no loop). */
    public AgentOptions(Tracing tracing, Sampling sampling, String file, String recording) {
        this(tracing, sampling, file, recording, null);
    }

    /** Tracing and sampling only. */
    public AgentOptions(Tracing tracing, Sampling sampling, String file, String recording, Loop loop) {
        this(tracing, sampling, file, recording, loop, null, null);
    }

    /** These settings with their output at {@code file}. */
    public AgentOptions withFile(String file) {
        return new AgentOptions(tracing, sampling, file, recording, loop, allocations, locks, quiet, maxMemory);
    }

    /** Whether the session profiles anything from JVMTI events or stacks (sampling, allocations, locks). */
    public boolean profiling() {
        return sampling != null || allocations != null || locks != null;
    }

    public AgentOptions {
        if (tracing == null && sampling == null && allocations == null && locks == null) {
            throw new IllegalArgumentException("missing trace=<filter> (or interval=<duration> to sample, alloc=<bytes>, lock=<duration>)");
        }
        if (loop != null && !(recording != null ? recording : file).contains("%t")) {
            throw new IllegalArgumentException("a loop writes a file per period: put %t (the time) in the file's name, e.g. profiles/cpu-%t.pb.gz");
        }
        if (file == null) throw new IllegalArgumentException("missing file");
        for (String value : new String[] {file, recording, tracing == null ? null : tracing.filter().toString(),
                tracing == null || tracing.where() == null ? null : tracing.where().toString(),
                sampling == null ? null : sampling.threads()}) {
            if (value != null && split(value).size() > 1) {
                throw new IllegalArgumentException("',' separates options: no value may contain one outside parentheses: " + value);
            }
        }
    }

    /**
     * The options of {@code key=value,...}: split at each {@code ,} outside parentheses, so that a
     * filter's Java parameter list ({@code trace=T::put(String, int)}) stays one option. Where a
     * {@code (} is never closed, at every {@code ,}: the filter then says what it misses, and the
     * other options stay options.
     */
    public static java.util.List<String> split(String text) {
        java.util.List<String> out = new java.util.ArrayList<>();
        int depth = 0;
        int from = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') depth++;
            else if (c == ')' && depth > 0) depth--;
            else if (c == ',' && depth == 0) {
                out.add(text.substring(from, i));
                from = i + 1;
            }
        }
        out.add(text.substring(from));
        if (depth != 0) return java.util.List.of(text.split(","));
        while (out.size() > 1 && out.getLast().isEmpty()) out.removeLast();  // a trailing ',' as String.split leaves it
        return out;
    }

    /**
     * Parses {@code key=value,...}.
     *
     * @throws IllegalArgumentException with a one-line message for a bad option or filter
     *         ({@link MethodFilter.FilterSyntaxException} for the filter)
     */
    public static AgentOptions parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("no options: use trace=<filter>[,mode=count|time|trace][,file=<path>] and/or interval=<10ms>");
        }
        Map<Setting, Setting.Given> given = new EnumMap<>(Setting.class);
        for (String option : split(text)) {
            int eq = option.indexOf('=');
            String key = (eq < 0 ? option : option.substring(0, eq)).trim();
            given.put(Setting.ofKey(key), new Setting.Given(key, eq < 0 ? "" : option.substring(eq + 1).trim()));
        }
        return of(given, Setting.Naming.AGENT);
    }

    /**
     * The settings of the options given, each by the name it was given by (the agent's key or the
     * command's flag), the others at the table's defaults: every value is read and checked here,
     * then what each option needs ({@link Setting#checkNeeds}), in the words of {@code naming}.
     *
     * @throws IllegalArgumentException naming the first option refused, as it was given
     */
    public static AgentOptions of(Map<Setting, Setting.Given> given, Setting.Naming naming) {
        Values v = new Values(given);
        MethodFilter filter = v.get(Setting.TRACE);
        TraceMode mode = v.get(Setting.MODE);
        Tracing tracing = filter == null ? null : new Tracing(filter, mode,
                new TraceLimits(v.<Long>get(Setting.RATE), v.<Integer>get(Setting.ONE_IN), v.<Integer>get(Setting.MAX_CALLS),
                        v.<Integer>get(Setting.MAX_STRING), v.<Integer>get(Setting.MAX_ELEMENTS), v.on(Setting.TO_STRING),
                        v.<Integer>get(Setting.MAX_DEPTH), v.<Integer>get(Setting.MAX_FIELDS), v.nanos(Setting.MIN_DURATION)),
                v.<Double>get(Setting.OVERHEAD), v.get(Setting.WHERE), v.on(Setting.TREE));
        Duration interval = v.get(Setting.INTERVAL);
        Sampling sampling = interval == null ? null : new Sampling(interval, v.get(Setting.SAMPLE_MODE), v.<Integer>get(Setting.DEPTH),
                v.get(Setting.THREADS), v.on(Setting.RECOMPILE));
        Long alloc = v.get(Setting.ALLOC);
        Duration lock = v.get(Setting.LOCK);
        Duration loop = v.get(Setting.LOOP);
        Long maxMemory = v.get(Setting.MAX_MEMORY);
        // Made first, so that a session with nothing to collect says so before what a lone option needs.
        AgentOptions options = new AgentOptions(tracing, sampling, v.get(Setting.FILE), v.get(Setting.RECORDING),
                loop == null ? null : new Loop(loop, v.<Integer>get(Setting.KEEP)),
                alloc == null ? null : new Allocations(alloc, v.on(Setting.LIVE), v.<Double>get(Setting.ALLOC_OVERHEAD)),
                lock == null ? null : new Locks(lock), v.on(Setting.QUIET), maxMemory == null ? 0 : maxMemory);
        Map<Setting, String> names = new EnumMap<>(Setting.class);
        given.forEach((s, g) -> names.put(s, g.name()));
        Setting.checkNeeds(names, filter == null ? null : mode, naming);
        return options;
    }

    /** The values of the options given, read in the table's order, and the table's defaults for the others. */
    private static final class Values {
        private final Map<Setting, Object> values = new EnumMap<>(Setting.class);

        Values(Map<Setting, Setting.Given> given) {
            for (Setting s : Setting.values()) {
                Setting.Given g = given.get(s);
                Object value = g != null ? s.read(g) : s.defaultValue();
                if (value != null) values.put(s, value);
            }
        }

        @SuppressWarnings("unchecked")
        <T> T get(Setting s) {
            return (T) values.get(s);
        }

        /** A switch: off unless given on (or on by default). */
        boolean on(Setting s) {
            return Boolean.TRUE.equals(values.get(s));
        }

        long nanos(Setting s) {
            Duration d = get(s);
            return d == null ? 0 : d.toNanos();
        }
    }

    /**
     * The option string that {@link #parse} turns back into these settings, in the table's order;
     * defaults are left out.
     *
     * @throws IllegalArgumentException for settings the agent would refuse: an option without what
     *         it needs ({@link Setting#checkNeeds}), found here before the string leaves the command
     */
    public String format() {
        List<String> options = new java.util.ArrayList<>();
        Map<Setting, String> given = new EnumMap<>(Setting.class);
        for (Setting s : Setting.values()) {
            String text = s.textIn(this);
            if (text == null) continue;
            options.add(text.isEmpty() ? s.key() : s.key() + "=" + text);
            given.put(s, s.key());
        }
        Setting.checkNeeds(given, tracing == null ? null : tracing.mode(), Setting.Naming.AGENT);
        return String.join(",", options);
    }

    /** The output asked for of the session in process {@code pid} (the command makes it from the recording). */
    public Path resultsFile(long pid) {
        return Path.of(expand(file, pid));
    }

    /**
     * The output asked for, named after the session's {@code recording} once that is named: a
     * {@code %t} in the name is read once, so the output and its recording share it (x-…01.tpr
     * for x-…01.json), though the clock may have ticked in between.
     */
    public Path resultsFile(Path recording, long pid) {
        return this.recording != null ? resultsFile(pid) : outputBeside(recording, file);
    }

    /** The recording of the session in process {@code pid}, all the agent writes: as asked, or beside the output. */
    public Path recordingFile(long pid) {
        return recording != null ? Path.of(expand(recording, pid)) : recordingBeside(resultsFile(pid));
    }

    /** {@code %p}: the pid; {@code %t}: local time as yyyyMMdd-HHmmss. */
    public static String expand(String pattern, long pid) {
        return expandTime(pattern.replace("%p", Long.toString(pid)));
    }

    /** {@code %t} only, for a name whose {@code %p} the agent fills in (a process not started yet). */
    public static String expandTime(String pattern) {
        return pattern.replace("%t", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    }

    /** {@code out.json} records to {@code out.tpr}, {@code out.html} to {@code out.html.tpr}, {@code out.tpr} to itself. */
    public static Path recordingBeside(Path results) {
        String name = results.getFileName().toString();
        if (name.endsWith(".tpr")) return results;
        String base = name.endsWith(".json") ? name.substring(0, name.length() - ".json".length()) : name;
        return results.resolveSibling(base + ".tpr");
    }

    /**
     * The output named for {@code recording} when the output asked for follows {@code pattern}:
     * the inverse of {@link #recordingBeside} (x.tpr for x.json gives x.json, x.html.tpr gives
     * x.html, and a recording asked for is itself). For a loop, whose recordings each have a time of their own.
     */
    public static Path outputBeside(Path recording, String pattern) {
        String name = recording.getFileName().toString();
        if (pattern.endsWith(".tpr") || !name.endsWith(".tpr")) return recording;
        String base = name.substring(0, name.length() - ".tpr".length());
        return recording.resolveSibling(pattern.endsWith(".json") ? base + ".json" : base);
    }

    private static String name(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }

    /** One of {@code type}'s constants by its name, in any case; {@code name} is what the message calls the setting. */
    static <E extends Enum<E>> E choice(Class<E> type, String name, String value, String allowed) {
        for (E e : type.getEnumConstants()) if (name(e).equals(value.strip().toLowerCase(Locale.ROOT))) return e;
        throw new IllegalArgumentException(name + " must be " + allowed + ", not '" + value + "'");
    }

    /** A switch given alone ({@code quiet}) or with a value ({@code quiet=false}). */
    static boolean switchValue(String name, String value) {
        if (value.isEmpty() || value.equalsIgnoreCase("true")) return true;
        if (value.equalsIgnoreCase("false")) return false;
        throw new IllegalArgumentException(name + " is a switch: give it alone, or as true or false, not '" + value + "'");
    }

    /**
     * The one duration grammar of tiprobe's options and flags: a whole number and its unit,
     * {@code ns}, {@code us}, {@code ms}, {@code s}, {@code m} or {@code h} ({@code 250us},
     * {@code 10ms}, {@code 5s}, {@code 5m}, {@code 1h}), any case, positive. A plain number is
     * refused: it meant milliseconds to the agent and seconds to {@code -d} before, and would
     * mean one of them wrongly to someone ({@code -d} alone takes one as seconds, as asprof's
     * {@code -d} does). {@code name} is what the message calls the setting
     * (the option key, or the command's flag).
     */
    public static Duration duration(String name, String value) {
        Duration d = parseDuration(value.strip().toLowerCase(Locale.ROOT));
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be a positive duration with its unit, such as 10ms, 5s or 5m, not '" + value + "'");
        }
        return d;
    }

    /** {@code d} in {@link #duration}'s grammar, in the largest unit that keeps it whole: {@code 10ms}, {@code 1500us}, {@code 5m}. */
    public static String durationText(Duration d) {
        long nanos = d.toNanos();
        String[] units = {"h", "m", "s", "ms", "us"};
        long[] sizes = {3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L};
        for (int i = 0; i < units.length; i++) if (nanos % sizes[i] == 0) return nanos / sizes[i] + units[i];
        return nanos + "ns";
    }

    /** {@code value} as a duration, or null where it is not a number and a unit. */
    private static Duration parseDuration(String value) {
        String[][] units = {{"ns", "1"}, {"us", "1000"}, {"ms", "1000000"}, {"s", "1000000000"}, {"m", "60000000000"}, {"h", "3600000000000"}};
        for (String[] unit : units) {
            if (!value.endsWith(unit[0])) continue;
            String number = value.substring(0, value.length() - unit[0].length());
            if (number.isEmpty() || !number.chars().allMatch(c -> c >= '0' && c <= '9')) continue;  // "5ms" also ends with "s"
            try {
                return Duration.ofNanos(Math.multiplyExact(Long.parseLong(number), Long.parseLong(unit[1])));
            } catch (ArithmeticException | NumberFormatException tooLong) {
                return null;
            }
        }
        return null;
    }

    /** A share as the percentage {@link #percent} reads back: 0.05 as {@code 5}. */
    public static String percentText(double share) {
        return BigDecimal.valueOf(share).movePointRight(2).stripTrailingZeros().toPlainString();
    }

    /** A percentage such as {@code 5} or {@code 2.5}, as a share (0.05); 0 means no limit. */
    public static double percent(String name, String value) {
        String v = value.strip();
        try {
            BigDecimal p = new BigDecimal(v.endsWith("%") ? v.substring(0, v.length() - 1) : v);
            if (p.signum() < 0 || p.compareTo(BigDecimal.valueOf(1000)) > 0) throw new NumberFormatException();
            return p.movePointLeft(2).doubleValue();
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a percentage such as 5 (0: no limit), not '" + value + "'");
        }
    }

    /**
     * A size such as {@code 512k}, {@code 2m}, {@code 1g} or a plain number of bytes (binary
     * units, as async-profiler reads {@code --alloc}); {@code name} is what the message calls it.
     */
    public static long bytes(String name, String value) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        int shift = v.endsWith("k") ? 10 : v.endsWith("m") ? 20 : v.endsWith("g") ? 30 : 0;
        try {
            long n = Long.parseLong(shift == 0 ? v : v.substring(0, v.length() - 1));
            if (n < 1 || n > (Integer.MAX_VALUE >> shift)) throw new NumberFormatException();
            return n << shift;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a size such as 512k (1 byte to 2g), not '" + value + "'");
        }
    }

    /** A wait threshold: a {@link #duration}, or zero ({@code 0}, {@code 0ns}, {@code 0ms}…) for every wait; {@code name} is what the message calls it. */
    public static Duration threshold(String name, String value) {
        if (value.strip().equals("0") || Duration.ZERO.equals(parseDuration(value.strip().toLowerCase(Locale.ROOT)))) return Duration.ZERO;
        try {
            return duration(name, value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + " must be a duration with its unit, such as 10ms (0: every wait), not '" + value + "'");
        }
    }

    /** A count: a whole number from 0 to 2,147,483,647. */
    static int count(String name, String value) {
        return (int) number(name, value, 0, Integer.MAX_VALUE, "a non-negative number");
    }

    /** A count of at least 1 (one call in n, files kept). */
    static int atLeastOne(String name, String value) {
        return (int) number(name, value, 1, Integer.MAX_VALUE, "a whole number from 1");
    }

    /** Calls a second: a whole number from 0 (no cap). */
    static long rate(String name, String value) {
        return number(name, value, 0, Long.MAX_VALUE, "a non-negative number");
    }

    /** A sampled stack's frames: 1 to {@link Sampling#MAX_DEPTH}. */
    static int frames(String name, String value) {
        return (int) number(name, value, 1, Sampling.MAX_DEPTH, "1 to " + Sampling.MAX_DEPTH + " frames");
    }

    private static long number(String name, String value, long min, long max, String what) {
        try {
            long n = Long.parseLong(value.strip());
            if (n < min || n > max) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be " + what + ", not '" + value + "'");
        }
    }
}
