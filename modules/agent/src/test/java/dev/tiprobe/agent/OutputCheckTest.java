package dev.tiprobe.agent;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        Files.createFile(dir.resolve("f"));
        assertEquals("cannot write " + dir.resolve("f/x.json") + ": " + dir.resolve("f") + " is not a directory",
                assertThrows(IOException.class, () -> AgentMain.checkWritable(dir.resolve("f/x.json"))).getMessage());
    }

    /** Where the system gives no reason (a file created in /proc), the line says what failed, not a temporary file's name. */
    @Test
    void aDirectoryThatCreatesNoFilesIsSaidSo() {
        Path proc = Path.of("/proc/tiprobe-check.json");
        Assumptions.assumeTrue(Files.isDirectory(proc.getParent()), "no /proc here");
        String said = assertThrows(IOException.class, () -> AgentMain.checkWritable(proc)).getMessage();
        // root may write to /proc's directory, and learns only when creating; others are refused first
        assertTrue(said.equals("cannot write " + proc + ": the file system of /proc creates no files")
                || said.equals("cannot write " + proc + ": permission denied"), said);
    }

    /**
     * A session that only traces cannot make folded stacks or a pprof profile: refused at its start,
     * under -javaagent too, rather than pointing at the exit to a report command that refuses it.
     */
    @Test
    void anOutputOfStacksOnlyNeedsASessionThatTakesThem() {
        assertEquals("file=t.collapsed needs interval, alloc or lock: .collapsed and .pb.gz files hold only stacks"
                        + " (.json, .txt, .html or .jfr show traced methods)",
                assertThrows(IllegalArgumentException.class, () -> AgentMain.parsed("trace=a.*,file=t.collapsed")).getMessage());
        assertEquals("t.pb.gz", AgentMain.parsed("trace=a.*,interval=10ms,file=t.pb.gz").file());
        assertEquals("t.html", AgentMain.parsed("trace=a.*,file=t.html").file());
    }
}
