package dev.tiprobe.cli;

import dev.tiprobe.options.AgentControl;
import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.recording.Reply;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.report.Export;
import dev.tiprobe.report.TextReport;
import dev.tiprobe.ids.HumanNames.FrameStyle;
import dev.tiprobe.report.FoldedStacks;
import dev.tiprobe.report.Recording;
import dev.tiprobe.report.RecordingFilter;
import dev.tiprobe.report.View;
import dev.tiprobe.report.RecordingReader;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code tiprobe collect}: start, show progress on stderr, stop at the end or at Ctrl-C, and
 * write the results. The default action.
 */
@Command(name = "collect", description = "Profile or trace a running JVM for a while (60 s unless -d says), then print or write"
        + " the results (the default action): with nothing named, a CPU profile whose top methods are printed, as asprof does.",
        footerHeading = "%nExamples:%n", footer = {"  tiprobe collect -d 30 4242", "  tiprobe collect -d 30s -e cpu,alloc -i 5ms -f profile.html 4242",
        "  tiprobe collect -d 10s --trace 'com.foo.**' --mode time -f out.txt 4242", "  tiprobe collect -d 30s --sample 10ms --sample-mode cpu -f cpu.html 4242",
        "  tiprobe collect -d 1h --sample 10ms --loop 60s --keep 30 -f 'profiles/cpu-%%t.pb.gz' 4242"})
final class CollectCommand extends SessionCommand {
    @Option(names = {"-d", "--duration"}, defaultValue = "60s", paramLabel = "<duration>", converter = DurationConverter.class,
            description = "How long: 10s, 500ms, 2m, 1h (a plain number is seconds, as asprof's -d). Default: ${DEFAULT-VALUE}, as asprof's.")
    Duration duration;

    @Mixin
    TraceOptions trace;

    @Mixin
    LoopOptions looping;

    @Option(names = {"-o", "--output"}, paramLabel = "flat|traces|collapsed|flamegraph|jfr|pprof", converter = OutputFormatConverter.class,
            description = "The output format, as asprof's -o: flat (the text report: the top methods, traced methods and calls;"
                    + " the default without -f), traces (the top stacks), collapsed (folded stacks), flamegraph (the .html page), jfr or"
                    + " pprof. Without -f, flat, traces and collapsed go to stdout; the others need -f with their extension (.html, .jfr,"
                    + " .pb.gz).")
    OutputFormat format;

    /** Reads -o in any case, and names the formats in lower case, as asprof spells them, when one is unknown. */
    static final class OutputFormatConverter implements picocli.CommandLine.ITypeConverter<OutputFormat> {
        @Override
        public OutputFormat convert(String value) {
            for (OutputFormat f : OutputFormat.values()) {
                if (f.toString().equalsIgnoreCase(value.strip())) return f;
            }
            throw new picocli.CommandLine.TypeConversionException("'" + value + "' is no format: use "
                    + java.util.Arrays.stream(OutputFormat.values()).map(OutputFormat::toString).collect(java.util.stream.Collectors.joining(", ")));
        }
    }

    /** asprof's {@code -o} formats, each with the extension of the file it writes (flat and traces print instead). */
    enum OutputFormat {
        FLAT(Export.TEXT), TRACES(Export.TEXT), COLLAPSED(Export.FOLDED), FLAMEGRAPH(Export.FLAME_GRAPH), JFR(Export.JFR), PPROF(Export.PPROF);

        final Export export;
        final String extension;

        OutputFormat(Export export) {
            this.export = export;
            this.extension = export.extension;
        }

        /** Whether it goes to stdout without -f. */
        boolean printable() {
            return this == FLAT || this == TRACES || this == COLLAPSED;
        }

        @Override
        public String toString() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    @Option(names = {"-t", "--threads"}, description = "Folded stacks split by thread, its name the root frame, as asprof's -t (collapsed output).")
    boolean perThread;

    @Option(names = "--include", paramLabel = "<glob>", description = "Keep only samples with a frame matching, as asprof's --include, e.g. '*Orders.total*' (repeatable).")
    List<String> includes = new java.util.ArrayList<>();

    @Option(names = "--exclude", paramLabel = "<glob>", description = "Drop samples with a frame matching, as asprof's --exclude (repeatable).")
    List<String> excludes = new java.util.ArrayList<>();

    private Path output;
    /** What goes to stdout instead of a file: flat (the top methods), traces or collapsed; null when a file is written. */
    private OutputFormat printed;
    /** With --loop: turns each finished recording into the output asked for. */
    private LoopExports loopExports;

    /**
     * The recording's name when the profile is only printed: in a temporary directory of its own
     * ({@link #printedDirectory}), deleted once printed, since nothing but the print was asked for
     * ({@code -f x.tpr} keeps a recording).
     */
    static final String PRINTED_RECORDING = "tiprobe-%p-%t.tpr";
    private Path printedDirectory;

