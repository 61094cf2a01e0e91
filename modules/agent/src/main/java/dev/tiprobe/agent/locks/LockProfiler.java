package dev.tiprobe.agent.locks;

import dev.tiprobe.agent.jfr.JfrStream;
import dev.tiprobe.agent.jvm.AgentThreads;
import dev.tiprobe.agent.registry.CallbackStacks;
import dev.tiprobe.agent.registry.Registry;
import dev.tiprobe.agent.sink.EventEngine;
import dev.tiprobe.agent.sink.Recorder;
import dev.tiprobe.jvmti.Capability;
import dev.tiprobe.jvmti.Event;
import dev.tiprobe.jvmti.Events;
import dev.tiprobe.jvmti.Jvmti;
import dev.tiprobe.options.AgentOptions.Locks;
import dev.tiprobe.recording.LockWait;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.Reply;
import dev.tiprobe.recording.Stack;

import java.io.IOException;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;

/**
 * Lock profiling: waits to enter a monitor another thread holds or to take a {@code
 * java.util.concurrent} lock others hold (the {@code lock} view), and {@code Object.wait} or parks
 * for a condition or an event (the {@code wait} view), those at least as long as the threshold
 * recorded with the waiter's stack and the lock's class.
 *
 * <p>The waits come from JFR's monitor and park events ({@link JfrWaits}), which cost a contended
 * program nothing measurable; where the runtime has no JFR, the monitors' come from JVMTI's
 * (MonitorContendedEnter and Entered, MonitorWait and Waited), whose callbacks slow every
 * contended entry, and parks are not seen.
 *
 * <p>JFR records a virtual thread's monitor waits only while it is pinned to its carrier (JDK 25):
 * one that blocks to enter a monitor or waits in {@code Object.wait} lets go of its carrier, and
 * JFR writes no event of it, where JVMTI's events come for virtual threads as for platform ones.
 * So while the program has virtual threads (a carrier of theirs is alive: {@link
 * #lookForVirtualThreads}), JVMTI's contended and wait events are on, and every monitor wait of a
 * virtual thread is taken from them ({@link JfrWaits} leaves JFR's out); a platform thread's still
 * come from JFR. Every contended entry and every {@code Object.wait} of the program then pays for
 * two callbacks, and a virtual thread's wait for a walk of its stack as it begins. A virtual
 * thread's parks ({@code ReentrantLock}, queues) are in no event but while it is pinned: the wall
 * view shows where they wait.
 *
 * <p>Beyond the peers, a wait that has lasted {@link #OWNER_AFTER_NANOS} (and the threshold)
 * gets its holder named with the holder's stack at that moment, so the page shows who held the
 * lock, not only who waited. For monitors, the engine's thread looks at the contentions in
 * progress every tick and asks the VM who owns the monitor (GetObjectMonitorUsage); knowing the
 * contentions in progress takes JVMTI's contended events, so with JFR they are on only while
 * contentions that long are happening (the <em>owner watch</em>: on from the session's start
 * until JFR has handed over its events of the session's first second, which on a busy machine
 * takes seconds, so the first long waits get their owners too; then on at each long one JFR
 * reports, off after {@link #WATCH_IDLE_NANOS} without); the owners it names join JFR's waits by
 * thread and end time. A long wait JFR reports while the watch is off names the thread that
 * released the monitor to the waiter (JFR's previous owner), without its stack. For ownable
 * synchronizers, the park watch ({@link #lookAtParks}) does the same by reading each thread's
 * park blocker, on while long parks on locks are being reported.
 */
public final class LockProfiler extends EventEngine<LockProfiler.Wait> {
    /** A contention must last this long (and the threshold) before its owner is looked up. */
    static final long OWNER_AFTER_NANOS = 5_000_000;
    /** With JFR, the owner watch goes off after this long without a contention that long. */
    static final long WATCH_IDLE_NANOS = 10_000_000_000L;
    /** An owner the watch named belongs to JFR's wait of the same thread ending this close to it. */
    static final long SAME_WAIT_NANOS = 10_000_000;
    /** An owner named that no JFR wait took within this long is dropped. */
    private static final long NAMED_KEPT_NANOS = 10_000_000_000L;

