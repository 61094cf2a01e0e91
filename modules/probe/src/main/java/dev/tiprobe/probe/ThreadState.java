package dev.tiprobe.probe;

/**
 * One thread's counters and trace bookkeeping. Only the owning thread writes its figures (plain
 * stores), but for the agent zeroing a released slot or dropping a chunk of free slots (no code
 * of theirs runs) and moving an ended thread's figures; the agent reads it for totals, racing
 * with the owner only while probes run.
 */
final class ThreadState {
    /** The thread, for {@link #ended()}; null for virtual threads. */
    private final java.lang.ref.WeakReference<Thread> thread;
    final long threadId;
    final String threadName;
    final boolean virtual;
    /**
     * Calls per slot, in chunks of {@link #SLOTS} slots made when a slot of theirs first runs:
     * a thread that runs a few methods keeps a few chunks, however many methods have slots (a
     * program that starts a thread per task would otherwise give each one arrays as long as
     * the highest slot). Grown by the owner only; chunks of free slots dropped by the agent ({@link #drop}).
     */
    long[][] counts = new long[0][];
    /** {@link Probe#TIME_STRIDE} longs per slot, in chunks as {@link #counts}. Grown by the owner only. */
    long[][] times = new long[0][];
    /** Traced frames of this thread now on its stack. */
    int depth;
    /** Traced calls of this thread not recorded (limits). */
    long dropped;
    /** Over the rate cap at the last look at the clock; calls since. */
    boolean capped;
    int sinceCapped;
    /**
     * Nanoseconds tiprobe's own work took on this thread inside traced calls (instrumenting a
     * class the call loaded, capturing an argument): a traced call's duration leaves out what
     * grew here while it ran ({@link Call}).
     */
    long ownNanos;
    /** Set while probe code runs code of the program (an argument's toString()). */
    boolean busy;
    /**
     * Set on profiling machinery's threads (tiprobe's and JFR's, by name) and on a thread while it
     * runs the agent's start ({@link ProbeControl#tiprobesWork}): their calls are not the
     * program's, so probes neither count, time nor trace them.
     */
    boolean tiprobes;
    /** The state of {@link #nextRandom}: trace mode's sampling draws without {@code java.util.concurrent}. */
    private long random;
    /** Handed out for calls not recorded, so that their exits still keep the depth right. */
    final Call droppedCall;

    ThreadState(Thread thread, long threadId, String threadName, boolean virtual) {
        this.thread = thread == null ? null : new java.lang.ref.WeakReference<>(thread);
        this.threadId = threadId;
        this.threadName = threadName;
        this.virtual = virtual;
        this.droppedCall = Call.dropped(this);
        this.tiprobes = machinery(threadName);
        this.random = (threadId + 1) * 0x9E3779B97F4A7C15L ^ System.nanoTime();
        if (random == 0) random = 1;
    }

    /**
     * A pseudo-random number in [0, bound) (bound at least 1), from a xorshift generator of this
     * thread's own: probe code may not call ThreadLocalRandom, a class of {@code java.util.concurrent}
     * that a user may trace.
     */
    long nextRandom(long bound) {
        long x = random;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        random = x;
        return ((x * 0x2545F4914F6CDD1DL) >>> 1) % bound;
    }

    /** See {@link ProbeControl#machinery}. */
    static boolean machinery(String threadName) {
        return threadName != null && (threadName.startsWith("tiprobe-") || threadName.startsWith("JFR ")
                || threadName.equals("Attach Listener"));
    }

    /** Slots per chunk, and how a slot splits into chunk and index. */
    static final int SHIFT = 6;
    static final int SLOTS = 1 << SHIFT;
    static final int MASK = SLOTS - 1;

    /** The chunk of counts holding {@code slot}, made if needed. */
    long[] countsOf(int slot) {
        int k = slot >>> SHIFT;
        if (k >= counts.length) counts = roomFor(counts, k);
        long[] c = counts[k];
        return c != null ? c : (counts[k] = new long[SLOTS]);
    }

    /** The chunk of time figures holding {@code slot}, made if needed. */
    long[] timesOf(int slot) {
        int k = slot >>> SHIFT;
        if (k >= times.length) times = roomFor(times, k);
        long[] t = times[k];
        return t != null ? t : (times[k] = new long[SLOTS * Probe.TIME_STRIDE]);
    }

    /** {@code chunks} grown to hold chunk {@code k}, doubling so that growth stays rare. */
    private static long[][] roomFor(long[][] chunks, int k) {
        long[][] bigger = new long[Math.max(k + 1, chunks.length * 2)][];
        System.arraycopy(chunks, 0, bigger, 0, chunks.length);
        return bigger;
    }

    /** The chunk of time figures holding {@code slot}, or null when none of its slots ran here. */
    long[] timesIfAny(int slot) {
        int k = slot >>> SHIFT;
        return k < times.length ? times[k] : null;
    }

    /** Whether its thread has ended: nothing writes to it any more, so its figures can be moved. */
    boolean ended() {
        if (thread == null) return false;
        Thread t = thread.get();
        return t == null || !t.isAlive();
    }

    /**
     * Adds the time figures at {@code i} of {@code from} (one slot's {@link Probe#TIME_STRIDE}
     * longs) to those at {@code at} of {@code into}.
     */
    static void add(long[] into, int at, long[] from, int i) {
        long count = from[i + Probe.CALLS_AT];
        if (count == 0) return;
        addSummary(into, at, count, from[i + Probe.TOTAL_AT], from[i + Probe.MIN_AT], from[i + Probe.MAX_AT]);
        for (int b = Probe.BUCKETS_AT; b < Probe.TIME_STRIDE; b++) into[at + b] += from[i + b];
    }

    /** Adds a slot's calls, total, min and max (its figures but the histogram) to those at {@code at} of {@code into}. */
    static void addSummary(long[] into, int at, long calls, long total, long min, long max) {
        into[at + Probe.MIN_AT] = into[at + Probe.CALLS_AT] == 0 ? min : Math.min(into[at + Probe.MIN_AT], min);
        into[at + Probe.CALLS_AT] += calls;
        into[at + Probe.TOTAL_AT] += total;
        into[at + Probe.MAX_AT] = Math.max(into[at + Probe.MAX_AT], max);
    }

    /** Zeroes the figures of {@code slot}, which a method of an unloaded class held: the slot is given to another. */
    void clear(int slot) {
        int k = slot >>> SHIFT;
        if (k < counts.length && counts[k] != null) counts[k][slot & MASK] = 0;
        long[] t = timesIfAny(slot);
        int i = (slot & MASK) * Probe.TIME_STRIDE;
        if (t != null) java.util.Arrays.fill(t, i, i + Probe.TIME_STRIDE, 0L);
    }

    /**
     * Drops the chunks of {@code freeChunks} (chunks none of whose slots stands for a method): no
     * code of theirs runs, and a slot handed out again later gets a fresh chunk when it first runs.
     */
    void drop(java.util.BitSet freeChunks) {
        for (int k = freeChunks.nextSetBit(0); k >= 0 && k < Math.max(counts.length, times.length); k = freeChunks.nextSetBit(k + 1)) {
            if (k < counts.length) counts[k] = null;
            if (k < times.length) times[k] = null;
        }
    }

    /** Zeroes the totals for a new session (the owner may race; a session starts before probes run). */
    void clear() {
        counts = new long[0][];
        times = new long[0][];
        depth = 0;
        dropped = 0;
        capped = false;
    }
}
