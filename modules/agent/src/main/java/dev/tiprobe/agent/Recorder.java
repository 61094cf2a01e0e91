package dev.tiprobe.agent;

import dev.tiprobe.agent.tracing.CapturedValues;
import dev.tiprobe.agent.tracing.Reported;
import dev.tiprobe.agent.tracing.Results;
import dev.tiprobe.ids.IdMap;
import dev.tiprobe.recording.CapturedValue;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.RecordingWriter;
import dev.tiprobe.recording.Stack;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A session's recording: the one writer that the sampler (samples, class events) and the tracing
 * session (method statistics, traced calls) share, each call serialized here. One ID map names
 * everything in it (the sampler's registry's when sampling): traced methods' tokens are interned
 * into it, so sampled frames and traced methods share one symbol table without colliding ids.
 */
public final class Recorder implements AutoCloseable {
    /** What identifies a traced call across snapshots (each snapshot makes new objects). */
    private record CallKey(long threadId, long startEpochNanos, int depth, int methodId) {}

    private final IdMap names;
    /** The file being written and its writer: replaced together by {@link #rotate}. */
    private volatile Path file;
    private RecordingWriter writer;
    /** The session's facts so far, which every recording of a loop starts with. */
    private final Map<String, String> facts = new LinkedHashMap<>();
    /** Allocation sampling's interval once the overhead budget has changed it (0: as asked), for the next recording of a loop. */
    private long allocInterval;
    private final long epochAtStart = EpochClock.nanosNow();
    private final long nanoAtStart = System.nanoTime();
    /** The traced calls written that the tracing session still keeps: those it dropped never come back. */
    private Set<CallKey> callsWritten = new HashSet<>();
    /**
     * Calls of each traced method (by token int) when its figures were last written, for the
     * methods of classes alive; -1 where settled figures were just written and the live ones must follow.
     */
    private final Map<Integer, Long> callsAtLastWrite = new HashMap<>();
    private final long[] written = new long[Account.values().length];
    private boolean closed;

    private Recorder(Path file, IdMap names) throws IOException {
        this.file = file;
        this.names = names;
        this.writer = RecordingWriter.create(file, names::humanName, names::sourcePath);
    }

    /** Creates {@code file}, readable by its owner only, its methods named by {@code names}; it names the program first. */
    static Recorder create(Path file, IdMap names) throws IOException {
        Recorder r = new Recorder(file, names);
        r.info(RecordingFormat.INFO_PROGRAM, program());
        return r;
    }

