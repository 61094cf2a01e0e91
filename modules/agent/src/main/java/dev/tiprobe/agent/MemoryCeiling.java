package dev.tiprobe.agent;

/**
 * The agent's own memory in the application's heap against its ceiling ({@code maxmemory}),
 * looked at once a second. A profiler lives in someone else's heap: past the ceiling the session
 * sheds what grows with the program (tracing instruments no new class, the ID map forgets
 * unloaded classes' tokens at once instead of after a few seconds) until it is back under
 * {@link #RESUME_BELOW} of it; if it stays over for {@link #GRACE_NANOS}, or grows past half as
 * much again ({@link #HARD_LIMIT}), the session stops itself with its recording finished, rather
 * than grow on toward an {@code OutOfMemoryError} of the application's. Native memory (a scratch
 * buffer per thread that met JVMTI) is reported beside it, not held to it: it is not the heap's,
 * and nothing the session could shed would lower it.
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
    /** Under this share of its ceiling again, a session that shed goes back to instrumenting new classes. */
    static final double RESUME_BELOW = 0.8;

    /** What the agent holds: in the application's heap, and in native memory of its own. */
    record Footprint(long heapBytes, long nativeBytes) {
        /** {@code about 14.2 MB of heap and 160 KB native}. */
        String text() {
            return "about " + megabytes(heapBytes) + " of heap and " + (nativeBytes >> 10) + " KB native";
        }
    }

    /** What a look asks of the session: nothing, to shed, to take up what it shed, or to stop. */
    enum Step { WITHIN, SHED, RESUME, STOP }

    private final long ceilingBytes;
    private long overSinceNanos = -1;
    private boolean shed;
    private Footprint last = new Footprint(0, 0);

    MemoryCeiling(long ceilingBytes) {
        if (ceilingBytes < 1) throw new IllegalArgumentException("the memory ceiling must be positive: " + ceilingBytes);
        this.ceilingBytes = ceilingBytes;
    }

    /**
     * Looks at {@code now}'s footprint: {@link Step#SHED} when its heap goes over the ceiling,
     * {@link Step#RESUME} once it is back under {@link #RESUME_BELOW} of it, {@link Step#STOP} when it
     * stayed over for {@link #GRACE_NANOS} since it first went over, or at once past {@link #HARD_LIMIT}.
     */
    Step look(Footprint footprint, long nowNanos) {
        last = footprint;
        long heap = footprint.heapBytes();
        if (heap > ceilingBytes * HARD_LIMIT) return Step.STOP;
        if (heap <= ceilingBytes) {
            overSinceNanos = -1;
            if (shed && heap < ceilingBytes * RESUME_BELOW) {
                shed = false;
                return Step.RESUME;
            }
            return Step.WITHIN;
        }
        if (overSinceNanos < 0) overSinceNanos = nowNanos;
        if (!shed) {
            shed = true;
            return Step.SHED;
        }
        return nowNanos - overSinceNanos >= GRACE_NANOS ? Step.STOP : Step.WITHIN;
    }

    /** Whether the session is shedding now (instrumenting no new class). */
    boolean shed() {
        return shed;
    }

    /** {@code tiprobe's memory: about 14.2 MB of heap and 160 KB native, ceiling 32 MB}, from the last look. */
    String text() {
        return "tiprobe's memory: " + last.text() + ", ceiling " + megabytes(ceilingBytes) + " of heap" + (shed ? " (passed: no new class instrumented)" : "");
    }

    /** Why the session stopped itself, once {@link #look} said {@link Step#STOP}. */
    String whyStopped() {
        return "tiprobe's own memory (" + last.text() + ") " + (last.heapBytes() > ceilingBytes * HARD_LIMIT ? "went far" : "stayed")
                + " over its ceiling of " + megabytes(ceilingBytes) + " (--max-memory)";
    }

    private static String megabytes(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MB", bytes / 1048576.0);
    }
}
