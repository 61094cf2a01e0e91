package dev.tiprobe.agent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The agent's options are parsed by dev.tiprobe.options (tested there); what it checks itself is the output. */
class OutputCheckTest {
    @Test
    void anOutputThatCannotBeWrittenFailsAtStart(@TempDir Path dir) throws IOException {
        AgentMain.checkWritable(dir.resolve("fine.json"));
        assertTrue(assertThrows(IOException.class, () -> AgentMain.checkWritable(dir.resolve("missing/x.json")))
                .getMessage().contains("no such directory"));
        Files.createDirectory(dir.resolve("d"));
        assertTrue(assertThrows(IOException.class, () -> AgentMain.checkWritable(dir.resolve("d")))
                .getMessage().endsWith("it is a directory"));
    }
}