    /**
     * Who held the monitor; its stack when the owner watch took it (resolved at {@code
     * resolvedNanos}), else null.
     */
    record Owner(long threadId, String threadName, Stack stack, long resolvedNanos) {}

    /** A finished wait, queued for writing; {@code owner} null when unknown. */
    record Wait(long epochNanos, long threadId, String threadName, byte kind, String type, long waitNanos,
                Stack stack, Owner owner) {}

    /** A contention in progress; the owner is set by the engine's thread. */
    private static final class Pending {
        final long startNanos;
        final Object monitor;
        volatile boolean looked;
        volatile Owner owner;

        Pending(long startNanos, Object monitor) {
            this.startNanos = startNanos;
            this.monitor = monitor;
        }
    }

    /**
     * An owner the watch named, waiting for JFR's report of the same wait: a monitor's when its
     * wait ended ({@code atEpochNanos}), a park's while it lasted.
     */
    private record Named(long threadId, long atEpochNanos, long seenNanos, Owner owner) {}


    private final Jvmti jvmti;
    private final CallbackStacks stacks;
    private final CallbackStacks.Site enteredSite;
    private final CallbackStacks.Site waitedSite;
    /** Where a virtual thread's wait begins ({@link Waiting}). */
    private final CallbackStacks.Site waitSite;
    private final long thresholdNanos;
    /**
     * The wait events' registrations: on for good when the waits come from JVMTI's events, with
     * JFR while the program has virtual threads (JFR records none of their waits); else empty.
     */
    private final List<Events.Registration> waitRegistrations = new ArrayList<>();
    /** The contended events' registrations: empty while the owner watch is off. */
    private final List<Events.Registration> watchRegistrations = new ArrayList<>();
    /**
     * Set as the events stop, under this object's lock: a tick that runs after it (the engine's
     * last round, the closing thread's) turns nothing on again, which would leave JVMTI's events
     * calling a closed engine for the JVM's life.
     */
    private boolean eventsStopped;
    /** Whether the program had virtual threads at the last look, with JFR (whose events hold none of theirs). */
    private volatile boolean virtualThreads;
    /** When the engine's thread last looked for virtual threads' carriers, by {@link System#nanoTime()}; 0: never. */
    private long carriersLookedAt;
    /** How often the engine's thread looks for virtual threads' carriers. */
    private static final long CARRIERS_LOOK_NANOS = 200_000_000L;
    /** Contentions in progress by thread id (a Thread's own hashCode may be the program's code, which a callback must not run). */
    private final Map<Long, Pending> contended = new ConcurrentHashMap<>();
    /** Object.wait calls in progress by thread id, when the waits come from JVMTI's events. */
    private final Map<Long, Waiting> waiting = new ConcurrentHashMap<>();

    /**
     * An {@code Object.wait} in progress: when it began, and a virtual thread's stack as it began,
     * else null. A virtual thread that waits lets go of its carrier, and JVMTI tells the end of its
     * wait as it mounts again, before its frames are back on the stack: a walk then finds none.
     */
    private record Waiting(long startNanos, Stack stack) {}

