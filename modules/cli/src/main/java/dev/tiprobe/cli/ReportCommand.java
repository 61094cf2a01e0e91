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
import java.util.concurrent.Callable;

/** {@code tiprobe report <recording> -f <file>}: the format follows the extension (.txt, .json). */
@Command(name = "report", description = "Convert results: a .json results file to .txt or .json, a .tpr recording to .html, .collapsed or .txt.")
final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "<recording>", description = "A results file tiprobe wrote.")
    Path recording;

    @Option(names = {"-f", "--file"}, required = true, paramLabel = "<file>", description = "Output: .txt or .json; '-' for text on stdout.")
    String file;

    @Option(names = "--calls", paramLabel = "<n>", defaultValue = "50", description = "Traced calls shown in text (default ${DEFAULT-VALUE}).")
    int calls;

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
        try {
            if (file.endsWith(".json")) {
                Files.copy(recording, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING);  // already checked whole
            } else {
                try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8))) {
                    TextReport.write(r, w, 20, calls);
                }
            }
        } catch (IOException e) {
            throw new CliException("cannot write " + out + ": " + e.getMessage(), e);
        }
        spec.commandLine().getErr().println("tiprobe report: wrote " + out);
        return Main.OK;
    }

    /** A sampling recording: .html (flame graph), .collapsed (folded stacks) or .txt (top methods); '-' prints the text. */
    private Integer samples() throws CliException {
        if (!file.equals("-") && !file.endsWith(".txt") && !file.endsWith(".collapsed") && !file.endsWith(".html")) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "unknown format of '" + file + "' for a recording: use .html, .collapsed or .txt");
        }
        dev.tiprobe.report.Recording r = Samples.read(recording, spec.commandLine().getErr());
        if (file.equals("-")) {
            Samples.writeText(r, spec.commandLine().getOut(), 20);
            return Main.OK;
        }
        Path out = Path.of(file).toAbsolutePath();
        if (file.endsWith(".txt")) {
            try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(out, StandardCharsets.UTF_8))) {
                Samples.writeText(r, w, 20);
            } catch (IOException e) {
                throw new CliException("cannot write " + out + ": " + e.getMessage(), e);
            }
        } else {
            Samples.write(r, recording, out);
        }
        spec.commandLine().getErr().println("tiprobe report: wrote " + out);
        return Main.OK;
    }
}
