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

    /** Makes {@code events} the receiver of all callbacks; registers the stubs on first use. */
    static synchronized void install(Native n, Events events) {
        active = events;
        if (registered) return;
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
        check("SetEventCallbacks", jvmtiInterface_1_.SetEventCallbacks.invoke(
                n.fnSetEventCallbacks, n.env, callbacks, (int) jvmtiEventCallbacks.sizeof()));
        registered = true;
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

    // ---------------------------------------------------------------- the guard

    /**
     * The active events if this callback should run: not a warm-up call (NULL env), a facade is
     * active, and the thread is not already inside a tiprobe callback (then the event is counted
     * as dropped). A non-null answer must be paired with {@link #leave()}.
     */
    private static Events enter(MemorySegment env, Event event) {
        Events e = active;
        if (env.address() == 0 || e == null) return null;
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

    private static void delivered(Events e, Event event) {
        e.counters(event).delivered.incrementAndGet();
    }

    private static void failed(Events e, Event event, Throwable t) {
        try {
            e.failed(event, t);
        } catch (Throwable ignored) {
            // Out of memory while counting: nothing more to do, and nothing may escape.
        }
    }

    // ---------------------------------------------------------------- the callbacks

    static void vmDeath(MemorySegment env, MemorySegment jni) {
        try {
            Events e = active;
            if (e == null || (e = enter(env, Event.VM_DEATH)) == null) return;
            try {
                for (Object h : e.vmDeath) {
                    try {
                        ((Events.VmDeathHandler) h).vmDeath();
                        delivered(e, Event.VM_DEATH);
                    } catch (Throwable t) {
                        failed(e, Event.VM_DEATH, t);
                    }
                }
            } finally {
                leave();
            }
        } catch (Throwable ignored) {
            // Nothing may escape an upcall.
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
            Events e = active;
            if (e == null) return;
            Object[] handlers = event == Event.THREAD_START ? e.threadStart : e.threadEnd;
            if (handlers.length == 0 || (e = enter(env, event)) == null) return;
            try {
                Thread t = (Thread) e.n().handoff.toJava(jni, thread);
                for (Object h : handlers) {
                    try {
                        ((Events.ThreadHandler) h).thread(t);
                        delivered(e, event);
                    } catch (Throwable x) {
                        failed(e, event, x);
                    }
                }
            } finally {
                leave();
            }
        } catch (Throwable ignored) {
            // Nothing may escape an upcall.
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
            Events e = active;
            if (e == null) return;
            Object[] handlers = event == Event.CLASS_LOAD ? e.classLoad : e.classPrepare;
            if (handlers.length == 0 || (e = enter(env, event)) == null) return;
            try {
                Handoff handoff = e.n().handoff;
                Thread t = (Thread) handoff.toJava(jni, thread);
                Class<?> type = (Class<?>) handoff.toJava(jni, klass);
                for (Object h : handlers) {
                    try {
                        if (event == Event.CLASS_LOAD) {
                            ((Events.ClassLoadHandler) h).classLoad(t, type);
                        } else {
                            ((Events.ClassPrepareHandler) h).classPrepare(t, type);
                        }
                        delivered(e, event);
                    } catch (Throwable x) {
                        failed(e, event, x);
                    }
                }
            } finally {
                leave();
            }
        } catch (Throwable ignored) {
            // Nothing may escape an upcall.
        }
    }

    static void classFileLoadHook(MemorySegment env, MemorySegment jni, MemorySegment classBeingRedefined,
                                  MemorySegment loader, MemorySegment name, MemorySegment protectionDomain,
                                  int classDataLength, MemorySegment classData, MemorySegment newClassDataLength,
                                  MemorySegment newClassData) {
        Event event = Event.CLASS_FILE_LOAD_HOOK;
        try {
            Events e = active;
            if (e == null || e.classFileLoadHook.length == 0) return;
            Object[] handlers = e.classFileLoadHook;
            if ((e = enter(env, event)) == null) return;
            try {
                Handoff handoff = e.n().handoff;
                ClassLoader l = (ClassLoader) handoff.toJava(jni, loader);
                Class<?> redefined = (Class<?>) handoff.toJava(jni, classBeingRedefined);
                ProtectionDomain pd = (ProtectionDomain) handoff.toJava(jni, protectionDomain);
                String internalName = Native.string(name);
                byte[] bytes = classData.reinterpret(classDataLength).toArray(JAVA_BYTE);
                boolean changed = false;
                for (Object h : handlers) {
                    try {
                        byte[] out = ((Events.ClassFileLoadHookHandler) h).transform(l, internalName, redefined, pd, bytes);
                        if (out != null) {
                            bytes = out;
                            changed = true;
                        }
                        delivered(e, event);
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
            // Nothing may escape an upcall; the class loads unchanged.
        }
    }

    static void objectFree(MemorySegment env, long tag) {
        try {
            Events e = active;
            if (e == null || e.objectFree.length == 0) return;
            Object[] handlers = e.objectFree;
            if ((e = enter(env, Event.OBJECT_FREE)) == null) return;
            try {
                for (Object h : handlers) {
                    try {
                        ((Events.ObjectFreeHandler) h).objectFree(tag);
                        delivered(e, Event.OBJECT_FREE);
                    } catch (Throwable x) {
                        failed(e, Event.OBJECT_FREE, x);
                    }
                }
            } finally {
                leave();
            }
        } catch (Throwable ignored) {
            // Nothing may escape an upcall.
        }
    }

    static void compiledMethodLoad(MemorySegment env, MemorySegment method, int codeSize, MemorySegment codeAddress,
                                   int mapLength, MemorySegment map, MemorySegment compileInfo) {
        try {
            Events e = active;
            if (e == null || e.compiledMethodLoad.length == 0) return;
            Object[] handlers = e.compiledMethodLoad;
            if ((e = enter(env, Event.COMPILED_METHOD_LOAD)) == null) return;
            try {
                for (Object h : handlers) {
                    try {
                        ((Events.CompiledMethodLoadHandler) h).compiledMethodLoad(method.address(), codeAddress.address(), codeSize);
                        delivered(e, Event.COMPILED_METHOD_LOAD);
                    } catch (Throwable x) {
                        failed(e, Event.COMPILED_METHOD_LOAD, x);
                    }
                }
            } finally {
                leave();
            }
        } catch (Throwable ignored) {
            // Nothing may escape an upcall.
        }
    }

    static void compiledMethodUnload(MemorySegment env, MemorySegment method, MemorySegment codeAddress) {
        try {
            Events e = active;
            if (e == null || e.compiledMethodUnload.length == 0) return;
            Object[] handlers = e.compiledMethodUnload;
            if ((e = enter(env, Event.COMPILED_METHOD_UNLOAD)) == null) return;
            try {
                for (Object h : handlers) {
                    try {
                        ((Events.CompiledMethodUnloadHandler) h).compiledMethodUnload(method.address(), codeAddress.address());
                        delivered(e, Event.COMPILED_METHOD_UNLOAD);
                    } catch (Throwable x) {
                        failed(e, Event.COMPILED_METHOD_UNLOAD, x);
                    }
                }
            } finally {
                leave();
            }
        } catch (Throwable ignored) {
            // Nothing may escape an upcall.
        }
    }

    static void dynamicCodeGenerated(MemorySegment env, MemorySegment name, MemorySegment address, int length) {
        try {
            Events e = active;
            if (e == null || e.dynamicCodeGenerated.length == 0) return;
            Object[] handlers = e.dynamicCodeGenerated;
            if ((e = enter(env, Event.DYNAMIC_CODE_GENERATED)) == null) return;
            try {
                String n = Native.string(name);
                for (Object h : handlers) {
                    try {
                        ((Events.DynamicCodeGeneratedHandler) h).dynamicCodeGenerated(n, address.address(), length);
                        delivered(e, Event.DYNAMIC_CODE_GENERATED);
                    } catch (Throwable x) {
                        failed(e, Event.DYNAMIC_CODE_GENERATED, x);
                    }
                }
            } finally {
                leave();
            }
        } catch (Throwable ignored) {
            // Nothing may escape an upcall.
        }
    }

    /** HotSpot posts ClassUnload as {@code (jvmtiEnv*, JNIEnv*, const char* name)}. */
    static void classUnload(MemorySegment env, MemorySegment jni, MemorySegment name) {
        try {
            Events e = active;
            if (e == null || e.classUnload.length == 0) return;
            Object[] handlers = e.classUnload;
            if ((e = enter(env, Event.CLASS_UNLOAD)) == null) return;
            try {
                String n = Native.string(name);
                for (Object h : handlers) {
                    try {
                        ((Events.ClassUnloadHandler) h).classUnload(n);
                        delivered(e, Event.CLASS_UNLOAD);
                    } catch (Throwable x) {
                        failed(e, Event.CLASS_UNLOAD, x);
                    }
                }
            } finally {
                leave();
            }
        } catch (Throwable ignored) {
            // Nothing may escape an upcall.
        }
    }
}
