package bench.target;

import org.openjdk.jmh.annotations.CompilerControl;

import java.util.concurrent.locks.ReentrantLock;

/**
 * The lock benchmark's workload on a {@code ReentrantLock}: threads take turns in it, each doing
 * a little work inside; a thread that finds it held parks, as {@code java.util.concurrent} does.
 *
 * <p>Run as a program ({@code ContendedLock <threads> <rounds each>}) it does a fixed amount of
 * that work and ends, so that what a profiler costs is read as the process's CPU time (JMH's
 * throughput is not: recording a park delays the wake-up, and the holder retakes the lock without
 * a hand-off).
 */
public final class ContendedLock {
    private ContendedLock() {}

    private static final ReentrantLock LOCK = new ReentrantLock();
    private static long shared;

    public static void main(String[] args) throws InterruptedException {
        int threads = Integer.parseInt(args[0]);
        long rounds = Long.parseLong(args[1]);
        long began = System.nanoTime();
        Thread[] all = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            long seed = t;
            all[t] = Thread.ofPlatform().start(() -> {
                long x = seed;
                for (long i = 0; i < rounds; i++) x = round(x);
            });
        }
        for (Thread t : all) t.join();
        System.out.printf("%d rounds in %d ms%n", threads * rounds, (System.nanoTime() - began) / 1_000_000);
    }

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
