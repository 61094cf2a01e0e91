package dev.tiprobe.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code tiprobe report <recording> -f <file>}: the format follows the extension (.txt, .json). */
@Command(name = "report", description = "Convert results: a .json results file to .txt or .json, a .tpr recording to .html, .collapsed, .pb.gz (pprof) or .txt.",
        footerHeading = "%nExamples:%n", footer = {"  tiprobe report out.json -f out.txt", "  tiprobe report out.tpr -f flame.html --thread 'worker-*'",
                "  tiprobe report out.tpr -f out.pb.gz   (then: go tool pprof -top out.pb.gz)"})
final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "<recording>", description = "A results file tiprobe wrote.")
    Path recording;

    @Option(names = {"-f", "--file"}, required = true, paramLabel = "<file>", description = "Output: .txt or .json; '-' for text on stdout.")
    String file;

    @Option(names = "--calls", paramLabel = "<n>", defaultValue = "50", description = "Traced calls shown in text (default ${DEFAULT-VALUE}).")
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

    @Option(names = "--lines", description = "Recordings: name frames by method and source line (Class.method:42).")
    boolean lines;

    @Override
    public Integer call() throws CliException {
        if (recording.toString().endsWith(".tpr")) return samples();
        if (!file.equals("-") && !file.endsWith(".txt") && !file.endsWith(".json")) {
            throw new CommandLine.ParameterException(spec.commandLine(), "unknown format of '" + file + "': use .txt or .json");
        }
        Recording r = Recording.read(recording);
        if (file.equals("-")) {
            TextReport.write(r, spec.commandLine().getOut(), 20, calls);
            return Main.OK;
        }
        Path out = Path.of(file).toAbsolutePath();
        if (file.endsWith(".json")) {
            OutputFiles.write(out, w -> w.write(Files.readString(recording, StandardCharsets.UTF_8)));  // already checked whole
        } else {
            OutputFiles.write(out, w -> TextReport.write(r, w, 20, calls));
        }
        spec.commandLine().getErr().println("tiprobe report: wrote " + out);
        return Main.OK;
    }

    /**
     * A recording, its samples filtered by --include/--exclude/--thread/--from/--to: .html (flame
     * graph), .collapsed (folded stacks), .pb.gz (pprof), .json (everything, with names) or .txt (top methods and
     * traced calls); '-' prints the text.
     */
    private Integer samples() throws CliException {
        if (!file.equals("-") && !file.endsWith(".txt") && !Samples.drawnFromSamples(file) && !file.endsWith(".json")) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "unknown format of '" + file + "' for a recording: use .html, .collapsed, .pb.gz, .json or .txt");
        }
        dev.tiprobe.report.Recording r;
        try {
            r = new dev.tiprobe.report.RecordingFilter(includes, excludes, threads,
                    Math.round(from * 1e9), to < 0 ? Long.MAX_VALUE : Math.round(to * 1e9))
                    .apply(Samples.read(recording, spec.commandLine().getErr()));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--from and --to: " + e.getMessage());
        }
        dev.tiprobe.report.Recording shown = lines ? r.withLines() : r;
        if (file.equals("-")) {
            Samples.writeText(shown, spec.commandLine().getOut(), 20, calls);
            return Main.OK;
        }
        Path out = Path.of(file).toAbsolutePath();
        if (file.endsWith(".txt") || file.endsWith(".json")) {
            OutputFiles.write(out, w -> {
                if (file.endsWith(".json")) dev.tiprobe.report.RecordingJson.write(shown, w);
                else Samples.writeText(shown, w, 20, calls);
            });
        } else {
            Samples.write(shown, recording, out);
        }
        spec.commandLine().getErr().println("tiprobe report: wrote " + out);
        return Main.OK;
    }
}
