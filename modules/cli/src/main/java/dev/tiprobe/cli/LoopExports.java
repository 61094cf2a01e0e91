package dev.tiprobe.cli;

import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.report.Recording;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code collect --loop}: each recording the agent finishes becomes the output asked for (a pprof
 * profile, a page, ...) as soon as it is finished, the recording is then removed, and only the
 * {@code keep} newest outputs stay. The agent writes recordings only: converting is the command's work.
 */
final class LoopExports {
    private final Path dir;
    private final String pattern;
    private final Pattern recordings;
    private final int keep;
    private final Deque<Path> outputs = new ArrayDeque<>();
    /** Recordings already dealt with (kept as they are when a recording is what was asked for). */
    private final Set<Path> done = new HashSet<>();

    /** When this session began: recordings of an earlier one in the same directory are not its own. */
    private final FileTime began = FileTime.from(Instant.now().minusSeconds(1));

    /** For outputs named by {@code pattern} ({@code %t} unexpanded, absolute). */
    LoopExports(Path pattern, int keep) {
        this.dir = pattern.getParent();
        this.pattern = pattern.toString();
        String recording = AgentOptions.recordingBeside(pattern).getFileName().toString();
        this.recordings = Pattern.compile(Pattern.quote(recording).replace("%t", "\\E\\d{8}-\\d{6}\\Q"));
        this.keep = keep;
    }

    /**
     * Converts the finished recordings not converted yet, oldest first; the newest is left while
     * the session may still write it, unless {@code all}. Returns the outputs written.
     */
    List<Path> convertFinished(boolean all, PrintWriter err) throws CliException {
        List<Path> found;
        try (Stream<Path> files = Files.list(dir)) {
            found = files.filter(f -> recordings.matcher(f.getFileName().toString()).matches() && madeSinceStart(f)).sorted().toList();
        } catch (IOException e) {
            throw new CliException("cannot list " + dir + ": " + e.getMessage(), e);
        }
        List<Path> written = new ArrayList<>();
        for (int i = 0; i < found.size() - (all ? 0 : 1); i++) {
            Path recording = found.get(i);
            Path output = AgentOptions.outputBeside(recording, pattern);
            if (output.equals(recording) || done.contains(recording)) continue;  // the agent keeps its recordings to --keep
            Recording r = Exports.read(recording, err);
            if (!r.ended() && !all) continue;  // still being written
            Exports.write(r, recording, output);
            done.add(recording);
            remove(recording, err);
            written.add(output);
            outputs.addLast(output);
            while (outputs.size() > keep) remove(outputs.removeFirst(), err);
        }
        return written;
    }

    private boolean madeSinceStart(Path file) {
        try {
            return Files.getLastModifiedTime(file).compareTo(began) >= 0;
        } catch (IOException e) {
            return false;  // gone meanwhile
        }
    }

    private static void remove(Path file, PrintWriter err) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            err.println("tiprobe collect: cannot remove " + file + ": " + e.getMessage());
        }
    }
}
