package dev.tiprobe.cli;

import dev.tiprobe.recording.Deadlock;
import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.report.Recording;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The agent writes one file, a recording (.tpr); the output a user names with {@code -f} is made
 * from it by the command once there is something to read: at the end of {@code collect} and
 * {@code run}, at {@code dump} and {@code stop}.
 */
final class Report {
    private Report() {}

    /** Checks that tiprobe can write {@code requested}: a usage error before any attach otherwise. */
    static Path checked(Path requested) throws CliException {
        String name = requested.getFileName().toString();
        if (!Exports.known(name)) throw new UsageException("unknown format of '" + name + "': use " + Exports.FORMATS);
        return requested;
    }

    /** The recording the agent writes for {@code requested}: x.json gives x.tpr, x.html gives x.html.tpr, x.tpr itself. */
    static Path recordingFor(Path requested) {
        return AgentOptions.recordingBeside(requested);
    }

    /**
     * Makes {@code requested} from {@code recording} (nothing to make when the recording is what
     * was asked for: {@code tiprobe report} says all of it later), and returns what the command
     * says beside it ({@link Exports#write}). A damaged recording gives what its whole chunks
     * hold, with a warning.
     */
    static List<String> convert(Path recording, Path requested) throws CliException {
        if (recording.equals(requested)) return List.of();
        return Exports.write(Exports.read(recording, new PrintWriter(System.err, true)), recording, requested);
    }

    /**
     * As {@link #convert}, from the recording beside {@code requested}, and with what the command
     * says of the session that the agent, told to be quiet, did not ({@link #sessionNotes}).
     */
    static List<String> convertAndCheck(Path requested) throws CliException {
        Path recording = recordingFor(requested);
        Recording read = Exports.read(recording, new PrintWriter(System.err, true));
        List<String> notes = new ArrayList<>(sessionNotes(read));
        if (!recording.equals(requested)) notes.addAll(Exports.write(read, recording, requested));
        return notes;
    }

    /**
     * What a command that ran the program says of its session, which the agent, told to be quiet,
     * did not: {@code the filter 'com.foo.**' matched no method}, each deadlock found.
     */
    static List<String> sessionNotes(Recording read) {
        List<String> notes = new ArrayList<>();
        String filter = read.info().get(RecordingFormat.INFO_FILTER);
        if (filter != null && !filter.isEmpty() && read.stats().isEmpty() && read.tracing().signatures().isEmpty()) {
            notes.add("the filter '" + filter + "' matched no method");
        }
        notes.addAll(deadlocksFound(read));
        return notes;
    }

    /** {@code a deadlock was found: 'left' and 'right' wait on each other (…)}, once for each. */
    static List<String> deadlocksFound(Recording r) {
        List<String> lines = new ArrayList<>();
        for (Deadlock d : r.events().deadlocks()) {
            List<String> names = d.threads().stream().map(t -> "'" + r.threadName(t.threadId()) + "'")
                    .toList();
            lines.add("a deadlock was found: " + String.join(" and ", names)
                    + " wait on each other (the text report, the JSON and the JFR export show their locks and stacks)");
        }
        return lines;
    }
}
