package dev.tiprobe.probe;

/**
 * One thread's counters and trace bookkeeping. Only the owning thread writes it (plain stores);
 * the agent reads it for totals, racing with the owner only while probes still run.
 */
final class ThreadState {
    final long threadId;
    final String threadName;
    final boolean virtual;
    /** Calls per slot. Grown by the owner only. */
    long[] counts = new long[0];
    /** {@link Probe#TIME_STRIDE} longs per slot. Grown by the owner only. */
    long[] times = new long[0];
    /** Traced frames of this thread now on its stack. */
    int depth;
    /** Traced calls of this thread not recorded (limits). */
    long dropped;
    /** Over the rate cap at the last look at the clock; calls since. */
    boolean capped;
    int sinceCapped;
    /** Set while probe code runs code of the program (an argument's toString()). */
    boolean busy;
    /** Handed out for calls not recorded, so that their exits still keep the depth right. */
    final Call droppedCall;

    ThreadState(long threadId, String threadName, boolean virtual) {
        this.threadId = threadId;
        this.threadName = threadName;
        this.virtual = virtual;
        this.droppedCall = Call.dropped(this);
    }

    void growCounts(int slot) {
        if (slot < counts.length) return;
        long[] bigger = new long[Math.max(slot + 1, counts.length * 2)];
        System.arraycopy(counts, 0, bigger, 0, counts.length);
        counts = bigger;
    }

    void growTimes(int slot) {
        int needed = (slot + 1) * Probe.TIME_STRIDE;
        if (needed <= times.length) return;
        long[] bigger = new long[Math.max(needed, times.length * 2)];
        System.arraycopy(times, 0, bigger, 0, times.length);
        times = bigger;
    }

    /** Zeroes the totals for a new session (the owner may race; a session starts before probes run). */
    void clear() {
        counts = new long[0];
        times = new long[0];
        depth = 0;
        dropped = 0;
        capped = false;
    }
}
