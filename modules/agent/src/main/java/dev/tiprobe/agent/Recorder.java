package dev.tiprobe.agent;

import dev.tiprobe.ids.IdMap;
import dev.tiprobe.report.RecordingFormat;
import dev.tiprobe.report.RecordingWriter;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A session's recording: the one writer that the sampler (samples, class events) and the tracing
 * session (method statistics, traced calls) share, each call serialized here. One ID map names
 * everything in it (the sampler's registry's when sampling): traced methods' tokens are interned
 * into it, so sampled frames and traced methods share one symbol table without colliding ids.
 */
final class Recorder implements AutoCloseable {
    /** What identifies a traced call across snapshots (each snapshot makes new objects). */
    private record CallKey(long threadId, long startEpochNanos, int depth, int methodId) {}

    private final Path file;
    private final IdMap names;
    private final RecordingWriter writer;
    private final long epochAtStart = System.currentTimeMillis() * 1_000_000L;
    private final long nanoAtStart = System.nanoTime();
    private final Set<CallKey> callsWritten = new HashSet<>();
    private boolean closed;

    private Recorder(Path file, IdMap names) throws IOException {
        this.file = file;
        this.names = names;
        this.writer = RecordingWriter.create(file, names::humanName, names::sourcePath);
    }

    /** Creates {@code file}, readable by its owner only, its methods named by {@code names}. */
    static Recorder create(Path file, IdMap names) throws IOException {
        return new Recorder(file, names);
    }

    /** The ID map that names this recording's methods. */
    IdMap names() {
        return names;
    }

    Path file() {
        return file;
    }

    /** Now, in epoch nanoseconds on a monotonic clock (wall-clock steps do not reorder events). */
    long now() {
        return epochAtStart + (System.nanoTime() - nanoAtStart);
    }

    synchronized void info(String key, String value) throws IOException {
        if (!closed) writer.info(now(), key, value);
    }

    synchronized void sample(long epochNanos, Thread t, byte state, long cpuNanos, int[] frames, int[] lines, int depth,
                             boolean truncated) throws IOException {
        if (!closed) writer.sample(epochNanos, t.threadId(), t.getName(), state, cpuNanos, frames, lines, depth, truncated);
    }

    synchronized void classEvent(long epochNanos, boolean load, String className) throws IOException {
        if (!closed) writer.classEvent(epochNanos, load, className);
    }

    /**
     * The tracing session's figures so far: every method's statistics (replacing those written
     * before) and the traced calls not written yet. A call still running is left for a later
     * write unless {@code last}, when it is written as running.
     */
    synchronized void trace(Results r, boolean last) throws IOException {
        if (closed) return;
        long now = now();
        writer.info(now, RecordingFormat.INFO_TRACE_MODE, r.mode().name().toLowerCase());
        writer.info(now, RecordingFormat.INFO_FILTER, r.filter());
        writer.info(now, RecordingFormat.INFO_DROPPED_CALLS, Long.toString(r.droppedCalls()));
        String removed = r.removedSummary();
        if (removed != null) writer.info(now, RecordingFormat.INFO_REMOVED_FOR_OVERHEAD, removed);
        if (!r.classFailures().isEmpty()) {
            writer.info(now, RecordingFormat.INFO_CLASSES_LEFT_UNCHANGED, Integer.toString(r.classFailures().size()));
            writer.info(now, RecordingFormat.INFO_FIRST_CLASS_FAILURE, r.classFailures().getFirst());
        }
        for (Results.MethodResult m : r.methods()) {
            Results.TimeStats t = m.time();
            int id = names.internMethodToken(m.token());
            if (t == null) writer.stats(now, id, m.calls(), false, 0, 0, 0);
            else writer.stats(now, id, m.calls(), true, t.totalNanos(), m.calls() == 0 ? 0 : t.minNanos(), t.maxNanos());
        }
        for (Results.TracedCall c : r.calls()) {
            if (c.durationNanos() < 0 && !last) continue;
            int id = names.internMethodToken(c.token());
            if (!callsWritten.add(new CallKey(c.threadId(), c.startEpochNanos(), c.depth(), id))) continue;
            List<String> names = new ArrayList<>();
            List<String> values = new ArrayList<>();
            for (int i = 0; i < c.args().size(); i++) {
                List<String> declared = c.parameterNames();
                names.add(declared != null && i < declared.size() && declared.get(i) != null ? declared.get(i) : "arg" + i);
                values.add(CapturedText.of(c.args().get(i)));
            }
            String result = c.threw() || !c.method().endsWith(": void") ? CapturedText.of(c.result()) : "";
            writer.call(c.startEpochNanos(), c.threadId(), c.threadName(), id, c.depth(), c.durationNanos(), c.threw(),
                    names, values, result);
        }
        writer.flush();
    }

    /** Writes what is gathered as a chunk: a target that dies later keeps it. */
    synchronized void flush() throws IOException {
        if (!closed) writer.flush();
    }

    @Override
    public synchronized void close() throws IOException {
        if (closed) return;
        closed = true;
        writer.close();
    }
}
