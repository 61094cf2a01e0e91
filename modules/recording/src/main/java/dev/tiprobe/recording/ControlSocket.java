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
 * path; the command reads the target's temporary directory through the attach API, which loads
 * nothing into the target. The protocol is one line in (a command) and one line out (a
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
}
