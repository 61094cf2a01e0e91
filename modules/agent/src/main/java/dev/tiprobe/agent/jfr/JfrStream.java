package dev.tiprobe.agent.jfr;

import dev.tiprobe.agent.jvm.AgentThreads;
import dev.tiprobe.agent.sink.EventEngine;
import jdk.jfr.FlightRecorder;
import jdk.jfr.EventSettings;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import jdk.jfr.consumer.EventStream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * A JFR recording of tiprobe's, read back as a stream about once a second on a daemon thread of
 * tiprobe's: the one way every engine that reads JFR's events (stack samples, monitor waits)
 * starts, hands over and stops one.
 *
 * <p>A session's engines share one ({@link #unbegun}, {@link #with}, {@link #begin}): each stream's
 * parser holds the whole of JFR's metadata and the constants of the chunk it reads, so two engines
 * with a stream each paid for both twice in the application's heap. Closing it, by any of them,
 * stops it for all: the engines of a session stop together.
 *
 * <p>The recording is made on that thread too: in a JVM where JFR has not run yet, setting it up
 * takes from half a second to seconds (classes, the repository on disk), which a session's start
 * does not wait for. Not {@code startAsync}: its thread is not a daemon, and the program would
 * never exit. The last events are read from the file JFR writes as it stops the recording
 * ({@link RecordingEnd}, {@link #close()}).
 *
 * <p>A stream's parser keeps every constant (stack trace, frame, method, class) of the chunk it
 * reads until the next chunk begins, and JFR begins one only every 12 MB of events: under class
 * churn, where every new class brings new stacks, that took 9 MB of the application's heap in a
 * minute of sampling. So the session asks JFR for a new chunk every {@link #CHUNK_PERIOD}
 * ({@link #newChunkWhenDue()}).
 *
 * <p>A stream that reuses its event objects (JFR's default) keeps, per event type, as many as one
 * flush held, each with its values, stack traces included, until they are overwritten: about
 * 0.4 MB of arrays alone for JFR's 195 event types. tiprobe's handlers keep nothing of an event,
 * so its streams make new ones.
 */
public final class JfrStream implements AutoCloseable {
    /** How often the streams have JFR begin a new chunk, which lets their parsers drop the last one's constants. */
    static final Duration CHUNK_PERIOD = Duration.ofSeconds(5);
    /** When a new chunk was last asked for, by {@link System#nanoTime()}; shared by every stream. */
    private static final AtomicLong lastChunkAsked = new AtomicLong(System.nanoTime());
    /** The streams recording now: new chunks are asked for only while one is. */
    private static final java.util.Set<JfrStream> recordingNow = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Never run: added and removed again to learn whether the JVM has begun to exit. */
    private static final Thread EXIT_PROBE = new Thread(() -> {});

    /** How long closing waits for JFR's last events. */
    private static final Duration LAST_DELIVERY = Duration.ofSeconds(5);

    private EventStream stream;      // guarded by this; null until made
    /** The JVM's own recording this stream reads, stopped at close so that its last samples are written; or null. */
    private final Recording jvmRecording;
    /**
     * Where the recording's end is read from, the file JFR writes as it stops it: the JVM's
     * recording's, set at the start; a session's own, set as its recording is made. Null when JFR
     * gave no file.
     */
    private volatile RecordingEnd end;
    /** The event read from the JVM's own recording: whichever sampler it enables; null for a session's own stream. */
    private final String jvmEvent;
    private final String threadName;
    /** What each engine enables and handles, applied to the recording as it is made. Guarded by this. */
    private final List<Consumer<Subscriptions>> setups = new ArrayList<>();
    private boolean begun;           // guarded by this
    private boolean closed;          // guarded by this
    private volatile long lastFlushNanos;
    /** Flushes handed over so far. */
    private final AtomicLong flushes = new AtomicLong();
    private volatile Throwable failure;
    /** The stream's own thread; null until begun. */
    private volatile Thread thread;

    private JfrStream(Recording jvmRecording, RecordingEnd end, String jvmEvent, String threadName) {
        this.jvmRecording = jvmRecording;
        this.end = end;
        this.jvmEvent = jvmEvent;
        this.threadName = threadName;
    }

    /**
     * A recording of tiprobe's not begun yet, to be read on a daemon thread named {@code
     * threadName}: engines add what they need ({@link #with}), then {@link #begin} starts it.
     * Where the runtime lacks the {@code jdk.jfr} module this throws {@link LinkageError}, or
     * {@link #failure()} tells it soon after the start, as it tells a VM that refuses to record.
     */
    public static JfrStream unbegun(String threadName) {
        return new JfrStream(null, null, null, threadName);
    }

    /**
     * What an engine asks of the session's recording: the events to enable, and a handler for each.
     * The handlers are the stream's to call, so that the events of the recording's last moments,
     * read from the file JFR writes as it stops the recording, reach them too.
     */
    public interface Subscriptions {
        /** Enables the event type {@code name}; its settings are the engine's to add. */
        EventSettings enable(String name);

        /** Hands each event of type {@code name} to {@code handler}, on the stream's thread (or, at the end, the closing one). */
        void onEvent(String name, Consumer<RecordedEvent> handler);
    }

    /**
     * Adds what an engine enables and the handlers it registers, to be applied when the recording
     * is made.
     *
     * @throws IllegalStateException once {@link #begin} has run, or the stream was closed (an
     *     engine that fell back to JVMTI closes it): the engine then uses JVMTI too
     */
    public synchronized JfrStream with(Consumer<Subscriptions> setup) {
        if (begun) throw new IllegalStateException("the JFR stream has begun already");
        if (closed) throw new IllegalStateException("the session's JFR stream was closed");
        setups.add(setup);
        return this;
    }

    /** Starts the recording with every setup added, unless none was (or it was closed first). */
    public synchronized void begin() {
        if (begun || closed || setups.isEmpty()) return;
        begun = true;
        List<Consumer<Subscriptions>> all = List.copyOf(setups);
        thread = AgentThreads.daemon(threadName).start(() -> run(() -> {
            Set<Long> before = recordingIds();
            RecordingStream made = new RecordingStream();
            Map<String, Consumer<RecordedEvent>> handlers = new HashMap<>();
            Subscriptions subscriptions = new Subscriptions() {
                @Override
                public EventSettings enable(String name) {
                    return made.enable(name);
                }

                @Override
                public void onEvent(String name, Consumer<RecordedEvent> handler) {
                    handlers.merge(name, handler, Consumer::andThen);
                }
            };
            for (Consumer<Subscriptions> setup : all) setup.accept(subscriptions);
            made.setMaxAge(Duration.ofMinutes(1));  // at most a minute of chunks stays on disk
            made.setReuse(false);  // see the class comment
            RecordingEnd madeEnd = madeSince(before).map(r -> RecordingEnd.prepare(r, false)).orElse(null);
            if (madeEnd != null) madeEnd.deliverTo(handlers);
            end = madeEnd;
            handlers.forEach((name, handler) -> made.onEvent(name, madeEnd == null ? handler : madeEnd::handOver));
            return made;
        }));
    }

    /** The ids of the recordings JFR has now; none where JFR has not started. */
    private static Set<Long> recordingIds() {
        if (!FlightRecorder.isInitialized()) return Set.of();
        return FlightRecorder.getFlightRecorder().getRecordings().stream().map(Recording::getId).collect(Collectors.toSet());
    }

    /**
     * The one recording made since JFR had {@code before} and not begun yet: a {@link
     * RecordingStream}'s own, which it does not hand out. Empty where another was made meanwhile
     * and it cannot be told which.
     */
    private static Optional<Recording> madeSince(Set<Long> before) {
        List<Recording> made = FlightRecorder.getFlightRecorder().getRecordings().stream()
                .filter(r -> !before.contains(r.getId()) && r.getState() == RecordingState.NEW).toList();
        return made.size() == 1 ? Optional.of(made.getFirst()) : Optional.empty();
    }

    /**
     * Reads the recording the JVM started from its command line under {@code name} ({@code tiprobe
     * run}), from its beginning to its end: its events of the first of {@code events} it enables
     * ({@link #jvmEvent()}) from the JVM's disk repository, each handed to {@code handler} (and
     * those of the {@code others} it holds to theirs), and at
     * close what the stream had not read from the file JFR writes as the recording stops ({@link
     * RecordingEnd}). Closing stops that recording. Empty where no such recording runs and none
     * was {@linkplain #claimJvmRecording claimed}.
     */
    public static Optional<JfrStream> readJvmRecording(String name, String threadName, List<String> events, Consumer<RecordedEvent> handler,
                                                       Map<String, Consumer<RecordedEvent>> others) {
        Claimed c = claimed;
        if (c == null || !c.recording().getName().equals(name) || !events.contains(c.eventName())) {
            c = startedWithTheJvm(name).map(r -> claim(r, events)).orElse(null);
        }
        if (c == null) return Optional.empty();
        String eventName = c.eventName();
        claimed = null;
        Recording recording = c.recording();
        RecordingEnd end = c.end();
        Map<String, Consumer<RecordedEvent>> handlers = new HashMap<>(others);
        handlers.put(eventName, handler);
        if (end != null) end.deliverTo(handlers);
        JfrStream s = new JfrStream(recording, end, eventName, threadName);
        synchronized (s) {
            s.begun = true;
            s.thread = AgentThreads.daemon(threadName).start(() -> s.run(() -> {
                EventStream made = EventStream.openRepository();
                made.setReuse(false);  // see the class comment
                made.setStartTime(recording.getStartTime());
                handlers.forEach((event, h) -> made.onEvent(event, end == null ? h : end::handOver));
                return made;
            }));
        }
        return Optional.of(s);
    }

    /**
     * Takes hold of the recording the JVM started under {@code name}, before anything reads it:
     * from now on its end is written to a file whoever stops it, so a reader that starts late,
     * even after JFR's shutdown hook stopped it, still gets every event of the first of {@code
     * events} it enables ({@link #readJvmRecording}). Waits up to {@code limit} for JFR to start it (the JVM starts
     * command-line recordings after the agent's premain, before {@code main}), or until {@code
     * giveUp} says so; whether it did.
     */
    public static boolean claimJvmRecording(String name, List<String> events, Duration limit, java.util.function.BooleanSupplier giveUp)
            throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        Optional<Recording> r;
        while ((r = startedWithTheJvm(name)).isEmpty()) {
            if (System.nanoTime() > deadline || giveUp.getAsBoolean()) return false;
            Thread.sleep(5);
        }
        claimed = claim(r.get(), events);
        return claimed != null;
    }

    /** {@code recording}, to be read for the first of {@code events} it enables; null where it enables none. */
    private static Claimed claim(Recording recording, List<String> events) {
        for (String event : events) {
            if ("true".equals(recording.getSettings().get(event + "#enabled"))) {
                return new Claimed(recording, event, RecordingEnd.prepare(recording, true));
            }
        }
        return null;
    }

    /** A recording of the JVM's taken hold of, not read yet; its end null where JFR refused a destination. */
    private record Claimed(Recording recording, String eventName, RecordingEnd end) {}

    /** The event read from the JVM's own recording ({@link #readJvmRecording}); null for a session's own stream. */
    public String jvmEvent() {
        return jvmEvent;
    }

    private static volatile Claimed claimed;

    /** The recording started with the JVM under {@code name}, while it runs; none where JFR has not started. */
    private static Optional<Recording> startedWithTheJvm(String name) {
        if (!FlightRecorder.isInitialized()) return Optional.empty();
        return FlightRecorder.getFlightRecorder().getRecordings().stream()
                .filter(r -> name.equals(r.getName()) && r.getState() == RecordingState.RUNNING).findFirst();
    }

    private void run(Callable<EventStream> open) {
        EventStream made = null;
        try {
            made = open.call();
            made.onFlush(() -> {
                lastFlushNanos = System.nanoTime();
                flushes.incrementAndGet();
            });
            synchronized (this) {
                if (closed) {
                    made.close();
                    RecordingEnd unread = end;
                    if (unread != null && jvmRecording == null) unread.discard();  // made after close() looked
                    return;
                }
                stream = made;
            }
            recordingNow.add(this);
            made.start();  // returns when the recording stops; at the JVM's exit JFR's own hook may stop it first
        } catch (Throwable t) {
            failure = t;
            if (made != null) made.close();
        } finally {
            recordingNow.remove(this);
        }
    }

    /**
     * About what the streams hold in the heap: each parser JFR's metadata and the constants of
     * the chunk being read, 2 to 3 MB under class churn (a heap dump's count, with a new chunk
     * every {@link #CHUNK_PERIOD}), and each end the events of its last seconds ({@link
     * RecordingEnd}: about 5 MB at 33,000 parks a second).
     */
    public static long estimatedBytes() {
        long bytes = 0;
        for (JfrStream s : recordingNow) {
            RecordingEnd e = s.end;
            bytes += PARSER_BYTES + (e == null ? 0 : e.estimatedBytes());
        }
        return bytes;
    }

    private static final long PARSER_BYTES = 3L << 20;

    /**
     * Has JFR begin a new chunk once {@link #CHUNK_PERIOD} has passed since the last one asked
     * for, while a stream of tiprobe's records and the JVM is not exiting. A snapshot of what JFR
     * holds, closed at once, is the public way: with a recording to disk running, JFR rotates its
     * chunk for it (as it does itself every 12 MB) and never begins a recording; asked as JFR
     * stops at exit, beginning one hung the JVM, so this runs on the session's keeper, never on
     * JFR's own threads. A recording of the user's own that runs meanwhile gets a chunk every
     * {@link #CHUNK_PERIOD}, each repeating the constants its events use, and its old-object
     * samples, if it takes them, are written at each as at a dump.
     */
    public static void newChunkWhenDue() {
        long last = lastChunkAsked.get();
        long now = System.nanoTime();
        if (recordingNow.isEmpty() || now - last < CHUNK_PERIOD.toNanos() || exiting()) return;
        if (!lastChunkAsked.compareAndSet(last, now)) return;
        try {
            FlightRecorder.getFlightRecorder().takeSnapshot().close();  // taking it was the point: JFR began a new chunk
        } catch (Throwable t) {
            // JFR refusing: the old chunk goes on; nothing the application would notice
        }
    }

    /** Whether the JVM has begun to exit (a shutdown hook can no longer be added). */
    private static synchronized boolean exiting() {  // one probe thread: two callers at once would add it twice
        try {
            Runtime.getRuntime().addShutdownHook(EXIT_PROBE);
            Runtime.getRuntime().removeShutdownHook(EXIT_PROBE);
            return false;
        } catch (IllegalStateException exitBegun) {
            return true;
        }
    }

    /**
     * Why the stream failed or never started, or null: also null once its recording was stopped
     * from outside (JFR's shutdown hook at exit does that, and so would {@code jcmd JFR.stop}),
     * which is not told apart from the end of the JVM.
     */
    public Throwable failure() {
        return failure;
    }

    /**
     * Whether the stream hands over what JFR records by now: the JVM's own recording holds every
     * event since the JVM's start; a recording of the stream's own, once its first flush came
     * (about a second after it began: the recording's set-up and its first second).
     */
    public boolean delivering() {
        return jvmRecording != null || flushes.get() > 0;
    }

    /** Flushes JFR has handed over so far. */
    public long flushes() {
        return flushes.get();
    }

    /** Whether the stream still reads (its thread runs and has not failed). */
    public boolean reading() {
        Thread t = thread;
        return t != null && t.isAlive() && failure == null;
    }

    /** Whether JFR has handed over everything recorded up to {@code nanoTime} (a flush since). */
    public boolean deliveredUpTo(long nanoTime) {
        return lastFlushNanos - nanoTime > 0;
    }

    /** Waits up to {@code timeout} for JFR to hand over what it recorded up to {@code asked} (a nanoTime). */
    private void awaitDelivery(long asked, Duration timeout) {
        try {
            while (!deliveredUpTo(asked) && reading() && System.nanoTime() - asked < timeout.toNanos()) {
                Thread.sleep(10);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops the recording, hands over what JFR still holds, and ends the stream (at most
     * {@link #LAST_DELIVERY} when JFR stopped first). A program of a second sampled from its start
     * has most of its samples in that last delivery.
     *
     * <p>At the JVM's exit a recording with an {@linkplain RecordingEnd end} is left to JFR's
     * shutdown hook, which stops every recording and writes each to its destination before it
     * deletes the disk repository; its end is then read from that file. A stop of tiprobe's own,
     * on tiprobe's hook running beside JFR's, copies the chunks to the file after the recorder's
     * lock has been let go once ({@code PlatformRecording.stop}, JDK 25), and JFR's hook could
     * delete them in between: the file was not written ("Missing chunkfile") and a one-second
     * program's profile came out empty, about one run in sixteen with a JFR recording of the
     * program's own beside it.
     *
     * <p>Before the exit the end is read from the file too. A stream whose recording stops sees its
     * last events only when JFR next wakes its reader, at the next flush, up to a second later
     * (JDK 25's reader naps a second between looks, and a stop does not wake it): a session's stop
     * took 0.2 to 1 s that way, where JFR writes the file in tens of milliseconds.
     */
    @Override
    public void close() {
        recordingNow.remove(this);  // no new chunk asked for on its behalf from now on
        long asked = System.nanoTime();  // before stopping: JFR's own shutdown hook may have flushed the last events already
        EventStream s;
        synchronized (this) {
            if (closed) return;  // by another engine of the session
            closed = true;
            s = stream;
        }
        RecordingEnd last = end;
        boolean exiting = exiting();
        try {
            boolean stoppedHere = (last == null || !exiting) && stopHere(s, last);
            // A stop from here has written the file or failed to by the time it returns; JFR's hook writes it meanwhile
            if (last != null && (stoppedHere ? last.written() : last.awaitWritten(LAST_DELIVERY))) {
                if (s != null) s.close();
                Thread t = thread;
                if (t != null) t.join(LAST_DELIVERY.toMillis());
                if (t == null || !t.isAlive()) last.handOverRest();
                return;
            }
            // without the file: the repository's reader goes on after the JVM's recording stops; a recording stream of tiprobe's read to its end as it stopped
            if (s != null && (jvmRecording != null || !stoppedHere)) awaitDelivery(asked, LAST_DELIVERY);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            // the file unreadable: the end is lost, as it was without the file
        } finally {
            if (s != null) s.close();  // else never made, or the thread closes it as it sees the flag
            if (last != null) last.discard();
        }
    }

    /** Stops the recording from here, which writes its end to its file; false when it had stopped already (JFR's hook). */
    private boolean stopHere(EventStream s, RecordingEnd last) {
        try {
            if (last != null) last.stopRecording();  // not the stream's stop, which waits for its reader
            else if (jvmRecording != null) jvmRecording.stop();
            else if (s instanceof RecordingStream own) stopWithin(own, LAST_DELIVERY);
            return true;
        } catch (IllegalStateException stoppedAlready) {
            return false;
        }
    }

    /**
     * {@link RecordingStream#stop()}, given up after {@code limit}: it waits without a limit for
     * the stream to read the recording's last chunk, and at the JVM's exit, beside a recording of
     * the program's own that JFR's shutdown hook ends meanwhile, that chunk may never come (the
     * stream naps for the next file; seen once in the shop demo with {@code -XX:StartFlightRecording},
     * the program hung at its exit). Closing the stream, which follows, wakes it. Where the heap
     * has no room for the helper thread, the stream is closed at once.
     */
    private static void stopWithin(RecordingStream stream, Duration limit) {
        RuntimeException[] thrown = new RuntimeException[1];
        Thread stopper;
        try {
            stopper = AgentThreads.daemon(EventEngine.THREAD_PREFIX + "jfr-stop").start(() -> {
                try {
                    stream.stop();
                } catch (RuntimeException e) {
                    thrown[0] = e;
                }
            });
        } catch (OutOfMemoryError noRoomForAThread) {
            return;  // a full heap: the stream is closed without its last events, rather than waited for without a limit
        }
        try {
            stopper.join(limit.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!stopper.isAlive() && thrown[0] != null) throw thrown[0];
    }
}