    /** The program's name: its main class, or its jar's file name, from {@code sun.java.command}; else {@code java}. */
    static String program() {
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
    private boolean afterStop(long epochNanos) {
        return epochNanos >= stoppedAt;
    }

    public synchronized void info(String key, String value) throws IOException {
        if (closed) return;
        facts.put(key, value);
        writer.info(now(), key, value);
    }

    /**
     * Finishes the recording being written and goes on in {@code next}, which starts with the
     * session's facts and names again whatever it uses: each recording of a loop is readable on
     * its own. Returns the finished file.
     */
    synchronized Path rotate(Path next) throws IOException {
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
        for (Map.Entry<String, String> f : facts.entrySet()) writer.info(now, f.getKey(), f.getValue());
        if (allocInterval > 0) writer.allocInterval(now, allocInterval);
        return finished;
    }

    private void finish() throws IOException {
        try {
            writer.info(now(), RecordingFormat.INFO_ENDED, "yes");
        } finally {
            writer.close();
        }
    }

    public synchronized boolean sample(long epochNanos, long threadId, String threadName, byte state, long cpuNanos, long ticks,
                                       Stack stack) throws IOException {
        if (closed || afterStop(epochNanos)) return false;
        writer.sample(epochNanos, threadId, threadName, state, cpuNanos, ticks, stack);
        return true;
    }

    /** A stack sample of a thread known by id and name, as JFR names it ({@link RecordingWriter#sample}). */
    public synchronized boolean sample(long epochNanos, long threadId, String threadName, byte state, long cpuNanos,
                                       Stack stack) throws IOException {
        if (closed || afterStop(epochNanos)) return false;
        writer.sample(epochNanos, threadId, threadName, state, cpuNanos, stack);
        return true;
    }

    /** A sampled allocation ({@link RecordingWriter#alloc}). */
    public synchronized boolean alloc(long epochNanos, Thread t, String typeName, long size, long tag, Stack stack)
            throws IOException {
        if (closed || afterStop(epochNanos)) return false;
        writer.alloc(epochNanos, t.threadId(), t.getName(), typeName, size, tag, stack);
        return true;
    }

    /** Allocation sampling's interval from {@code epochNanos} on ({@link RecordingWriter#allocInterval}). */
    public synchronized void allocInterval(long epochNanos, long intervalBytes) throws IOException {
        if (closed) return;
        allocInterval = intervalBytes;
        writer.allocInterval(epochNanos, intervalBytes);
    }

    /** A tracked object was collected ({@link RecordingWriter#freed}); after the stop, it was still live at it. */
    public synchronized void freed(long epochNanos, long tag) throws IOException {
        if (!closed && !afterStop(epochNanos)) writer.freed(epochNanos, tag);
    }

    /**
     * A wait on a monitor ({@link RecordingWriter#lock}) of thread {@code threadId}; {@code ownerId}
     * (0: unknown) held it, with that stack then unless {@code ownerStack} is null. Left out when
     * it ended after the session began to stop.
     */
    public synchronized boolean lock(long epochNanos, long threadId, String threadName, byte kind, String typeName, long waitNanos,
                                     Stack stack, long ownerId, String ownerName, Stack ownerStack)
            throws IOException {
        // at exit, the JVM joining the shutdown hooks waits on tiprobe's own: stamped past the end, it would also move the end
        if (closed || afterStop(epochNanos)) return false;
        writer.lock(epochNanos, threadId, threadName, kind, typeName, waitNanos, stack, ownerId, ownerName,
                ownerStack != null ? ownerStack : Stack.NONE);
        return true;
    }

    public synchronized void classEvent(long epochNanos, boolean load, String className) throws IOException {
        if (!closed) writer.classEvent(epochNanos, load, className);
    }

    /**
     * The tracing session's figures so far: the statistics of every method whose calls changed
     * since they were last written (replacing those; those of a method whose class unloaded come
     * settled, and the reader adds them to an equal class's later ones), and what was not written yet of the traced calls, the skipped methods, the classes
     * left unchanged and the probes removed. A call still running is left for a later write
     * unless {@code last}, when it is written as running.
     */
    synchronized void trace(Results r, boolean last) throws IOException {
        if (closed) return;
        // Calls first, oldest first, in a chunk of their own: a chunk's events are stamped from its
        // start on, and these calls began long before the samples gathered so far.
        writer.flush();
        writeCalls(r, last);
        long now = now();
        writeTracingAccount(r, now);
        writeFigures(r, now);
        writer.flush();
    }

    /** The calls that ended since the last write (at the last write, those still running too), each once. */
    private void writeCalls(Results r, boolean last) throws IOException {
        List<Results.TracedCall> byStart = new ArrayList<>(r.calls());
        byStart.sort(Comparator.comparingLong(Results.TracedCall::startEpochNanos));
        Set<CallKey> kept = new HashSet<>();
        for (Results.TracedCall c : byStart) {
            if ((c.durationNanos() < 0 || c.stackPending()) && !last) continue;  // written once it ended, its stack named
            int id = names.internMethodToken(c.token());
            CallKey key = new CallKey(c.threadId(), c.startEpochNanos(), c.depth(), id);
            kept.add(key);
            if (!callsWritten.contains(key)) call(c, id);
        }
        callsWritten = kept;
    }

    /** The session's facts (mode, filter, counts, clock) and what it skipped, failed on or removed since the last write. */
    private void writeTracingAccount(Results r, long now) throws IOException {
        writer.info(now, RecordingFormat.INFO_TRACE_MODE, r.mode().name().toLowerCase());
        writer.info(now, RecordingFormat.INFO_FILTER, r.filter());
        writer.info(now, RecordingFormat.INFO_DROPPED_CALLS, Long.toString(r.droppedCalls()));
        writer.info(now, RecordingFormat.INFO_CLASSES_INSTRUMENTED, Long.toString(r.classesInstrumented()));
        writer.info(now, RecordingFormat.INFO_INSTRUMENTING_NANOS, Long.toString(r.instrumentingNanos()));
        writer.info(now, RecordingFormat.INFO_PROBE_FAILURES, Long.toString(r.probeFailures()));
        writer.info(now, RecordingFormat.INFO_OVERHEAD_BUDGET, Double.toString(r.overheadBudget()));
        if (r.clock() != null) writer.info(now, RecordingFormat.INFO_CLOCK, r.clock());
        String removed = r.removedSummary();
        if (removed != null) writer.info(now, RecordingFormat.INFO_REMOVED_FOR_OVERHEAD, removed);
        if (!r.classFailures().isEmpty()) {
            writer.info(now, RecordingFormat.INFO_CLASSES_LEFT_UNCHANGED, Long.toString(r.classFailures().total()));
            writer.info(now, RecordingFormat.INFO_FIRST_CLASS_FAILURE, r.classFailures().first().getFirst());
        }
        for (Results.Skipped m : newSince(r.skipped(), Account.SKIPPED)) {
            writer.skipped(now, m.binaryName(), m.method(), m.descriptor(), m.reason());
        }
        for (String f : newSince(r.classFailures(), Account.CLASS_FAILURES)) writer.classFailure(now, f);
        for (Results.Removed m : newSince(r.removed(), Account.REMOVED)) writer.removed(now, m.method(), m.callsPerSecond());
    }

    /** Each traced method's figures that changed since the last write; those of unloaded classes settled and let go. */
    private void writeFigures(Results r, long now) throws IOException {
        // Only what changed: a method's figures replace those written before. Methods with equal
        // tokens (a class reloaded under the same name by a loader given the same ordinal) share
        // an id: the last figures of those unloaded are written settled (the reader adds them to
        // what the id counts later) and forgotten here, so memory follows the classes alive.
        Map<Integer, Results.MethodResult> live = new LinkedHashMap<>();
        Map<Integer, Results.MethodResult> gone = new LinkedHashMap<>();
        for (Results.MethodResult m : r.methods()) {
            (m.unloaded() ? gone : live).merge(names.internMethodToken(m.token()), m, Results.MethodResult::plus);
        }
        for (Map.Entry<Integer, Results.MethodResult> e : gone.entrySet()) {
            int id = e.getKey();
            if (callsAtLastWrite.remove(id) == null) traced(now, id, e.getValue());
            stats(now, id, e.getValue(), true);
            // A settled STATS takes the place of the id's figures so far: a live equal method's follow.
            if (live.containsKey(id)) callsAtLastWrite.put(id, -1L);
            else names.retireLater(id);
        }
        for (Map.Entry<Integer, Results.MethodResult> e : live.entrySet()) {
            int id = e.getKey();
            Results.MethodResult m = e.getValue();
            Long before = callsAtLastWrite.put(id, m.calls());
            if (before == null) traced(now, id, m);
            else if (before == m.calls()) continue;
            stats(now, id, m, false);
        }
    }

    private void traced(long now, int id, Results.MethodResult m) throws IOException {
        writer.traced(now, id, m.className(), m.method(), m.descriptor(), m.name());
    }

    private void stats(long now, int id, Results.MethodResult m, boolean settled) throws IOException {
        Results.TimeStats t = m.time();
        if (t == null) writer.stats(now, id, m.calls(), settled, false, 0, 0, 0, new long[0]);
        else writer.stats(now, id, m.calls(), settled, true, t.totalNanos(), m.calls() == 0 ? 0 : t.minNanos(), t.maxNanos(), t.histogram());
    }

    private void call(Results.TracedCall c, int id) throws IOException {
        List<String> argNames = new ArrayList<>();
        List<CapturedValue> values = new ArrayList<>();
        for (int i = 0; i < c.args().size(); i++) {
            List<String> declared = c.parameterNames();
            argNames.add(declared != null && i < declared.size() && declared.get(i) != null ? declared.get(i) : "arg" + i);
            values.add(CapturedValues.of(c.args().get(i)));
        }
        CapturedValue result = c.threw() || !c.token().returnsVoid() ? CapturedValues.of(c.result()) : CapturedValue.NONE;
        writer.call(c.startEpochNanos(), c.threadId(), c.threadName(), id, c.depth(), c.durationNanos(), c.threw(),
                argNames, values, result, c.callerStack(), c.callees());
    }

    /** What a tracing session reports as it happens; each is written from where the last write stopped. */
    private enum Account { SKIPPED, CLASS_FAILURES, REMOVED }

    /**
     * The entries of {@code reported} not written yet, marked written. A result may be handed over
     * twice (the final one), or may hold entries written before (a look, not a take): its fresh
     * entries' place in the session says which are new.
     */
    private <T> List<T> newSince(Reported.View<T> reported, Account account) {
        long from = Math.max(written[account.ordinal()], reported.freshFrom());
        written[account.ordinal()] = Math.max(written[account.ordinal()], reported.total());
        List<T> fresh = reported.fresh();
        return fresh.subList((int) Math.min(fresh.size(), from - reported.freshFrom()), fresh.size());
    }

    /**
     * Forgets the tokens of classes unloaded before {@code beforeNanos} ({@link IdMap#retireUnloaded}),
     * but for those of traced methods whose figures it still writes: an equal class loaded again
     * soon after keeps the id its figures were written under.
     */
    public synchronized void retireUnloaded(long beforeNanos) {
        names.retireUnloaded(beforeNanos, callsAtLastWrite::containsKey);
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
