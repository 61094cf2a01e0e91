package dev.tiprobe.cli;

import dev.tiprobe.testing.Command;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What {@code collect} leaves on the machine when it ends before a session begins. */
class CollectCommandTest {
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