    /**
     * The most virtual threads' waits followed at once, each holding its stack: a program may
     * have a million virtual threads in {@code Object.wait}. Past it a wait is dropped and counted.
     */
    static final int MOST_VIRTUAL_WAITS = 2_000;
    /** Null when the waits come from JVMTI's events. */
    private volatile JfrWaits jfr;
    private final ConcurrentLinkedQueue<Named> named = new ConcurrentLinkedQueue<>();
    /**
     * Owners' stacks the watch resolved and that are not written yet, wherever they are (a wait
     * in progress, one waiting for JFR's report, one queued): {@link #heldBesideTheQueue}. Each
     * leaves once written or dropped; any left after {@link #HELD_KEPT_NANOS} are forgotten.
     */
    private final java.util.Set<Owner> ownersHeld = ConcurrentHashMap.newKeySet();
    /** Past this, an owner's stack no longer holds back retirement (which waits three seconds at most anyway). */
    private static final long HELD_KEPT_NANOS = 60_000_000_000L;
    /** When JFR last reported a monitor contention long enough for the owner watch; 0: never. */
    private volatile long lastLongContentionNanos;
    /** When JFR last reported a lock's park long enough for the park watch ({@link #lookAtParks}); 0: never. */
    private volatile long lastLongParkNanos;
    /** The session's start: until JFR has handed over its events of the second after it, the owner watch is on. */
    private final long startNanos = System.nanoTime();
    /**
     * The blocker of each thread the park watch saw parked on an ownable synchronizer at its last
     * look, by identity (a Thread subclass's own equals is the program's code); the engine's thread's alone.
     */
    private final Map<Thread, Object> parked = new java.util.IdentityHashMap<>();
    /** Who holds a parked thread's synchronizer (the VM reads it); null without java.management. */
    private final ThreadMXBean vmThreads = ParkOwners.bean();

    private LockProfiler(Jvmti jvmti, CallbackStacks stacks, Locks options, Recorder recorder) {
        super("tiprobe-locks", recorder);
        this.jvmti = jvmti;
        this.stacks = stacks;
        this.enteredSite = stacks.site();
        this.waitedSite = stacks.site();
        this.waitSite = stacks.site();
        this.thresholdNanos = options.threshold().toNanos();
    }

    /** {@code waits of 1.0 ms or more}. */
    @Override
    public String describe() {
        return "waits of " + thresholdNanos / 1e6 + " ms or more";
    }

    @Override
    public Progress progress() {
        long n = written();  // read once: the count and its text agree
        return new Progress(Reply.WAITS, n, n + " waits");
    }

    /**
     * Starts recording waits of at least the threshold into {@code recorder}: JFR's on the
     * session's stream, which {@code jfr} makes (it throws where the runtime has no JFR) and its
     * owner begins, else JVMTI's.
     */
    public static LockProfiler start(Jvmti jvmti, Registry registry, CallbackStacks stacks, int depth, Locks options,
                                     Supplier<JfrStream> jfr, Recorder recorder) throws IOException {
        jvmti.addCapabilities(EnumSet.of(Capability.CAN_GENERATE_MONITOR_EVENTS, Capability.CAN_GET_MONITOR_INFO));
        recorder.info(RecordingFormat.INFO_LOCK_THRESHOLD, Long.toString(options.threshold().toNanos()));
        LockProfiler p = new LockProfiler(jvmti, stacks, options, recorder);
        p.startWriting();
        try {
            try {
                p.jfr = JfrWaits.start(registry, options.threshold(), depth, jfr.get(), p::reported);
                recorder.info(RecordingFormat.INFO_LOCK_SOURCE, RecordingFormat.LOCK_SOURCE_JFR);
            } catch (RuntimeException | LinkageError e) {
                p.useJvmti(e);
            }
        } catch (IOException | RuntimeException e) {
            p.close();
            throw e;
        }
        return p;
    }

    /** Takes the waits from JVMTI's events from now on, JFR having failed {@code why}. */
    private synchronized void useJvmti(Throwable why) throws IOException {
        if (eventsStopped) return;
        jfr = null;
        watch(true);
        waits(true);  // from now on they bring every thread's waits (waitBegins reads jfr)
        recorder.info(RecordingFormat.INFO_LOCK_SOURCE, RecordingFormat.LOCK_SOURCE_JVMTI);
        recorder.info(RecordingFormat.INFO_LOCK_SOURCE_WHY, EventEngine.whyNoJfr(why));
    }

    /** Turns JVMTI's contended events on or off (with JFR, the owner watch); never on once the events stopped. */
    private synchronized void watch(boolean on) {
        if (on == !watchRegistrations.isEmpty() || on && eventsStopped) return;
        if (on) {
            Events events = jvmti.events();
            watchRegistrations.add(events.on(Event.MONITOR_CONTENDED_ENTER, this::contendedEnter));
            watchRegistrations.add(events.on(Event.MONITOR_CONTENDED_ENTERED, this::contendedEntered));
        } else {
            closeAll(watchRegistrations);
            contended.values().forEach(p -> release(p.owner));
            contended.clear();
        }
    }

