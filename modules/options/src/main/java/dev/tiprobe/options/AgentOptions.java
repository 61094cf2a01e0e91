package dev.tiprobe.options;

import dev.tiprobe.filter.CallCondition;
import dev.tiprobe.filter.MethodFilter;
import dev.tiprobe.filter.Untraceable;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One session's settings, and the agent option string that carries them
 * ({@code trace=com.foo.**,mode=time,interval=10ms,file=/tmp/out-%p.json}): the command
 * {@link #format()}s it, the agent {@link #parse}s it, and both name files by the same rules
 * ({@link #expand}, {@link #recordingBeside}). Tracing, sampling, or both (either may be null, not
 * both).
 *
 * <p>The keys, their values, defaults and what each needs beside it are the options table's
 * ({@link Setting}, docs/options.md). Commas separate options, so no value may contain one.
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
            if (depth < 1) throw new IllegalArgumentException("depth must be at least 1: " + depth);
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
        Parsed parsed = new Parsed();
        for (String option : split(text)) {
            int eq = option.indexOf('=');
            parsed.set((eq < 0 ? option : option.substring(0, eq)).trim(), eq < 0 ? "" : option.substring(eq + 1).trim());
        }
        return parsed.options();
    }

    /** The options as {@link #parse} meets them, each at its default until set. */
    private static final class Parsed {
        String filter;
        TraceMode mode = TraceMode.COUNT;
        String file = DEFAULT_FILE;
        long rate = TraceLimits.DEFAULT.perSecond();
        int oneIn = TraceLimits.DEFAULT.everyNth();
        int maxString = TraceLimits.DEFAULT.maxString();
        int maxElements = TraceLimits.DEFAULT.maxElements();
        boolean toString = TraceLimits.DEFAULT.callToString();
        int maxDepth = TraceLimits.DEFAULT.maxDepth();
        int maxFields = TraceLimits.DEFAULT.maxFields();
        int maxCalls = TraceLimits.DEFAULT.maxCalls();
        long minNanos = TraceLimits.DEFAULT.minNanos();
        double overhead = Tracing.DEFAULT_BUDGET;
        Duration interval;
        SampleMode sampleMode = SampleMode.CPU;
        int depth = Sampling.DEFAULT_DEPTH;
        String threads;
        boolean recompile = true;
        String recording;
        Duration loop;
        int keep = Loop.DEFAULT_KEEP;
        long alloc = -1;
        boolean live;
        double allocOverhead = Allocations.DEFAULT_BUDGET;
        Duration lock;
        boolean quiet;
        long maxMemory;
        String where;
        boolean tree;

        /** Each option given, by its key: what it needs is checked once all are read. */
        final Map<Setting, String> given = new java.util.EnumMap<>(Setting.class);

        void set(String key, String value) {
            Setting setting = Setting.ofKey(key);
            given.put(setting, key);
            switch (setting) {
                case TRACE -> filter = value;
                case WHERE -> where = value;
                case TREE -> tree = flag(value);
                case MODE -> mode = choice(TraceMode.class, key, value, "count, time or trace");
                case FILE -> file = value;
                case RATE -> rate = number(key, value);
                case ONE_IN -> oneIn = (int) number(key, value);
                case MAX_CALLS -> maxCalls = (int) number(key, value);
                case MAX_STRING -> maxString = (int) number(key, value);
                case MAX_ELEMENTS -> maxElements = (int) number(key, value);
                case TO_STRING -> toString = flag(value);
                case MAX_DEPTH -> maxDepth = (int) number(key, value);
                case MAX_FIELDS -> maxFields = (int) number(key, value);
                case MIN_DURATION -> minNanos = duration(key, value).toNanos();
                case OVERHEAD -> overhead = percent(key, value);
                case INTERVAL -> interval = duration(key, value);
                case SAMPLE_MODE -> sampleMode = choice(SampleMode.class, key, value, "wall or cpu");
                case DEPTH -> depth = (int) number(key, value);
                case THREADS -> threads = value;
                case RECOMPILE -> recompile = flag(value);
                case RECORDING -> recording = value;
                case LOOP -> loop = duration(key, value);
                case KEEP -> keep = (int) number(key, value);
                case ALLOC -> alloc = bytes(key, value);
                case LIVE -> live = flag(value);
                case ALLOC_OVERHEAD -> allocOverhead = percent(key, value);
                case LOCK -> lock = threshold(key, value);
                case QUIET -> quiet = flag(value);
                case MAX_MEMORY -> maxMemory = maxMemory(key, value);
            }
        }

        /** A switch given alone ({@code quiet}) or with a value ({@code quiet=false}). */
        private static boolean flag(String value) {
            return value.isEmpty() || Boolean.parseBoolean(value);
        }

        /** The settings, once the options that need another are checked to have it. */
        AgentOptions options() {
            Tracing tracing = filter == null ? null : new Tracing(MethodFilter.parse(filter), mode,
                    new TraceLimits(rate, oneIn, maxCalls, maxString, maxElements, toString, maxDepth, maxFields, minNanos), overhead,
                    where == null ? null : CallCondition.parse(where), tree);
            Sampling sampling = interval == null ? null : new Sampling(interval, sampleMode, depth, threads, recompile);
            // Made first, so that a session with nothing to collect says so before what a lone option needs.
            AgentOptions options = new AgentOptions(tracing, sampling, file, recording, loop == null ? null : new Loop(loop, keep),
                    alloc < 0 ? null : new Allocations(alloc, live, allocOverhead), lock == null ? null : new Locks(lock), quiet, maxMemory);
            Setting.checkNeeds(given, filter == null ? null : mode, Setting.Naming.AGENT);
            return options;
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
        Map<Setting, String> given = new java.util.EnumMap<>(Setting.class);
        for (Setting s : Setting.values()) {
            String value = formatted(s);
            if (value == null) continue;
            options.add(value.isEmpty() ? s.key() : s.key() + "=" + value);
            given.put(s, s.key());
        }
        Setting.checkNeeds(given, tracing == null ? null : tracing.mode(), Setting.Naming.AGENT);
        return String.join(",", options);
    }

    /** {@code setting}'s value as the option string gives it: "" for a switch that is on, null where it is left out. */
    private String formatted(Setting setting) {
        TraceLimits l = tracing == null ? null : tracing.limits();
        TraceLimits d = TraceLimits.DEFAULT;
        return switch (setting) {
            case FILE -> file;
            case RECORDING -> recording;
            case TRACE -> tracing == null ? null : tracing.filter().toString();
            case MODE -> tracing == null ? null : name(tracing.mode());
            case RATE -> l == null || l.perSecond() == d.perSecond() ? null : Long.toString(l.perSecond());
            case ONE_IN -> l == null || l.everyNth() == d.everyNth() ? null : Integer.toString(l.everyNth());
            case MAX_CALLS -> l == null || l.maxCalls() == d.maxCalls() ? null : Integer.toString(l.maxCalls());
            case MAX_STRING -> l == null || l.maxString() == d.maxString() ? null : Integer.toString(l.maxString());
            case MAX_ELEMENTS -> l == null || l.maxElements() == d.maxElements() ? null : Integer.toString(l.maxElements());
            case TO_STRING -> l != null && l.callToString() ? "" : null;
            case MAX_DEPTH -> l == null || l.maxDepth() == d.maxDepth() ? null : Integer.toString(l.maxDepth());
            case MAX_FIELDS -> l == null || l.maxFields() == d.maxFields() ? null : Integer.toString(l.maxFields());
            case MIN_DURATION -> l == null || l.minNanos() == d.minNanos() ? null : durationText(Duration.ofNanos(l.minNanos()));
            case OVERHEAD -> tracing == null || tracing.overheadBudget() == Tracing.DEFAULT_BUDGET ? null : percentText(tracing.overheadBudget());
            case WHERE -> tracing == null || tracing.where() == null ? null : tracing.where().toString();
            case TREE -> tracing != null && tracing.tree() ? "" : null;
            case INTERVAL -> sampling == null ? null : durationText(sampling.interval());
            case SAMPLE_MODE -> sampling == null || sampling.mode() == SampleMode.CPU ? null : name(sampling.mode());
            case DEPTH -> sampling == null || sampling.depth() == Sampling.DEFAULT_DEPTH ? null : Integer.toString(sampling.depth());
            case THREADS -> sampling == null ? null : sampling.threads();
            case RECOMPILE -> sampling == null || sampling.recompile() ? null : "false";
            case ALLOC -> allocations == null ? null : Long.toString(allocations.intervalBytes());
            case LIVE -> allocations != null && allocations.live() ? "" : null;
            case ALLOC_OVERHEAD -> allocations == null || allocations.overheadBudget() == Allocations.DEFAULT_BUDGET ? null
                    : percentText(allocations.overheadBudget());
            case LOCK -> locks == null ? null : locks.threshold().isZero() ? "0" : durationText(locks.threshold());
            case QUIET -> quiet ? "" : null;
            case MAX_MEMORY -> maxMemory > 0 ? Long.toString(maxMemory) : null;
            case LOOP -> loop == null ? null : durationText(loop.period());
            case KEEP -> loop == null || loop.keep() == Loop.DEFAULT_KEEP ? null : Integer.toString(loop.keep());
        };
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

    private static <E extends Enum<E>> E choice(Class<E> type, String key, String value, String allowed) {
        for (E e : type.getEnumConstants()) if (name(e).equals(value)) return e;
        throw new IllegalArgumentException(key + " must be " + allowed + ", not '" + value + "'");
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
        try {
            BigDecimal p = new BigDecimal(value.endsWith("%") ? value.substring(0, value.length() - 1) : value);
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
        String v = value.toLowerCase(Locale.ROOT);
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

    private static long number(String key, String value) {
        try {
            long n = Long.parseLong(value);
            if (n < 0 || n > Integer.MAX_VALUE && !key.equals("rate")) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a non-negative number, not '" + value + "'");
        }
    }
}
