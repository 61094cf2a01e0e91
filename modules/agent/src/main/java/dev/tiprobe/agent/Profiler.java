package dev.tiprobe.agent;

import dev.tiprobe.recording.Reply;

import java.nio.file.Path;

/**
 * Profiling from the application's own code, with the agent jar on the class path (not the module
 * path): the session {@code tiprobe start} would begin, with the agent's options, writing the same
 * recording, which {@code tiprobe report} turns into any view.
 *
 * <pre>{@code
 * Profiler.start("interval=10ms,alloc=512k,live,lock=1ms,file=/tmp/app.tpr");
 * ...
 * Path recording = Profiler.stop();
 * }</pre>
 *
 * One session runs in a JVM at a time, whoever started it (this class, {@code tiprobe start} or
 * {@code -javaagent}); the JVM's exit finishes a session nobody stopped.
 */
public final class Profiler {
    private Profiler() {}

    /**
     * Starts a session: {@code interval=} to sample stacks, {@code alloc=} (and {@code live}) for
     * allocations, {@code lock=} for monitor waits, {@code trace=} to trace methods, {@code file=}
     * the recording ({@code .tpr}). Returns what the session does, as {@code tiprobe start} says it
     * ({@code started: sampling every 10 ms (wall); recording to /tmp/app.tpr}).
     *
     * @throws IllegalStateException naming the reason, for bad options or a session already running
     */
    public static String start(String options) {
        return ok(AgentMain.inProcess("start", options)).text();
    }

    /** Writes what the session has so far into its recording and goes on; returns the recording. */
    public static Path dump() {
        return ok(AgentMain.inProcess("dump", null)).path(Reply.RECORDING);
    }

    /** Ends the session (sampling and events off, traced classes restored) and returns the finished recording. */
    public static Path stop() {
        return ok(AgentMain.inProcess("stop", null)).path(Reply.RECORDING);
    }

    private static Reply ok(Reply answer) {
        if (!answer.ok()) throw new IllegalStateException(answer.text());
        return answer;
    }
}
