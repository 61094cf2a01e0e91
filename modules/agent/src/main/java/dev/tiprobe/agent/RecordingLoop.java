package dev.tiprobe.agent;

import dev.tiprobe.agent.jvm.AgentThreads;
import dev.tiprobe.agent.sink.Recorder;
import dev.tiprobe.ids.HumanNames;
import dev.tiprobe.report.Export;
import dev.tiprobe.report.Pprof;
import dev.tiprobe.report.Profile;
import dev.tiprobe.report.Recording;
import dev.tiprobe.report.RecordingReader;
import dev.tiprobe.report.View;

import dev.tiprobe.options.AgentOptions;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Continuous profiling ({@code loop=}): every period a {@code tiprobe-loop} thread finishes the
 * session's recording and begins the next, named by {@code %t} at that moment, so each file is
 * complete and readable on its own. Where the output asked for is pprof ({@code file=cpu-%t.pb.gz})
 * the agent turns each finished recording into that profile itself, labelled with the service, host
 * and pid that Pyroscope and Parca index, and removes the recording: a service profiled from its
 * start ({@code -javaagent}) or by {@code start --loop} has no command beside it to do so
 * ({@code collect --loop} asks for recordings and converts them into any format). A period with
 * no samples makes no profile: pprof labels ride on samples, so an empty profile could not say
 * whose it is. Only the {@code keep} newest finished files stay; older ones are deleted as new ones
 * finish.
 */
final class RecordingLoop implements AutoCloseable {
    private final Recorder recorder;
    private final AgentOptions options;
    private final long pid;
    private final Deque<Path> finished = new ArrayDeque<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile String problem;
    private volatile int emptyPeriods;

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

    /** Whether the loop turns each finished recording into a pprof profile itself. */
    boolean makesProfiles() {
        return Export.PPROF.names(options.file());
    }

    private void run() {
        if (makesProfiles()) labels();
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

    /**
     * Counts {@code done}, a finished recording, among the finished files (as the pprof profile
     * made of it where one is asked for) and deletes the oldest beyond {@code keep}. Returns the
     * file kept for it, or where a period without samples made none, the newest file kept before
     * (null if there is none).
     */
    synchronized Path keep(Path done) throws IOException {
        Path kept = makesProfiles() ? profiled(done) : done;
        if (kept == null) return finished.peekLast();
        finished.addLast(kept);
        while (finished.size() > options.loop().keep()) Files.deleteIfExists(finished.removeFirst());
        return kept;
    }

    /**
     * {@code recording} as the pprof profile named for it, written beside it (through a temporary
     * file, so a reader never sees half a profile), the recording then removed; null, the
     * recording removed, where the period has no samples; the recording itself where it cannot be
     * read or the profile written (why, in {@link #describe}).
     */
    private Path profiled(Path recording) {
        Path output = AgentOptions.outputBeside(recording, options.file());
        Path partial = output.resolveSibling(output.getFileName() + ".partial");
        String crowded = HeapWatch.nearlyFull();  // the profile is made in the application's heap
        if (crowded != null) {
            problem = output.getFileName() + " not made, its recording kept: " + crowded;
            return recording;
        }
        try {
            Recording r = RecordingReader.read(recording);
            Profile profile = View.natural(r).of(r);
            if (profile.stacks().isEmpty()) {
                emptyPeriods++;
                Files.deleteIfExists(recording);
                return null;
            }
            try (OutputStream out = Files.newOutputStream(partial)) {
                Pprof.write(profile, HumanNames.FrameStyle.SLASH, labels(), out);  // the profile made once, in the application's heap
            }
            Files.move(partial, output, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            Files.deleteIfExists(recording);
            return output;
        } catch (Throwable e) {  // an OutOfMemoryError too: the loop goes on, the recording kept
            problem = "could not write " + output.getFileName() + ": " + AgentSession.message(e);
            try {
                Files.deleteIfExists(partial);
            } catch (IOException ignored) {
                // left for the user to remove
            }
            return recording;
        }
    }

    /**
     * The labels each sample of a loop's profiles carries: {@code service} (the main class or jar
     * the JVM was started with), {@code host} and {@code pid}. Made once, on the loop's thread as it
     * begins: naming the host may ask DNS, which must not hold up the JVM's exit.
     */
    private Map<String, String> labels() {
        Map<String, String> made = labels;
        if (made != null) return made;
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException | RuntimeException e) {
            host = "unknown";
        }
        return labels = Map.of("service", Recorder.program(), "host", host, "pid", Long.toString(pid));
    }

    private volatile Map<String, String> labels;

    /**
     * {@code , a recording every 60 s, the 10 newest kept}, how many periods made no profile for
     * want of samples, and why the loop stopped if it did.
     */
    String describe() {
        String p = problem;
        int empty = emptyPeriods;
        return ", a recording every " + options.loop().period().toSeconds() + " s, the " + options.loop().keep() + " newest kept"
                + (empty == 0 ? "" : " (" + empty + (empty == 1 ? " period" : " periods") + " without samples made no profile)")
                + (p == null ? "" : " (the loop stopped: " + p + ")");
    }

    /** Stops rotating; the recording being written is finished by the session. */
    @Override
    public void close() {
        running = false;
        AgentThreads.end(thread, 2_000);
    }
}
