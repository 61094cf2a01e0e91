package bench.target;

/**
 * {@link Busy} on two threads for the given seconds, then the operations done: a program that
 * keeps both cores busy, for measuring outside JMH what a profiler's own threads take from it
 * ({@code scripts/compare/thread-cpu.sh}). A second argument parks that many threads beside them
 * for the whole run, as SamplingBench's {@code parked} does (a server's idle pool). It prints the
 * operations done and the CPU milliseconds the two threads used.
 */
public final class Spin {
    private Spin() {}

    /** Starts {@code count} daemon threads, {@code parked-<i>}, parked for good: a server's idle pool. */
    public static void park(int count) {
        for (int i = 0; i < count; i++) {
            Thread.ofPlatform().daemon().name("parked-" + i).start(() -> {
                while (true) java.util.concurrent.locks.LockSupport.park();
            });
        }
    }

    public static void main(String[] args) throws InterruptedException {
        long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        park(args.length > 1 ? Integer.parseInt(args[1]) : 0);
        long[] ops = new long[2];
        long[] cpuNanos = new long[2];
        Thread[] threads = new Thread[2];
        for (int i = 0; i < threads.length; i++) {
            int k = i;
            threads[i] = new Thread(() -> {
                long seed = 42;
                long n = 0;
                while (System.nanoTime() < end) {
                    seed = Busy.outer(seed);
                    n++;
                }
                ops[k] = n + (seed == 7 ? 1 : 0);  // uses the seed, so the work stays
                cpuNanos[k] = java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            }, "spin-" + i);
            threads[i].start();
        }
        for (Thread t : threads) t.join();
        // The work per CPU second of the two threads: what a profiler costs them in their own time (signal handlers, stops).
        System.out.println("ops " + (ops[0] + ops[1]) + " cpu-ms " + (cpuNanos[0] + cpuNanos[1]) / 1_000_000);
    }
}
