package dev.tiprobe.cli;

import dev.tiprobe.filter.CallCondition;
import dev.tiprobe.options.AgentControl;
import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.options.Setting;
import dev.tiprobe.recording.Call;
import dev.tiprobe.recording.Removed;
import dev.tiprobe.recording.Reply;
import dev.tiprobe.report.Recording;
import dev.tiprobe.report.RecordingJson;
import dev.tiprobe.report.RecordingReader;
import dev.tiprobe.report.TracedText;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code tiprobe watch <pid> <filter>}: each call of the named methods printed as it ends, with
 * its arguments by their fields, what it returned or threw and how long it took, until {@code -n}
 * calls, {@code -d} or Ctrl-C; then every class is restored. {@code --where} keeps the calls a
 * condition holds for, tested in the target by tiprobe over the captured values
 * ({@link CallCondition}), never by running the application's code. Calls travel through the
 * session's recording: the command asks the session to write what it has four times a second
 * ({@code dump} over the control socket) and prints the calls it has not printed yet.
 */
@Command(name = "watch", description = "Print each call of the named methods as it ends: thread, arguments by their fields, what it returned"
        + " or threw, and how long it took; --where keeps the calls a condition holds for. Classes are restored at the end.",
        footerHeading = "%nExamples:%n", footer = {"  tiprobe watch 4242 'com.shop.Shop::checkout'",
        "  tiprobe watch -n 5 --where 'order.qty > 2 && duration > 1ms' 4242 'com.shop.Shop::checkout'",
        "  tiprobe watch -n 3 --tree --where 'duration > 10ms' 4242 'com.shop.Shop::checkout'",
        "  tiprobe watch -d 30s --where 'threw' --json 4242 'com.shop.**'"})
final class WatchCommand extends SessionCommand implements TableFlags.Holder {
    /** The most calls kept a second: more than anyone reads, and a bound on the stack walks a broad condition costs. */
    private static final long WATCHED_PER_SECOND = 1000;
    /** How often the session is asked for the calls that ended. */
    private static final Duration POLL = Duration.ofMillis(250);

    @Parameters(index = "1", paramLabel = "<filter>", description = "Methods to watch, as --trace takes them: 'com.foo.Bar::get*', 'com.foo.**'.")
    String filter;

    /** --where, --tree and how much of a value is kept, from the options table; watch is trace mode itself. */
    private final TableFlags table = new TableFlags(EnumSet.of(Setting.WHERE, Setting.TREE, Setting.MAX_STRING,
            Setting.MAX_ELEMENTS, Setting.MAX_DEPTH, Setting.MAX_FIELDS), false);

    @Override
    public TableFlags tableFlags() {
        return table;
    }

    @Option(names = "-n", paramLabel = "<count>", description = "Stop after this many calls.")
    Integer count;

    @Option(names = {"-d", "--duration"}, defaultValue = "60s", paramLabel = "<duration>", converter = CollectCommand.DurationConverter.class,
            description = "Stop after this long: 10s, 2m (default ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--json", description = "One JSON object a line, for scripts (with --where, each with its stack: frames by name and line, itself first;"
            + " with --tree, its callees).")
    boolean json;

    @Option(names = "--stack", description = "With --where: under each call, its callers, nearest first (a stack walk of each call printed).")
    boolean stack;

    private Path directory;

    @Override
    String command() {
        return "start";
    }

    @Override
    String sessionOptions() throws CliException {
        if (stack && !table.has(Setting.WHERE)) {
            throw new UsageException("--stack shows the callers of the calls --where keeps: name a condition (--where 'threw', 'duration > 0ms')");
        }
        Map<Setting, Setting.Given> given = table.given();
        given.put(Setting.TRACE, new Setting.Given("<filter>", filter));
        given.put(Setting.MODE, new Setting.Given("watch", "trace"));
        given.put(Setting.RATE, new Setting.Given("watch", Long.toString(WATCHED_PER_SECOND)));
        AgentOptions settings;
        try {
            settings = AgentOptions.of(given, Setting.Naming.COMMAND);
        } catch (IllegalArgumentException e) {  // a malformed filter or condition, a bad limit: before the directory is made
            throw new UsageException(e.getMessage());
        }
        try {
            directory = Files.createTempDirectory("tiprobe-watch-");  // rwx------
        } catch (IOException e) {
            throw new CliException("cannot make a directory for the watch's recording: " + e.getMessage(), e);
        }
        return settings.withFile(directory.resolve("watch.tpr").toString()).format();
    }

