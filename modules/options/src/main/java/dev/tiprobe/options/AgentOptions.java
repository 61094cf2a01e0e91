package dev.tiprobe.options;

import dev.tiprobe.filter.CallCondition;
import dev.tiprobe.filter.MethodFilter;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One session's settings, and the agent option string that carries them
 * ({@code trace=com.foo.**,mode=time,interval=10ms,file=/tmp/out-%p.json}): the command makes
 * them from its flags ({@link #of}) and {@link #format()}s them, the agent {@link #parse}s them,
 * and both name files by the same rules ({@link #expand}, {@link #recordingBeside}).
 *
 * <p>The settings are the options table's ({@link Setting}, docs/options.md): each option's
 * value, given or the table's default, held by its entry and read by it ({@link #get}). A new
 * option whose value is of a kind the table reads already (a number, size, duration,
 * percentage, choice, switch or text) is therefore one entry in the table, read where it is
 * used: by its entry, from these settings or from an engine's view ({@code options()}). The
 * views ({@link #tracing()}, {@link #sampling()}, {@link #allocations()}, {@link #locks()},
 * {@link #loop()}) name the values each engine reads and are present where the engine is on;
 * they hold nothing of their own, and two are equal where their settings are. Settings are made
 * only by reading options, so every value has passed its reader's checks and every option has
 * what it needs beside it.
 */
public final class AgentOptions {
    /** Each option that has a value, given or by default, in the table's order. */
    private final EnumMap<Setting, Object> values;

    private AgentOptions(EnumMap<Setting, Object> values) {
        this.values = values;
    }

    /**
     * The value of {@code setting}, of the type its reader makes (a {@link Duration}, an {@code
     * Integer}, a {@link MethodFilter}…); null where it was not given and has no default.
     */
    @SuppressWarnings("unchecked")
    public <T> T get(Setting setting) {
        return (T) values.get(setting);
    }

    /** A switch: whether it was given on, or is on by default. */
    public boolean on(Setting setting) {
        return Boolean.TRUE.equals(values.get(setting));
    }

    /** Method tracing, or null where nothing is traced. */
    public Tracing tracing() {
        return values.containsKey(Setting.TRACE) ? new Tracing(this) : null;
    }

    /** Stack sampling, or null. */
    public Sampling sampling() {
        return values.containsKey(Setting.INTERVAL) ? new Sampling(this) : null;
    }

    /** Allocation profiling, or null. */
    public Allocations allocations() {
        return values.containsKey(Setting.ALLOC) ? new Allocations(this) : null;
    }

    /** Lock profiling, or null. */
    public Locks locks() {
        return values.containsKey(Setting.LOCK) ? new Locks(this) : null;
    }

    /** Continuous profiling, a recording per period, or null for one recording. */
    public Loop loop() {
        return values.containsKey(Setting.LOOP) ? new Loop(this) : null;
    }

    /** The output asked for; {@code %p} and {@code %t} are expanded where the session runs. */
    public String file() {
        return get(Setting.FILE);
    }

    /** The recording, or null for the one beside the output. */
    public String recording() {
        return get(Setting.RECORDING);
    }

    /** Whether the agent prints no line at exit on where the recording is (a launching command does). */
    public boolean quiet() {
        return on(Setting.QUIET);
    }

    /** These settings with their output at {@code file}, read and checked as the option {@code file} is. */
    public AgentOptions withFile(String file) {
        EnumMap<Setting, Object> moved = new EnumMap<>(values);
        moved.put(Setting.FILE, Setting.FILE.read(new Setting.Given(Setting.FILE.key(), file)));
        return new AgentOptions(moved).checkedAsAWhole();
    }

    /** Whether the session profiles anything from JVMTI events or stacks (sampling, allocations, locks). */
    public boolean profiling() {
        return sampling() != null || allocations() != null || locks() != null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AgentOptions other && values.equals(other.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    /** The option string, for messages and tests. */
    @Override
    public String toString() {
        return format();
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

    /** The memory ceiling of this session in a JVM whose heap may grow to {@code maxHeapBytes}: as asked, or {@link #automaticMaxMemory}. */
    public long maxMemory(long maxHeapBytes) {
        Long asked = get(Setting.MAX_MEMORY);
        return asked != null ? asked : automaticMaxMemory(maxHeapBytes);
    }

    public static final String DEFAULT_FILE = "tiprobe-%p-%t.json";

    public enum TraceMode { COUNT, TIME, TRACE }

    public enum SampleMode { WALL, CPU }

    /**
     * What trace mode records: calls recorded per second over all threads ({@link #perSecond}, 0
     * for no cap), one call in n ({@link #everyNth}), the calls kept ({@link #maxCalls}), how
     * much of each value ({@link #maxString}, {@link #maxElements}, {@link #maxDepth},
     * {@link #maxFields}, {@link #callToString}) and the shortest call kept ({@link #minNanos}).
     */
    public record TraceLimits(AgentOptions options) {
        // Each default a constant, so the command's help text is made from the same numbers.
        public static final int DEFAULT_PER_SECOND = 10_000;
        public static final int DEFAULT_EVERY_NTH = 1;
        public static final int DEFAULT_MAX_CALLS = 100_000;
        public static final int DEFAULT_MAX_STRING = 100;
        public static final int DEFAULT_MAX_ELEMENTS = 8;
        public static final int DEFAULT_MAX_DEPTH = 1;
        public static final int DEFAULT_MAX_FIELDS = 8;

        public long perSecond() {
            return options.<Long>get(Setting.RATE);
        }

        public int everyNth() {
            return options.<Integer>get(Setting.ONE_IN);
        }

        public int maxCalls() {
            return options.<Integer>get(Setting.MAX_CALLS);
        }

        public int maxString() {
            return options.<Integer>get(Setting.MAX_STRING);
        }

        public int maxElements() {
            return options.<Integer>get(Setting.MAX_ELEMENTS);
        }

        /** Describe other objects by their toString() too. */
        public boolean callToString() {
            return options.on(Setting.TO_STRING);
        }

        /** How deep objects are shown by their fields (1: an argument's own fields). */
        public int maxDepth() {
            return options.<Integer>get(Setting.MAX_DEPTH);
        }

        public int maxFields() {
            return options.<Integer>get(Setting.MAX_FIELDS);
        }

        /** Calls kept only when they took at least this long, in nanoseconds; 0 keeps any. */
        public long minNanos() {
            Duration d = options.get(Setting.MIN_DURATION);
            return d == null ? 0 : d.toNanos();
        }
    }

    /** What to trace and how. */
    public record Tracing(AgentOptions options) {
        /** The agent's default budget: 5 % of the program's CPU. */
        public static final int DEFAULT_BUDGET_PERCENT = 5;

        /** Which methods ({@link MethodFilter}). */
        public MethodFilter filter() {
            return options.get(Setting.TRACE);
        }

        /** Count, time, or trace. */
        public TraceMode mode() {
            return options.get(Setting.MODE);
        }

        /** What trace mode records. */
        public TraceLimits limits() {
            return new TraceLimits(options);
        }

        /**
         * The most the probes may add, as a share of the program's own CPU; above it the hottest
         * methods lose their probes (0: no budget, every method is traced whatever it costs).
         */
        public double overheadBudget() {
            return options.<Double>get(Setting.OVERHEAD);
        }

        /** Trace mode: calls kept only where this holds at their end, or null for any. */
        public CallCondition where() {
            return options.get(Setting.WHERE);
        }

        /** Trace mode: each call also times the call sites of the method's body, one level of callees (a watch's call tree). */
        public boolean tree() {
            return options.on(Setting.TREE);
        }

        /** {@code filter} traced in {@code mode} with no budget: what tests of exact counts want. */
        public static Tracing of(String filter, TraceMode mode) {
            Map<Setting, Setting.Given> given = new EnumMap<>(Setting.class);
            given.put(Setting.TRACE, new Setting.Given(Setting.TRACE.key(), filter));
            given.put(Setting.MODE, new Setting.Given(Setting.MODE.key(), name(mode)));
            given.put(Setting.OVERHEAD, new Setting.Given(Setting.OVERHEAD.key(), "0"));
            return AgentOptions.of(given, Setting.Naming.AGENT).tracing();
        }
    }

    /**
     * What to sample: every {@link #interval}, up to {@link #depth} frames (a deeper stack is
     * kept leaf first and marked truncated), the threads whose names match {@link #threads}
     * (globs separated by {@code ;}; null: all); with {@link #recompile} (the default), in a JVM
     * that ran a while before the session, the hottest classes are retransformed once so that
     * HotSpot compiles their code again with inlined methods' positions (the agent's
     * {@code Recompiler} says what that costs and what it leaves alone).
     */
    public record Sampling(AgentOptions options) {
        /** As async-profiler: deep enough for compilers' and frameworks' stacks. */
        public static final int DEFAULT_DEPTH = 2048;
        /** The deepest stack sampling takes: the recording's 4,096 frames, less the {@code [truncated]} root. */
        public static final int MAX_DEPTH = 4095;
        /** Frames kept of an allocation's or a wait's stack, whatever the sampling depth. */
        public static final int EVENT_DEPTH = 256;
        /** The shortest sampling interval: JFR's execution sampler takes no shorter period. */
        public static final Duration MIN_INTERVAL = Duration.ofMillis(1);

        public Duration interval() {
            return options.get(Setting.INTERVAL);
        }

        public SampleMode mode() {
            return options.get(Setting.SAMPLE_MODE);
        }

        public int depth() {
            return options.<Integer>get(Setting.DEPTH);
        }

        public String threads() {
            return options.get(Setting.THREADS);
        }

        public boolean recompile() {
            return options.on(Setting.RECOMPILE);
        }
    }

    /**
     * Continuous profiling, after async-profiler's {@code --loop}: the session's recording is
     * finished every {@link #period} and a new one begun, named by {@code %t} at that moment, so
     * each is complete and readable on its own; the {@link #keep} newest stay, older ones are deleted.
     */
    public record Loop(AgentOptions options) {
        /** An hour of one-minute profiles. */
        public static final int DEFAULT_KEEP = 60;

        public Duration period() {
            return options.get(Setting.LOOP);
        }

        public int keep() {
            return options.<Integer>get(Setting.KEEP);
        }
    }

    /**
     * Allocation profiling, after async-profiler's {@code --alloc}: JVMTI reports about one object
     * per {@link #intervalBytes} a thread allocates, with its class, size and stack; {@link #live}
     * keeps only those still alive when the recording ends (a leak finder), tracking at most
     * {@link #MAX_TRACKED} objects at once. {@link #overheadBudget}: the most sampling may cost,
     * as a share of the program's CPU; above it the interval is raised (0: never).
     */
    public record Allocations(AgentOptions options) {
        /** Objects tracked for {@code live} at once; samples beyond it are counted, not tracked. */
        public static final int MAX_TRACKED = 65_536;
        /**
         * The default budget, 1 % of the program's CPU: with what the agent costs besides (its heap
         * makes G1 work a little more, about 1 % in AllocBench), the whole stays near 2 %.
         */
        public static final int DEFAULT_BUDGET_PERCENT = 1;

        public long intervalBytes() {
            return options.<Long>get(Setting.ALLOC);
        }

        public boolean live() {
            return options.on(Setting.LIVE);
        }

        public double overheadBudget() {
            return options.<Double>get(Setting.ALLOC_OVERHEAD);
        }
    }

    /**
     * Lock profiling, after async-profiler's {@code --lock}: waits to enter a monitor or take a
     * {@code java.util.concurrent} lock, {@code Object.wait} calls and parks for a condition, that
     * lasted at least {@link #threshold}, with the waiter's stack and, for a long one, the holder's.
     */
    public record Locks(AgentOptions options) {
        public Duration threshold() {
            return options.get(Setting.LOCK);
        }
    }

    /**
     * The options of {@code key=value,...}: split at each {@code ,} outside parentheses, so that a
     * filter's Java parameter list ({@code trace=T::put(String, int)}) stays one option. Where a
     * {@code (} is never closed, at every {@code ,}: the filter then says what it misses, and the
     * other options stay options.
     */
    public static List<String> split(String text) {
        List<String> out = new ArrayList<>();
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
        if (depth != 0) return List.of(text.split(","));
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
     * command's flag), the others at the table's defaults: every value is read and checked by its
     * entry, in the table's order, then the session as a whole: that it collects something, that
     * a loop can name its files, and what each option needs ({@link Setting#checkNeeds}), in the
     * words of {@code naming}.
     *
     * @throws IllegalArgumentException naming the first option refused, as it was given
     */
    public static AgentOptions of(Map<Setting, Setting.Given> given, Setting.Naming naming) {
        EnumMap<Setting, Object> values = new EnumMap<>(Setting.class);
        for (Setting s : Setting.values()) {
            Setting.Given g = given.get(s);
            Object value = g != null ? s.read(g) : s.defaultValue();
            if (value != null) values.put(s, value);
        }
        // Checked as a whole first, so that a session with nothing to collect says so before what a lone option needs.
        AgentOptions options = new AgentOptions(values).checkedAsAWhole();
        Map<Setting, String> names = new EnumMap<>(Setting.class);
        given.forEach((s, g) -> names.put(s, g.name()));
        Setting.checkNeeds(names, options.tracing() == null ? null : options.tracing().mode(), naming);
        return options;
    }

    /** These settings, once checked as a session: it collects something, and a loop can name its files. */
    private AgentOptions checkedAsAWhole() {
        if (tracing() == null && !profiling()) {
            throw new IllegalArgumentException("missing trace=<filter> (or interval=<duration> to sample, alloc=<bytes>, lock=<duration>)");
        }
        if (loop() != null && !(recording() != null ? recording() : file()).contains("%t")) {
            throw new IllegalArgumentException("a loop writes a file per period: put %t (the time) in the file's name, e.g. profiles/cpu-%t.pb.gz");
        }
        return this;
    }

    /** The option string that {@link #parse} turns back into these settings, in the table's order; defaults are left out. */
    public String format() {
        List<String> options = new ArrayList<>();
        for (Setting s : Setting.values()) {
            String text = s.textOf(values.get(s));
            if (text != null) options.add(text.isEmpty() ? s.key() : s.key() + "=" + text);
        }
        return String.join(",", options);
    }

    /** The output asked for of the session in process {@code pid} (the command makes it from the recording). */
    public Path resultsFile(long pid) {
        return Path.of(expand(file(), pid));
    }

    /**
     * The output asked for, named after the session's {@code recording} once that is named: a
     * {@code %t} in the name is read once, so the output and its recording share it (x-…01.tpr
     * for x-…01.json), though the clock may have ticked in between.
     */
    public Path resultsFile(Path recording, long pid) {
        return recording() != null ? resultsFile(pid) : outputBeside(recording, file());
    }

    /** The recording of the session in process {@code pid}, all the agent writes: as asked, or beside the output. */
    public Path recordingFile(long pid) {
        return recording() != null ? Path.of(expand(recording(), pid)) : recordingBeside(resultsFile(pid));
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

    /** A sampling interval: a {@link #duration} of at least {@link Sampling#MIN_INTERVAL}. */
    static Duration samplingInterval(String name, String value) {
        Duration d = duration(name, value);
        if (d.compareTo(Sampling.MIN_INTERVAL) < 0) {
            throw new IllegalArgumentException("the sampling interval must be at least 1ms, not " + d.toNanos() + "ns");
        }
        return d;
    }

    /** A loop's period: a {@link #duration} of at least a second. */
    static Duration loopPeriod(String name, String value) {
        Duration d = duration(name, value);
        if (d.compareTo(Duration.ofSeconds(1)) < 0) throw new IllegalArgumentException("the loop period must be at least 1s");
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
