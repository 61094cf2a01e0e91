package dev.tiprobe.agent.locks;

import dev.tiprobe.agent.jfr.JfrFrames;
import dev.tiprobe.agent.jfr.JfrStream;
import dev.tiprobe.agent.registry.Registry;
import dev.tiprobe.recording.ClassInitWaits;
import dev.tiprobe.recording.Parks;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.Stack;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Waits as JFR measures them inside the VM: on monitors, {@code jdk.JavaMonitorEnter} and {@code
 * jdk.JavaMonitorWait}; on {@code java.util.concurrent}'s synchronizers and conditions, {@code
 * jdk.ThreadPark} (with the blocker's class, classed as a lock or a wait by {@link Parks}); each
 * at the session's threshold, with the waiter's stack, read back through a {@link JfrStream}
 * about once a second.
 *
 * <p>Why not JVMTI's monitor events: with MonitorContendedEnter on, every contended entry of every
 * monitor leaves the VM for a callback before it queues, whatever its length, and the contended
 * path slows (LockBench: tiprobe's JVMTI events cost 7 to 13 % of a contended program's throughput,
 * an empty C agent's about 3 %); JFR times the same waits in the VM and records only those past
 * the threshold, at no cost LockBench can measure.
 *
 * <p>JFR names a frame by class, method and descriptor; the registry turns those into the
 * recording's method ids among the classes it has registered (nothing is loaded or looked up in
 * the VM), and a frame whose class is no longer there gets a token made of JFR's names. A wait on
 * one of tiprobe's threads, or with a frame of tiprobe's, is tiprobe's own and left out.
 */
final class JfrWaits implements AutoCloseable {
    private static final String ENTER = "jdk.JavaMonitorEnter";
    private static final String WAIT = "jdk.JavaMonitorWait";
    private static final String PARK = "jdk.ThreadPark";
    private static final String PINNED = "jdk.VirtualThreadPinned";
    /** Frames from the leaf a park's classing looks at: its synchronizer's own are the first few. */
    private static final int PARK_FRAMES_CLASSED = 32;

    /**
     * A wait JFR recorded: when it ended, the waiter, its stack, and the thread that released the
     * monitor last before the waiter got it ({@code previousOwner}: 0 when JFR names none).
     */
    record Seen(long endEpochNanos, long threadId, String threadName, byte kind, String type, long waitNanos,
                Stack stack, long previousOwnerId, String previousOwnerName) {}

    private final JfrFrames frames;
    private final Consumer<Seen> sink;
    private final AtomicLong failures = new AtomicLong();
    private JfrStream stream;

    private JfrWaits(Registry registry, int depth, Consumer<Seen> sink) {
        this.frames = new JfrFrames(registry, depth);
        this.sink = sink;
    }

    /**
     * Has JFR record monitor waits of {@code threshold} or more on the session's stream,
     * {@code shared} (which its owner begins); each wait goes to {@code sink}, on the stream's
     * thread. Throws as {@link JfrStream#unbegun} does.
     */
    static JfrWaits start(Registry registry, Duration threshold, int depth, JfrStream shared, Consumer<Seen> sink) {
        JfrWaits waits = new JfrWaits(registry, depth, sink);
        waits.stream = shared.with(s -> {
            s.enable(ENTER).withThreshold(threshold).withStackTrace();
            s.enable(WAIT).withThreshold(threshold).withStackTrace();
            s.enable(PARK).withThreshold(threshold).withStackTrace();
            s.enable(PINNED).withThreshold(threshold).withStackTrace();
            s.onEvent(ENTER, e -> waits.deliver(e, RecordingFormat.LOCK_CONTENDED));
            s.onEvent(WAIT, e -> waits.deliver(e, RecordingFormat.LOCK_WAIT));
            s.onEvent(PARK, waits::deliverPark);
            s.onEvent(PINNED, waits::deliverPark);
        });
        return waits;
    }

    /** Why the stream stopped before it was closed, or null while it runs. */
    Throwable failure() {
        return stream.failure();
    }

    /** Whether JFR has handed over everything recorded up to {@code nanoTime} (a flush since). */
    boolean deliveredUpTo(long nanoTime) {
        return stream.deliveredUpTo(nanoTime);
    }

    /** Events that could not be turned into waits (each left out). */
    long failures() {
        return failures.get();
    }

    private void deliver(RecordedEvent e, byte kind) {
        try {
            RecordedThread waiter = e.getThread();
            if (JfrFrames.machinery(waiter)) return;
            RecordedClass monitor = e.getClass("monitorClass");
            if (monitor != null && Registry.tiprobes(JfrFrames.binaryName(monitor.getName()))) return;  // a JVM thread in a callback of tiprobe's
            Stack stack = frames.stack(e.getStackTrace());
            if (stack == null) return;
            String type = JfrFrames.typeName(monitor);
            RecordedThread previous = kind == RecordingFormat.LOCK_CONTENDED ? e.getThread("previousOwner") : null;
            if (kind == RecordingFormat.LOCK_WAIT && ClassInitWaits.is(type, leaf(e.getStackTrace()))) {
                kind = RecordingFormat.LOCK_CONTENDED;  // waiting for the thread that initializes the class
                type = ClassInitWaits.TYPE;
                previous = e.getThread("notifier");
            }
            sink.accept(new Seen(JfrFrames.epochNanos(e.getEndTime()), waiter.getJavaThreadId(), waiter.getJavaName(), kind,
                    type, e.getDuration().toNanos(), stack,
                    previous == null ? 0 : previous.getJavaThreadId(), previous == null ? null : previous.getJavaName()));
        } catch (Throwable t) {
            failures.incrementAndGet();  // JFR's thread goes on with the next event
        }
    }

    /**
     * A park: classed as a lock or a wait by its blocker and frames ({@link Parks}), its stack cut
     * to where the program called into {@code java.util.concurrent}. JFR names no holder. A
     * virtual thread's park comes as {@code jdk.VirtualThreadPinned}, which says why it was
     * pinned (JFR's park event of the same park, which cannot name the blocker, is left out).
     */
    private void deliverPark(RecordedEvent e) {
        try {
            RecordedThread waiter = e.getThread();
            if (JfrFrames.machinery(waiter)) return;
            boolean pinned = e.getEventType().getName().equals(PINNED);
            if (!pinned && waiter.isVirtual()) return;
            RecordedClass blocker = pinned ? null : e.getClass("parkedClass");
            String blockerName = blocker == null ? null : JfrFrames.binaryName(blocker.getName());
            if (blockerName != null && Registry.tiprobes(blockerName)) return;
            RecordedStackTrace trace = e.getStackTrace();
            List<RecordedFrame> recorded = trace == null ? List.of() : trace.getFrames();
            List<Parks.Frame> classed = new ArrayList<>();
            for (int i = 0; i < Math.min(recorded.size(), PARK_FRAMES_CLASSED); i++) classed.add(frame(recorded.get(i)));
            Parks.Park park = Parks.classify(blockerName, classed);
            Stack stack = frames.stack(trace);
            if (stack == null) return;
            String type = pinned ? Parks.pinned(park.synchronizer(), e.hasField("pinnedReason") ? e.getString("pinnedReason") : null)
                    : park.synchronizer();
            sink.accept(new Seen(JfrFrames.epochNanos(e.getEndTime()), waiter.getJavaThreadId(), waiter.getJavaName(), park.kind(),
                    type, e.getDuration().toNanos(), withoutLeaves(stack, park.entryFrame()), 0, null));
        } catch (Throwable t) {
            failures.incrementAndGet();
        }
    }

    /** A stack's leaf frame as {@link Parks} and {@link ClassInitWaits} look at frames; null for none. */
    private static Parks.Frame leaf(RecordedStackTrace trace) {
        if (trace == null || trace.getFrames().isEmpty()) return null;
        return frame(trace.getFrames().getFirst());
    }

    /** A frame as {@link Parks} looks at it; a frame JFR names no method for as an empty name. */
    private static Parks.Frame frame(RecordedFrame f) {
        RecordedMethod m = f.getMethod();
        return m == null || m.getType() == null ? new Parks.Frame("", "") : new Parks.Frame(JfrFrames.binaryName(m.getType().getName()), m.getName());
    }

    /** {@code stack} from its frame {@code first} on. */
    private static Stack withoutLeaves(Stack stack, int first) {
        int cut = Math.min(first, stack.depth());
        if (cut == 0) return stack;
        return new Stack(Arrays.copyOfRange(stack.frames(), cut, stack.depth()), Arrays.copyOfRange(stack.lines(), cut, stack.depth()),
                stack.depth() - cut, stack.truncated());
    }

    /** Stops JFR's events (the session's others with them) and hands over what JFR still holds ({@link JfrStream#close}). */
    @Override
    public void close() {
        stream.close();
    }
}
