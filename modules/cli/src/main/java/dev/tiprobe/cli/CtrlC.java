package dev.tiprobe.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl-C while a command holds a session open ({@code collect}, {@code watch}): the JVM's
 * shutdown hook tells the command, then waits (30 s at most) until the command has stopped the
 * session and written what was asked for, so that Ctrl-C never leaves a target traced.
 */
final class CtrlC implements AutoCloseable {
    private static final long PATIENCE_SECONDS = 30;

    private final CountDownLatch pressed = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook = new Thread(this::pressed, "tiprobe-ctrl-c");

    private CtrlC() {}

    /** Listens for Ctrl-C until {@link #close()}. */
    static CtrlC listen() {
        CtrlC c = new CtrlC();
        Runtime.getRuntime().addShutdownHook(c.hook);
        return c;
    }

    private void pressed() {
        pressed.countDown();
        try {
            finished.await(PATIENCE_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits up to {@code nanos}; whether Ctrl-C was pressed (now or before). */
    boolean await(long nanos) throws InterruptedException {
        return pressed.await(Math.max(0, nanos), TimeUnit.NANOSECONDS);
    }

    boolean wasPressed() {
        return pressed.getCount() == 0;
    }

    /** The command is done: a hook waiting lets the JVM exit; otherwise the hook is removed. */
    @Override
    public void close() {
        finished.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // Ctrl-C: the hook is running and lets the JVM exit now that all is written
        }
    }
}
