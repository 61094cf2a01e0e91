package dev.tiprobe.recording;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Writes a recording incrementally: events gather in a chunk that goes to disk when it reaches
 * {@link #FLUSH_BYTES} or when {@link #flush()} is called, so memory stays bounded and a target
 * that dies leaves everything up to its last chunk. Method names are asked for once, the first
 * time a method appears. Not thread-safe: its owner serializes the calls.
 */
public final class RecordingWriter implements AutoCloseable {
    public static final int FLUSH_BYTES = 1 << 20;

    private final OutputStream out;
    private final IntFunction<String> methodNames;
    private final IntFunction<String> sourcePaths;
    /** Method ids named in this file: a bit each (ids grow with every class a long session meets). */
    private final java.util.BitSet methodsWritten = new java.util.BitSet();
    private final Set<Long> threadsWritten = new HashSet<>();
    private final Map<String, Integer> typesWritten = new HashMap<>();
    /** The last type id given: ids are never given twice, also after {@link #dropTornRecord} forgot which names were written. */
    private int typeIds;
    /** Where the record being written began in the chunk; -1 between records. */
    private int recordStart = -1;
    private final ChunkBuffer chunk = new ChunkBuffer();
    private long chunkStart = -1;
    private long chunkEnd;
    private int chunks;

    private RecordingWriter(OutputStream out, IntFunction<String> methodNames, IntFunction<String> sourcePaths)
            throws IOException {
        this.out = out;
        this.methodNames = methodNames;
        this.sourcePaths = sourcePaths;
        out.write(RecordingFormat.MAGIC);
        out.write(new byte[] {RecordingFormat.VERSION, 0, 0, 0});
        out.flush();
    }

    /** Creates {@code file} readable by its owner only (where the file system allows). */
    public static RecordingWriter create(Path file, IntFunction<String> methodNames) throws IOException {
        return create(file, methodNames, id -> null);
    }

    /** As {@link #create(Path, IntFunction)}; {@code sourcePaths} gives a method's source file (or null). */
    public static RecordingWriter create(Path file, IntFunction<String> methodNames, IntFunction<String> sourcePaths)
            throws IOException {
        Files.deleteIfExists(file);
        PrivateFiles.create(file);
        return new RecordingWriter(Files.newOutputStream(file, StandardOpenOption.WRITE), methodNames, sourcePaths);
    }

    /**
     * An event of {@code kind}, stamped {@code epochNanos} (the moment that decides its chunk: the
     * event's own, or the moment it was learnt for one without a time).
     */
    public <E> void write(long epochNanos, RecordKind<E> kind, E event) throws IOException {
        // A kind no reader knows would make every chunk holding it unreadable.
        if (RecordKinds.of(kind.number()) != kind) throw new IllegalArgumentException(kind + " is not listed in RecordKinds.ALL");
        begin(epochNanos);
        fields.reset();
        kind.write(event, recordOut);
        chunk.write(kind.number());
        fields.writeTo(chunk);
        if (fields.size() > FIELDS_KEPT) fields = new ByteArrayOutputStream();  // a big traced call's arguments: not kept for the session
        end(epochNanos);
    }

    /** The fields of the record being written, which follow the definitions they name. */
    private ByteArrayOutputStream fields = new ByteArrayOutputStream();
    private static final int FIELDS_KEPT = 64 << 10;

    private final RecordOut recordOut = new RecordOut() {
        @Override
        public void time(long epochNanos) {
            Wire.varlong(fields, offset(epochNanos));
        }

        @Override
        public void varlong(long v) {
            Wire.varlong(fields, Math.max(0, v));
        }

        @Override
        public void u8(int v) {
            fields.write(v);
        }

        @Override
        public void string(String s) {
            Wire.string(fields, s);
        }

        @Override
        public void value(CapturedValue v) {
            CapturedValueCodec.write(fields, v);
        }

        @Override
        public void thread(long id, String name) {
            RecordingWriter.this.thread(id, name);
            Wire.varlong(fields, id);
        }

        @Override
        public void method(int id) {
            RecordingWriter.this.method(id);
            Wire.varlong(fields, id);
        }

        @Override
        public void type(String name) {
            Wire.varlong(fields, RecordingWriter.this.type(name));
        }

        @Override
        public void stack(Stack stack) {
            Wire.varlong(fields, RecordingWriter.this.stack(stack));
        }

        @Override
        public void optionalStack(Stack stack) {
            if (stack.depth() == 0 && !stack.truncated()) Wire.varlong(fields, 0);
            else stack(stack);
        }
    };

    /** A stack as the chunk's pool keys it: its frames and lines (at most {@link RecordingFormat#MAX_DEPTH}) and whether it was cut. */
    private record StackKey(int[] frames, int[] lines, boolean truncated) {
        @Override
        public boolean equals(Object o) {
            return o instanceof StackKey k && truncated == k.truncated && Arrays.equals(frames, k.frames)
                    && Arrays.equals(lines, k.lines);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(frames) + Arrays.hashCode(lines) + (truncated ? 1 : 0);
        }
    }

    /** The stacks of the chunk being gathered, by their ids in it (from 1): a chunk is complete in itself. */
    private final Map<StackKey, Integer> stacksInChunk = new HashMap<>();

    /**
     * The chunk's id of a stack, leaf first, writing its STACK record (and the METHOD records of
     * its frames) the first time the chunk meets it: most samples repeat a stack seen a moment
     * before, which then costs one varint.
     */
    private int stack(Stack stack) {
        int n = Math.min(stack.depth(), RecordingFormat.MAX_DEPTH);
        int[] kept = Arrays.copyOf(stack.frames(), n);
        int[] keptLines = new int[n];
        for (int i = 0; i < n; i++) keptLines[i] = Math.max(0, stack.lines()[i]);
        StackKey key = new StackKey(kept, keptLines, stack.truncated() || stack.depth() > n);
        Integer known = stacksInChunk.get(key);
        if (known != null) return known;
        for (int i = 0; i < n; i++) method(kept[i]);
        int id = stacksInChunk.size() + 1;
        stacksInChunk.put(key, id);
        chunk.write(RecordingFormat.STACK);
        varlong(id);
        chunk.write(key.truncated() ? 1 : 0);
        frames(kept, keptLines, n);
        return id;
    }

    /** {@code varint:n (varint:methodId varint:line) * n}, as every stack is written. */
    private void frames(int[] frames, int[] lines, int n) {
        varlong(n);
        for (int i = 0; i < n; i++) {
            varlong(frames[i]);
            varlong(Math.max(0, lines[i]));
        }
    }

    /** The id of a type name, writing its TYPE record the first time. */
    private int type(String name) {
        Integer id = typesWritten.get(name);
        if (id != null) return id;
        if (typesWritten.size() >= KEPT_DEFINITIONS) typesWritten.clear();
        int next = ++typeIds;
        typesWritten.put(name, next);
        chunk.write(RecordingFormat.TYPE);
        varlong(next);
        string(name);
        return next;
    }

    private void thread(long threadId, String threadName) {
        if (threadsWritten.size() >= KEPT_DEFINITIONS && !threadsWritten.contains(threadId)) threadsWritten.clear();
        if (threadsWritten.add(threadId)) {
            chunk.write(RecordingFormat.THREAD);
            varlong(threadId);
            string(String.valueOf(threadName));
        }
    }

    private void method(int id) {
        if (id > 0 && !methodsWritten.get(id)) {
            methodsWritten.set(id);
            chunk.write(RecordingFormat.METHOD);
            varlong(id);
            String name = methodNames.apply(id);
            string(name != null ? name : "[unloaded method]");  // named after its class's tokens were retired
            String source = sourcePaths.apply(id);
            if (source != null) {
                chunk.write(RecordingFormat.SOURCE);
                varlong(id);
                string(source);
            }
        }
    }

    /**
     * A chunk starts at its first event's time. An event stamped well before that (JFR's monitor
     * waits reach the agent about a second late) starts a chunk of its own, so its time is kept.
     */
    private void begin(long epochNanos) throws IOException {
        if (recordStart >= 0) dropTornRecord();
        if (chunkStart >= 0 && chunkStart - epochNanos > LATE_NANOS) flush();
        if (chunkStart < 0) chunkStart = epochNanos;
        recordStart = chunk.size();
    }

    /**
     * A record whose writing failed halfway (an {@link OutOfMemoryError} as the chunk grew, in a
     * heap the application filled) left its first bytes in the chunk, and maybe definitions the
     * caches now count as written; the records after it made the chunk unreadable from there (seen
     * in CI: "a name is not UTF-8"). Its bytes go, the chunk so far is written whole, and every
     * name is written again where next met.
     */
    private void dropTornRecord() throws IOException {
        chunk.truncate(recordStart);
        recordStart = -1;
        flush();
        stacksInChunk.clear();  // flush clears it too, unless the torn record was the chunk's first
        methodsWritten.clear();
        threadsWritten.clear();
        typesWritten.clear();
    }

    /**
     * How many threads and type names the writer remembers having defined. A program that starts a
     * thread per task, or makes classes all day, met more every minute, and the sets grew for the
     * recording's life; past this they are forgotten and each is defined again where next met (a
     * few bytes; the reader takes a definition again as the same).
     */
    static final int KEPT_DEFINITIONS = 4096;

    /** How far before its chunk an event may be stamped and still join it (its offset then 0). */
    private static final long LATE_NANOS = 10_000_000;

    /** Offsets are never negative: an event stamped slightly before its chunk began counts at the start. */
    private long offset(long epochNanos) {
        return Math.max(0, epochNanos - chunkStart);
    }

    private void end(long epochNanos) throws IOException {
        recordStart = -1;
        chunkEnd = Math.max(chunkEnd, epochNanos);
        if (chunk.size() >= FLUSH_BYTES) flush();
    }

    /** Writes the gathered events as one chunk (nothing when there are none). */
    public void flush() throws IOException {
        if (recordStart >= 0) {
            dropTornRecord();  // flushes what came before the torn record
            return;
        }
        if (chunk.size() == 0) return;
        ByteArrayOutputStream times = new ByteArrayOutputStream(16);
        Wire.fixed(times, chunkStart, 8);
        Wire.fixed(times, chunkEnd, 8);
        byte[] records = chunk.deflated();
        CRC32 crc = new CRC32();
        crc.update(times.toByteArray());
        crc.update(records);
        ByteArrayOutputStream head = new ByteArrayOutputStream(8);
        Wire.fixed(head, times.size() + records.length, 4);
        Wire.fixed(head, crc.getValue(), 4);
        head.writeTo(out);
        times.writeTo(out);
        out.write(records);
        out.flush();
        chunk.clear();
        chunkStart = -1;
        chunkEnd = 0;
        stacksInChunk.clear();
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
        Wire.varlong(chunk, v);
    }

    private void string(String s) {
        Wire.string(chunk, s);
    }

    /**
     * The events of the chunk being gathered, read in place when written, and its array given back
     * after a big chunk: a chunk grows to {@link #FLUSH_BYTES} and more, and an array kept at that
     * size held two megabytes of the application's heap for the session's whole life.
     */
    private static final class ChunkBuffer extends ByteArrayOutputStream {
        private static final int KEPT = 64 << 10;

        ChunkBuffer() {
            super(KEPT);
        }

        /** Forgets what was written from {@code size} on. */
        void truncate(int size) {
            count = Math.min(count, size);
        }

        /**
         * The records gathered, deflated at the fastest level (names, which repeat much, shrink
         * most). The deflater's native state lives for this call alone.
         */
        byte[] deflated() {
            Deflater d = new Deflater(Deflater.BEST_SPEED, true);
            try {
                d.setInput(buf, 0, count);
                d.finish();
                ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, count / 3));
                byte[] block = new byte[8192];
                while (!d.finished()) out.write(block, 0, d.deflate(block));
                return out.toByteArray();
            } finally {
                d.end();
            }
        }

        void clear() {
            count = 0;
            if (buf.length > KEPT) buf = new byte[KEPT];
        }
    }
}
