package dev.tiprobe.probe;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The probe called directly, as injected code calls it. */
class ProbeTest {
    static final TraceSettings ALL = new TraceSettings(true, 0, 1, 5, 2, true, 1, 8, 0);

    @BeforeEach
    void reset() {
        ProbeControl.reserve(4);
        ProbeControl.traceFrom(0);
        ProbeControl.reset(ALL, 1000);
    }

    @Test
    void countsAreExactAcrossPlatformAndVirtualThreads() throws Exception {
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 100_000; i++) Probe.count(1);
            }));
        }
        for (Thread t : threads) t.join();
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int t = 0; t < 500; t++) {
                executor.submit(() -> {
                    for (int i = 0; i < 100; i++) Probe.count(2);
                });
            }
        }
        assertArrayEquals(new long[] {0, 400_000, 50_000, 0}, ProbeControl.counts(4));
        ProbeControl.reset(ALL, 1000);
        assertArrayEquals(new long[4], ProbeControl.counts(4), "a new session starts from zero");
    }

    /**
     * Under a duration threshold only the calls that took that long are kept, with their
     * arguments as they were at the call and their stack, walked for them alone on their own
     * thread as they end, while it counts as tiprobe's work; every call is still counted and the
     * depth stays right.
     */
    @Test
    void aDurationThresholdKeepsOnlyTheSlowCallsWithTheirStacks() throws Exception {
        ProbeControl.reset(new TraceSettings(true, 0, 1, 5, 2, false, 1, 8, 50_000_000), 1000);
        java.util.concurrent.atomic.AtomicInteger walks = new java.util.concurrent.atomic.AtomicInteger();
        ProbeControl.keepCallerStacksWith(() -> {
            walks.incrementAndGet();
            Probe.count(3);  // a traced method the walk might call: tiprobe's work, not counted
            return "stack of " + Thread.currentThread().getName();
        }, early -> "named early");
        try {
            keepsOnlyTheSlowCalls();
        } finally {
            ProbeControl.keepCallerStacksWith(null, null);
        }
        assertEquals(1, walks.get(), "a walk for the kept call alone");
        assertEquals("stack of " + Thread.currentThread().getName(), ProbeControl.tracedCalls()[0].callerStack());
        assertEquals(0, ProbeControl.counts(4)[3], "the walk's own calls are left out");
    }

    /**
     * A call kept before the agent installed its walker (a {@code run}'s first moments) keeps
     * Java's frames, the probe's own left off; the agent's namer names them when it reads the
     * call, and a session that ends names them before its namer goes.
     */
    @Test
    void aCallKeptBeforeTheWalkerKeepsItsFramesUntilTheAgentNamesThem() throws Exception {
        ProbeControl.reset(new TraceSettings(true, 0, 1, 5, 2, false, 1, 8, 50_000_000), 1000);
        ProbeControl.expectCallerStacks();
        keepsOnlyTheSlowCalls();
        EarlyStack early = assertInstanceOf(EarlyStack.class, ProbeControl.tracedCalls()[0].callerStack());
        StackWalker.StackFrame top = early.frames().getFirst();
        assertEquals(ProbeTest.class, top.getDeclaringClass());
        assertEquals("keepsOnlyTheSlowCalls", top.getMethodName());
        assertEquals("()V", top.getDescriptor());
        assertTrue(early.lines()[0] > 0, "its line, read as it was walked");
        ProbeControl.keepCallerStacksWith(() -> "walked", e -> e.frames().size() + " frames named");
        ProbeControl.keepCallerStacksWith(null, null);
        assertEquals(early.frames().size() + " frames named", ProbeControl.tracedCalls()[0].callerStack(),
                "named once as the session's namer went, and kept so");

        ProbeControl.reset(new TraceSettings(true, 0, 1, 5, 2, false, 1, 8, 50_000_000), 1000);
        keepsOnlyTheSlowCalls();
        assertNull(ProbeControl.tracedCalls()[0].callerStack(), "no walker expected: no walk");
        ProbeControl.expectCallerStacks();
        keepsOnlyTheSlowCallsAgain();
        ProbeControl.keepCallerStacksWith(null, null);  // the agent's start failed: nobody will name them
        assertNull(ProbeControl.tracedCalls()[0].callerStack(), "an early stack nobody can name is let go");
    }

    private void keepsOnlyTheSlowCallsAgain() throws Exception {
        ProbeControl.reset(new TraceSettings(true, 0, 1, 5, 2, false, 1, 8, 50_000_000), 1000);
        keepsOnlyTheSlowCalls();
        assertInstanceOf(EarlyStack.class, ProbeControl.tracedCalls()[0].callerStack());
    }

    private void keepsOnlyTheSlowCalls() throws Exception {
        for (int i = 0; i < 20; i++) {
            Call fast = Probe.traceEnter(1);
            Probe.arg(fast, 0, i);
            Probe.traceReturn(fast);
        }
        Call slow = Probe.traceEnter(1);
        Probe.arg(slow, 0, 99);
        Call inner = Probe.traceEnter(2);
        Probe.traceReturn(inner);
        Thread.sleep(60);
        Probe.traceReturn(slow);
        assertEquals(21, ProbeControl.counts(4)[1]);
        Call[] kept = ProbeControl.tracedCalls();
        assertEquals(1, kept.length, "the slow call alone, not the fast ones nor a method's first call");
        assertEquals(99, kept[0].args()[0]);
        assertTrue(kept[0].endNanos() - kept[0].startNanos() >= 50_000_000);
        assertEquals(0, kept[0].depth());
        assertEquals(0, ProbeControl.droppedCalls(), "calls under the threshold are not counted as dropped");
    }

    /**
     * Once tracing stops, while the session gives the classes their original code back, a call is
     * neither counted nor recorded: every call counted is recorded or counted as dropped.
     */
    @Test
    void aCallAfterTracingStoppedIsNotCounted() {
        ProbeControl.reset(new TraceSettings(true, 0, 1, 5, 2, false, 1, 8, 0), 2);
        for (int i = 0; i < 5; i++) Probe.traceReturn(Probe.traceEnter(1));
        ProbeControl.stopTracing();
        assertNull(Probe.traceEnter(1), "no call to record");
        assertEquals(5, ProbeControl.counts(4)[1]);
        assertEquals(5, ProbeControl.tracedCalls().length + ProbeControl.droppedCalls(), "each call counted is recorded or dropped");
    }

    /**
     * Under a condition ({@code watch --where}) only the calls it holds for are kept, decided at
     * their end with their arguments and result; the condition runs as tiprobe's work (a traced
     * method it calls is not counted), and one that throws keeps nothing and is counted as a failure.
     */
    @Test
    void aConditionKeepsOnlyTheCallsItHoldsFor() {
        ProbeControl.reset(new TraceSettings(true, 0, 1, 5, 2, false, 1, 8, 0, c -> {
            Probe.count(3);
            if ((Integer) c.args()[0] == 13) throw new IllegalStateException("a faulty condition");
            return (Integer) c.args()[0] % 2 == 0 && c.outcome() == Call.RETURNED;
        }), 1000);
        for (int i = 0; i < 10; i++) {
            Call c = Probe.traceEnter(1);
            Probe.arg(c, 0, i);
            if (i == 8) Probe.traceThrow(new IllegalArgumentException("eight"), c);
            else Probe.traceReturn(c);
        }
        Call faulty = Probe.traceEnter(1);
        Probe.arg(faulty, 0, 13);
        Probe.traceReturn(faulty);
        List<Object> kept = new ArrayList<>();
        for (Call c : ProbeControl.tracedCalls()) kept.add(c.args()[0]);
        assertEquals(List.of(0, 2, 4, 6), kept, "even, returned: not 8, which threw, nor a method's first call by itself");
        assertEquals(11, ProbeControl.counts(4)[1]);
        assertEquals(0, ProbeControl.counts(4)[3], "the condition's own calls are left out");
        assertEquals(1, ProbeControl.failures());
    }

    /** On a virtual thread too, where tiprobe's work is not marked: a traced method the condition calls is neither traced nor kept. */
    @Test
    void aConditionOnAVirtualThreadTracesNothingOfItsOwn() throws Exception {
        ProbeControl.reset(new TraceSettings(true, 0, 1, 5, 2, false, 1, 8, 0, c -> {
            Call inner = Probe.traceEnter(3);  // a traced method the condition's own code calls
            Probe.traceReturn(inner);
            return c.slot() == 1;
        }), 1000);
        Thread.ofVirtual().start(() -> {
            Call c = Probe.traceEnter(1);
            Probe.arg(c, 0, 7);
            Probe.traceReturn(c);
        }).join();
        Call[] kept = ProbeControl.tracedCalls();
        assertEquals(1, kept.length, "the call alone, not the condition's own");
        assertEquals(1, kept[0].slot());
        assertEquals(0, ProbeControl.failures());
    }

    /**
     * Calls on profiling machinery's threads (tiprobe's, JFR's and the JVM's Attach Listener, by
     * name) and on a thread marked as doing tiprobe's work are neither counted, timed nor traced;
     * unmarked, they are again.
     */
    @Test
    void machinerysCallsAndMarkedWorkAreLeftOut() throws Exception {
        for (String name : List.of("tiprobe-jfr", "JFR Periodic Tasks", "Attach Listener", "worker")) {
            Thread t = Thread.ofPlatform().name(name).start(() -> {
                Probe.count(1);
                Probe.exit(1, Probe.enter(1));
                Probe.traceReturn(Probe.traceEnter(1));
            });
            t.join();
        }
        assertEquals(2, ProbeControl.counts(4)[1], "the worker's count and its traced call's");
        assertEquals(1, ProbeControl.timeFigures(4)[1].calls(), "the worker's timed call");
        assertEquals(1, ProbeControl.tracedCalls().length);
        assertEquals("worker", ProbeControl.tracedCalls()[0].threadName());

        ProbeControl.tiprobesWork(true);
        try {
            Probe.count(2);
            assertNull(Probe.traceEnter(2));
        } finally {
            ProbeControl.tiprobesWork(false);
        }
        assertEquals(0, ProbeControl.counts(4)[2], "marked work is left out");
        Probe.count(2);
        Probe.count(2);
        assertEquals(2, ProbeControl.counts(4)[2], "the thread counts again, on its fast path too");
    }

    /**
     * A thread marked while it loads a class is back on the fast path at once: had its next call
     * taken the slow path, C2 would compile that path into every loop with a probe, and the loop's
     * counter would live in memory (+1.2 ns a call instead of +0.2 in scripts/bench/enter-path.sh).
     */
    @Test
    void aThreadThatDidTiprobesWorkIsBackOnTheFastPathAtOnce() throws Exception {
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        Thread t = Thread.ofPlatform().uncaughtExceptionHandler((thread, e) -> failure.set(e)).start(() -> {
            Probe.count(1);
            assertTrue(Probe.fastState() != null, "registered by its first call");
            ProbeControl.tiprobesWork(true);
            assertNull(Probe.fastState(), "marked: off the fast path");
            ProbeControl.tiprobesWork(false);
            assertTrue(Probe.fastState() != null, "unmarked: on the fast path before its next call");
        });
        t.join();
        if (failure.get() != null) throw new AssertionError(failure.get());
    }

    /**
     * A program that starts a thread per task: the threads' figures stay exact after they end,
     * what they took is folded into one set, and a released slot starts again from zero.
     */
    @Test
    void endedThreadsFiguresStayExactInOneSetAndAReleasedSlotStartsFromZero() throws Exception {
        int slot = 5_000;  // a high slot: a thread that runs it alone keeps one chunk, not 5,000 slots' worth
        ProbeControl.reserve(slot + 1);
        for (int t = 0; t < 200; t++) {
            Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 10; i++) {
                    Probe.count(slot);
                    Probe.exit(slot, Probe.enter(slot));
                }
            }).join();
        }
        long figures = ProbeControl.footprintBytes();
        assertEquals(2_000, ProbeControl.counts(slot + 1)[slot]);
        assertEquals(2_000, ProbeControl.timeFigures(slot + 1)[slot].calls());
        assertTrue(figures < 4_000_000, "200 ended threads' figures take one set, not 200: " + figures + " bytes");
        ProbeControl.release(new int[] {slot});
        assertEquals(0, ProbeControl.counts(slot + 1)[slot], "a released slot is zeroed for the method it goes to next");
        assertEquals(0, ProbeControl.timeFigures(slot + 1)[slot].calls());
    }

    /**
     * Under class churn the slots in use are scattered among thousands handed out, and threads
     * that end have run them: what the ended threads keep grows with the slots they ran, not with
     * the chunks of 64 slots those fall in (a chunk of time figures is 22 KiB).
     */
    @Test
    void endedThreadsKeepFiguresForTheSlotsTheyRanNotForTheirChunks() throws Exception {
        int threads = 200, apart = ThreadState.SLOTS;  // one slot in each chunk
        ProbeControl.reserve(threads * apart);
        long before = ProbeControl.footprintBytes();
        for (int t = 0; t < threads; t++) {
            int slot = t * apart;
            Thread.ofPlatform().start(() -> {
                Probe.exit(slot, Probe.enter(slot));
                Probe.exit(slot, Probe.enter(slot));
            }).join();
        }
        ProbeControl.TimeFigures[] figures = ProbeControl.timeFigures(threads * apart);  // folds the ended threads
        long kept = ProbeControl.footprintBytes() - before;
        for (int t = 0; t < threads; t++) assertEquals(2, figures[t * apart].calls(), "slot " + t * apart);
        assertEquals(2, ProbeControl.timedCalls(threads * apart)[apart], "the calls alone, as the overhead budget reads them");
        ProbeControl.TimeFigures[] asked = ProbeControl.timeFigures(new int[] {3 * apart, apart, apart + 1});
        assertEquals(java.util.List.of(2L, 2L, 0L), java.util.Arrays.stream(asked).map(ProbeControl.TimeFigures::calls).toList(),
                "the figures of the slots asked for, in their order");
        assertEquals(figures[apart].totalNanos(), asked[1].totalNanos());
        assertTrue(kept < 400_000, "200 slots' figures, not 200 chunks' (4.5 MB): " + kept + " bytes");
        ProbeControl.release(java.util.stream.IntStream.range(0, threads).map(t -> t * apart).toArray());
        assertTrue(ProbeControl.footprintBytes() - before < 200_000, "released slots' figures go: " + (ProbeControl.footprintBytes() - before));
        assertEquals(0, ProbeControl.timeFigures(apart + 1)[apart].calls());
    }

    /**
     * What ended threads ran is kept packed, the histogram's empty buckets left out, and reads
     * back exactly: a method's calls fall in a few of the 40 buckets, and under churn every
     * traced method that ran on a thread since ended kept all 44 longs of its figures.
     */
    @Test
    void endedThreadsFiguresArePackedAndReadBackExactly() {
        ThreadState thread = new ThreadState(null, 7, "worker", false);
        java.util.Random random = new java.util.Random(42);
        long[][] expected = new long[1_000][];
        for (int slot = 0; slot < expected.length; slot++) {
            long[] chunk = thread.timesOf(slot);
            int at = (slot & ThreadState.MASK) * Probe.TIME_STRIDE;
            for (int call = 0; call < 1 + slot % 5; call++) {
                long d = 1L << (3 + random.nextInt(20));
                chunk[at + Probe.MIN_AT] = chunk[at + Probe.CALLS_AT] == 0 ? d : Math.min(chunk[at + Probe.MIN_AT], d);
                chunk[at + Probe.CALLS_AT]++;
                chunk[at + Probe.TOTAL_AT] += d;
                chunk[at + Probe.MAX_AT] = Math.max(chunk[at + Probe.MAX_AT], d);
                chunk[at + Probe.BUCKETS_AT + Probe.bucket(d)]++;
            }
            expected[slot] = java.util.Arrays.copyOfRange(chunk, at, at + Probe.TIME_STRIDE);
        }
        EndedThreads ended = new EndedThreads();
        ended.absorb(thread);
        ended.absorb(thread);  // emptied by the first: adds nothing
        for (int slot = 0; slot < expected.length; slot++) {
            long[] back = new long[Probe.TIME_STRIDE];
            ended.addTo(slot, back, 0);
            assertArrayEquals(expected[slot], back, "slot " + slot);
        }
        assertTrue(ended.bytes() < 1_000 * 150, "packed: " + ended.bytes() + " bytes for 1,000 slots (368,000 unpacked)");
    }

    /**
     * Under class churn the slots handed out run to a hundred times those in use, and tracing
     * reads the figures of those in use every time it writes them: what that makes grows with the
     * slots asked for, not with the highest slot handed out. Figures for every slot were 70 MB of
     * arrays at once for 96,000 slots, 564 of them in use; for a slot near 20 million they could
     * not be made at all.
     */
    @Test
    void figuresOfAFewSlotsDoNotDependOnTheSlotsBelowThem() {
        int high = 20_000_000;
        ProbeControl.reserve(high + 1);
        Probe.exit(5, Probe.enter(5));
        Probe.exit(high, Probe.enter(high));
        ProbeControl.TimeFigures[] figures = ProbeControl.timeFigures(new int[] {high, 5});
        assertEquals(1, figures[0].calls());
        assertEquals(1, figures[1].calls());
    }

    /**
     * A burst of methods whose classes unload later: once their slots are free, the threads'
     * chunks of figures for them go, those of slots still in use stay whole, and a slot handed out
     * again counts from zero in a fresh chunk.
     */
    @Test
    void chunksWhoseSlotsAreAllFreeAreDroppedAndTheOthersKeepTheirFigures() throws InterruptedException {
        int kept = 3;
        int burst = 6_000;  // slots 640..6,639: a hundred chunks of their own
        ProbeControl.reserve(burst + 640);
        long reserved = ProbeControl.footprintBytes();
        assertTrue(reserved < 100_000, "reserving slots makes no figures before a thread runs them: " + reserved + " bytes");
        Probe.exit(kept, Probe.enter(kept));
        for (int slot = 640; slot < burst + 640; slot++) Probe.exit(slot, Probe.enter(slot));
        Thread.ofVirtual().start(() -> Probe.exit(5_000, Probe.enter(5_000))).join();  // a shared chunk too
        assertEquals(2, ProbeControl.timeFigures(5_001)[5_000].calls(), "a platform and a virtual thread's call");
        assertEquals(2, ProbeControl.timeFigures(new int[] {5_000})[0].calls(), "asked for alone");
        long withBurst = ProbeControl.footprintBytes();
        ProbeControl.release(java.util.stream.IntStream.range(640, burst + 640).toArray());
        ProbeControl.dropFreeChunks(burst + 640, slot -> slot == kept);
        long after = ProbeControl.footprintBytes();
        assertTrue(after < withBurst / 10, "the burst's chunks went: " + withBurst + " -> " + after + " bytes");
        assertEquals(1, ProbeControl.timeFigures(kept + 1)[kept].calls(), "a slot in use keeps its figures");
        Probe.exit(700, Probe.enter(700));
        assertEquals(1, ProbeControl.timeFigures(701)[700].calls(), "a slot handed out again gets a fresh chunk");
    }

    @Test
    void timesKeepCountTotalMinMaxAndHistogram() {
        long start = Probe.enter(3);
        Probe.exit(3, start);
        Probe.exit(3, System.nanoTime() - 5_000);
        ProbeControl.TimeFigures t = ProbeControl.timeFigures(4)[3];
        assertEquals(2, t.calls());
        assertEquals(2, ProbeControl.timedCalls(4)[3], "the calls alone, as the overhead budget reads them");
        assertTrue(t.minNanos() <= t.maxNanos() && t.maxNanos() >= 5_000 && t.totalNanos() >= t.maxNanos(), "min, max, total");
        assertEquals(2, java.util.Arrays.stream(t.histogram()).sum());
        assertEquals(Probe.BUCKETS, t.histogram().length);
        assertEquals(12, Probe.bucket(5_000), "[4096, 8192) ns");
        assertEquals(0, Probe.bucket(0));
    }

    @Test
    void aProbeTurnedOffRecordsNothingMoreAndItsSlotGivenBackIsOnAgain() {
        Probe.exit(2, Probe.enter(2));
        long started = Probe.enter(2);
        ProbeControl.turnOff(new int[] {2});
        Probe.exit(2, started);  // begun before the turn: ends as it began
        Probe.exit(2, Probe.enter(2));
        assertNull(Probe.traceEnter(2), "trace mode's probe is off too");
        Probe.exit(3, Probe.enter(3));
        assertEquals(2, ProbeControl.timedCalls(4)[2], "the calls before the turn, and no later one");
        assertEquals(1, ProbeControl.timedCalls(4)[3], "other slots go on");

        ProbeControl.release(new int[] {2});
        Probe.exit(2, Probe.enter(2));
        assertEquals(1, ProbeControl.timedCalls(4)[2], "the slot's next method is timed");
        assertEquals(0, ProbeControl.failures());
    }

    /** A session that could not restore a class retires its slots: their probes stay off in the next session, the new slots are on. */
    @Test
    void retiredSlotsStayOffAndTheNextSessionsSlotsAreOn() {
        ProbeControl.turnOff(new int[] {1, 3});
        ProbeControl.traceFrom(2);
        ProbeControl.reset(ALL, 1000);
        Probe.exit(1, Probe.enter(1));
        Probe.exit(3, Probe.enter(3));
        long[] calls = ProbeControl.timedCalls(4);
        assertEquals(0, calls[1], "a retired slot's probe stays off");
        assertEquals(1, calls[3], "a slot of the new session is on");
    }

    /**
     * A call's call sites (a watch's tree) leave out tiprobe's work during them, as the call's
     * duration does: the values a traced callee captures, the classes tiprobe instruments as a
     * callee loads them. Otherwise the sites of a call could add up to more than the call.
     */
    @Test
    void aCallsSitesLeaveOutTiprobesWorkAsItsDurationDoes() throws Exception {
        Call c = Probe.traceEnter(0);
        long siteBegan = System.nanoTime();
        Probe.siteEnter(c, 0);
        Call inner = Probe.traceEnter(1);
        long began = System.nanoTime();
        Thread.sleep(40);  // as if instrumenting a class the callee loaded took 40 ms
        long own = System.nanoTime() - began;
        Probe.ownWork(own);
        Thread.sleep(5);
        Probe.traceReturn(inner);
        Probe.siteExit(c);
        long siteWall = System.nanoTime() - siteBegan;
        Probe.traceReturn(c);
        Call[] calls = ProbeControl.tracedCalls();
        long site = calls[0].siteNanos()[0];
        assertTrue(site >= 5_000_000, "the callee's own 5 ms at least: " + site);
        assertTrue(site <= siteWall - own, "tiprobe's " + own + " ns left out of the site's " + siteWall + ": " + site);
        assertTrue(site <= calls[0].durationNanos(), site + " within " + calls[0].durationNanos());
        assertEquals(1, calls[0].siteCalls()[0]);
    }

    @Test
    void traceCapturesArgumentsAsTheyWereAndHowTheCallEnded() {
        int[] values = {1, 2, 3};
        Call c = Probe.traceEnter(0);
        Probe.arg(c, 0, 42L);
        Probe.arg(c, 1, "abcdefgh");
        Probe.arg(c, 2, values);
        Probe.arg(c, 3, (Object) null);
        Probe.arg(c, 4, new Object() {
            @Override
            public String toString() {
                throw new IllegalStateException("boom");
            }
        });
        values[0] = 99;  // later changes do not show
        Call inner = Probe.traceEnter(1);
        Probe.traceThrow(new IllegalArgumentException("bad"), inner);
        Probe.traceReturn(7.5, c);

        Call[] calls = ProbeControl.tracedCalls();
        assertEquals(2, calls.length);
        assertEquals(0, calls[0].depth());
        assertEquals(1, calls[1].depth());
        Object[] args = calls[0].args();
        assertEquals(42L, args[0]);
        assertEquals(new Captured.Text("abcde", 8), args[1]);
        Captured.ArrayValue array = assertInstanceOf(Captured.ArrayValue.class, args[2]);
        assertEquals(3, array.length());
        assertArrayEquals(new Object[] {1, 2}, array.first());
        assertNull(args[3]);
        Captured.ObjectValue object = assertInstanceOf(Captured.ObjectValue.class, args[4]);
        assertEquals("<toString() threw java.lang.IllegalStateException>", object.text());
        assertEquals(Call.RETURNED, calls[0].outcome());
        assertEquals(7.5, calls[0].result());
        assertEquals(Call.THREW, calls[1].outcome());
        assertEquals(new Captured.Thrown("java.lang.IllegalArgumentException", "bad"), calls[1].result());
        assertEquals(0, ProbeControl.failures());
    }

    @Test
    void overTheLimitsCallsAreDroppedButCountedAndKeepTheDepth() {
        ProbeControl.reset(new TraceSettings(true, 3, 1, 5, 2, false, 1, 8, 0), 1000);
        for (int i = 0; i < 10; i++) {
            Call c = Probe.traceEnter(0);
            Probe.arg(c, 0, i);
            Probe.traceReturn(c);
        }
        assertEquals(3, ProbeControl.tracedCalls().length);
        assertEquals(7, ProbeControl.droppedCalls());
        assertEquals(10, ProbeControl.counts(1)[0], "counts stay exact");
        ProbeControl.reset(new TraceSettings(true, 0, 1, 5, 2, false, 1, 8, 0), 1000);
        Call outer = Probe.traceEnter(0);
        for (int i = 0; i < 3; i++) Probe.traceReturn(Probe.traceEnter(1));
        Probe.traceReturn(outer);
        assertEquals(0, ProbeControl.tracedCalls()[0].depth());
        assertEquals(1, ProbeControl.tracedCalls()[1].depth());
        ProbeControl.stopTracing();
        assertNull(Probe.traceEnter(0), "tracing off");
    }

    /**
     * One in four, with four methods called in turn on one thread: each method gets about a
     * quarter of its calls recorded (a counter would have recorded one method's calls only).
     */
    @Test
    void oneInNRecordsEveryMethodOfARegularPattern() {
        ProbeControl.reset(new TraceSettings(true, 0, 4, 5, 2, false, 1, 8, 0), 100_000);
        for (int i = 0; i < 4_000; i++) {
            for (int slot = 0; slot < 4; slot++) Probe.traceReturn(Probe.traceEnter(slot));
        }
        int[] recorded = new int[4];
        for (Call c : ProbeControl.tracedCalls()) recorded[c.slot()]++;
        for (int slot = 0; slot < 4; slot++) {
            assertTrue(recorded[slot] > 800 && recorded[slot] < 1_200, "method " + slot + ": " + java.util.Arrays.toString(recorded));
        }
        assertEquals(16_000, ProbeControl.tracedCalls().length + ProbeControl.droppedCalls(), "every call recorded or counted as dropped");
    }

    /**
     * A full buffer keeps a sample of the whole session, not its first calls, and every method
     * that was called keeps its first call; what is not kept is counted as dropped.
     */
    @Test
    void aFullBufferKeepsCallsFromTheWholeSessionAndEveryMethod() {
        ProbeControl.reset(new TraceSettings(true, 0, 1, 5, 2, false, 1, 8, 0), 100);
        for (int i = 0; i < 10_000; i++) {
            Call c = Probe.traceEnter(1);
            Probe.arg(c, 0, i);
            Probe.traceReturn(c);
        }
        Probe.traceReturn(Probe.traceEnter(2));  // a method called once, at the very end
        Call[] kept = ProbeControl.tracedCalls();
        assertEquals(10_001, kept.length + ProbeControl.droppedCalls(), "every call is kept or counted as dropped");
        assertTrue(kept.length >= 100 && kept.length <= 102, "the buffer, and the first calls beside it: " + kept.length);
        assertTrue(java.util.Arrays.stream(kept).anyMatch(c -> c.slot() == 2), "the rare method is there");
        assertEquals(0, kept[0].args()[0], "the first call of the hot method is kept");
        long late = java.util.Arrays.stream(kept).filter(c -> c.slot() == 1 && (Integer) c.args()[0] >= 5_000).count();
        assertTrue(late > 25, "calls from the second half of the session: " + late + " of " + kept.length);
        for (int i = 1; i < kept.length; i++) assertTrue(kept[i - 1].startNanos() <= kept[i].startNanos(), "in the order they started");
    }
}
