package dev.tiprobe.cli;

import java.util.concurrent.CountDownLatch;

/**
 * {@code tiprobe run} told to end while its program runs (Ctrl-C in the terminal, SIGTERM or
 * SIGHUP to the command): the JVM's shutdown hook passes the signal on to the program (SIGTERM;
 * a Ctrl-C in the terminal has reached it already, and a JVM ends either way), waits, however
 * long the program takes to end, until the command has made the output, and then ends the command
 * with the program's exit code, as at any exit. So the program is never left running without the
 * command, nor its output unmade.
 */
final class RunEnding implements AutoCloseable {
    /** The exit code when the command failed before the program's was known. */
    private static final int FAILED = 1;

    private final CountDownLatch made = new CountDownLatch(1);
    private final Thread hook = new Thread(this::ending, "tiprobe-run-ending");
    private volatile Process program;
    private volatile boolean ending;
    private volatile int exit = FAILED;

    /** Listens from now until {@link #close()}. */
    RunEnding() {
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** The program, once started: told to end at once if the command is ending already. */
    void started(Process p) {
        program = p;
        if (ending) p.destroy();
    }

    /** The program's exit code, the command's too. */
    void exit(int code) {
        exit = code;
    }

    private void ending() {
        ending = true;
        Process p = program;
        if (p != null) p.destroy();
        try {
            made.await();
        } catch (InterruptedException e) {
            return;
        }
        Runtime.getRuntime().halt(exit);
    }

    /** The output is made (or the command failed): a hook waiting ends the command; otherwise the hook goes. */
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
