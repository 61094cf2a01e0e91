package dev.tiprobe.agent.tracing;

import dev.tiprobe.agent.sink.Recorder;
import dev.tiprobe.ids.IdMap;
import dev.tiprobe.ids.MethodToken;
import dev.tiprobe.recording.Call;
import dev.tiprobe.recording.CapturedValue;
import dev.tiprobe.recording.ClassFailure;
import dev.tiprobe.recording.Info;
import dev.tiprobe.recording.MethodStats;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.RecordingWriter;
import dev.tiprobe.recording.Removed;
import dev.tiprobe.recording.Signature;
import dev.tiprobe.recording.Skipped;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes a tracing session's results into the session's recording, as they grow: each traced call
 * once, a method's figures when its calls changed, and what was skipped, left unchanged or removed
 * since the last write. The recording knows no engine; this is tracing's side of it.
 */
public final class TracedWrites {
    private final Recorder recorder;
    private final IdMap names;
    /**
     * The traced calls written that the probes still keep (those they let go never come back),
     * each with its method's token: the very object, as a class loaded again under its name
     * has an equal token of its own ({@link #writeEvictions}).
     */
    private final Map<Call.Id, MethodToken> callsWritten = new HashMap<>();
    /**
     * Calls of each traced method (by token int) when its figures were last written, for the
     * methods of classes alive; -1 where settled figures were just written and the live ones must
     * follow. Written under the recording's lock, read by {@link #stillWrites} under it too.
     */
    private final Map<Integer, Long> callsAtLastWrite = new HashMap<>();
    private final long[] written = new long[Account.values().length];

    public TracedWrites(Recorder recorder) {
        this.recorder = recorder;
        this.names = recorder.names();
    }

    /**
     * The tracing session's figures so far: the statistics of every method whose calls changed
     * since they were last written (replacing those; those of a method whose class unloaded come
     * settled, and the reader adds them to an equal class's later ones), and what was not written
     * yet of the traced calls, the skipped methods, the classes left unchanged and the probes
     * removed. A call still running is left for a later write unless {@code last}, when it is
     * written as running. Calls come first, oldest first, in a chunk of their own: they began long
     * before the samples gathered so far.
     */
    public void write(Results r, boolean last) throws IOException {
        recorder.writeChunk(writer -> {
            writeCalls(writer, r, last);
            long now = recorder.now();
            writeEvictions(writer, r, now);
            writeAccount(writer, r, now);
            writeFigures(writer, r, now);
        });
    }

    /** Whether the method named by token {@code id} still has figures written: its token must stay. */
    public boolean stillWrites(int id) {
        return callsAtLastWrite.containsKey(id);
    }

    /** The calls that ended since the last write (at the last write, those still running too), each once. */
    private void writeCalls(RecordingWriter writer, Results r, boolean last) throws IOException {
        List<Results.TracedCall> byStart = new ArrayList<>(r.calls());
        byStart.sort(Comparator.comparingLong(Results.TracedCall::startEpochNanos));
        for (Results.TracedCall c : byStart) {
            if ((c.durationNanos() < 0 || c.stackPending()) && !last) continue;  // written once it ended, its stack named
            if (!callsWritten.containsKey(c.id())) {
                call(writer, c, names.internMethodToken(c.token()));
                callsWritten.put(c.id(), c.token());
            }
        }
    }

    /**
     * The calls written before that the probes keep no more: past {@code --max-calls} each new
     * call replaces a random one kept, so that the calls kept are a uniform sample of the whole
     * session, and one written by an earlier write (the keeper's, a dump) may be among those
     * replaced. The reader leaves such a call out: the recording's calls are the sample as the
     * session kept it, not every call that was in it when figures were written. The calls of a
     * method settled in {@code r} (its class unloaded) are the recording's for good: the probes
     * let them go with its slot, which is no eviction. Told by the token itself, not an equal
     * one: the calls of a class loaded again under the same name stay in the sample.
     */
    private void writeEvictions(RecordingWriter writer, Results r, long now) throws IOException {
        Set<MethodToken> settled = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (Results.MethodResult m : r.methods()) if (m.unloaded()) settled.add(m.token());
        Set<Call.Id> held = new HashSet<>(r.heldBack());
        for (Results.TracedCall c : r.calls()) held.add(c.id());
        for (Iterator<Map.Entry<Call.Id, MethodToken>> it = callsWritten.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Call.Id, MethodToken> written = it.next();
            if (settled.contains(written.getValue())) {
                it.remove();
            } else if (!held.contains(written.getKey())) {
                writer.write(now, Call.EVICTED, written.getKey());
                it.remove();
            }
        }
    }

