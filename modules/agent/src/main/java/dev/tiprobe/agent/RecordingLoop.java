package dev.tiprobe.agent;

import dev.tiprobe.options.AgentOptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;

/**
 * Continuous profiling ({@code loop=}): every period a {@code tiprobe-loop} thread finishes the
 * session's recording and begins the next, named by {@code %t} at that moment, so each file is
 * complete and readable on its own (the command turns each into a pprof profile or a page). Only
 * the {@code keep} newest finished recordings stay; older ones are deleted as new ones finish.
 */
final class RecordingLoop implements AutoCloseable {
    private final Recorder recorder;
    private final AgentOptions options;
    private final long pid;
    private final Deque<Path> finished = new ArrayDeque<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile String problem;

    /** Waits until the engines have handed over what happened up to now (JFR's samples come about a second late). */
    private final Runnable catchUp;

    private RecordingLoop(Recorder recorder, AgentOptions options, long pid, Runnable catchUp) {
        this.recorder = recorder;
        this.catchUp = catchUp;
        this.options = options;
        this.pid = pid;
        this.thread = AgentThreads.daemon("tiprobe-loop").unstarted(this::run);
    }

    /**
     * Starts rotating {@code recorder}'s file every {@code options.loop()} period, each time once
     * {@code catchUp} returns, so a period's file holds the samples taken in it.
     */
    static RecordingLoop start(Recorder recorder, AgentOptions options, long pid, Runnable catchUp) {
        RecordingLoop loop = new RecordingLoop(recorder, options, pid, catchUp);
        loop.thread.start();
        return loop;
    }

    private void run() {
        long period = options.loop().period().toNanos();
        long due = System.nanoTime() + period;
        try {
            while (running) {
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                    continue;
                }
                Path next = options.recordingFile(pid);
                if (next.equals(recorder.file())) {  // the same second as the last: %t has not moved on yet
                    Thread.sleep(100);
                    continue;
                }
                catchUp.run();
                if (!running) return;  // the session began to close while JFR caught up: its file is the last
                Path done = recorder.rotate(next);
                if (done == null) return;  // the session closed the recording
                keep(done);
                due += period;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            problem = AgentSession.message(e);  // the session goes on in the recording it has
        }
    }

    /** Counts {@code done} among the finished recordings and deletes the oldest beyond {@code keep}. */
    synchronized void keep(Path done) throws IOException {
        finished.addLast(done);
        while (finished.size() > options.loop().keep()) Files.deleteIfExists(finished.removeFirst());
    }

    /** {@code , a recording every 60 s, the 10 newest kept}, and why the loop stopped if it did. */
    String describe() {
        String p = problem;
        return ", a recording every " + options.loop().period().toSeconds() + " s, the " + options.loop().keep() + " newest kept"
                + (p == null ? "" : " (the loop stopped: " + p + ")");
    }

    /** Stops rotating; the recording being written is finished by the session. */
    @Override
    public void close() {
        running = false;
        AgentThreads.end(thread, 2_000);
    }
}
