package dev.tiprobe.recording;

import org.junit.jupiter.api.Test;

import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

class ControlSocketTest {
    @Test
    void theSocketLivesInAnOwnerOnlyFolderOfTheTargetsTemporaryDirectory() {
        assertEquals(Path.of("/var/tmp/.tiprobe-ann/42.sock"), ControlSocket.path(Path.of("/var/tmp"), "ann", 42));
        assertEquals(Path.of("/tmp/.tiprobe-d_o_e/7.sock"), ControlSocket.path(Path.of("/tmp"), "d/o e", 7), "a user name cannot leave the folder");
    }

    /** A socket path longer than sun_path cannot be bound: such a session would be unreachable. */
    @Test
    void aTemporaryDirectoryTooDeepForASocketGivesWayToTmp() {
        Path deep = Path.of("/tmp", "x".repeat(60), "y".repeat(60));
        assertEquals(Path.of("/tmp/.tiprobe-ann/4242.sock"), ControlSocket.path(deep, "ann", 4242));
    }

    /**
     * The note a session that stopped itself leaves says why to the JVM that left it, and to no
     * later JVM that got its pid: such a note is removed when read.
     */
    @Test
    void theNoteOfASessionThatStoppedItselfSpeaksOnlyForItsOwnJvm(@TempDir Path dir) throws Exception {
        Path socket = dir.resolve("42.sock");
        ControlSocket.leaveStoppedNote(socket, 1_700_000_000_000L, "the target's heap is 88 % full");
        assertEquals("the target's heap is 88 % full", ControlSocket.stoppedItself(socket, 1_700_000_000_000L));
        assertEquals("the target's heap is 88 % full", ControlSocket.stoppedItself(socket, 1_700_000_000_400L), "the same start, read again");
        assertNull(ControlSocket.stoppedItself(socket, 1_700_000_090_000L), "another JVM with pid 42");
        assertFalse(Files.exists(dir.resolve("42.stopped")), "its note removed");
        ControlSocket.leaveStoppedNote(socket, 5, "its recording was removed");
        ControlSocket.removeStoppedNote(socket);
        assertNull(ControlSocket.stoppedItself(socket, 5), "a new session removes the last one's note");
    }
}
