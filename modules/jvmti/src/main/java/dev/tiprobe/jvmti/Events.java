package dev.tiprobe.jvmti;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * JVMTI events as Java handlers: {@code events.on(Event.CLASS_PREPARE, (thread, type) -> ...)}.
 *
 * <p>Every callback is an FFM upcall, defined with its event in {@link Event}, registered in one
 * place ({@link Upcalls}), warmed before registration, and guarded: an event that fires while the same thread is already inside a
 * tiprobe callback (a class the handler itself loads, say) is dropped and counted, so handlers
 * never recurse; a Throwable from a handler is caught and counted, never reaching the VM. A
 * dropped ClassLoad or ClassPrepare is reconciled by {@link Jvmti#loadedClasses()}.
 *
 * <p>Several handlers may listen to one event; the event is enabled while at least one does.
 * Handlers run on the thread the VM posts the event on: ObjectFree, CompiledMethodLoad/Unload,
 * DynamicCodeGenerated and ClassUnload arrive on the VM's Service Thread, the others on the thread
 * that caused them (virtual threads included). Keep them short.
 */
public final class Events {
    /** Removes one handler; the event is disabled when its last handler goes. Idempotent. */
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    /** Per event: handler calls completed, events dropped as re-entrant, handler calls that threw. */
    public record Stats(long delivered, long droppedReentrant, long failed) {}

    static final class Counters {
        final AtomicLong delivered = new AtomicLong();
        final AtomicLong dropped = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
    }

    private final Jvmti jvmti;
    private final Native n;
    /** Handlers by event ordinal: read by the upcalls without locking, replaced whole under the lock. */
    private final AtomicReferenceArray<Object[]> handlers = new AtomicReferenceArray<>(Event.all().size());
    private final Counters[] counters = new Counters[Event.all().size()];
    private final AtomicReference<Throwable> lastFailure = new AtomicReference<>();

    Events(Jvmti jvmti, Native n) {
        this.jvmti = jvmti;
        this.n = n;
        for (Event<?> e : Event.all()) {
            handlers.set(e.index(), new Object[0]);
            counters[e.index()] = new Counters();
        }
    }

    /**
     * Adds {@code handler} for {@code event}, enabling the event (and adding the capability it
     * needs) when it is the first. Handlers run on the thread the VM posts the event on.
     */
    public <H> Registration on(Event<H> event, H handler) {
        return add(event, handler);
    }

    /**
     * Refused: GarbageCollectionStart runs on the VM thread, where a Java upcall crashes the JVM.
     *
     * @throws UnsupportedOperationException always
     */
    public Registration onGarbageCollectionStart(Runnable handler) {
        throw refuseGc("GarbageCollectionStart");
    }

    /**
     * Refused: GarbageCollectionFinish runs on the VM thread, where a Java upcall crashes the JVM.
     *
     * @throws UnsupportedOperationException always
     */
    public Registration onGarbageCollectionFinish(Runnable handler) {
        throw refuseGc("GarbageCollectionFinish");
    }

    private static UnsupportedOperationException refuseGc(String event) {
        return new UnsupportedOperationException(event + " handlers are refused: the event runs on the VM"
                + " thread, where a Java upcall crashes the JVM; use ObjectFree (tagged objects) or"
                + " java.lang.management GC notifications instead");
    }

    /** Counts for {@code event} since this facade was created. */
    public Stats stats(Event<?> event) {
        Counters c = counters[event.index()];
        return new Stats(c.delivered.get(), c.dropped.get(), c.failed.get());
    }

    /** The most recent Throwable a handler threw, or null. */
    public Throwable lastFailure() {
        return lastFailure.get();
    }

    /** Whether the VM currently posts {@code event} to tiprobe. */
    public synchronized boolean isEnabled(Event<?> event) {
        return handlers(event).length > 0;
    }

    Native n() {
        return n;
    }

    /** The Java object behind a callback's JNI reference (see {@link Handoff}); both arrive as raw addresses. */
    Object toJava(long jniEnv, long ref) {
        return ref == 0 ? null : n.handoff.toJava(MemorySegment.ofAddress(jniEnv), MemorySegment.ofAddress(ref));
    }

    /** The current handlers of {@code event}; never null. */
    Object[] handlers(Event<?> event) {
        return handlers.get(event.index());
    }

    void delivered(Event<?> event) {
        counters[event.index()].delivered.incrementAndGet();
    }

    void dropped(Event<?> event) {
        counters[event.index()].dropped.incrementAndGet();
    }

    /** A handler threw; never throws itself (it runs inside upcalls). */
    void failed(Event<?> event, Throwable t) {
        try {
            counters[event.index()].failed.incrementAndGet();
            lastFailure.set(t);
        } catch (Throwable ignored) {
            // Out of memory while counting: nothing more to do, and nothing may escape.
        }
    }

    private synchronized Registration add(Event<?> event, Object handler) {
        jvmti.ensureOpen();
        if (handler == null) throw new NullPointerException("handler");
        Object[] before = handlers(event);
        if (before.length == 0) {
            if (event.needs() != null) jvmti.ensureCapability(event.needs());
            Upcalls.install(n, this);
            enable(event, true);
        }
        Object[] after = Arrays.copyOf(before, before.length + 1);
        after[before.length] = handler;
        publish(event, after);
        return new Registration() {
            private boolean closed;

            @Override
            public void close() {
                synchronized (Events.this) {
                    if (closed) return;
                    closed = true;
                    remove(event, handler);
                }
            }
        };
    }

    private void remove(Event<?> event, Object handler) {
        Object[] before = handlers(event);
        int at = Arrays.asList(before).indexOf(handler);
        if (at < 0) return;
        Object[] after = new Object[before.length - 1];
        System.arraycopy(before, 0, after, 0, at);
        System.arraycopy(before, at + 1, after, at, before.length - at - 1);
        publish(event, after);
        if (after.length == 0 && !jvmti.isShutdown()) enable(event, false);
    }

    private void enable(Event<?> event, boolean on) {
        if (event == Event.CLASS_UNLOAD) {
            Upcalls.enableClassUnload(n, jvmti, on);
        } else {
            n.setEventNotificationMode(on, event.type());
        }
    }

    /** Disables every event and drops every handler; called by {@link Jvmti#shutdown()}. */
    synchronized void shutdown() {
        for (Event<?> e : Event.all()) {
            if (handlers(e).length > 0) {
                try {
                    enable(e, false);
                } catch (RuntimeException ignored) {
                    // Keep going: the other events must still be turned off.
                }
                publish(e, new Object[0]);
            }
        }
        Upcalls.uninstall(this);
    }

    private void publish(Event<?> event, Object[] list) {
        handlers.set(event.index(), list);
    }
}
