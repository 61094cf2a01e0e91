package dev.tiprobe.agent.sink;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * {@code dump} asking an engine's own thread to write what it has gathered: the session's thread
 * asks and waits (two seconds at most), the engine's thread answers once it has written.
 */
final class FlushRequest {
    private volatile CountDownLatch pending;
    private volatile long askedNanos;
    /** The engine's thread while it {@link #nap naps}, else null. */
    private volatile Thread napping;
    /** The request a nap already returned early for; engine's thread only. */
    private CountDownLatch seen;

    FlushRequest() {}

    /** Asks, and waits up to two seconds for the answer. */
    void askAndWait() {
        CountDownLatch done = new CountDownLatch(1);
        askedNanos = System.nanoTime();
        pending = done;
        wake();
        try {
            done.await(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * On the engine's thread, between ticks: sleeps up to {@code nanos}, less when a request
     * comes or {@link #wake()} is called, not at all once {@code going} says the engine stops
     * (its stopper sets that, then wakes). An engine with little to do each tick can then tick
     * seldom (each wake-up takes a core from a busy program) and still answer a {@code dump} at once.
     * It returns early once a request: an engine that cannot answer it yet (JFR has not handed
     * over its events) naps in full after that, rather than spinning until it can.
     */
    void nap(long nanos, BooleanSupplier going) throws InterruptedException {
        napping = Thread.currentThread();
        try {
            CountDownLatch asked = pending;  // a request set before this line is seen here; one after unparks
            // A stop made before napping was set is seen here; one after unparks.
            if ((asked == null || asked == seen) && going.getAsBoolean()) LockSupport.parkNanos(this, nanos);
            seen = asked;
        } finally {
            napping = null;
        }
        if (Thread.interrupted()) throw new InterruptedException();
    }

    /** Ends the engine thread's nap now (e.g. to stop it). */
    void wake() {
        Thread t = napping;
        if (t != null) LockSupport.unpark(t);
    }

    /** On the engine's thread: whether a request waits for {@link #answer()}. */
    boolean asked() {
        return pending != null;
    }

    /** When the request waiting was made ({@link System#nanoTime()}); read after {@link #asked()}. */
    long askedNanos() {
        return askedNanos;
    }

    /** On the engine's thread, after writing: tells the one waiting. */
    void answer() {
        CountDownLatch done = pending;
        if (done != null) {
            pending = null;
            done.countDown();
        }
    }
}
