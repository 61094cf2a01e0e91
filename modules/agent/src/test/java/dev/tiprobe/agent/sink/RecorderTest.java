package dev.tiprobe.agent.sink;

import dev.tiprobe.agent.tracing.Reported;
import dev.tiprobe.agent.tracing.Results;
import dev.tiprobe.agent.tracing.TracedWrites;
import dev.tiprobe.ids.ClassToken;
import dev.tiprobe.ids.IdMap;
import dev.tiprobe.ids.LoaderRef;
import dev.tiprobe.ids.MethodToken;
import dev.tiprobe.options.AgentOptions.TraceMode;
import dev.tiprobe.recording.Allocation;
import dev.tiprobe.recording.ClassEvent;
import dev.tiprobe.recording.Freed;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.Sample;
import dev.tiprobe.recording.Stack;
import dev.tiprobe.report.Recording;
import dev.tiprobe.report.RecordingReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecorderTest {
    private static final MethodToken RUN = new MethodToken(
            new ClassToken("Script", new LoaderRef("groovy.lang.GroovyClassLoader", null, 1), null, null, null), "run", "()V", null, 0,
            new int[0]);

    @TempDir
    Path dir;

    /**
     * A script compiled again under its name by a fresh loader: its first instance unloads while
     * the second runs. Each instance's calls count once, under one method, however long the
     * session keeps the second and however often it forgets unloaded classes' tokens meanwhile;
     * the agent keeps no figures of the first once they are written.
     */
    @Test
    void aClassLoadedAgainUnderItsNameAddsItsCallsToTheFirstOnesOnce() throws Exception {
        Path file = dir.resolve("r.tpr");
        try (Recorder recorder = Recorder.create(file, new IdMap())) {
            TracedWrites traced = new TracedWrites(recorder);
            traced.write(results(method(4, false)), false);
            traced.write(results(method(5, true), method(2, false)), false);  // the first unloaded, its last 5 calls
            recorder.retireUnloaded(System.nanoTime() + 60_000_000_000L, traced::stillWrites);  // long after: the second still runs
            traced.write(results(method(3, false)), false);
            traced.write(results(method(7, false)), true);
        }
        Recording r = RecordingReader.read(file);
        assertEquals(1, r.stats().size(), "one method: " + r.stats());
        assertEquals(12, r.stats().values().iterator().next().calls(), "5 of the first instance and 7 of the second");
        assertEquals(1, r.tracing().signatures().size());
    }

    /**
     * The engines close one after another once the session stops (JFR's stream first, up to a
     * second): what they hand over meanwhile, stamped at the stop by the recorder's clock or past
     * it by JFR's, is the wind-down's, and the recording keeps only what came before: also the
     * classes that load as the program's and tiprobe's shutdown runs.
     */
    @Test
    void whatEnginesHandOverAfterTheStopIsLeftOut() throws Exception {
        Path file = dir.resolve("stop.tpr");
        try (Recorder recorder = Recorder.create(file, new IdMap())) {
            long before = recorder.now();
            recorder.write(before, Allocation.KIND, new Allocation(before, 1, "main", "byte[]", 1024, 7, Stack.NONE));
            recorder.write(before, Sample.KIND, new Sample(before, 1, "main", RecordingFormat.STATE_RUNNABLE, 0, 1, Stack.NONE));
            recorder.write(before, ClassEvent.LOADED, new ClassEvent(before, true, "com.foo.Early"));
            recorder.stopping();
            long stop = recorder.now();
            recorder.write(stop, Allocation.KIND, new Allocation(stop, 1, "main", "byte[]", 2048, 8, Stack.NONE));
            recorder.write(stop, Freed.KIND, new Freed(7));
            recorder.write(stop, ClassEvent.LOADED, new ClassEvent(stop, true, "com.foo.ShutdownHook"));
            recorder.write(stop, Sample.KIND, new Sample(stop, 1, "main", RecordingFormat.STATE_RUNNABLE, 0, 1, Stack.NONE));
            long jfrStamp = stop + 1_000_000;
            recorder.write(jfrStamp, Sample.KIND, new Sample(jfrStamp, 1, "main", RecordingFormat.STATE_RUNNABLE, 0, 1, Stack.NONE));
        }
        Recording r = RecordingReader.read(file);
        assertEquals(List.of(1024L), r.events().allocations().stream().map(Allocation::size).toList());
        assertEquals(java.util.Set.of(), r.events().freed(), "object 7 was live at the stop");
        assertEquals(1, r.samples().size());
        assertEquals(List.of("com.foo.Early"), r.classEvents().stream().map(ClassEvent::className).toList());
    }

    /**
     * A running total (tiprobe's own work, the CPU JFR lost) is the session's; each recording of a
     * loop holds what accrued while it was written, so a period's share is of its own samples.
     */
    @Test
    void eachRecordingOfALoopHoldsWhatItsTotalsGrewBy() throws Exception {
        Path first = dir.resolve("first.tpr");
        Path second = dir.resolve("second.tpr");
        try (Recorder recorder = Recorder.create(first, new IdMap())) {
            recorder.total(RecordingFormat.INFO_OWN_WORK_NANOS, 300);
            recorder.total(RecordingFormat.INFO_OWN_WORK_NANOS, 500);
            recorder.rotate(second);
            recorder.total(RecordingFormat.INFO_OWN_WORK_NANOS, 800);
        }
        assertEquals("500", RecordingReader.read(first).info().get(RecordingFormat.INFO_OWN_WORK_NANOS));
        assertEquals("300", RecordingReader.read(second).info().get(RecordingFormat.INFO_OWN_WORK_NANOS));
    }

    /**
     * Tracing forgets what it reported once the recording has it ({@link Reported}): a look hands
     * entries over that a later take hands over again, and the final result comes twice (the
     * stop's and the last write's). The recording holds each entry once, in order.
     */
    @Test
    void whatTracingReportedIsWrittenOnceEach() throws Exception {
        Path file = dir.resolve("reported.tpr");
        try (Recorder recorder = Recorder.create(file, new IdMap())) {
            TracedWrites traced = new TracedWrites(recorder);
            traced.write(failures(2, "a", "b"), false);       // a look: nothing forgotten
            traced.write(failures(3, "a", "b", "c"), false);  // the take that follows
            traced.write(failures(4, "d"), false);
            traced.write(failures(4, "d"), true);             // the final result again
        }
        Recording r = RecordingReader.read(file);
        assertEquals(List.of("a", "b", "c", "d"), r.tracing().classFailures());
    }

    /**
     * Past {@code --max-calls} a new call replaces a random kept one. A call written by an earlier
     * write (the keeper's once a minute, a dump) and replaced since is not among the recording's
     * calls: they are the sample the session kept at its end, at most as many as it keeps
     * (a Derby session of 30 s with dumps at 10 and 20 s held 1,839 calls at --max-calls 1000,
     * most of them from its first seconds). A call still kept but held back from a result (its
     * method waiting to be settled after its class unloaded) stays, and is not written twice.
     */
    @Test
    void aCallTheSampleLetGoAfterItWasWrittenIsNotAmongTheRecordingsCalls() throws Exception {
        Path file = dir.resolve("evicted.tpr");
        long t = 1_000_000_000_000L;
        try (Recorder recorder = Recorder.create(file, new IdMap())) {
            TracedWrites traced = new TracedWrites(recorder);
            traced.write(traced(List.of(call(t + 1), call(t + 2), call(t + 3)), java.util.Set.of()), false);
            // the second replaced by a fourth; the third held back, its method waiting to be settled
            traced.write(traced(List.of(call(t + 1), call(t + 4)), java.util.Set.of(call(t + 3).id())), false);
            traced.write(traced(List.of(call(t + 1), call(t + 3), call(t + 4)), java.util.Set.of()), true);
        }
        assertEquals(List.of(t + 1, t + 3, t + 4), callStarts(file));
    }

    /**
     * A class that unloads takes its methods' calls out of the probes once their last figures are
     * written (settled): those calls stay in the recording, the calls of a method whose class
     * unloaded, not calls the sample let go.
     */
    @Test
    void theCallsOfAMethodWhoseClassUnloadedStayInTheRecording() throws Exception {
        Path file = dir.resolve("settled.tpr");
        long t = 1_000_000_000_000L;
        try (Recorder recorder = Recorder.create(file, new IdMap())) {
            TracedWrites traced = new TracedWrites(recorder);
            traced.write(traced(List.of(call(t + 1), call(t + 2)), java.util.Set.of()), false);
            traced.write(traced(List.of(method(2, true)), List.of(call(t + 1), call(t + 2)), java.util.Set.of()), false);  // settled
            traced.write(traced(List.of(), List.of(), java.util.Set.of()), true);  // the probes let its calls go with its slot
        }
        assertEquals(List.of(t + 1, t + 2), callStarts(file));
    }

    /**
     * The recording's clock reads the wall clock as finely as JFR's stamps do: pinned to the
     * millisecond, it ran up to one behind, and a JFR sample taken in the last millisecond before
     * the stop could be left out as after it (through {@code run}, main's last sample came as
     * little as 10 µs before the stop).
     */
    @Test
    void theRecordingsClockIsTheWallClockToTheMicrosecond() throws Exception {
        // The median of 20 recorders' offsets: a pause between pinning and reading moves one, not the median.
        long[] behind = new long[20];
        for (int i = 0; i < behind.length; i++) {
            try (Recorder recorder = Recorder.create(dir.resolve("clock" + i + ".tpr"), new IdMap())) {
                long before = EpochClock.nanosNow();
                long now = recorder.now();
                behind[i] = before - now;
            }
        }
        java.util.Arrays.sort(behind);
        assertTrue(Math.abs(behind[behind.length / 2]) < 100_000, "median " + behind[behind.length / 2] / 1000 + " µs behind: "
                + java.util.Arrays.toString(behind));
    }

    private static Results failures(long total, String... fresh) {
        Results none = results();
        return new Results(none.mode(), none.filter(), List.of(), List.of(), java.util.Set.of(), Reported.View.none(),
                new Reported.View<>(total, List.of("a", "b", "c"), List.of(fresh)), 1, 0, 0, 0, Reported.View.none(),
                0.05, "test clock", 0, 0);
    }

    private static Results.MethodResult method(long calls, boolean unloaded) {
        return new Results.MethodResult(RUN, "Script.run() : void", "Script", "run", "()V", calls,
                new Results.TimeStats(calls * 100, 100, 100, new long[40]), unloaded);
    }

    private static Results results(Results.MethodResult... methods) {
        return new Results(TraceMode.TIME, "Script::run", List.of(methods), List.of(), java.util.Set.of(), Reported.View.none(), Reported.View.none(), 1, 0, 0, 0, Reported.View.none(),
                0.05, "test clock", 0, 0);
    }

    /** A trace mode result listing {@code calls} (of Script.run, each on thread 1 at depth 0) and holding back {@code heldBack}. */
    private static Results traced(List<Results.TracedCall> calls, java.util.Set<dev.tiprobe.recording.Call.Id> heldBack) {
        return traced(List.of(method(calls.size(), false)), calls, heldBack);
    }

    private static Results traced(List<Results.MethodResult> methods, List<Results.TracedCall> calls, java.util.Set<dev.tiprobe.recording.Call.Id> heldBack) {
        return new Results(TraceMode.TRACE, "Script::run", methods, calls, heldBack, Reported.View.none(),
                Reported.View.none(), 1, 0, 0, 0, Reported.View.none(), 0.05, null, 0, 0);
    }

    /** When each call the recording in {@code file} holds began, in order. */
    private static List<Long> callStarts(Path file) throws java.io.IOException {
        return RecordingReader.read(file).calls().stream().map(dev.tiprobe.recording.Call::startEpochNanos).sorted().toList();
    }

    private static Results.TracedCall call(long startEpochNanos) {
        return new Results.TracedCall(RUN, "Script.run() : void", 1, "main", 0, startEpochNanos, 1_000, List.of(), List.of(), null,
                false, null, false, List.of());
    }
}
