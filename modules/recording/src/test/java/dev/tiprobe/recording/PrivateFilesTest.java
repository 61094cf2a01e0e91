package dev.tiprobe.recording;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What writing a file whole may replace, and the reason given when it cannot. */
class PrivateFilesTest {
    @Test
    void onlyARegularFileIsReplaced(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("x.html");
        PrivateFiles.replace(file, w -> w.write("one"));
        PrivateFiles.replace(file, w -> w.write("two"));
        assertEquals("two", Files.readString(file));

        Path directory = Files.createDirectory(dir.resolve("empty.html"));
        IOException refused = assertThrows(IOException.class, () -> PrivateFiles.replace(directory, w -> w.write("x")));
        assertEquals("it is a directory", PrivateFiles.whyNotWritten(refused, directory));
        assertTrue(Files.isDirectory(directory), "the directory is left as it was");
    }

    /** The reason is the same whichever side wrote: the agent's check and the command's write say it alike. */
    @Test
    void aFileWhereADirectoryShouldBeIsNamed(@TempDir Path dir) throws IOException {
        Path notADirectory = Files.createFile(dir.resolve("afile"));
        Path file = notADirectory.resolve("x.json");
        IOException failed = assertThrows(IOException.class, () -> PrivateFiles.replace(file, w -> w.write("x")));
        assertEquals(notADirectory + " is not a directory", PrivateFiles.whyNotWritten(failed, file));
        assertEquals("no such directory " + dir.resolve("missing"), PrivateFiles.directoryProblem(dir.resolve("missing/x.json")));
        assertEquals(null, PrivateFiles.directoryProblem(dir.resolve("x.json")));
    }
}
