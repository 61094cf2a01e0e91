package dev.tiprobe.jvmti;

import dev.tiprobe.bindings.jvmti.jvmtiEventCallbacks;
import dev.tiprobe.bindings.jvmti.jvmtiInterface_1_;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

import static dev.tiprobe.jvmti.Native.C_POINTER;
import static dev.tiprobe.jvmti.Native.LINKER;
import static dev.tiprobe.jvmti.Native.NULL;
import static dev.tiprobe.jvmti.Native.check;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Where the callbacks of {@link Event} are registered with the VM (async-profiler's VM::init, in
 * Java), and the guard every callback runs under.
 *
 * <p>Each callback is an upcall stub in the global arena, created once per process and invoked
 * once from Java before the VM gets it: the first call of a fresh stub links method handles,
 * which defines hidden classes and would fire ClassLoad and ClassPrepare into the same stub.
 * Callbacks hand off at once to the handlers of the active {@link Events}, under a per-thread
 * guard that drops re-entrant events.
 *
 * <p>A stub takes the VM's pointers as plain {@code long}s ({@link #stub}), never as
 * {@link MemorySegment}s: the stub's own code, outside any try of ours, would allocate a segment
 * for each pointer argument, and in a full heap that allocation throws an OutOfMemoryError no
 * callback can catch, which the FFM runtime answers by ending the JVM. Found by ImageIT's full
 * heap: a target with a session running exited while its heap was full, four threads in
 * {@code SharedUtils.handleUncaughtException} under ClassFileLoadHook, MonitorWaited and
 * MonitorContendedEnter stubs.
 */
final class Upcalls {
    /**
     * Per-thread "inside a tiprobe callback" flag; a subclass, not a lambda, so nothing is spun
     * lazily. Declared first: it is set up before anything else of the class's initialisation.
     */
    private static final ThreadLocal<int[]> INSIDE = new ThreadLocal<>() {
        @Override
        protected int[] initialValue() {
            return new int[1];
        }
    };

    static final String CLASS_UNLOAD_EXTENSION = "com.sun.hotspot.events.ClassUnload";
    private static final FunctionDescriptor CLASS_UNLOAD_DESCRIPTOR = FunctionDescriptor.ofVoid(C_POINTER, C_POINTER, C_POINTER);

    static {
        if (ADDRESS.byteSize() != JAVA_LONG.byteSize()) {
            throw new UnsupportedOperationException("tiprobe needs a 64-bit JVM: its callbacks take pointers as longs");
        }
    }

    private static volatile Events active;
    private static boolean registered;
    private static MemorySegment classUnloadStub;
    private static int classUnloadIndex = Integer.MIN_VALUE;


    private Upcalls() {}

    /** The callback table with every stub, made once by {@link #prepare()}. */
    private static MemorySegment callbacks;

    /**
     * An upcall stub for the callback {@code method} of {@link Event}, declared by jextract as
     * {@code declared}, whose pointer arguments the method takes as {@code long}s: the registers
     * are the same, and once the stub has been called {@link Event#WARM_CALLS} times (its method
     * handles customized), nothing is allocated before the method's own try begins.
     */
    static MemorySegment stub(FunctionDescriptor declared, String method, Arena arena) throws ReflectiveOperationException {
        MemoryLayout[] arguments = declared.argumentLayouts().stream()
                .map(l -> l instanceof AddressLayout ? JAVA_LONG : l)
                .toArray(MemoryLayout[]::new);
        FunctionDescriptor raw = declared.returnLayout()
                .map(r -> FunctionDescriptor.of(r, arguments))
                .orElseGet(() -> FunctionDescriptor.ofVoid(arguments));
        MethodHandle target = MethodHandles.privateLookupIn(Event.class, MethodHandles.lookup())
                .findStatic(Event.class, method, raw.toMethodType());
        return LINKER.upcallStub(target, raw, arena);
    }

