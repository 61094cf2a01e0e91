package dev.tiprobe.agent.sink;

import dev.tiprobe.ids.IdMap;
import dev.tiprobe.recording.AllocInterval;
import dev.tiprobe.recording.Deadlock;
import dev.tiprobe.recording.Info;
import dev.tiprobe.recording.RecordKind;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.RecordingWriter;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A session's recording: the one writer that the sampler (samples, class events) and the tracing
 * session (method statistics, traced calls) share, each call serialized here. One ID map names
 * everything in it (the sampler's registry's when sampling): traced methods' tokens are interned
 * into it, so sampled frames and traced methods share one symbol table without colliding ids.
 */
public final class Recorder implements AutoCloseable {
    private final IdMap names;
    /** The file being written and its writer: replaced together by {@link #rotate}. */
    private volatile Path file;
    private RecordingWriter writer;
    /** The session's facts so far, which every recording of a loop starts with. */
    private final Map<String, String> facts = new LinkedHashMap<>();
    /** The session's running totals ({@link #total}) so far, and what they were as the file being written began. */
    private final Map<String, Long> totals = new LinkedHashMap<>();
    private final Map<String, Long> totalsAtFileStart = new LinkedHashMap<>();
    /** Allocation sampling's interval once the overhead budget has changed it (0: as asked), for the next recording of a loop. */
    private long allocInterval;
    private final long epochAtStart = EpochClock.nanosNow();
    private final long nanoAtStart = System.nanoTime();
    private boolean closed;

    private Recorder(Path file, IdMap names) throws IOException {
        this.file = file;
        this.names = names;
        this.writer = RecordingWriter.create(file, names::humanName, names::sourcePath);
    }

    /** Creates {@code file}, readable by its owner only, its methods named by {@code names}; it names the program first. */
    public static Recorder create(Path file, IdMap names) throws IOException {
        Recorder r = new Recorder(file, names);
        r.info(RecordingFormat.INFO_PROGRAM, program());
        return r;
    }

    /** The program's name: its main class, or its jar's file name, from {@code sun.java.command}; else {@code java}. */
    public static String program() {
        String command = System.getProperty("sun.java.command", "").strip();
        if (command.isEmpty()) return "java";
        String first = command.split("\\s+")[0];
        return first.endsWith(".jar") ? Path.of(first).getFileName().toString() : first;
    }

    /** The ID map that names this recording's methods. */
    public IdMap names() {
        return names;
    }

    public Path file() {
        return file;
    }

    /** Set by {@link #stopping()}: no stamp is later. */
    private volatile long stoppedAt = Long.MAX_VALUE;

    /**
     * Now, in epoch nanoseconds on a monotonic clock (wall-clock steps do not reorder events); at
     * most the moment the session began to stop.
     */
    public long now() {
        return stampOf(System.nanoTime());
    }

    /** As {@link #now()}, for the moment {@code nanoTime} ({@link System#nanoTime()}): an engine that writes a moment it saw earlier. */
    public long stampOf(long nanoTime) {
        return Math.min(stoppedAt, epochAtStart + (nanoTime - nanoAtStart));
    }

    /** The {@link System#nanoTime()} of a stamp: {@code nanoTimeOf(now())} is now, or the stop's moment once the session stops. */
    public long nanoTimeOf(long epochNanos) {
        return nanoAtStart + (epochNanos - epochAtStart);
    }

    /**
     * The session stops now: what its engines write while they wind down (JFR's last waits take
     * up to a second to come) is stamped at this moment at the latest, so the recording ends when
     * the stop was asked, and the live objects' ages are told at that moment.
     */
    public void stopping() {
        if (stoppedAt == Long.MAX_VALUE) stoppedAt = now();
    }

    /** Whether the session began to stop: an engine that takes samples of its own takes no more. */
    public boolean isStopping() {
        return stoppedAt != Long.MAX_VALUE;
    }

    /**
     * Whether an event stamped {@code epochNanos} came after the stop began: it belongs to the
     * wind-down (the engines close one after another, JFR's stream first, which takes up to a
     * second), not to the program, and is left out. An engine's own stamp ({@link #now}) reads the
     * stop itself from then on; JFR's stamps are past it.
     */
    public boolean afterStop(long epochNanos) {
        return epochNanos >= stoppedAt;
    }

