package dev.tiprobe.agent.sink;

import dev.tiprobe.agent.jvm.AgentThreads;

import java.io.IOException;

/**
 * An engine's own thread, the same for every engine: it runs the engine's rounds until stopped,
 * has a chunk written a second (the first 250 ms in, so a target killed soon after the start
 * still leaves some) and whenever {@link #flush} asks, naps between rounds (a flush or a stop
 * wakes it), and keeps what ended it early for the engine's close.
 */
public final class EngineThread {
    /** Between chunks written on their own: a dying target loses at most this much. */
    private static final long CHUNK_NANOS = 1_000_000_000L;

    /** What the thread does for its engine, on the thread. */
    public interface Rounds {
        /**
         * One round: gather what is new and write it to the recorder, and when {@code chunk}, end
         * with {@link Recorder#flush()}; {@code asked} when a {@link #flush} asked for that chunk.
         * Returns how long to nap before the next round.
         */
        long round(boolean chunk, boolean asked) throws IOException, InterruptedException;

        /**
         * Whether what a flush asked at {@code askedNanos} ({@link System#nanoTime()}) covers has
         * reached the engine, so that the next round writes it: at once for an engine fed as things
         * happen; an engine fed later (by JFR's stream) says when it has caught up.
         */
        default boolean gathered(long askedNanos) {
            return true;
        }

        /** Whether to stop before the next round though not told to (the session is stopping). */
        default boolean done() {
            return false;
        }

        /** After the last round, when the engine stops of itself or is told to. */
        default void ended() throws IOException {}
    }

    private final Thread thread;
    private final Rounds rounds;
    private final FlushRequest flushRequest = new FlushRequest();
    private volatile boolean running = true;
    /** {@link #running} as a nap asks it, made once: a round every 20 ms makes none of its own. */
    private final java.util.function.BooleanSupplier going = () -> running;
    private boolean started;
    private volatile Throwable failure;

    public EngineThread(String name, Rounds rounds) {
        this.rounds = rounds;
        this.thread = AgentThreads.daemon(name).unstarted(this::run);
    }

    /** Starts the rounds; call once. */
    public synchronized void start() {
        started = true;
        thread.start();
    }

    /** Whether {@link #start} was called. */
    public synchronized boolean started() {
        return started;
    }

    /**
     * Has what is gathered so far written (the engine keeps going); waits up to two seconds for
     * it, and not at all once the thread has ended.
     */
    public void flush() {
        if (thread.isAlive()) flushRequest.askAndWait();
    }

    private void run() {
        long lastChunk = System.nanoTime() - CHUNK_NANOS + 250_000_000L;
        try {
            while (running && !rounds.done()) {
                // Asked before the round: once gathered, what the request covers is there, and this
                // round writes it. A request made during a round ends the nap after it: the next answers.
                boolean asked = flushRequest.asked() && rounds.gathered(flushRequest.askedNanos());
                long began = System.nanoTime();
                boolean chunk = asked || began - lastChunk >= CHUNK_NANOS;
                long nap = rounds.round(chunk, asked);
                if (chunk) lastChunk = began;
                if (asked) flushRequest.answer();
                if (nap > 0) flushRequest.nap(nap, going);
            }
            rounds.ended();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            failure = t;  // thrown by the engine's close
            running = false;
        }
    }

    /**
     * Stops the rounds and waits up to five seconds for the thread to end: whether it did (or
     * never started), so that what it held may be written from the caller. Joined, not
     * interrupted: an interrupt while it writes would close the recording's channel.
     */
    public boolean stop() {
        running = false;
        flushRequest.wake();
        synchronized (this) {
            if (!started) return true;
        }
        try {
            thread.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !thread.isAlive();
    }

    /** Throws what ended the rounds early, as {@code what} stopped early; nothing when none did. */
    public void throwFailure(String what) throws IOException {
        Throwable t = failure;
        if (t != null) throw new IOException(what + " stopped early: " + t, t);
    }
}