    @Override
    public Integer call() throws CliException {
        PrintWriter err = spec.commandLine().getErr();
        String options;
        try {
            options = agentOptions();  // a malformed filter or condition is refused before the target is touched
        } catch (IllegalArgumentException e) {  // the options together (a ',' in the condition) are checked after the directory is made
            deleteDirectory();
            throw new UsageException(e.getMessage());
        }
        try (Target target = Target.attach(pid)) {
            Reply started = startSession(target, options + "," + AgentControl.option(AgentControl.OWNER, ownerOfTheSession()));
            long methods = started.count(Reply.METHODS);
            err.println("tiprobe watch: " + methods + (methods == 1 ? " method" : " methods") + " instrumented; printing calls as they end"
                    + (table.has(Setting.WHERE) ? " where " + table.text(Setting.WHERE) : "") + (count == null ? "" : ", " + count + " at most") + ", for "
                    + duration.toSeconds() + " s at most; Ctrl-C to stop");
            warnIfNothingMatched(started);
            Printed printed = new Printed();
            try (CtrlC ctrlC = CtrlC.listen()) {  // Ctrl-C waits (a while) for the stop, which restores the classes
                try {
                    // The first look at once, not a poll later: a busy method's first calls end
                    // while the answer to the start is on its way.
                    long end = System.nanoTime() + duration.toNanos();
                    do {
                        printNew(answerOrExited(target, "dump", printed), printed);
                    } while ((count == null || printed.calls < count) && !ctrlC.await(POLL.toNanos()) && System.nanoTime() < end);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                Reply last = answerOrExited(target, "stop", printed);
                if (count == null || printed.calls < count) printNew(last, printed);
                err.println("tiprobe watch: " + printed.calls + (printed.calls == 1 ? " call" : " calls") + " printed; "
                        + (last.ok() ? "classes restored" : last.text()));
                deleteDirectory();  // before Ctrl-C's hook lets the JVM exit: the recording holds the program's values
            }
        } finally {
            deleteDirectory();
        }
        return Main.OK;
    }

    /**
     * The session's answer to {@code command} (dump, stop); a target that ends meanwhile, or
     * within {@link #STOP_GRACE} of a failed answer (a JVM exiting has closed its sockets while
     * its process lives on), is told as such, with the calls printed before.
     */
    private Reply answerOrExited(Target target, String command, Printed printed) throws CliException {
        try {
            return reach(target, command);
        } catch (CliException e) {
            if (!targetEndsWithin(STOP_GRACE)) throw e;
            throw new CliException("process " + pid + " exited during the watch, after " + printed.calls
                    + (printed.calls == 1 ? " call" : " calls") + " printed");
        }
    }

    /** What has been printed: calls by their identity, and the condition's notes. */
    private static final class Printed {
        final Set<CallKey> seen = new HashSet<>();
        final Set<String> notes = new LinkedHashSet<>();
        int calls;
    }

    /** A call as the recording identifies it. */
    private record CallKey(long threadId, long startEpochNanos, int depth, int methodId) {}

    /** Prints the calls the recording holds that were not printed yet, in the order they ended, and new notes on stderr. */
    private void printNew(Reply reply, Printed printed) throws CliException {
        String notes = reply.fact(Reply.NOTES);
        if (notes != null) {
            for (String note : notes.split("\n")) {
                tellOnce(printed, note);
            }
        }
        Path recording = reply.path(Reply.RECORDING);
        if (recording == null || !Files.exists(recording)) return;
        Recording r;
        try {
            r = RecordingReader.read(recording);
        } catch (IOException e) {
            throw new CliException("cannot read the session's recording: " + e.getMessage(), e);
        }
        for (Removed removed : r.tracing().removed()) {
            tellOnce(printed, "the probe of " + removed.method() + " came out at " + removed.callsPerSecond()
                    + " calls/s: its cost went over the overhead budget; its later calls are not watched");
        }
        if (r.calls().size() >= AgentOptions.TraceLimits.DEFAULT_MAX_CALLS) {
            tellOnce(printed, AgentOptions.TraceLimits.DEFAULT_MAX_CALLS + " calls kept: from here on the session keeps a random sample of the"
                    + " calls that end (trace mode's limit), so not every call is printed; narrow the filter or the condition");
        }
        List<Call> ended = new ArrayList<>();
        for (Call c : r.calls()) {
            if (c.durationNanos() >= 0 && printed.seen.add(new CallKey(c.threadId(), c.startEpochNanos(), c.depth(), c.methodId()))) ended.add(c);
        }
        ended.sort(Comparator.comparingLong(c -> c.startEpochNanos() + c.durationNanos()));
        PrintWriter out = spec.commandLine().getOut();
        for (Call c : ended) {
            if (count != null && printed.calls >= count) break;
            if (json) {
                StringBuilder b = new StringBuilder();
                RecordingJson.call(r, c, b);
                out.println(b);
            } else {
                out.println(TracedText.call(r, c, false));
                for (String branch : TracedText.callTree(c)) out.println("  " + branch);
                if (stack) for (String caller : TracedText.callers(r, c, Integer.MAX_VALUE)) out.println("    from " + caller);
            }
            printed.calls++;
        }
        out.flush();
    }

    /** A note on stderr, the first time it comes. */
    private void tellOnce(Printed printed, String note) {
        if (printed.notes.add(note)) spec.commandLine().getErr().println("tiprobe watch: note: " + note);
    }

    private void deleteDirectory() {
        if (directory == null) return;
        try (var files = Files.list(directory)) {
            files.forEach(Agent::delete);
        } catch (IOException ignored) {
            // left in the temporary directory
        }
        Agent.delete(directory);
    }
}
