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
    /** {@link Probe#TIME_STRIDE} longs for each slot an ended thread ran in time mode; null elsewhere. */
    long[][] times = new long[0][];
    /** Traced calls the ended threads did not record. */
    long dropped;

    /** Adds an ended thread's figures and empties it, chunk by chunk: one that fails midway keeps what it did not move. */
    void absorb(ThreadState ended) {
        for (int k = 0; k < ended.counts.length; k++) {
            long[] c = ended.counts[k];
            if (c == null) continue;
            int first = k << ThreadState.SHIFT;
            for (int i = 0; i < ThreadState.SLOTS; i++) {
                if (c[i] == 0) continue;
                if (first + i >= counts.length) counts = java.util.Arrays.copyOf(counts, Math.max(first + i + 1, counts.length * 2));
                counts[first + i] += c[i];
            }
            ended.counts[k] = null;
        }
        for (int k = 0; k < ended.times.length; k++) {
            long[] t = ended.times[k];
            if (t == null) continue;
            int first = k << ThreadState.SHIFT;
            for (int i = 0; i < ThreadState.SLOTS; i++) {
                if (t[i * Probe.TIME_STRIDE + Probe.CALLS_AT] == 0) continue;
                ThreadState.add(timesOf(first + i), 0, t, i * Probe.TIME_STRIDE);
            }
            ended.times[k] = null;
        }
        dropped += ended.dropped;
        ended.counts = new long[0][];
        ended.times = new long[0][];
        ended.dropped = 0;
    }

    private long[] timesOf(int slot) {
        if (slot >= times.length) times = java.util.Arrays.copyOf(times, Math.max(slot + 1, times.length * 2));
        long[] t = times[slot];
        return t != null ? t : (times[slot] = new long[Probe.TIME_STRIDE]);
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
