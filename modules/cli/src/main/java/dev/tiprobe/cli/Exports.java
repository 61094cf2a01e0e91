package dev.tiprobe.cli;

import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.report.Export;
import dev.tiprobe.report.JfrRecordings;
import dev.tiprobe.report.Recording;
import dev.tiprobe.report.RecordingReader;
import dev.tiprobe.report.View;

import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A recording (.tpr, the one file the agent writes, or a JFR file) read, and written into the
 * format a file name asks for ({@link Export}).
 */
final class Exports {
    private Exports() {}

    /** The names {@code -f} takes, for messages. */
    static final String FORMATS = Export.NAMES + " or " + RecordingFormat.EXTENSION + " (the recording itself)";

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
            if (!e.headerMissing()) throw new CliException(file + ": " + e.getMessage(), e);
            boolean json = Export.JSON.names(file.getFileName().toString());
            throw new CliException(file + " is " + (json ? "a JSON export, not a recording; report reads the recording"
                    + " (.tpr) the agent wrote" : "neither a tiprobe recording (.tpr) nor a JFR recording (.jfr)"), e);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new CliException("no such file: " + file, e);
        } catch (IOException e) {
            throw new CliException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Whether tiprobe can write a file of this name from a recording: an export, or the recording itself. */
    static boolean known(String name) {
        return Export.forFile(name).isPresent() || RecordingFormat.isRecording(name);
    }

    /** The format of {@code out}, which {@link #known} has passed and which is no recording. */
    static Export of(Path out) {
        return Export.forFile(out.getFileName().toString())
                .orElseThrow(() -> new IllegalArgumentException("no format writes " + out));
    }

    /**
     * {@code r}, read from {@code recording}, as {@code out}'s name asks, in its natural view;
     * {@code recording} names the source on a page. Returns what the command is to say beside
     * the file ({@link #write(Recording, Path, Path, Export.Options)}).
     */
    static List<String> write(Recording r, Path recording, Path out) throws CliException {
        return write(r, recording, out, Export.Options.of(r, recording.getFileName().toString()));
    }

    /**
     * {@code r}, read from {@code recording}, as {@code out}'s name asks, drawn as {@code options}
     * say. Returns what the command is to say beside the file ({@link #notesBeside}).
     */
    static List<String> write(Recording r, Path recording, Path out, Export.Options options) throws CliException {
        Export format = of(out);
        if (format.holdsOnlyStacks() && !r.tookStacks()) {
            throw new CliException("the recording has no stacks (no samples, allocations or waits) to make " + out.getFileName()
                    + " of: " + Export.HOLD_ONLY_STACKS + " (" + Export.NOT_ONLY_STACKS + " show what it holds)");
        }
        OutputFiles.writeBytes(out, o -> format.write(r, options, o));
        return notesBeside(r, recording, out, format, options.view());
    }

    /**
     * What the command is to say beside {@code out}, a file of {@code format} made from {@code r}
     * (read from {@code recording}) in the view {@code asked}, or in its natural one for null:
     * where the format cannot say them ({@link Export#holdsCaveats}), the caveats of the sampler
     * that took its samples ({@link Recording#samplerCaveats}); for a file of one view drawn as
     * the natural one, the other events the recording holds ({@link #otherViews}).
     */
    static List<String> notesBeside(Recording r, Path recording, Path out, Export format, View asked) {
        List<String> notes = new ArrayList<>(format.holdsCaveats() ? List.of() : r.samplerCaveats());
        if (format.holdsOnlyStacks() && asked == null) notes.addAll(otherViews(r, recording, out, format));
        return notes;
    }

    /**
     * Beside {@code out}, a file of {@code format} holding one view (folded stacks, pprof) drawn
     * as {@code r}'s natural one: the other events {@code r} holds, which the file leaves out, and
     * the command that makes a file of the first; empty when it holds no other. A wall-mode
     * recording's cpu view is not named: it weighs the same samples.
     */
    private static List<String> otherViews(Recording r, Path recording, Path out, Export format) {
        View drawn = View.natural(r);
        List<View> others = View.in(r).stream().filter(v -> !(samples(v) && samples(drawn)) && v != drawn).toList();
        if (others.isEmpty()) return List.of();
        String name = out.getFileName().toString();
        String first = others.getFirst().id();
        Path example = out.resolveSibling(name.substring(0, name.length() - format.extension.length()) + "-" + first + format.extension);
        return List.of(name + " holds the " + drawn.id() + " view; the recording also holds "
                + String.join(", ", others.stream().map(View::id).toList()) + ": tiprobe report " + recording + " --event " + first
                + " -f " + example);
    }

    private static boolean samples(View v) {
        return v == View.CPU || v == View.WALL;
    }

    /** Each note on a line of its own on stderr, after the name of the command that says it. */
    static void say(CommandLine.Model.CommandSpec command, List<String> notes) {
        notes.forEach(n -> command.commandLine().getErr().println("tiprobe " + command.name() + ": " + n));
    }
}
