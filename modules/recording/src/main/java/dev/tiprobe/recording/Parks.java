package dev.tiprobe.recording;

import java.util.List;

/**
 * How a park ({@code LockSupport.park} with a blocker; JFR's {@code jdk.ThreadPark}) goes into the
 * views: as a lock, when the thread waited to take a synchronizer other threads held; as a wait,
 * when it waited for a condition or an event. Both the agent and a JFR file read back class a
 * park here, so they agree.
 *
 * <ul>
 *   <li><b>Lock</b> ({@link RecordingFormat#LOCK_PARKED}): the park is inside {@code acquire} of
 *   {@code AbstractQueuedSynchronizer} (or its long twin), which is how {@code ReentrantLock},
 *   the read-write lock's two locks, {@code Semaphore}, a worker's lock in {@code
 *   ThreadPoolExecutor} and the program's own synchronizers wait for their holders, or its
 *   blocker is one of the JDK's locks ({@code StampedLock} among them). A condition's {@code
 *   await} taking its lock back after a signal is a lock wait too.</li>
 *   <li><b>Wait</b> ({@link RecordingFormat#WAIT_PARKED}): everything else: a condition's {@code
 *   await} ({@code CyclicBarrier}, a blocking queue's {@code take}, an idle executor's worker), a
 *   {@code CountDownLatch}, a future's {@code get}, a park with no blocker.</li>
 * </ul>
 *
 * <p>A park's stack starts with the synchronizer's own frames ({@code Unsafe.park}, {@code
 * LockSupport.park}, the queue's loop): they are cut down to the frame where the program called
 * into {@code java.util.concurrent} ({@code ReentrantLock.lock}, {@code LinkedBlockingQueue.take}),
 * so the views credit the wait to the code that waits.
 */
public final class Parks {
    private Parks() {}

    /** A frame as the classing needs it: its class's binary name and its method's name. */
    public record Frame(String className, String methodName) {}

    /**
     * A park classed: {@code kind} {@link RecordingFormat#LOCK_PARKED} or {@link
     * RecordingFormat#WAIT_PARKED}; {@code synchronizer} the class the views name ({@code
     * java.util.concurrent.locks.ReentrantLock} for its {@code NonfairSync}); {@code entryFrame} the
     * index (leaf first) of the frame where the program called in, the frames before it cut.
     */
    public record Park(byte kind, String synchronizer, int entryFrame) {}

    private static final String LOCKS = "java.util.concurrent.locks.";
    private static final String CONCURRENT = "java.util.concurrent.";
    /**
     * The JDK's synchronizers that are locks, as the views name them: a park on one is a lock
     * wait whatever its frames (a stack cut already, read back from a JFR export, has lost its
     * {@code acquire}; a {@code StampedLock} has none).
     */
    private static final java.util.Set<String> OWNED = java.util.Set.of(LOCKS + "ReentrantLock", LOCKS + "ReentrantReadWriteLock",
            LOCKS + "StampedLock", CONCURRENT + "Semaphore", CONCURRENT + "ThreadPoolExecutor$Worker");

    /** Classes {@code blocker} ({@code null}: none) parked in {@code frames}, leaf first. */
    public static Park classify(String blocker, List<Frame> frames) {
        int entry = -1;
        boolean acquiring = false;
        for (int i = 0; i < frames.size() && machinery(frames.get(i).className()); i++) {
            entry = i;
            Frame f = frames.get(i);
            if (f.methodName().equals("acquire") && (f.className().equals(LOCKS + "AbstractQueuedSynchronizer")
                    || f.className().equals(LOCKS + "AbstractQueuedLongSynchronizer"))) {
                acquiring = true;
            }
        }
        // no blocker: a virtual thread parked pinned, whose blocker JFR does not see; the synchronizer is the API it called
        String named = blocker != null ? synchronizer(blocker) : acquiring ? frames.get(entry).className() : synchronizer(null);
        boolean lock = OWNED.contains(named) || acquiring && !named.equals(CONCURRENT + "CountDownLatch");
        return new Park(lock ? RecordingFormat.LOCK_PARKED : RecordingFormat.WAIT_PARKED, named, Math.max(0, entry));
    }

    /**
     * Whether a frame of this class is the park's own machinery, not the code that waits: the
     * synchronizers', {@code Unsafe.park}, and a virtual thread's park on its carrier.
     */
    private static boolean machinery(String className) {
        return className.startsWith(CONCURRENT) || className.equals("jdk.internal.misc.Unsafe") || className.equals("java.lang.VirtualThread")
                || className.equals("java.lang.System$1");
    }

    /**
     * What the views name a pinned virtual thread's park by: its synchronizer and why the thread
     * could not let go of its carrier ({@code VM call to app.Config.<clinit> on stack}, as JFR's
     * {@code jdk.VirtualThreadPinned} says; null: not said). A virtual thread that parks unpinned
     * leaves its carrier and JFR records no park for it.
     */
    public static String pinned(String synchronizer, String reason) {
        return synchronizer + " (virtual thread pinned" + (reason == null || reason.isBlank() ? "" : ": " + reason) + ")";
    }

    /**
     * The class the views name for a blocker: a JDK synchronizer's inner {@code Sync}, {@code
     * FairSync} or {@code NonfairSync} by the synchronizer itself; any other as it is; no
     * blocker as {@code [no blocker]}.
     */
    static String synchronizer(String blocker) {
        if (blocker == null) return "[no blocker]";
        int inner = blocker.lastIndexOf('$');
        if (blocker.startsWith(CONCURRENT) && inner > 0 && blocker.endsWith("Sync")) return blocker.substring(0, inner);
        return blocker;
    }
}
