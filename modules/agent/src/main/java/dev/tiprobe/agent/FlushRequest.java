package dev.tiprobe.agent;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code dump} asking an engine's own thread to write what it has gathered: the session's thread
 * asks and waits (two seconds at most), the engine's thread answers once it has written.
 */
public final class FlushRequest {
    private volatile CountDownLatch pending;
    private volatile long askedNanos;

    public FlushRequest() {}

    /** Asks, and waits up to two seconds for the answer. */
    public void askAndWait() {
        CountDownLatch done = new CountDownLatch(1);
        askedNanos = System.nanoTime();
        pending = done;
        try {
            done.await(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** On the engine's thread: whether a request waits for {@link #answer()}. */
    public boolean asked() {
        return pending != null;
    }

    /** When the request waiting was made ({@link System#nanoTime()}); read after {@link #asked()}. */
    public long askedNanos() {
        return askedNanos;
    }

    /** On the engine's thread, after writing: tells the one waiting. */
    public void answer() {
        CountDownLatch done = pending;
        if (done != null) {
            pending = null;
            done.countDown();
        }
    }
}
