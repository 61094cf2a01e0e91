package dev.tiprobe.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code tiprobe run} told to end while its program runs (Ctrl-C in the terminal, SIGTERM or
 * SIGHUP to the command): the JVM's shutdown hook passes the signal on to the program (SIGTERM;
 * a Ctrl-C in the terminal has reached it already, and a JVM ends either way), kills it if it has
 * not ended {@link #PATIENCE_SECONDS} later, waits until the command has made the output, and then
 * ends the command with the program's exit code, as at any exit. So the program is never left
 * running without the command, nor its output unmade, and a program that will not end cannot
 * keep the command from ending.
 */
final class RunEnding implements AutoCloseable {
    /** How long the program has to end once told to, before it is killed: a JVM's own hooks, and the agent's last chunk. */
    static final long PATIENCE_SECONDS = 30;

    private final CountDownLatch made = new CountDownLatch(1);
    private final Thread hook = new Thread(this::ending, "tiprobe-run-ending");
    /** Guarded by this: whichever of {@link #started} and the hook comes second ends the program. */
    private Process program;
    private boolean ending;
    private volatile int exit = Main.FAILURE;

    /** Listens from now until {@link #close()}. */
    RunEnding() {
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Whether the command has been told to end. */
    synchronized boolean told() {
        return ending;
    }

    /** The program, once started: told to end at once if the command is ending already. */
    synchronized void started(Process p) {
        program = p;
        if (ending) p.destroy();
    }

    /** The command's exit code: the program's, or the command's own failure's. */
    void exit(int code) {
        exit = code;
    }

    private void ending() {
        Process p;
        synchronized (this) {
            ending = true;
            p = program;
        }
        try {
            if (p != null) {
                p.destroy();
                if (!p.waitFor(PATIENCE_SECONDS, TimeUnit.SECONDS)) p.destroyForcibly();
            }
            made.await();
        } catch (InterruptedException e) {
            return;
        }
        Runtime.getRuntime().halt(exit);
    }

    /**
     * The output is made, or the command failed and said why: a hook waiting ends the command;
     * otherwise the hook goes.
     */
    @Override
    public void close() {
        made.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running, and ends the command now
        }
    }
}
