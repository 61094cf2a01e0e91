package dev.tiprobe.probe;

import java.lang.invoke.MethodHandle;

/**
 * Time mode's clock, chosen once per JVM by the agent before the first timed call: the CPU's
 * time-stamp counter where the agent could make a reader for it (about half the cost of
 * {@code System.nanoTime()} a read), else {@code System.nanoTime()}. Timed calls record ticks;
 * {@link ProbeControl#timeFigures} turns them into nanoseconds with the rate measured since the
 * choice, so no call pays for a conversion.
 */
final class Clock {
    private Clock() {}

    /** The agent's choice (null: nanoTime), read once, when {@link Fixed} initializes. */
    static volatile MethodHandle chosen;
    /** Set when the choice is fixed: later choices change nothing. */
    static volatile boolean fixed;

    /** The clock as the JIT sees it: constants, so a read costs the read and nothing else. */
    static final class Fixed {
        private Fixed() {}

        static final MethodHandle READER = chosen;
        static final long START_TICKS;
        static final long START_NANOS;

        static {
            fixed = true;
            long ticks;
            try {
                ticks = READER == null ? System.nanoTime() : (long) READER.invokeExact();
            } catch (Throwable t) {
                ticks = 0;
            }
            START_TICKS = ticks;
            START_NANOS = System.nanoTime();
            try {
                now();  // links now()'s call of the reader before a probe makes that first call (see Probe)
            } catch (Throwable t) {
                // the reader failed above too; now() will fail the same way in a probe, which counts it
            }
        }
    }

    /** Now, in the clock's ticks. */
    static long now() throws Throwable {
        MethodHandle r = Fixed.READER;
        return r == null ? System.nanoTime() : (long) r.invokeExact();
    }

    /** Ticks per nanosecond: 1 for nanoTime; for the counter, measured since the choice (over 10 ms at least). */
    static double ticksPerNanosecond() {
        if (Fixed.READER == null) return 1;
        try {
            long elapsed = System.nanoTime() - Fixed.START_NANOS;
            if (elapsed < 10_000_000) Thread.sleep((10_000_000 - elapsed) / 1_000_000 + 1);
            long ticks = now() - Fixed.START_TICKS;
            return (double) ticks / (System.nanoTime() - Fixed.START_NANOS);
        } catch (Throwable t) {
            return 1;
        }
    }

    /** {@code time-stamp counter (2.596 ticks/ns)} or {@code System.nanoTime()}. */
    static String describe() {
        return Fixed.READER == null ? "System.nanoTime()" : String.format("time-stamp counter (%.3f ticks/ns)", ticksPerNanosecond());
    }
}
