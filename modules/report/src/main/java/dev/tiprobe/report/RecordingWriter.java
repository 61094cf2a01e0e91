package dev.tiprobe.report;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.zip.CRC32;

/**
 * Writes a recording incrementally: events gather in a chunk that goes to disk when it reaches
 * {@link #FLUSH_BYTES} or when {@link #flush()} is called, so memory stays bounded and a target
 * that dies leaves everything up to its last chunk. Method names are asked for once, the first
 * time a method appears. Not thread-safe: one writer per sampler.
 */
public final class RecordingWriter implements AutoCloseable {
    public static final int FLUSH_BYTES = 1 << 20;

    private final OutputStream out;
    private final IntFunction<String> methodNames;
    private final Set<Integer> methodsWritten = new HashSet<>();
    private final Set<Long> threadsWritten = new HashSet<>();
    private final ByteArrayOutputStream chunk = new ByteArrayOutputStream();
    private long chunkStart = -1;
    private long chunkEnd;
    private int chunks;

    private RecordingWriter(OutputStream out, IntFunction<String> methodNames) throws IOException {
        this.out = out;
        this.methodNames = methodNames;
        out.write(RecordingFormat.MAGIC);
        out.write(new byte[] {RecordingFormat.VERSION, 0, 0, 0});
        out.flush();
    }

    /** Creates {@code file} readable by its owner only (where the file system allows). */
    public static RecordingWriter create(Path file, IntFunction<String> methodNames) throws IOException {
        Files.deleteIfExists(file);
        PrivateFiles.create(file);
        return new RecordingWriter(Files.newOutputStream(file, StandardOpenOption.WRITE), methodNames);
    }

    /** A stack sample; {@code frames} are method token ids, leaf first, 0 for an unresolved frame. */
    public void sample(long epochNanos, long threadId, String threadName, byte state, long weight, int[] frames, int depth)
            throws IOException {
        begin(epochNanos);
        if (threadsWritten.add(threadId)) {
            chunk.write(RecordingFormat.THREAD);
            varlong(threadId);
            string(threadName);
        }
        int n = Math.min(depth, RecordingFormat.MAX_DEPTH);
        for (int i = 0; i < n; i++) {
            int id = frames[i];
            if (id != 0 && methodsWritten.add(id)) {
                chunk.write(RecordingFormat.METHOD);
                varlong(id);
                string(String.valueOf(methodNames.apply(id)));
            }
        }
        chunk.write(RecordingFormat.SAMPLE);
        varlong(offset(epochNanos));
        varlong(threadId);
        chunk.write(state);
        varlong(weight);
        varlong(n);
        for (int i = 0; i < n; i++) varlong(frames[i]);
        end(epochNanos);
    }

    /** A class load or unload, with the class's name (kept here, as the class may be gone later). */
    public void classEvent(long epochNanos, boolean load, String className) throws IOException {
        begin(epochNanos);
        chunk.write(load ? RecordingFormat.CLASS_LOAD : RecordingFormat.CLASS_UNLOAD);
        varlong(offset(epochNanos));
        string(className);
        end(epochNanos);
    }

    private void begin(long epochNanos) {
        if (chunkStart < 0) chunkStart = epochNanos;
    }

    /** Offsets are never negative: an event stamped before its chunk began counts at the start. */
    private long offset(long epochNanos) {
        return Math.max(0, epochNanos - chunkStart);
    }

    private void end(long epochNanos) throws IOException {
        chunkEnd = Math.max(chunkEnd, epochNanos);
        if (chunk.size() >= FLUSH_BYTES) flush();
    }

    /** Writes the gathered events as one chunk (nothing when there are none). */
    public void flush() throws IOException {
        if (chunk.size() == 0) return;
        byte[] events = chunk.toByteArray();
        byte[] body = new byte[16 + events.length];
        putLong(body, 0, chunkStart);
        putLong(body, 8, chunkEnd);
        System.arraycopy(events, 0, body, 16, events.length);
        CRC32 crc = new CRC32();
        crc.update(body);
        byte[] head = new byte[8];
        putInt(head, 0, body.length);
        putInt(head, 4, (int) crc.getValue());
        out.write(head);
        out.write(body);
        out.flush();
        chunk.reset();
        chunkStart = -1;
        chunkEnd = 0;
        chunks++;
    }

    /** Chunks written so far. */
    public int chunks() {
        return chunks;
    }

    @Override
    public void close() throws IOException {
        try {
            flush();
        } finally {
            out.close();
        }
    }

    private void varlong(long v) {
        while ((v & ~0x7FL) != 0) {
            chunk.write((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        chunk.write((int) v);
    }

    private void string(String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        varlong(bytes.length);
        chunk.writeBytes(bytes);
    }

    private static void putLong(byte[] b, int at, long v) {
        for (int i = 7; i >= 0; i--) {
            b[at + i] = (byte) v;
            v >>>= 8;
        }
    }

    private static void putInt(byte[] b, int at, int v) {
        for (int i = 3; i >= 0; i--) {
            b[at + i] = (byte) v;
            v >>>= 8;
        }
    }
}
