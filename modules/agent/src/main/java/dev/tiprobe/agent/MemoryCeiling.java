package dev.tiprobe.agent;

/**
 * The agent's own memory against its ceiling ({@code maxmemory}), looked at once a second. A
 * profiler lives in someone else's heap: past the ceiling the session first sheds what grows
 * with the program (tracing instruments no new class, the ID map forgets unloaded classes'
 * tokens at once instead of after ten seconds); if it still stays over for {@link #GRACE_NANOS},
 * or grows past half as much again ({@link #HARD_LIMIT}), the session stops itself with its
 * recording finished, rather than grow on toward an {@code OutOfMemoryError} of the application's.
 *
 * <p>Why a grace of a minute: what the agent keeps for a class goes when the JVM unloads it, and
 * G1 unloads classes only at the end of a marking cycle. A program that makes and drops classes
 * all the time (a script host) has tens of thousands of dead classes between two cycles, and the
 * agent's tables for them, until the next cycle takes both back.
 */
final class MemoryCeiling {
    /** How long the session may stay over its ceiling after shedding before it stops itself. */
    static final long GRACE_NANOS = 60_000_000_000L;
    /** Over this many times its ceiling, the session stops at once. */
    static final double HARD_LIMIT = 1.5;

    /** What the agent holds: in the application's heap, and in native memory of its own. */
    record Footprint(long heapBytes, long nativeBytes) {
        long total() {
            return heapBytes + nativeBytes;
        }

        /** {@code about 14.2 MB of heap and 160 KB native}. */
        String text() {
            return "about " + megabytes(heapBytes) + " of heap and " + (nativeBytes >> 10) + " KB native";
        }
    }

    /** What a look asks of the session. */
    enum Step { WITHIN, SHED, STOP }

    private final long ceilingBytes;
    private long overSinceNanos = -1;
    private boolean shed;
    private Footprint last = new Footprint(0, 0);

    MemoryCeiling(long ceilingBytes) {
        if (ceilingBytes < 1) throw new IllegalArgumentException("the memory ceiling must be positive: " + ceilingBytes);
        this.ceilingBytes = ceilingBytes;
    }

    /**
     * Looks at {@code now}'s footprint: {@link Step#SHED} the first time it is over, {@link Step#STOP}
     * once it stayed over after that, or at once past {@link #HARD_LIMIT}.
     */
    Step look(Footprint footprint, long nowNanos) {
        last = footprint;
        if (footprint.total() > ceilingBytes * HARD_LIMIT) return Step.STOP;
        if (footprint.total() <= ceilingBytes) {
            overSinceNanos = -1;
            return Step.WITHIN;
        }
        if (!shed) {
            shed = true;
            overSinceNanos = nowNanos;
            return Step.SHED;
        }
        if (overSinceNanos < 0) overSinceNanos = nowNanos;
        return nowNanos - overSinceNanos >= GRACE_NANOS ? Step.STOP : Step.WITHIN;
    }

    /** Whether the session has shed (and goes on without instrumenting new classes). */
    boolean shed() {
        return shed;
    }

    /** {@code tiprobe's memory: about 14.2 MB of heap and 160 KB native, ceiling 32 MB}, from the last look. */
    String text() {
        return "tiprobe's memory: " + last.text() + ", ceiling " + megabytes(ceilingBytes) + (shed ? " (passed: no new class instrumented)" : "");
    }

    /** Why the session stopped itself, once {@link #look} said {@link Step#STOP}. */
    String whyStopped() {
        return "tiprobe's own memory (" + last.text() + ") " + (last.total() > ceilingBytes * HARD_LIMIT ? "went far" : "stayed")
                + " over its ceiling of " + megabytes(ceilingBytes) + " (--max-memory)";
    }

    private static String megabytes(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MB", bytes / 1048576.0);
    }
}
