package dev.tiprobe.report;

import dev.tiprobe.recording.AllocInterval;
import dev.tiprobe.recording.Callee;
import dev.tiprobe.recording.CapturedValue;
import dev.tiprobe.recording.CapturedValueCodec;
import dev.tiprobe.recording.ClassEvent;
import dev.tiprobe.recording.ClassFailure;
import dev.tiprobe.recording.Deadlock;
import dev.tiprobe.recording.Freed;
import dev.tiprobe.recording.Info;
import dev.tiprobe.recording.RecordIn;
import dev.tiprobe.recording.RecordKind;
import dev.tiprobe.recording.RecordKinds;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.Removed;
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
            Chunk chunk = new Chunk(version);
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
        /**
         * The collections below that each chunk's are added to, in the same order in every
         * Records ({@link Whole#add}); the method figures, which a chunk may settle, are added apart.
         */
        private final List<Object> gathered = new ArrayList<>();
        final Map<Integer, String> methods = gathered(new HashMap<>());
        final Map<Integer, String> sources = gathered(new HashMap<>());
        final Map<Long, String> threads = gathered(new HashMap<>());
        final List<Recording.Sample> samples = gathered(new ArrayList<>());
        final List<Recording.Call> calls = gathered(new ArrayList<>());
        final Map<Integer, String> types = gathered(new HashMap<>());
        final List<Recording.Allocation> allocations = gathered(new ArrayList<>());
        final List<Recording.LockWait> locks = gathered(new ArrayList<>());
        /** The events of each {@link RecordKind}'s type, in the order they were written. */
        final Map<Class<?>, List<Object>> byType = new HashMap<>();
        final Map<Integer, Recording.MethodStats> stats = new HashMap<>();
        /** The last figures of methods whose classes unloaded, summed by id (equal classes loaded again share it). */
        final Map<Integer, Recording.MethodStats> settled = new HashMap<>();
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;

        private <T> T gathered(T collection) {
            gathered.add(collection);
            return collection;
        }

        /** Adds what {@code later} gathered to this: maps by key, a later entry winning; lists and sets joined. */
        @SuppressWarnings("unchecked")
        void addGathered(Records later) {
            for (int i = 0; i < gathered.size(); i++) {
                Object mine = gathered.get(i);
                if (mine instanceof Map<?, ?> map) ((Map<Object, Object>) map).putAll((Map<?, ?>) later.gathered.get(i));
                else ((java.util.Collection<Object>) mine).addAll((java.util.Collection<?>) later.gathered.get(i));
            }
            later.byType.forEach((type, events) -> byType.computeIfAbsent(type, t -> new ArrayList<>()).addAll(events));
        }
    }

    /** The recording as its whole chunks so far make it. */
    private static final class Whole extends Records {
        int chunks;

        void add(Chunk chunk) {
            addGathered(chunk);
            chunk.settled.forEach((id, last) -> {
                stats.remove(id);  // what an earlier chunk had of that class instance
                settled.merge(id, last, Recording.MethodStats::plus);
            });
            stats.putAll(chunk.stats);
            start = Math.min(start, chunk.start);
            end = Math.max(end, chunk.end);
            chunks++;
        }

        Recording recording(String damage) {
            Map<String, String> info = new HashMap<>();
            for (Info fact : all(Info.class)) info.put(fact.key(), fact.value());
            java.util.NavigableMap<Long, Long> intervals = new java.util.TreeMap<>();
            for (AllocInterval change : all(AllocInterval.class)) intervals.put(change.epochNanos(), change.intervalBytes());
            withIntervals(allocations, intervals, info.get(RecordingFormat.INFO_ALLOC_INTERVAL));
            settled.forEach((id, last) -> stats.merge(id, last, Recording.MethodStats::plus));
            Map<Integer, Signature> signatures = new HashMap<>();
            for (Signature s : all(Signature.class)) signatures.put(s.methodId(), s);
            Map<Class<?>, List<?>> records = new HashMap<>();
            byType.forEach((type, events) -> records.put(type, List.copyOf(events)));
            return new Recording(chunks, chunks == 0 ? 0 : start, chunks == 0 ? 0 : end, Map.copyOf(info), Map.copyOf(methods),
                    Map.copyOf(sources), Map.copyOf(threads), List.copyOf(samples), all(ClassEvent.class), Map.copyOf(stats),
                    List.copyOf(calls),
                    new Recording.Tracing(Map.copyOf(signatures), all(Skipped.class),
                            all(ClassFailure.class).stream().map(ClassFailure::reason).toList(), all(Removed.class)),
                    new Recording.Events(Map.copyOf(types), List.copyOf(allocations),
                            all(Freed.class).stream().map(Freed::tag).collect(java.util.stream.Collectors.toUnmodifiableSet()),
                            List.copyOf(locks), all(Deadlock.class)),
                    Map.copyOf(records), damage);
        }

        /** The events of {@code type} the whole chunks hold, in the order they were written. */
        private <E> List<E> all(Class<E> type) {
            List<Object> events = byType.getOrDefault(type, List.of());
            return events.stream().map(type::cast).toList();
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
    private static void withIntervals(List<Recording.Allocation> allocations, java.util.NavigableMap<Long, Long> changes, String asked) {
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

    private static final class Chunk extends Records implements RecordIn {
        final int version;
        /** The chunk's records, read from where the record being read is. */
        private ByteBuffer in;
        /** Version 4 on: values (not text) in calls, histograms in statistics. */
        final boolean values;
        /** Version 8 on: statistics may be settled. */
        final boolean settles;
        /** Whether LOCK records may be parks (version 13 on). */
        final boolean parks;
        /** Version 9 on: events name their stacks in the chunk's pool; null before. */
        final List<Frames> stacks;
        /** Version 10 on: calls end with a stack id. */
        final boolean callerStacks;
        final boolean callees;

        Chunk(int version) {
            this.version = version;
            this.values = version >= RecordingFormat.VALUES_SINCE;
            this.settles = version >= RecordingFormat.SETTLED_SINCE;
            this.parks = version >= RecordingFormat.PARKS_SINCE;
            this.stacks = version >= RecordingFormat.STACKS_SINCE ? new ArrayList<>() : null;
            this.callerStacks = version >= RecordingFormat.CALLER_STACKS_SINCE;
            this.callees = version >= RecordingFormat.CALLEES_SINCE;
        }

        void decode(ByteBuffer b) throws Malformed {
            in = b;
            start = b.getLong();
            end = b.getLong();
            while (b.hasRemaining()) {
                int kind = b.get();
                switch (kind) {
                    case RecordingFormat.METHOD -> methods.put(methodId(b), Wire.string(b));
                    case RecordingFormat.SOURCE -> sources.put(methodId(b), Wire.string(b));
                    case RecordingFormat.THREAD -> threads.put(Wire.varlong(b), Wire.string(b));
                    case RecordingFormat.SAMPLE -> samples.add(sample(b));
                    case RecordingFormat.TYPE -> types.put(methodId(b), Wire.string(b));
                    case RecordingFormat.STACK -> pool(b);
                    case RecordingFormat.ALLOC -> allocations.add(allocation(b));
                    case RecordingFormat.LOCK -> locks.add(lock(b));
                    case RecordingFormat.STATS -> stats(b);
                    case RecordingFormat.CALL -> calls.add(call(b));
                    default -> event(kind, b);
                }
            }
        }

        /** A record of a {@link RecordKind}, read by its codec. */
        private void event(int number, ByteBuffer b) throws Malformed {
            RecordKind<?> kind = RecordKinds.of(number);
            if (kind == null) throw new Malformed("unknown record kind " + number);
            if (version < kind.since()) throw new Malformed("a record of kind " + number + " in a recording older than version " + kind.since());
            byType.computeIfAbsent(kind.type(), t -> new ArrayList<>()).add(kind.read(this));
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
            return in.get();
        }

        @Override
        public String string() throws Malformed {
            return Wire.string(in);
        }

        @Override
        public CapturedValue value() throws Malformed {
            return value(in);
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
            return threads.get(id);
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
        public Stack stack() throws Malformed {
            Frames f = stack(in);
            return Stack.read(f.ids, f.lines);
        }


        private Recording.Sample sample(ByteBuffer b) throws Malformed {
            long time = start + Wire.varlong(b);
            long thread = Wire.varlong(b);
            byte flags = b.get();
            byte state = (byte) (flags & ~(RecordingFormat.STATE_TRUNCATED | RecordingFormat.STATE_WEIGHTED));
            long weight = Wire.varlong(b);
            long ticks = (flags & RecordingFormat.STATE_WEIGHTED) != 0 ? Wire.varlong(b) : 1;
            Frames f = stacks != null ? pooled(Wire.varlong(b)) : frames(b, (flags & RecordingFormat.STATE_TRUNCATED) != 0);
            return new Recording.Sample(time, thread, state, weight, ticks, f.ids, f.lines);
        }

        /** A STACK record: the chunk's next pooled stack. */
        private void pool(ByteBuffer b) throws Malformed {
            if (stacks == null) throw new Malformed("a STACK record in a recording older than version " + RecordingFormat.STACKS_SINCE);
            long id = Wire.varlong(b);
            if (id != stacks.size() + 1) throw new Malformed("stack " + id + " out of order");
            stacks.add(frames(b, Wire.flag(b)));
        }

        private Recording.Allocation allocation(ByteBuffer b) throws Malformed {
            long time = start + Wire.varlong(b);
            long thread = Wire.varlong(b);
            int type = methodId(b);
            long size = Wire.varlong(b);
            long tag = Wire.varlong(b);
            Frames f = stack(b);
            return new Recording.Allocation(time, thread, type, size, tag, f.ids, f.lines, 0);
        }

        private Recording.LockWait lock(ByteBuffer b) throws Malformed {
            long time = start + Wire.varlong(b);
            long thread = Wire.varlong(b);
            byte lockKind = b.get();
            byte lastKind = parks ? RecordingFormat.WAIT_PARKED : RecordingFormat.LOCK_WAIT;
            if (lockKind < RecordingFormat.LOCK_CONTENDED || lockKind > lastKind) {
                throw new Malformed("bad lock kind " + lockKind);
            }
            int type = methodId(b);
            long wait = Wire.varlong(b);
            Frames f = stack(b);
            long owner = Wire.varlong(b);
            Frames o = owner == 0 ? NO_FRAMES : stack(b);
            return new Recording.LockWait(time, thread, lockKind, type, wait, f.ids, f.lines, owner, o.ids, o.lines);
        }

        /** A STATS record: a method's figures so far, or (settled) the last of a class that went. */
        private void stats(ByteBuffer b) throws Malformed {
            int method = methodId(b);
            long count = Wire.varlong(b);
            int flags = b.get();
            int known = RecordingFormat.STATS_TIMED | (settles ? RecordingFormat.STATS_SETTLED : 0);
            if ((flags & ~known) != 0) {
                throw new Malformed("bad statistics flags " + flags);
            }
            boolean timed = (flags & RecordingFormat.STATS_TIMED) != 0;
            long total = timed ? Wire.varlong(b) : -1;
            long min = timed ? Wire.varlong(b) : -1;
            long max = timed ? Wire.varlong(b) : -1;
            long[] histogram = timed && values ? histogram(b) : new long[0];
            Recording.MethodStats figures = new Recording.MethodStats(method, count, timed, total, min, max, histogram);
            if ((flags & RecordingFormat.STATS_SETTLED) == 0) {
                stats.put(method, figures);
            } else {
                stats.remove(method);
                settled.merge(method, figures, Recording.MethodStats::plus);
            }
        }

        /** A stack's method ids and lines, leaf first. */
        private record Frames(int[] ids, int[] lines) {}

        private static final Frames NO_FRAMES = new Frames(new int[0], new int[0]);

        /** An ALLOC's or LOCK's stack: by id from version 9, else {@code u8:truncated} and its frames. */
        private Frames stack(ByteBuffer b) throws Malformed {
            return stacks != null ? pooled(Wire.varlong(b)) : frames(b, Wire.flag(b));
        }

        /** A stack by its id in the chunk's pool; events naming one share its arrays. */
        private Frames pooled(long id) throws Malformed {
            if (id < 1 || id > stacks.size()) throw new Malformed("no stack " + id + " in this chunk");
            return stacks.get((int) id - 1);
        }

        /** {@code varint:depth (varint:methodId varint:line) * depth}; a cut stack gets a [truncated] root, so every view shows where frames are missing. */
        private static Frames frames(ByteBuffer b, boolean truncated) throws Malformed {
            long depth = Wire.varlong(b);
            if (depth > RecordingFormat.MAX_DEPTH || depth > b.remaining() / 2) throw new Malformed("bad depth " + depth);
            int[] frames = new int[(int) depth + (truncated ? 1 : 0)];
            int[] lines = new int[frames.length];
            if (truncated) frames[frames.length - 1] = Recording.TRUNCATED;
            for (int i = 0; i < depth; i++) {
                long id = Wire.varlong(b);
                if (id > Integer.MAX_VALUE) throw new Malformed("bad frame id " + id);
                frames[i] = (int) id;
                long line = Wire.varlong(b);
                if (line > Integer.MAX_VALUE) throw new Malformed("bad line " + line);
                lines[i] = (int) line;
            }
            return new Frames(frames, lines);
        }

        private Recording.Call call(ByteBuffer b) throws Malformed {
            long time = start + Wire.varlong(b);
            long thread = Wire.varlong(b);
            int method = methodId(b);
            long depth = Wire.varlong(b);
            if (depth > Integer.MAX_VALUE) throw new Malformed("bad call depth " + depth);
            byte outcome = b.get();
            if (outcome != RecordingFormat.RETURNED && outcome != RecordingFormat.THREW && outcome != RecordingFormat.RUNNING) {
                throw new Malformed("bad call outcome " + outcome);
            }
            long duration = Wire.varlong(b);
            long count = Wire.varlong(b);
            if (count > b.remaining() / 2) throw new Malformed("bad argument count " + count);
            List<String> names = new ArrayList<>();
            List<CapturedValue> args = new ArrayList<>();
            for (long i = 0; i < count; i++) {
                names.add(Wire.string(b));
                args.add(value(b));
            }
            CapturedValue result = value(b);
            long stackId = callerStacks ? Wire.varlong(b) : 0;
            Frames stack = stackId == 0 ? NO_FRAMES : pooled(stackId);  // 0: no stack taken
            List<Callee> sites = callees ? callees(b) : List.of();
            return new Recording.Call(time, thread, method, (int) depth, outcome == RecordingFormat.RUNNING ? -1 : duration,
                    outcome == RecordingFormat.THREW, List.copyOf(names), List.copyOf(args), result, stack.ids, stack.lines, sites);
        }

        /** A CALL's timed call sites. */
        private static List<Callee> callees(ByteBuffer b) throws Malformed {
            long count = Wire.varlong(b);
            if (count > b.remaining() / 3) throw new Malformed("bad callee count " + count);
            List<Callee> out = new ArrayList<>();
            for (long i = 0; i < count; i++) out.add(new Callee(Wire.string(b), Wire.varlong(b), Wire.varlong(b)));
            return List.copyOf(out);
        }

        /** Bucket b: calls of [2^b, 2^(b+1)) ns. */
        private static long[] histogram(ByteBuffer b) throws Malformed {
            long buckets = Wire.varlong(b);
            if (buckets > 64) throw new Malformed("bad histogram of " + buckets + " buckets");
            long[] h = new long[64];
            for (long i = 0; i < buckets; i++) {
                int bucket = b.get();
                if (bucket < 0 || bucket >= 64) throw new Malformed("bad histogram bucket " + bucket);
                h[bucket] = Wire.varlong(b);
            }
            return h;
        }

        /** A value; in a recording before version 4 a value was text, and void's result empty text. */
        private CapturedValue value(ByteBuffer b) throws Malformed {
            if (!values) {
                String text = Wire.string(b);
                return text.isEmpty() ? CapturedValue.NONE : new CapturedValue.Shown(text);
            }
            return CapturedValueCodec.read(b);
        }

        private static int methodId(ByteBuffer b) throws Malformed {
            long id = Wire.varlong(b);
            if (id <= 0 || id > Integer.MAX_VALUE) throw new Malformed("bad method id " + id);
            return (int) id;
        }
    }
}
