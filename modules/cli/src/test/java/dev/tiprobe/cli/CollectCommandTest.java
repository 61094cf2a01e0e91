package dev.tiprobe.cli;

import dev.tiprobe.recording.Reply;
import dev.tiprobe.testing.Command;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What {@code collect} leaves on the machine when it ends before a session begins, and where its duration counts from. */
class CollectCommandTest {
    /**
     * {@code -d 5} is five seconds of recording: they count from when the agent says the session
     * began recording, so the session's own set-up after that is inside them, not added to the
     * command's time. A moment the clocks cannot place between the ask and the answer counts from the answer.
     */
    @Test
    void theDurationCountsFromWhenTheSessionBeganRecording() {
        Reply started = Reply.ok(Reply.STARTED, "started").with(Reply.RECORDING_SINCE, 10_000L);
        long nowNanos = 5_000_000_000L;
        assertEquals(nowNanos - 120_000_000L, CollectCommand.recordingBegan(started, 9_500L, nowNanos, 10_120L));
        assertEquals(nowNanos, CollectCommand.recordingBegan(started, 10_001L, nowNanos, 10_120L), "before the ask");
        assertEquals(nowNanos, CollectCommand.recordingBegan(started, 9_500L, nowNanos, 9_999L), "after the answer");
        assertEquals(nowNanos, CollectCommand.recordingBegan(Reply.ok(Reply.STARTED, "started"), 9_500L, nowNanos, 10_120L),
                "an answer without the fact");
    }

    /**
     * A printed profile's recording goes to a temporary directory of the command's own; an error
     * after the options were read (here, no agent jar where the command looks) ends the command
     * with that directory gone, as a refused value does.
     */
    @Test
    void aCollectThatEndsInAnErrorLeavesNoTemporaryFileBehind(@TempDir Path tmp) throws Exception {
        Path tmpdir = Files.createDirectory(tmp.resolve("tmpdir"));
        Path missingJar = tmp.resolve("no-such-agent.jar");
        for (List<String> args : List.of(List.of("-d", "1"), List.of("-d", "1", "--depth", "5000"))) {
            List<String> command = new java.util.ArrayList<>(List.of("collect"));
            command.addAll(args);
            command.add(Long.toString(ProcessHandle.current().pid()));
            Command.Run run = Command.onTestClassPath(List.of("-Djava.io.tmpdir=" + tmpdir, "-Dtiprobe.agent.jar=" + missingJar),
                    "dev.tiprobe.cli.Main", command.toArray(String[]::new));
            boolean refusedValue = args.contains("--depth");
            assertEquals(refusedValue ? 2 : 1, run.exit(), run.all());
            assertTrue(run.err().contains(refusedValue ? "--depth must be" : "agent jar not found"), run.all());
            try (Stream<Path> left = Files.list(tmpdir)) {
                assertEquals(List.of(), left.toList(), "after " + String.join(" ", command) + ": " + run.all());
            }
        }
    }
}
