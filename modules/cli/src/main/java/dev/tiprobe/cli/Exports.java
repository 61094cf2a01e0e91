package dev.tiprobe.cli;

import dev.tiprobe.ids.HumanNames.FrameStyle;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.report.FlameGraphHtml;
import dev.tiprobe.report.FoldedStacks;
import dev.tiprobe.report.JfrExport;
import dev.tiprobe.report.Pprof;
import dev.tiprobe.report.JfrRecordings;
import dev.tiprobe.report.Recording;
import dev.tiprobe.report.RecordingJson;
import dev.tiprobe.report.RecordingReader;
import dev.tiprobe.report.View;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * A recording (.tpr, the one file the agent writes) into the format a file name asks for: JSON,
 * text, a flame graph page, folded stacks, a pprof profile or a JFR file.
 */
final class Exports {
    private Exports() {}

    /** The names {@code -f} takes, for messages. */
    static final String FORMATS = ".json, .txt, .html, .collapsed, .pb.gz (pprof), .jfr (JFR) or .tpr (the recording itself)";

    /**
     * Reads a recording: tiprobe's (a damaged one gives its whole chunks, before and after the
     * damage, and a warning on stderr) or a JFR recording (the JVM's own, async-profiler's).
     */
    static Recording read(Path file, PrintWriter err) throws CliException {
        try {
            if (JfrRecordings.isJfr(file)) return JfrRecordings.read(file);
            Recording r = RecordingReader.read(file);
            if (r.damage() != null) {
                err.println("tiprobe: " + file + " is damaged (" + r.damage() + "); using its " + r.chunks() + " whole chunks");
            }
            return r;
        } catch (RecordingReader.NotARecordingException e) {
            String name = file.getFileName().toString();
            throw new CliException(file + " is " + (name.endsWith(".json") ? "a JSON export, not a recording; report reads the recording"
                    + " (.tpr) the agent wrote" : "not a tiprobe recording: " + e.getMessage()), e);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new CliException("no such file: " + file, e);
        } catch (IOException e) {
            throw new CliException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Whether a file of this name is drawn from stacks: a flame graph, folded stacks, a pprof profile. */
    static boolean drawnFromSamples(String name) {
        return name.endsWith(".html") || name.endsWith(".collapsed") || name.endsWith(".pb.gz");
    }

    /** Whether tiprobe can write a file of this name from a recording. */
    static boolean known(String name) {
        return name.endsWith(".json") || name.endsWith(".txt") || drawnFromSamples(name) || name.endsWith(".jfr") || name.endsWith(".tpr");
    }

    /**
     * {@code r} as {@code out}'s name asks: JSON for {@code .json}, the text report for
     * {@code .txt}, a flame graph for {@code .html}, folded stacks for {@code .collapsed}, a pprof
     * profile for {@code .pb.gz}; {@code recording} names the source on the page.
     */
    static void write(Recording r, Path recording, Path out) throws CliException {
        write(r, recording, out, null, FrameStyle.SLASH);
    }

    /**
     * As {@link #write(Recording, Path, Path)}, drawing {@code view} (null: the recording's natural
     * one, {@link View#natural}): the page opens on it, folded stacks and pprof hold it, the text
     * report shows its top frames. The page, folded stacks and pprof name frames in {@code frames};
     * text and JSON name methods whole, with their module or jar.
     */
    static void write(Recording r, Path recording, Path out, View view, FrameStyle frames) throws CliException {
        String name = out.toString();
        View drawn = view != null ? view : View.natural(r);
        if (name.endsWith(".pb.gz")) {
            OutputFiles.writeBytes(out, o -> Pprof.write(drawn.of(r), frames, o));
            return;
        }
        if (name.endsWith(".jfr")) {  // every view's events, as a JFR file: the view and the frames' spelling are the reader's
            OutputFiles.writeBytes(out, o -> JfrExport.write(r, o));
            return;
        }
        OutputFiles.write(out, w -> {
            if (name.endsWith(".html")) FlameGraphHtml.write(r, view, frames, w, "tiprobe: " + r.info().getOrDefault(RecordingFormat.INFO_PROGRAM, recording.getFileName().toString()));
            else if (name.endsWith(".json")) RecordingJson.write(r, w);
            else if (name.endsWith(".txt")) TextReport.write(r, view, w, 20, 200);
            else FoldedStacks.write(drawn.of(r), w, false, frames);
        });
    }
}
