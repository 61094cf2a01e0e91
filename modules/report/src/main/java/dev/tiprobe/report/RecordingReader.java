package dev.tiprobe.report;

import dev.tiprobe.recording.AllocInterval;
import dev.tiprobe.recording.Allocation;
import dev.tiprobe.recording.Call;
import dev.tiprobe.recording.CapturedValue;
import dev.tiprobe.recording.CapturedValueCodec;
import dev.tiprobe.recording.ClassEvent;
import dev.tiprobe.recording.ClassFailure;
import dev.tiprobe.recording.Deadlock;
import dev.tiprobe.recording.Freed;
import dev.tiprobe.recording.Info;
import dev.tiprobe.recording.LockWait;
import dev.tiprobe.recording.MethodStats;
import dev.tiprobe.recording.RecordIn;
import dev.tiprobe.recording.RecordKind;
import dev.tiprobe.recording.RecordKinds;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.Removed;
import dev.tiprobe.recording.Sample;
import dev.tiprobe.recording.Signature;
import dev.tiprobe.recording.Skipped;
import dev.tiprobe.recording.Stack;
import dev.tiprobe.recording.Wire;
import dev.tiprobe.recording.Wire.Malformed;

import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;


/**
 * Reads a recording, validating everything: the header, every chunk's length against the file
 * and {@link RecordingFormat#MAX_CHUNK_BYTES}, its checksum, and every field against the chunk's
 * end. A damaged file gives every whole chunk, before the damage and after it (the reader finds
 * the next chunk whose length and checksum hold), and says where each damage is; no input
 * makes the reader loop, inflate more than {@link #INFLATED_PER_FILE_BYTE} times the file's size
 * of records (at least {@link RecordingFormat#MAX_RECORDS_BYTES}; a recording inflates about four
 * times), or throw anything but IOException for a file it cannot open.
 */
public final class RecordingReader {
    private RecordingReader() {}

    /** Files larger than this are refused (the reader keeps what it reads in memory). */
    public static final long MAX_FILE_BYTES = 1L << 30;
    /** Records a file may inflate to, per byte of the file: past it, chunks are skipped as damaged. */
    static final int INFLATED_PER_FILE_BYTE = 16;

    /** Thrown for a file this tiprobe cannot read as a recording: its message says why. */
    public static final class NotARecordingException extends IOException {
        private static final long serialVersionUID = 1L;
        private final boolean headerMissing;

        NotARecordingException(String message, boolean headerMissing) {
            super(message);
            this.headerMissing = headerMissing;
        }

        /** Whether the file lacks a recording's header: it is no tiprobe recording at all, not one too new or too large. */
        public boolean headerMissing() {
            return headerMissing;
        }
    }

    public static Recording read(Path file) throws IOException {
        long size = Files.size(file);
        if (size > MAX_FILE_BYTES) throw new NotARecordingException("larger than 1 GiB, the most the reader holds", false);
        return read(Files.readAllBytes(file));
    }

    public static Recording read(byte[] bytes) throws NotARecordingException {
        if (bytes.length < RecordingFormat.HEADER_BYTES
                || !Arrays.equals(Arrays.copyOf(bytes, 4), RecordingFormat.MAGIC)) {
            throw new NotARecordingException("not a tiprobe recording (no TPRB header)", true);
        }
        if (bytes[4] < RecordingFormat.OLDEST_READ || bytes[4] > RecordingFormat.VERSION) {
            throw new NotARecordingException("recording format version " + bytes[4] + "; this tiprobe reads versions "
                    + RecordingFormat.OLDEST_READ + " to " + RecordingFormat.VERSION, false);
        }
        int version = bytes[4];
        Whole whole = new Whole();
        long inflatable = Math.max(RecordingFormat.MAX_RECORDS_BYTES, (long) INFLATED_PER_FILE_BYTE * bytes.length);
        List<String> damage = new ArrayList<>();
        int at = RecordingFormat.HEADER_BYTES;
        while (at < bytes.length) {
            String wrong = wrongWithChunkAt(bytes, at);
            if (wrong != null) {
                // Resynchronise on the next whole chunk: one bad byte loses its chunk, not every later one.
                int next = nextWholeChunk(bytes, at + 1);
                damage.add("chunk " + (whole.chunks + 1) + " at offset " + at + ": " + wrong
                        + (next < 0 ? "" : "; skipped " + (next - at) + " bytes to the next whole chunk at offset " + next));
                if (next < 0) break;
                at = next;
                continue;
            }
            int length = ByteBuffer.wrap(bytes, at, 4).getInt();
            // Decode into scratch collections; keep them only if the whole chunk decodes.
            Chunk chunk = new Chunk(version, whole);
            try {
                ByteBuffer body = version >= RecordingFormat.DEFLATED_SINCE ? inflated(bytes, at + 8, length, inflatable)
                        : ByteBuffer.wrap(bytes, at + 8, length).slice();
                inflatable -= body.remaining();
                chunk.decode(body);
                whole.add(chunk);
            } catch (Malformed | BufferUnderflowException e) {
                damage.add("chunk " + (whole.chunks + 1) + " at offset " + at + ": "
                        + (e instanceof Malformed m ? m.getMessage() : "a field runs past the chunk") + "; skipped");
            }
            at += 8 + length;
        }
        return whole.recording(damage.isEmpty() ? null : String.join("; ", damage));
    }

