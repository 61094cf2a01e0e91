package dev.tiprobe.recording;

import java.io.IOException;
import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/** Files only their owner can read: everything tiprobe writes inside a target JVM. */
public final class PrivateFiles {
    private PrivateFiles() {}

    /** Something that writes a file's content. */
    @FunctionalInterface
    public interface Content {
        void writeTo(Writer out) throws IOException;
    }

    /** Creates {@code file} as rw------- (where the file system has POSIX permissions); fails if it exists. */
    public static void create(Path file) throws IOException {
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(file);
        }
    }

    /**
     * Why {@code file} cannot be written there, where its directory is the reason: it does not
     * exist, or is a file; null where it is a directory, or where that cannot be told (a
     * directory above it that this user may not search: the write then says why).
     */
    public static String directoryProblem(Path file) {
        Path dir = file.toAbsolutePath().getParent();
        if (dir == null) return "it is the root directory";
        if (Files.notExists(dir)) return "no such directory " + dir;
        return Files.exists(dir) && !Files.isDirectory(dir) ? dir + " is not a directory" : null;
    }

    /**
     * Why writing {@code file} failed with {@code e}, in words that do not repeat its path, the
     * same whoever wrote it (the agent or the command): its directory first, then the kind of
     * failure. The JDK's exceptions carry only the path where the system gave no reason (a file
     * created in /proc fails so).
     */
    public static String whyNotWritten(IOException e, Path file) {
        String directory = directoryProblem(file);
        if (directory != null) return directory;
        if (e instanceof AccessDeniedException) return "permission denied";
        if (e instanceof NoSuchFileException) return "the file system of " + file.toAbsolutePath().getParent() + " creates no files";
        if (e instanceof FileSystemException f && f.getReason() != null) return f.getReason();
        return e.getMessage();
    }

    /** Something that writes a file's bytes. */
    @FunctionalInterface
    public interface Bytes {
        void writeTo(OutputStream out) throws IOException;
    }

    /**
     * Writes {@code file} whole, replacing it: the content goes to a private temporary file beside
     * it, which then takes its place, so a reader never sees a half-written file.
     */
    public static void replace(Path file, Content content) throws IOException {
        replaceBytes(file, out -> {
            Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
            content.writeTo(w);
            w.flush();
        });
    }

    /**
     * {@link #replace} for binary content. Only a regular file is replaced: the move would as
     * readily replace an empty directory, or a device such as /dev/null for root.
     */
    public static void replaceBytes(Path file, Bytes content) throws IOException {
        if (Files.isDirectory(file)) throw new FileSystemException(file.toString(), null, "it is a directory");
        if (Files.exists(file) && !Files.isRegularFile(file)) throw new FileSystemException(file.toString(), null, "it is not a regular file");
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        create(tmp);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp, StandardOpenOption.TRUNCATE_EXISTING))) {
            content.writeTo(out);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
    }
}
