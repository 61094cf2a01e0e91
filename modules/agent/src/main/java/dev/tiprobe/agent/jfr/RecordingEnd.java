package dev.tiprobe.agent.jfr;

import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.EventStream;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The end of a recording, which a stream alone loses at the JVM's exit: JFR's shutdown hook stops
 * every recording and deletes the disk repository under the stream, and a short program has much
 * of what it does in that last stretch (a one-second program lost its last 150 ms of samples, 58
 * of 73 moments kept; a 2.4 s program under {@code tiprobe run --lock} lost every wait of its
 * last second in two runs of three); at any other stop the stream sees its end only at JFR's next
 * flush, up to a second later. So the recording gets a file to be written to when it
 * stops, whoever stops it first, tiprobe or JFR's hook; once JFR says the file is whole, what the
 * stream had not handed over is read from it. Used for the recording the JVM started from its
 * command line ({@code tiprobe run}) and for a session's own.
 *
 * <p>The stream's thread hands each event over through {@link #handOver}, which remembers the
 * events that ended in the last {@link #OVERLAP} by type, thread and end; the file is read for
 * what ended from {@link #OVERLAP} before the newest of them, and an event remembered is not
 * handed over twice. By their ends, as JFR's own start filter goes: a wait of seconds that ends
 * in the lost stretch began long before it. The file's reader dates an event a little off from
 * the stream's reader (by 110 and 211 ns in two sessions, every event of the stretch alike),
 * so an event of the file is the one remembered of its type and thread that ended nearest to
 * it, within {@link #SAME_END}, each remembered one standing for one of the file's: matched by
 * the exact moment, the last two seconds of samples came twice. The file is read only after
 * the stream's thread has ended.
 */
final class RecordingEnd implements FlightRecorderListener {
    /** How far before the stream's newest event the file is read: more than a flush's reach back. */
    private static final Duration OVERLAP = Duration.ofSeconds(2);

    private final Recording recording;
    private final Path file;
    /** Where each event type's events go, by name; set once before the stream starts ({@link #deliverTo}). */
    private volatile Map<String, Consumer<RecordedEvent>> handlers = Map.of();
    /** Counted down once JFR has written the recording to {@link #file}. */
    private final CountDownLatch written = new CountDownLatch(1);
    /**
     * How far apart the two readers may date one event: far above what was seen (hundreds of
     * nanoseconds), and below the shortest sampling interval (a millisecond), so a sample is not
     * taken for its neighbour; waits of one thread closer than this are told apart by which end
     * is nearest, each remembered end standing for one event of the file.
     */
    private static final long SAME_END = 100_000;
    /**
     * The ends of the events handed over within {@link #OVERLAP} of the newest, by type and
     * thread, and the same events in arrival order. Stream thread only, then the file's reader.
     */
    private final Map<Source, TreeSet<Long>> recent = new HashMap<>();
    private final ArrayDeque<Key> arrivals = new ArrayDeque<>();
    private volatile long newestNanos = Long.MIN_VALUE;

    /** Where events come from: their type and their thread. */
    record Source(String type, long threadId) {}

    /** An event by its type, its thread and when it ended: two events of one type and thread never end at one moment. */
    record Key(Source source, long endEpochNanos) {
        static Key of(RecordedEvent e) {
            RecordedThread t = e.hasField("sampledThread") ? e.getThread("sampledThread") : e.getThread();
            return new Key(new Source(e.getEventType().getName(), t == null ? -1 : t.getId()), JfrFrames.epochNanos(e.getEndTime()));
        }
    }

    /** About what one event remembered takes of the heap: its key and source, the tree's node and its Long, the queue's slot. */
    private static final long BYTES_PER_EVENT_REMEMBERED = 128;

    private RecordingEnd(Recording recording, Path file) {
        this.recording = recording;
        this.file = file;
    }

    /**
     * Has {@code recording} written to a private temporary file when it stops; null when JFR
     * refuses (the stream then reads what it can, as before). Its events go nowhere until {@link
     * #deliverTo}. {@code deleteOnExit}: for the JVM's own recording, which lives as long as the
     * JVM; not for a session's, as each would add to the JVM's list of files to delete for good.
     */
    static RecordingEnd prepare(Recording recording, boolean deleteOnExit) {
        Path file = null;
        RecordingEnd end = null;
        try {
            file = Files.createTempFile("tiprobe-jfr-end-", ".jfr");  // owner-only on POSIX
            if (deleteOnExit) file.toFile().deleteOnExit();  // should the JVM end before close() deletes it
            end = new RecordingEnd(recording, file);
            FlightRecorder.addListener(end);
            recording.setDestination(file);
            return end;
        } catch (IOException | RuntimeException e) {
            if (end != null) end.discard();
            else if (file != null) file.toFile().delete();
            return null;
        }
    }

    /**
     * Stops the recording, which writes it to the file: only what ended from a little before the
     * stream's newest event, as {@link #handOverRest} reads no more (a stop copies every chunk the
     * recording keeps, a minute of them, and syncs the file: tens of megabytes at the end of a
     * long session of waits). {@link IllegalStateException} where it had stopped already.
     */
    void stopRecording() {
        long newest = newestNanos;
        if (newest != Long.MIN_VALUE) {
            long behind = Math.max(0, JfrFrames.epochNanos(Instant.now()) - newest);
            recording.setMaxAge(Duration.ofNanos(behind).plus(OVERLAP).plus(OVERLAP));  // the second overlap: a margin
        }
        recording.stop();
    }

    /** Whether JFR has written the file: told at once by a stop made here, which writes it before it returns. */
    boolean written() {
        return written.getCount() == 0;
    }

    /** Where the events of each type go from now on, by the type's name: set before the stream that reads the recording starts. */
    void deliverTo(Map<String, Consumer<RecordedEvent>> handlers) {
        this.handlers = Map.copyOf(handlers);
    }

    /** The stream's handler: hands {@code e} over and remembers it for a while. */
    void handOver(RecordedEvent e) {
        try {
            Key key = Key.of(e);
            if (key.endEpochNanos() > newestNanos) newestNanos = key.endEpochNanos();
            if (recent.computeIfAbsent(key.source(), s -> new TreeSet<>()).add(key.endEpochNanos())) arrivals.add(key);
            long forgetBefore = newestNanos - OVERLAP.toNanos() - SAME_END;  // the file, read from OVERLAP back, may date an event up to SAME_END later
            while (!arrivals.isEmpty() && arrivals.peekFirst().endEpochNanos() < forgetBefore) forget(arrivals.pollFirst());
        } catch (RuntimeException | OutOfMemoryError unkeyed) {
            // handed over all the same; should the file have it too, it may come twice
        }
        Consumer<RecordedEvent> handler = handlers.get(e.getEventType().getName());
        if (handler != null) handler.accept(e);
    }

    @Override
    public void recordingStateChanged(Recording r) {
        // JFR tells of the stop only after the file is written, and not at all when writing failed;
        // a close alone (a recording that never stopped with its destination) writes nothing.
        if (r.getId() == recording.getId() && r.getState() == RecordingState.STOPPED) written.countDown();
    }

    /**
     * Waits up to {@code timeout} for JFR to have written the file; whether it has. Not at all for
     * a recording that never began (JFR's hook writes nothing for it), nor past its close without
     * word that it was written (JFR tells nothing of a write that failed).
     */
    boolean awaitWritten(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (!written.await(WRITTEN_LOOK.toMillis(), TimeUnit.MILLISECONDS)) {
                // the state waits for JFR's hook to let go of the recorder, which it may have written meanwhile
                RecordingState state = recording.getState();
                if (written.getCount() == 0) return true;
                if (state == RecordingState.NEW || state == RecordingState.CLOSED || System.nanoTime() - deadline > 0) return false;
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** How often {@link #awaitWritten} looks at the recording's state meanwhile. */
    private static final Duration WRITTEN_LOOK = Duration.ofMillis(50);

    /** About what the events remembered for the end take of the heap (read from any thread: a guess). */
    long estimatedBytes() {
        return BYTES_PER_EVENT_REMEMBERED * arrivals.size();
    }

    /** Lets go of {@code key}'s end, remembered or already taken by its twin in the file. */
    private void forget(Key key) {
        TreeSet<Long> ends = recent.get(key.source());
        if (ends != null && ends.remove(key.endEpochNanos()) && ends.isEmpty()) recent.remove(key.source());
    }

    /**
     * Whether the stream handed over the file's event {@code key}: an end remembered of its type
     * and thread within {@link #SAME_END} of it, the nearest, which then stands for no other.
     */
    private boolean takeTwin(Key key) {
        TreeSet<Long> ends = recent.get(key.source());
        if (ends == null) return false;
        long end = key.endEpochNanos();
        Long below = ends.floor(end);
        Long above = ends.ceiling(end);
        Long twin = below == null ? above : above == null ? below : end - below <= above - end ? below : above;
        if (twin == null || Math.abs(twin - end) > SAME_END) return false;
        forget(new Key(key.source(), twin));
        return true;
    }

    /**
     * Hands over the file's events that the stream had not: call once the file is written and the
     * stream's thread has ended. Chunks that end before the overlap are skipped unread (the file
     * holds up to a minute, in chunks of {@link JfrStream#CHUNK_PERIOD}). An event the handler
     * cannot take is left out, as the stream would.
     */
    void handOverRest() throws IOException {
        long from = newestNanos == Long.MIN_VALUE ? Long.MIN_VALUE : newestNanos - OVERLAP.toNanos();
        try (EventStream events = EventStream.openFile(file)) {
            if (from != Long.MIN_VALUE) events.setStartTime(Instant.ofEpochSecond(0, from));
            events.onEvent(e -> {
                try {
                    Consumer<RecordedEvent> handler = handlers.get(e.getEventType().getName());
                    if (handler == null) return;
                    Key key = Key.of(e);
                    if (key.endEpochNanos() >= from && !takeTwin(key)) handler.accept(e);
                } catch (RuntimeException unreadable) {
                    // left out, as a sample JFR could not take; the rest of the file goes on
                }
            });
            events.start();  // returns at the file's end
        }
    }

    /** Takes the file away from the recording (a stop no longer writes one), stops listening and deletes the file. */
    void discard() {
        try {
            recording.setDestination(null);
        } catch (IOException | RuntimeException e) {
            // stopped or closed already: it writes nothing more either way
        }
        try {
            FlightRecorder.removeListener(this);
        } catch (RuntimeException e) {
            // not registered, or JFR gone: nothing listens any more either way
        }
        file.toFile().delete();
    }
}