    /** What records hold, gathered: a chunk's, or the recording's so far. */
    private abstract static class Records {
        final Map<Integer, String> methods = new HashMap<>();
        final Map<Integer, String> sources = new HashMap<>();
        final Map<Long, String> threads = new HashMap<>();
        final Map<Integer, String> types = new HashMap<>();
        /** The events of each {@link RecordKind}'s type, in the order they were written; but the figures, kept below. */
        final Map<Class<?>, ArrayList<Object>> byType = new HashMap<>();
        /** Traced methods' latest figures by method id: each replaces those before it, so only the last is kept. */
        final Map<Integer, MethodStats> stats = new HashMap<>();
        /** The last figures of methods whose classes unloaded, summed by id (equal classes loaded again share it). */
        final Map<Integer, MethodStats> settled = new HashMap<>();
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;

        /** A settled figure takes the place of what came before it for its id, and is added to the id's settled ones. */
        void figures(MethodStats figures) {
            if (!figures.settled()) {
                stats.put(figures.methodId(), figures);
            } else {
                stats.remove(figures.methodId());
                settled.merge(figures.methodId(), figures, MethodStats::plus);
            }
        }
    }

    /** The recording as its whole chunks so far make it. */
    private static final class Whole extends Records {
        int chunks;

        /** Adds a chunk that decoded whole: names by key (a later one winning), events after those before. */
        void add(Chunk chunk) {
            methods.putAll(chunk.methods);
            sources.putAll(chunk.sources);
            threads.putAll(chunk.threads);
            types.putAll(chunk.types);
            chunk.byType.forEach((type, events) -> byType.computeIfAbsent(type, t -> new ArrayList<>()).addAll(events));
            chunk.settled.forEach((id, last) -> {
                stats.remove(id);  // what an earlier chunk had of that class instance
                settled.merge(id, last, MethodStats::plus);
            });
            stats.putAll(chunk.stats);
            start = Math.min(start, chunk.start);
            end = Math.max(end, chunk.end);
            chunks++;
        }

