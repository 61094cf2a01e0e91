package dev.tiprobe.cli;

import dev.tiprobe.filter.MethodFilter;
import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.options.Setting;
import dev.tiprobe.recording.PrivateFiles;
import dev.tiprobe.report.Export;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What a session collects, shared by collect, start and run: the options table's flags
 * ({@link TableFlags}) and asprof's ways of naming a profile ({@code -e}, {@code -i}, and
 * {@code --args} for trace mode).
 */
final class TraceOptions implements TableFlags.Holder {
    /** The table's settings, but watch's own and the loop's ({@link LoopOptions}). */
    private final TableFlags table = new TableFlags(
            EnumSet.complementOf(EnumSet.of(Setting.WHERE, Setting.TREE, Setting.LOOP, Setting.KEEP)), true);

    @Override
    public TableFlags tableFlags() {
        return table;
    }

    @Option(names = "--args", description = "Capture arguments and return values: the same as --mode trace.")
    boolean args;

    @Option(names = {"-e", "--event"}, paramLabel = "<events>",
            description = "asprof's way to name what to collect: cpu or wall, alloc, lock, several with ',' (-e cpu,alloc);"
                    + " the same as --sample 10ms --sample-mode cpu|wall, --alloc 512k, --lock 10ms, which may come beside it.")
    String events;

    @Option(names = {"-i", "--interval"}, paramLabel = "<interval>",
            description = "The interval of -e's first event, or of the CPU profile when nothing is named, as asprof's -i"
                    + " (defaults: 10ms for cpu or wall, 512k for alloc, 10ms for lock).")
    String interval;

    /** What is collected where nothing is named, as asprof does: a CPU profile, a sample every 10 ms. */
    static final String DEFAULT_SAMPLE = "10ms";

    /** The output asked for with -f, or the default. */
    String file() {
        String file = fileAsked();
        return file != null ? file : AgentOptions.DEFAULT_FILE;
    }

    /** The output asked for with -f, or null. */
    String fileAsked() {
        return table.text(Setting.FILE);
    }

    /** Whether methods are traced. */
    boolean tracing() {
        return table.has(Setting.TRACE);
    }

    /** What -e's alloc and lock mean without -i: async-profiler's habits. */
    static final String DEFAULT_ALLOC = "512k";
    static final String DEFAULT_LOCK = "10ms";

    /** The settings that say what is profiled, which tiprobe's own flags and asprof's -e and -i both give. */
    private static final Set<Setting> PROFILED = EnumSet.of(Setting.INTERVAL, Setting.SAMPLE_MODE, Setting.ALLOC, Setting.LOCK);

    /** Whether the flags name nothing to collect (then it is {@link #DEFAULT_SAMPLE}'s CPU profile). */
    boolean nothingNamed() {
        return !tracing() && !table.has(Setting.INTERVAL) && !table.has(Setting.ALLOC) && !table.has(Setting.LOCK) && events == null;
    }

    /**
     * What is profiled, each setting by the flag that gave it: tiprobe's own flags, asprof's
     * {@code -e} beside them (each thing named once), {@code -i} for the first event of {@code -e}
     * or, with nothing named, for the CPU profile that is then taken; a usage error where they do
     * not make sense.
     */
    Map<Setting, Setting.Given> profiled() throws CliException {
        Map<Setting, Setting.Given> profiled = new EnumMap<>(Setting.class);
        Map<Setting, Setting.Given> given = table.given();
        for (Setting s : PROFILED) if (given.containsKey(s)) profiled.put(s, given.get(s));
        if (nothingNamed()) {
            profiled.put(Setting.INTERVAL, interval != null ? new Setting.Given("-i", interval) : new Setting.Given("--sample", DEFAULT_SAMPLE));
            return profiled;
        }
        if (events == null) {
            if (interval != null) throw new UsageException("-i sets the interval of -e's first event, or of the CPU profile when nothing else is named");
            return profiled;
        }
        Setting first = null;
        Set<String> seen = new HashSet<>();
        for (String event : events.split(",")) {
            String e = event.strip().toLowerCase(Locale.ROOT);
            if (!seen.add(e)) throw new UsageException("-e names " + e + " twice");
            Setting named = switch (e) {
                case "cpu", "wall" -> {
                    if (table.has(Setting.INTERVAL)) throw new UsageException("-e " + e + " and --sample both name the stack sampling: name it once");
                    if (profiled.containsKey(Setting.INTERVAL)) throw new UsageException("-e takes one of cpu and wall");
                    if (table.has(Setting.SAMPLE_MODE)) throw new UsageException("-e " + e + " says the sampling mode: leave out --sample-mode");
                    profiled.put(Setting.SAMPLE_MODE, new Setting.Given("-e", e));
                    yield named(profiled, Setting.INTERVAL, DEFAULT_SAMPLE);
                }
                case "alloc" -> {
                    if (table.has(Setting.ALLOC)) throw new UsageException("-e alloc and --alloc both name allocation profiling: name it once");
                    yield named(profiled, Setting.ALLOC, DEFAULT_ALLOC);
                }
                case "lock" -> {
                    if (table.has(Setting.LOCK)) throw new UsageException("-e lock and --lock both name lock profiling: name it once");
                    yield named(profiled, Setting.LOCK, DEFAULT_LOCK);
                }
                default -> throw new UsageException("-e names cpu, wall, alloc or lock (several with ','), not '" + event.strip() + "'");
            };
            if (first == null) first = named;
        }
        if (interval != null) profiled.put(first, new Setting.Given("-i", interval));
        return profiled;
    }

