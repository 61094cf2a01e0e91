package example.known;

import jdk.jfr.FlightRecorder;
import jdk.jfr.RecordingState;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Known {@code java.util.concurrent} waits, for the lock and wait views and the deadlock report.
 *
 * <p>Usage: {@code JucLocks <case> [seconds]}, printing {@code ready} once its threads run:
 * <ul>
 *   <li>{@code contended}: four threads each enter a shared monitor four times in {@code tally},
 *   held 5 ms, then take a shared {@code ReentrantLock} in {@code ledgerWork}, held 20 ms: the
 *   threads not holding the lock contend for the monitor meanwhile, so both are contended. The
 *   threads time their own waits: it ends printing {@code done <entries> late <n> from <t>}, the
 *   number of their waits of 5 ms or more that ended in its last half second, from epoch
 *   nanosecond {@code t}. {@code contended-to-the-end}: the same, and once a JFR recording runs
 *   (JFR records a wait only if it began while recording), thread {@code latecomer} waits to enter
 *   a monitor that {@code main} lets go only as it ends.</li>
 *   <li>{@code deadlock-lock}: threads {@code left} and {@code right} take two {@code
 *   ReentrantLock}s in opposite orders and deadlock; {@code deadlock-monitor}: the same with two
 *   monitors. Each prints {@code deadlocked} once both wait, and stays so.</li>
 *   <li>{@code initializers}: a virtual thread initializing {@code Pinned} waits in its static
 *   initializer for the ledger's {@code ReentrantLock}, which a holder keeps 300 ms at a time (a
 *   park the initializer pins to its carrier); and thread {@code user} needs {@code Slow}, which
 *   thread {@code first} is initializing for 300 ms. Prints {@code done} once both are through.</li>
 *   <li>{@code queues}: consumers wait on a queue's {@code take} and a condition's {@code await}
 *   that a producer feeds every 100 ms: waits, and no lock contended.</li>
 * </ul>
 */
public class JucLocks {
    static final ReentrantLock LEDGER = new ReentrantLock();
    static final Object TALLY = new Object();
    static long entries;

    /** When the last half second of {@code contended} began, in nanoseconds since the epoch; until then the largest long. */
    static volatile long lateFrom = Long.MAX_VALUE;
    static final AtomicInteger lateWaits = new AtomicInteger();

    static void ledgerWork() throws InterruptedException {
        long asked = System.nanoTime();
        LEDGER.lock();
        waited(asked);
        try {
            Thread.sleep(20);
            entries++;
        } finally {
            LEDGER.unlock();
        }
    }

    static void tally() throws InterruptedException {
        long asked = System.nanoTime();
        synchronized (TALLY) {
            waited(asked);
            Thread.sleep(5);
            entries++;
        }
    }

    public static void main(String[] args) throws Exception {
        String which = args[0];
        long seconds = args.length > 1 ? Long.parseLong(args[1]) : 600;
        switch (which) {
            case "contended" -> contended(seconds, false);
            case "contended-to-the-end" -> contended(seconds, true);
            case "deadlock-lock" -> deadlock(true);
            case "deadlock-monitor" -> deadlock(false);
            case "initializers" -> initializers();
            case "queues" -> queues(seconds);
            default -> throw new IllegalArgumentException(which);
        }
    }

