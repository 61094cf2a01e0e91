package dev.tiprobe.cli;

import dev.tiprobe.options.AgentControl;
import dev.tiprobe.filter.CallCondition;
import dev.tiprobe.filter.MethodFilter;
import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.options.AgentOptions.TraceLimits;
import dev.tiprobe.options.AgentOptions.TraceMode;
import dev.tiprobe.recording.Reply;
import dev.tiprobe.report.Recording;
import dev.tiprobe.report.RecordingJson;
import dev.tiprobe.report.RecordingReader;
import dev.tiprobe.report.TracedText;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
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
final class WatchCommand extends SessionCommand {
    /** The most calls kept a second: more than anyone reads, and a bound on the stack walks a broad condition costs. */
    private static final long WATCHED_PER_SECOND = 1000;
    /** How often the session is asked for the calls that ended. */
    private static final Duration POLL = Duration.ofMillis(250);

    @Parameters(index = "1", paramLabel = "<filter>", description = "Methods to watch, as --trace takes them: 'com.foo.Bar::get*', 'com.foo.**'.")
    String filter;

    @Option(names = "--where", paramLabel = "<condition>",
            description = "Keep only calls where this holds: paths into arguments and fields (order.qty, args[1], returned.total), ==, !=, <, <=, >, >=,"
                    + " ~ (a glob), &&, ||, !, duration > 10ms, threw, threw IllegalStateException, thread ~ 'clerk-*'. Read from the values"
                    + " captured at the call; no code of the application runs.")
    String where;

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

    @Option(names = "--tree", description = "Under each call, the calls its body made, one level down, slowest first: the time in each"
            + " call site, its share of the call and how often it ran, then the method's own code; each watched call times its call sites.")
    boolean tree;

    @Mixin
    ValueLimits values;

    private Path directory;

    @Override
    String command() {
        return "start";
    }

    @Override
    String sessionOptions() throws CliException {
        if (stack && where == null) throw new UsageException("--stack shows the callers of the calls --where keeps: name a condition (--where 'threw', 'duration > 0ms')");
        TraceLimits limits = values.with(WATCHED_PER_SECOND, 1, TraceLimits.DEFAULT.maxCalls(), false, 0);
        AgentOptions.Tracing tracing = new AgentOptions.Tracing(MethodFilter.parse(filter), TraceMode.TRACE, limits,
                AgentOptions.Tracing.DEFAULT_BUDGET, where == null ? null : CallCondition.parse(where), tree);
        try {  // after each setting is checked on its own
            directory = Files.createTempDirectory("tiprobe-watch-");  // rwx------
        } catch (IOException e) {
            throw new CliException("cannot make a directory for the watch's recording: " + e.getMessage(), e);
        }
        return new AgentOptions(tracing, null, directory.resolve("watch.tpr").toString(), null, null, null, null, false).format();
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
                    + (where == null ? "" : " where " + where) + (count == null ? "" : ", " + count + " at most") + ", for "
                    + duration.toSeconds() + " s at most; Ctrl-C to stop");
            warnIfNothingMatched(started);
            Printed printed = new Printed();
            try (CtrlC ctrlC = CtrlC.listen()) {  // Ctrl-C waits (a while) for the stop, which restores the classes
                try {
                    long end = System.nanoTime() + duration.toNanos();
                    while (!ctrlC.await(POLL.toNanos()) && System.nanoTime() < end
                            && (count == null || printed.calls < count)) {
                        printNew(dumpOrExited(target, printed), printed);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                Reply last = reach(target, "stop");
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

    /** The session's answer to dump; a target that ended meanwhile is told as such, with the calls printed before. */
    private Reply dumpOrExited(Target target, Printed printed) throws CliException {
        try {
            return reach(target, "dump");
        } catch (CliException e) {
            if (!targetEndsWithin(Duration.ZERO)) throw e;
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
        for (Recording.Removed removed : r.tracing().removed()) {
            tellOnce(printed, "the probe of " + removed.method() + " came out at " + removed.callsPerSecond()
                    + " calls/s: its cost went over the overhead budget; its later calls are not watched");
        }
        if (r.calls().size() >= TraceLimits.DEFAULT.maxCalls()) {
            tellOnce(printed, TraceLimits.DEFAULT.maxCalls() + " calls kept: from here on the session keeps a random sample of the"
                    + " calls that end (trace mode's limit), so not every call is printed; narrow the filter or the condition");
        }
        List<Recording.Call> ended = new ArrayList<>();
        for (Recording.Call c : r.calls()) {
            if (c.durationNanos() >= 0 && printed.seen.add(new CallKey(c.threadId(), c.startEpochNanos(), c.depth(), c.methodId()))) ended.add(c);
        }
        ended.sort(Comparator.comparingLong(c -> c.startEpochNanos() + c.durationNanos()));
        PrintWriter out = spec.commandLine().getOut();
        for (Recording.Call c : ended) {
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
