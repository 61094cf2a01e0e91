package bench.target;

import org.openjdk.jmh.annotations.CompilerControl;

/** A CPU-bound workload with a few levels of calls, for the sampling benchmark. */
public final class Busy {
    private Busy() {}

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public static long outer(long seed) {
        long x = seed;
        for (int i = 0; i < 64; i++) x = middle(x);
        return x;
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static long middle(long x) {
        return inner(x) ^ (x >>> 7);
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static long inner(long x) {
        for (int i = 0; i < 16; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        return x;
    }
}