        /**
         * The recording: each kind's events taken by the view that holds them (shared, not
         * copied: a recording may hold millions), those of a kind no view holds yet as they are.
         */
        Recording recording(String damage) {
            Map<String, String> info = new HashMap<>();
            for (Info fact : take(Info.class)) info.put(fact.key(), fact.value());
            java.util.NavigableMap<Long, Long> intervals = new java.util.TreeMap<>();
            // Each allocation gets the interval in force; the changes themselves no view holds.
            for (AllocInterval change : all(AllocInterval.class)) intervals.put(change.epochNanos(), change.intervalBytes());
            List<Allocation> allocations = take(Allocation.class);
            withIntervals(allocations, intervals, info.get(RecordingFormat.INFO_ALLOC_INTERVAL));
            settled.forEach((id, last) -> stats.merge(id, last, MethodStats::plus));
            Map<Integer, Signature> signatures = new HashMap<>();
            for (Signature s : take(Signature.class)) signatures.put(s.methodId(), s);
            Recording.Tracing tracing = new Recording.Tracing(Map.copyOf(signatures), read(take(Skipped.class)),
                    take(ClassFailure.class).stream().map(ClassFailure::reason).toList(), read(take(Removed.class)));
            Recording.Events events = new Recording.Events(Map.copyOf(types), read(allocations),
                    take(Freed.class).stream().map(Freed::tag).collect(java.util.stream.Collectors.toUnmodifiableSet()),
                    read(take(LockWait.class)), read(take(Deadlock.class)));
            List<Sample> samples = read(take(Sample.class));
            List<ClassEvent> classEvents = read(take(ClassEvent.class));
            List<Call> calls = take(Call.class);
            // Calls the session's sample let go after they were written: the sample is what it kept at its end. No view holds the evictions themselves.
            java.util.Set<Call.Id> evicted = new java.util.HashSet<>(all(Call.Id.class));
            if (!evicted.isEmpty()) calls.removeIf(c -> evicted.contains(c.id()));
            calls = read(calls);
            Map<Class<?>, List<?>> others = new HashMap<>();
            byType.forEach((type, rest) -> others.put(type, read(rest)));
            return new Recording(chunks, chunks == 0 ? 0 : start, chunks == 0 ? 0 : end, Map.copyOf(info), Map.copyOf(methods),
                    Map.copyOf(sources), Map.copyOf(threads), samples, classEvents, Map.copyOf(stats), calls, tracing, events,
                    Map.copyOf(others), damage);
        }

        /** The events of {@code type} the whole chunks hold, in the order they were written, no longer among those no view holds. */
        @SuppressWarnings("unchecked")  // each list holds what its kind's codec read: events of its type
        private <E> List<E> take(Class<E> type) {
            List<Object> events = byType.remove(type);
            return events == null ? new ArrayList<>() : (List<E>) events;
        }

        /** The events of {@code type} the whole chunks hold, in the order they were written, left among those no view holds. */
        @SuppressWarnings("unchecked")  // as in take
        private <E> List<E> all(Class<E> type) {
            List<Object> events = byType.get(type);
            return events == null ? List.of() : (List<E>) events;
        }

        /** A list as the recording hands it out: unchangeable, not copied. */
        private static <E> List<E> read(List<E> events) {
            return java.util.Collections.unmodifiableList(events);
        }
    }