    /** Turns JVMTI's wait events on or off (with JFR, for virtual threads' waits); never on once the events stopped. */
    private synchronized void waits(boolean on) {
        if (on == !waitRegistrations.isEmpty() || on && eventsStopped) return;
        if (on) {
            Events events = jvmti.events();
            waitRegistrations.add(events.on(Event.MONITOR_WAIT, this::waitBegins));
            waitRegistrations.add(events.on(Event.MONITOR_WAITED, this::waitEnds));
        } else {
            closeAll(waitRegistrations);
            waiting.clear();  // a wait whose end comes while they are off is not followed, nor one begun then
        }
    }

    /**
     * Whether a carrier of virtual threads is alive, looked at once a {@link #CARRIERS_LOOK_NANOS}
     * (the engine's thread): the program runs virtual threads, or did a moment ago.
     */
    private boolean lookForVirtualThreads(long now) {
        if (carriersLookedAt != 0 && now - carriersLookedAt < CARRIERS_LOOK_NANOS) return virtualThreads;
        carriersLookedAt = now;
        for (Thread t : AgentThreads.live()) {
            if (AgentThreads.carriesVirtualThreads(t)) return virtualThreads = true;
        }
        return virtualThreads = false;
    }

    private static void closeAll(List<Events.Registration> registrations) {
        registrations.forEach(Events.Registration::close);
        registrations.clear();
    }

    private void contendedEnter(Thread thread, Object monitor) {
        if (!tiprobes(thread) && !Registry.tiprobes(monitor.getClass().getName())) contended.put(thread.threadId(), new Pending(System.nanoTime(), monitor));
    }

    private void contendedEntered(Thread thread, Object monitor) {
        Pending p = contended.remove(thread.threadId());
        if (p == null) return;
        long waited = System.nanoTime() - p.startNanos;
        if (waited < thresholdNanos) {
            release(p.owner);
            return;
        }
        if (jfr != null && !thread.isVirtual()) {
            // JFR reports the wait itself; what only this callback knew is the owner
            if (p.owner != null) named.add(new Named(thread.threadId(), recorder.now(), System.nanoTime(), p.owner));
            return;
        }
        Stack stack = stacks.inCallback(enteredSite);
        if (stack == null) {
            release(p.owner);
            return;
        }
        offer(new Wait(recorder.now(), thread.threadId(), thread.getName(), RecordingFormat.LOCK_CONTENDED,
                Registry.typeName(monitor.getClass()), waited, stack, p.owner));
    }

    private void waitBegins(Thread thread, Object monitor, long timeoutMillis) {
        if (jfr != null && !thread.isVirtual()) return;  // JFR reports a platform thread's wait
        if (tiprobes(thread) || Registry.tiprobes(monitor.getClass().getName())) return;
        long start = System.nanoTime();
        if (!thread.isVirtual()) {
            waiting.put(thread.threadId(), new Waiting(start, null));
        } else if (waiting.size() >= MOST_VIRTUAL_WAITS) {
            countDropped(1);
        } else {
            Stack stack = stacks.inCallback(waitSite);
            if (stack != null) waiting.put(thread.threadId(), new Waiting(start, stack));
        }
    }

    private void waitEnds(Thread thread, Object monitor, boolean timedOut) {
        Waiting w = waiting.remove(thread.threadId());
        if (w == null) return;
        long waited = System.nanoTime() - w.startNanos();
        if (waited < thresholdNanos) return;
        Stack stack = w.stack() != null ? w.stack() : stacks.inCallback(waitedSite);
        if (stack != null) {
            offer(new Wait(recorder.now(), thread.threadId(), thread.getName(), RecordingFormat.LOCK_WAIT,
                    Registry.typeName(monitor.getClass()), waited, stack, null));
        }
    }

