package dev.tiprobe.agent.locks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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

    /**
     * The thread among {@code live} that owns what each of {@code parked} waits for, asked of
     * the VM in one call; a waiter whose synchronizer has no owner now (or one not among {@code
     * live}) is left out.
     */
    static Map<Thread, Thread> owners(ThreadMXBean threads, List<Thread> parked, List<Thread> live) {
        long[] ids = new long[parked.size()];
        for (int i = 0; i < ids.length; i++) ids[i] = parked.get(i).threadId();
        ThreadInfo[] infos = threads.getThreadInfo(ids);
        Map<Long, Thread> byId = new HashMap<>();
        for (Thread t : live) byId.put(t.threadId(), t);
        Map<Thread, Thread> owners = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            Thread owner = infos[i] == null ? null : byId.get(infos[i].getLockOwnerId());
            if (owner != null) owners.put(parked.get(i), owner);
        }
        return owners;
    }
}