    @Override
    String command() {
        return "start";
    }

    @Override
    String sessionOptions() throws CliException {
        if (!looping.asked()) {
            printed = printed();
            if (printed != null) printedDirectory = Agent.tempDirectory("tiprobe-");  // call() deletes it, whatever happens
            output = printed != null ? printedDirectory.resolve(AgentOptions.expand(PRINTED_RECORDING, pid)) : Agent.output(trace.file(), pid);
            return trace.agentOptions(output, looping);
        }
        if (format != null || perThread || !includes.isEmpty() || !excludes.isEmpty()) {
            throw new UsageException("-o, -t, --include and --exclude shape one output: with --loop, name the format by -f's extension"
                    + " and filter each profile with tiprobe report");
        }
        output = Agent.loopOutput(trace.file(), pid);
        AgentOptions settings = trace.settings(AgentOptions.recordingBeside(output), looping);  // recordings: this command converts them
        loopExports = new LoopExports(output, settings.loop().keep());
        return TraceOptions.agentOptions(settings);
    }

    @Override
    public Integer call() throws CliException {
        PrintWriter err = spec.commandLine().getErr();
        Path progress = null;
        try {
            String options = agentOptions();  // options that do not go together fail before the target is touched
            Agent.jar();  // a missing agent jar fails before the target is touched
            progress = Agent.tempFile("tiprobe-progress-");
            try (Target target = Target.attach(pid)) {
                long asked = System.currentTimeMillis();
                Reply started = startSession(target, options + "," + AgentControl.option(AgentControl.PROGRESS, progress)
                        + "," + AgentControl.option(AgentControl.OWNER, ownerOfTheSession()));
                long began = recordingBegan(started, asked, System.nanoTime(), System.currentTimeMillis());
                err.println("tiprobe collect: " + started.text());
                warnIfNothingMatched(started);
                try (CtrlC ctrlC = CtrlC.listen()) {  // Ctrl-C waits (a while) for the stop, the report and the summary below
                    try {
                        showProgress(ctrlC, progress, began, err);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    finish(target);  // inside: a Ctrl-C's hook waits for it
                }
            }
        } finally {  // whatever ended the command, even a refused option: nothing of its own is left behind
            if (progress != null) Agent.delete(progress);
            if (printedDirectory != null) Agent.deleteDirectory(printedDirectory);
        }
        return Main.OK;
    }

    /**
     * When the session began recording, on this command's {@link System#nanoTime} clock: the
     * moment its answer gives ({@link Reply#RECORDING_SINCE}), so that {@code -d 5} is five seconds
     * of recording, the session's own set-up after that among them. {@code nowNanos} where the
     * answer gives none, or one the clocks place outside the load: before it was asked for
     * ({@code askedMillis}) or after the answer came ({@code nowMillis}).
     */
    static long recordingBegan(Reply started, long askedMillis, long nowNanos, long nowMillis) {
        long since = started.count(Reply.RECORDING_SINCE);
        if (since < askedMillis || since > nowMillis) return nowNanos;
        return nowNanos - (nowMillis - since) * 1_000_000L;
    }

    /**
     * Says each second how far the session is, from when it {@code began} recording until its duration ends or Ctrl-C; a target that
     * exits, or a session that stops itself (its recording then made into the output), ends the
     * command. On a terminal the line rewrites itself; in a file or a pipe, where carriage returns
     * would join every second into one line, it is a line of its own after the first second and
     * every {@link #LOGGED_PROGRESS} seconds after.
     */
    private void showProgress(CtrlC ctrlC, Path progress, long began, PrintWriter err) throws CliException, InterruptedException {
        boolean terminal = stderrIsATerminal();
        Runnable endLine = () -> {
            if (terminal) err.println();
        };
        long end = began + duration.toNanos();
        long nextLogged = 1;
        while (!ctrlC.await(Math.min(1_000_000_000L, end - System.nanoTime())) && System.nanoTime() < end) {
            if (targetEndsWithin(Duration.ZERO)) {
                endLine.run();
                throw new CliException(exitedDuringTheSession());
            }
            if (loopExports != null) loopExports.convertFinished(false, err).forEach(f -> {
                endLine.run();
                err.println("tiprobe collect: wrote " + f);
            });
            long elapsed = (System.nanoTime() - began) / 1_000_000_000L;
            Reply now = Agent.read(progress);
            if (now != null && now.kind().equals(Reply.IDLE)) {  // the session stopped itself, its recording finished
                endLine.run();
                String why = "the session stopped itself: " + now.fact(Reply.WHY);
                Path recording = Report.recordingFor(output);
                if (Files.notExists(recording)) throw new CliException(why);  // it stopped because its recording was removed
                outputFromRecording(recording);
                throw new CliException(why);
            }
            String line = String.format("tiprobe collect: %d s elapsed, %d s left%s", elapsed,
                    Math.max(0, duration.toSeconds() - elapsed), progress(now));
            if (terminal) {
                err.print("\r" + line + "   ");
            } else if (elapsed >= nextLogged) {
                err.println(line);
                nextLogged = (elapsed / LOGGED_PROGRESS + 1) * LOGGED_PROGRESS;
            }
            err.flush();
        }
        endLine.run();
        if (ctrlC.wasPressed()) err.println("tiprobe collect: interrupted: stopping and writing what was asked for");
    }

    /** Seconds between progress lines where stderr is not a terminal. */
    static final long LOGGED_PROGRESS = 10;

    /**
     * Whether this process's stderr is a terminal, on Linux from what its descriptor 2 links to.
     * Where that cannot be read (another system), taken to be one: Java tells only whether stdin
     * and stdout are, and a profile sent to a file with stderr on the terminal would lose its
     * progress line.
     */
    static boolean stderrIsATerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return true;
        }
    }

