package dev.tiprobe.cli;

import dev.tiprobe.recording.PrivateFiles;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * Every file the command writes: readable by its owner only, as the agent's files are; written
 * whole or not at all (a temporary file takes its place when done); and, when it cannot be
 * written, one line that says why without repeating the path.
 */
final class OutputFiles {
    private OutputFiles() {}

    /** What goes into a file. */
    @FunctionalInterface
    interface Text {
        void writeTo(PrintWriter out) throws IOException, CliException;
    }

    static void write(Path file, Text text) throws CliException {
        CliException[] failed = new CliException[1];
        try {
            PrivateFiles.replace(file, w -> {
                PrintWriter out = new PrintWriter(w);
                try {
                    text.writeTo(out);
                } catch (CliException e) {
                    failed[0] = e;
                    throw new IOException(e.getMessage(), e);
                }
                out.flush();
                if (out.checkError()) throw new IOException("write failed");
            });
        } catch (IOException e) {
            if (failed[0] != null) throw failed[0];
            throw new CliException("cannot write " + file + ": " + PrivateFiles.whyNotWritten(e, file), e);
        }
    }

    /** {@link #write} for a binary file. */
    static void writeBytes(Path file, PrivateFiles.Bytes bytes) throws CliException {
        try {
            PrivateFiles.replaceBytes(file, bytes);
        } catch (IOException e) {
            throw new CliException("cannot write " + file + ": " + PrivateFiles.whyNotWritten(e, file), e);
        }
    }
}
