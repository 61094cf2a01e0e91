package dev.tiprobe.probe;

/**
 * The figures of platform threads that ended, summed, by slot: a program that starts a thread
 * per task keeps one set, not one per thread it ever ran. Per slot, not in chunks of
 * {@link ThreadState#SLOTS} slots as a live thread's: under class churn the slots still in use
 * are scattered among the thousands handed out, and a chunk kept for one slot of its 64 held
 * 22 KiB of time figures (3.5 MB for the 930 slots in use after ten minutes of Groovy scripts).
 * Only the agent touches it, holding {@code Probe.LOCK}.
 */
final class EndedThreads {
    /** Calls by slot (count and trace mode); grown to the highest slot an ended thread ran. */
    long[] counts = new long[0];
    /** The figures of each slot an ended thread ran in time mode, packed ({@link #pack}); null elsewhere. */
    long[][] times = new long[0][];
    /** Traced calls the ended threads did not record. */
    long dropped;

    /**
     * Adds an ended thread's figures and empties it, chunk by chunk: each chunk's new arrays are
     * made before any of its figures is added, so one that fails midway (out of memory) has added
     * nothing of that chunk, which stays with the thread for the next fold.
     */
    void absorb(ThreadState ended) {
        for (int k = 0; k < ended.counts.length; k++) {
            long[] c = ended.counts[k];
            if (c == null) continue;
            int first = k << ThreadState.SHIFT;
            int end = first + ThreadState.SLOTS;
            if (end > counts.length) counts = java.util.Arrays.copyOf(counts, Math.max(end, counts.length * 2));
            for (int i = 0; i < ThreadState.SLOTS; i++) counts[first + i] += c[i];
            ended.counts[k] = null;
        }
        for (int k = 0; k < ended.times.length; k++) {
            long[] t = ended.times[k];
            if (t == null) continue;
            int first = k << ThreadState.SHIFT;
            int end = first + ThreadState.SLOTS;
            if (end > times.length) times = java.util.Arrays.copyOf(times, Math.max(end, times.length * 2));
            long[][] sums = new long[ThreadState.SLOTS][];
            for (int i = 0; i < ThreadState.SLOTS; i++) {
                if (t[i * Probe.TIME_STRIDE + Probe.CALLS_AT] == 0) continue;
                long[] sum = new long[Probe.TIME_STRIDE];
                addTo(first + i, sum, 0);
                ThreadState.add(sum, 0, t, i * Probe.TIME_STRIDE);
                sums[i] = pack(sum);
            }
            for (int i = 0; i < ThreadState.SLOTS; i++) if (sums[i] != null) times[first + i] = sums[i];
            ended.times[k] = null;
        }
        dropped += ended.dropped;
        ended.counts = new long[0][];
        ended.times = new long[0][];
        ended.dropped = 0;
    }

    /** Where a packed slot's mask of the buckets that hold calls is, and the first of their counts. */
    private static final int MASK_AT = Probe.BUCKETS_AT;
    private static final int COUNTS_AT = MASK_AT + 1;

    /**
     * One slot's figures ({@link Probe#TIME_STRIDE} longs) packed: calls, total, min and max as
     * they are, then a mask of the histogram buckets that hold any call and those buckets' counts
     * in order. A method's calls fall in a few of the 40 buckets: under churn, each traced method
     * that ran on a thread since ended kept 368 bytes here, most of them zeros; packed, about 90.
     */
    static long[] pack(long[] figures) {
        long mask = 0;
        for (int b = 0; b < Probe.BUCKETS; b++) if (figures[Probe.BUCKETS_AT + b] != 0) mask |= 1L << b;
        long[] packed = new long[COUNTS_AT + Long.bitCount(mask)];
        System.arraycopy(figures, 0, packed, 0, Probe.BUCKETS_AT);
        packed[MASK_AT] = mask;
        int j = COUNTS_AT;
        for (long m = mask; m != 0; m &= m - 1) packed[j++] = figures[Probe.BUCKETS_AT + Long.numberOfTrailingZeros(m)];
        return packed;
    }

    /** Adds {@code slot}'s figures to {@code into} at {@code at} ({@link Probe#TIME_STRIDE} longs there), as {@link ThreadState#add} does. */
    void addTo(int slot, long[] into, int at) {
        long[] p = slot < times.length ? times[slot] : null;
        if (p == null || p[Probe.CALLS_AT] == 0) return;
        ThreadState.addSummary(into, at, p[Probe.CALLS_AT], p[Probe.TOTAL_AT], p[Probe.MIN_AT], p[Probe.MAX_AT]);
        int j = COUNTS_AT;
        for (long m = p[MASK_AT]; m != 0; m &= m - 1) into[at + Probe.BUCKETS_AT + Long.numberOfTrailingZeros(m)] += p[j++];
    }

    /** The calls of {@code slot}: counted at entry, or at the exits in time mode ({@code timed}). */
    long calls(int slot, boolean timed) {
        if (!timed) return slot < counts.length ? counts[slot] : 0;
        long[] t = slot < times.length ? times[slot] : null;
        return t == null ? 0 : t[Probe.CALLS_AT];
    }

    /** Forgets {@code slot}'s figures: a method of an unloaded class held it, and it goes to another. */
    void clear(int slot) {
        if (slot < counts.length) counts[slot] = 0;
        if (slot < times.length) times[slot] = null;
    }

    /** Forgets everything, for a new session. */
    void clear() {
        counts = new long[0];
        times = new long[0][];
        dropped = 0;
    }

    /** What it takes in the heap, in bytes. */
    long bytes() {
        long bytes = 16L + 8L * counts.length + 16L + 4L * times.length;
        for (long[] t : times) if (t != null) bytes += 16L + 8L * t.length;
        return bytes;
    }
}
