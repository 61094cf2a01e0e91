package dev.tiprobe.options;

import dev.tiprobe.filter.CallCondition;
import dev.tiprobe.filter.MethodFilter;
import dev.tiprobe.filter.Untraceable;
import dev.tiprobe.options.AgentOptions.Allocations;
import dev.tiprobe.options.AgentOptions.Loop;
import dev.tiprobe.options.AgentOptions.SampleMode;
import dev.tiprobe.options.AgentOptions.Sampling;
import dev.tiprobe.options.AgentOptions.TraceLimits;
import dev.tiprobe.options.AgentOptions.TraceMode;
import dev.tiprobe.recording.JvmRecording;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Every option of a session, once: its agent key, the command's flags for it, the value it takes
 * and how that is read and checked, its default, what it needs and what it does. From this table
 * come the agent's option string, read ({@link AgentOptions#of}) and written ({@link
 * AgentOptions#format}) in its order; the settings themselves, which hold each value by its
 * entry ({@link AgentOptions#get}); the command's flags and their help (the cli's {@code
 * TableFlags}), whose values are read by the same readers; the check of what each option needs
 * ({@link #checkNeeds}); and the options reference in docs/ ({@link #reference}). A new option
 * is one entry here, read where it is used.
 */
public enum Setting {
    FILE("file", List.of("-f", "--file"), "<path>", Setting::oneValue,
            AgentOptions.DEFAULT_FILE, null,
            "The output, by its extension: `.json`, `.txt`, `.html`, `.collapsed`, `.pb.gz` (pprof), `.jfr` or `.tpr`, made from"
                    + " the recording the agent writes beside it (`x.tpr` for `x.json`, readable by its owner only). `%p` is the pid,"
                    + " `%t` a timestamp. Where no file is named, `collect` and `run` print the text report instead (the top methods,"
                    + " as asprof does; the traced methods and calls) and leave no file; under `-javaagent` the agent prints at exit"
                    + " the `tiprobe report` command that makes the output."),
    RECORDING("recording", List.of(), "<path>", Setting::oneValue,
            null, null,
            "Where the recording goes, when not beside the output (the command names it)."),
    TRACE("trace", List.of("--trace"), "<filter>", Setting::filter,
            null, null,
            "Which methods to trace: patterns separated by `;`, such as `com.foo.**;!com.foo.internal.**`, `com.foo.Bar::get*`"
                    + " or `@org.example.Timed` (the grammar: [docs/tracing.md](tracing.md))."),
    MODE("mode", List.of("--mode"), "count|time|trace", Setting::traceMode,
            "count", Need.TRACING,
            "count: calls; time: calls, total, min, max and a latency histogram (inclusive wall time); trace: each call with"
                    + " thread, depth, arguments and return value or exception, its duration leaving out tiprobe's own work on the"
                    + " thread meanwhile (the command's `--args` alone also means trace)."),
    RATE("rate", List.of("--calls-per-second"), "<n>", AgentOptions::rate,
            Integer.toString(TraceLimits.DEFAULT_PER_SECOND), Need.TRACE_MODE,
            "The most calls recorded a second over all threads; calls over it are counted as dropped. 0: no cap."),
    ONE_IN("onein", List.of("--one-in"), "<n>", AgentOptions::atLeastOne,
            Integer.toString(TraceLimits.DEFAULT_EVERY_NTH), Need.TRACE_MODE,
            "Record one call in n, chosen at random; each method's first call is kept whatever the limits."),
    MAX_CALLS("maxcalls", List.of("--max-calls"), "<n>", AgentOptions::count,
            Integer.toString(TraceLimits.DEFAULT_MAX_CALLS), Need.TRACE_MODE,
            "Calls kept: past that, each new one replaces a random kept one, so the calls kept are a uniform sample of the"
                    + " whole session, with each method's first call beside them."),
    MAX_STRING("maxstring", List.of("--max-string"), "<chars>", AgentOptions::count,
            Integer.toString(TraceLimits.DEFAULT_MAX_STRING), Need.TRACE_MODE,
            "Characters kept of a captured string; `watch --where` compares what was kept."),
    MAX_ELEMENTS("maxelements", List.of("--max-elements"), "<n>", AgentOptions::count,
            Integer.toString(TraceLimits.DEFAULT_MAX_ELEMENTS), Need.TRACE_MODE,
            "Elements kept of a captured array, and read by `watch --where`."),
    TO_STRING("tostring", List.of("--tostring"), "", AgentOptions::switchValue,
            null, Need.TRACE_MODE,
            "Describe other objects by their `toString()` (runs the application's code; a throwing or recursive one changes nothing)."),
    MAX_DEPTH("maxdepth", List.of("--max-depth"), "<n>", AgentOptions::count,
            Integer.toString(TraceLimits.DEFAULT_MAX_DEPTH), Need.TRACE_MODE,
            "How deep objects are shown by their fields, read without running the application's code (1: an argument's own"
                    + " fields; 2: their fields' fields too; 0: class and identity only)."),
    MAX_FIELDS("maxfields", List.of("--max-fields"), "<n>", AgentOptions::count,
            Integer.toString(TraceLimits.DEFAULT_MAX_FIELDS), Need.TRACE_MODE,
            "Fields shown of one object, and read by `watch --where`."),
    MIN_DURATION("minduration", List.of("--min-duration"), "<duration>", AgentOptions::duration,
            null, Need.TRACE_MODE,
            "Keep only calls that took at least this long (`10ms`, `500us`), as async-profiler's `--trace method:10ms`;"
                    + " arguments are still captured at every call, and the other limits count only the calls kept."),
    OVERHEAD("overhead", List.of("--overhead"), "<percent>", AgentOptions::percent,
            Integer.toString(AgentOptions.Tracing.DEFAULT_BUDGET_PERCENT), Need.TRACING,
            "The most the probes may add, in percent of the program's CPU; above it the hottest methods lose their probes,"
                    + " keeping their counts so far. 0: no limit."),
    WHERE("where", List.of("--where"), "<condition>", Setting::condition,
            null, Need.TRACE_MODE,
            "Keep only the calls a condition holds for, decided at each call's end from the values captured, no code of the"
                    + " application run: paths into arguments and fields (`order.qty`, `args[1]`, `returned.total`), `==`, `!=`, `<`,"
                    + " `<=`, `>`, `>=`, `~` (a glob), `&&`, `||`, `!`, `duration > 10ms`, `threw`, `threw IllegalStateException`,"
                    + " `thread ~ 'clerk-*'`. Each call kept has its stack (the grammar: [docs/watch.md](watch.md))."),
    TREE("tree", List.of("--tree"), "", AgentOptions::switchValue,
            null, Need.TRACE_MODE,
            "Under each call, the calls its body made, one level down, slowest first: the time in each call site, its share"
                    + " of the call and how often it ran, then the method's own code. Each call times the call sites of its body,"
                    + " kept with the call in the recording and the JSON (`callees`)."),
    INTERVAL("interval", List.of("--sample"), "<duration>", AgentOptions::samplingInterval,
            null, null,
            "Stack sampling, for flame graphs: a sample of every thread each interval (`10ms`, `1s`)."),
    SAMPLE_MODE("samplemode", List.of("--sample-mode"), "wall|cpu", Setting::sampleMode,
            "cpu", Need.SAMPLING,
            "cpu: the threads that used CPU, weighted by it; wall: every thread, running or waiting (the command's `-e cpu`"
                    + " and `-e wall` say it too)."),
    DEPTH("depth", List.of("-j", "--depth"), "<frames>", AgentOptions::frames,
            Integer.toString(Sampling.DEFAULT_DEPTH), Need.SAMPLING,
            "The most frames kept of a sampled stack, 1 to " + Sampling.MAX_DEPTH + ", as asprof's `-j`; a deeper stack is cut at"
                    + " the root under `[truncated]`. JFR's samples keep at most JFR's own depth (64 attached, "
                    + JvmRecording.MAX_STACK_DEPTH + " under `run`); allocation and lock stacks at most " + Sampling.EVENT_DEPTH + "."),
    THREADS("threads", List.of("--sample-threads"), "<globs>", Setting::oneValue,
            null, Need.SAMPLING,
            "Sample only the threads whose names match: globs separated by `;` (`worker-*;main`)."),
    RECOMPILE("recompile", List.of("--recompile", "--no-recompile"), "true|false", AgentOptions::switchValue,
            "true", Need.SAMPLING,
            "On by default: attached to a JVM that ran over 3 s, have HotSpot compile the hottest classes again, so that"
                    + " samples name the methods inlined into their loops; a class whose loop runs throughout is left as compiled,"
                    + " and the report names it; a class once a JVM. Off (`--no-recompile`, `recompile=false`) leaves all code as compiled."),
    ALLOC("alloc", List.of("--alloc"), "<bytes>", AgentOptions::bytes,
            null, null,
            "Allocation profiling: a sample about every that many bytes a thread allocates (`512k`, `1m`), with its class,"
                    + " size and stack."),
    LIVE("live", List.of("--live"), "", AgentOptions::switchValue,
            null, Need.ALLOCATIONS,
            "Keep only the allocated objects still alive when the recording ends (a leak finder)."),
    ALLOC_OVERHEAD("allocoverhead", List.of("--alloc-overhead"), "<percent>", AgentOptions::percent,
            Integer.toString(Allocations.DEFAULT_BUDGET_PERCENT), Need.ALLOCATIONS,
            "The most allocation sampling may cost, in percent of the program's CPU; above it the interval is raised, each"
                    + " sample weighing by the interval it was taken at. 0: no limit."),
    LOCK("lock", List.of("--lock"), "<duration>", AgentOptions::threshold,
            null, null,
            "Lock profiling: waits of at least that long (`1ms`, `0`) to enter a monitor or take a `java.util.concurrent`"
                    + " lock, and in `Object.wait` or parked for a condition, with the waiter's stack and, for a long one, the"
                    + " holder's."),
    QUIET("quiet", List.of(), "", AgentOptions::switchValue,
            null, null,
            "No line at exit on where the recording is (a launching command says it itself)."),
    MAX_MEMORY("maxmemory", List.of("--max-memory"), "<bytes>", AgentOptions::maxMemory,
            null, null,
            "The most memory tiprobe's own tables may take in the target (`64m`): past it tracing instruments no new class,"
                    + " and if that is not enough the session stops itself, its recording finished. Without it, "
                    + AgentOptions.AUTOMATIC_MAX_MEMORY_PERCENT + " % of the max heap, at least " + AgentOptions.AUTOMATIC_MAX_MEMORY_MIN_MB + "m."),
    LOOP("loop", List.of("--loop"), "<period>", AgentOptions::loopPeriod,
            null, Need.PROFILES_ONLY,
            "Continuous profiling: the recording is finished every period (`60s`, `5m`) and the next begun, each complete and"
                    + " readable on its own; `%t` in the file's name tells them apart."),
    KEEP("keep", List.of("--keep"), "<n>", AgentOptions::atLeastOne,
            Integer.toString(Loop.DEFAULT_KEEP), Need.LOOP,
            "How many of the newest files stay.");

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

    /** How an option's text becomes its value; {@code name} is what a refusal calls it (the key or the flag it was given by). */
    @FunctionalInterface
    interface Reader {
        Object read(String name, String text);
    }

    /** An option as given: the key or flag it was given by, and its text ("" for a switch given alone). */
    public record Given(String name, String text) {}

    private final String key;
    private final List<String> flags;
    private final String value;
    private final Reader reader;
    private final String defaultText;
    private final Need need;
    private final String help;

    Setting(String key, List<String> flags, String value, Reader reader, String defaultText, Need need, String help) {
        this.key = key;
        this.flags = flags;
        this.value = value;
        this.reader = reader;
        this.defaultText = defaultText;
        this.need = need;
        this.help = help;
    }

    /**
     * The value of {@code given}: a number, a duration, a filter… as the option's reader makes it;
     * null for a switch given off that is off unless given.
     *
     * @throws IllegalArgumentException naming the option as it was given, for a text it does not take
     */
    Object read(Given given) {
        Object value = reader.read(given.name(), given.text());
        return Boolean.FALSE.equals(value) && defaultText == null ? null : value;  // a switch off by default, given off: as if not given
    }

    /**
     * The option's text for {@code value} in the agent's string, as {@link #read} reads it back:
     * "" for a switch that is on, null where the option is left out (the value is the default,
     * or there is none).
     */
    String textOf(Object value) {
        if (value == null || value.equals(defaultValue()) || value.equals(false) && defaultText == null) return null;
        return switch (value) {
            case Boolean on -> on ? "" : "false";
            case Duration d -> d.isZero() ? "0" : AgentOptions.durationText(d);
            case Double share -> AgentOptions.percentText(share);
            case Enum<?> e -> e.name().toLowerCase(Locale.ROOT);
            default -> value.toString();
        };
    }

    /** The value an option has when not given, read from the default the table states; null where it has none. */
    Object defaultValue() {
        return defaultText == null ? null : reader.read(key, defaultText);
    }

    /** Whether the option is a switch: given alone, or with true or false. */
    public boolean isSwitch() {
        return value.isEmpty() || flags.stream().anyMatch(f -> f.startsWith("--no-"));
    }

    /** What the value looks like in help: {@code <n>}, {@code wall|cpu}; empty for a switch. */
    public String valueLabel() {
        return value;
    }

    /**
     * What the option does, for the command's help: the table's text as plain text, with its
     * default and what it needs, in the command's words.
     */
    public String commandHelp() {
        return commandHelp(true);
    }

    /** As {@link #commandHelp()}, leaving out what it needs where the command provides that itself. */
    public String commandHelp(boolean sayNeeds) {
        String text = help.replace("`", "").replaceAll("\\[([^]]*)]\\([^)]*\\)", "$1");  // [docs/watch.md](watch.md): the name
        if (defaultText != null && !isSwitch()) text += " Default: " + defaultText + ".";
        if (need != null && sayNeeds) text += " Needs " + need.commandText + ".";
        return text;
    }

    /** A text the agent's string can carry as one option: no {@code ,} outside parentheses. */
    private static String oneValue(String name, String text) {
        if (AgentOptions.split(text).size() > 1) {
            throw new IllegalArgumentException("',' separates options: no value may contain one outside parentheses: " + text);
        }
        return text;
    }

    /** A filter that can be traced: the probe's own classes are refused by name ({@link Untraceable}). */
    private static MethodFilter filter(String name, String text) {
        MethodFilter filter = MethodFilter.parse(oneValue(name, text));
        String refused = Untraceable.refused(filter);
        if (refused != null) throw new IllegalArgumentException(refused);
        return filter;
    }

    private static CallCondition condition(String name, String text) {
        return CallCondition.parse(oneValue(name, text));
    }

    private static TraceMode traceMode(String name, String text) {
        return AgentOptions.choice(TraceMode.class, name, text, "count, time or trace");
    }

    private static SampleMode sampleMode(String name, String text) {
        return AgentOptions.choice(SampleMode.class, name, text, "wall or cpu");
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
