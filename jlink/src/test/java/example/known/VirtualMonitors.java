package example.known;

import java.util.ArrayList;
import java.util.List;

/**
 * Virtual threads waiting in monitors, whose waits JFR does not record (JDK 25): {@link #CONTENDERS}
 * of them take turns in one {@link Counter}'s monitor, each holding it 2 ms (sleeping inside, which
 * since JDK 24 lets go of the carrier) and then staying out of it 1 ms, so that the others take
 * turns, each waiting a few milliseconds to enter; {@link #RINGERS} more wait on a {@link Bell}
 * in {@code Object.wait} for 20 ms at a time, never notified.
 *
 * <p>Usage: {@code VirtualMonitors <seconds> [busy]}: prints {@code ready} once the threads run,
 * every 100 ms {@code waited <entering> <in wait>}, the nanoseconds its threads have timed so far in
 * their waits of a millisecond or more to enter the monitor and in {@code Object.wait}, and at the
 * end {@code done <entries>}. With {@code busy}, only the contenders run, each holding the
 * monitor for a moment of work (no sleep), and it ends printing {@code entries per second <n>}: what
 * watching the contentions costs.
 */
public class VirtualMonitors {
    static final int CONTENDERS = 4;
    static final int RINGERS = 4;

    /** The contended monitor's class, so that the lock view names it. */
    static final class Counter {
        long entries;
    }

    /** The monitor waited on, never notified. */
    static final class Bell {}

    static final Counter COUNTER = new Counter();
    static final Bell BELL = new Bell();
    static final java.util.concurrent.atomic.AtomicLong ENTERING = new java.util.concurrent.atomic.AtomicLong();
    static final java.util.concurrent.atomic.AtomicLong IN_WAIT = new java.util.concurrent.atomic.AtomicLong();

    public static void main(String[] args) throws Exception {
        long begin = System.nanoTime();
        long end = begin + (long) (Double.parseDouble(args[0]) * 1e9);
        boolean busy = args.length > 1 && args[1].equals("busy");
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < CONTENDERS; i++) threads.add(Thread.ofVirtual().start(busy ? () -> work(end) : () -> count(end)));
        for (int i = 0; i < (busy ? 0 : RINGERS); i++) threads.add(Thread.ofVirtual().start(() -> listen(end)));
        System.out.println("waited " + ENTERING.get() + " " + IN_WAIT.get());
        System.out.println("ready");
        while (threads.stream().anyMatch(Thread::isAlive)) {
            Thread.sleep(100);
            System.out.println("waited " + ENTERING.get() + " " + IN_WAIT.get());
        }
        System.out.println("done " + COUNTER.entries);
        if (busy) System.out.printf("entries per second %.0f%n", COUNTER.entries / ((System.nanoTime() - begin) / 1e9));
    }

    static long sink;

    static void work(long end) {
        while (System.nanoTime() < end) {
            synchronized (COUNTER) {
                COUNTER.entries++;
                long x = COUNTER.entries;
                for (int i = 0; i < 200; i++) x = x * 6364136223846793005L + 1442695040888963407L;
                sink += x;
            }
        }
    }

    static void count(long end) {
        while (System.nanoTime() < end) {
            long asked = System.nanoTime();
            synchronized (COUNTER) {
                timed(ENTERING, asked);
                COUNTER.entries++;
                sleep(2);
            }
            // out of the monitor a moment: else the one leaving takes it again before the woken one
            // runs, and the others wait for seconds
            sleep(1);
        }
    }

    static void listen(long end) {
        while (System.nanoTime() < end) {
            synchronized (BELL) {
                long asked = System.nanoTime();
                try {
                    BELL.wait(20);
                } catch (InterruptedException e) {
                    return;
                }
                timed(IN_WAIT, asked);
            }
        }
    }

    /** Adds the wait since {@code asked} to {@code total} when it lasted a millisecond or more. */
    private static void timed(java.util.concurrent.atomic.AtomicLong total, long asked) {
        long waited = System.nanoTime() - asked;
        if (waited >= 1_000_000) total.addAndGet(waited);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
