package dev.tiprobe.jvmti;

import dev.tiprobe.bindings.jvmti.jvmtiEventCallbacks;
import dev.tiprobe.bindings.jvmti.jvmtiEventClassFileLoadHook;
import dev.tiprobe.bindings.jvmti.jvmtiEventClassLoad;
import dev.tiprobe.bindings.jvmti.jvmtiEventClassPrepare;
import dev.tiprobe.bindings.jvmti.jvmtiEventCompiledMethodLoad;
import dev.tiprobe.bindings.jvmti.jvmtiEventCompiledMethodUnload;
import dev.tiprobe.bindings.jvmti.jvmtiEventDynamicCodeGenerated;
import dev.tiprobe.bindings.jvmti.jvmtiEventMonitorContendedEnter;
import dev.tiprobe.bindings.jvmti.jvmtiEventMonitorContendedEntered;
import dev.tiprobe.bindings.jvmti.jvmtiEventMonitorWait;
import dev.tiprobe.bindings.jvmti.jvmtiEventMonitorWaited;
import dev.tiprobe.bindings.jvmti.jvmtiEventObjectFree;
import dev.tiprobe.bindings.jvmti.jvmtiEventSampledObjectAlloc;
import dev.tiprobe.bindings.jvmti.jvmtiEventThreadEnd;
import dev.tiprobe.bindings.jvmti.jvmtiEventThreadStart;
import dev.tiprobe.bindings.jvmti.jvmtiEventVMDeath;
import dev.tiprobe.bindings.jvmti.jvmti_h;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static dev.tiprobe.jvmti.Native.C_POINTER;
import static dev.tiprobe.jvmti.Native.NULL;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The JVMTI events the facade delivers, each in one place: its handler interface, its number and
 * the capability enabling it adds, its upcall stub, and the callback that turns the VM's arguments
 * into Java ones and calls the handlers ({@link Events#on}). Adding an event is a block here.
 *
 * <p>Every callback runs on a Java thread, where an upcall is safe. GarbageCollectionStart and
 * GarbageCollectionFinish are deliberately absent: they run on the VM thread, where an upcall
 * crashes the JVM ({@link Events#onGarbageCollectionStart} says so). Each callback is guarded by
 * {@link Upcalls#enter} (no handler, a warm-up call or a re-entrant event: nothing runs), catches
 * every Throwable (one escaping an upcall terminates the JVM), and counts each handler's
 * delivery or failure, one failing handler not stopping the others.
 *
 * @param <H> the handler interface
 */
public final class Event<H> {
    private static final List<Event<?>> ALL = new ArrayList<>();
    /** Where a callback has no handlers yet: a constant, as allocating before the callback's try could throw out of the upcall. */
    private static final Object[] NO_HANDLERS = {};

    private final String name;
    private final int type;
    private final Capability needs;
    private final Stub stub;
    private final Call<H> call;
    private final int index;

    /** Makes an event's upcall stub in {@code arena}, warms it, and puts it in the callback table. */
    @FunctionalInterface
    interface Stub {
        void register(MemorySegment callbacks, Arena arena) throws Throwable;

        /** Calls a fresh stub the way the VM will. */
        @FunctionalInterface
        interface Warmer {
            void call(MemorySegment stub) throws Throwable;
        }
    }

    /**
     * Calls one handler with the callback's arguments: {@code a}, {@code b} and {@code c} are the
     * JNI references it was given, made Java objects (null where it has fewer), {@code x},
     * {@code y} and {@code z} its other arguments as raw words. Each is a lambda made as this
     * class initializes, so no callback ever links one.
     */
    @FunctionalInterface
    interface Call<H> {
        void call(H handler, Object a, Object b, Object c, long x, long y, long z) throws Throwable;
    }

    private Event(String name, int type, Capability needs, Stub stub, Call<H> call) {
        this.name = name;
        this.type = type;
        this.needs = needs;
        this.stub = stub;
        this.call = call;
        synchronized (ALL) {
            this.index = ALL.size();
            ALL.add(this);
        }
    }

    /** Every event, in declaration order. */
    static List<Event<?>> all() {
        return Collections.unmodifiableList(ALL);
    }

    /** The jvmtiEvent number; -1 for the extension event, whose index the VM assigns. */
    int type() {
        return type;
    }

    /** The capability that enabling this event adds, or null. */
    Capability needs() {
        return needs;
    }

    /** A dense index, for the facade's per-event tables. */
    int index() {
        return index;
    }

    /** Registers this event's stub in the callback table; null for the extension event (see {@link Upcalls}). */
    Stub stub() {
        return stub;
    }

    @Override
    public String toString() {
        return name;
    }

    /**
     * How often a stub is called before the VM may call it: java.lang.invoke customizes a method
     * handle at its 128th call (MethodHandle's customization threshold, 127), generating and
     * loading classes; the upcall's handle must not do that inside a real callback, where it
     * allocated on the JVM's service thread and those allocations were sampled as the
     * application's (found by ImageIT with {@code --live}: a stack of class generation under
     * {@code MethodHandle.customize} under an upcall stub, on a thread with no frame of the application).
     */
    static final int WARM_CALLS = 200;

    /** Calls {@code stub} from Java with a NULL env, a no-op for the callback, so it is linked and customized before the VM calls it. */
    private static MemorySegment warm(MemorySegment stub, Stub.Warmer warmer) throws Throwable {
        for (int i = 0; i < WARM_CALLS; i++) warmer.call(stub);
        return stub;
    }

    /**
     * Every callback but ClassFileLoadHook's: the JNI references {@code a}, {@code b}, {@code c}
     * (0: none) made Java objects once, then each handler called in turn, each delivery or
     * failure counted, one failing handler not stopping the others, and nothing escaping.
     */
    @SuppressWarnings("unchecked")
    private static <H> void deliver(long env, long jni, Event<H> event, long a, long b, long c, long x, long y, long z) {
        Events e = Upcalls.enter(env, event);
        if (e == null) return;
        try {
            Object ja = e.toJava(jni, a);
            Object jb = e.toJava(jni, b);
            Object jc = e.toJava(jni, c);
            for (Object h : e.handlers(event)) {
                try {
                    event.call.call((H) h, ja, jb, jc, x, y, z);
                    e.delivered(event);
                } catch (Throwable t) {
                    e.failed(event, t);
                }
            }
        } catch (Throwable ignored) {
            // Swallowed: an exception escaping an upcall terminates the JVM.
        } finally {
            Upcalls.leave();
        }
    }

    // ---------------------------------------------------------------- VMDeath

    @FunctionalInterface
    public interface VmDeathHandler {
        void vmDeath();
    }

    public static final Event<VmDeathHandler> VM_DEATH = new Event<>("VMDeath", jvmti_h.JVMTI_EVENT_VM_DEATH(), null,
            (table, arena) -> jvmtiEventCallbacks.VMDeath(table, warm(Upcalls.stub(jvmtiEventVMDeath.descriptor(), "vmDeath", arena),
                    s -> jvmtiEventVMDeath.invoke(s, NULL, NULL))),
            (h, a, b, c, x, y, z) -> h.vmDeath());

    private static void vmDeath(long env, long jni) {
        deliver(env, jni, VM_DEATH, 0, 0, 0, 0, 0, 0);
    }

    // ---------------------------------------------------------------- ThreadStart, ThreadEnd

    @FunctionalInterface
    public interface ThreadHandler {
        void thread(Thread thread);
    }

    public static final Event<ThreadHandler> THREAD_START = new Event<>("ThreadStart", jvmti_h.JVMTI_EVENT_THREAD_START(), null,
            (table, arena) -> jvmtiEventCallbacks.ThreadStart(table, warm(Upcalls.stub(jvmtiEventThreadStart.descriptor(), "threadStart", arena),
                    s -> jvmtiEventThreadStart.invoke(s, NULL, NULL, NULL))),
            (h, a, b, c, x, y, z) -> h.thread((Thread) a));

    public static final Event<ThreadHandler> THREAD_END = new Event<>("ThreadEnd", jvmti_h.JVMTI_EVENT_THREAD_END(), null,
            (table, arena) -> jvmtiEventCallbacks.ThreadEnd(table, warm(Upcalls.stub(jvmtiEventThreadEnd.descriptor(), "threadEnd", arena),
                    s -> jvmtiEventThreadEnd.invoke(s, NULL, NULL, NULL))),
            (h, a, b, c, x, y, z) -> h.thread((Thread) a));

    private static void threadStart(long env, long jni, long thread) {
        threadEvent(env, jni, thread, THREAD_START);
    }

    private static void threadEnd(long env, long jni, long thread) {
        threadEvent(env, jni, thread, THREAD_END);
    }

    private static void threadEvent(long env, long jni, long thread, Event<ThreadHandler> event) {
        deliver(env, jni, event, thread, 0, 0, 0, 0, 0);
    }

    // ---------------------------------------------------------------- ClassFileLoadHook

    /**
     * ClassFileLoadHook: return new class file bytes, or null to leave the class unchanged. Several
     * handlers chain: each sees the previous one's output. {@code name} is the internal name
     * ({@code java/lang/String}), null for some hidden classes.
     */
    @FunctionalInterface
    public interface ClassFileLoadHookHandler {
        byte[] transform(ClassLoader loader, String name, Class<?> classBeingRedefined,
                         ProtectionDomain protectionDomain, byte[] classFile);

        /**
         * Once the hook's upcall is over, on the same thread: how long all of it took, the
         * handlers and the work around them (the JVM's arguments made Java objects, the new bytes
         * copied back), which the code running on that thread did not do.
         */
        default void upcallTook(long nanos) {}
    }

    /** Also adds can_retransform_classes, so retransformed classes pass through the hook too. */
    public static final Event<ClassFileLoadHookHandler> CLASS_FILE_LOAD_HOOK = new Event<>("ClassFileLoadHook",
            jvmti_h.JVMTI_EVENT_CLASS_FILE_LOAD_HOOK(), Capability.CAN_RETRANSFORM_CLASSES,
            (table, arena) -> jvmtiEventCallbacks.ClassFileLoadHook(table, warm(Upcalls.stub(
                    jvmtiEventClassFileLoadHook.descriptor(), "classFileLoadHook", arena),
                    s -> jvmtiEventClassFileLoadHook.invoke(s, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL))),
            null);

    /** Chains the handlers (each sees the previous output) and hands JVMTI-allocated bytes back. */
    private static void classFileLoadHook(long env, long jni, long classBeingRedefined, long loader, long name,
                                          long protectionDomain, int classDataLength, long classData,
                                          long newClassDataLength, long newClassData) {
        Event<ClassFileLoadHookHandler> event = CLASS_FILE_LOAD_HOOK;
        long began = System.nanoTime();
        Events e = Upcalls.enter(env, event);
        if (e == null) return;
        Object[] handlers = NO_HANDLERS;
        try {
            handlers = e.handlers(event);
            ClassLoader l = (ClassLoader) e.toJava(jni, loader);
            Class<?> redefined = (Class<?>) e.toJava(jni, classBeingRedefined);
            ProtectionDomain pd = (ProtectionDomain) e.toJava(jni, protectionDomain);
            String internalName = Native.string(name);
            byte[] bytes = MemorySegment.ofAddress(classData).reinterpret(classDataLength).toArray(JAVA_BYTE);
            boolean changed = false;
            for (Object h : handlers) {
                try {
                    byte[] out = ((ClassFileLoadHookHandler) h).transform(l, internalName, redefined, pd, bytes);
                    if (out != null) {
                        bytes = out;
                        changed = true;
                    }
                    e.delivered(event);
                } catch (Throwable x) {
                    e.failed(event, x);
                }
            }
            if (changed) {
                try (Scratch s = Scratch.open()) {
                    MemorySegment copy = e.n().allocate(bytes.length, s);
                    MemorySegment.copy(bytes, 0, copy, JAVA_BYTE, 0, bytes.length);
                    MemorySegment.ofAddress(newClassDataLength).reinterpret(JAVA_INT.byteSize()).set(JAVA_INT, 0, bytes.length);
                    MemorySegment.ofAddress(newClassData).reinterpret(C_POINTER.byteSize()).set(C_POINTER, 0, copy);
                }
            }
        } catch (Throwable ignored) {
            // Swallowed: an exception escaping an upcall terminates the JVM; the class loads unchanged.
        } finally {
            long took = System.nanoTime() - began;  // inside the guard: what the handlers do with it is no event of the program's
            for (Object h : handlers) {
                try {
                    ((ClassFileLoadHookHandler) h).upcallTook(took);
                } catch (Throwable x) {
                    e.failed(event, x);
                }
            }
            Upcalls.leave();
        }
    }

    // ---------------------------------------------------------------- ClassLoad, ClassPrepare

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

    public static final Event<ClassLoadHandler> CLASS_LOAD = new Event<>("ClassLoad", jvmti_h.JVMTI_EVENT_CLASS_LOAD(), null,
            (table, arena) -> jvmtiEventCallbacks.ClassLoad(table, warm(Upcalls.stub(jvmtiEventClassLoad.descriptor(), "classLoad", arena),
                    s -> jvmtiEventClassLoad.invoke(s, NULL, NULL, NULL, NULL))),
            (h, a, b, c, x, y, z) -> h.classLoad((Thread) a, (Class<?>) b));

    public static final Event<ClassPrepareHandler> CLASS_PREPARE = new Event<>("ClassPrepare", jvmti_h.JVMTI_EVENT_CLASS_PREPARE(), null,
            (table, arena) -> jvmtiEventCallbacks.ClassPrepare(table, warm(Upcalls.stub(jvmtiEventClassPrepare.descriptor(), "classPrepare", arena),
                    s -> jvmtiEventClassPrepare.invoke(s, NULL, NULL, NULL, NULL))),
            (h, a, b, c, x, y, z) -> h.classPrepare((Thread) a, (Class<?>) b));

    /** ClassLoad and ClassPrepare share their arguments; plain type tests, no switch, so nothing loads on first use. */
    private static void classLoad(long env, long jni, long thread, long klass) {
        classEvent(env, jni, thread, klass, CLASS_LOAD);
    }

    private static void classPrepare(long env, long jni, long thread, long klass) {
        classEvent(env, jni, thread, klass, CLASS_PREPARE);
    }

    private static <H> void classEvent(long env, long jni, long thread, long klass, Event<H> event) {
        deliver(env, jni, event, thread, klass, 0, 0, 0, 0);
    }

    // ---------------------------------------------------------------- CompiledMethodLoad/Unload, DynamicCodeGenerated

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

    public static final Event<CompiledMethodLoadHandler> COMPILED_METHOD_LOAD = new Event<>("CompiledMethodLoad",
            jvmti_h.JVMTI_EVENT_COMPILED_METHOD_LOAD(), Capability.CAN_GENERATE_COMPILED_METHOD_LOAD_EVENTS,
            (table, arena) -> jvmtiEventCallbacks.CompiledMethodLoad(table, warm(Upcalls.stub(
                    jvmtiEventCompiledMethodLoad.descriptor(), "compiledMethodLoad", arena), s -> jvmtiEventCompiledMethodLoad.invoke(s, NULL, NULL, 0, NULL, 0, NULL, NULL))),
            (h, a, b, c, x, y, z) -> h.compiledMethodLoad(x, y, (int) z));

    private static void compiledMethodLoad(long env, long method, int codeSize, long codeAddress, int mapLength, long map,
                                           long compileInfo) {
        deliver(env, 0, COMPILED_METHOD_LOAD, 0, 0, 0, method, codeAddress, codeSize);
    }

    public static final Event<CompiledMethodUnloadHandler> COMPILED_METHOD_UNLOAD = new Event<>("CompiledMethodUnload",
            jvmti_h.JVMTI_EVENT_COMPILED_METHOD_UNLOAD(), Capability.CAN_GENERATE_COMPILED_METHOD_LOAD_EVENTS,
            (table, arena) -> jvmtiEventCallbacks.CompiledMethodUnload(table, warm(Upcalls.stub(
                    jvmtiEventCompiledMethodUnload.descriptor(), "compiledMethodUnload", arena), s -> jvmtiEventCompiledMethodUnload.invoke(s, NULL, NULL, NULL))),
            (h, a, b, c, x, y, z) -> h.compiledMethodUnload(x, y));

    private static void compiledMethodUnload(long env, long method, long codeAddress) {
        deliver(env, 0, COMPILED_METHOD_UNLOAD, 0, 0, 0, method, codeAddress, 0);
    }

    public static final Event<DynamicCodeGeneratedHandler> DYNAMIC_CODE_GENERATED = new Event<>("DynamicCodeGenerated",
            jvmti_h.JVMTI_EVENT_DYNAMIC_CODE_GENERATED(), null,
            (table, arena) -> jvmtiEventCallbacks.DynamicCodeGenerated(table, warm(Upcalls.stub(
                    jvmtiEventDynamicCodeGenerated.descriptor(), "dynamicCodeGenerated", arena), s -> jvmtiEventDynamicCodeGenerated.invoke(s, NULL, NULL, NULL, 0))),
            (h, a, b, c, x, y, z) -> h.dynamicCodeGenerated(Native.string(x), y, (int) z));

    private static void dynamicCodeGenerated(long env, long name, long address, int length) {
        deliver(env, 0, DYNAMIC_CODE_GENERATED, 0, 0, 0, name, address, length);
    }

    // ---------------------------------------------------------------- ObjectFree

    /** ObjectFree: a tagged object was collected; a tagged Class object means its class unloaded. */
    @FunctionalInterface
    public interface ObjectFreeHandler {
        void objectFree(long tag);
    }

    public static final Event<ObjectFreeHandler> OBJECT_FREE = new Event<>("ObjectFree", jvmti_h.JVMTI_EVENT_OBJECT_FREE(),
            Capability.CAN_GENERATE_OBJECT_FREE_EVENTS,
            (table, arena) -> jvmtiEventCallbacks.ObjectFree(table, warm(Upcalls.stub(jvmtiEventObjectFree.descriptor(), "objectFree", arena),
                    s -> jvmtiEventObjectFree.invoke(s, NULL, 0L))),
            (h, a, b, c, x, y, z) -> h.objectFree(x));

    private static void objectFree(long env, long tag) {
        deliver(env, 0, OBJECT_FREE, 0, 0, 0, tag, 0, 0);
    }

    // ---------------------------------------------------------------- SampledObjectAlloc

    /**
     * SampledObjectAlloc: about one object per {@link Jvmti#setHeapSamplingInterval} bytes a thread
     * allocates, on the allocating thread, right after the allocation: the allocating frames are
     * on its stack, under the callback's own.
     */
    @FunctionalInterface
    public interface SampledObjectAllocHandler {
        void sampledObjectAlloc(Thread thread, Object object, Class<?> type, long size);
    }

    public static final Event<SampledObjectAllocHandler> SAMPLED_OBJECT_ALLOC = new Event<>("SampledObjectAlloc",
            jvmti_h.JVMTI_EVENT_SAMPLED_OBJECT_ALLOC(), Capability.CAN_GENERATE_SAMPLED_OBJECT_ALLOC_EVENTS,
            (table, arena) -> jvmtiEventCallbacks.SampledObjectAlloc(table, warm(Upcalls.stub(
                    jvmtiEventSampledObjectAlloc.descriptor(), "sampledObjectAlloc", arena), s -> jvmtiEventSampledObjectAlloc.invoke(s, NULL, NULL, NULL, NULL, NULL, 0L))),
            (h, a, b, c, x, y, z) -> h.sampledObjectAlloc((Thread) a, b, (Class<?>) c, x));

    private static void sampledObjectAlloc(long env, long jni, long thread, long object, long klass, long size) {
        deliver(env, jni, SAMPLED_OBJECT_ALLOC, thread, object, klass, size, 0, 0);
    }

    // ---------------------------------------------------------------- Monitor events

    /**
     * MonitorContendedEnter (a thread starts waiting to enter a monitor another thread holds) and
     * MonitorContendedEntered (it got in), on the waiting thread.
     */
    @FunctionalInterface
    public interface MonitorHandler {
        void monitor(Thread thread, Object monitor);
    }

    /** MonitorWait: {@code Object.wait(timeoutMillis)} begins (0: no timeout). */
    @FunctionalInterface
    public interface MonitorWaitHandler {
        void monitorWait(Thread thread, Object monitor, long timeoutMillis);
    }

    /** MonitorWaited: the wait ended, notified or timed out. */
    @FunctionalInterface
    public interface MonitorWaitedHandler {
        void monitorWaited(Thread thread, Object monitor, boolean timedOut);
    }

    public static final Event<MonitorHandler> MONITOR_CONTENDED_ENTER = new Event<>("MonitorContendedEnter",
            jvmti_h.JVMTI_EVENT_MONITOR_CONTENDED_ENTER(), Capability.CAN_GENERATE_MONITOR_EVENTS,
            (table, arena) -> jvmtiEventCallbacks.MonitorContendedEnter(table, warm(Upcalls.stub(
                    jvmtiEventMonitorContendedEnter.descriptor(), "monitorContendedEnter", arena),
                    s -> jvmtiEventMonitorContendedEnter.invoke(s, NULL, NULL, NULL, NULL))),
            (h, a, b, c, x, y, z) -> h.monitor((Thread) a, b));

    public static final Event<MonitorHandler> MONITOR_CONTENDED_ENTERED = new Event<>("MonitorContendedEntered",
            jvmti_h.JVMTI_EVENT_MONITOR_CONTENDED_ENTERED(), Capability.CAN_GENERATE_MONITOR_EVENTS,
            (table, arena) -> jvmtiEventCallbacks.MonitorContendedEntered(table, warm(Upcalls.stub(
                    jvmtiEventMonitorContendedEntered.descriptor(), "monitorContendedEntered", arena),
                    s -> jvmtiEventMonitorContendedEntered.invoke(s, NULL, NULL, NULL, NULL))),
            (h, a, b, c, x, y, z) -> h.monitor((Thread) a, b));

    private static void monitorContendedEnter(long env, long jni, long thread, long object) {
        monitorEvent(env, jni, thread, object, MONITOR_CONTENDED_ENTER);
    }

    private static void monitorContendedEntered(long env, long jni, long thread, long object) {
        monitorEvent(env, jni, thread, object, MONITOR_CONTENDED_ENTERED);
    }

    private static void monitorEvent(long env, long jni, long thread, long object, Event<MonitorHandler> event) {
        deliver(env, jni, event, thread, object, 0, 0, 0, 0);
    }

    public static final Event<MonitorWaitHandler> MONITOR_WAIT = new Event<>("MonitorWait",
            jvmti_h.JVMTI_EVENT_MONITOR_WAIT(), Capability.CAN_GENERATE_MONITOR_EVENTS,
            (table, arena) -> jvmtiEventCallbacks.MonitorWait(table, warm(Upcalls.stub(
                    jvmtiEventMonitorWait.descriptor(), "monitorWait", arena), s -> jvmtiEventMonitorWait.invoke(s, NULL, NULL, NULL, NULL, 0L))),
            (h, a, b, c, x, y, z) -> h.monitorWait((Thread) a, b, x));

    private static void monitorWait(long env, long jni, long thread, long object, long timeoutMillis) {
        deliver(env, jni, MONITOR_WAIT, thread, object, 0, timeoutMillis, 0, 0);
    }

    public static final Event<MonitorWaitedHandler> MONITOR_WAITED = new Event<>("MonitorWaited",
            jvmti_h.JVMTI_EVENT_MONITOR_WAITED(), Capability.CAN_GENERATE_MONITOR_EVENTS,
            (table, arena) -> jvmtiEventCallbacks.MonitorWaited(table, warm(Upcalls.stub(
                    jvmtiEventMonitorWaited.descriptor(), "monitorWaited", arena), s -> jvmtiEventMonitorWaited.invoke(s, NULL, NULL, NULL, NULL, (byte) 0))),
            (h, a, b, c, x, y, z) -> h.monitorWaited((Thread) a, b, x != 0));

    private static void monitorWaited(long env, long jni, long thread, long object, byte timedOut) {
        deliver(env, jni, MONITOR_WAITED, thread, object, 0, timedOut, 0, 0);
    }

    // ---------------------------------------------------------------- ClassUnload (a HotSpot extension event)

    /** HotSpot's ClassUnload extension event: only a name, which is not unique; tags are the identity. */
    @FunctionalInterface
    public interface ClassUnloadHandler {
        void classUnload(String internalName);
    }

    /**
     * HotSpot's extension event {@code com.sun.hotspot.events.ClassUnload}: the name of an unloaded
     * class. Not in the callback table: {@link Upcalls#enableClassUnload} registers it.
     */
    public static final Event<ClassUnloadHandler> CLASS_UNLOAD = new Event<>("ClassUnload", -1, null, null,
            (h, a, b, c, x, y, z) -> h.classUnload(Native.string(x)));

    /** HotSpot posts ClassUnload as {@code (jvmtiEnv*, JNIEnv*, const char* name)}. */
    static void classUnload(long env, long jni, long name) {
        deliver(env, jni, CLASS_UNLOAD, 0, 0, 0, name, 0, 0);
    }
}
