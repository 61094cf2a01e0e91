package dev.tiprobe.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The output format follows the file extension: the agent always writes JSON, and for a
 * {@code .txt} name the command converts it once the session has ended.
 */
final class Report {
    private Report() {}

    /**
     * Where the agent writes: the name itself for .json, else the name with .json added. A
     * sampling recording goes beside it, with .tpr instead of .json.
     */
    static Path jsonFor(Path requested) throws CliException {
        String name = requested.getFileName().toString();
        if (name.endsWith(".json")) return requested;
        if (name.endsWith(".txt") || name.endsWith(".collapsed") || name.endsWith(".html")) {
            return requested.resolveSibling(name + ".json");
        }
        throw new CliException("unknown format of '" + name + "': use .json, .txt, .collapsed or .html");
    }

    /** The recording the agent writes beside {@code json}. */
    static Path recordingFor(Path json) {
        String s = json.toString();
        return Path.of(s.substring(0, s.length() - ".json".length()) + ".tpr");
    }

    /** The results in the format {@code requested} names: {@code json} itself, or a text report next to it. */
    static Path convert(Path json, String requested) throws CliException {
        if (requested.endsWith(".collapsed") || requested.endsWith(".html")) {
            Path out = Path.of(json.toString().substring(0, json.toString().length() - ".json".length()));
            Samples.write(recordingFor(json), out);
            return out;
        }
        if (!requested.endsWith(".txt")) return json;
        Path txt = Path.of(json.toString().substring(0, json.toString().length() - ".json".length()));
        Recording r = Recording.read(json);
        try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(txt, StandardCharsets.UTF_8))) {
            TextReport.write(r, w, 20, 200);
        } catch (IOException e) {
            throw new CliException("cannot write " + txt + ": " + e.getMessage(), e);
        }
        return txt;
    }
}
