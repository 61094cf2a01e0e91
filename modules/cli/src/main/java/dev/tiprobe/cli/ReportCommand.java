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
@Command(name = "report", description = "Convert a results file; the format follows the extension of -f: .txt or .json.")
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
}
