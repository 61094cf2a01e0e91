package dev.tiprobe.agent.locks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.List;

/**
 * Who holds the ownable synchronizer a thread is parked on, as the VM reads it for thread dumps
 * (the synchronizer's {@code exclusiveOwnerThread}, no code of the application's run). Apart, so
 * that a runtime without {@code java.management} fails in {@link #bean} alone.
 */
final class ParkOwners {
    private ParkOwners() {}

    /** The VM's threads bean; null where the runtime has no {@code java.management}. */
    static ThreadMXBean bean() {
        try {
            return ManagementFactory.getThreadMXBean();
        } catch (LinkageError | RuntimeException noManagement) {
            return null;
        }
    }

    /** The thread among {@code live} that owns what {@code parked} waits for; null when none does (or it is not among them). */
    static Thread owner(ThreadMXBean threads, Thread parked, List<Thread> live) {
        ThreadInfo info = threads.getThreadInfo(parked.threadId());
        long owner = info == null ? -1 : info.getLockOwnerId();
        if (owner <= 0) return null;
        for (Thread t : live) if (t.threadId() == owner) return t;
        return null;
    }
}
