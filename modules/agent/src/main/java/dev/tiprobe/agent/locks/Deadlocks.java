package dev.tiprobe.agent.locks;

import dev.tiprobe.agent.jvm.AgentThreads;
import dev.tiprobe.agent.registry.CallbackStacks;
import dev.tiprobe.agent.sink.Recorder;
import dev.tiprobe.recording.Deadlock;
import dev.tiprobe.recording.Stack;

import java.io.IOException;
import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Deadlocks while a session runs: once a {@link #look}, the VM is asked for threads waiting on
 * each other in a cycle, on monitors and on ownable synchronizers ({@code ReentrantLock}, the
 * read-write lock's write lock): {@code ThreadMXBean.findDeadlockedThreads}, which reads the VM's
 * own lock records at a safepoint and calls none of the application's code. Each cycle is
 * recorded once, when first found, with every thread's wanted and held locks and its stack, and
 * written out at once, so that a JVM killed while deadlocked keeps it. Virtual threads are not
 * among the threads the VM looks at.
 *
 * <p>A look is a safepoint of microseconds with a few hundred threads (and as long again while a
 * deadlock lasts); made once a second, it costs the program nothing measurable. A runtime
 * without {@code java.management} cannot link this class and has no deadlock report.
 */
public final class Deadlocks {
    private final ThreadMXBean threads;
    private final CallbackStacks stacks;
    private final Recorder recorder;
    /** The cycles recorded, by each thread and the lock it waits for (from the lowest thread id): each once. */
    private final Set<List<String>> reported = new HashSet<>();
    private final List<Deadlock> found = new CopyOnWriteArrayList<>();

    private Deadlocks(ThreadMXBean threads, CallbackStacks stacks, Recorder recorder) {
        this.threads = threads;
        this.stacks = stacks;
        this.recorder = recorder;
    }

    /** A watcher writing into {@code recorder}; null where the VM cannot find deadlocks among ownable synchronizers. */
    public static Deadlocks start(CallbackStacks stacks, Recorder recorder) {
        try {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            return threads.isSynchronizerUsageSupported() ? new Deadlocks(threads, stacks, recorder) : null;
        } catch (LinkageError | RuntimeException noManagement) {
            return null;
        }
    }

    /** The deadlocks found so far, in the order found. */
    public List<Deadlock> found() {
        return List.copyOf(found);
    }

    /**
     * Looks for deadlocks once; records each cycle not seen before. Called by one thread at a
     * time. A cycle already recorded costs one more look at the threads' waits (no stacks): asking
     * for the synchronizers a thread holds would walk the whole heap, so what each holds is taken
     * from the cycle itself and from its stack's monitors, and only for a new cycle.
     */
    public synchronized void look() throws IOException {
        long[] ids = threads.findDeadlockedThreads();
        if (ids == null) return;
        Map<Long, ThreadInfo> infos = new HashMap<>();
        for (ThreadInfo info : threads.getThreadInfo(ids)) {
            if (info != null) infos.put(info.getThreadId(), info);
        }
        for (List<ThreadInfo> cycle : cycles(infos)) {
            List<String> key = new ArrayList<>();
            cycle.forEach(t -> key.add(t.getThreadId() + " " + name(t.getLockInfo())));
            if (reported.contains(key)) continue;
            Deadlock d = deadlock(cycle);
            if (d == null) continue;  // a thread of it ended meanwhile: it was no deadlock
            reported.add(key);
            found.add(d);
            recorder.deadlock(d);
        }
    }

    /**
     * The cycles among {@code infos}, each from its thread with the lowest id, following who holds
     * what each waits for. A thread that waits on a cycle without being in it (the VM lists those
     * too) is left out.
     */
    static List<List<ThreadInfo>> cycles(Map<Long, ThreadInfo> infos) {
        List<List<ThreadInfo>> cycles = new ArrayList<>();
        Set<Long> placed = new HashSet<>();
        for (long start : new TreeSet<>(infos.keySet())) {
            List<ThreadInfo> path = new ArrayList<>();
            Map<Long, Integer> at = new HashMap<>();
            ThreadInfo t = infos.get(start);
            while (t != null && !placed.contains(t.getThreadId()) && !at.containsKey(t.getThreadId())) {
                at.put(t.getThreadId(), path.size());
                path.add(t);
                t = infos.get(t.getLockOwnerId());
            }
            path.forEach(p -> placed.add(p.getThreadId()));
            if (t == null || !at.containsKey(t.getThreadId())) continue;
            List<ThreadInfo> cycle = new ArrayList<>(path.subList(at.get(t.getThreadId()), path.size()));
            int lowest = 0;
            for (int i = 1; i < cycle.size(); i++) if (cycle.get(i).getThreadId() < cycle.get(lowest).getThreadId()) lowest = i;
            java.util.Collections.rotate(cycle, -lowest);
            cycles.add(cycle);
        }
        return cycles;
    }

    /**
     * The cycle with what each thread holds (the monitors its frames hold, and the lock of the
     * cycle that another thread waits for) and its stack now; null when one of them has ended.
     */
    private Deadlock deadlock(List<ThreadInfo> cycle) {
        long[] ids = cycle.stream().mapToLong(ThreadInfo::getThreadId).toArray();
        ThreadInfo[] withMonitors = threads.getThreadInfo(ids, true, false);
        Map<Long, Thread> alive = new HashMap<>();
        for (Thread t : AgentThreads.live()) alive.put(t.threadId(), t);
        List<Deadlock.Waiter> waiters = new ArrayList<>();
        for (int i = 0; i < ids.length; i++) {
            ThreadInfo info = cycle.get(i);
            Thread t = alive.get(ids[i]);
            if (t == null || withMonitors[i] == null) return null;
            List<String> held = new ArrayList<>();
            for (LockInfo l : withMonitors[i].getLockedMonitors()) held.add(name(l));
            for (ThreadInfo other : cycle) {
                String wanted = name(other.getLockInfo());
                if (other.getLockOwnerId() == ids[i] && !held.contains(wanted)) held.add(wanted);
            }
            Stack stack;
            try {
                stack = stacks.of(t);
            } catch (RuntimeException ended) {
                return null;
            }
            waiters.add(new Deadlock.Waiter(ids[i], info.getThreadName(), name(info.getLockInfo()), info.getLockOwnerId(),
                    held, stack == null ? Stack.NONE : stack));
        }
        return new Deadlock(recorder.now(), waiters);
    }

    /** {@code java.lang.Object@1b6d3586}, as thread dumps name a lock. */
    private static String name(LockInfo lock) {
        return lock == null ? "[unknown]" : lock.getClassName() + '@' + Integer.toHexString(lock.getIdentityHashCode());
    }
}
