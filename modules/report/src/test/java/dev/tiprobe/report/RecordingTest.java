package dev.tiprobe.report;

import dev.tiprobe.recording.AllocInterval;
import dev.tiprobe.recording.Allocation;
import dev.tiprobe.recording.Call;
import dev.tiprobe.recording.Callee;
import dev.tiprobe.recording.CapturedValue;
import dev.tiprobe.recording.ClassEvent;
import dev.tiprobe.recording.ClassFailure;
import dev.tiprobe.recording.Deadlock;
import dev.tiprobe.recording.Freed;
import dev.tiprobe.recording.Info;
import dev.tiprobe.recording.LockWait;
import dev.tiprobe.recording.MethodStats;
import dev.tiprobe.recording.RecordingWriter;
import dev.tiprobe.recording.Removed;
import dev.tiprobe.recording.Sample;
import dev.tiprobe.recording.Signature;
import dev.tiprobe.recording.Skipped;

import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.Stack;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecordingTest {
    @TempDir
    Path dir;

    /**
     * Three chunks: 100 samples each over methods 1..5 (each using 1 ms of CPU), a class load and
     * an unload, a traced call of method 6 and its statistics so far; session facts in the first.
     */
    Path write() throws IOException {
        Path file = dir.resolve("r.tpr");
        try (RecordingWriter w = RecordingWriter.create(file, id -> "app.jar!com.foo.M" + id + ".run(int x) : void")) {
            long t = 1_000_000_000L;
            w.write(t, Info.KIND, new Info(RecordingFormat.INFO_SAMPLE_MODE, "wall"));
            for (int chunk = 0; chunk < 3; chunk++) {
                w.write(t, ClassEvent.LOADED, new ClassEvent(t, true, "com.foo.Plugin" + chunk));
                for (int i = 0; i < 100; i++) {
                    int[] frames = {1 + i % 3, 4, 5};  // leaf first: M1..M3 called by M4 called by M5
                    int[] lines = {10 + i % 2, 20, 0};  // M5's line unknown (a native frame, say)
                    t += 10_000_000;
                    w.write(t, Sample.KIND, new Sample(t, chunk + 1, "worker-" + chunk, RecordingFormat.STATE_RUNNABLE, 1_000_000, 1,
                            new Stack(frames, lines, 3, false)));
                }
                w.write(t, ClassEvent.UNLOADED, new ClassEvent(t, false, "com.foo.Plugin" + chunk));
                w.write(t, Call.KIND, new Call(t, chunk + 1, "worker-" + chunk, 6, chunk, chunk == 2 ? -1 : 2_000, chunk == 1, List.of("x"),
                        List.of(new CapturedValue.Int(chunk)),
                        chunk == 1 ? new CapturedValue.Thrown("java.lang.IllegalStateException", "no") : new CapturedValue.Str("ok"),
                        chunk == 1 ? new Stack(new int[] {6, 4, 5}, new int[] {7, 20, 0}, 3, false) : null,
                        chunk == 0 ? List.of(new Callee("com.foo.Db.query(java.lang.String) : int", 2, 1_500),
                                new Callee("java.util.List.add(java.lang.Object) : boolean", 1, 100)) : List.of()));
                if (chunk == 0) w.write(t, Signature.KIND, new Signature(6, "com.foo.M6", "run", "(I)V",
                        "app.jar!com.foo.M6.run(int x) : void"));
                long[] histogram = new long[64];
                histogram[10] = chunk + 1;  // [1024, 2048) ns
                w.write(t, MethodStats.KIND, new MethodStats(6, chunk + 1, false, true, 2_000L * (chunk + 1), 2_000, 2_000, histogram));
                w.flush();
            }
            assertEquals(3, w.chunks());
        }
        return file;
    }

    /**
     * Wall mode looks at a waiting thread every few ticks (at most 16 threads a tick): a sample
     * standing for five ticks weighs five in the wall view, and nothing more in the cpu view;
     * a truncated one keeps both its flag and its ticks.
     */
    @Test
    void aSampleStandingForSeveralTicksWeighsThatManyInTheWallView() throws IOException {
        Path file = dir.resolve("ticks.tpr");
        try (RecordingWriter w = RecordingWriter.create(file, id -> "M" + id)) {
            w.write(1_000, Info.KIND, new Info(RecordingFormat.INFO_SAMPLE_MODE, "wall"));
            w.write(2_000, Sample.KIND, new Sample(2_000, 1, "busy", RecordingFormat.STATE_RUNNABLE, 10_000_000, 1,
                    new Stack(new int[] {1}, new int[] {0}, 1, false)));
            w.write(3_000, Sample.KIND, new Sample(3_000, 2, "parked", RecordingFormat.STATE_WAITING, 0, 5,
                    new Stack(new int[] {2, 3}, new int[] {0, 0}, 2, true)));
        }
        Recording r = RecordingReader.read(file);
        assertNull(r.damage());
        assertEquals(1, r.samples().get(0).ticks());
        assertEquals(5, r.samples().get(1).ticks());
        assertEquals(RecordingFormat.STATE_WAITING, r.samples().get(1).state());
        assertEquals(6, View.WALL.of(r).total(), "one tick of the busy thread, five of the parked one");
        assertEquals(10_000_000, View.CPU.of(r).total());
        Map<String, Long> folded = FoldedStacks.fold(View.WALL.of(r), false);
        assertEquals(Map.of("M1", 1L, "[truncated];M3;M2", 5L), folded);
    }

    /** Lock profiling that saw no contention says so, with its threshold, rather than leaving the lock view out unexplained. */
    @Test
    void anEmptyLockViewSaysNoThreadWaitedTheThreshold() throws IOException {
        Path quiet = dir.resolve("quiet.tpr");
        try (RecordingWriter w = RecordingWriter.create(quiet, id -> "M" + id)) {
            w.write(1_000, Info.KIND, new Info(RecordingFormat.INFO_LOCK_THRESHOLD, "10000000"));
            w.write(2_000, LockWait.KIND, new LockWait(2_000, 1, "worker", RecordingFormat.LOCK_WAIT, "java.lang.Object", 20_000_000,
                    new Stack(new int[] {1}, new int[] {0}, 1, false), 0, null, null));
        }
        Recording r = RecordingReader.read(quiet);
        assertFalse(View.in(r).contains(View.LOCK));
        assertEquals("no thread waited 10 ms or longer to enter a monitor or take a lock (--lock sets that threshold)", r.noContention());
        assertTrue(r.caveats().contains("No contention was seen: " + r.noContention() + "."), r.caveats().toString());

        Path contended = dir.resolve("contended.tpr");
        try (RecordingWriter w = RecordingWriter.create(contended, id -> "M" + id)) {
            w.write(1_000, Info.KIND, new Info(RecordingFormat.INFO_LOCK_THRESHOLD, "0"));
            w.write(2_000, LockWait.KIND, new LockWait(2_000, 1, "worker", RecordingFormat.LOCK_CONTENDED, "java.lang.Object", 20_000,
                    new Stack(new int[] {1}, new int[] {0}, 1, false), 0, null, null));
        }
        assertNull(RecordingReader.read(contended).noContention());
        Path noLocks = dir.resolve("cpu.tpr");
        try (RecordingWriter w = RecordingWriter.create(noLocks, id -> "M" + id)) {
            w.write(1_000, Info.KIND, new Info(RecordingFormat.INFO_SAMPLE_MODE, "cpu"));
        }
        assertNull(RecordingReader.read(noLocks).noContention(), "nothing to say where locks were not profiled");

        Path deadlocked = dir.resolve("deadlocked.tpr");
        try (RecordingWriter w = RecordingWriter.create(deadlocked, id -> "M" + id)) {
            w.write(1_000, Info.KIND, new Info(RecordingFormat.INFO_LOCK_THRESHOLD, "1000000"));
            w.write(2_000, Deadlock.KIND, new Deadlock(2_000, List.of(
                    new Deadlock.Waiter(1, "left", "java.lang.Object@1a", 2, List.of("java.lang.Object@2b"),
                            new Stack(new int[] {1}, new int[] {0}, 1, false)),
                    new Deadlock.Waiter(2, "right", "java.lang.Object@2b", 1, List.of("java.lang.Object@1a"),
                            new Stack(new int[] {1}, new int[] {0}, 1, false)))));
        }
        Recording stuck = RecordingReader.read(deadlocked);
        assertEquals("no wait of 1 ms or longer to enter a monitor or take a lock ended; the deadlocked threads still wait"
                + " (a wait is recorded as it ends)", stuck.noContention(), "deadlocked threads are contention");
        assertTrue(stuck.caveats().contains("The lock view is empty: " + stuck.noContention() + "."), stuck.caveats().toString());
    }

    /**
     * Parks go to the lock view when they waited for a holder and to the wait view when they
     * waited for a condition; a deadlock reads back with both threads, their locks and stacks,
     * and the text report shows it first, with who holds what.
     */
    @Test
    void parksAndDeadlocksReadBackIntoTheirViewsAndTheText() throws IOException {
        Path file = dir.resolve("parks.tpr");
        try (RecordingWriter w = RecordingWriter.create(file, id -> "M" + id)) {
            w.write(1_000, Info.KIND, new Info(RecordingFormat.INFO_LOCK_THRESHOLD, "1000000"));
            w.write(2_000, LockWait.KIND, new LockWait(2_000, 1, "left", RecordingFormat.LOCK_PARKED,
                    "java.util.concurrent.locks.ReentrantLock", 30_000_000, new Stack(new int[] {1, 2}, new int[] {0, 7}, 2, false), 2,
                    "right", new Stack(new int[] {3}, new int[] {9}, 1, false)));
            w.write(3_000, LockWait.KIND, new LockWait(3_000, 2, "right", RecordingFormat.WAIT_PARKED,
                    "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject", 50_000_000,
                    new Stack(new int[] {4}, new int[] {0}, 1, false), 0, null, null));
            w.write(4_000, Deadlock.KIND, new Deadlock(4_000, List.of(
                    new Deadlock.Waiter(1, "left", "java.lang.Object@1a", 2, List.of("java.lang.Object@2b"),
                            new Stack(new int[] {2}, new int[] {7}, 1, false)),
                    new Deadlock.Waiter(2, "right", "java.lang.Object@2b", 1, List.of("java.lang.Object@1a"),
                            new Stack(new int[] {3}, new int[] {9}, 1, false)))));
        }
        Recording r = RecordingReader.read(file);
        assertNull(r.damage());
        assertEquals(List.of(View.LOCK, View.WAIT), View.in(r));
        assertNull(r.noContention(), "a parked lock is contention");
        assertEquals(30_000_000, View.LOCK.of(r).stacks().stream().mapToLong(Profile.Stack::weight).sum());
        assertEquals(50_000_000, View.WAIT.of(r).stacks().stream().mapToLong(Profile.Stack::weight).sum());
        Deadlock d = r.events().deadlocks().getFirst();
        assertEquals(List.of(1L, 2L), d.threads().stream().map(Deadlock.Waiter::threadId).toList());
        assertEquals("java.lang.Object@1a", d.threads().getFirst().waitsFor());
        assertEquals(2, d.threads().getFirst().ownerId());
        assertEquals(List.of("java.lang.Object@2b"), d.threads().getFirst().held());
        assertEquals("right", d.threads().get(1).threadName(), "the thread's name is read with it");
        assertArrayEquals(new int[] {3}, d.threads().get(1).stack().frames());
        java.io.StringWriter text = new java.io.StringWriter();
        TextReport.write(r, new java.io.PrintWriter(text), 10, 0);
        assertTrue(text.toString().contains("""
                DEADLOCK found 0.0 s into the recording: 2 threads wait on each other
                  'left' waits for java.lang.Object@1a held by 'right'
                      holds java.lang.Object@2b
                        at M2
                  'right' waits for java.lang.Object@2b held by 'left'
                      holds java.lang.Object@1a
                        at M3
                """), text.toString());
        assertTrue(text.toString().contains("  30.0 ms  'left' in M2 on java.util.concurrent.locks.ReentrantLock\n      held by 'right' at\n        M3"),
                "a park's waiter is the frame below where it called in: " + text);
    }

    /** tiprobe's own work on the program's threads is stated as CPU time and as a share of all the CPU sampled. */
    @Test
    void tiprobesOwnShareIsStated() throws IOException {
        Path file = dir.resolve("own.tpr");
        try (RecordingWriter w = RecordingWriter.create(file, id -> "M" + id)) {
            w.write(1_000, Info.KIND, new Info(RecordingFormat.INFO_SAMPLE_MODE, "cpu"));
            w.write(2_000, Sample.KIND, new Sample(2_000, 1, "busy", RecordingFormat.STATE_RUNNABLE, 30_000_000, 1,
                    new Stack(new int[] {1}, new int[] {0}, 1, false)));
            w.write(3_000, Info.KIND, new Info(RecordingFormat.INFO_OWN_WORK_NANOS, "10000000"));
        }
        assertTrue(RecordingReader.read(file).caveats().contains("tiprobe's own work on the program's threads (its JVMTI callbacks"
                + " and tracing probes) took 10.0 ms of CPU, 25.0% of the CPU sampled; those samples are in no view."));
    }

    /** A thread without a name (a virtual thread, unless given one) is named by its id wherever a report names it. */
    @Test
    void aThreadWithoutANameIsNamedByItsId() {
        Recording r = new Recording(0, 0, 0, java.util.Map.of(), java.util.Map.of(), java.util.Map.of(), java.util.Map.of(41L, "", 7L, "main"),
                List.of(), List.of(), java.util.Map.of(), List.of(), Recording.Tracing.NONE, Recording.Events.NONE, java.util.Map.of(), null);
        assertEquals("thread 41", r.threadName(41));
        assertEquals("main", r.threadName(7));
        assertEquals("thread 9", r.threadName(9), "a thread the recording does not name");
    }

    /** A loop's later recording, which begins after the session recompiled, says so rather than a negative moment. */
    @Test
    void aRecompilationBeforeTheRecordingBeganIsSaidSo() throws IOException {
        Path file = dir.resolve("later.tpr");
        try (RecordingWriter w = RecordingWriter.create(file, id -> "M" + id)) {
            w.write(60_000_000_000L, Info.KIND, new Info(RecordingFormat.INFO_SAMPLE_SOURCE, RecordingFormat.SAMPLE_SOURCE_JFR_CPU_TIME));
            w.write(60_000_000_000L, Info.KIND, new Info(RecordingFormat.INFO_COMPILED_BEFORE_NANOS, "20000000000"));
            w.write(60_000_000_000L, Info.KIND, new Info(RecordingFormat.INFO_RECOMPILED, "45000000000\tcom.foo.Hot\t"));
        }
        String caveats = String.join("\n", RecordingReader.read(file).caveats());
        assertTrue(caveats.contains("; before this recording began, tiprobe had HotSpot compile the hottest code again by retransforming"
                + " com.foo.Hot:"), caveats);
    }

    /**
     * A later session in the same JVM does not retransform what an earlier one had compiled again,
     * and says so, whether it retransformed other classes or none.
     */
    @Test
    void classesAnEarlierSessionCompiledAgainAreSaidSo() throws IOException {
        for (String[] recompiled : new String[][] {{"", "tiprobe retransformed no class: those of the hottest code had been compiled"
                + " again by an earlier session of tiprobe's in this JVM (com.foo.Hot, com.foo.Warm), and their code names its inlined"
                + " methods unless HotSpot has compiled it again since"}, {"com.foo.New", "by retransforming com.foo.New: code depending on them names its"
                + " inlined methods from then on"}}) {
            Path file = dir.resolve("again.tpr");
            try (RecordingWriter w = RecordingWriter.create(file, id -> "M" + id)) {
                w.write(60_000_000_000L, Info.KIND, new Info(RecordingFormat.INFO_SAMPLE_SOURCE, RecordingFormat.SAMPLE_SOURCE_JFR_CPU_TIME));
                w.write(60_000_000_000L, Info.KIND, new Info(RecordingFormat.INFO_COMPILED_BEFORE_NANOS, "20000000000"));
                w.write(62_000_000_000L, Info.KIND, new Info(RecordingFormat.INFO_RECOMPILED,
                        "62000000000\t" + recompiled[0] + "\tcom.foo.Loop (a loop of it ran throughout)\tcom.foo.Hot, com.foo.Warm"));
            }
            String caveats = String.join("\n", RecordingReader.read(file).caveats());
            assertTrue(caveats.contains(recompiled[1]), caveats);
            assertTrue(caveats.contains("Left as compiled: com.foo.Loop (a loop of it ran throughout)."), caveats);
            assertEquals(!recompiled[0].isEmpty(), caveats.contains(
                    "Compiled again by an earlier session, and not retransformed again: com.foo.Hot, com.foo.Warm."), caveats);
        }
    }

    /**
     * CPU whose samples JFR's CPU-time sampler lost (a contended program lost more than half) is
     * stated, with its share: the views' shares are of the rest.
     */
    @Test
    void cpuWhoseSamplesJfrLostIsStated() throws IOException {
        Path file = dir.resolve("lost.tpr");
        try (RecordingWriter w = RecordingWriter.create(file, id -> "M" + id)) {
            w.write(1_000, Info.KIND, new Info(RecordingFormat.INFO_SAMPLE_MODE, "cpu"));
            w.write(2_000, Sample.KIND, new Sample(2_000, 1, "busy", RecordingFormat.STATE_RUNNABLE, 30_000_000, 1,
                    new Stack(new int[] {1}, new int[] {0}, 1, false)));
            w.write(3_000, Info.KIND, new Info(RecordingFormat.INFO_CPU_LOST_BY_JFR_NANOS, "30000000"));
        }
        assertTrue(RecordingReader.read(file).caveats().contains("JFR's CPU-time sampler kept no stack for at least 30.0 ms of CPU,"
                + " 50.0% of the CPU sampled: it keeps none of a thread in the JVM's own code (taking a contended lock, parking or"
                + " waking a thread, loading a class, walking a stack) or whose queue of samples is full. That CPU is in no view, so the methods that run into"
                + " such work show less than their share."), RecordingReader.read(file).caveats().toString());
    }

    /**
     * A record whose writing failed halfway (an OutOfMemoryError in a full heap; here, naming a
     * method fails as the sample defines it) leaves a readable file: the torn record is gone, the
     * records before and after it are whole, and names it had half written are written again.
     */
    @Test
    void aRecordTornByAFailureLeavesTheRecordingWhole() throws IOException {
        Path file = dir.resolve("torn.tpr");
        boolean[] failOnce = {true};
        try (RecordingWriter w = RecordingWriter.create(file, id -> {
            if (id == 3 && failOnce[0]) {
                failOnce[0] = false;
                throw new OutOfMemoryError("Java heap space");
            }
            return "M" + id;
        })) {
            w.write(1_000, Sample.KIND, new Sample(1_000, 1, "a", RecordingFormat.STATE_RUNNABLE, 0, 1,
                    new Stack(new int[] {1, 2}, new int[] {0, 0}, 2, false)));
            w.write(2_000, Allocation.KIND, new Allocation(2_000, 1, "a", "byte[]", 64, 0,
                    new Stack(new int[] {2}, new int[] {0}, 1, false)));
            assertThrows(OutOfMemoryError.class,
                    () -> w.write(3_000, Sample.KIND, new Sample(3_000, 2, "b", RecordingFormat.STATE_RUNNABLE, 0, 1,
                            new Stack(new int[] {3, 1}, new int[] {0, 0}, 2, false))));
            w.write(4_000, Sample.KIND, new Sample(4_000, 2, "b", RecordingFormat.STATE_RUNNABLE, 0, 1,
                    new Stack(new int[] {3, 1}, new int[] {0, 0}, 2, false)));
            w.write(5_000, Allocation.KIND, new Allocation(5_000, 1, "a", "byte[]", 64, 0,
                    new Stack(new int[] {1}, new int[] {0}, 1, false)));
        }
        Recording r = RecordingReader.read(file);
        assertNull(r.damage(), () -> r.damage().toString());
        assertEquals(List.of(1_000L, 4_000L), r.samples().stream().map(Sample::epochNanos).toList());
        Map<String, Long> folded = FoldedStacks.fold(View.WALL.of(r), false);
        assertEquals(Map.of("M2;M1", 1L, "M1;M3", 1L), folded);
        Map<String, Long> allocated = FoldedStacks.fold(View.ALLOC.of(r), false);
        assertEquals(2, allocated.size(), allocated.toString());
        assertTrue(allocated.entrySet().stream().allMatch(e -> e.getKey().contains("byte[]") && e.getValue() == 64), "the type named in both chunks: " + allocated);
    }

    /** A chunk past the flush size is cut and written whole, and the chunks after it (in a buffer made small again) too. */
    @Test
    void chunksPastTheFlushSizeAndSmallOnesAfterThemAreReadBackWhole() throws IOException {
        Path file = dir.resolve("big.tpr");
        int[] frames = new int[200];
        int[] lines = new int[200];
        java.util.Arrays.setAll(frames, i -> i + 1);
        int big = 0;
        try (RecordingWriter w = RecordingWriter.create(file, id -> "M" + id)) {
            while (w.chunks() == 0) {  // cut by size alone
                w.write(1_000 + big, Sample.KIND, new Sample(1_000 + big, 1, "busy", RecordingFormat.STATE_RUNNABLE, 0, 1,
                        new Stack(frames, lines, frames.length, false)));
                big++;
            }
            w.write(5_000_000, Sample.KIND, new Sample(5_000_000, 2, "after", RecordingFormat.STATE_RUNNABLE, 0, 1,
                    new Stack(new int[] {7}, new int[] {3}, 1, false)));
            w.flush();
            w.write(6_000_000, Sample.KIND, new Sample(6_000_000, 2, "after", RecordingFormat.STATE_RUNNABLE, 0, 1,
                    new Stack(new int[] {8}, new int[] {4}, 1, false)));
        }
        Recording r = RecordingReader.read(file);
        assertNull(r.damage());
        assertEquals(3, r.chunks());
        assertEquals(big + 2, r.samples().size());
        assertArrayEquals(frames, r.samples().get(big - 1).frames());
        assertArrayEquals(new int[] {8}, r.samples().get(big + 1).frames());
        assertArrayEquals(new int[] {4}, r.samples().get(big + 1).lines());
    }

    /**
     * A program that starts a thread per task, or allocates objects of classes it makes all day,
     * meets more thread and type names than the writer remembers having defined: the names it
     * forgot are defined again, and every event keeps its own.
     */
    @Test
    void moreThreadsAndTypesThanTheWriterRemembersAreAllNamed() throws IOException {
        Path file = dir.resolve("many.tpr");
        int n = 10_000;
        try (RecordingWriter w = RecordingWriter.create(file, id -> "M" + id)) {
            for (int round = 0; round < 2; round++) {  // the second round meets the first's names again
                for (int t = 1; t <= n; t++) {
                    long at = 1_000L * (round * n + t);
                    Stack one = new Stack(new int[] {1}, new int[] {0}, 1, false);
                    w.write(at, Sample.KIND, new Sample(at, t, "task-" + t, RecordingFormat.STATE_RUNNABLE, 0, 1, one));
                    w.write(at, Allocation.KIND, new Allocation(at, t, "task-" + t, "com.gen.Made" + t, 64, 0, one));
                }
            }
        }
        Recording r = RecordingReader.read(file);
        assertNull(r.damage());
        assertEquals(2 * n, r.samples().size());
        for (Sample sample : r.samples()) assertEquals("task-" + sample.threadId(), r.threads().get(sample.threadId()));
        for (Allocation a : r.events().allocations()) {
            assertEquals("com.gen.Made" + a.threadId(), r.events().types().get(a.typeId()));
        }
    }

    @Test
    void whatIsWrittenIsReadBack() throws IOException {
        Recording r = RecordingReader.read(write());
        assertNull(r.damage());
        assertEquals(3, r.chunks());
        assertEquals(300, r.samples().size());
        assertEquals(6, r.classEvents().size());
        assertEquals("com.foo.Plugin1", r.classEvents().get(2).className());
        assertTrue(r.classEvents().get(3).load() == false);
        assertArrayEquals(new int[] {2, 4, 5}, r.samples().get(1).frames());
        assertArrayEquals(new int[] {11, 20, 0}, r.samples().get(1).lines());
        assertEquals("worker-2", r.threads().get(3L));
        assertEquals("app.jar!com.foo.M4.run(int x) : void", r.methodName(4));
        assertEquals("[unknown]", r.methodName(0));
        assertEquals(1_010_000_000L, r.samples().getFirst().epochNanos());
        assertEquals(1_000_000, r.samples().getFirst().cpuNanos());
        assertEquals("wall", r.info().get(RecordingFormat.INFO_SAMPLE_MODE));
        MethodStats stats = r.stats().get(6);
        assertEquals(3, stats.calls(), "the latest statistics win");
        assertEquals(6_000, stats.totalNanos());
        assertEquals(3, stats.histogram()[10]);
        assertEquals(new Signature(6, "com.foo.M6", "run", "(I)V", "app.jar!com.foo.M6.run(int x) : void"),
                r.tracing().signatures().get(6));
        assertEquals(3, r.calls().size());
        Call first = r.calls().getFirst();
        assertEquals(List.of("x"), first.argNames());
        assertEquals(List.of(new CapturedValue.Int(0)), first.argValues());
        assertEquals(new CapturedValue.Str("ok"), first.result());
        assertEquals(2_000, first.durationNanos());
        assertTrue(r.calls().get(1).threw());
        assertArrayEquals(new int[0], first.stackFrames(), "a call kept at its start has no stack");
        assertArrayEquals(new int[] {6, 4, 5}, r.calls().get(1).stackFrames(), "a call kept by its duration: itself, then its callers");
        assertArrayEquals(new int[] {7, 20, 0}, r.calls().get(1).stackLines());
        assertEquals(-1, r.calls().get(2).durationNanos(), "a call still running when written");
        assertEquals(List.of(new Callee("com.foo.Db.query(java.lang.String) : int", 2, 1_500), new Callee("java.util.List.add(java.lang.Object) : boolean", 1, 100)),
                first.callees(), "a call whose call sites were timed: each site that ran");
        assertEquals(List.of("     0.002 ms  75.0%     2x  com.foo.Db.query(java.lang.String) : int",
                "     0.000 ms   5.0%     1x  java.util.List.add(java.lang.Object) : boolean",
                "     0.000 ms  20.0%         [own code]"), TracedText.callTree(first));
        assertEquals(List.of(), r.calls().get(1).callees());
        assertEquals("[worker-1]   M6.run(x=1) threw IllegalStateException: no  (0.002 ms)",
                TracedText.call(r, r.calls().get(1)).replace("app.jar!com.foo.", ""));
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dir.resolve("r.tpr"))));
    }

    /**
     * A script class compiled again and again under one name gets one method id: each instance's
     * last figures come settled once it unloads (the agent forgets them then), and the reader adds
     * them up with the figures of the instance alive, which replace their own earlier ones.
     */
    @Test
    void settledFiguresOfUnloadedClassesAddUpWithTheLiveOnes() throws IOException {
        Path file = dir.resolve("settled.tpr");
        try (RecordingWriter w = RecordingWriter.create(file, id -> "Script.run()")) {
            long t = 1_000_000_000L;
            w.write(t, Signature.KIND, new Signature(7, "Script", "run", "()V", "Script.run() : void"));
            w.write(t, MethodStats.KIND, new MethodStats(7, 4, false, true, 4_000, 500, 2_000, bucket(10, 4)));  // first instance, so far
            w.flush();
            w.write(t += 1_000, MethodStats.KIND, new MethodStats(7, 5, true, true, 5_000, 500, 2_000,
                    bucket(10, 5)));  // it unloaded: its last figures
            w.write(t, MethodStats.KIND, new MethodStats(7, 2, false, true, 600, 300, 300, bucket(8, 2)));  // the second instance, so far
            w.flush();
            w.write(t += 1_000, MethodStats.KIND, new MethodStats(7, 3, false, true, 900, 300, 300,
                    bucket(8, 3)));  // replaces its own earlier figures
            w.write(t, MethodStats.KIND, new MethodStats(8, 9, true, false, 0, 0, 0,
                    new long[0]));  // an untimed method that only ever settled
            w.write(t, MethodStats.KIND, new MethodStats(9, 4, false, true, 400, 100, 100,
                    bucket(6, 4)));  // so far, then in this very chunk
            w.write(t, MethodStats.KIND, new MethodStats(9, 6, true, true, 600, 100, 100,
                    bucket(6, 6)));  // its class unloaded: these replace them
            w.flush();
            w.write(t, MethodStats.KIND, new MethodStats(10, 2, false, true, 200, 100, 100, bucket(6, 2)));  // so far, in one chunk
            w.flush();
            w.write(t, MethodStats.KIND, new MethodStats(10, 5, true, true, 500, 100, 100,
                    bucket(6, 5)));  // settled in the next: these alone count
            w.flush();
        }
        Recording r = RecordingReader.read(file);
        MethodStats run = r.stats().get(7);
        assertEquals(8, run.calls(), "5 settled + 3 alive, the first instance's 4 so far replaced by its 5");
        assertEquals(5_900, run.totalNanos());
        assertEquals(300, run.minNanos());
        assertEquals(2_000, run.maxNanos());
        assertEquals(5, run.histogram()[10]);
        assertEquals(3, run.histogram()[8]);
        assertEquals(9, r.stats().get(8).calls());
        assertEquals(6, r.stats().get(9).calls(), "settled figures replace the same instance's earlier ones in their chunk");
        assertEquals(6, r.stats().get(9).histogram()[6]);
        assertEquals(5, r.stats().get(10).calls(), "and those of an earlier chunk");
        assertEquals(500, r.stats().get(10).totalNanos());
    }

    private static long[] bucket(int b, long count) {
        long[] h = new long[40];
        h[b] = count;
        return h;
    }

    @Test
    void foldedStacksAreRootFirstAndAddUpToTheSamples() throws IOException {
        Recording r = RecordingReader.read(write());
        StringWriter out = new StringWriter();
        FoldedStacks.write(View.natural(r).of(r), out, false, dev.tiprobe.ids.HumanNames.FrameStyle.SLASH);
        Map<String, Long> parsed = new java.util.HashMap<>();
        for (String line : out.toString().split("\n")) {
            int space = line.lastIndexOf(' ');
            parsed.merge(line.substring(0, space), Long.parseLong(line.substring(space + 1)), Long::sum);
        }
        assertEquals(300, parsed.values().stream().mapToLong(Long::longValue).sum());
        assertEquals(3 * 34, parsed.get("com/foo/M5.run;com/foo/M4.run;com/foo/M1.run"), "i % 3 == 0 in 34 of 100: named as async-profiler names frames");
        assertEquals(3, parsed.size());
        assertTrue(FoldedStacks.fold(r, true).keySet().stream().allMatch(k -> k.matches("\\[worker-\\d+ tid=\\d+\\];.*")),
                "each stack under its thread, as async-profiler's -t roots them: " + FoldedStacks.fold(r, true).keySet());
    }

    @Test
    void aCutFileGivesTheChunksBeforeTheCutAndADamagedOneEveryChunkButTheDamagedOne() throws IOException {
        byte[] whole = Files.readAllBytes(write());
        int[] chunkEnds = chunkEnds(whole);
        SplittableRandom random = new SplittableRandom(7);
        for (int n = 0; n < 2000; n++) {
            byte[] bytes;
            int intact;  // chunks that end before the damage
            boolean named = true;  // false for a cut between two chunks, which reads as a shorter whole file
            if (random.nextBoolean()) {
                int cut = RecordingFormat.HEADER_BYTES + random.nextInt(whole.length - RecordingFormat.HEADER_BYTES);
                bytes = Arrays.copyOf(whole, cut);
                intact = (int) Arrays.stream(chunkEnds).filter(e -> e <= cut).count();
                named = cut != RecordingFormat.HEADER_BYTES && Arrays.stream(chunkEnds).noneMatch(e -> e == cut);
            } else {
                bytes = whole.clone();
                int at = RecordingFormat.HEADER_BYTES + random.nextInt(whole.length - RecordingFormat.HEADER_BYTES);
                bytes[at] ^= (byte) (1 << random.nextInt(8));
                intact = chunkEnds.length - 1;  // the reader resynchronises on the chunk after the damaged one
            }
            Recording r = RecordingReader.read(bytes);
            assertEquals(intact, r.chunks(), "case " + n);
            assertEquals(intact * 100, r.samples().size());
            assertEquals(intact, r.calls().size());
            if (named) assertNotNull(r.damage(), "the damage is named, case " + n);
            else assertNull(r.damage());
        }
    }

    /**
     * A chunk whose checksum holds but whose records do not inflate (a writer's bug, not a disk's:
     * the checksum covers the deflated bytes) is skipped with a reason; the chunks around it read.
     */
    @Test
    void aChunkWhoseRecordsDoNotInflateIsSkippedAndTheOthersRead() throws IOException {
        byte[] bytes = Files.readAllBytes(write());
        int[] ends = chunkEnds(bytes);
        int at = ends[0];  // the second chunk
        int length = java.nio.ByteBuffer.wrap(bytes, at, 4).getInt();
        Arrays.fill(bytes, at + 8 + 16, at + 8 + length, (byte) 0xFF);  // DEFLATE block type 3: reserved, an error
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(bytes, at + 8, length);
        java.nio.ByteBuffer.wrap(bytes, at + 4, 4).putInt((int) crc.getValue());
        Recording r = RecordingReader.read(bytes);
        assertEquals(2, r.chunks());
        assertEquals(200, r.samples().size());
        assertTrue(r.damage().startsWith("chunk 2 at offset " + at + ": its records do not inflate"), r.damage());
    }

    /**
     * A hostile or broken chunk cannot make the reader inflate without end: one whose records
     * inflate past 64 MiB, and one with bytes after its deflated records, are each skipped with
     * their reason.
     */
    @Test
    void aChunkThatInflatesTooFarOrCarriesTrailingBytesIsSkipped() throws IOException {
        java.util.zip.Deflater d = new java.util.zip.Deflater(java.util.zip.Deflater.BEST_COMPRESSION, true);
        d.setInput(new byte[(RecordingFormat.MAX_RECORDS_BYTES) + 1024]);
        d.finish();
        java.io.ByteArrayOutputStream bomb = new java.io.ByteArrayOutputStream();
        bomb.write(new byte[16], 0, 16);  // the chunk's two times
        byte[] block = new byte[8192];
        while (!d.finished()) bomb.write(block, 0, d.deflate(block));
        d.end();
        Recording r = RecordingReader.read(oneChunkFile(RecordingFormat.VERSION, bomb.toByteArray()));
        assertEquals(0, r.chunks());
        assertTrue(r.damage().contains("its records inflate past 64 MiB"), r.damage());

        byte[] whole = Files.readAllBytes(write());
        int length = java.nio.ByteBuffer.wrap(whole, RecordingFormat.HEADER_BYTES, 4).getInt();
        byte[] body = Arrays.copyOfRange(whole, RecordingFormat.HEADER_BYTES + 8, RecordingFormat.HEADER_BYTES + 8 + length + 1);
        body[body.length - 1] = 7;  // one byte after the deflated stream
        r = RecordingReader.read(oneChunkFile(RecordingFormat.VERSION, body));
        assertEquals(0, r.chunks());
        assertTrue(r.damage().contains("1 bytes follow its deflated records"), r.damage());
    }

    /**
     * Names repeat much (a churning program's thousands of script classes differ by a number), so
     * chunks hold their records deflated: such a file is a fraction of its names' bytes, and every
     * name reads back.
     */
    @Test
    void namesThatRepeatTakeAFractionOfTheirBytesInTheFile() throws IOException {
        Path file = dir.resolve("names.tpr");
        int methods = 5_000;
        long nameBytes = 0;
        try (RecordingWriter w = RecordingWriter.create(file, id -> "groovy-scripts!Script" + id + ".run() : java.lang.Object")) {
            for (int id = 1; id <= methods; id++) {
                nameBytes += ("groovy-scripts!Script" + id + ".run() : java.lang.Object").length();
                w.write(1_000L * id, Sample.KIND, new Sample(1_000L * id, 1, "main", RecordingFormat.STATE_RUNNABLE, 0, 1,
                        new Stack(new int[] {id}, new int[] {1}, 1, false)));
            }
        }
        long size = Files.size(file);
        assertTrue(size < nameBytes / 3, size + " bytes for " + nameBytes + " bytes of names and 5,000 samples");
        Recording r = RecordingReader.read(file);
        assertEquals(methods, r.samples().size());
        assertEquals("groovy-scripts!Script4321.run() : java.lang.Object", r.methodName(4321));
    }

    @Test
    void filtersKeepSamplesByFrameThreadAndTime() throws IOException {
        Recording r = RecordingReader.read(write());
        assertEquals(102, new RecordingFilter(java.util.List.of("*M1.run*"), java.util.List.of(), java.util.List.of(), 0,
                Long.MAX_VALUE).apply(r).samples().size(), "include: samples with a matching frame");
        assertEquals(198, new RecordingFilter(java.util.List.of(), java.util.List.of("*.M1.*"), java.util.List.of(), 0,
                Long.MAX_VALUE).apply(r).samples().size(), "exclude wins over everything else");
        assertEquals(100, new RecordingFilter(java.util.List.of(), java.util.List.of(), java.util.List.of("worker-1"), 0,
                Long.MAX_VALUE).apply(r).samples().size(), "one thread");
        assertEquals(100, new RecordingFilter(java.util.List.of(), java.util.List.of(), java.util.List.of(), 0,
                1_000_000_000L).apply(r).samples().size(), "the first second (10 ms to 1 s): the first chunk's samples");
        assertThrows(IllegalArgumentException.class, () -> new RecordingFilter(java.util.List.of(), java.util.List.of(),
                java.util.List.of(), 5, 4));
    }

    @Test
    void jsonExportHasEverySampleWithNames() throws IOException {
        Recording r = RecordingReader.read(write());
        StringWriter out = new StringWriter();
        RecordingJson.write(r, out);
        String json = out.toString();
        assertEquals(300 + 1, json.split("\"frames\"").length - 1, "every sample's, and the one call kept with its stack");
        assertTrue(json.contains("\"thrown\": {\"type\": \"java.lang.IllegalStateException\", \"message\": \"no\"}, \"frames\": [6, 4, 5],"
                + " \"lines\": [7, 20, 0], \"stack\": [\"app.jar!com.foo.M6"), "a call's stack, itself first, by id and by name");
        assertTrue(json.contains("\"4\": \"app.jar!com.foo.M4.run(int x) : void\""), json.substring(0, 400));
        assertTrue(json.contains("\"thrown\": {\"type\": \"java.lang.IllegalStateException\", \"message\": \"no\"}"), "a thrown exception");
        assertTrue(json.contains("{\"epochNanos\": 1000000000, \"event\": \"load\", \"class\": \"com.foo.Plugin0\"}"));
        assertTrue(json.contains("\"calls\": 3, \"totalNanos\": 6000"), "traced method statistics");
        assertTrue(json.contains("\"args\": [{\"name\": \"x\", \"value\": 2}]"), "traced calls with their arguments");
        assertTrue(json.contains("\"class\": \"com.foo.M6\", \"method\": \"run\", \"descriptor\": \"(I)V\", \"calls\": 3,"
                + " \"totalNanos\": 6000, \"minNanos\": 2000, \"maxNanos\": 2000, \"meanNanos\": 2000,"
                + " \"histogram\": [{\"belowNanos\": 2048, \"count\": 3}]"), json);
        assertTrue(json.contains("\"samplemode\": \"wall\""));
    }

    @Test
    void flameGraphPageCarriesBothViewsAndTheTracedMethods() throws IOException {
        Recording r = RecordingReader.read(write());
        StringWriter out = new StringWriter();
        FlameGraphHtml.write(r, out, "test");
        String page = out.toString();
        assertTrue(page.contains("{\"id\":\"wall\",\"weighs\":\"the threads' wall time\",\"unit\":\"samples\",\"root\":[0,300,300,["),
                "a wall-mode recording opens on the wall view, its root counting 300 samples");
        assertTrue(page.contains("{\"id\":\"cpu\",\"weighs\":\"CPU time\",\"unit\":\"nanoseconds\",\"root\":[0,300000000,"),
                "the cpu view weighs the same samples by their 300 ms of CPU");
        assertTrue(page.contains("[\"app.jar!com.foo.M6.run(int x) : void\",3,6000]"), "the traced method's figures");
        assertTrue(page.contains("M6.run(x=0) -> \\\"ok\\\""), "the traced calls");
        assertTrue(page.contains("safepoints"), "the page says where stacks are taken");
    }

    /**
     * Two recordings compared: the folded diff gives each stack's weight in the base and now (0
     * where missing), and the page's tree carries, beside each frame's weight now, its weight in
     * the base and the base's total, from which the page colours it.
     */
    @Test
    void aDiffGivesEachStackBothWeightsAndThePageBothTotals() throws IOException {
        Path before = dir.resolve("before.tpr");
        Path after = dir.resolve("after.tpr");
        for (Path file : List.of(before, after)) {
            try (RecordingWriter w = RecordingWriter.create(file, id -> "app.Main.m" + id + "() : void")) {
                int grown = file == before ? 1 : 3;  // m2's samples: 1 of 4 before, 3 of 4 after
                for (int i = 0; i < 4; i++) {
                    int[] frames = {i < grown ? 2 : 3, 1};  // m2 or m3, called by m1
                    w.write(1_000 + i, Sample.KIND, new Sample(1_000 + i, 1, "main", RecordingFormat.STATE_RUNNABLE, 0, 1,
                            new Stack(frames, new int[2], 2, false)));
                }
            }
        }
        Recording base = RecordingReader.read(before);
        Recording now = RecordingReader.read(after);
        StringWriter folded = new StringWriter();
        Diff.folded(base, now, View.WALL, dev.tiprobe.ids.HumanNames.FrameStyle.SLASH, folded);
        assertEquals("app/Main.m1;app/Main.m2 1 3\napp/Main.m1;app/Main.m3 3 1\n", folded.toString());
        StringWriter page = new StringWriter();
        Diff.flameGraph(base, now, View.WALL, dev.tiprobe.ids.HumanNames.FrameStyle.SLASH, page, "diff");
        String data = page.toString().substring(page.toString().indexOf("const data"));
        assertTrue(data.contains("\"baseTotal\":4,\"root\":[0,4,4,[[1,4,4,[[2,3,3,[],1],[3,1,1,[],3]],4]],4]"), data);
    }

    /** The page is filled in one pass: names that look like its placeholders are shown as they are. */
    @Test
    void aMethodOrTitleThatLooksLikeAPlaceholderIsShownAsItIs() throws IOException {
        Path file = dir.resolve("marks.tpr");
        try (RecordingWriter w = RecordingWriter.create(file, id -> "com.TITLE.Page.render(java.lang.String TITLE) : void")) {
            w.write(10, Sample.KIND, new Sample(10, 1, "t", RecordingFormat.STATE_RUNNABLE, 0, 1,
                    new Stack(new int[] {1}, new int[] {0}, 1, false)));
        }
        StringWriter out = new StringWriter();
        FlameGraphHtml.write(RecordingReader.read(file), out, "a /*DATA*/null TITLE");
        String page = out.toString();
        assertTrue(page.contains("\"com/TITLE/Page.render\""), "the frame's name, unchanged: " + page.substring(page.indexOf("const data")));
        assertTrue(page.contains("<title>a /*DATA*/null TITLE</title>"), "the title, unchanged");
        assertEquals(1, page.split("const data = \\{", -1).length - 1, "the data went in once, where the page takes it");
    }

    @Test
    void withLinesNamesEachLineOfAMethodApart() throws IOException {
        Map<String, Long> folded = FoldedStacks.fold(RecordingReader.read(write()).withLines(), false);
        assertEquals(3 * 17, folded.get("com/foo/M5.run;com/foo/M4.run:20;com/foo/M1.run:10"),
                "M1 (i % 3 == 0) at line 10 (i even): 17 of 100; M5's unknown line left off");
        assertEquals(300, folded.values().stream().mapToLong(Long::longValue).sum());
        assertEquals(6, folded.size(), "three leaves, each on two lines");
    }

    @Test
    void aCpuModeRecordingFoldsByCpuTime() throws IOException {
        Path file = dir.resolve("cpu.tpr");
        try (RecordingWriter w = RecordingWriter.create(file, id -> "M" + id + "()")) {
            w.write(0, Info.KIND, new Info(RecordingFormat.INFO_SAMPLE_MODE, "cpu"));
            w.write(10, Sample.KIND, new Sample(10, 1, "t", RecordingFormat.STATE_RUNNABLE, 3_000, 1,
                    new Stack(new int[] {1}, new int[] {7}, 1, false)));
            w.write(20, Sample.KIND, new Sample(20, 1, "t", RecordingFormat.STATE_RUNNABLE, 5_000, 1,
                    new Stack(new int[] {1}, new int[] {7}, 1, false)));
        }
        Recording r = RecordingReader.read(file);
        assertTrue(r.cpuMode());
        assertEquals(Map.of("M1", 8_000L), FoldedStacks.fold(r, false));
    }

    @Test
    void aStackCutAtTheSamplingDepthGetsATruncatedRootInEveryView() throws IOException {
        Path file = dir.resolve("deep.tpr");
        try (RecordingWriter w = RecordingWriter.create(file, id -> "M" + id + "()")) {
            w.write(10, Sample.KIND, new Sample(10, 1, "t", RecordingFormat.STATE_WAITING, 0, 1,
                    new Stack(new int[] {1, 2}, new int[] {0, 0}, 2, true)));
            w.write(20, Sample.KIND, new Sample(20, 1, "t", RecordingFormat.STATE_WAITING, 0, 1,
                    new Stack(new int[] {1, 2}, new int[] {0, 0}, 2, false)));
        }
        Recording r = RecordingReader.read(file);
        assertEquals(RecordingFormat.STATE_WAITING, r.samples().getFirst().state(), "the flag is not part of the state");
        assertEquals(Map.of("[truncated];M2;M1", 1L, "M2;M1", 1L), FoldedStacks.fold(r, false));
        assertEquals(FoldedStacks.fold(r, false), FoldedStacks.fold(r.withLines(), false), "lines leave the marker alone");
    }

    @Test
    void classesLeftUnchangedAndCpuInNoStackAreSaidOnThePage() throws IOException {
        Path file = dir.resolve("caveats.tpr");
        try (RecordingWriter w = RecordingWriter.create(file, id -> "M" + id + "()")) {
            w.write(0, Info.KIND, new Info(RecordingFormat.INFO_SAMPLE_MODE, "cpu"));
            w.write(0, Info.KIND, new Info(RecordingFormat.INFO_CLASSES_LEFT_UNCHANGED, "2"));
            w.write(0, Info.KIND, new Info(RecordingFormat.INFO_FIRST_CLASS_FAILURE, "gen.Foo: left unchanged: no hierarchy for gen.Bar"));
            w.write(0, Info.KIND, new Info(RecordingFormat.INFO_CPU_NOT_SEEN_RUNNING, "12500000"));
            w.write(10, Sample.KIND, new Sample(10, 1, "t", RecordingFormat.STATE_RUNNABLE, 3_000, 1,
                    new Stack(new int[] {1}, new int[] {7}, 1, false)));
        }
        Recording r = RecordingReader.read(file);
        assertEquals(List.of("2 classes were left unchanged (each says what that means for its calls); the first:"
                        + " gen.Foo: left unchanged: no hierarchy for gen.Bar",
                "CPU goes to stacks of threads seen running Java code; 12.5 ms used by threads not seen running again"
                        + " before sampling ended is in no stack."), r.caveats());
        java.io.StringWriter page = new java.io.StringWriter();
        FlameGraphHtml.write(r, page, "t");
        assertTrue(page.toString().contains("\"caveats\":[\"2 classes were left unchanged"), "the page carries them");
    }

    @Test
    void instrumentingThatTookOverAHundredthOfTheRecordingIsSaid() throws IOException {
        Path file = dir.resolve("instrumenting.tpr");
        try (RecordingWriter w = RecordingWriter.create(file, id -> "M" + id + "()")) {
            w.write(0, Info.KIND, new Info(RecordingFormat.INFO_CLASSES_INSTRUMENTED, "3000"));
            w.write(0, Info.KIND, new Info(RecordingFormat.INFO_INSTRUMENTING_NANOS, "2500000000"));
            w.write(100_000_000_000L, Sample.KIND, new Sample(100_000_000_000L, 1, "t", RecordingFormat.STATE_RUNNABLE, 0, 1,
                    new Stack(new int[] {1}, new int[] {7}, 1, false)));
        }
        Recording r = RecordingReader.read(file);
        assertEquals(List.of("Instrumenting class files (3000 changed) took 2.5 s on the threads that loaded or retransformed"
                + " them, time the overhead budget does not count (it counts the probes' calls)."), r.caveats(), "2.5 s in 100 s");
        java.io.StringWriter json = new java.io.StringWriter();
        RecordingJson.write(r, json);
        assertTrue(json.toString().contains("\"instrumentingNanos\": 2500000000"), "the JSON has the figure");

        Path brief = dir.resolve("brief.tpr");
        try (RecordingWriter w = RecordingWriter.create(brief, id -> "M" + id + "()")) {
            w.write(0, Info.KIND, new Info(RecordingFormat.INFO_INSTRUMENTING_NANOS, "900000000"));
            w.write(100_000_000_000L, Sample.KIND, new Sample(100_000_000_000L, 1, "t", RecordingFormat.STATE_RUNNABLE, 0, 1,
                    new Stack(new int[] {1}, new int[] {7}, 1, false)));
        }
        assertEquals(List.of(), RecordingReader.read(brief).caveats(), "0.9 s in 100 s goes unsaid");
    }

    @Test
    void notARecordingIsOneClearError() throws IOException {
        var e = assertThrows(RecordingReader.NotARecordingException.class, () -> RecordingReader.read("{\"tool\":1}".getBytes()));
        assertEquals("not a tiprobe recording (no TPRB header)", e.getMessage());
        byte[] future = {'T', 'P', 'R', 'B', RecordingFormat.VERSION + 1, 0, 0, 0};
        assertTrue(assertThrows(RecordingReader.NotARecordingException.class, () -> RecordingReader.read(future))
                .getMessage().startsWith("recording format version " + (RecordingFormat.VERSION + 1)));
        Recording empty = RecordingReader.read(new byte[] {'T', 'P', 'R', 'B', RecordingFormat.VERSION, 0, 0, 0});
        assertEquals(0, empty.chunks());
        assertNull(empty.damage());
        Recording older = RecordingReader.read(new byte[] {'T', 'P', 'R', 'B', 2, 0, 0, 0});
        assertEquals(0, older.chunks(), "a version 2 recording (no source files) is still read");
    }

    @Test
    void aMethodsSourceFileTravelsWithItsNameAndKeepsToItsLines() throws IOException {
        Path file = dir.resolve("sources.tpr");
        try (RecordingWriter w = RecordingWriter.create(file, id -> "com.foo.M" + id + ".run()", id -> id == 1 ? "com/foo/M1.java" : null)) {
            w.write(10, Sample.KIND, new Sample(10, 1, "t", RecordingFormat.STATE_RUNNABLE, 0, 1,
                    new Stack(new int[] {1, 2}, new int[] {42, 7}, 2, false)));
        }
        Recording r = RecordingReader.read(file);
        assertEquals(Map.of(1, "com/foo/M1.java"), r.sources(), "only methods whose class names a file");
        Recording byLine = r.withLines();
        int m1AtLine42 = byLine.samples().getFirst().frames()[0];
        assertEquals("com.foo.M1.run:42()", byLine.methodName(m1AtLine42));
        assertEquals("com/foo/M1.java", byLine.sources().get(m1AtLine42), "a line of a method keeps the method's file");
    }

    /**
     * A method whose probe the overhead budget took out has figures of its first calls only: its
     * rows say so, and the tables say what the mark means; the others' rows carry no mark.
     */
    @Test
    void aRemovedProbesRowsAreMarkedInTheMethodTables() throws IOException {
        Path file = dir.resolve("removed.tpr");
        try (RecordingWriter w = RecordingWriter.create(file, id -> "com.foo.M.run() : void")) {
            w.write(10, Signature.KIND, new Signature(1, "com.foo.M", "hot", "()I", "com.foo.M.hot() : int"));
            w.write(10, Signature.KIND, new Signature(2, "com.foo.M", "handle", "()V", "com.foo.M.handle() : void"));
            w.write(10, MethodStats.KIND, new MethodStats(1, 900_000, false, true, 450_000_000L, 80, 90_000, new long[64]));
            w.write(10, MethodStats.KIND, new MethodStats(2, 1_000, false, true, 53_000_000L, 40_000, 90_000, new long[64]));
            w.write(20, Removed.KIND, new Removed("com.foo.M.hot() : int", 4_100_000));
        }
        Recording r = RecordingReader.read(file);
        StringWriter text = new StringWriter();
        try (java.io.PrintWriter out = new java.io.PrintWriter(text)) {
            TextReport.methodTables(out, TracedText.methods(r), 10, "by calls", "by time");
        }
        String tables = text.toString();
        assertTrue(tables.contains("900000  com.foo.M.hot() : int [removed]"), tables);
        assertTrue(tables.contains("1000  com.foo.M.handle() : void" + System.lineSeparator()), tables);
        assertTrue(tables.contains("[removed]: the overhead budget took the method's probe out"), tables);
    }

    /**
     * Every kind of value a probe captures comes back with its structure, and reads as a person
     * expects in the text; the tracing account (skipped methods, classes left unchanged, probes
     * removed) comes back whole, each entry once.
     */
    @Test
    void capturedValuesAndTheTracingAccountComeBackWhole() throws IOException {
        List<CapturedValue> values = List.of(CapturedValue.NULL, new CapturedValue.Bool(true), new CapturedValue.Int(-42),
                new CapturedValue.Int(Long.MIN_VALUE), new CapturedValue.Float32(1.5f), new CapturedValue.Float64(Double.NaN),
                new CapturedValue.Char('x'), new CapturedValue.Str("a\"b"), new CapturedValue.Text("abcdefghij", 5000),
                new CapturedValue.EnumConstant("com.foo.Color", "RED"),
                new CapturedValue.Array("int", 1000, List.of(new CapturedValue.Int(1), new CapturedValue.Int(2))),
                new CapturedValue.Obj("com.foo.Order", 0xcafe, null), new CapturedValue.Obj("com.foo.Order", -1, "Order#5"),
                CapturedValue.NOT_CAPTURED,
                new CapturedValue.Obj("com.foo.Shop$Order", 1, null, List.of(new CapturedValue.Field("id", new CapturedValue.Int(5)),
                        new CapturedValue.Field("total", new CapturedValue.JdkValue("java.math.BigDecimal", "12.50")),
                        new CapturedValue.Field("lines", new CapturedValue.Sized("java.util.ArrayList", 3)),
                        new CapturedValue.Field("next", new CapturedValue.Seen("com.foo.Shop$Order", 1)),
                        new CapturedValue.Field("secret", new CapturedValue.Unreadable("InaccessibleObjectException"))), 2));
        List<String> names = values.stream().map(v -> "p" + values.indexOf(v)).toList();
        Path file = dir.resolve("values.tpr");
        try (RecordingWriter w = RecordingWriter.create(file, id -> "com.foo.M.run(...) : void")) {
            w.write(10, Call.KIND, new Call(10, 1, "main", 1, 0, 5, false, names, values, CapturedValue.NONE, null, List.of()));
            w.write(10, Skipped.KIND, new Skipped("com.foo.M", "abstractOne", "()V", "abstract"));
            w.write(10, ClassFailure.KIND, new ClassFailure("com.foo.Broken: instrumented code does not verify"));
            w.flush();
            w.write(20, Removed.KIND, new Removed("com.foo.M.hot() : int", 4_100_000));
            w.write(20, ClassFailure.KIND, new ClassFailure("com.foo.Other: too large"));
        }
        Recording r = RecordingReader.read(file);
        Call call = r.calls().getFirst();
        assertEquals(values.size(), call.argValues().size());
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) instanceof CapturedValue.Float64 d) assertTrue(Double.isNaN(((CapturedValue.Float64) call.argValues().get(i)).value()));
            else assertEquals(values.get(i), call.argValues().get(i), "value " + i);
        }
        assertEquals(CapturedValue.NONE, call.result());
        assertEquals("[main] com.foo.M.run(p0=null, p1=true, p2=-42, p3=-9223372036854775808, p4=1.5, p5=NaN, p6='x', p7=\"a\\\"b\","
                + " p8=\"abcdefghij\"... (5000 chars), p9=Color.RED, p10=int[1000] {1, 2, ...}, p11=Order@cafe, p12=Order@ffffffff \"Order#5\","
                + " p13=(not captured: probe code was running on this thread), p14=Shop$Order{id=5, total=12.50, lines=ArrayList(3),"
                + " next=Shop$Order@1 (seen above), secret=?(InaccessibleObjectException), … 2 more})  (0.000 ms)", TracedText.call(r, call));
        assertEquals(List.of(new Skipped("com.foo.M", "abstractOne", "()V", "abstract")), r.tracing().skipped());
        assertEquals(List.of("com.foo.Broken: instrumented code does not verify", "com.foo.Other: too large"), r.tracing().classFailures());
        assertEquals(List.of(new Removed("com.foo.M.hot() : int", 4_100_000)), r.tracing().removed());
        StringWriter json = new StringWriter();
        RecordingJson.write(r, json);
        assertTrue(json.toString().contains("{\"name\": \"p5\", \"value\": \"NaN\"}, {\"name\": \"p6\", \"value\": \"x\"}, {\"name\": \"p7\","
                + " \"value\": \"a\\\"b\"}, {\"name\": \"p8\", \"value\": {\"text\": \"abcdefghij\", \"length\": 5000, \"truncated\": true}}"), json.toString());
        assertTrue(json.toString().contains("{\"name\": \"p14\", \"value\": {\"object\": \"com.foo.Shop$Order\", \"identityHash\": \"1\","
                + " \"fields\": [{\"name\": \"id\", \"value\": 5}, {\"name\": \"total\", \"value\": {\"jdk\": \"java.math.BigDecimal\", \"text\": \"12.50\"}},"
                + " {\"name\": \"lines\", \"value\": {\"collection\": \"java.util.ArrayList\", \"size\": 3}}, {\"name\": \"next\", \"value\":"
                + " {\"seen\": \"com.foo.Shop$Order\", \"identityHash\": \"1\"}}, {\"name\": \"secret\", \"value\": {\"unreadable\":"
                + " \"InaccessibleObjectException\"}}], \"moreFields\": 2}}"), json.toString());
        assertTrue(json.toString().contains("\"removedForOverhead\": [\n    {\"method\": \"com.foo.M.hot() : int\", \"callsPerSecond\": 4100000}"));
    }

    /**
     * A version 3 recording (values kept as text, statistics without a histogram), as the tiprobe
     * before this one wrote it, still reads: its values as the text they were.
     */
    @Test
    void aVersion3RecordingStillReads() throws IOException {
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        java.io.DataOutputStream d = new java.io.DataOutputStream(body);
        d.writeLong(1_000);  // chunk start
        d.writeLong(2_000);  // chunk end
        d.write(RecordingFormat.METHOD);
        d.write(6);
        text(d, "com.foo.M6.run(int) : java.lang.String");
        d.write(MethodStats.KIND.number());
        d.write(new byte[] {6, 2, 1, 100, 40, 60});  // method 6: 2 calls, timed: total 100, min 40, max 60
        d.write(Call.KIND.number());
        d.write(new byte[] {5, 1, 6, 0, Call.RETURNED, 40, 1});  // at +5 on thread 1, depth 0, 40 ns, one argument
        text(d, "x");
        text(d, "42");
        text(d, "\"ok\"");
        Recording r = RecordingReader.read(oneChunkFile(3, body.toByteArray()));
        assertNull(r.damage());
        assertEquals(2, r.stats().get(6).calls());
        assertEquals(0, r.stats().get(6).histogram().length, "no histogram before version 4");
        Call call = r.calls().getFirst();
        assertEquals(List.of(new CapturedValue.Shown("42")), call.argValues());
        assertEquals("[thread 1] com.foo.M6.run(x=42) -> \"ok\"  (0.000 ms)", TracedText.call(r, call));
    }

    /** Events that repeat a stack name it by id in their chunk: each stack is written once per chunk, and read back whole. */
    @Test
    void repeatedStacksAreWrittenOncePerChunkAndReadBackWhole() throws IOException {
        int[] deep = new int[100];
        int[] lines = new int[100];
        Arrays.setAll(deep, i -> i + 1);
        Arrays.setAll(lines, i -> 10 + i);
        Path once = dir.resolve("once.tpr");
        Path many = dir.resolve("many.tpr");
        try (RecordingWriter w = RecordingWriter.create(once, id -> "M" + id)) {
            w.write(1_000, Sample.KIND, new Sample(1_000, 1, "t", RecordingFormat.STATE_RUNNABLE, 0, 1,
                    new Stack(deep, lines, deep.length, false)));
        }
        try (RecordingWriter w = RecordingWriter.create(many, id -> "M" + id)) {
            for (int i = 0; i < 100; i++) w.write(1_000 + i, Sample.KIND, new Sample(1_000 + i, 1, "t", RecordingFormat.STATE_RUNNABLE, 0,
                    1, new Stack(deep, lines, deep.length, false)));
            w.write(2_000, Allocation.KIND, new Allocation(2_000, 1, "t", "byte[]", 64, 0, new Stack(deep, lines, deep.length, false)));
            w.write(3_000, Sample.KIND, new Sample(3_000, 1, "t", RecordingFormat.STATE_RUNNABLE, 0, 1,
                    new Stack(deep, lines, 50, true)));  // cut: another stack
            w.flush();
            w.write(4_000, LockWait.KIND, new LockWait(4_000, 1, "t", RecordingFormat.LOCK_WAIT, "java.lang.Object", 5_000_000,
                    new Stack(deep, lines, deep.length, false), 2, "owner", new Stack(new int[] {7}, new int[] {70}, 1, false)));
        }
        long perStack = Files.size(once);
        assertTrue(Files.size(many) < 2 * perStack + 101 * 12 + 1_000, "the stack is written about once per chunk: "
                + Files.size(many) + " bytes against " + perStack + " for one sample");
        Recording r = RecordingReader.read(many);
        assertNull(r.damage());
        assertEquals(101, r.samples().size());
        assertArrayEquals(deep, r.samples().get(99).frames());
        assertArrayEquals(lines, r.samples().get(99).lines());
        Sample cut = r.samples().get(100);
        assertEquals(51, cut.frames().length, "50 frames and a [truncated] root");
        assertEquals(Recording.TRUNCATED, cut.frames()[50]);
        assertArrayEquals(deep, r.events().allocations().getFirst().frames());
        LockWait wait = r.events().locks().getFirst();
        assertArrayEquals(deep, wait.frames(), "a stack pooled in an earlier chunk is written again in the next");
        assertArrayEquals(new int[] {7}, wait.ownerFrames());
        assertEquals("M100", r.methodName(100));
    }

    /** A version 8 recording, where each event carried its own stack, still reads. */
    @Test
    void aVersion8RecordingWithAStackInEachEventStillReads() throws IOException {
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        java.io.DataOutputStream d = bodyWithMethod6(body);
        d.write(Sample.KIND.number());
        d.write(new byte[] {5, 1, RecordingFormat.STATE_RUNNABLE | RecordingFormat.STATE_TRUNCATED, 0, 1, 6, 12});  // one frame, line 12, cut
        d.write(RecordingFormat.TYPE);
        d.write(3);
        text(d, "byte[]");
        d.write(Allocation.KIND.number());
        d.write(new byte[] {6, 1, 3, 64, 0, 0, 1, 6, 13});  // 64 bytes of type 3, untracked, whole stack: one frame, line 13
        Recording r = RecordingReader.read(oneChunkFile(8, body.toByteArray()));
        assertNull(r.damage());
        assertArrayEquals(new int[] {6, Recording.TRUNCATED}, r.samples().getFirst().frames());
        assertEquals(12, r.samples().getFirst().lines()[0]);
        assertArrayEquals(new int[] {6}, r.events().allocations().getFirst().frames());
        assertArrayEquals(new int[] {13}, r.events().allocations().getFirst().lines());
    }

    /** A version 9 recording, whose calls had no stack id, still reads: its calls without stacks. */
    @Test
    void aVersion9RecordingsCallsReadWithoutStacks() throws IOException {
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        java.io.DataOutputStream d = bodyWithMethod6(body);
        d.write(Call.KIND.number());
        d.write(new byte[] {5, 1, 6, 0, Call.RETURNED, 40, 0, RecordingFormat.VALUE_NONE});  // no arguments, void
        d.write(Call.KIND.number());
        d.write(new byte[] {9, 1, 6, 0, Call.RETURNED, 50, 0, RecordingFormat.VALUE_NONE});
        Recording r = RecordingReader.read(oneChunkFile(9, body.toByteArray()));
        assertNull(r.damage());
        assertEquals(2, r.calls().size(), "the second call is read where the first ends");
        assertEquals(50, r.calls().get(1).durationNanos());
        assertArrayEquals(new int[0], r.calls().get(1).stackFrames());
    }

    /** A chunk's body begun in {@code body}: its times (1,000 to 2,000) and method 6, {@code com.foo.M6.run() : void}. */
    private static java.io.DataOutputStream bodyWithMethod6(java.io.ByteArrayOutputStream body) throws IOException {
        java.io.DataOutputStream d = new java.io.DataOutputStream(body);
        d.writeLong(1_000);
        d.writeLong(2_000);
        d.write(RecordingFormat.METHOD);
        d.write(6);
        text(d, "com.foo.M6.run() : void");
        return d;
    }

    /** A recording of format {@code version} holding one chunk of {@code body} (its times and records), checksummed. */
    private static byte[] oneChunkFile(int version, byte[] body) {
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(body);
        java.nio.ByteBuffer file = java.nio.ByteBuffer.allocate(RecordingFormat.HEADER_BYTES + 8 + body.length);
        file.put(RecordingFormat.MAGIC).put(new byte[] {(byte) version, 0, 0, 0}).putInt(body.length).putInt((int) crc.getValue()).put(body);
        return file.array();
    }

    private static void text(java.io.DataOutputStream d, String s) throws IOException {
        byte[] bytes = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        d.write(bytes.length);
        d.write(bytes);
    }

    /** Offsets where each chunk ends. */
    static int[] chunkEnds(byte[] bytes) {
        java.util.List<Integer> ends = new java.util.ArrayList<>();
        int at = RecordingFormat.HEADER_BYTES;
        while (at < bytes.length) {
            int length = java.nio.ByteBuffer.wrap(bytes, at, 4).getInt();
            at += 8 + length;
            ends.add(at);
        }
        return ends.stream().mapToInt(Integer::intValue).toArray();
    }
    /**
     * Allocations, collected objects and waits go through the recording and come out as the
     * views: the class as the leaf frame, bytes scaled by the sampling interval, only uncollected
     * objects live, contended waits and Object.wait apart, the owner's stack kept.
     */
    @Test
    void allocationsAndWaitsBecomeTheirViews() throws IOException {
        Path file = dir.resolve("events.tpr");
        Map<Integer, String> names = Map.of(1, "app.Store.put(int) : void", 2, "app.Main.main(java.lang.String[]) : void",
                3, "app.Ledger.post() : void", 4, "app.Ledger.hold(long) : void");
        try (RecordingWriter w = RecordingWriter.create(file, names::get)) {
            w.write(0, Info.KIND, new Info(RecordingFormat.INFO_ALLOC_INTERVAL, "1024"));
            w.write(0, Info.KIND, new Info(RecordingFormat.INFO_ALLOC_LIVE, "yes"));
            w.write(10, Allocation.KIND, new Allocation(10, 1, "main", "byte[]", 1 << 20, 7,
                    new Stack(new int[] {1, 2}, new int[] {12, 3}, 2, false)));
            w.write(20, Allocation.KIND, new Allocation(20, 1, "main", "app.Item", 32, 8,
                    new Stack(new int[] {1, 2}, new int[] {13, 3}, 2, false)));
            w.write(30, Freed.KIND, new Freed(8));
            w.write(40, LockWait.KIND, new LockWait(40, 2, "waiter", RecordingFormat.LOCK_CONTENDED, "app.Ledger", 5_000_000,
                    new Stack(new int[] {3}, new int[] {0}, 1, false), 3, "holder", new Stack(new int[] {4}, new int[] {0}, 1, false)));
            w.write(50, LockWait.KIND, new LockWait(50, 2, "waiter", RecordingFormat.LOCK_WAIT, "java.lang.Object", 7_000_000,
                    new Stack(new int[] {3}, new int[] {0}, 1, false), 0, null, new Stack(null, null, 0, false)));
        }
        Recording r = RecordingReader.read(file);
        assertNull(r.damage());
        assertEquals(List.of(View.ALLOC, View.LIVE, View.LOCK, View.WAIT), View.in(r));
        long item = r.events().allocations().get(1).estimatedBytes();
        assertEquals(Map.of("[main tid=1];app/Main.main;app/Store.put;byte[]", (long) (1 << 20), "[main tid=1];app/Main.main;app/Store.put;app.Item",
                item), FoldedStacks.fold(View.ALLOC.of(r), true));
        assertTrue(item > 1000 && item < 1100, "a small object stands for about the interval: " + item);
        assertEquals(Map.of("app/Main.main;app/Store.put;byte[]", (long) (1 << 20)), FoldedStacks.fold(View.LIVE.of(r), false),
                "the collected Item is not live");
        assertEquals(Map.of("app/Ledger.post;app.Ledger", 5_000_000L), FoldedStacks.fold(View.LOCK.of(r), false));
        assertEquals(Map.of("app/Ledger.post;java.lang.Object", 7_000_000L), FoldedStacks.fold(View.WAIT.of(r), false));
        LockWait contended = r.events().locks().getFirst();
        assertEquals("holder", r.threads().get(contended.ownerThreadId()));
        assertEquals("app.Ledger.hold(long) : void", r.methodName(contended.ownerFrames()[0]));
        StringWriter page = new StringWriter();
        FlameGraphHtml.write(r, View.LOCK, dev.tiprobe.ids.HumanNames.FrameStyle.SLASH, page, "t");
        assertTrue(page.toString().contains("{\"views\":[{\"id\":\"lock\""), "the page opens on the view asked for");
    }

    /**
     * A wait handed over a second after it ended (JFR's, with the thread that let the waiter in
     * and no stack of it) keeps its own time, though the chunk being written began later; a
     * slightly late one joins the chunk at its start.
     */
    @Test
    void aWaitWrittenLateKeepsItsTime() throws IOException {
        Path file = dir.resolve("late.tpr");
        Map<Integer, String> names = Map.of(1, "app.Ledger.post() : void");
        long second = 1_000_000_000L;
        try (RecordingWriter w = RecordingWriter.create(file, names::get)) {
            w.write(10 * second, Info.KIND, new Info(RecordingFormat.INFO_LOCK_SOURCE, "jfr"));
            w.write(10 * second - 1_000_000, LockWait.KIND, new LockWait(10 * second - 1_000_000, 2, "waiter",
                    RecordingFormat.LOCK_CONTENDED, "app.Ledger", 6_000_000, new Stack(new int[] {1}, new int[] {0}, 1, false), 0, null,
                    new Stack(null, null, 0, false)));
            w.write(9 * second, LockWait.KIND, new LockWait(9 * second, 2, "waiter", RecordingFormat.LOCK_CONTENDED, "app.Ledger",
                    5_000_000, new Stack(new int[] {1}, new int[] {0}, 1, false), 3, "holder",
                    new Stack(new int[0], new int[0], 0, false)));
        }
        Recording r = RecordingReader.read(file);
        assertNull(r.damage());
        assertEquals(List.of(9 * second, 10 * second), r.events().locks().stream().map(LockWait::epochNanos).sorted().toList());
        LockWait first = r.events().locks().stream().filter(l -> l.waitNanos() == 5_000_000).findFirst().orElseThrow();
        assertEquals("holder", r.threads().get(first.ownerThreadId()));
        assertEquals(0, first.ownerFrames().length);
    }

    /**
     * When the overhead budget raises the sampling interval, each sample weighs by the interval in
     * force when it was taken, told by time: a sample queued before the change may be written after it.
     */
    @Test
    void eachAllocationWeighsByTheIntervalInForceWhenSampled() throws IOException {
        Path file = dir.resolve("intervals.tpr");
        Map<Integer, String> names = Map.of(1, "app.Store.put(int) : void");
        try (RecordingWriter w = RecordingWriter.create(file, names::get)) {
            w.write(0, Info.KIND, new Info(RecordingFormat.INFO_ALLOC_INTERVAL, "1024"));
            w.write(10, Allocation.KIND, new Allocation(10, 1, "main", "app.Item", 32, 0,
                    new Stack(new int[] {1}, new int[] {3}, 1, false)));
            w.write(25, AllocInterval.KIND, new AllocInterval(25, 8192));
            w.write(20, Allocation.KIND, new Allocation(20, 1, "main", "app.Item", 32, 0,
                    new Stack(new int[] {1}, new int[] {3}, 1, false)));
            w.write(30, Allocation.KIND, new Allocation(30, 1, "main", "app.Item", 32, 0,
                    new Stack(new int[] {1}, new int[] {3}, 1, false)));
            w.write(40, AllocInterval.KIND, new AllocInterval(40, 2048));
            w.write(50, Allocation.KIND, new Allocation(50, 1, "main", "app.Item", 32, 0,
                    new Stack(new int[] {1}, new int[] {3}, 1, false)));
        }
        Recording r = RecordingReader.read(file);
        assertNull(r.damage());
        assertEquals(List.of(1024L, 1024L, 8192L, 2048L), r.events().allocations().stream().map(Allocation::intervalBytes).toList());
        long small = r.events().allocations().get(0).estimatedBytes();
        long raised = r.events().allocations().get(2).estimatedBytes();
        assertTrue(raised > 7.8 * small && raised < 8.1 * small, "a sample at 8 KiB stands for about 8 times one at 1 KiB: " + small + ", " + raised);
        assertTrue(r.caveats().stream().anyMatch(c -> c.contains("raised up to 8.0 KiB")), "the report says the interval was raised: " + r.caveats());
    }
}
