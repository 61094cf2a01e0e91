package dev.tiprobe.recording;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
