package dev.tiprobe.jvmti;

import dev.tiprobe.bindings.jvmti.jvmtiEventCallbacks;
import dev.tiprobe.bindings.jvmti.jvmtiEventClassFileLoadHook;
import dev.tiprobe.bindings.jvmti.jvmtiEventClassLoad;
import dev.tiprobe.bindings.jvmti.jvmtiEventClassPrepare;
import dev.tiprobe.bindings.jvmti.jvmtiEventCompiledMethodLoad;
import dev.tiprobe.bindings.jvmti.jvmtiEventCompiledMethodUnload;
import dev.tiprobe.bindings.jvmti.jvmtiEventDynamicCodeGenerated;
import dev.tiprobe.bindings.jvmti.jvmtiEventObjectFree;
import dev.tiprobe.bindings.jvmti.jvmtiEventThreadEnd;
import dev.tiprobe.bindings.jvmti.jvmtiEventThreadStart;
import dev.tiprobe.bindings.jvmti.jvmtiEventVMDeath;
import dev.tiprobe.bindings.jvmti.jvmtiInterface_1_;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.security.ProtectionDomain;

import static dev.tiprobe.jvmti.Native.C_POINTER;
import static dev.tiprobe.jvmti.Native.LINKER;
import static dev.tiprobe.jvmti.Native.NULL;
import static dev.tiprobe.jvmti.Native.check;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The one place where JVMTI callbacks are registered (async-profiler's VM::init, in Java).
 *
 * <p>Each callback is an upcall stub in the global arena, created once per process and invoked
 * once from Java before the VM gets it: the first call of a fresh stub links method handles,
 * which defines hidden classes and would fire ClassLoad and ClassPrepare into the same stub.
 * Every body catches Throwable (an exception escaping an upcall terminates the JVM), hands off at
 * once to the handlers of the active {@link Events}, and runs under a per-thread guard that drops
 * re-entrant events.
 */
final class Upcalls {
    static final String CLASS_UNLOAD_EXTENSION = "com.sun.hotspot.events.ClassUnload";
    private static final FunctionDescriptor CLASS_UNLOAD_DESCRIPTOR = FunctionDescriptor.ofVoid(C_POINTER, C_POINTER, C_POINTER);

    private static volatile Events active;
    private static boolean registered;
    private static MemorySegment classUnloadStub;
    private static int classUnloadIndex = Integer.MIN_VALUE;

    /** Per-thread "inside a tiprobe callback" flag; a subclass, not a lambda, so nothing is spun lazily. */
    private static final ThreadLocal<int[]> INSIDE = new ThreadLocal<>() {
        @Override
        protected int[] initialValue() {
            return new int[1];
        }
    };

    private Upcalls() {}

    /** The callback table with every stub, made once by {@link #prepare()}. */
    private static MemorySegment callbacks;

    /** Makes {@code events} the receiver of all callbacks; registers the stubs on first use. */
    static synchronized void install(Native n, Events events) {
        active = events;
        if (registered) return;
        prepare();
        check("SetEventCallbacks", jvmtiInterface_1_.SetEventCallbacks.invoke(
                n.fnSetEventCallbacks, n.env, callbacks, (int) jvmtiEventCallbacks.sizeof()));
        registered = true;
    }

    /**
     * Creates and warms every stub (about 110 ms in a cold JVM: each spins method handles and
     * hidden classes). Needs no VM, so premain can have it done on another thread while it links
     * the downcalls, instead of the first registration paying for it after main has begun.
     */
    static synchronized void prepare() {
        if (callbacks != null) return;
        INSIDE.get()[0] = 0;  // initializes the guard's classes before any stub can run
        Arena global = Arena.global();
        MemorySegment callbacks = global.allocate(jvmtiEventCallbacks.layout());
        jvmtiEventCallbacks.VMDeath(callbacks, warm(jvmtiEventVMDeath.allocate(Upcalls::vmDeath, global),
                s -> jvmtiEventVMDeath.invoke(s, NULL, NULL)));
        jvmtiEventCallbacks.ThreadStart(callbacks, warm(jvmtiEventThreadStart.allocate(Upcalls::threadStart, global),
                s -> jvmtiEventThreadStart.invoke(s, NULL, NULL, NULL)));
        jvmtiEventCallbacks.ThreadEnd(callbacks, warm(jvmtiEventThreadEnd.allocate(Upcalls::threadEnd, global),
                s -> jvmtiEventThreadEnd.invoke(s, NULL, NULL, NULL)));
        jvmtiEventCallbacks.ClassFileLoadHook(callbacks, warm(jvmtiEventClassFileLoadHook.allocate(Upcalls::classFileLoadHook, global),
                s -> jvmtiEventClassFileLoadHook.invoke(s, NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL)));
        jvmtiEventCallbacks.ClassLoad(callbacks, warm(jvmtiEventClassLoad.allocate(Upcalls::classLoad, global),
                s -> jvmtiEventClassLoad.invoke(s, NULL, NULL, NULL, NULL)));
        jvmtiEventCallbacks.ClassPrepare(callbacks, warm(jvmtiEventClassPrepare.allocate(Upcalls::classPrepare, global),
                s -> jvmtiEventClassPrepare.invoke(s, NULL, NULL, NULL, NULL)));
        jvmtiEventCallbacks.CompiledMethodLoad(callbacks, warm(jvmtiEventCompiledMethodLoad.allocate(Upcalls::compiledMethodLoad, global),
                s -> jvmtiEventCompiledMethodLoad.invoke(s, NULL, NULL, 0, NULL, 0, NULL, NULL)));
        jvmtiEventCallbacks.CompiledMethodUnload(callbacks, warm(jvmtiEventCompiledMethodUnload.allocate(Upcalls::compiledMethodUnload, global),
                s -> jvmtiEventCompiledMethodUnload.invoke(s, NULL, NULL, NULL)));
        jvmtiEventCallbacks.DynamicCodeGenerated(callbacks, warm(jvmtiEventDynamicCodeGenerated.allocate(Upcalls::dynamicCodeGenerated, global),
                s -> jvmtiEventDynamicCodeGenerated.invoke(s, NULL, NULL, NULL, 0)));
        jvmtiEventCallbacks.ObjectFree(callbacks, warm(jvmtiEventObjectFree.allocate(Upcalls::objectFree, global),
                s -> jvmtiEventObjectFree.invoke(s, NULL, 0L)));
        Upcalls.callbacks = callbacks;
    }

    static synchronized void uninstall(Events events) {
        if (active == events) active = null;
    }

    private interface Warmer {
        void call(MemorySegment stub) throws Throwable;
    }

    /** Calls {@code stub} once from Java with a NULL env (a no-op for the body) so it is linked. */
    private static MemorySegment warm(MemorySegment stub, Warmer warmer) {
        try {
            warmer.call(stub);
        } catch (Throwable t) {
            throw new IllegalStateException("warming an upcall stub failed", t);
        }
        return stub;
    }

    /** ClassUnload is an extension event: SetExtensionEventCallback plus SetEventNotificationMode. */
    static synchronized void enableClassUnload(Native n, Jvmti jvmti, boolean on) {
        if (classUnloadIndex == Integer.MIN_VALUE) {
            classUnloadIndex = jvmti.extensionEvents().stream()
                    .filter(e -> e.id().equals(CLASS_UNLOAD_EXTENSION))
                    .mapToInt(Jvmti.Extension::eventIndex)
                    .findFirst()
                    .orElseThrow(() -> new UnsupportedOperationException(
                            "this VM has no " + CLASS_UNLOAD_EXTENSION + " extension event"));
        }
        if (classUnloadStub == null) {
            try {
                MethodHandle target = MethodHandles.lookup().findStatic(Upcalls.class, "classUnload",
                        MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, MemorySegment.class));
                MemorySegment stub = LINKER.upcallStub(target, CLASS_UNLOAD_DESCRIPTOR, Arena.global());
                MethodHandle caller = LINKER.downcallHandle(CLASS_UNLOAD_DESCRIPTOR);
                caller.invokeExact(stub, NULL, NULL, NULL);
                classUnloadStub = stub;
            } catch (Throwable t) {
                throw new IllegalStateException("creating the ClassUnload upcall failed", t);
            }
        }
        if (on) {
            check("SetExtensionEventCallback", jvmtiInterface_1_.SetExtensionEventCallback.invoke(
                    n.fnSetExtensionEventCallback, n.env, classUnloadIndex, classUnloadStub));
            n.setEventNotificationMode(true, classUnloadIndex);
        } else {
            n.setEventNotificationMode(false, classUnloadIndex);
            check("SetExtensionEventCallback", jvmtiInterface_1_.SetExtensionEventCallback.invoke(
                    n.fnSetExtensionEventCallback, n.env, classUnloadIndex, NULL));
        }
    }

    // ---------------------------------------------------------------- the guard and the delivery

    /**
     * The active events if this callback should run: not a warm-up call (NULL env), a facade is
     * active with a handler for {@code event}, and the thread is not already inside a tiprobe
     * callback (then the event is counted as dropped). A non-null answer must be paired with
     * {@link #leave()}.
     */
    private static Events enter(MemorySegment env, Event event) {
        Events e = active;
        if (env.address() == 0 || e == null || e.handlers(event).length == 0) return null;
        int[] inside = INSIDE.get();
        if (inside[0] != 0) {
            e.counters(event).dropped.incrementAndGet();
            return null;
        }
        inside[0] = 1;
        return e;
    }

    private static void leave() {
        INSIDE.get()[0] = 0;
    }

    /**
     * Calls every handler of {@code event} with the event's arguments (which ones it reads
     * depends on the event), counting deliveries and failures; one failing handler does not stop
     * the others. Plain type tests, no switch: nothing here loads a class on first use.
     */
    private static void deliver(Events e, Event event, Object a, Object b, long x, long y, int i) {
        for (Object h : e.handlers(event)) {
            try {
                if (event == Event.CLASS_PREPARE) ((Events.ClassPrepareHandler) h).classPrepare((Thread) a, (Class<?>) b);
                else if (event == Event.CLASS_LOAD) ((Events.ClassLoadHandler) h).classLoad((Thread) a, (Class<?>) b);
                else if (event == Event.THREAD_START || event == Event.THREAD_END) ((Events.ThreadHandler) h).thread((Thread) a);
                else if (event == Event.OBJECT_FREE) ((Events.ObjectFreeHandler) h).objectFree(x);
                else if (event == Event.CLASS_UNLOAD) ((Events.ClassUnloadHandler) h).classUnload((String) a);
                else if (event == Event.COMPILED_METHOD_LOAD) ((Events.CompiledMethodLoadHandler) h).compiledMethodLoad(x, y, i);
                else if (event == Event.COMPILED_METHOD_UNLOAD) ((Events.CompiledMethodUnloadHandler) h).compiledMethodUnload(x, y);
                else if (event == Event.DYNAMIC_CODE_GENERATED) ((Events.DynamicCodeGeneratedHandler) h).dynamicCodeGenerated((String) a, x, i);
                else if (event == Event.VM_DEATH) ((Events.VmDeathHandler) h).vmDeath();
                e.counters(event).delivered.incrementAndGet();
            } catch (Throwable t) {
                failed(e, event, t);
            }
        }
    }

    private static void failed(Events e, Event event, Throwable t) {
        try {
            e.failed(event, t);
        } catch (Throwable ignored) {
            // Out of memory while counting: nothing more to do, and nothing may escape.
        }
    }

    // ---------------------------------------------------------------- the callbacks
    // Each: enter, convert the VM's arguments, deliver, leave; nothing may escape an upcall.

    static void vmDeath(MemorySegment env, MemorySegment jni) {
        try {
            Events e = enter(env, Event.VM_DEATH);
            if (e == null) return;
            try {
                deliver(e, Event.VM_DEATH, null, null, 0, 0, 0);
            } finally {
                leave();
            }
        } catch (Throwable ignored) {
            // Swallowed: an exception escaping an upcall terminates the JVM.
        }
    }

    static void threadStart(MemorySegment env, MemorySegment jni, MemorySegment thread) {
        threadEvent(env, jni, thread, Event.THREAD_START);
    }

    static void threadEnd(MemorySegment env, MemorySegment jni, MemorySegment thread) {
        threadEvent(env, jni, thread, Event.THREAD_END);
    }

    private static void threadEvent(MemorySegment env, MemorySegment jni, MemorySegment thread, Event event) {
        try {
            Events e = enter(env, event);
            if (e == null) return;
            try {
                deliver(e, event, e.n().handoff.toJava(jni, thread), null, 0, 0, 0);
            } finally {
                leave();
            }
        } catch (Throwable ignored) {
            // Swallowed: an exception escaping an upcall terminates the JVM.
        }
    }

    static void classLoad(MemorySegment env, MemorySegment jni, MemorySegment thread, MemorySegment klass) {
        classEvent(env, jni, thread, klass, Event.CLASS_LOAD);
    }

    static void classPrepare(MemorySegment env, MemorySegment jni, MemorySegment thread, MemorySegment klass) {
        classEvent(env, jni, thread, klass, Event.CLASS_PREPARE);
    }

    private static void classEvent(MemorySegment env, MemorySegment jni, MemorySegment thread, MemorySegment klass,
                                   Event event) {
        try {
            Events e = enter(env, event);
            if (e == null) return;
            try {
                Handoff handoff = e.n().handoff;
                deliver(e, event, handoff.toJava(jni, thread), handoff.toJava(jni, klass), 0, 0, 0);
            } finally {
                leave();
            }
        } catch (Throwable ignored) {
            // Swallowed: an exception escaping an upcall terminates the JVM.
        }
    }

    /** Chains the handlers (each sees the previous output) and hands JVMTI-allocated bytes back. */
    static void classFileLoadHook(MemorySegment env, MemorySegment jni, MemorySegment classBeingRedefined,
                                  MemorySegment loader, MemorySegment name, MemorySegment protectionDomain,
                                  int classDataLength, MemorySegment classData, MemorySegment newClassDataLength,
                                  MemorySegment newClassData) {
        Event event = Event.CLASS_FILE_LOAD_HOOK;
        try {
            Events e = enter(env, event);
            if (e == null) return;
            try {
                Handoff handoff = e.n().handoff;
                ClassLoader l = (ClassLoader) handoff.toJava(jni, loader);
                Class<?> redefined = (Class<?>) handoff.toJava(jni, classBeingRedefined);
                ProtectionDomain pd = (ProtectionDomain) handoff.toJava(jni, protectionDomain);
                String internalName = Native.string(name);
                byte[] bytes = classData.reinterpret(classDataLength).toArray(JAVA_BYTE);
                boolean changed = false;
                for (Object h : e.handlers(event)) {
                    try {
                        byte[] out = ((Events.ClassFileLoadHookHandler) h).transform(l, internalName, redefined, pd, bytes);
                        if (out != null) {
                            bytes = out;
                            changed = true;
                        }
                        e.counters(event).delivered.incrementAndGet();
                    } catch (Throwable x) {
                        failed(e, event, x);
                    }
                }
                if (changed) {
                    try (Scratch s = Scratch.open()) {
                        MemorySegment copy = e.n().allocate(bytes.length, s);
                        MemorySegment.copy(bytes, 0, copy, JAVA_BYTE, 0, bytes.length);
                        newClassDataLength.reinterpret(JAVA_INT.byteSize()).set(JAVA_INT, 0, bytes.length);
                        newClassData.reinterpret(C_POINTER.byteSize()).set(C_POINTER, 0, copy);
                    }
                }
            } finally {
                leave();
            }
        } catch (Throwable ignored) {
            // Swallowed: an exception escaping an upcall terminates the JVM; the class loads unchanged.
        }
    }

    static void objectFree(MemorySegment env, long tag) {
        simpleEvent(env, Event.OBJECT_FREE, null, tag, 0, 0);
    }

    static void compiledMethodLoad(MemorySegment env, MemorySegment method, int codeSize, MemorySegment codeAddress,
                                   int mapLength, MemorySegment map, MemorySegment compileInfo) {
        simpleEvent(env, Event.COMPILED_METHOD_LOAD, null, method.address(), codeAddress.address(), codeSize);
    }

    static void compiledMethodUnload(MemorySegment env, MemorySegment method, MemorySegment codeAddress) {
        simpleEvent(env, Event.COMPILED_METHOD_UNLOAD, null, method.address(), codeAddress.address(), 0);
    }

    static void dynamicCodeGenerated(MemorySegment env, MemorySegment name, MemorySegment address, int length) {
        simpleEvent(env, Event.DYNAMIC_CODE_GENERATED, name, address.address(), 0, length);
    }

    /** HotSpot posts ClassUnload as {@code (jvmtiEnv*, JNIEnv*, const char* name)}. */
    static void classUnload(MemorySegment env, MemorySegment jni, MemorySegment name) {
        simpleEvent(env, Event.CLASS_UNLOAD, name, 0, 0, 0);
    }

    /** The events without JNI references: numbers, and at most one C string. */
    private static void simpleEvent(MemorySegment env, Event event, MemorySegment name, long x, long y, int i) {
        try {
            Events e = enter(env, event);
            if (e == null) return;
            try {
                deliver(e, event, name == null ? null : Native.string(name), null, x, y, i);
            } finally {
                leave();
            }
        } catch (Throwable ignored) {
            // Swallowed: an exception escaping an upcall terminates the JVM.
        }
    }
}
