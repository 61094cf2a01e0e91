package dev.tiprobe.cli;

import dev.tiprobe.ids.HumanNames.FrameStyle;
import dev.tiprobe.report.Export;
import dev.tiprobe.report.TextReport;
import dev.tiprobe.report.Recording;
import dev.tiprobe.report.RecordingFilter;
import dev.tiprobe.report.View;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code tiprobe report <recording> -f <file>}: a recording (the one file the agent writes) into
 * the format the file's extension names, its samples filtered on the way.
 */
@Command(name = "report", description = "Make a report from a recording (tiprobe's .tpr, or a JFR recording: the JVM's own or"
        + " async-profiler's .jfr): .json, .txt, .html, .collapsed, .pb.gz (pprof) or .jfr (for JMC, IntelliJ IDEA, jfr print).",
        footerHeading = "%nExamples:%n", footer = {"  tiprobe report out.tpr -f out.txt", "  tiprobe report out.tpr -f flame.html --thread 'worker-*'",
                "  tiprobe report out.tpr -f out.pb.gz   (then: go tool pprof -top out.pb.gz)",
                "  tiprobe report app.jfr -f flame.html --event alloc   (jcmd <pid> JFR.dump, or async-profiler's -o jfr)"})
final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "<recording>", description = "A recording tiprobe wrote (.tpr), or a JFR recording (.jfr).")
    Path recording;

    @Option(names = {"-f", "--file"}, paramLabel = "<file>", defaultValue = "-",
            description = "Output: .json, .txt, .html, .collapsed, .pb.gz or .jfr; '-' for text on stdout (the default).")
    String file;

    @Option(names = "--calls", paramLabel = "<n>", defaultValue = "" + Export.CALLS_PRINTED, description = "Traced calls shown in text (default ${DEFAULT-VALUE}).")
    int calls;

    @Option(names = "--include", paramLabel = "<glob>", description = "Recordings: keep samples with a frame matching, e.g. '*Orders.total*' (repeatable).")
    List<String> includes = new ArrayList<>();

    @Option(names = "--exclude", paramLabel = "<glob>", description = "Recordings: drop samples with a frame matching (repeatable).")
    List<String> excludes = new ArrayList<>();

    @Option(names = "--thread", paramLabel = "<glob>", description = "Recordings: keep only threads whose name matches (repeatable).")
    List<String> threads = new ArrayList<>();

    @Option(names = "--from", paramLabel = "<s>", defaultValue = "0", description = "Recordings: seconds after the start to begin at.")
    double from;

    @Option(names = "--to", paramLabel = "<s>", defaultValue = "-1", description = "Recordings: seconds after the start to end at (default: the end).")
    double to;

    @Option(names = "--event", paramLabel = "<view>",
            description = "Recordings: the view to draw: cpu, wall, alloc, live, lock or wait (default: the recording's own, cpu or wall"
                    + " for samples). The page holds every view the recording has and opens on this one.")
    String event;

    @Option(names = "--lines", description = "Recordings: name frames by method and source line (Class.method:42).")
    boolean lines;

    @Option(names = "--names", paramLabel = "<style>",
            description = "Recordings: how flame graphs, folded stacks and pprof name frames: slash (java/lang/String.valueOf, as"
                    + " async-profiler does; the default), dot (java.lang.String.valueOf, as JFR does) or full"
                    + " (java.base/java.lang.String.valueOf, with the module or jar, as text and JSON do).")
    String names = "slash";

    @Option(names = "--diff", paramLabel = "<base>",
            description = "Recordings: compare one view with a base recording (.tpr or .jfr) in a differential flame graph (.html:"
                    + " widths from this recording, red where a frame's share grew, blue where it shrank) or folded stacks"
                    + " (.collapsed: each stack's weight in the base, then in this one, as difffolded.pl writes them). For pprof,"
                    + " export both and run go tool pprof -diff_base.")
    Path diff;

    /**
     * The recording, its samples filtered by --include/--exclude/--thread/--from/--to, as the
     * output's name asks; '-' prints the text.
     */
    @Override
    public Integer call() throws CliException {
        Export format = file.equals("-") ? Export.TEXT : Export.forFile(file).orElse(null);
        if (format == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "unknown format of '" + file + "': use " + Export.NAMES);
        }
        if (lines && format.keepsLines()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "a JFR file keeps each frame's line: leave out --lines");
        }
        if (diff != null && lines) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--diff compares methods, not lines: leave out --lines");
        }
        if (diff != null && file.equals("-")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--diff draws a page or folded stacks: name one with -f x.html or -f x.collapsed");
        }
        if (diff != null && !format.diffs()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--diff writes .html or .collapsed; for pprof, export each"
                    + " recording to .pb.gz and compare them with go tool pprof -diff_base=base.pb.gz new.pb.gz");
        }
        RecordingFilter filter;
        try {
            filter = new RecordingFilter(includes, excludes, threads, Math.round(from * 1e9), to < 0 ? Long.MAX_VALUE : Math.round(to * 1e9));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--from and --to: " + e.getMessage());
        }
        FrameStyle frames = switch (names.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "slash" -> FrameStyle.SLASH;
            case "dot" -> FrameStyle.DOT;
            case "full" -> FrameStyle.FULL;
            default -> throw new CommandLine.ParameterException(spec.commandLine(),
                    "--names: '" + names + "' is no style: use slash, dot or full");
        };
        View view;
        try {
            view = event == null ? null : View.of(event.strip().toLowerCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--event: " + e.getMessage());
        }
        Recording r = filter.apply(Exports.read(recording, spec.commandLine().getErr()));
        if (view != null && !View.in(r).contains(view)) {
            if (view == View.LOCK && r.noContention() != null) throw new CliException(recording + " holds no lock view: " + r.noContention());
            if (view == View.WALL && !r.samples().isEmpty()) {
                throw new CliException(recording + " holds no wall view: its samples are of running threads (record with --sample-mode wall)");
            }
            throw new CliException(recording + " holds no " + view.id() + " view: it has " + (View.in(r).isEmpty() ? "none"
                    : String.join(", ", View.in(r).stream().map(View::id).toList())) + hint(view));
        }
        Export.Options options = Export.Options.of(r, recording.getFileName().toString()).withView(view).withFrames(frames).withCalls(calls);
        if (diff != null) return diff(r, filter, format, options);
        Recording shown = lines ? r.withLines() : r;
        if (file.equals("-")) {
            TextReport.write(shown, view, spec.commandLine().getOut(), Export.TOP_ROWS, calls);
            return Main.OK;
        }
        Path out = Path.of(file).toAbsolutePath();
        List<String> notes = Exports.write(shown, recording, out, options);
        spec.commandLine().getErr().println("tiprobe report: wrote " + out);
        Exports.say(spec, notes);
        return Main.OK;
    }

    /** {@code now} against the recording {@code --diff} names, in one view, filtered alike. */
    private int diff(Recording now, RecordingFilter filter, Export format, Export.Options options) throws CliException {
        View drawn = options.drawn(now);
        Recording base = filter.apply(Exports.read(diff, spec.commandLine().getErr()));
        for (Recording r : List.of(now, base)) {
            if (!View.in(r).contains(drawn)) {
                throw new CliException((r == now ? recording : diff) + " holds no " + drawn.id() + " view to compare" + hint(drawn));
            }
        }
        Path out = Path.of(file).toAbsolutePath();
        Export.Options titled = options.withTitle("tiprobe: " + recording.getFileName() + " against " + diff.getFileName());
        OutputFiles.writeBytes(out, o -> format.writeDiff(base, now, drawn, titled, o));
        spec.commandLine().getErr().println("tiprobe report: wrote " + out);
        return Main.OK;
    }

    /** How to record the view that is missing. */
    private static String hint(View v) {
        return switch (v) {
            case CPU, WALL -> " (record with --sample)";
            case ALLOC -> " (record with --alloc)";
            case LIVE -> " (record with --alloc and --live)";
            case LOCK, WAIT -> " (record with --lock)";
        };
    }
}
