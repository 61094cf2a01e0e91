package dev.tiprobe.agent.locks;

import dev.tiprobe.agent.jfr.JfrFrames;
import dev.tiprobe.agent.jfr.JfrStream;
import dev.tiprobe.agent.registry.Registry;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.report.JfrLocks;
import dev.tiprobe.recording.Stack;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Waits as JFR measures them inside the VM: on monitors, {@code jdk.JavaMonitorEnter} and {@code
 * jdk.JavaMonitorWait}; on {@code java.util.concurrent}'s synchronizers and conditions, {@code
 * jdk.ThreadPark} and a pinned virtual thread's {@code jdk.VirtualThreadPinned}, classed as a lock
 * or a wait ({@link JfrLocks}); each
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
            s.enable(JfrLocks.THREAD_PARK).withThreshold(threshold).withStackTrace();
            s.enable(JfrLocks.VIRTUAL_THREAD_PINNED).withThreshold(threshold).withStackTrace();
            s.onEvent(ENTER, e -> waits.deliver(e, RecordingFormat.LOCK_CONTENDED));
            s.onEvent(WAIT, e -> waits.deliver(e, RecordingFormat.LOCK_WAIT));
            s.onEvent(JfrLocks.THREAD_PARK, waits::deliverPark);
            s.onEvent(JfrLocks.VIRTUAL_THREAD_PINNED, waits::deliverPark);
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
            // JVMTI's events bring a virtual thread's monitor waits (LockProfiler): JFR records only those of one pinned to its carrier
            if (waiter.isVirtual()) return;
            RecordedClass monitor = e.getClass("monitorClass");
            if (monitor != null && Registry.tiprobes(JfrFrames.binaryName(monitor.getName()))) return;  // a JVM thread in a callback of tiprobe's
            Stack stack = frames.stack(e.getStackTrace());
            if (stack == null) return;
            JfrLocks.Monitor m = JfrLocks.monitor(e, kind, JfrFrames.typeName(monitor));
            RecordedThread previous = m.previous();
            sink.accept(new Seen(JfrFrames.epochNanos(e.getEndTime()), waiter.getJavaThreadId(), waiter.getJavaName(), m.kind(),
                    m.type(), e.getDuration().toNanos(), stack,
                    previous == null ? 0 : previous.getJavaThreadId(), previous == null ? null : previous.getJavaName()));
        } catch (Throwable t) {
            failures.incrementAndGet();  // JFR's thread goes on with the next event
        }
    }

    /**
     * A park ({@link JfrLocks#park}): its stack cut to where the program called into {@code
     * java.util.concurrent}. JFR names no holder.
     */
    private void deliverPark(RecordedEvent e) {
        try {
            RecordedThread waiter = e.getThread();
            if (JfrFrames.machinery(waiter)) return;
            JfrLocks.Park park = JfrLocks.park(e);
            if (park == null) return;
            Stack stack = frames.stack(e.getStackTrace());
            if (stack == null) return;
            sink.accept(new Seen(JfrFrames.epochNanos(e.getEndTime()), waiter.getJavaThreadId(), waiter.getJavaName(), park.kind(),
                    park.type(), e.getDuration().toNanos(), withoutLeaves(stack, park.cutFrames()), 0, null));
        } catch (Throwable t) {
            failures.incrementAndGet();
        }
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
