package dev.tiprobe.agent.alloc;

/**
 * Keeps what allocation sampling costs under a share of the CPU the program itself uses, by
 * choosing the sampling interval. Each sample costs about the same, so the cost follows the sample
 * rate, which follows the program's allocation rate divided by the interval: a program allocating
 * 12 GB/s gives 24,000 samples a second at 512 KiB, a sixth of two cores. Pure arithmetic over
 * what it is shown; the allocation engine looks every half second and sets the interval it returns.
 *
 * <p>A sample's cost is the estimate {@link #NANOS_PER_SAMPLE}, not a clock read around each
 * callback: a callback's wall time counts the moments its thread was descheduled (on a busy
 * machine, most of it), and the first samples run through cold code for a second or so, either of
 * which would widen the interval for good reasons that are not the program's.
 *
 * <p>The interval is only ever the one asked for times a power of two, so a report can say what
 * it was; a sample weighs by the interval in force when it was taken, so the views' bytes stay
 * right. Over the budget, the interval rises at once by as many doublings as the excess needs;
 * it comes back down one halving at a time, after two looks in a row at which a halving would
 * still cost under half the budget, so it does not swing.
 */
final class IntervalBudget {
    /**
     * What one sample costs the program: the callback (JVMTI's event and the stack walk, about
     * 10 µs), writing it (2 µs) and collecting what both leave behind (1 µs), as a CPU profile of
     * AllocBench's workload showed them on a 2-core x86-64 machine; rounded up.
     */
    static final long NANOS_PER_SAMPLE = 15_000;
    /** Below this many nanoseconds of sampling per second (1 % of one core), the interval is never raised. */
    static final long FLOOR_NANOS_PER_SECOND = 10_000_000;
    /** The widest interval: 1 GiB (JVMTI takes an int). */
    static final long MAX_INTERVAL = 1L << 30;

    private final double share;
    private final long asked;
    private long interval;
    private long lastNanos = -1;
    private long lastSamples;
    private long lastCpuNanos;
    private int cheapLooks;

    /**
     * @param share  the most sampling may cost, as a share of the program's own CPU (0.02: 2 %; 0: no limit)
     * @param asked  the interval asked for, in bytes
     */
    IntervalBudget(double share, long asked) {
        this.share = share;
        this.asked = asked;
        this.interval = asked;
    }

    long interval() {
        return interval;
    }

    /**
     * One look at {@code nowNanos}: the samples taken so far and the process's CPU time so far.
     * Returns the interval to sample at from now.
     */
    long look(long nowNanos, long samples, long processCpuNanos) {
        if (share > 0 && lastNanos >= 0 && nowNanos > lastNanos) {
            double seconds = (nowNanos - lastNanos) / 1e9;
            double cost = (double) (samples - lastSamples) * NANOS_PER_SAMPLE / seconds;
            double programCpu = Math.max(0, (processCpuNanos - lastCpuNanos) / seconds - cost);
            double allowed = Math.max(FLOOR_NANOS_PER_SECOND, share * programCpu);
            if (cost > allowed) {
                int doublings = Math.max(1, (int) Math.ceil(Math.log(cost / allowed) / Math.log(2)));
                while (doublings-- > 0 && interval < MAX_INTERVAL) interval <<= 1;
                cheapLooks = 0;
            } else if (interval > asked && cost * 2 < allowed / 2) {
                if (++cheapLooks >= 2) {
                    interval >>= 1;
                    cheapLooks = 0;
                }
            } else {
                cheapLooks = 0;
            }
        }
        lastNanos = nowNanos;
        lastSamples = samples;
        lastCpuNanos = processCpuNanos;
        return interval;
    }
}
