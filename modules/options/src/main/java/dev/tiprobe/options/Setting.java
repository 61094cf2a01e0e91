package dev.tiprobe.options;

import dev.tiprobe.options.AgentOptions.Allocations;
import dev.tiprobe.options.AgentOptions.Loop;
import dev.tiprobe.options.AgentOptions.Sampling;
import dev.tiprobe.options.AgentOptions.TraceLimits;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every option of a session, once: its agent key, the command's flags for it, the value it takes,
 * its default, what it does, and what it needs. The agent's option string is parsed and written in
 * this order ({@link AgentOptions}), the command and the agent check what an option needs here
 * ({@link #checkNeeds}), and the options reference in docs/ is made from it ({@link #reference}).
 */
public enum Setting {
    FILE("file", List.of("-f", "--file"), "<path>", AgentOptions.DEFAULT_FILE, null,
            "The output the command makes, by its extension; the agent writes the recording beside it (`x.tpr` for"
                    + " `x.json`, readable by its owner only) and, under `-javaagent`, prints at exit the `tiprobe report` command"
                    + " that makes the output. `%p` is the pid, `%t` a timestamp."),
    RECORDING("recording", List.of(), "<path>", null, null,
            "Where the recording goes, when not beside the output (the command names it)."),
    TRACE("trace", List.of("--trace"), "<filter>", null, null,
            "Which methods to trace: patterns separated by `;` (the filter grammar in [Method tracing](tracing.md))."),
    MODE("mode", List.of("--mode"), "count|time|trace", "count", Need.TRACING,
            "count: calls; time: calls, total, min, max and a latency histogram (inclusive wall time); trace: each call with"
                    + " thread, depth, arguments and return value or exception, its duration leaving out tiprobe's own work on the"
                    + " thread meanwhile (the command's `--args` alone also means trace)."),
    RATE("rate", List.of("--calls-per-second"), "<n>", Integer.toString(TraceLimits.DEFAULT_PER_SECOND), Need.TRACE_MODE,
            "The most calls recorded a second over all threads; calls over it are counted as dropped. 0: no cap."),
    ONE_IN("onein", List.of("--one-in"), "<n>", Integer.toString(TraceLimits.DEFAULT_EVERY_NTH), Need.TRACE_MODE,
            "Record one call in n, chosen at random; each method's first call is kept whatever the limits."),
    MAX_CALLS("maxcalls", List.of("--max-calls"), "<n>", Integer.toString(TraceLimits.DEFAULT_MAX_CALLS), Need.TRACE_MODE,
            "Calls kept: past that, each new one replaces a random kept one, so the calls kept are a uniform sample of the"
                    + " whole session, with each method's first call beside them."),
    MAX_STRING("maxstring", List.of("--max-string"), "<chars>", Integer.toString(TraceLimits.DEFAULT_MAX_STRING), Need.TRACE_MODE,
            "Characters kept of a captured string."),
    MAX_ELEMENTS("maxelements", List.of("--max-elements"), "<n>", Integer.toString(TraceLimits.DEFAULT_MAX_ELEMENTS), Need.TRACE_MODE,
            "Elements kept of a captured array."),
    TO_STRING("tostring", List.of("--tostring"), "", null, Need.TRACE_MODE,
            "Describe other objects by their `toString()` (runs the application's code; a throwing or recursive one changes nothing)."),
    MAX_DEPTH("maxdepth", List.of("--max-depth"), "<n>", Integer.toString(TraceLimits.DEFAULT_MAX_DEPTH), Need.TRACE_MODE,
            "How deep objects are shown by their fields, read without running the application's code (1: an argument's own"
                    + " fields; 2: their fields' fields too; 0: class and identity only)."),
    MAX_FIELDS("maxfields", List.of("--max-fields"), "<n>", Integer.toString(TraceLimits.DEFAULT_MAX_FIELDS), Need.TRACE_MODE,
            "Fields shown of one object."),
    MIN_DURATION("minduration", List.of("--min-duration"), "<duration>", null, Need.TRACE_MODE,
            "Keep only calls that took at least this long (`10ms`, `500us`), as async-profiler's `--trace method:10ms`."),
    OVERHEAD("overhead", List.of("--overhead"), "<percent>", Integer.toString(AgentOptions.Tracing.DEFAULT_BUDGET_PERCENT), Need.TRACING,
            "The most the probes may add, in percent of the program's CPU; above it the hottest methods lose their probes,"
                    + " keeping their counts so far. 0: no limit."),
    WHERE("where", List.of("--where"), "<condition>", null, Need.TRACE_MODE,
            "Keep only the calls a condition holds for, decided at each call's end, each with its stack (the command's is"
                    + " `watch --where`; the grammar in [Watching calls as they end](watch.md))."),
    TREE("tree", List.of("--tree"), "", null, Need.TRACE_MODE,
            "Each call also times the call sites of the method's body, one level of callees, kept with the call in the"
                    + " recording and the JSON (`callees`); the command's is `watch --tree`."),
    INTERVAL("interval", List.of("--sample"), "<duration>", null, null,
            "Stack sampling: a sample of every thread each interval (`10ms`, `1s`)."),
    SAMPLE_MODE("samplemode", List.of("--sample-mode"), "wall|cpu", "cpu", Need.SAMPLING,
            "cpu: the threads that used CPU, weighted by it; wall: every thread, running or waiting."),
    DEPTH("depth", List.of("-j", "--depth"), "<frames>", Integer.toString(Sampling.DEFAULT_DEPTH), Need.SAMPLING,
            "The most frames kept of a sampled stack, cut at the root under `[truncated]`."),
    THREADS("threads", List.of("--sample-threads"), "<globs>", null, Need.SAMPLING,
            "Sample only the threads whose names match: globs separated by `;` (`worker-*;main`)."),
    RECOMPILE("recompile", List.of("--recompile", "--no-recompile"), "true|false", "true", Need.SAMPLING,
            "Attached to a JVM that ran over 3 s, have HotSpot compile the hottest code again, so that samples name the"
                    + " methods inlined into it; false leaves compiled code as it is."),
    ALLOC("alloc", List.of("--alloc"), "<bytes>", null, null,
            "Allocation profiling: a sample about every that many bytes a thread allocates (`512k`, `1m`)."),
    LIVE("live", List.of("--live"), "", null, Need.ALLOCATIONS,
            "Keep only the allocated objects still alive when the recording ends (a leak finder)."),
    ALLOC_OVERHEAD("allocoverhead", List.of("--alloc-overhead"), "<percent>", Integer.toString(Allocations.DEFAULT_BUDGET_PERCENT),
            Need.ALLOCATIONS, "The most allocation sampling may cost, in percent of the program's CPU; above it the interval is"
                    + " raised. 0: no limit."),
    LOCK("lock", List.of("--lock"), "<duration>", null, null,
            "Lock profiling: waits of at least that long (`1ms`, `0`) to enter a monitor or take a `java.util.concurrent`"
                    + " lock, and in `Object.wait` or parked for a condition."),
    QUIET("quiet", List.of(), "", null, null,
            "No line at exit on where the recording is (a launching command says it itself)."),
    MAX_MEMORY("maxmemory", List.of("--max-memory"), "<bytes>",
            AgentOptions.AUTOMATIC_MAX_MEMORY_PERCENT + " % of the max heap, at least " + AgentOptions.AUTOMATIC_MAX_MEMORY_MIN_MB + "m", null,
            "The most memory tiprobe's own tables may take in the target: past it tracing instruments no new class, and if"
                    + " that is not enough the session stops itself, its recording finished."),
    LOOP("loop", List.of("--loop"), "<period>", null, Need.PROFILES_ONLY,
            "A recording per period, each readable on its own; `%t` in the file's name tells them apart."),
    KEEP("keep", List.of("--keep"), "<n>", Integer.toString(Loop.DEFAULT_KEEP), Need.LOOP, "How many of the newest files stay.");

    /** What an option is for, and so needs beside it. */
    public enum Need {
        TRACING("tracing", "trace=<filter>", "--trace <filter>"),
        TRACE_MODE("trace mode", "trace=<filter> and mode=trace", "--trace <filter> and --mode trace"),
        SAMPLING("stack sampling", "interval=<duration>", "--sample <interval> or -e cpu|wall"),
        ALLOCATIONS("allocation profiling", "alloc=<bytes>", "--alloc <bytes> or -e alloc"),
        LOOP("a loop of recordings", "loop=<period>", "--loop <period>"),
        PROFILES_ONLY("rotating profiles", "interval=, alloc= or lock=, and no trace=", "--sample, --alloc or --lock, and no --trace");

        private final String what;
        private final String agentText;
        private final String commandText;

        Need(String what, String agentText, String commandText) {
            this.what = what;
            this.agentText = agentText;
            this.commandText = commandText;
        }
    }

    /** Whose words a message uses: the agent's keys or the command's flags. */
    public enum Naming {
        AGENT, COMMAND;

        String name(Need n) {
            return this == AGENT ? n.agentText : n.commandText;
        }
    }

    private final String key;
    private final List<String> flags;
    private final String value;
    private final String defaultText;
    private final Need need;
    private final String help;

    Setting(String key, List<String> flags, String value, String defaultText, Need need, String help) {
        this.key = key;
        this.flags = flags;
        this.value = value;
        this.defaultText = defaultText;
        this.need = need;
        this.help = help;
    }

    /** The agent's key: {@code alloc} in {@code alloc=512k}. */
    public String key() {
        return key;
    }

    /** The command's flags for it, none for an option only the agent takes. */
    public List<String> flags() {
        return flags;
    }

    /** The command's long flag for it ({@code --depth} of {@code -j, --depth}), or its key where the command has none. */
    public String flag() {
        return flags.stream().filter(f -> f.startsWith("--")).findFirst().orElse(key);
    }

    private static final Map<String, Setting> BY_KEY;

    static {
        Map<String, Setting> byKey = new java.util.HashMap<>();
        for (Setting s : values()) byKey.put(s.key, s);
        BY_KEY = Map.copyOf(byKey);
    }

    /** Keys that once meant something else, with what to write instead. */
    private static final Map<String, String> RENAMED = Map.of(
            "sample", "sample= is now onein= (record one call in n); stack sampling is interval=<duration>");

    /**
     * The option of an agent key.
     *
     * @throws IllegalArgumentException for a key no option has
     */
    public static Setting ofKey(String key) {
        Setting s = BY_KEY.get(key);
        if (s != null) return s;
        String renamed = RENAMED.get(key);
        throw new IllegalArgumentException(renamed != null ? renamed : "unknown option '" + key + "'");
    }

    /**
     * Checks that each option given has what it needs beside it.
     *
     * @param givenAs the options given, each with the name it was given by ({@code live}, {@code --live})
     * @param mode    the trace mode in effect (null when nothing is traced)
     * @param naming  whose words name what is needed
     * @throws IllegalArgumentException naming the first option that lacks what it needs
     */
    public static void checkNeeds(Map<Setting, String> givenAs, AgentOptions.TraceMode mode, Naming naming) {
        for (Setting s : values()) {
            String name = givenAs.get(s);
            if (name == null || s.need == null || has(s.need, givenAs.keySet(), mode)) continue;
            throw new IllegalArgumentException(name + " is for " + s.need.what + ": it needs " + naming.name(s.need));
        }
    }

    private static boolean has(Need need, Set<Setting> given, AgentOptions.TraceMode mode) {
        return switch (need) {
            case TRACING -> given.contains(TRACE);
            case TRACE_MODE -> given.contains(TRACE) && mode == AgentOptions.TraceMode.TRACE;
            case SAMPLING -> given.contains(INTERVAL);
            case ALLOCATIONS -> given.contains(ALLOC);
            case LOOP -> given.contains(LOOP);
            case PROFILES_ONLY -> (given.contains(INTERVAL) || given.contains(ALLOC) || given.contains(LOCK)) && !given.contains(TRACE);
        };
    }

    /** The options reference, docs/options.md: a table made from this one, so that it cannot go stale. */
    public static String reference() {
        StringBuilder b = new StringBuilder();
        b.append("# Options reference\n\n");
        b.append("Every option of a session, as the agent takes it (`-javaagent:tiprobe-agent.jar=<key>=<value>,…`) and as\n");
        b.append("the command takes it (`tiprobe collect|start|run|watch`). Made from the options table in\n");
        b.append("`modules/options` (`Setting`); a test fails when this page and the table differ.\n\n");
        b.append("| agent key | command flag | value | default | needs | what it does |\n");
        b.append("|---|---|---|---|---|---|\n");
        for (Setting s : values()) {
            List<String> cells = new ArrayList<>();
            cells.add("`" + s.key + "`");
            cells.add(s.flags.isEmpty() ? "(agent only)" : String.join(", ", s.flags.stream().map(f -> "`" + f + "`").toList()));
            cells.add(s.value.isEmpty() ? "(a switch)" : "`" + s.value + "`");
            cells.add(s.defaultText == null ? "" : s.defaultText.contains(" ") ? s.defaultText : "`" + s.defaultText + "`");
            cells.add(s.need == null ? "" : "`" + s.need.agentText + "`");
            cells.add(s.help);
            b.append("| ").append(String.join(" | ", cells.stream().map(c -> c.replace("|", "\\|")).toList())).append(" |\n");
        }
        b.append("\nA switch is given alone (`live`) or with `=true` or `=false`. Durations take a unit (`10ms`, `500us`, `1s`);\n");
        b.append("sizes take `k`, `m` or `g`; percentages are plain numbers (`5`). In the agent's string a `,` inside a\n");
        b.append("filter's parentheses belongs to the filter.\n");
        return b.toString();
    }
}