    public synchronized void info(String key, String value) throws IOException {
        if (closed) return;
        facts.put(key, value);
        writer.write(now(), Info.KIND, new Info(key, value));
    }

    /**
     * A running total of the session's, e.g. {@link RecordingFormat#INFO_OWN_WORK_NANOS}: each file
     * holds what accrued while it was written, so a loop's recording of a minute says that minute's.
     * Written when it has grown (a total not written is 0).
     */
    public synchronized void total(String key, long total) throws IOException {
        if (closed || totals.getOrDefault(key, 0L) == total) return;
        totals.put(key, total);
        writer.write(now(), Info.KIND, new Info(key, Long.toString(total - totalsAtFileStart.getOrDefault(key, 0L))));
    }

    /**
     * Finishes the recording being written and goes on in {@code next}, which starts with the
     * session's facts and names again whatever it uses: each recording of a loop is readable on
     * its own. Returns the finished file.
     */
    public synchronized Path rotate(Path next) throws IOException {
        if (closed) return null;
        RecordingWriter started = RecordingWriter.create(next, names::humanName, names::sourcePath);
        Path finished = file;
        try {
            finish();
        } finally {  // a failure to finish the old file must not leave the session writing to it
            writer = started;
            file = next;
        }
        long now = now();
        totalsAtFileStart.putAll(totals);
        for (Map.Entry<String, String> f : facts.entrySet()) writer.write(now, Info.KIND, new Info(f.getKey(), f.getValue()));
        if (allocInterval > 0) writer.write(now, AllocInterval.KIND, new AllocInterval(now, allocInterval));
        return finished;
    }

    private void finish() throws IOException {
        try {
            writer.write(now(), Info.KIND, new Info(RecordingFormat.INFO_ENDED, "yes"));
        } finally {
            writer.close();
        }
    }

    /**
     * An event of {@code kind} that happened at {@code epochNanos}. Left out when it came after the
     * session began to stop: it belongs to the wind-down, not to the program (an object collected
     * then was live at the stop; the JVM's wait at exit for tiprobe's shutdown hook, stamped past
     * the end, would also move the end). Returns whether it was written.
     */
    public synchronized <E> boolean write(long epochNanos, RecordKind<E> kind, E event) throws IOException {
        if (closed || afterStop(epochNanos)) return false;
        writer.write(epochNanos, kind, event);
        return true;
    }

    /** Allocation sampling's interval from then on ({@link AllocInterval}), also in the next recording of a loop. */
    public synchronized void allocInterval(AllocInterval change) throws IOException {
        if (closed) return;
        allocInterval = change.intervalBytes();
        writer.write(change.epochNanos(), AllocInterval.KIND, change);
    }

    /**
     * A deadlock just found, written as a chunk at once: a JVM that stays deadlocked until it is
     * killed keeps it in its recording.
     */
    public synchronized boolean deadlock(Deadlock d) throws IOException {
        if (closed || isStopping()) return false;
        writer.write(d.epochNanos(), Deadlock.KIND, d);
        writer.flush();
        return true;
    }

    /** Records an engine writes itself, in one go ({@link #writeChunk}). */
    public interface Chunk {
        void write(RecordingWriter writer) throws IOException;
    }

    /**
     * Writes {@code records} in a chunk of their own, under the recording's lock: records whose
     * stamps come before what the chunk so far holds (a traced call begun long before the samples
     * gathered meanwhile) need a chunk that starts with them.
     */
    public synchronized void writeChunk(Chunk records) throws IOException {
        if (closed) return;
        writer.flush();
        records.write(writer);
        writer.flush();
    }

    /**
     * Forgets the tokens of classes unloaded before {@code beforeNanos} ({@link IdMap#retireUnloaded}),
     * but for those an engine still writes records of ({@code stillWritten}, asked under the
     * recording's lock): an equal class loaded again soon after keeps the id its records were written under.
     */
    public synchronized void retireUnloaded(long beforeNanos, java.util.function.IntPredicate stillWritten) {
        names.retireUnloaded(beforeNanos, stillWritten);
    }

    /** Writes what is gathered as a chunk: a target that dies later keeps it. */
    public synchronized void flush() throws IOException {
        if (!closed) writer.flush();
    }

    /** Marks the recording finished ({@link RecordingFormat#INFO_ENDED}) and closes it. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) return;
        closed = true;
        finish();
    }
}
