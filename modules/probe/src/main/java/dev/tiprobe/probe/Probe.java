package dev.tiprobe.probe;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * What injected code calls: the JVM counterpart of the CLR's FunctionEnter3 hook. The agent puts
 * this class in the boot loader, so classes of every loader and module see one copy; the agent
 * itself starts, reads and ends a collection through {@link ProbeControl}.
 *
 * <p>Each instrumented method carries a compact int, its <em>slot</em>, given at transform time.
 * Injected code passes the slot, never a name. Three modes:
 * <ul>
 * <li>count: {@link #count(int)} at entry;</li>
 * <li>time: {@link #enter(int)} at entry keeps the start in a local of the frame, and
 *     {@link #exit(int, long)} runs before every return and in a handler that rethrows, so
 *     recursion and exceptions come out exact;</li>
 * <li>trace: {@link #traceEnter(int)} (which also counts), one {@code arg} call per argument,
 *     and {@code traceReturn}/{@link #traceThrow(Throwable, Call)} at the exits.</li>
 * </ul>
 *
 * <p>Rules that keep the program unchanged: nothing here throws (every entry point catches
 * Throwable and counts it in {@link ProbeControl#failures()}), the count and time paths neither lock nor
 * allocate once a thread has its state and the chunk of the slot, nothing initializes a class of the program, and probe
 * code never re-enters itself: what a captured argument's {@code toString()} calls is not
 * recorded. The agent never instruments the {@code java.lang} classes this class uses.
 *
 * <p>Platform threads count into their own arrays with plain increments, found through a table
 * indexed by thread id (a ThreadLocal on collisions). Virtual threads, which can be millions, add
 * atomically into shared arrays instead.
 *
 * <p>Probe code calls no JDK class outside {@code java.lang} (no {@code java.util} collection or
 * random source, no {@code java.util.concurrent}) but while it captures an argument, which the
 * thread's busy flag guards, and every VarHandle access goes through one of
 * the helpers at the end of this class, each run once when the class initializes: a VarHandle
 * call site links itself on its first run through {@code java.lang.invoke}, which uses
 * {@code java.util.concurrent}, so a first run inside a probe with those classes traced would
 * re-enter the probe before the link completes (it hung the JVM).
 */
public final class Probe {
    private Probe() {}

    /** Latency histogram: bucket b holds durations in [2^b, 2^(b+1)) ns; bucket 0 also holds 0. */
    public static final int BUCKETS = 40;
    /** Where a slot's figures sit in a time array: calls, total, min and max nanoseconds, then the buckets. */
    static final int CALLS_AT = 0;
    static final int TOTAL_AT = 1;
    static final int MIN_AT = 2;
    static final int MAX_AT = 3;
    static final int BUCKETS_AT = 4;
    /** Longs per slot in a time array. */
    static final int TIME_STRIDE = BUCKETS_AT + BUCKETS;

    /** Slots per chunk of the shared (virtual thread) arrays. */
    static final int CHUNK = 1024;

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle CALLS = MethodHandles.arrayElementVarHandle(Call[].class);
    /** The shared arrays' chunks, made by the first virtual thread that runs one of their slots. */
    private static final VarHandle CHUNKS = MethodHandles.arrayElementVarHandle(long[][].class);
    static final VarHandle FAILURES;
    static final VarHandle NEXT_CALL;
    static final VarHandle DROPPED;
    static final VarHandle WINDOW;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            FAILURES = l.findStaticVarHandle(Probe.class, "failures", long.class);
            NEXT_CALL = l.findStaticVarHandle(Probe.class, "nextCall", long.class);
            DROPPED = l.findStaticVarHandle(Probe.class, "dropped", long.class);
            WINDOW = l.findStaticVarHandle(Probe.class, "windowCalls", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        linkAccesses();
    }

    private static final int SLOT_BITS = 12;
    private static final ThreadState[] BY_THREAD_ID = new ThreadState[1 << SLOT_BITS];
    private static final ThreadLocal<ThreadState> LOCAL = new ThreadLocal<>();
    static final Object LOCK = new Object();
    /** Where the figures of platform threads that ended go ({@link #foldEnded()}). Guarded by LOCK. */
    static final EndedThreads ENDED = new EndedThreads();
    /** Every live platform thread's state (and, until the next fold, those that ended), for the totals. Guarded by LOCK. */
    static ThreadState[] platformStates = new ThreadState[8];
    static int platformStateCount = 0;
    /**
     * Virtual threads' counts and times: chunks of CHUNK slots, as many as {@code ProbeControl.reserve}
     * made room for; each made under LOCK when a virtual thread first runs one of its slots.
     */
    static volatile long[][] sharedCounts = new long[0][];
    static volatile long[][] sharedTimes = new long[0][];

    @SuppressWarnings("unused") // through FAILURES
    private static volatile long failures;

    // Trace settings and buffer, replaced whole by reset(). Once the buffer is full it is a
    // reservoir (each admitted call replaces a random kept one with the odds that keep the kept
    // calls a uniform sample of the session), and each slot's first call is kept beside it, so a
    // long trace shows calls from its whole length and from every method that was called.
    static volatile TraceSettings trace = TraceSettings.OFF;
    /** Slots below this are retired ({@link ProbeControl#traceFrom}): their probes record nothing. */
    static volatile int firstTracedSlot;
    static volatile Call[] calls = new Call[0];
    static volatile Call[] firstCalls = new Call[0];
    /**
     * Slots whose probes the overhead budget turned off in place ({@link ProbeControl#turnOff}):
     * time and trace mode's probes look here first and record nothing more, so a probe comes out
     * of a hot method without changing its class, which would throw its compiled code away.
     * Replaced whole on each change, so a probe reads one consistent array.
     */
    static volatile boolean[] turnedOff = new boolean[0];
    /** What {@link #enter} returns for a slot turned off: {@link #exit} then records nothing. */
    static final long OFF = Long.MIN_VALUE;
    @SuppressWarnings("unused") // through NEXT_CALL: calls admitted so far
    private static volatile long nextCall;
    @SuppressWarnings("unused") // through DROPPED
    private static volatile long dropped;
    @SuppressWarnings("unused") // through WINDOW
    private static volatile long windowCalls;
    static volatile long windowStart;
    /** Takes the stack of each call kept by its duration ({@link ProbeControl#keepCallerStacksWith}); or null. */
    static volatile java.util.function.Supplier<Object> callerStacks;
    /** Names the stacks of calls kept before {@link #callerStacks} was installed ({@link Call#callerStack()}); or null. */
    static volatile java.util.function.Function<EarlyStack, Object> earlyStackNamer;
    /** Whether a walker is on its way ({@link ProbeControl#expectCallerStacks}): until it comes, kept calls take an {@link EarlyStack}. */
    static volatile boolean callerStacksExpected;

    // ------------------------------------------------------------------------- count

    /** Counts one call of {@code slot}. */
    public static void count(int slot) {
        try {
            ThreadState s = fastState();
            if (s != null) {
                long[][] chunks = s.counts;
                int k = slot >>> ThreadState.SHIFT;
                long[] c = k < chunks.length ? chunks[k] : null;
                if (c != null) {
                    c[slot & ThreadState.MASK]++;
                    return;
                }
            }
            countSlow(slot);
        } catch (Throwable t) {
            failed();
        }
    }

    private static void countSlow(int slot) {
        ThreadState s = state();
        if (s != null && s.tiprobes) return;
        if (s == null) {
            if (trace.on() && busyVirtualThread()) return;  // the call is tiprobe's: a captured value's toString(), say
            long[] chunk = sharedChunk(sharedCounts, slot, 1);
            if (chunk != null) addLong(chunk, slot % CHUNK, 1L);
            return;
        }
        s.countsOf(slot)[slot & ThreadState.MASK]++;
    }

    // ------------------------------------------------------------------------- time

    /** The start of a timed call of {@code slot}, in {@link Clock} ticks: keep it for {@link #exit(int, long)}. */
    public static long enter(int slot) {
        try {
            boolean[] off = turnedOff;
            if (slot < off.length && off[slot]) return OFF;
            return Clock.now();
        } catch (Throwable t) {
            failed();
            return OFF;  // its exit records nothing: a start of 0 would make a call as long as the clock's count
        }
    }

    /** Ends a timed call of {@code slot} that {@link #enter(int)} started at {@code start} (ticks). */
    public static void exit(int slot, long start) {
        try {
            if (start == OFF) return;
            long d = Clock.now() - start;
            if (d < 0) d = 0;
            ThreadState s = fastState();
            if (s != null) {
                long[][] chunks = s.times;
                int k = slot >>> ThreadState.SHIFT;
                long[] t = k < chunks.length ? chunks[k] : null;
                if (t != null) {
                    record(t, (slot & ThreadState.MASK) * TIME_STRIDE, d);
                    return;
                }
            }
            exitSlow(slot, d);
        } catch (Throwable t) {
            failed();
        }
    }

    /** Adds one duration to a thread's own time figures at {@code i}. */
    private static void record(long[] t, int i, long d) {
        if (t[i + CALLS_AT]++ == 0 || d < t[i + MIN_AT]) t[i + MIN_AT] = d;
        t[i + TOTAL_AT] += d;
        if (d > t[i + MAX_AT]) t[i + MAX_AT] = d;
        t[i + BUCKETS_AT + bucket(d)]++;
    }

    private static void exitSlow(int slot, long d) {
        ThreadState s = state();
        if (s != null && s.tiprobes) return;
        if (s != null) {
            record(s.timesOf(slot), (slot & ThreadState.MASK) * TIME_STRIDE, d);
            return;
        }
        long[] chunk = sharedChunk(sharedTimes, slot, TIME_STRIDE);
        if (chunk == null) return;
        int i = (slot % CHUNK) * TIME_STRIDE;
        addLong(chunk, i + CALLS_AT, 1L);
        addLong(chunk, i + TOTAL_AT, d);
        long min;
        do {
            min = longVolatile(chunk, i + MIN_AT);
        } while ((min == 0 || d < min) && !casLong(chunk, i + MIN_AT, min, d));
        long max;
        do {
            max = longVolatile(chunk, i + MAX_AT);
        } while (d > max && !casLong(chunk, i + MAX_AT, max, d));
        addLong(chunk, i + BUCKETS_AT + bucket(d), 1L);
    }

    /** The histogram bucket of a duration in nanoseconds. */
    public static int bucket(long nanos) {
        return Math.min(BUCKETS - 1, 63 - Long.numberOfLeadingZeros(nanos | 1));
    }

    // ------------------------------------------------------------------------- trace

    /**
     * Starts a traced call of {@code slot}: the call to pass to the {@code arg} and exit methods,
     * or null when the call is not recorded (re-entered from probe code, or tracing is off).
     * Calls over the rate, sampling or buffer limits get a call that records only its depth.
     */
    public static Call traceEnter(int slot) {
        if (slot < firstTracedSlot) return null;  // a retired slot's probe: no method of this session
        try {
            boolean[] off = turnedOff;
            if (slot < off.length && off[slot]) return null;
        } catch (Throwable t) {
            failed();
            return null;
        }
        try {
            TraceSettings settings = trace;
            // Counted only while tracing is on, and not as tiprobe's own work (a captured value's
            // toString): such a call is in no trace, and would be counted as neither recorded nor dropped.
            if (!settings.on()) return null;
            ThreadState s = traceState();
            if (s == null || s.busy || s.tiprobes) return null;
            count(slot);  // calls stay exact whatever the trace limits drop
            int depth = s.depth++;
            // A method's first call is kept whatever the limits: every method called shows a call.
            Call[] firsts = firstCalls;
            boolean first = slot < firsts.length ? callAcquire(firsts, slot) == null : firstsFor(slot) != null;
            // One in n at random, not every n-th: a counter would meet the same method each time
            // in a program that calls n methods in turn, and never record the others.
            if (settings.decidedAtEnd()) {
                // Only slow calls, or those the condition keeps: which they are is known at the end, where keepAtEnd decides.
                if (settings.everyNth() > 1 && s.nextRandom(settings.everyNth()) != 0) return dropped(s);
                return new Call(slot, s, depth, System.nanoTime(), settings, true);
            }
            if (!first && settings.everyNth() > 1 && s.nextRandom(settings.everyNth()) != 0) {
                return dropped(s);
            }
            // Over the rate cap, look at the clock again only every 256 calls: dropping stays cheap.
            if (!first && s.capped && (++s.sinceCapped & 255) != 0) return dropped(s);
            long now = System.nanoTime();
            if (!admit(settings, now) && !first) {
                s.capped = true;
                s.sinceCapped = 0;
                return dropped(s);
            }
            s.capped = false;
            Call[] buffer = calls;
            long at = reservoirIndex(s, buffer);
            if (at >= buffer.length && !first) return dropped(s);
            Call c = new Call(slot, s, depth, now, settings, false);
            boolean keptFirst = first && keepFirst(slot, c);
            if (at < buffer.length) {
                putInBuffer(buffer, (int) at, c);
            } else if (!keptFirst) {
                countDropped(s);  // another thread's call became the method's first meanwhile
            }
            return c;
        } catch (Throwable t) {
            failed();
            return null;
        }
    }

    /**
     * The end of a call traced under a duration threshold or a condition: kept when it took at
     * least {@link TraceSettings#minNanos()} and the condition ({@link TraceSettings#keep()}) holds,
     * within the rate cap and the buffer's reservoir, as other calls are kept at their start. A
     * call of an earlier session is not.
     */
    static void keepAtEnd(Call c) {
        try {
            TraceSettings settings = trace;
            if (c.settings() != settings || c.durationNanos() < settings.minNanos()) return;
            if (settings.keep() != null && !holds(settings.keep(), c)) return;
            ThreadState s = c.owner();
            if (!admit(settings, c.endNanos())) {
                countDropped(s);
                return;
            }
            Call[] buffer = calls;
            long at = reservoirIndex(s, buffer);
            if (at >= buffer.length) {
                countDropped(s);
                return;
            }
            c.callerStack(callerStack(s));
            putInBuffer(buffer, (int) at, c);
        } catch (Throwable t) {
            failed();
        }
    }

    /**
     * The agent's condition on a call, with the thread's state busy meanwhile (as while a value is
     * captured), so that methods the condition calls are not traced, on virtual threads too, where
     * tiprobe's work is not marked; false when it fails.
     */
    private static boolean holds(java.util.function.Predicate<Call> keep, Call c) {
        ThreadState s = c.owner();
        boolean wasBusy = s.busy;
        s.busy = true;
        boolean marked = markTiprobes(true);
        try {
            return keep.test(c);
        } catch (Throwable t) {
            failed();
            return false;
        } finally {
            markTiprobes(marked);
            s.busy = wasBusy;
        }
    }

    /**
     * The calling thread's stack from the agent's walker, marked as tiprobe's work meanwhile (the
     * walk names frames with the agent's maps; on a virtual thread, which cannot be marked, the
     * thread's state is busy, so that methods the walk calls are not traced); while a walker is
     * expected and not yet installed, Java's frames, for the agent to name later
     * ({@link EarlyStack}); null without either, or when the walk fails.
     */
    private static Object callerStack(ThreadState s) {
        java.util.function.Supplier<Object> walker = callerStacks;
        if (walker == null && !callerStacksExpected) return null;
        boolean wasBusy = s.busy;
        s.busy = true;
        boolean marked = markTiprobes(true);
        try {
            return walker != null ? walker.get() : EarlyStack.take();
        } catch (Throwable t) {
            return null;
        } finally {
            markTiprobes(marked);
            s.busy = wasBusy;
        }
    }

    /**
     * Where an admitted call goes in {@code buffer}: the next place while there is one, then a
     * random one among all the calls admitted so far (past the end: not kept), so that the kept
     * calls stay a uniform sample of the session.
     */
    private static long reservoirIndex(ThreadState s, Call[] buffer) {
        long admitted = addStatic(NEXT_CALL, 1L);
        return admitted < buffer.length ? admitted : s.nextRandom(admitted + 1);
    }

    /** Puts {@code c} at {@code at}; the call it replaces counts as dropped unless it is kept as its method's first. */
    private static void putInBuffer(Call[] buffer, int at, Call c) {
        Call evicted = swapCallRelease(buffer, at, c);
        if (evicted != null && !keptAsFirst(evicted)) addStatic(DROPPED, 1L);
    }

    /** The first-call array, grown to hold {@code slot}; null when the slot is out of any sane range. */
    private static Call[] firstsFor(int slot) {
        if (slot < 0 || slot > (1 << 24)) return null;
        synchronized (LOCK) {
            Call[] f = firstCalls;
            if (slot >= f.length) firstCalls = f = grown(f, Math.max(slot + 1, f.length * 2));
            return f;
        }
    }

    private static boolean keptAsFirst(Call c) {
        Call[] f = firstCalls;
        return c.slot() < f.length && callAcquire(f, c.slot()) == c;
    }

    /** Makes {@code c} its slot's first call unless another is already; whether it did. */
    private static boolean keepFirst(int slot, Call c) {
        Call[] f = firstCalls;
        return slot < f.length && casCall(f, slot, null, c);
    }

    private static Call dropped(ThreadState s) {
        countDropped(s);
        return s.droppedCall;
    }

    private static void countDropped(ThreadState s) {
        if (s.virtual) addStatic(DROPPED, 1L);  // virtual threads' states are not kept for the totals
        else s.dropped++;
    }

    /** The calls-per-second cap: a one-second window shared by all threads. */
    private static boolean admit(TraceSettings settings, long now) {
        if (settings.perSecond() <= 0) return true;
        long start = windowStart;
        if (now - start >= 1_000_000_000L) {
            windowStart = now;
            setStaticVolatile(WINDOW, 0L);
        } else if (staticVolatile(WINDOW) >= settings.perSecond()) {
            return false;
        }
        return addStatic(WINDOW, 1L) < settings.perSecond();
    }

    public static void arg(Call c, int index, boolean v) { if (c != null && c.recording()) c.arg(index, v); }
    public static void arg(Call c, int index, byte v) { if (c != null && c.recording()) c.arg(index, v); }
    public static void arg(Call c, int index, char v) { if (c != null && c.recording()) c.arg(index, v); }
    public static void arg(Call c, int index, short v) { if (c != null && c.recording()) c.arg(index, v); }
    public static void arg(Call c, int index, int v) { if (c != null && c.recording()) c.arg(index, v); }
    public static void arg(Call c, int index, long v) { if (c != null && c.recording()) c.arg(index, v); }
    public static void arg(Call c, int index, float v) { if (c != null && c.recording()) c.arg(index, v); }
    public static void arg(Call c, int index, double v) { if (c != null && c.recording()) c.arg(index, v); }

    public static void arg(Call c, int index, Object v) {
        if (c == null || !c.recording()) return;
        ThreadState s = c.owner();
        long ownBefore = s.ownNanos;
        long began = System.nanoTime();
        try {
            c.arg(index, capture(s, v, c.settings()));
        } catch (Throwable t) {
            failed();
        } finally {
            // A value's toString() is tiprobe's time, not the call's; set, not added, so that a class
            // it loaded and tiprobe instrumented meanwhile (already in ownNanos) counts once.
            s.ownNanos = ownBefore + (System.nanoTime() - began);
        }
    }

    /**
     * Before a call site of a method whose sites are timed (a watch's call tree): the site's
     * index in the method's body. Only the calling thread touches its call.
     */
    public static void siteEnter(Call c, int site) {
        if (c == null || !c.recording()) return;
        try {
            c.enterSite(site);
        } catch (Throwable t) {
            failed();
        }
    }

    /** After a call site returned normally. */
    public static void siteExit(Call c) {
        if (c == null || !c.recording()) return;
        try {
            c.leaveSite();
        } catch (Throwable t) {
            failed();
        }
    }

    public static void traceReturn(Call c) { if (c != null) c.end(Call.RETURNED, null); }
    public static void traceReturn(boolean v, Call c) { if (c != null) c.end(Call.RETURNED, v); }
    public static void traceReturn(byte v, Call c) { if (c != null) c.end(Call.RETURNED, v); }
    public static void traceReturn(char v, Call c) { if (c != null) c.end(Call.RETURNED, v); }
    public static void traceReturn(short v, Call c) { if (c != null) c.end(Call.RETURNED, v); }
    public static void traceReturn(int v, Call c) { if (c != null) c.end(Call.RETURNED, v); }
    public static void traceReturn(long v, Call c) { if (c != null) c.end(Call.RETURNED, v); }
    public static void traceReturn(float v, Call c) { if (c != null) c.end(Call.RETURNED, v); }
    public static void traceReturn(double v, Call c) { if (c != null) c.end(Call.RETURNED, v); }

    public static void traceReturn(Object v, Call c) {
        if (c == null) return;
        try {
            c.end(Call.RETURNED, c.recording() ? capture(c.owner(), v, c.settings()) : null);
        } catch (Throwable t) {
            failed();
        }
    }

    public static void traceThrow(Throwable thrown, Call c) {
        if (c == null) return;
        try {
            c.end(Call.THREW, c.recording() ? captureThrown(c.owner(), thrown) : null);
        } catch (Throwable t) {
            failed();
        }
    }

    /** An argument or result as it was at the call: immutable values as they are, the rest described. */
    private static Object capture(ThreadState s, Object v, TraceSettings settings) {
        if (s.busy) return Captured.SKIPPED;
        s.busy = true;
        // What capturing calls (toString(), with the tostring option) is tiprobe's call, not the program's: not counted.
        boolean marked = markTiprobes(true);
        try {
            return Captured.of(v, settings);
        } finally {
            markTiprobes(marked);
            s.busy = false;
        }
    }

    private static Object captureThrown(ThreadState s, Throwable thrown) {
        if (s.busy) return Captured.SKIPPED;
        s.busy = true;
        boolean marked = markTiprobes(true);
        try {
            return Captured.thrown(thrown);
        } finally {
            markTiprobes(marked);
            s.busy = false;
        }
    }

    /**
     * Whether this virtual thread is doing tiprobe's work (capturing a value, checking a
     * condition): a virtual thread cannot be marked as a platform thread is ({@link #markTiprobes}).
     */
    private static boolean busyVirtualThread() {
        ThreadState v = LOCAL.get();
        return v != null && v.busy;
    }

    // ------------------------------------------------------------------------- thread state

    /**
     * This platform thread's state if it owns its slot in the table; null otherwise. Machinery's
     * states never own one, so the fast paths never see them.
     */
    static ThreadState fastState() {
        Thread t = Thread.currentThread();
        long id = t.threadId();
        ThreadState s = BY_THREAD_ID[(int) id & (BY_THREAD_ID.length - 1)];
        return s != null && s.threadId == id ? s : null;
    }

    /** This platform thread's state, created on first use; null on a virtual thread. */
    private static ThreadState state() {
        Thread t = Thread.currentThread();
        if (t.isVirtual()) return null;
        ThreadState s = LOCAL.get();
        if (s == null) {
            s = new ThreadState(t, t.threadId(), t.getName(), false);
            LOCAL.set(s);
            synchronized (LOCK) {
                if (platformStateCount == platformStates.length) foldEnded();
                if (platformStateCount == platformStates.length) {
                    ThreadState[] bigger = new ThreadState[platformStateCount * 2];
                    System.arraycopy(platformStates, 0, bigger, 0, platformStateCount);
                    platformStates = bigger;
                }
                platformStates[platformStateCount++] = s;
            }
        }
        if (!s.tiprobes) BY_THREAD_ID[(int) s.threadId & (BY_THREAD_ID.length - 1)] = s;  // last caller wins the slot
        return s;
    }

    /** Any thread's state for tracing (depth, sampling, re-entry); virtual threads get one too. */
    private static ThreadState traceState() {
        ThreadState s = fastState();
        if (s != null) return s;
        Thread t = Thread.currentThread();
        if (!t.isVirtual()) return state();
        s = LOCAL.get();
        if (s == null) {
            s = new ThreadState(null, t.threadId(), t.getName(), true);
            LOCAL.set(s);
        }
        return s;
    }

    /**
     * Adds {@code nanos} of tiprobe's own work on this thread (instrumenting a class it loads) to
     * what the traced calls running on it leave out of their durations.
     */
    static void ownWork(long nanos) {
        ThreadState s = LOCAL.get();  // a thread that never made a traced call has none running
        if (s != null) s.ownNanos += nanos;
    }

    /**
     * Marks this platform thread as doing tiprobe's work ({@code on}) or the program's again: while
     * marked, probes on it neither count, time nor trace. Whether it was marked before.
     */
    static boolean markTiprobes(boolean on) {
        Thread t = Thread.currentThread();
        if (t.isVirtual()) return false;
        ThreadState s = state();
        boolean was = s.tiprobes;
        s.tiprobes = on || ThreadState.machinery(t.getName());
        int at = (int) s.threadId & (BY_THREAD_ID.length - 1);
        if (s.tiprobes) {
            if (BY_THREAD_ID[at] == s) BY_THREAD_ID[at] = null;
        } else {
            // Back in the table at once: a thread that loads a class (marked meanwhile) would
            // otherwise take the slow path on its next call, and C2, having seen it taken, would
            // compile that path into every loop with a probe, which then keeps its counter in memory.
            BY_THREAD_ID[at] = s;
        }
        return was;
    }

    /**
     * Moves the figures of platform threads that ended into {@link #ENDED} and forgets their
     * states, so the states kept are those of live threads. Call holding LOCK.
     */
    static void foldEnded() {
        int kept = 0;
        for (int i = 0; i < platformStateCount; i++) {
            ThreadState s = platformStates[i];
            boolean folded = false;
            try {
                if (s.ended()) {
                    ENDED.absorb(s);  // chunk by chunk: one that fails midway keeps what it did not move
                    folded = true;
                    int at = (int) s.threadId & (BY_THREAD_ID.length - 1);
                    if (BY_THREAD_ID[at] == s) BY_THREAD_ID[at] = null;
                }
            } catch (Throwable t) {
                // out of memory, say: the state stays, and the next fold moves the rest
            }
            if (!folded) platformStates[kept++] = s;
        }
        for (int i = kept; i < platformStateCount; i++) platformStates[i] = null;
        platformStateCount = kept;
    }

    /**
     * The shared chunk holding {@code slot}, made on first use: a program without virtual threads
     * keeps none, however many methods have slots. Null for a slot not reserved. Made under LOCK,
     * in the arrays current then, so that growing them ({@code reserve}) never leaves one behind.
     */
    private static long[] sharedChunk(long[][] chunks, int slot, int stride) {
        int c = slot / CHUNK;
        if (c >= chunks.length) return null;
        long[] chunk = chunkAcquire(chunks, c);
        if (chunk != null) return chunk;
        synchronized (LOCK) {
            long[][] current = stride == 1 ? sharedCounts : sharedTimes;
            if (c >= current.length) return null;
            chunk = current[c];
            if (chunk == null) {
                chunk = new long[CHUNK * stride];
                chunkRelease(current, c, chunk);
            }
            return chunk;
        }
    }

    private static void failed() {
        addStatic(FAILURES, 1L);
    }

    /** {@code f} copied into a longer array of {@code length} (java.util.Arrays is not for probe code). */
    private static Call[] grown(Call[] f, int length) {
        Call[] bigger = new Call[length];
        System.arraycopy(f, 0, bigger, 0, f.length);
        return bigger;
    }

    // ------------------------------------------------------------------------- VarHandle accesses

    static long addLong(long[] a, int i, long delta) { return (long) LONGS.getAndAdd(a, i, delta); }
    static long longVolatile(long[] a, int i) { return (long) LONGS.getVolatile(a, i); }
    static void setLongVolatile(long[] a, int i, long v) { LONGS.setVolatile(a, i, v); }
    static boolean casLong(long[] a, int i, long expected, long v) { return LONGS.compareAndSet(a, i, expected, v); }
    static Call callAcquire(Call[] a, int i) { return (Call) CALLS.getAcquire(a, i); }
    static void setCallRelease(Call[] a, int i, Call c) { CALLS.setRelease(a, i, c); }
    static Call swapCallRelease(Call[] a, int i, Call c) { return (Call) CALLS.getAndSetRelease(a, i, c); }
    static boolean casCall(Call[] a, int i, Call expected, Call c) { return CALLS.compareAndSet(a, i, expected, c); }
    static long[] chunkAcquire(long[][] a, int i) { return (long[]) CHUNKS.getAcquire(a, i); }
    static void chunkRelease(long[][] a, int i, long[] chunk) { CHUNKS.setRelease(a, i, chunk); }
    static long addStatic(VarHandle counter, long delta) { return (long) counter.getAndAdd(delta); }
    static long staticVolatile(VarHandle counter) { return (long) counter.getVolatile(); }
    static void setStaticVolatile(VarHandle counter, long v) { counter.setVolatile(v); }

    /**
     * Runs every access helper once, on scratch arrays and with no effect on the counters, so that
     * each call site is linked before any probe runs (see the class comment).
     */
    private static void linkAccesses() {
        long[] longs = new long[1];
        addLong(longs, 0, 0L);
        setLongVolatile(longs, 0, longVolatile(longs, 0));
        casLong(longs, 0, 0L, 0L);
        Call[] calls = new Call[1];
        setCallRelease(calls, 0, callAcquire(calls, 0));
        swapCallRelease(calls, 0, null);
        casCall(calls, 0, null, null);
        long[][] chunks = new long[1][];
        chunkRelease(chunks, 0, chunkAcquire(chunks, 0));
        for (VarHandle counter : new VarHandle[] {FAILURES, NEXT_CALL, DROPPED, WINDOW}) {
            addStatic(counter, 0L);
            setStaticVolatile(counter, staticVolatile(counter));
        }
    }
}
