package dev.tiprobe.agent.locks;

import dev.tiprobe.agent.EventEngine;
import dev.tiprobe.agent.Recorder;
import dev.tiprobe.agent.registry.CallbackStacks;
import dev.tiprobe.agent.registry.Registry;
import dev.tiprobe.jvmti.Capability;
import dev.tiprobe.jvmti.Event;
import dev.tiprobe.jvmti.Events;
import dev.tiprobe.jvmti.Jvmti;
import dev.tiprobe.options.AgentOptions.Locks;
import dev.tiprobe.recording.RecordingFormat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Lock profiling: JVMTI's MonitorContendedEnter and MonitorContendedEntered time each wait to
 * enter a monitor another thread holds, MonitorWait and MonitorWaited each {@code Object.wait};
 * waits at least as long as the threshold are recorded with the waiter's stack (taken in the
 * callback that ends the wait, where the waiting frame still is) and the monitor's class.
 *
 * <p>Beyond the peers, a contention that has lasted {@link #OWNER_AFTER_NANOS} (and the threshold)
 * gets its owner named: the engine's thread, which looks at the waits in progress every tick, asks
 * the VM who owns the monitor (GetObjectMonitorUsage) and takes that thread's stack at that moment,
 * so the page shows who held the lock, not only who waited. Those two calls stop threads briefly,
 * so they are made once per long wait only.
 */
public final class LockProfiler extends EventEngine<LockProfiler.Wait> {
    /** A contention must last this long (and the threshold) before its owner is looked up. */
    static final long OWNER_AFTER_NANOS = 5_000_000;

    /** A wait in progress; the owner fields are set by the engine's thread. */
    private static final class Pending {
        final long startNanos;
        final Object monitor;
        volatile boolean looked;
        volatile Thread owner;
        volatile CallbackStacks.Resolved ownerStack;

        Pending(long startNanos, Object monitor) {
            this.startNanos = startNanos;
            this.monitor = monitor;
        }
    }

    /** What a callback queues: a finished wait. */
    record Wait(long epochNanos, Thread thread, byte kind, String type, long waitNanos, CallbackStacks.Resolved stack,
                Thread owner, CallbackStacks.Resolved ownerStack) {}

    private final Jvmti jvmti;
    private final CallbackStacks stacks;
    private final CallbackStacks.Site enteredSite;
    private final CallbackStacks.Site waitedSite;
    private final long thresholdNanos;
    private final List<Events.Registration> registrations = new ArrayList<>();
    private final Map<Thread, Pending> contended = new ConcurrentHashMap<>();
    private final Map<Thread, Long> waiting = new ConcurrentHashMap<>();

    private LockProfiler(Jvmti jvmti, CallbackStacks stacks, Locks options, Recorder recorder) {
        super("tiprobe-locks", recorder);
        this.jvmti = jvmti;
        this.stacks = stacks;
        this.enteredSite = stacks.site();
        this.waitedSite = stacks.site();
        this.thresholdNanos = options.threshold().toNanos();
    }

    /** Starts recording waits of at least the threshold into {@code recorder}. */
    public static LockProfiler start(Jvmti jvmti, CallbackStacks stacks, Locks options, Recorder recorder) throws IOException {
        jvmti.addCapabilities(EnumSet.of(Capability.CAN_GENERATE_MONITOR_EVENTS, Capability.CAN_GET_MONITOR_INFO));
        recorder.info(RecordingFormat.INFO_LOCK_THRESHOLD, Long.toString(options.threshold().toNanos()));
        LockProfiler p = new LockProfiler(jvmti, stacks, options, recorder);
        p.startWriting();
        try {
            Events events = jvmti.events();
            p.registrations.add(events.on(Event.MONITOR_CONTENDED_ENTER, p::contendedEnter));
            p.registrations.add(events.on(Event.MONITOR_CONTENDED_ENTERED, p::contendedEntered));
            p.registrations.add(events.on(Event.MONITOR_WAIT, p::waitBegins));
            p.registrations.add(events.on(Event.MONITOR_WAITED, p::waitEnds));
        } catch (RuntimeException e) {
            p.close();
            throw e;
        }
        return p;
    }

    private void contendedEnter(Thread thread, Object monitor) {
        if (!tiprobes(thread)) contended.put(thread, new Pending(System.nanoTime(), monitor));
    }

    private void contendedEntered(Thread thread, Object monitor) {
        Pending p = contended.remove(thread);
        if (p == null) return;
        long waited = System.nanoTime() - p.startNanos;
        if (waited < thresholdNanos) return;
        CallbackStacks.Resolved stack = stacks.inCallback(enteredSite);
        if (stack != null) {
            offer(new Wait(recorder.now(), thread, RecordingFormat.LOCK_CONTENDED, Registry.typeName(monitor.getClass()),
                    waited, stack, p.owner, p.ownerStack));
        }
    }

    private void waitBegins(Thread thread, Object monitor, long timeoutMillis) {
        if (!tiprobes(thread)) waiting.put(thread, System.nanoTime());
    }

    private void waitEnds(Thread thread, Object monitor, boolean timedOut) {
        Long start = waiting.remove(thread);
        if (start == null) return;
        long waited = System.nanoTime() - start;
        if (waited < thresholdNanos) return;
        CallbackStacks.Resolved stack = stacks.inCallback(waitedSite);
        if (stack != null) {
            offer(new Wait(recorder.now(), thread, RecordingFormat.LOCK_WAIT, Registry.typeName(monitor.getClass()), waited, stack,
                    null, null));
        }
    }

    /** Names the owner of each contention that has lasted long enough, once. */
    @Override
    protected void tick() {
        long now = System.nanoTime();
        for (Pending p : contended.values()) {
            long waited = now - p.startNanos;
            if (p.looked || waited < Math.max(thresholdNanos, OWNER_AFTER_NANOS)) continue;
            p.looked = true;
            try {
                Thread owner = jvmti.monitorOwner(p.monitor);
                if (owner == null) continue;
                p.ownerStack = stacks.of(owner);
                p.owner = owner;
            } catch (RuntimeException e) {
                // the owner left meanwhile (or ended): the wait is recorded without it
            }
        }
    }

    @Override
    protected void write(Wait w) throws IOException {
        recorder.lock(w.epochNanos(), w.thread(), w.kind(), w.type(), w.waitNanos(), w.stack(), w.owner(), w.ownerStack());
    }

    @Override
    protected void stopEvents() {
        registrations.forEach(Events.Registration::close);
        registrations.clear();
        contended.clear();
        waiting.clear();
    }
}
