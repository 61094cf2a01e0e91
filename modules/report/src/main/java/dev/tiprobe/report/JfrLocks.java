package dev.tiprobe.report;

import dev.tiprobe.ids.JfrNames;
import dev.tiprobe.recording.ClassInitWaits;
import dev.tiprobe.recording.Parks;
import dev.tiprobe.recording.RecordingFormat;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

import java.util.ArrayList;
import java.util.List;

/**
 * How JFR's lock events go into the lock and wait views, alike for the agent's live stream and
 * for a JFR file read back: a park ({@code jdk.ThreadPark}, a pinned virtual thread's {@code
 * jdk.VirtualThreadPinned}) classed by {@link Parks}, and a monitor wait that is a wait for another
 * thread's class initialization ({@link ClassInitWaits}).
 */
public final class JfrLocks {
    private JfrLocks() {}

    public static final String THREAD_PARK = "jdk.ThreadPark";
    public static final String VIRTUAL_THREAD_PINNED = "jdk.VirtualThreadPinned";
    /** Frames from the leaf a park's classing looks at: its synchronizer's own are the first few. */
    private static final int FRAMES_CLASSED = 32;

    /**
     * A park as the views take it: its kind ({@code LOCK_PARKED} or {@code WAIT_PARKED}), the
     * type they name, and how many leaf frames (the synchronizer's own) to cut from its stack.
     */
    public record Park(byte kind, String type, int cutFrames) {}

    /**
     * The park a {@code jdk.ThreadPark} or {@code jdk.VirtualThreadPinned} event stands for; null
     * for none: a virtual thread's {@code jdk.ThreadPark} (its pinned event, which says why it was
     * pinned, stands for it), or a pin while entering a monitor, in {@code Object.wait} or waiting
     * for a class's initialization (JFR's monitor events report those).
     */
    public static Park park(RecordedEvent e) {
        boolean pinned = e.getEventType().getName().equals(VIRTUAL_THREAD_PINNED);
        RecordedThread thread = e.getThread();
        if (!pinned && thread != null && thread.isVirtual()) return null;
        if (pinned && !(e.hasField("blockingOperation") && "LockSupport.park".equals(e.getString("blockingOperation")))) return null;
        RecordedClass blocker = !pinned && e.hasField("parkedClass") ? e.getClass("parkedClass") : null;
        RecordedStackTrace trace = e.getStackTrace();
        List<RecordedFrame> recorded = trace == null ? List.of() : trace.getFrames();
        List<Parks.Frame> frames = new ArrayList<>();
        for (int i = 0; i < Math.min(recorded.size(), FRAMES_CLASSED); i++) frames.add(frame(recorded.get(i)));
        Parks.Park p = Parks.classify(blocker == null ? null : JfrNames.binaryName(blocker.getName()), frames);
        String type = pinned ? Parks.pinned(p.synchronizer(), e.hasField("pinnedReason") ? e.getString("pinnedReason") : null)
                : p.synchronizer();
        return new Park(p.kind(), type, p.entryFrame());
    }

    /**
     * A monitor's wait as the views take it: its kind ({@code LOCK_CONTENDED} or {@code
     * LOCK_WAIT}), the type they name, and the thread JFR names beside it (the previous owner of a
     * contended monitor, the initializing thread of a class; null for none).
     */
    public record Monitor(byte kind, String type, RecordedThread previous) {}

    /**
     * A {@code jdk.JavaMonitorEnter} ({@code kind} {@code LOCK_CONTENDED}) or {@code
     * jdk.JavaMonitorWait} ({@code LOCK_WAIT}) on a monitor the views name {@code monitorType}; a
     * wait that is for another thread's class initialization is contention, named as such.
     */
    public static Monitor monitor(RecordedEvent e, byte kind, String monitorType) {
        if (kind == RecordingFormat.LOCK_CONTENDED) {
            return new Monitor(kind, monitorType, e.hasField("previousOwner") ? e.getThread("previousOwner") : null);
        }
        RecordedStackTrace trace = e.getStackTrace();
        if (ClassInitWaits.is(monitorType, trace == null || trace.getFrames().isEmpty() ? null : frame(trace.getFrames().getFirst()))) {
            return new Monitor(RecordingFormat.LOCK_CONTENDED, ClassInitWaits.TYPE, e.hasField("notifier") ? e.getThread("notifier") : null);
        }
        return new Monitor(kind, monitorType, null);
    }

    /** A frame as {@link Parks} looks at it; one JFR names no method for, as empty names. */
    private static Parks.Frame frame(RecordedFrame f) {
        RecordedMethod m = f.getMethod();
        return m == null || m.getType() == null ? new Parks.Frame("", "")
                : new Parks.Frame(JfrNames.binaryName(m.getType().getName()), m.getName());
    }
}
