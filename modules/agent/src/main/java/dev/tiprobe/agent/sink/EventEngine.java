package dev.tiprobe.agent.sink;

import dev.tiprobe.recording.RecordingFormat;

import java.io.IOException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An engine fed by JVMTI events on the application's threads (allocations, monitor waits): the
 * callback takes what only it can (the stack, the object's class) and queues it; the engine's own
 * thread resolves and writes it to the recorder, so a callback never waits for the recording's
 * lock or resolves a method. The queue is bounded: what does not fit is counted
 * ({@link RecordingFormat#INFO_EVENTS_DROPPED}), never waited for.
 *
 * @param <E> what a callback queues
 */
public abstract class EventEngine<E> implements Engine {
    /** Events waiting to be written at most; at 7,000 events a second, over ten seconds' worth. */
    static final int MAX_QUEUED = 100_000;
    /** How often the engine's thread writes what is queued. */
    private static final long TICK_MILLIS = 20;

    protected final Recorder recorder;
    private final ConcurrentLinkedQueue<E> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong written = new AtomicLong();
    private final String threadName;
    private final EngineThread thread;
    /** Every event queued before this moment ({@link System#nanoTime()}) has been written; {@link #IDLE} once closed. */
    private volatile long writtenBefore = System.nanoTime();

    protected EventEngine(String threadName, Recorder recorder) {
        this.recorder = recorder;
        this.threadName = threadName;
        this.thread = new EngineThread(threadName, new EngineThread.Rounds() {
            @Override
            public long round(boolean chunk, boolean asked) throws IOException {
                long round = System.nanoTime();
                tick();
                drain();
                writtenBefore = round;
                if (chunk) recorder.flush();
                return TICK_MILLIS * 1_000_000L;
            }

            @Override
            public boolean gathered(long askedNanos) {
                return EventEngine.this.gathered(askedNanos);
            }
        });
    }

    /** Starts the engine's thread; call once, before the events are enabled. */
    protected final void startWriting() {
        thread.start();
    }

    /** Queues an event from a callback; counts it as dropped when the queue is full. */
    protected final void offer(E event) {
        if (queued.incrementAndGet() > MAX_QUEUED) {
            queued.decrementAndGet();
            dropped.incrementAndGet();
            return;
        }
        queue.offer(event);
    }

    /** Counts events lost before they could be queued (they are reported with those that did not fit). */
    protected final void countDropped(long events) {
        dropped.addAndGet(events);
    }

    /**
     * Writes one queued event, on the engine's thread: whether the recording took it (one that
     * happened after the session began to stop is left out, and not counted as written).
     */
    protected abstract boolean write(E event) throws IOException;

    /** Work the engine's thread does each tick before writing (e.g. looking at long waits). */
    protected void tick() {}

    /** Whether what happened up to {@code nanoTime} is queued, as {@link EngineThread.Rounds#gathered}. */
    protected boolean gathered(long nanoTime) {
        return true;
    }

    /** Turns the events off, handing over what is still pending; called first by {@link #close()}. */
    protected abstract void stopEvents();

    /** Events written so far. */
    public final long written() {
        return written.get();
    }

    /** What {@link #tokensHeldSince} answers for an engine that holds no token ints. */
    public static final long IDLE = Long.MAX_VALUE;

    /**
     * The earliest moment ({@link System#nanoTime()}) from which this engine may hold method ids
     * it has resolved and not yet written: a token retired before then could leave a frame
     * unnamed. The queue's part is when the last whole drain began: an event is queued right
     * after its stack is resolved (in the callback, or on JFR's thread), which the session's
     * margin covers. An engine that holds resolved stacks longer (the lock profiler's owners)
     * says so in {@link #heldBesideTheQueue}. A stalled or failed engine's answer stays where it
     * stopped.
     */
    @Override
    public final long tokensHeldSince() {
        return Math.min(writtenBefore, heldBesideTheQueue());
    }

    /** When the oldest stack the engine holds outside its queue was resolved; {@link #IDLE} for none. */
    protected long heldBesideTheQueue() {
        return IDLE;
    }

    private void drain() throws IOException {
        E e;
        while ((e = queue.poll()) != null) {
            queued.decrementAndGet();
            if (write(e)) written.incrementAndGet();
        }
    }

    /** As {@link EngineThread#flush}: what is queued so far is written. */
    @Override
    public final void flush() {
        thread.flush();
    }

    /** Stops the events, writes what is queued and says how many did not fit; the recording stays open. */
    @Override
    public final void close() throws IOException {
        boolean ended;
        try {
            stopEvents();
        } finally {
            ended = thread.stop();
        }
        if (!thread.started()) return;
        if (ended) {
            tick();
            drain();
            writtenBefore = IDLE;  // all written
        }
        long lost = dropped.get();
        if (lost > 0) recorder.info(RecordingFormat.INFO_EVENTS_DROPPED, Long.toString(lost));
        recorder.flush();
        thread.throwFailure(threadName);
    }

    /** Whether {@code t} is one of tiprobe's own threads or JFR's, whose events are never the application's. */
    protected static boolean tiprobes(Thread t) {
        return t == null || machinery(t.getName());
    }

    /**
     * Whether a thread of this name is profiling machinery rather than the application: tiprobe's
     * own threads, and JFR's ({@code JFR Periodic Tasks}, {@code JFR Recorder Thread} …), which
     * run for the recordings tiprobe reads. Every view leaves their samples and events out. The
     * probe, which is not always on the boot path when this runs, applies the same rule to calls
     * ({@code ProbeControl.machinery}).
     */
    public static boolean machinery(String threadName) {
        return threadName.startsWith(THREAD_PREFIX) || threadName.startsWith(JFR_THREAD_PREFIX);
    }

    /**
     * Why an engine reads no JFR events, as the recording says it: the target's runtime lacks the
     * {@code jdk.jfr} module (whichever of its classes the JVM missed first), or JFR's own refusal.
     */
    public static String whyNoJfr(Throwable why) {
        return why instanceof NoClassDefFoundError && String.valueOf(why.getMessage()).startsWith("jdk/jfr/")
                ? "the target's runtime has no jdk.jfr module" : "JFR did not run (" + why + ")";
    }

    /** How tiprobe's own threads' names begin. */
    public static final String THREAD_PREFIX = "tiprobe-";
    /** How JFR's threads' names begin. */
    private static final String JFR_THREAD_PREFIX = "JFR ";
}