    /** A wait JFR reported, on JFR's stream thread: its owner is the watch's, or JFR's previous owner. */
    private void reported(JfrWaits.Seen s) {
        Owner owner = null;
        if (s.waitNanos() >= ownerAfterNanos() && s.kind() == RecordingFormat.LOCK_CONTENDED) lastLongContentionNanos = System.nanoTime();
        if (s.waitNanos() >= ownerAfterNanos() && s.kind() == RecordingFormat.LOCK_PARKED) lastLongParkNanos = System.nanoTime();
        if (s.kind() == RecordingFormat.LOCK_CONTENDED) {
            owner = takeNamed(s.threadId(), s.endEpochNanos() - SAME_WAIT_NANOS, s.endEpochNanos() + SAME_WAIT_NANOS, s.endEpochNanos());
            if (owner == null && s.previousOwnerId() != 0) owner = new Owner(s.previousOwnerId(), s.previousOwnerName(), null, 0);
        } else if (s.kind() == RecordingFormat.LOCK_PARKED) {
            // the look fell within the park; JFR's clock and the recording's may differ by a little
            owner = takeNamed(s.threadId(), s.endEpochNanos() - s.waitNanos() - SAME_WAIT_NANOS, s.endEpochNanos() + SAME_WAIT_NANOS,
                    s.endEpochNanos());
        }
        offer(new Wait(s.endEpochNanos(), s.threadId(), s.threadName(), s.kind(), s.type(), s.waitNanos(), s.stack(), owner));
    }

    /** The owner the watch named for {@code threadId} between {@code from} and {@code to}, nearest {@code near}, taken. */
    private Owner takeNamed(long threadId, long from, long to, long near) {
        Named best = null;
        for (Named n : named) {
            if (n.threadId() == threadId && n.atEpochNanos() >= from && n.atEpochNanos() <= to
                    && (best == null || Math.abs(n.atEpochNanos() - near) < Math.abs(best.atEpochNanos() - near))) {
                best = n;
            }
        }
        return best != null && named.remove(best) ? best.owner() : null;
    }

    /** Whether {@code last} (0: never) is within {@link #WATCH_IDLE_NANOS} of {@code now}. */
    private static boolean recently(long last, long now) {
        return last != 0 && now - last < WATCH_IDLE_NANOS;
    }

    private long ownerAfterNanos() {
        return Math.max(thresholdNanos, OWNER_AFTER_NANOS);
    }