    /** Makes {@code events} the receiver of all callbacks; registers the stubs on first use. */
    static synchronized void install(Native n, Events events) {
        active = events;
        if (registered) return;
        prepare();
        check("SetEventCallbacks", jvmtiInterface_1_.SetEventCallbacks.invoke(
                n.fn(JvmtiFunction.SetEventCallbacks), n.env, callbacks, (int) jvmtiEventCallbacks.sizeof()));
        registered = true;
    }

    /**
     * Creates and warms every event's stub (about 110 ms in a cold JVM: each spins method handles
     * and hidden classes). Needs no VM, so premain can have it done on another thread while it
     * links the downcalls, instead of the first registration paying for it after main has begun.
     */
    static synchronized void prepare() {
        if (callbacks != null) return;
        INSIDE.get()[0] = 0;  // initializes the guard's classes before any stub can run
        Arena global = Arena.global();
        MemorySegment table = global.allocate(jvmtiEventCallbacks.layout());
        for (Event<?> e : Event.all()) {
            if (e.stub() == null) continue;
            try {
                e.stub().register(table, global);
            } catch (Throwable t) {
                throw new IllegalStateException("making the " + e + " upcall failed", t);
            }
        }
        callbacks = table;
    }

    static synchronized void uninstall(Events events) {
        if (active == events) active = null;
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
                MemorySegment stub = stub(CLASS_UNLOAD_DESCRIPTOR, "classUnload", Arena.global());
                MethodHandle caller = LINKER.downcallHandle(CLASS_UNLOAD_DESCRIPTOR);
                for (int i = 0; i < Event.WARM_CALLS; i++) caller.invokeExact(stub, NULL, NULL, NULL);
                classUnloadStub = stub;
            } catch (Throwable t) {
                throw new IllegalStateException("creating the ClassUnload upcall failed", t);
            }
        }
        if (on) {
            check("SetExtensionEventCallback", jvmtiInterface_1_.SetExtensionEventCallback.invoke(
                    n.fn(JvmtiFunction.SetExtensionEventCallback), n.env, classUnloadIndex, classUnloadStub));
            n.setEventNotificationMode(true, classUnloadIndex);
        } else {
            n.setEventNotificationMode(false, classUnloadIndex);
            check("SetExtensionEventCallback", jvmtiInterface_1_.SetExtensionEventCallback.invoke(
                    n.fn(JvmtiFunction.SetExtensionEventCallback), n.env, classUnloadIndex, NULL));
        }
    }

    // ---------------------------------------------------------------- the guard

    /**
     * The active events if a callback of {@code event} should run: not a warm-up call (NULL env),
     * a facade is active with a handler for {@code event}, and the thread is not already inside a
     * tiprobe callback (then the event is counted as dropped). A non-null answer must be paired
     * with {@link #leave()}. Never throws.
     */
    static Events enter(long env, Event<?> event) {
        try {
            Events e = active;
            if (env == 0 || e == null || e.handlers(event).length == 0) return null;
            int[] inside = INSIDE.get();
            if (inside[0] != 0) {
                e.dropped(event);
                return null;
            }
            inside[0] = 1;
            return e;
        } catch (Throwable t) {
            return null;  // out of memory, say: the event is lost, the VM goes on
        }
    }

    /** Puts this thread's guard up, as inside a callback ({@link Jvmti#beginOwnWork}); returns what it was. */
    static int raiseGuard() {
        int[] inside = INSIDE.get();
        int was = inside[0];
        inside[0] = 1;
        return was;
    }

    /** Puts this thread's guard back to {@code was} ({@link #raiseGuard}'s answer). */
    static void restoreGuard(int was) {
        INSIDE.get()[0] = was;
    }

    /** Ends what {@link #enter} began. Never throws. */
    static void leave() {
        try {
            INSIDE.get()[0] = 0;
        } catch (Throwable ignored) {
            // nothing may escape an upcall
        }
    }
}
