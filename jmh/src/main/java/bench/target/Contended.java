package bench.target;

import org.openjdk.jmh.annotations.CompilerControl;

/** A contended workload for the lock benchmark: threads take turns in one monitor, each doing a little work inside. */
public final class Contended {
    private Contended() {}

    private static final Object LOCK = new Object();
    private static long shared;

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public static long round(long seed) {
        long x = seed;
        for (int i = 0; i < 16; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        synchronized (LOCK) {
            for (int i = 0; i < 64; i++) shared = shared * 31 + x + i;
            return shared;
        }
    }
}