    /** Names {@code setting} as -e does, at async-profiler's default. */
    private static Setting named(Map<Setting, Setting.Given> profiled, Setting setting, String defaultValue) {
        profiled.put(setting, new Setting.Given(setting.flag(), defaultValue));
        return setting;
    }

    /**
     * collect and run without -f: the text report goes to stdout, as asprof prints a flat profile,
     * the traced methods' tables with it; nothing was asked to be kept, so no file is left.
     */
    boolean textToStdout() {
        return fileAsked() == null;
    }

    /**
     * The session these flags ask for, results to {@code output}: every setting is checked here,
     * before any process is touched, with the flag's name in the message.
     */
    AgentOptions settings(Path output) throws CliException {
        return settings(output, null);
    }

    /** As {@link #settings(Path)}, with {@code looping}'s flags (null: a command without them). */
    AgentOptions settings(Path output, LoopOptions looping) throws CliException {
        Map<Setting, Setting.Given> given = table.given();
        given.keySet().removeAll(PROFILED);
        given.putAll(profiled());
        if (args && !given.containsKey(Setting.MODE)) given.put(Setting.MODE, new Setting.Given("--args", "trace"));
        given.put(Setting.FILE, new Setting.Given("-f", output.toString()));
        if (looping != null) given.putAll(looping.tableFlags().given());
        if (output.toString().contains(",")) throw new UsageException("the output's name cannot contain ','");
        Report.checked(output);
        String directory = PrivateFiles.directoryProblem(output);  // before the target is touched, and of the file asked for
        if (directory != null) throw new CliException("cannot write " + output + ": " + directory);
        boolean profiling = given.containsKey(Setting.INTERVAL) || given.containsKey(Setting.ALLOC) || given.containsKey(Setting.LOCK);
        if (!profiling && Export.holdsOnlyStacks(file())) {
            throw new UsageException("-f " + file() + " needs --sample, --alloc or --lock: " + Export.ONLY_STACKS_FOR_TRACING);
        }
        String filter = table.text(Setting.TRACE);
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
        String threads = table.text(Setting.THREADS);
        if (threads != null && threads.contains(",")) throw new UsageException("--sample-threads cannot contain ',': separate globs with ';'");
        try {
            return AgentOptions.of(given, Setting.Naming.COMMAND);
        } catch (IllegalArgumentException e) {  // a bad value, a filter, an option without what it needs
            throw new UsageException(e.getMessage());
        }
    }

    /** The agent's option string for these settings. */
    String agentOptions(Path output) throws CliException {
        return agentOptions(output, null);
    }

    /** As {@link #agentOptions(Path)}, with {@code looping}'s flags (null: a command without them). */
    String agentOptions(Path output, LoopOptions looping) throws CliException {
        return agentOptions(settings(output, looping));
    }

    /** The agent's option string for {@code settings}. */
    static String agentOptions(AgentOptions settings) throws CliException {
        try {
            return settings.format();
        } catch (IllegalArgumentException e) {  // a rule the flags' own check missed: said before the target is touched
            throw new UsageException(e.getMessage());
        }
    }
}