    /** The session's facts (mode, filter, counts, clock) and what it skipped, failed on or removed since the last write. */
    private void writeAccount(RecordingWriter writer, Results r, long now) throws IOException {
        info(writer, now, RecordingFormat.INFO_TRACE_MODE, r.mode().name().toLowerCase());
        info(writer, now, RecordingFormat.INFO_FILTER, r.filter());
        info(writer, now, RecordingFormat.INFO_DROPPED_CALLS, Long.toString(r.droppedCalls()));
        info(writer, now, RecordingFormat.INFO_CLASSES_INSTRUMENTED, Long.toString(r.classesInstrumented()));
        info(writer, now, RecordingFormat.INFO_INSTRUMENTING_NANOS, Long.toString(r.instrumentingNanos()));
        info(writer, now, RecordingFormat.INFO_PROBE_FAILURES, Long.toString(r.probeFailures()));
        info(writer, now, RecordingFormat.INFO_OVERHEAD_BUDGET, Double.toString(r.overheadBudget()));
        if (r.clock() != null) info(writer, now, RecordingFormat.INFO_CLOCK, r.clock());
        String removed = r.removedSummary();
        if (removed != null) info(writer, now, RecordingFormat.INFO_REMOVED_FOR_OVERHEAD, removed);
        if (!r.classFailures().isEmpty()) {
            info(writer, now, RecordingFormat.INFO_CLASSES_LEFT_UNCHANGED, Long.toString(r.classFailures().total()));
            info(writer, now, RecordingFormat.INFO_FIRST_CLASS_FAILURE, r.classFailures().first().getFirst());
        }
        for (Skipped m : newSince(r.skipped(), Account.SKIPPED)) writer.write(now, Skipped.KIND, m);
        for (String f : newSince(r.classFailures(), Account.CLASS_FAILURES)) writer.write(now, ClassFailure.KIND, new ClassFailure(f));
        for (Removed m : newSince(r.removed(), Account.REMOVED)) writer.write(now, Removed.KIND, m);
    }

    private static void info(RecordingWriter writer, long now, String key, String value) throws IOException {
        writer.write(now, Info.KIND, new Info(key, value));
    }

    /** Each traced method's figures that changed since the last write; those of unloaded classes settled and let go. */
    private void writeFigures(RecordingWriter writer, Results r, long now) throws IOException {
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
            if (callsAtLastWrite.remove(id) == null) traced(writer, now, id, e.getValue());
            stats(writer, now, id, e.getValue(), true);
            // A settled STATS takes the place of the id's figures so far: a live equal method's follow.
            if (live.containsKey(id)) callsAtLastWrite.put(id, -1L);
            else names.retireLater(id);
        }
        for (Map.Entry<Integer, Results.MethodResult> e : live.entrySet()) {
            int id = e.getKey();
            Results.MethodResult m = e.getValue();
            Long before = callsAtLastWrite.put(id, m.calls());
            if (before == null) traced(writer, now, id, m);
            else if (before == m.calls()) continue;
            stats(writer, now, id, m, false);
        }
    }

    private static void traced(RecordingWriter writer, long now, int id, Results.MethodResult m) throws IOException {
        writer.write(now, Signature.KIND, new Signature(id, m.className(), m.method(), m.descriptor(), m.name()));
    }

    private static void stats(RecordingWriter writer, long now, int id, Results.MethodResult m, boolean settled) throws IOException {
        Results.TimeStats t = m.time();
        MethodStats figures = t == null ? new MethodStats(id, m.calls(), settled, false, 0, 0, 0, new long[0])
                : new MethodStats(id, m.calls(), settled, true, t.totalNanos(), m.calls() == 0 ? 0 : t.minNanos(), t.maxNanos(), t.histogram());
        writer.write(now, MethodStats.KIND, figures);
    }

    private static void call(RecordingWriter writer, Results.TracedCall c, int id) throws IOException {
        List<String> argNames = new ArrayList<>();
        List<CapturedValue> values = new ArrayList<>();
        for (int i = 0; i < c.args().size(); i++) {
            argNames.add(Call.parameterName(c.parameterNames(), i));
            values.add(CapturedValues.of(c.args().get(i)));
        }
        CapturedValue result = c.threw() || !c.token().returnsVoid() ? CapturedValues.of(c.result()) : CapturedValue.NONE;
        writer.write(c.startEpochNanos(), Call.KIND, new Call(c.startEpochNanos(), c.threadId(), c.threadName(), id, c.depth(),
                c.durationNanos(), c.threw(), argNames, values, result, c.callerStack(), c.callees()));
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

}
