package dev.tiprobe.jvmti;

import java.security.ProtectionDomain;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * JVMTI events as Java handlers.
 *
 * <p>Every callback is an FFM upcall registered in one place ({@link Upcalls}), warmed before
 * registration, and guarded: an event that fires while the same thread is already inside a
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
    /** ClassLoad: a class was created; it may have no methods yet (see ClassPrepare). */
    @FunctionalInterface
    public interface ClassLoadHandler {
        void classLoad(Thread thread, Class<?> type);
    }

    /** ClassPrepare: methods and fields exist from here on. */
    @FunctionalInterface
    public interface ClassPrepareHandler {
        void classPrepare(Thread thread, Class<?> type);
    }

    /**
     * ClassFileLoadHook: return new class file bytes, or null to leave the class unchanged. Several
     * handlers chain: each sees the previous one's output. {@code name} is the internal name
     * ({@code java/lang/String}), null for some hidden classes.
     */
    @FunctionalInterface
    public interface ClassFileLoadHookHandler {
        byte[] transform(ClassLoader loader, String name, Class<?> classBeingRedefined,
                         ProtectionDomain protectionDomain, byte[] classFile);
    }

    @FunctionalInterface
    public interface ThreadHandler {
        void thread(Thread thread);
    }

    @FunctionalInterface
    public interface VmDeathHandler {
        void vmDeath();
    }

    /** ObjectFree: a tagged object was collected; a tagged Class object means its class unloaded. */
    @FunctionalInterface
    public interface ObjectFreeHandler {
        void objectFree(long tag);
    }

    @FunctionalInterface
    public interface CompiledMethodLoadHandler {
        void compiledMethodLoad(long methodId, long codeAddress, int codeSize);
    }

    @FunctionalInterface
    public interface CompiledMethodUnloadHandler {
        void compiledMethodUnload(long methodId, long codeAddress);
    }

    @FunctionalInterface
    public interface DynamicCodeGeneratedHandler {
        void dynamicCodeGenerated(String name, long address, int length);
    }

    /** HotSpot's ClassUnload extension event: only a name, which is not unique; tags are the identity. */
    @FunctionalInterface
    public interface ClassUnloadHandler {
        void classUnload(String internalName);
    }

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
    private final AtomicReferenceArray<Object[]> handlers = new AtomicReferenceArray<>(Event.values().length);
    private final Map<Event, Counters> counters = new EnumMap<>(Event.class);
    private final AtomicReference<Throwable> lastFailure = new AtomicReference<>();

    Events(Jvmti jvmti, Native n) {
        this.jvmti = jvmti;
        this.n = n;
        for (Event e : Event.values()) {
            handlers.set(e.ordinal(), new Object[0]);
            counters.put(e, new Counters());
        }
    }

    public Registration onClassLoad(ClassLoadHandler h) { return add(Event.CLASS_LOAD, h); }
    public Registration onClassPrepare(ClassPrepareHandler h) { return add(Event.CLASS_PREPARE, h); }
    public Registration onClassFileLoadHook(ClassFileLoadHookHandler h) { return add(Event.CLASS_FILE_LOAD_HOOK, h); }
    public Registration onThreadStart(ThreadHandler h) { return add(Event.THREAD_START, h); }
    public Registration onThreadEnd(ThreadHandler h) { return add(Event.THREAD_END, h); }
    public Registration onVmDeath(VmDeathHandler h) { return add(Event.VM_DEATH, h); }
    public Registration onObjectFree(ObjectFreeHandler h) { return add(Event.OBJECT_FREE, h); }
    public Registration onCompiledMethodLoad(CompiledMethodLoadHandler h) { return add(Event.COMPILED_METHOD_LOAD, h); }
    public Registration onCompiledMethodUnload(CompiledMethodUnloadHandler h) { return add(Event.COMPILED_METHOD_UNLOAD, h); }
    public Registration onDynamicCodeGenerated(DynamicCodeGeneratedHandler h) { return add(Event.DYNAMIC_CODE_GENERATED, h); }
    public Registration onClassUnload(ClassUnloadHandler h) { return add(Event.CLASS_UNLOAD, h); }

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
    public Stats stats(Event event) {
        Counters c = counters.get(event);
        return new Stats(c.delivered.get(), c.dropped.get(), c.failed.get());
    }

    /** The most recent Throwable a handler threw, or null. */
    public Throwable lastFailure() {
        return lastFailure.get();
    }

    /** Whether the VM currently posts {@code event} to tiprobe. */
    public synchronized boolean isEnabled(Event event) {
        return handlers(event).length > 0;
    }

    Native n() {
        return n;
    }

    /** The current handlers of {@code event}; never null. */
    Object[] handlers(Event event) {
        return handlers.get(event.ordinal());
    }

    Counters counters(Event event) {
        return counters.get(event);
    }

    void failed(Event event, Throwable t) {
        counters.get(event).failed.incrementAndGet();
        lastFailure.set(t);
    }

    private synchronized Registration add(Event event, Object handler) {
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

    private void remove(Event event, Object handler) {
        Object[] before = handlers(event);
        int at = Arrays.asList(before).indexOf(handler);
        if (at < 0) return;
        Object[] after = new Object[before.length - 1];
        System.arraycopy(before, 0, after, 0, at);
        System.arraycopy(before, at + 1, after, at, before.length - at - 1);
        publish(event, after);
        if (after.length == 0 && !jvmti.isShutdown()) enable(event, false);
    }

    private void enable(Event event, boolean on) {
        if (event == Event.CLASS_UNLOAD) {
            Upcalls.enableClassUnload(n, jvmti, on);
        } else {
            n.setEventNotificationMode(on, event.type());
        }
    }

    /** Disables every event and drops every handler; called by {@link Jvmti#shutdown()}. */
    synchronized void shutdown() {
        for (Event e : Event.values()) {
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

    private void publish(Event event, Object[] list) {
        handlers.set(event.ordinal(), list);
    }
}
