package dev.tiprobe.agent.sink;

import dev.tiprobe.recording.Reply;

import java.io.IOException;

/**
 * What a session asks of each of its profiling engines, whatever feeds it (a sampling thread,
 * JVMTI callbacks, JFR's stream): the session holds them as a list of these, so that a new engine
 * is one class. Each engine writes to the session's one {@link Recorder}.
 */
public interface Engine extends AutoCloseable {
    /** What the engine does, for the session's status line: {@code sampling every 10 ms (cpu)}. */
    String describe();

    /** What it has written so far, for the progress line and the replies ({@link #counted}). */
    Progress progress();

    /**
     * What an engine has written so far: the count under its reply key ({@link Reply#SAMPLES}…),
     * and as the progress line says it ({@code 120 samples}).
     */
    record Progress(String replyKey, long count, String text) {}

    /** {@code reply} with this engine's count. */
    default Reply counted(Reply reply) {
        Progress p = progress();
        return reply.with(p.replyKey(), p.count());
    }

    /**
     * The earliest moment ({@link System#nanoTime()}) from which the engine may hold method ids it
     * resolved and has not written; {@link EventEngine#IDLE} when it holds none.
     */
    long tokensHeldSince();

    /** Waits (two seconds at most) until what happened up to now is gathered: at once for an engine fed as things happen. */
    default void catchUp() {}

    /** Writes what is gathered so far; the engine keeps going. */
    void flush();

    /** Stops the engine and writes what it still holds; the recording stays open for the session to close. */
    @Override
    void close() throws IOException;
}
