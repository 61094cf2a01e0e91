package example.known;

import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * Threads that hand work to each other, so that much of the program's CPU goes to parking and
 * waking threads ({@code Unsafe.park}, {@code unpark}, and the kernel's futex under them), beside
 * one thread of plain Java work: what a CPU profile shows of hand-offs, which JFR's CPU-time
 * sampler keeps no stack of (docs/sampling.md).
 *
 * <p>Usage: {@code HandOffs [pairs]} (default 3): that many pairs of threads taking turns, each
 * turn a moment of work and a wake-up of the other; a producer and a consumer on a {@code
 * SynchronousQueue}; a busy thread. Prints {@code ready} and runs until killed.
 */
public class HandOffs {
    static volatile long sink;

    /** Two threads taking turns: {@code turn} 0 is the first's. */
    static final class Pair {
        volatile Thread first, second;
        volatile int turn;
    }

    public static void main(String[] args) throws Exception {
        int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        for (int p = 0; p < pairs; p++) {
            Pair pair = new Pair();
            pair.first = daemon("ping-" + p, () -> takeTurns(pair, 0));
            pair.second = daemon("pong-" + p, () -> takeTurns(pair, 1));
            pair.first.start();
            pair.second.start();
        }
        SynchronousQueue<Integer> queue = new SynchronousQueue<>();
        daemon("producer", () -> {
            try {
                for (int i = 0; ; i++) queue.put(i);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }).start();
        daemon("consumer", () -> {
            try {
                for (;;) sink += queue.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }).start();
        daemon("busy", () -> {
            long x = 1;
            for (;;) x = work(x, 100_000);
        }).start();
        System.out.println("ready");
        Thread.sleep(Long.MAX_VALUE);
    }

    private static Thread daemon(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        return t;
    }

    static void takeTurns(Pair pair, int me) {
        Thread other = me == 0 ? pair.second : pair.first;
        long x = me;
        for (;;) {
            while (pair.turn != me) LockSupport.park(pair);
            x = work(x, 200);
            pair.turn = 1 - me;
            LockSupport.unpark(other);
        }
    }

    static long work(long x, int rounds) {
        for (int i = 0; i < rounds; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        sink = x;
        return x;
    }
}
