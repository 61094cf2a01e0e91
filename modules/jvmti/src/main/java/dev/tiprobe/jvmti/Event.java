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

    private final String name;
    private final int type;
    private final Capability needs;
    private final Stub stub;
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

    private Event(String name, int type, Capability needs, Stub stub) {
        this.name = name;
        this.type = type;
        this.needs = needs;
        this.stub = stub;
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

    // ---------------------------------------------------------------- VMDeath

    @FunctionalInterface
    public interface VmDeathHandler {
        void vmDeath();
    }

    public static final Event<VmDeathHandler> VM_DEATH = new Event<>("VMDeath", jvmti_h.JVMTI_EVENT_VM_DEATH(), null,
            (table, arena) -> jvmtiEventCallbacks.VMDeath(table, warm(Upcalls.stub(jvmtiEventVMDeath.descriptor(), "vmDeath", arena),
                    s -> jvmtiEventVMDeath.invoke(s, NULL, NULL))));

    private static void vmDeath(long env, long jni) {
        Events e = Upcalls.enter(env, VM_DEATH);
        if (e == null) return;
        try {
            for (Object h : e.handlers(VM_DEATH)) {
                try {
                    ((VmDeathHandler) h).vmDeath();
                    e.delivered(VM_DEATH);
                } catch (Throwable t) {
                    e.failed(VM_DEATH, t);
                }
            }
        } catch (Throwable ignored) {
            // Swallowed: an exception escaping an upcall terminates the JVM.
        } finally {
            Upcalls.leave();
        }
    }

    // ---------------------------------------------------------------- ThreadStart, ThreadEnd

    @FunctionalInterface
    public interface ThreadHandler {
        void thread(Thread thread);
    }

    public static final Event<ThreadHandler> THREAD_START = new Event<>("ThreadStart", jvmti_h.JVMTI_EVENT_THREAD_START(), null,
            (table, arena) -> jvmtiEventCallbacks.ThreadStart(table, warm(Upcalls.stub(jvmtiEventThreadStart.descriptor(), "threadStart", arena),
                    s -> jvmtiEventThreadStart.invoke(s, NULL, NULL, NULL))));

    public static final Event<ThreadHandler> THREAD_END = new Event<>("ThreadEnd", jvmti_h.JVMTI_EVENT_THREAD_END(), null,
            (table, arena) -> jvmtiEventCallbacks.ThreadEnd(table, warm(Upcalls.stub(jvmtiEventThreadEnd.descriptor(), "threadEnd", arena),
                    s -> jvmtiEventThreadEnd.invoke(s, NULL, NULL, NULL))));

    private static void threadStart(long env, long jni, long thread) {
        threadEvent(env, jni, thread, THREAD_START);
    }

    private static void threadEnd(long env, long jni, long thread) {
        threadEvent(env, jni, thread, THREAD_END);
    }

    private static void threadEvent(long env, long jni, long thread, Event<ThreadHandler> event) {
        Events e = Upcalls.enter(env, event);
        if (e == null) return;
        try {
            Thread t = (Thread) e.toJava(jni, thread);
            for (Object h : e.handlers(event)) {
                try {
                    ((ThreadHandler) h).thread(t);
                    e.delivered(event);
                } catch (Throwable x) {
                    e.failed(event, x);
                }
            }
        } catch (Throwable ignored) {
            // Swallowed: an exception escaping an upcall terminates the JVM.
        } finally {
            Upcalls.leave();
        }
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
    }

    /** Also adds can_retransform_classes, so retransformed classes pass through the hook too. */
    public static final Event<ClassFileLoadHookHandler> CLASS_FILE_LOAD_HOOK = new Event<>("ClassFileLoadHook",
            jvmti_h.JVMTI_EVENT_CLASS_FILE_LOAD_HOOK(), Capability.CAN_RETRANSFORM_CLASSES,
            (table, arena) -> jvmtiEventCallbacks.ClassFileLoadHook(table, warm(Upcalls.stub(
                    jvmtiEventClassFileLoadHook.descriptor(), "classFileLoadHook", arena),
                    s -> jvmtiEventClassFileLoadHook.invoke(s, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL))));

    /** Chains the handlers (each sees the previous output) and hands JVMTI-allocated bytes back. */
    private static void classFileLoadHook(long env, long jni, long classBeingRedefined, long loader, long name,
                                          long protectionDomain, int classDataLength, long classData,
                                          long newClassDataLength, long newClassData) {
        Event<ClassFileLoadHookHandler> event = CLASS_FILE_LOAD_HOOK;
        Events e = Upcalls.enter(env, event);
        if (e == null) return;
        try {
            ClassLoader l = (ClassLoader) e.toJava(jni, loader);
            Class<?> redefined = (Class<?>) e.toJava(jni, classBeingRedefined);
            ProtectionDomain pd = (ProtectionDomain) e.toJava(jni, protectionDomain);
            String internalName = Native.string(name);
            byte[] bytes = MemorySegment.ofAddress(classData).reinterpret(classDataLength).toArray(JAVA_BYTE);
            boolean changed = false;
            for (Object h : e.handlers(event)) {
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
                    s -> jvmtiEventClassLoad.invoke(s, NULL, NULL, NULL, NULL))));

    public static final Event<ClassPrepareHandler> CLASS_PREPARE = new Event<>("ClassPrepare", jvmti_h.JVMTI_EVENT_CLASS_PREPARE(), null,
            (table, arena) -> jvmtiEventCallbacks.ClassPrepare(table, warm(Upcalls.stub(jvmtiEventClassPrepare.descriptor(), "classPrepare", arena),
                    s -> jvmtiEventClassPrepare.invoke(s, NULL, NULL, NULL, NULL))));

    /** ClassLoad and ClassPrepare share their arguments; plain type tests, no switch, so nothing loads on first use. */
    private static void classLoad(long env, long jni, long thread, long klass) {
        classEvent(env, jni, thread, klass, CLASS_LOAD);
    }

    private static void classPrepare(long env, long jni, long thread, long klass) {
        classEvent(env, jni, thread, klass, CLASS_PREPARE);
    }

    private static void classEvent(long env, long jni, long thread, long klass, Event<?> event) {
        Events e = Upcalls.enter(env, event);
        if (e == null) return;
        try {
            Thread t = (Thread) e.toJava(jni, thread);
            Class<?> c = (Class<?>) e.toJava(jni, klass);
            for (Object h : e.handlers(event)) {
                try {
                    if (event == CLASS_PREPARE) ((ClassPrepareHandler) h).classPrepare(t, c);
                    else ((ClassLoadHandler) h).classLoad(t, c);
                    e.delivered(event);
                } catch (Throwable x) {
                    e.failed(event, x);
                }
            }
        } catch (Throwable ignored) {
            // Swallowed: an exception escaping an upcall terminates the JVM.
        } finally {
            Upcalls.leave();
        }
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
                    jvmtiEventCompiledMethodLoad.descriptor(), "compiledMethodLoad", arena), s -> jvmtiEventCompiledMethodLoad.invoke(s, NULL, NULL, 0, NULL, 0, NULL, NULL))));

    private static void compiledMethodLoad(long env, long method, int codeSize, long codeAddress, int mapLength, long map,
                                           long compileInfo) {
        Events e = Upcalls.enter(env, COMPILED_METHOD_LOAD);
        if (e == null) return;
        try {
            for (Object h : e.handlers(COMPILED_METHOD_LOAD)) {
                try {
                    ((CompiledMethodLoadHandler) h).compiledMethodLoad(method, codeAddress, codeSize);
                    e.delivered(COMPILED_METHOD_LOAD);
                } catch (Throwable x) {
                    e.failed(COMPILED_METHOD_LOAD, x);
                }
            }
        } catch (Throwable ignored) {
            // Swallowed: an exception escaping an upcall terminates the JVM.
        } finally {
            Upcalls.leave();
        }
    }

    public static final Event<CompiledMethodUnloadHandler> COMPILED_METHOD_UNLOAD = new Event<>("CompiledMethodUnload",
            jvmti_h.JVMTI_EVENT_COMPILED_METHOD_UNLOAD(), Capability.CAN_GENERATE_COMPILED_METHOD_LOAD_EVENTS,
            (table, arena) -> jvmtiEventCallbacks.CompiledMethodUnload(table, warm(Upcalls.stub(
                    jvmtiEventCompiledMethodUnload.descriptor(), "compiledMethodUnload", arena), s -> jvmtiEventCompiledMethodUnload.invoke(s, NULL, NULL, NULL))));

    private static void compiledMethodUnload(long env, long method, long codeAddress) {
        Events e = Upcalls.enter(env, COMPILED_METHOD_UNLOAD);
        if (e == null) return;
        try {
            for (Object h : e.handlers(COMPILED_METHOD_UNLOAD)) {
                try {
                    ((CompiledMethodUnloadHandler) h).compiledMethodUnload(method, codeAddress);
                    e.delivered(COMPILED_METHOD_UNLOAD);
                } catch (Throwable x) {
                    e.failed(COMPILED_METHOD_UNLOAD, x);
                }
            }
        } catch (Throwable ignored) {
            // Swallowed: an exception escaping an upcall terminates the JVM.
        } finally {
            Upcalls.leave();
        }
    }

    public static final Event<DynamicCodeGeneratedHandler> DYNAMIC_CODE_GENERATED = new Event<>("DynamicCodeGenerated",
            jvmti_h.JVMTI_EVENT_DYNAMIC_CODE_GENERATED(), null,
            (table, arena) -> jvmtiEventCallbacks.DynamicCodeGenerated(table, warm(Upcalls.stub(
                    jvmtiEventDynamicCodeGenerated.descriptor(), "dynamicCodeGenerated", arena), s -> jvmtiEventDynamicCodeGenerated.invoke(s, NULL, NULL, NULL, 0))));

    private static void dynamicCodeGenerated(long env, long name, long address, int length) {
        Events e = Upcalls.enter(env, DYNAMIC_CODE_GENERATED);
        if (e == null) return;
        try {
            String n = Native.string(name);
            for (Object h : e.handlers(DYNAMIC_CODE_GENERATED)) {
                try {
                    ((DynamicCodeGeneratedHandler) h).dynamicCodeGenerated(n, address, length);
                    e.delivered(DYNAMIC_CODE_GENERATED);
                } catch (Throwable x) {
                    e.failed(DYNAMIC_CODE_GENERATED, x);
                }
            }
        } catch (Throwable ignored) {
            // Swallowed: an exception escaping an upcall terminates the JVM.
        } finally {
            Upcalls.leave();
        }
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
                    s -> jvmtiEventObjectFree.invoke(s, NULL, 0L))));

    private static void objectFree(long env, long tag) {
        Events e = Upcalls.enter(env, OBJECT_FREE);
        if (e == null) return;
        try {
            for (Object h : e.handlers(OBJECT_FREE)) {
                try {
                    ((ObjectFreeHandler) h).objectFree(tag);
                    e.delivered(OBJECT_FREE);
                } catch (Throwable x) {
                    e.failed(OBJECT_FREE, x);
                }
            }
        } catch (Throwable ignored) {
            // Swallowed: an exception escaping an upcall terminates the JVM.
        } finally {
            Upcalls.leave();
        }
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
                    jvmtiEventSampledObjectAlloc.descriptor(), "sampledObjectAlloc", arena), s -> jvmtiEventSampledObjectAlloc.invoke(s, NULL, NULL, NULL, NULL, NULL, 0L))));

    private static void sampledObjectAlloc(long env, long jni, long thread, long object, long klass, long size) {
        Events e = Upcalls.enter(env, SAMPLED_OBJECT_ALLOC);
        if (e == null) return;
        try {
            Thread t = (Thread) e.toJava(jni, thread);
            Object o = e.toJava(jni, object);
            Class<?> c = (Class<?>) e.toJava(jni, klass);
            for (Object h : e.handlers(SAMPLED_OBJECT_ALLOC)) {
                try {
                    ((SampledObjectAllocHandler) h).sampledObjectAlloc(t, o, c, size);
                    e.delivered(SAMPLED_OBJECT_ALLOC);
                } catch (Throwable x) {
                    e.failed(SAMPLED_OBJECT_ALLOC, x);
                }
            }
        } catch (Throwable ignored) {
            // Swallowed: an exception escaping an upcall terminates the JVM.
        } finally {
            Upcalls.leave();
        }
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
                    s -> jvmtiEventMonitorContendedEnter.invoke(s, NULL, NULL, NULL, NULL))));

    public static final Event<MonitorHandler> MONITOR_CONTENDED_ENTERED = new Event<>("MonitorContendedEntered",
            jvmti_h.JVMTI_EVENT_MONITOR_CONTENDED_ENTERED(), Capability.CAN_GENERATE_MONITOR_EVENTS,
            (table, arena) -> jvmtiEventCallbacks.MonitorContendedEntered(table, warm(Upcalls.stub(
                    jvmtiEventMonitorContendedEntered.descriptor(), "monitorContendedEntered", arena),
                    s -> jvmtiEventMonitorContendedEntered.invoke(s, NULL, NULL, NULL, NULL))));

    private static void monitorContendedEnter(long env, long jni, long thread, long object) {
        monitorEvent(env, jni, thread, object, MONITOR_CONTENDED_ENTER);
    }

    private static void monitorContendedEntered(long env, long jni, long thread, long object) {
        monitorEvent(env, jni, thread, object, MONITOR_CONTENDED_ENTERED);
    }

    private static void monitorEvent(long env, long jni, long thread, long object, Event<MonitorHandler> event) {
        Events e = Upcalls.enter(env, event);
        if (e == null) return;
        try {
            Thread t = (Thread) e.toJava(jni, thread);
            Object monitor = e.toJava(jni, object);
            for (Object h : e.handlers(event)) {
                try {
                    ((MonitorHandler) h).monitor(t, monitor);
                    e.delivered(event);
                } catch (Throwable x) {
                    e.failed(event, x);
                }
            }
        } catch (Throwable ignored) {
            // Swallowed: an exception escaping an upcall terminates the JVM.
        } finally {
            Upcalls.leave();
        }
    }

    public static final Event<MonitorWaitHandler> MONITOR_WAIT = new Event<>("MonitorWait",
            jvmti_h.JVMTI_EVENT_MONITOR_WAIT(), Capability.CAN_GENERATE_MONITOR_EVENTS,
            (table, arena) -> jvmtiEventCallbacks.MonitorWait(table, warm(Upcalls.stub(
                    jvmtiEventMonitorWait.descriptor(), "monitorWait", arena), s -> jvmtiEventMonitorWait.invoke(s, NULL, NULL, NULL, NULL, 0L))));

    private static void monitorWait(long env, long jni, long thread, long object, long timeoutMillis) {
        Events e = Upcalls.enter(env, MONITOR_WAIT);
        if (e == null) return;
        try {
            Thread t = (Thread) e.toJava(jni, thread);
            Object monitor = e.toJava(jni, object);
            for (Object h : e.handlers(MONITOR_WAIT)) {
                try {
                    ((MonitorWaitHandler) h).monitorWait(t, monitor, timeoutMillis);
                    e.delivered(MONITOR_WAIT);
                } catch (Throwable x) {
                    e.failed(MONITOR_WAIT, x);
                }
            }
        } catch (Throwable ignored) {
            // Swallowed: an exception escaping an upcall terminates the JVM.
        } finally {
            Upcalls.leave();
        }
    }

    public static final Event<MonitorWaitedHandler> MONITOR_WAITED = new Event<>("MonitorWaited",
            jvmti_h.JVMTI_EVENT_MONITOR_WAITED(), Capability.CAN_GENERATE_MONITOR_EVENTS,
            (table, arena) -> jvmtiEventCallbacks.MonitorWaited(table, warm(Upcalls.stub(
                    jvmtiEventMonitorWaited.descriptor(), "monitorWaited", arena), s -> jvmtiEventMonitorWaited.invoke(s, NULL, NULL, NULL, NULL, (byte) 0))));

    private static void monitorWaited(long env, long jni, long thread, long object, byte timedOut) {
        Events e = Upcalls.enter(env, MONITOR_WAITED);
        if (e == null) return;
        try {
            Thread t = (Thread) e.toJava(jni, thread);
            Object monitor = e.toJava(jni, object);
            for (Object h : e.handlers(MONITOR_WAITED)) {
                try {
                    ((MonitorWaitedHandler) h).monitorWaited(t, monitor, timedOut != 0);
                    e.delivered(MONITOR_WAITED);
                } catch (Throwable x) {
                    e.failed(MONITOR_WAITED, x);
                }
            }
        } catch (Throwable ignored) {
            // Swallowed: an exception escaping an upcall terminates the JVM.
        } finally {
            Upcalls.leave();
        }
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
    public static final Event<ClassUnloadHandler> CLASS_UNLOAD = new Event<>("ClassUnload", -1, null, null);

    /** HotSpot posts ClassUnload as {@code (jvmtiEnv*, JNIEnv*, const char* name)}. */
    static void classUnload(long env, long jni, long name) {
        Events e = Upcalls.enter(env, CLASS_UNLOAD);
        if (e == null) return;
        try {
            String n = Native.string(name);
            for (Object h : e.handlers(CLASS_UNLOAD)) {
                try {
                    ((ClassUnloadHandler) h).classUnload(n);
                    e.delivered(CLASS_UNLOAD);
                } catch (Throwable x) {
                    e.failed(CLASS_UNLOAD, x);
                }
            }
        } catch (Throwable ignored) {
            // Swallowed: an exception escaping an upcall terminates the JVM.
        } finally {
            Upcalls.leave();
        }
    }
}