    static void contended(long seconds, boolean latecomer) throws Exception {
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            threads.add(Thread.ofPlatform().name("clerk-" + i).start(() -> {
                try {
                    while (!Thread.currentThread().isInterrupted()) {
                        for (int k = 0; k < 4; k++) tally();
                        ledgerWork();
                    }
                } catch (InterruptedException e) {
                    // done
                }
            }));
        }
        Object gate = new Object();
        Thread waitsToTheEnd;
        synchronized (gate) {
            waitsToTheEnd = Thread.ofPlatform().name("latecomer").unstarted(() -> {
                synchronized (gate) {
                    entries++;
                }
            });
            if (latecomer) {
                awaitRecording();
                waitsToTheEnd.start();
            }
            System.out.println("ready");
            Thread.sleep(Math.max(0, seconds * 1000 - 500));
            lateFrom = epochNanos();
            Thread.sleep(500);
            for (Thread t : threads) t.interrupt();
            for (Thread t : threads) t.join();
        }
        if (latecomer) waitsToTheEnd.join();
        System.out.println("done " + entries + " late " + lateWaits + " from " + lateFrom);
    }

    /** Waits, up to 30 s, until a JFR recording runs in this JVM (tiprobe's, under {@code tiprobe run}). */
    static void awaitRecording() throws InterruptedException {
        for (int i = 0; i < 3000; i++) {
            if (FlightRecorder.isInitialized()
                    && FlightRecorder.getFlightRecorder().getRecordings().stream().anyMatch(r -> r.getState() == RecordingState.RUNNING)) {
                return;
            }
            Thread.sleep(10);
        }
        System.err.println("no JFR recording ran within 30 s");
    }

    /**
     * Counts a wait that began at {@code asked} (a nanoTime) and ends now, if it took 5 ms or more
     * and ends late: a thread preempted on a busy machine between the clock and the lock would
     * count a shorter one that no lock made.
     */
    static void waited(long asked) {
        if (System.nanoTime() - asked >= 5_000_000 && epochNanos() >= lateFrom) lateWaits.incrementAndGet();
    }

    static long epochNanos() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    static void deadlock(boolean locks) throws Exception {
        CountDownLatch bothHoldOne = new CountDownLatch(2);
        ReentrantLock first = new ReentrantLock();
        ReentrantLock second = new ReentrantLock();
        Object firstMonitor = new Object();
        Object secondMonitor = new Object();
        Thread left = Thread.ofPlatform().name("left").start(() -> {
            if (locks) takeInTurn(first, second, bothHoldOne);
            else enterInTurn(firstMonitor, secondMonitor, bothHoldOne);
        });
        Thread right = Thread.ofPlatform().name("right").start(() -> {
            if (locks) takeInTurn(second, first, bothHoldOne);
            else enterInTurn(secondMonitor, firstMonitor, bothHoldOne);
        });
        System.out.println("ready");
        while (left.getState() == Thread.State.RUNNABLE || right.getState() == Thread.State.RUNNABLE
                || bothHoldOne.getCount() > 0) {
            Thread.sleep(10);
        }
        System.out.println("deadlocked");
        left.join();
    }

    static void takeInTurn(ReentrantLock mine, ReentrantLock theirs, CountDownLatch bothHoldOne) {
        mine.lock();
        try {
            bothHoldOne.countDown();
            awaitQuietly(bothHoldOne);
            theirs.lock();
            theirs.unlock();
        } finally {
            mine.unlock();
        }
    }

    static void enterInTurn(Object mine, Object theirs, CountDownLatch bothHoldOne) {
        synchronized (mine) {
            bothHoldOne.countDown();
            awaitQuietly(bothHoldOne);
            synchronized (theirs) {
                entries++;
            }
        }
    }

    static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Its initializer waits for the ledger, pinning its virtual thread. */
    static final class Pinned {
        static {
            LEDGER.lock();
            LEDGER.unlock();
        }

        static void touch() {}
    }

    /** Its initializer takes 300 ms. */
    static final class Slow {
        static {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        static void touch() {}
    }

    static void useSlow() {
        Slow.touch();
    }

    static void initializers() throws Exception {
        System.out.println("ready");
        Thread.sleep(2_000);  // the recording has begun
        CountDownLatch held = new CountDownLatch(1);
        Thread holder = Thread.ofPlatform().name("holder").start(() -> {
            LEDGER.lock();
            try {
                held.countDown();
                Thread.sleep(300);
            } catch (InterruptedException e) {
                // done
            } finally {
                LEDGER.unlock();
            }
        });
        held.await();
        Thread pinned = Thread.ofVirtual().name("pinned").start(Pinned::touch);
        Thread first = Thread.ofPlatform().name("first").start(Slow::touch);
        Thread.sleep(50);
        Thread user = Thread.ofPlatform().name("user").start(JucLocks::useSlow);
        for (Thread t : List.of(holder, pinned, first, user)) t.join();
        // JFR hands its events over about a second after they happen, and the last second before
        // the JVM exits can be lost with JFR's repository (docs/limits.md): the waits stay clear of it
        Thread.sleep(2_000);
        System.out.println("done");
    }

    static void queues(long seconds) throws Exception {
        BlockingQueue<Long> orders = new LinkedBlockingQueue<>();
        ReentrantLock bell = new ReentrantLock();
        Condition rung = bell.newCondition();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            threads.add(Thread.ofPlatform().name("taker-" + i).start(() -> {
                try {
                    while (!Thread.currentThread().isInterrupted()) entries += orders.take();
                } catch (InterruptedException e) {
                    // done
                }
            }));
        }
        threads.add(Thread.ofPlatform().name("listener").start(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    bell.lock();
                    try {
                        rung.await(1, TimeUnit.SECONDS);
                    } finally {
                        bell.unlock();
                    }
                }
            } catch (InterruptedException e) {
                // done
            }
        }));
        System.out.println("ready");
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
            orders.put(1L);
            bell.lock();
            try {
                rung.signal();
            } finally {
                bell.unlock();
            }
            Thread.sleep(100);
        }
        for (Thread t : threads) t.interrupt();
        for (Thread t : threads) t.join();
        System.out.println("done " + entries);
    }
}