    /** Stops the session (through its control socket, or by loading the agent where it has none), writes the format asked for, and says so. */
    private void finish(Target target) throws CliException {
        Reply stopped;
        try {
            stopped = reach(target, "stop");
        } catch (CliException e) {
            // the program ended as the session's time did: the agent finished the recording at its exit
            if (!targetEndsWithin(STOP_GRACE)) throw e;
            throw new CliException(exitedDuringTheSession());
        }
        Path recording = recordingKept(stopped);
        // a loop's last period's recording is a profile now, like the others: say where they all are
        String finished = finishedText(stopped, loopExports != null ? "profiles in " + output.getParent()
                : printed != null ? "the recording is not kept (-f x.tpr keeps one)" : "recording in " + recording);
        if (printed != null) spec.commandLine().getErr().println("tiprobe collect: " + finished);  // stdout is the profile's
        outputFromRecording(recording != null ? recording : Report.recordingFor(output));
        if (printed == null) spec.commandLine().getOut().println(finished);
    }

    /** What was asked for, from the finished recording: the top methods printed, the output written, or the loop's profiles. */
    private void outputFromRecording(Path recording) throws CliException {
        if (loopExports != null) {
            loopExports.convertFinished(true, spec.commandLine().getErr()).forEach(this::written);
        } else if (printed != null) {
            print(filtered(Exports.read(recording, spec.commandLine().getErr())));
        } else if (!perThread && includes.isEmpty() && excludes.isEmpty()) {
            made(recording, output);
        } else if (!recording.equals(output)) {
            List<String> notes = write(filtered(Exports.read(recording, spec.commandLine().getErr())), recording);
            written(output);
            Exports.say(spec, notes);
        }
    }

    /**
     * {@code r} (of {@code recording}) as the output asked for, folded stacks under their threads
     * with -t; what to say beside it ({@link Exports#write}).
     */
    private List<String> write(Recording r, Path recording) throws CliException {
        if (!perThread) return Exports.write(r, recording, output);
        OutputFiles.write(output, w -> FoldedStacks.write(View.natural(r).of(r), w, true, FrameStyle.SLASH));
        return Exports.notesBeside(r, recording, output, Export.FOLDED, null);
    }

    /** The profile on stdout, as asprof prints it without a file: the top methods, or folded stacks. */
    private void print(Recording r) throws CliException {
        PrintWriter out = spec.commandLine().getOut();
        if (printed == OutputFormat.FLAT) {
            TextReport.write(r, null, out, Export.TOP_ROWS, Export.CALLS_PRINTED);
            return;
        }
        if (printed == OutputFormat.TRACES) {
            traces(r, out, 20);
            return;
        }
        try {
            FoldedStacks.write(View.natural(r).of(r), out, perThread, FrameStyle.SLASH);
            out.flush();
        } catch (IOException e) {
            throw new CliException("cannot print the folded stacks: " + e.getMessage(), e);
        }
    }

    /**
     * The {@code top} heaviest stacks of the recording's natural view, as asprof's {@code -o traces}
     * prints them: {@code --- 1230000000 (45.10%)}, then the frames, the leaf first.
     */
    static void traces(Recording r, PrintWriter out, int top) {
        java.util.Map<String, Long> folded = FoldedStacks.fold(View.natural(r).of(r), false, FrameStyle.DOT);
        long total = folded.values().stream().mapToLong(Long::longValue).sum();
        folded.entrySet().stream().sorted(java.util.Map.Entry.<String, Long>comparingByValue().reversed()).limit(top).forEach(e -> {
            out.printf(java.util.Locale.ROOT, "--- %d (%.2f%%)%n", e.getValue(), total == 0 ? 0 : 100.0 * e.getValue() / total);
            String[] frames = e.getKey().split(";");
            for (int i = frames.length - 1; i >= 0; i--) out.printf(java.util.Locale.ROOT, "  [%2d] %s%n", frames.length - 1 - i, frames[i]);
            out.println();
        });
        out.flush();
    }

