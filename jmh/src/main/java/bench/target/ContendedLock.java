package bench.target;

import org.openjdk.jmh.annotations.CompilerControl;

import java.util.concurrent.locks.ReentrantLock;

/**
 * The lock benchmark's workload on a {@code ReentrantLock}: threads take turns in it, each doing
 * a little work inside; a thread that finds it held parks, as {@code java.util.concurrent} does.
 */
public final class ContendedLock {
    private ContendedLock() {}

    private static final ReentrantLock LOCK = new ReentrantLock();
    private static long shared;

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public static long round(long seed) {
        long x = seed;
        for (int i = 0; i < 16; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        LOCK.lock();
        try {
            for (int i = 0; i < 64; i++) shared = shared * 31 + x + i;
            return shared;
        } finally {
            LOCK.unlock();
        }
    }
}