    /**
     * Names the owner of each contention that has lasted long enough, once; with JFR, turns the
     * owner watch on or off and forgets owners no wait took.
     */
    @Override
    protected void tick() {
        long now = System.nanoTime();
        JfrWaits j = jfr;
        if (j != null && j.failure() != null) {
            try {
                useJvmti(j.failure());
            } catch (IOException | RuntimeException e) {
                // the recording is closing: nothing more to record
            }
        } else if (j != null) {
            boolean jfrCaughtUp = j.deliveredUpTo(startNanos + 1_000_000_000L);
            boolean virtual = lookForVirtualThreads(now);
            watch(!jfrCaughtUp || recently(lastLongContentionNanos, now) || virtual);
            waits(virtual);
            if (!jfrCaughtUp || recently(lastLongParkNanos, now)) lookAtParks();
            else parked.clear();
            named.removeIf(n -> {
                boolean old = now - n.seenNanos() > NAMED_KEPT_NANOS;
                if (old) release(n.owner());
                return old;
            });
        }
        // One look a tick at each monitor, however many threads wait for it (the others' turn comes at
        // the next ticks): asking the VM who owns a monitor stops every thread, and a hundred virtual
        // threads may queue on one.
        Set<Object> lookedAtThisTick = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Pending p : contended.values()) {
            long waited = now - p.startNanos;
            if (p.looked || waited < ownerAfterNanos() || !lookedAtThisTick.add(p.monitor)) continue;
            p.looked = true;
            Owner o = null;
            try {
                Thread owner = jvmti.monitorOwner(p.monitor);
                long resolving = System.nanoTime();  // within this round: the drain's mark covers it until held
                Stack stack = owner == null ? null : stacks.of(owner);
                if (stack != null) {
                    o = new Owner(owner.threadId(), owner.getName(), stack, resolving);
                    ownersHeld.add(o);
                }
            } catch (RuntimeException e) {
                // the owner left meanwhile (or ended; or a virtual thread, whose stack JVMTI walks only with a capability
                // the lock view does not add): the wait is recorded without it
            }
            p.owner = o;
        }
    }

    /**
     * Names the holder of each park on an ownable synchronizer ({@code ReentrantLock}, a
     * read-write lock's write lock, a worker's lock) in progress at one of the watch's looks
     * (every tick, so a park of 20 ms or more is always seen), once: the watch lists the platform
     * threads and reads each one's blocker (a field); for the parks it sees first, it asks the VM
     * in one call who owns each synchronizer ({@code ThreadInfo.getLockOwnerId}; with no stack
     * asked for, the VM answers without stopping the threads) and takes each owner's stack once.
     * JFR's report of the park picks the owner up by thread and time. The watch looks while long
     * parks on locks are being reported, as the owner watch does for monitors.
     */
    private void lookAtParks() {
        if (vmThreads == null) return;
        List<Thread> live = AgentThreads.live();
        java.util.Set<Thread> alive = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        alive.addAll(live);
        parked.keySet().retainAll(alive);
        List<Thread> firstSeen = new ArrayList<>();
        for (Thread t : live) {
            Object blocker = tiprobes(t) ? null : java.util.concurrent.locks.LockSupport.getBlocker(t);
            if (!(blocker instanceof java.util.concurrent.locks.AbstractOwnableSynchronizer)) {
                parked.remove(t);
            } else if (parked.put(t, blocker) != blocker) {
                firstSeen.add(t);
            }
        }
        if (firstSeen.isEmpty()) return;
        long seenAt = recorder.now();
        Map<Thread, Owner> owners = new java.util.IdentityHashMap<>();
        try {
            ParkOwners.owners(vmThreads, firstSeen, live).forEach((waiter, holder) -> {
                Owner o = owners.computeIfAbsent(holder, h -> {
                    long resolving = System.nanoTime();
                    Stack stack = stacks.of(h);
                    return stack == null ? null : new Owner(h.threadId(), h.getName(), stack, resolving);
                });
                if (o == null) return;
                ownersHeld.add(o);
                named.add(new Named(waiter.threadId(), seenAt, o.resolvedNanos(), o));
            });
        } catch (RuntimeException e) {
            // a holder let go or ended meanwhile: its waiters' parks are recorded without it
        }
    }

    /** The owners' stacks the watch resolved and that are not written yet ({@link #ownersHeld}). */
    @Override
    protected long heldBesideTheQueue() {
        long now = System.nanoTime();
        long since = IDLE;
        for (Owner o : ownersHeld) {
            if (now - o.resolvedNanos() > HELD_KEPT_NANOS) ownersHeld.remove(o);  // dropped on a path that did not release it (a full queue)
            else since = Math.min(since, o.resolvedNanos());
        }
        return since;
    }

    /** An owner's stack is written or dropped: it no longer holds back retirement. */
    private void release(Owner o) {
        if (o != null && o.stack() != null) ownersHeld.remove(o);
    }

    @Override
    protected boolean gathered(long nanoTime) {
        return jfr == null || jfr.deliveredUpTo(nanoTime);
    }

    @Override
    protected boolean write(Wait w) throws IOException {
        Owner o = w.owner();
        try {
            return recorder.write(w.epochNanos(), LockWait.KIND, new LockWait(w.epochNanos(), w.threadId(), w.threadName(), w.kind(),
                    w.type(), w.waitNanos(), w.stack(), o == null ? 0 : o.threadId(), o == null ? null : o.threadName(),
                    o == null ? null : o.stack()));
        } finally {
            release(o);
        }
    }

    @Override
    protected void stopEvents() {
        try {
            JfrWaits j = jfr;
            if (j != null) {
                j.close();  // JFR hands over what it still holds first
                countDropped(j.failures());
            }
        } finally {
            synchronized (this) {  // as useJvmti, which the engine's thread may still run
                eventsStopped = true;
                watch(false);
                closeAll(waitRegistrations);
            }
            waiting.clear();
        }
    }
}