    /** {@code r} with only the samples --include and --exclude keep. */
    private Recording filtered(Recording r) {
        return new RecordingFilter(includes, excludes, java.util.List.of(), 0, Long.MAX_VALUE).apply(r);
    }

    /**
     * What goes to stdout, checking -o and -t against -f: flat where nothing is named to write
     * (no -f; -o flat or none), traces or collapsed for those without -f, null for a file.
     */
    private OutputFormat printed() throws UsageException {
        String file = trace.fileAsked();
        if (format != null) {
            if (file != null && format == OutputFormat.TRACES) {
                throw new UsageException("-o traces prints the top stacks: leave out -f (a .txt file holds the full report)");
            }
            if (file != null && !format.export.names(file)) {
                throw new UsageException("-o " + format + " writes " + format.extension + ": name the file so (-f …" + format.extension + ")");
            }
            if (file == null && !format.printable()) {
                throw new UsageException("-o " + format + " writes a file: name it with -f (e.g. -f profile" + format.extension + ")");
            }
        }
        if (file != null && RecordingFormat.isRecording(file) && (perThread || !includes.isEmpty() || !excludes.isEmpty())) {
            throw new UsageException("-t, --include and --exclude shape a profile: a .tpr keeps the whole recording (tiprobe report"
                    + " filters it later)");
        }
        boolean collapsed = format == OutputFormat.COLLAPSED || (file != null && Export.FOLDED.names(file));
        if (perThread && !collapsed) throw new UsageException("-t splits folded stacks by thread: use -o collapsed or -f x.collapsed");
        if (file != null) return null;
        if (format != null) return format;
        return trace.textToStdout() ? OutputFormat.FLAT : null;
    }

    /**
     * What is left of a session whose target ended before it did: the recording, finished by the
     * agent at a normal exit, or up to its last whole chunk (a chunk a second) when the JVM was
     * killed; and the format asked for, made from it.
     */
    private String exitedDuringTheSession() {
        String exited = "process " + pid + " exited during the session; ";
        Path recording = Report.recordingFor(output);
        Recording r;
        try {
            r = RecordingReader.read(recording);
        } catch (IOException | RuntimeException e) {
            return exited + "it left no readable recording (" + recording + ")";
        }
        String held = r.ended()
                ? "the agent finished the recording at exit"
                : String.format("it did not finish the recording (was it killed?): %s holds %d samples, %d allocation samples,"
                        + " %d waits and %d traced calls in %d chunks, up to %s", recording, r.samples().size(),
                        r.events().allocations().size(), r.events().locks().size(), r.calls().size(), r.chunks(),
                        r.chunks() == 0 ? "its start" : "its last whole chunk");
        if (printed != null) {
            try {
                print(filtered(r));
            } catch (CliException e) {
                return exited + held + "; " + e.getMessage();
            }
            return exited + held;
        }
        if (recording.equals(output)) return exited + held + ": " + recording;
        try {
            List<String> notes = write(filtered(r), recording);
            return exited + held + "; wrote " + output + " from it" + String.join("", notes.stream().map(n -> "; " + n).toList());
        } catch (CliException e) {
            return exited + held + "; " + e.getMessage();
        }
    }

    /** {@code , 123 calls, 456 samples, 7 allocation samples, 2 waits}: every engine's count in the last status, or nothing before the first. */
    static String progress(Reply status) {
        if (status == null) return "";
        StringBuilder b = new StringBuilder();
        for (String[] count : new String[][] {{Reply.CALLS, "calls"}, {Reply.SAMPLES, "samples"}, {Reply.ALLOCATIONS, "allocation samples"},
                {Reply.WAITS, "waits"}}) {
            long n = status.count(count[0]);
            if (n >= 0) b.append(", ").append(n).append(' ').append(count[1]);
        }
        return b.toString();
    }

    /**
     * {@code -d} in the options' one duration grammar ({@link AgentOptions#duration}), where a plain
     * number is seconds as well: {@code -d 30} is asprof's most typed flag.
     */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                String v = value.strip();
                return AgentOptions.duration("-d", !v.isEmpty() && v.chars().allMatch(Character::isDigit) ? v + "s" : v);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException("-d must be a positive duration such as 30 (seconds), 500ms, 5m or 1h, not '"
                        + value + "'");
            }
        }
    }
}
