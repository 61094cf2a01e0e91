package dev.tiprobe.recording;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Where a running session listens for the tiprobe command: a Unix-domain socket, opened by the
 * agent when a session starts and removed when it stops, in a directory only its user can enter,
 * {@code <java.io.tmpdir of the target>/.tiprobe-<user>/<pid>.sock} ({@code /tmp} when that path is
 * too long for a socket). Both sides compute the same
 * path; the command looks first in its own temporary directory (the usual one), and otherwise
 * reads the target's through the attach API, which loads nothing into the target. The protocol is one line in (a command) and one line out (a
 * {@link Reply}); no network port is opened.
 */
public final class ControlSocket {
    private ControlSocket() {}

    /**
     * Linux keeps at most 107 bytes of a socket's path (sun_path); macOS 103. A longer one cannot
     * be bound, so a temporary directory that deep gives way to {@code /tmp}.
     */
    static final int MAX_PATH_BYTES = 100;

    /**
     * The socket of the JVM {@code pid} of {@code user}, whose temporary directory is
     * {@code tmpdir} (or {@code /tmp} when that path would be too long to bind).
     */
    public static Path path(Path tmpdir, String user, long pid) {
        Path socket = directory(tmpdir, user).resolve(pid + ".sock");
        if (socket.toString().getBytes(StandardCharsets.UTF_8).length <= MAX_PATH_BYTES) return socket;
        return directory(Path.of("/tmp"), user).resolve(pid + ".sock");
    }

    static Path directory(Path tmpdir, String user) {
        return tmpdir.resolve(".tiprobe-" + user.replaceAll("[^A-Za-z0-9._-]", "_"));
    }

    /**
     * Creates the socket's directory as rwx------ if it is missing; refuses one that is a link,
     * is not a directory, or that others may enter (someone else could have made it).
     */
    public static void prepareDirectory(Path socket) throws IOException {
        Path dir = socket.getParent();
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            try {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } catch (UnsupportedOperationException e) {
                Files.createDirectory(dir);
            }
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) throw new IOException(dir + " is not a directory");
        try {
            String perms = PosixFilePermissions.toString(Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS));
            if (!perms.endsWith("------")) throw new IOException(dir + " may be entered by others (" + perms + ")");
        } catch (UnsupportedOperationException e) {
            // no POSIX permissions here: the directory's place in the user's temporary folder guards it
        }
    }

    /**
     * Where a session that stopped itself (its heap full, its recording removed) says why, beside
     * its socket: with the socket gone, status and stop read it instead of attaching, which needs
     * room in the target's heap that a heap full enough to stop a session may not have.
     */
    public static Path stoppedNoteFile(Path socket) {
        return socket.resolveSibling(socket.getFileName().toString().replace(".sock", ".stopped"));
    }

    /** When {@code process} started (epoch ms), as both sides of the socket read it; -1 where the system does not say. */
    public static long startMillis(ProcessHandle process) {
        return process.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(-1L);
    }

    /** Whether two readings of a start ({@link #startMillis}) are one process's: both known, within a second (pids are reused). */
    public static boolean sameStart(long a, long b) {
        return a > 0 && b > 0 && Math.abs(a - b) < 1000;
    }

    /** What status and stop add to say why no session runs: {@code " (the last session stopped itself: <why>)"}. */
    public static String lastStopped(String why) {
        return " (the last session stopped itself: " + why + ")";
    }

    /** Leaves the note of a session of the JVM started at {@code startMillis} (epoch ms) that stopped itself for {@code why}. */
    public static void leaveStoppedNote(Path socket, long startMillis, String why) throws IOException {
        PrivateFiles.replace(stoppedNoteFile(socket), w -> w.write(startMillis + "\n" + why + "\n"));
    }

    /** Removes the note, at a session's start. */
    public static void removeStoppedNote(Path socket) throws IOException {
        Files.deleteIfExists(stoppedNoteFile(socket));
    }

    /**
     * Why the last session of the JVM started at {@code startMillis} stopped itself, from its
     * note; null without one. A note of another JVM that had this pid is removed.
     */
    public static String stoppedItself(Path socket, long startMillis) {
        if (startMillis <= 0) return null;  // a start the system does not say: no note can be told apart
        Path note = stoppedNoteFile(socket);
        try {
            String[] lines = Files.readString(note, StandardCharsets.UTF_8).split("\n", 2);
            if (lines.length == 2 && sameStart(Long.parseLong(lines[0]), startMillis)) return lines[1].strip();
            Files.deleteIfExists(note);
            return null;
        } catch (IOException | RuntimeException e) {
            return null;  // none, or unreadable: the caller attaches and asks
        }
    }
}
