package dev.tiprobe.recording;

import java.io.IOException;
import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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

    /** {@link #replace} for binary content. */
    public static void replaceBytes(Path file, Bytes content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        create(tmp);
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tmp, StandardOpenOption.TRUNCATE_EXISTING))) {
            content.writeTo(out);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
    }
}