    /**
     * A chunk's body with its records inflated (version 12 on): its two times as they are, then
     * the records. A stream that does not inflate, leaves bytes after its end, or inflates past
     * {@link RecordingFormat#MAX_RECORDS_BYTES} or what the file may still inflate to ({@code
     * inflatable}) is malformed.
     */
    private static ByteBuffer inflated(byte[] bytes, int at, int length, long inflatable) throws Malformed {
        long most = Math.min(RecordingFormat.MAX_RECORDS_BYTES, inflatable);
        java.util.zip.Inflater inflater = new java.util.zip.Inflater(true);
        try {
            inflater.setInput(bytes, at + 16, length - 16);
            byte[] body = new byte[(int) Math.min(16L + (long) length * 4, 16 + most)];
            System.arraycopy(bytes, at, body, 0, 16);
            int size = 16;
            while (!inflater.finished()) {
                if (size == body.length) {
                    if (size - 16 >= most) throw new Malformed("its records inflate past " + (most >> 20) + " MiB");
                    body = java.util.Arrays.copyOf(body, (int) Math.min(16 + most, 2L * body.length));
                }
                int n = inflater.inflate(body, size, body.length - size);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) throw new Malformed("its records end before their deflated stream does");
                size += n;
            }
            if (inflater.getRemaining() > 0) throw new Malformed(inflater.getRemaining() + " bytes follow its deflated records");
            return ByteBuffer.wrap(body, 0, size).slice();
        } catch (java.util.zip.DataFormatException e) {
            throw new Malformed("its records do not inflate (" + e.getMessage() + ")");
        } finally {
            inflater.end();
        }
    }

    /** Why no whole chunk starts at {@code at} (its header, its length, its checksum), or null when one does. */
    private static String wrongWithChunkAt(byte[] bytes, int at) {
        if (bytes.length - at < 8) return "truncated header";
        ByteBuffer head = ByteBuffer.wrap(bytes, at, 8);
        int length = head.getInt();
        int crc = head.getInt();
        if (length < 16 || length > RecordingFormat.MAX_CHUNK_BYTES) return "impossible length " + length;
        if (length > bytes.length - at - 8) return "truncated (" + (bytes.length - at - 8) + " of " + length + " bytes)";
        CRC32 check = new CRC32();
        check.update(bytes, at + 8, length);
        return (int) check.getValue() != crc ? "checksum mismatch" : null;
    }

    /**
     * Where the next whole chunk starts at or after {@code from}, or -1: a plausible length that
     * fits and a checksum that matches (a false match has odds of one in four billion).
     */
    private static int nextWholeChunk(byte[] bytes, int from) {
        for (int at = from; at <= bytes.length - 8 - 16; at++) {
            int length = ByteBuffer.wrap(bytes, at, 4).getInt();
            if (length < 16 || length > bytes.length - at - 8) continue;
            int after = at + 8 + length;  // the file's end, or another chunk's plausible length: then the checksum
            boolean followed = after == bytes.length || bytes.length - after >= 8
                    && ByteBuffer.wrap(bytes, after, 4).getInt() >= 16 && ByteBuffer.wrap(bytes, after, 4).getInt() <= RecordingFormat.MAX_CHUNK_BYTES;
            if (followed && wrongWithChunkAt(bytes, at) == null) return at;
        }
        return -1;
    }

    /**
     * Gives each allocation the sampling interval in force when it was taken: the last change
     * before it, or the session's interval. By time, not by place in the file: a sample taken just
     * before a change may be written after it.
     */
    private static void withIntervals(List<Allocation> allocations, java.util.NavigableMap<Long, Long> changes, String asked) {
        long first;
        try {
            first = asked == null ? 0 : Long.parseLong(asked);
        } catch (NumberFormatException e) {
            first = 0;
        }
        long initial = first;
        allocations.replaceAll(a -> {
            Map.Entry<Long, Long> change = changes.floorEntry(a.epochNanos());
            return a.withInterval(change == null ? initial : change.getValue());
        });
    }

    /** A chunk being decoded: the names it defines, its stacks, its events; the reader asks for its records through {@link RecordIn}. */
    private static final class Chunk extends Records implements RecordIn {
        final int version;
        /** The recording's whole chunks before this one, whose definitions of names this chunk's events may use. */
        private final Records before;
        /** Each kind's list in {@link #byType}, by the kind's number, once the chunk has met one. */
        @SuppressWarnings({"unchecked", "rawtypes"})  // no generic array: each holds its kind's events
        private final ArrayList<Object>[] byNumber = new ArrayList[128];
        /** Version 9 on: events name their stacks in the chunk's pool; null before. */
        final List<Stack> stacks;
        /** The chunk's records, read from where the record being read is. */
        private ByteBuffer in;

        Chunk(int version, Records before) {
            this.version = version;
            this.before = before;
            this.stacks = version >= RecordingFormat.STACKS_SINCE ? new ArrayList<>() : null;
        }

        void decode(ByteBuffer b) throws Malformed {
            in = b;
            start = b.getLong();
            end = b.getLong();
            while (b.hasRemaining()) {
                int number = b.get();
                switch (number) {
                    case RecordingFormat.METHOD -> methods.put(methodId(b), Wire.string(b));
                    case RecordingFormat.SOURCE -> sources.put(methodId(b), Wire.string(b));
                    case RecordingFormat.THREAD -> threads.put(Wire.varlong(b), Wire.string(b));
                    case RecordingFormat.TYPE -> types.put(methodId(b), Wire.string(b));
                    case RecordingFormat.STACK -> pool(b);
                    default -> event(number);
                }
            }
        }

        /** A record of a {@link RecordKind}, read by its codec. */
        private void event(int number) throws Malformed {
            RecordKind<?> kind = RecordKinds.of(number);
            if (kind == null) throw new Malformed("unknown record kind " + number);
            if (version < kind.since()) throw new Malformed("a " + kind + " in a recording older than version " + kind.since());
            Object event = kind.read(this);
            if (event instanceof MethodStats figures) {
                figures(figures);
                return;
            }
            ArrayList<Object> events = byNumber[number];
            if (events == null) byNumber[number] = events = byType.computeIfAbsent(kind.type(), t -> new ArrayList<>());
            events.add(event);
        }

        /** A STACK record: the chunk's next pooled stack. */
        private void pool(ByteBuffer b) throws Malformed {
            if (stacks == null) throw new Malformed("a STACK record in a recording older than version " + RecordingFormat.STACKS_SINCE);
            long id = Wire.varlong(b);
            if (id != stacks.size() + 1) throw new Malformed("stack " + id + " out of order");
            stacks.add(frames(b, Wire.flag(b)));
        }

        /** A stack by its id in the chunk's pool; events naming one share it. */
        private Stack pooled(long id) throws Malformed {
            if (id < 1 || id > stacks.size()) throw new Malformed("no stack " + id + " in this chunk");
            return stacks.get((int) id - 1);
        }

        /** {@code varint:depth (varint:methodId varint:line) * depth}; a cut stack gets a [truncated] root, so every view shows where frames are missing. */
        private static Stack frames(ByteBuffer b, boolean truncated) throws Malformed {
            long depth = Wire.varlong(b);
            if (depth > RecordingFormat.MAX_DEPTH || depth > b.remaining() / 2) throw new Malformed("bad depth " + depth);
            int[] frames = new int[(int) depth + (truncated ? 1 : 0)];
            int[] lines = new int[frames.length];
            if (truncated) frames[frames.length - 1] = Stack.TRUNCATED;
            for (int i = 0; i < depth; i++) {
                long id = Wire.varlong(b);
                if (id > Integer.MAX_VALUE) throw new Malformed("bad frame id " + id);
                frames[i] = (int) id;
                long line = Wire.varlong(b);
                if (line > Integer.MAX_VALUE) throw new Malformed("bad line " + line);
                lines[i] = (int) line;
            }
            return new Stack(frames, lines, (int) depth, truncated);
        }

        private static int methodId(ByteBuffer b) throws Malformed {
            long id = Wire.varlong(b);
            if (id <= 0 || id > Integer.MAX_VALUE) throw new Malformed("bad method id " + id);
            return (int) id;
        }

        @Override
        public int version() {
            return version;
        }

        @Override
        public long time() throws Malformed {
            return start + Wire.varlong(in);
        }

        @Override
        public long varlong() throws Malformed {
            return Wire.varlong(in);
        }

        @Override
        public int u8() {
            return in.get() & 0xFF;
        }

        @Override
        public String string() throws Malformed {
            return Wire.string(in);
        }

        /** A value; in a recording before version 4 a value was text, and void's result empty text. */
        @Override
        public CapturedValue value() throws Malformed {
            if (version < RecordingFormat.VALUES_SINCE) {
                String text = Wire.string(in);
                return text.isEmpty() ? CapturedValue.NONE : new CapturedValue.Shown(text);
            }
            return CapturedValueCodec.read(in);
        }

        @Override
        public int count(String what, int minBytes) throws Malformed {
            long n = Wire.varlong(in);
            if (n > in.remaining() / minBytes) throw new Malformed("bad " + what + " " + n);
            return (int) n;
        }

        @Override
        public long thread() throws Malformed {
            return Wire.varlong(in);
        }

        @Override
        public String threadName(long id) {
            return named(id, threads, before.threads);
        }

        /** The name {@code id} was defined with in this chunk, or else in an earlier one; or null. */
        private static <K> String named(K id, Map<K, String> here, Map<K, String> earlier) {
            String name = here.get(id);
            return name != null ? name : earlier.get(id);
        }

        @Override
        public int method() throws Malformed {
            return methodId(in);
        }

        @Override
        public int type() throws Malformed {
            return methodId(in);
        }

        @Override
        public String typeName(int id) {
            return named(id, types, before.types);
        }

        /** By id from version 9, else {@code u8:truncated} and its frames. */
        @Override
        public Stack stack() throws Malformed {
            return stacks != null ? pooled(Wire.varlong(in)) : frames(in, Wire.flag(in));
        }

        @Override
        public Stack stack(boolean truncated) throws Malformed {
            return stacks != null ? pooled(Wire.varlong(in)) : frames(in, truncated);
        }

        @Override
        public Stack optionalStack() throws Malformed {
            long id = Wire.varlong(in);
            return id == 0 ? Stack.NONE : pooled(id);
        }
    }
}
