package bench.target;

/**
 * {@link Busy} on two threads for the given seconds, then the operations done: a program that
 * keeps both cores busy, for measuring outside JMH what a profiler's own threads take from it
 * ({@code scripts/compare/thread-cpu.sh}).
 */
public final class Spin {
    private Spin() {}

    public static void main(String[] args) throws InterruptedException {
        long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        long[] ops = new long[2];
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
            }, "spin-" + i);
            threads[i].start();
        }
        for (Thread t : threads) t.join();
        System.out.println("ops " + (ops[0] + ops[1]));
    }
}
