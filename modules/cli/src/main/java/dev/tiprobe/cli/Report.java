package dev.tiprobe.cli;

import dev.tiprobe.options.AgentOptions;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The output format follows the file extension: the agent writes a recording and, when it
 * traces, JSON results; for a {@code .txt}, {@code .collapsed}, {@code .html} or {@code .pb.gz} name the command
 * converts them once the session has ended.
 */
final class Report {
    private Report() {}

    /**
     * Where the agent writes: the name itself for .json, else the name with .json added. The
     * session's recording goes beside it, with .tpr instead of .json.
     */
    static Path jsonFor(Path requested) throws CliException {
        String name = requested.getFileName().toString();
        if (name.endsWith(".json")) return requested;
        if (name.endsWith(".txt") || Samples.drawnFromSamples(name)) {
            return requested.resolveSibling(name + ".json");
        }
        throw new CliException("unknown format of '" + name + "': use .json, .txt, .collapsed, .html or .pb.gz (pprof)");
    }

    /** The recording the agent writes beside {@code json}. */
    static Path recordingFor(Path json) {
        return AgentOptions.recordingBeside(json);
    }

    /** {@code path} without {@code suffix}, which it ends with. */
    static String withoutSuffix(Path path, String suffix) {
        String s = path.toString();
        return s.substring(0, s.length() - suffix.length());
    }

    /** The results in the format {@code requested} names: {@code json} itself, or a report next to it. */
    static Path convert(Path json, String requested) throws CliException {
        if (!Samples.drawnFromSamples(requested) && !requested.endsWith(".txt")) return json;
        Path out = Path.of(withoutSuffix(json, ".json"));  // the name asked for: x.txt.json -> x.txt
        dev.tiprobe.report.Recording recording = Samples.read(recordingFor(json), new PrintWriter(System.err, true));
        if (!requested.endsWith(".txt") || !recording.samples().isEmpty()) {
            Samples.write(recording, recordingFor(json), out);
            return out;
        }
        Path txt = out;  // tracing alone: the results file also names what was not instrumented, and why
        Recording r = Recording.read(json);
        OutputFiles.write(txt, w -> TextReport.write(r, w, 20, 200));
        return txt;
    }
}
