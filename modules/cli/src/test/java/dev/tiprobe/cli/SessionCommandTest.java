package dev.tiprobe.cli;

import dev.tiprobe.recording.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** What a stop's answer lets the command claim. */
class SessionCommandTest {
    /**
     * A recording removed while the session ran (its directory deleted, faster than the session's
     * once-a-second look) fails the stop with one line, before stdout claims it.
     */
    @Test
    void aStopWhoseRecordingIsGoneSaysSoInsteadOfWhereItIs(@TempDir Path dir) throws IOException, CliException {
        Path kept = Files.createFile(dir.resolve("kept.html.tpr"));
        Path gone = dir.resolve("gone/x.html.tpr");
        assertEquals(kept, SessionCommand.recordingKept(stopped(kept)));
        assertEquals("stopped: 162 samples, but its recording is gone: " + gone + " was removed",
                assertThrows(CliException.class, () -> SessionCommand.recordingKept(stopped(gone))).getMessage());
    }

    private static Reply stopped(Path recording) {
        return Reply.ok(Reply.STOPPED, "stopped: 162 samples").with(Reply.RECORDING, recording);
    }
}
