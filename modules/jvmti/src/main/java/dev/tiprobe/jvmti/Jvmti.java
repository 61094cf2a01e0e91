package dev.tiprobe.jvmti;

import dev.tiprobe.bindings.jvmti.jvmtiExtensionEventInfo;
import dev.tiprobe.bindings.jvmti.jvmtiExtensionFunctionInfo;
import dev.tiprobe.bindings.jvmti.jvmtiFrameInfo;
import dev.tiprobe.bindings.jvmti.jvmtiMonitorUsage;
import dev.tiprobe.bindings.jvmti.jvmtiInterface_1_;
import dev.tiprobe.bindings.jvmti.jvmtiLineNumberEntry;
import dev.tiprobe.bindings.jvmti.jvmtiParamInfo;
import dev.tiprobe.bindings.jvmti.jvmtiStackInfo;
import dev.tiprobe.bindings.jvmti.jvmtiThreadInfo;
import dev.tiprobe.bindings.jvmti.jvmti_h;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.ToIntFunction;

import static dev.tiprobe.jvmti.Native.C_POINTER;
import static dev.tiprobe.jvmti.Native.NULL;
import static dev.tiprobe.jvmti.Native.check;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The JVMTI environment of this process, as Java types.
 *
 * <p>{@link #get()} acquires it once (from application code, a test, or agentmain) and keeps it.
 * Inside premain no VM exists yet: {@link #whenReady()} completes once it does. Method IDs are
 * {@code jmethodID}s as longs; they must come from this facade (class methods, stack frames).
 * A zero ID or the ID of a class that has unloaded fails with {@link JvmtiError#INVALID_METHODID};
 * an arbitrary number is a wild pointer to the VM and may crash it.
 *
 * <p>All methods may be called from any Java thread, in the live phase. Each frees what JVMTI
 * allocated for it. Errors throw {@link JvmtiException}. After {@link #shutdown()} every method
 * throws {@link IllegalStateException}; {@link #get()} then hands out a fresh facade.
 */
public final class Jvmti {
    /** A class's JVM type signature ({@code Ljava/lang/String;}) and generic signature, or null. */
    public record ClassSignature(String signature, String generic) {}

    /** A method's name, descriptor ({@code (I)V}) and generic signature, or null. */
    public record MethodName(String name, String descriptor, String generic) {}

    /** One entry of a line number table: bytecode index where {@code line} starts. */
    public record LineNumber(long startLocation, int line) {}

    /** One frame: the method ID and the bytecode index ({@code -1} for native methods). */
    public record StackFrame(long methodId, long location) {}

    /**
     * A thread's stack as GetAllStackTraces reports it; {@code state} is JVMTI's thread state
     * bits; {@code cpuNanos} the thread's CPU time read right after the walk when it was asked
     * for and the thread was runnable, else -1.
     */
    public record ThreadStack(Thread thread, int state, List<StackFrame> frames, long cpuNanos) {}

    /** JVMTI_THREAD_STATE_RUNNABLE. */
    public static final int THREAD_STATE_RUNNABLE = 0x0004;
    /** JVMTI_THREAD_STATE_IN_NATIVE: the thread runs native code (a runnable thread blocked in I/O is too). */
    public static final int THREAD_STATE_IN_NATIVE = 0x400000;

    /** What GetThreadInfo reports. */
    public record ThreadDetails(String name, int priority, boolean daemon, ThreadGroup group,
                                ClassLoader contextClassLoader) {}

    /** An extension function or event: {@code eventIndex} is -1 for functions. */
    public record Extension(String id, String description, int eventIndex, List<String> parameters) {}

    /** A method of a {@link ClassSnapshot}. */
    public record MethodSnapshot(long id, String name, String descriptor, String generic) {}

    /**
     * A loaded class with its signature and methods; {@code methods} is null when the class is not
     * prepared yet (it has no methods to show until ClassPrepare).
     */
    public record ClassSnapshot(Class<?> type, String signature, String generic, List<MethodSnapshot> methods) {}

    /** GetClassStatus bits: answers "is this class fully loaded?" exactly, without touching it. */
    public record ClassStatus(int bits) {
        public boolean verified() { return (bits & jvmti_h.JVMTI_CLASS_STATUS_VERIFIED()) != 0; }
        public boolean prepared() { return (bits & jvmti_h.JVMTI_CLASS_STATUS_PREPARED()) != 0; }
        public boolean initialized() { return (bits & jvmti_h.JVMTI_CLASS_STATUS_INITIALIZED()) != 0; }
        public boolean error() { return (bits & jvmti_h.JVMTI_CLASS_STATUS_ERROR()) != 0; }
        public boolean array() { return (bits & jvmti_h.JVMTI_CLASS_STATUS_ARRAY()) != 0; }
        public boolean primitive() { return (bits & jvmti_h.JVMTI_CLASS_STATUS_PRIMITIVE()) != 0; }
    }

    private static final Object LOCK = new Object();
    private static volatile Jvmti current;
    private static CompletableFuture<Jvmti> pending;

    private final Native n;
    private final Events events;
    private volatile boolean closed;
    /** Capabilities known held, so that the methods needing one ask the VM only once; emptied when any is given back. */
    private volatile Set<Capability> held = Set.of();

    private Jvmti(Native n) {
        this.n = n;
        this.events = new Events(this, n);
    }

    // ---------------------------------------------------------------- acquisition

    /**
     * Begins tiprobe's own work on this thread, as if inside one of the facade's callbacks: events
     * the JVM raises on the thread meanwhile (a sampled allocation, a contended monitor) are
     * dropped, as those raised inside a callback are. For tiprobe's work on the program's threads
     * (a class transformed as it loads, a kept call's stack walked): the handlers of those events
     * take tiprobe's locks, which that work may hold already, taken in another order (an
     * allocation sampled inside the transformer, while it held the ID map's loader table,
     * deadlocked with a thread that held the registry and wanted that table). Returns whether the
     * thread was inside such work or a callback already; pass it to {@link #endOwnWork}, in a
     * {@code finally}. No lambda and no allocation after a thread's first call: it runs inside the
     * transformer.
     */
    public static boolean beginOwnWork() {
        return Upcalls.raiseGuard() != 0;
    }

    /** Ends what {@link #beginOwnWork} began: the thread's guard as it was then ({@code wasInside}). */
    public static void endOwnWork(boolean wasInside) {
        Upcalls.restoreGuard(wasInside ? 1 : 0);
    }

    /**
     * The JVMTI environment of this process, acquired on the first call and cached.
     *
     * @throws JvmtiUnavailableException when libjvm or JVMTI cannot be reached, or when called
     *         before the VM is created (inside premain: use {@link #whenReady()})
     */
    public static Jvmti get() {
        Jvmti j = current;
        if (j != null && !j.closed) return j;
        synchronized (LOCK) {
            if (current == null || current.closed) current = new Jvmti(Native.get());
            return current;
        }
    }

    /**
     * Links the facade's native calls ahead of time (about 135 ms in a cold JVM); callable before
     * the VM is created, as in premain, so that the first JVMTI work after it is not slowed down.
     */
    public static void prelink() {
        Native.prelink();
    }

    /**
     * The native memory tiprobe keeps between JVMTI calls, in bytes: a scratch buffer for each
     * thread that has made or received one, freed after the thread ends. The upcall stubs (made
     * once per JVM) and what JVMTI and JFR hold for themselves are the JVM's and not counted.
     */
    public static long nativeBytes() {
        return Scratch.nativeBytes();
    }

    /**
     * Creates the event callbacks' upcall stubs ahead of the first event registration (about
     * 110 ms in a cold JVM); callable before the VM is created, from any thread.
     */
    public static void prelinkCallbacks() {
        Upcalls.prepare();
    }

    /**
     * Completes with {@link #get()} as soon as the VM is created: at once in agentmain or
     * application code; from a daemon thread that waits for the VM when called inside premain.
     * Whatever loaded in between is found later through {@link #loadedClasses()}.
     */
    public static CompletableFuture<Jvmti> whenReady() {
        synchronized (LOCK) {
            if (pending != null && !pending.isCompletedExceptionally()) return pending;
            CompletableFuture<Jvmti> future = new CompletableFuture<>();
            pending = future;
            if (Native.vmCreated()) {
                completeWith(future);
            } else {
                Thread waiter = new Thread(() -> {
                    try {
                        long sleepMillis = 1;
                        while (!Native.vmCreated()) {
                            Thread.sleep(sleepMillis);
                            sleepMillis = Math.min(sleepMillis * 2, 50);
                        }
                        completeWith(future);
                    } catch (Throwable t) {
                        future.completeExceptionally(t);
                    }
                }, "tiprobe-jvmti-waiter");
                waiter.setDaemon(true);
                waiter.start();
            }
            return future;
        }
    }

    private static void completeWith(CompletableFuture<Jvmti> future) {
        try {
            future.complete(get());
        } catch (Throwable t) {
            future.completeExceptionally(t);
        }
    }

    /** The event registry of this environment: handlers, counters, enabling and disabling. */
    public Events events() {
        ensureOpen();
        return events;
    }

    /**
     * Disables every event, drops all handlers and relinquishes all capabilities. Idempotent. The
     * native environment and its upcall stubs stay (they cannot be freed safely while the VM runs);
     * {@link #get()} afterwards returns a fresh facade over them.
     */
    public void shutdown() {
        synchronized (LOCK) {
            if (closed) return;
            events.shutdown();
            relinquishCapabilities(capabilities());
            closed = true;
        }
    }

    public boolean isShutdown() {
        return closed;
    }

    void ensureOpen() {
        if (closed) throw new IllegalStateException("this JVMTI facade was shut down; call Jvmti.get() for a new one");
    }

    // ---------------------------------------------------------------- version and capabilities

    /** The JVMTI version number, e.g. 0x30190000 on JDK 25. */
    public int version() {
        return n.version;
    }

    /** The version as major.minor.micro, e.g. {@code 25.0.0}. */
    public String versionString() {
        int v = n.version;
        return ((v & jvmti_h.JVMTI_VERSION_MASK_MAJOR()) >>> jvmti_h.JVMTI_VERSION_SHIFT_MAJOR()) + "."
                + ((v & jvmti_h.JVMTI_VERSION_MASK_MINOR()) >>> jvmti_h.JVMTI_VERSION_SHIFT_MINOR()) + "."
                + ((v & jvmti_h.JVMTI_VERSION_MASK_MICRO()) >>> jvmti_h.JVMTI_VERSION_SHIFT_MICRO());
    }

    /** The capabilities this environment could add now (in the live phase: a subset of all 45). */
    public Set<Capability> potentialCapabilities() {
        ensureOpen();
        return readCapabilities("GetPotentialCapabilities", n.fn(JvmtiFunction.GetPotentialCapabilities));
    }

    /** The capabilities this environment holds. */
    public Set<Capability> capabilities() {
        ensureOpen();
        return readCapabilities("GetCapabilities", n.fn(JvmtiFunction.GetCapabilities));
    }

    private Set<Capability> readCapabilities(String function, MemorySegment fn) {
        try (Scratch s = Scratch.open()) {
            MemorySegment caps = s.alloc(Capability.STRUCT_BYTES);
            // Both functions share the signature (jvmtiEnv*, jvmtiCapabilities*).
            check(function, jvmtiInterface_1_.GetCapabilities.invoke(fn, n.env, caps));
            return Capability.unpack(caps.get(JAVA_LONG, 0), caps.get(JAVA_LONG, 8));
        }
    }

    /**
     * Adds capabilities.
     *
     * @throws JvmtiException naming each capability the live phase cannot give, and saying that
     *         JVMTI grants those only at JVM start-up
     */
    public void addCapabilities(Set<Capability> wanted) {
        ensureOpen();
        if (wanted.isEmpty()) return;
        Set<Capability> missing = EnumSet.copyOf(wanted);
        missing.removeAll(potentialCapabilities());
        if (!missing.isEmpty()) {
            throw new JvmtiException("AddCapabilities", JvmtiError.NOT_AVAILABLE.code(),
                    "AddCapabilities failed: " + names(missing) + (missing.size() == 1 ? " is" : " are")
                            + " not available in the live phase; JVMTI grants "
                            + (missing.size() == 1 ? "it" : "them")
                            + " only at JVM start-up (-agentpath), which a Java agent never sees");
        }
        writeCapabilities("AddCapabilities", n.fn(JvmtiFunction.AddCapabilities), wanted);
    }

    public void addCapabilities(Capability first, Capability... more) {
        addCapabilities(EnumSet.of(first, more));
    }

    /** Gives capabilities back; ones not held are ignored. */
    public void relinquishCapabilities(Set<Capability> unwanted) {
        ensureOpen();
        held = Set.of();
        if (!unwanted.isEmpty()) writeCapabilities("RelinquishCapabilities", n.fn(JvmtiFunction.RelinquishCapabilities), unwanted);
    }

    /**
     * Adds {@code c} unless held already; used by the methods that need one. Asks the VM only until
     * {@code c} is held: SetTag, say, runs in a callback per allocation sample.
     */
    void ensureCapability(Capability c) {
        if (held.contains(c)) return;
        if (!capabilities().contains(c)) addCapabilities(EnumSet.of(c));
        held = Set.copyOf(capabilities());
    }

    private void writeCapabilities(String function, MemorySegment fn, Set<Capability> set) {
        long[] words = Capability.pack(set);
        try (Scratch s = Scratch.open()) {
            MemorySegment caps = s.alloc(Capability.STRUCT_BYTES);
            caps.set(JAVA_LONG, 0, words[0]);
            caps.set(JAVA_LONG, 8, words[1]);
            check(function, jvmtiInterface_1_.AddCapabilities.invoke(fn, n.env, caps));
        }
    }

    private static String names(Set<Capability> set) {
        return String.join(", ", set.stream().map(Capability::fieldName).toList());
    }

    // ---------------------------------------------------------------- classes

    /** Every class loaded now, arrays and primitives included; never loads anything. */
    public Class<?>[] loadedClasses() {
        ensureOpen();
        try (Scratch s = Scratch.open(); Refs refs = Refs.open(n)) {
            MemorySegment count = s.alloc(4);
            MemorySegment out = s.alloc(C_POINTER.byteSize());
            check("GetLoadedClasses", jvmtiInterface_1_.GetLoadedClasses.invoke(n.fn(JvmtiFunction.GetLoadedClasses), n.env, count, out));
            refs.keep();
            return takeClassArray(refs, count, out);
        }
    }

    /**
     * The classes for which {@code loader} is an initiating loader (null: the bootstrap loader).
     * This is how a type reference resolves without loading: look among these.
     */
    public Class<?>[] classLoaderClasses(ClassLoader loader) {
        ensureOpen();
        try (Scratch s = Scratch.open(); Refs refs = Refs.open(n)) {
            MemorySegment count = s.alloc(4);
            MemorySegment out = s.alloc(C_POINTER.byteSize());
            check("GetClassLoaderClasses", jvmtiInterface_1_.GetClassLoaderClasses.invoke(
                    n.fn(JvmtiFunction.GetClassLoaderClasses), n.env, refs.of(loader), count, out));
            refs.keep();
            return takeClassArray(refs, count, out);
        }
    }

    /** Turns a JVMTI-allocated jclass array into Class objects at once, then Deallocates it. */
    private Class<?>[] takeClassArray(Refs refs, MemorySegment count, MemorySegment out) {
        int size = count.get(JAVA_INT, 0);
        MemorySegment array = Native.array(out.get(C_POINTER, 0), size, C_POINTER.byteSize());
        try {
            Class<?>[] classes = new Class<?>[size];
            MemorySegment classesRef = refs.of(classes);
            for (int i = 0; i < size; i++) {
                n.setObjectArrayElement(refs.jniEnv, classesRef, i, array.getAtIndex(C_POINTER, i));
            }
            return classes;
        } finally {
            n.deallocate(array);
        }
    }

    /** The class's type signature and generic signature (null when it has none). */
    public ClassSignature classSignature(Class<?> type) {
        ensureOpen();
        try (Scratch s = Scratch.open()) {
            MemorySegment sig = s.alloc(C_POINTER.byteSize());
            MemorySegment generic = s.alloc(C_POINTER.byteSize());
            check("GetClassSignature", withRef(type, ref -> jvmtiInterface_1_.GetClassSignature.invoke(
                    n.fn(JvmtiFunction.GetClassSignature), n.env, ref, sig, generic)));
            return new ClassSignature(n.takeString(sig, generic), n.takeString(generic));
        }
    }

    /** The class's status bits (prepared, initialized, error, ...); never initializes it. */
    public ClassStatus classStatus(Class<?> type) {
        return new ClassStatus((int) numberOut("GetClassStatus", JAVA_INT, out -> withRef(type, ref ->
                jvmtiInterface_1_.GetClassStatus.invoke(n.fn(JvmtiFunction.GetClassStatus), n.env, ref, out))));
    }

    /** The defining loader of {@code type}; null for the bootstrap loader. */
    public ClassLoader classLoader(Class<?> type) {
        return (ClassLoader) objectOut("GetClassLoader", type, (ref, out) ->
                jvmtiInterface_1_.GetClassLoader.invoke(n.fn(JvmtiFunction.GetClassLoader), n.env, ref, out));
    }

    /**
     * The module of {@code type}. JVMTI has no GetClassModule; {@link Class#getModule()} reads the
     * same field and loads nothing. See {@link #namedModule} for a package without a Class in hand.
     */
    public Module classModule(Class<?> type) {
        ensureOpen();
        return type.getModule();
    }

    /**
     * The named module that defines {@code packageName} (internal form, {@code java/lang}) for
     * {@code loader} (null: bootstrap), or null when the package is in an unnamed module.
     */
    public Module namedModule(ClassLoader loader, String packageName) {
        ensureOpen();
        byte[] pkg = (packageName + '\0').getBytes(StandardCharsets.UTF_8);
        try (Arena arena = Arena.ofConfined(); Scratch s = Scratch.open(); Refs refs = Refs.open(n)) {
            MemorySegment name = arena.allocate(pkg.length).copyFrom(MemorySegment.ofArray(pkg));
            MemorySegment out = s.alloc(C_POINTER.byteSize());
            check("GetNamedModule", jvmtiInterface_1_.GetNamedModule.invoke(
                    n.fn(JvmtiFunction.GetNamedModule), n.env, refs.of(loader), name, out));
            refs.keep();
            return (Module) refs.java(out.get(C_POINTER, 0));
        }
    }

    /** The SourceFile attribute, or null when the class has none (or is an array or primitive). */
    public String sourceFileName(Class<?> type) {
        ensureOpen();
        ensureCapability(Capability.CAN_GET_SOURCE_FILE_NAME);
        try (Scratch s = Scratch.open()) {
            MemorySegment out = s.alloc(C_POINTER.byteSize());
            int rc = withRef(type, ref -> jvmtiInterface_1_.GetSourceFileName.invoke(
                    n.fn(JvmtiFunction.GetSourceFileName), n.env, ref, out));
            if (rc == JvmtiError.ABSENT_INFORMATION.code()) return null;
            check("GetSourceFileName", rc);
            return n.takeString(out);
        }
    }

    /**
     * The method IDs of {@code type}'s declared methods, constructors and static initializer.
     *
     * @throws JvmtiException with {@link JvmtiError#CLASS_NOT_PREPARED} before ClassPrepare
     */
    public long[] classMethods(Class<?> type) {
        ensureOpen();
        try (Scratch s = Scratch.open()) {
            MemorySegment count = s.alloc(4);
            MemorySegment out = s.alloc(C_POINTER.byteSize());
            check("GetClassMethods", withRef(type, ref -> jvmtiInterface_1_.GetClassMethods.invoke(
                    n.fn(JvmtiFunction.GetClassMethods), n.env, ref, count, out)));
            return takeLongArray(out, count.get(JAVA_INT, 0));
        }
    }

    /** The bytecodes of {@code methodId}, as in its class file (indices into {@link #constantPool}). Adds can_get_bytecodes. */
    public byte[] bytecodes(long methodId) {
        ensureOpen();
        ensureCapability(Capability.CAN_GET_BYTECODES);
        try (Scratch s = Scratch.open()) {
            MemorySegment count = s.alloc(4);
            MemorySegment out = s.alloc(C_POINTER.byteSize());
            check("GetBytecodes", jvmtiInterface_1_.GetBytecodes.invoke(n.fn(JvmtiFunction.GetBytecodes), n.env,
                    MemorySegment.ofAddress(methodId), count, out));
            return takeBytes(out, count.get(JAVA_INT, 0));
        }
    }

    /**
     * Calls the no-argument method {@code name} ({@code descriptor}, returning an object) that
     * {@code declaring} declares, on {@code target}, or the static one when {@code target} is null:
     * through JNI, which checks no module's access, so the agent can read what the JDK keeps in a
     * package it exports to nobody without exporting it to every class of the agent's unnamed
     * module (the application's class path among them). Nothing is loaded: the caller has the class.
     *
     * (A {@code target} of another class than {@code declaring}, or a method that returns no
     * object, is the caller's error, which JNI does not check.)
     *
     * @throws JvmtiException when there is no such method, or it throws
     */
    public Object call(Class<?> declaring, Object target, String name, String descriptor) {
        ensureOpen();
        try (Arena arena = Arena.ofConfined(); Refs refs = Refs.open(n)) {
            MemorySegment klass = refs.of(declaring);
            MemorySegment self = refs.of(target);
            MemorySegment result = n.callObjectMethod(refs.jniEnv, klass, self, arena.allocateFrom(name), arena.allocateFrom(descriptor));
            refs.keep();  // before any other downcall: the result is a local reference
            n.checkException(refs.jniEnv, name);
            return refs.java(result);
        }
    }

    /** {@code type}'s constant pool in class-file form: its entry count, and the entries' bytes. */
    public record ConstantPool(int count, byte[] bytes) {}

    /** {@code type}'s constant pool, numbered as {@link #bytecodes} refer to it. Adds can_get_constant_pool. */
    public ConstantPool constantPool(Class<?> type) {
        ensureOpen();
        ensureCapability(Capability.CAN_GET_CONSTANT_POOL);
        try (Scratch s = Scratch.open()) {
            MemorySegment count = s.alloc(4);
            MemorySegment size = s.alloc(4);
            MemorySegment out = s.alloc(C_POINTER.byteSize());
            check("GetConstantPool", withRef(type, ref -> jvmtiInterface_1_.GetConstantPool.invoke(
                    n.fn(JvmtiFunction.GetConstantPool), n.env, ref, count, size, out)));
            return new ConstantPool(count.get(JAVA_INT, 0), takeBytes(out, size.get(JAVA_INT, 0)));
        }
    }

    private byte[] takeBytes(MemorySegment out, int size) {
        MemorySegment array = Native.array(out.get(C_POINTER, 0), size, 1);
        try {
            return array.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        } finally {
            n.deallocate(array);
        }
    }

    private long[] takeLongArray(MemorySegment out, int size) {
        MemorySegment array = Native.array(out.get(C_POINTER, 0), size, JAVA_LONG.byteSize());
        try {
            return array.toArray(JAVA_LONG);
        } finally {
            n.deallocate(array);
        }
    }

    /**
     * Every loaded class with its signatures and, for prepared classes, its methods with names and
     * descriptors: the backfill an agent does when it starts after the application. One pass of
     * GetLoadedClasses, GetClassSignature, GetClassMethods and GetMethodName, everything Deallocated.
     */
    public List<ClassSnapshot> snapshotLoadedClasses() {
        ensureOpen();
        return new Snapshot(n).take();
    }

    // ---------------------------------------------------------------- methods

    /** Name, descriptor and generic signature of a method. */
    public MethodName methodName(long methodId) {
        ensureOpen();
        try (Scratch s = Scratch.open()) {
            MemorySegment name = s.alloc(C_POINTER.byteSize());
            MemorySegment sig = s.alloc(C_POINTER.byteSize());
            MemorySegment generic = s.alloc(C_POINTER.byteSize());
            check("GetMethodName", jvmtiInterface_1_.GetMethodName.invoke(
                    n.fn(JvmtiFunction.GetMethodName), n.env, MemorySegment.ofAddress(methodId), name, sig, generic));
            return new MethodName(n.takeString(name, sig, generic), n.takeString(sig, generic), n.takeString(generic));
        }
    }

    /** The class declaring a method: the safe direction, from a run-time ID to its class. */
    public Class<?> methodDeclaringClass(long methodId) {
        ensureOpen();
        try (Scratch s = Scratch.open(); Refs refs = Refs.open(n)) {
            MemorySegment out = s.alloc(C_POINTER.byteSize());
            check("GetMethodDeclaringClass", jvmtiInterface_1_.GetMethodDeclaringClass.invoke(
                    n.fn(JvmtiFunction.GetMethodDeclaringClass), n.env, MemorySegment.ofAddress(methodId), out));
            refs.keep();
            return (Class<?>) refs.java(out.get(C_POINTER, 0));
        }
    }

    /** The access flags of a method, as {@link java.lang.reflect.Modifier} bits. */
    public int methodModifiers(long methodId) {
        return (int) numberOut("GetMethodModifiers", JAVA_INT, out -> jvmtiInterface_1_.GetMethodModifiers.invoke(
                n.fn(JvmtiFunction.GetMethodModifiers), n.env, MemorySegment.ofAddress(methodId), out));
    }

    /** The line number table; empty for native methods and classes compiled without lines. */
    public List<LineNumber> lineNumberTable(long methodId) {
        ensureOpen();
        ensureCapability(Capability.CAN_GET_LINE_NUMBERS);
        try (Scratch s = Scratch.open()) {
            MemorySegment count = s.alloc(4);
            MemorySegment out = s.alloc(C_POINTER.byteSize());
            int rc = jvmtiInterface_1_.GetLineNumberTable.invoke(
                    n.fn(JvmtiFunction.GetLineNumberTable), n.env, MemorySegment.ofAddress(methodId), count, out);
            if (rc == JvmtiError.ABSENT_INFORMATION.code() || rc == JvmtiError.NATIVE_METHOD.code()) return List.of();
            check("GetLineNumberTable", rc);
            int size = count.get(JAVA_INT, 0);
            MemorySegment table = Native.array(out.get(C_POINTER, 0), size, jvmtiLineNumberEntry.sizeof());
            try {
                List<LineNumber> lines = new ArrayList<>(size);
                for (int i = 0; i < size; i++) {
                    MemorySegment e = jvmtiLineNumberEntry.asSlice(table, i);
                    lines.add(new LineNumber(jvmtiLineNumberEntry.start_location(e), jvmtiLineNumberEntry.line_number(e)));
                }
                return lines;
            } finally {
                n.deallocate(table);
            }
        }
    }

    /** Whether a method ID refers to a version of the method that redefinition replaced. */
    public boolean isMethodObsolete(long methodId) {
        return numberOut("IsMethodObsolete", JAVA_BYTE, out -> jvmtiInterface_1_.IsMethodObsolete.invoke(
                n.fn(JvmtiFunction.IsMethodObsolete), n.env, MemorySegment.ofAddress(methodId), out)) != 0;
    }

    // ---------------------------------------------------------------- tags

    /** The JVMTI tag of {@code o} (0 when untagged). Tags survive GC moves; ObjectFree reports them. */
    public long getTag(Object o) {
        ensureOpen();
        ensureCapability(Capability.CAN_TAG_OBJECTS);
        Objects.requireNonNull(o, "o");
        return numberOut("GetTag", JAVA_LONG, out -> withRef(o, ref ->
                jvmtiInterface_1_.GetTag.invoke(n.fn(JvmtiFunction.GetTag), n.env, ref, out)));
    }

    /** Tags {@code o}; 0 removes the tag. */
    public void setTag(Object o, long tag) {
        ensureOpen();
        ensureCapability(Capability.CAN_TAG_OBJECTS);
        check("SetTag", withRef(Objects.requireNonNull(o, "o"), ref ->
                jvmtiInterface_1_.SetTag.invoke(n.fn(JvmtiFunction.SetTag), n.env, ref, tag)));
    }

    // ---------------------------------------------------------------- threads and stacks

    /** Up to {@code maxFrames} frames of {@code thread} (null: the current thread), from {@code startDepth}. */
    public List<StackFrame> stackTrace(Thread thread, int startDepth, int maxFrames) {
        ensureOpen();
        if (maxFrames < 0) throw new IllegalArgumentException("maxFrames < 0: " + maxFrames);
        try (Arena arena = Arena.ofConfined(); Scratch s = Scratch.open()) {
            MemorySegment frames = arena.allocate(jvmtiFrameInfo.layout(), Math.max(1, maxFrames));
            MemorySegment count = s.alloc(4);
            check("GetStackTrace", withRef(thread, ref -> jvmtiInterface_1_.GetStackTrace.invoke(
                    n.fn(JvmtiFunction.GetStackTrace), n.env, ref, startDepth, maxFrames, frames, count)));
            return frames(frames, count.get(JAVA_INT, 0));
        }
    }

    /**
     * As {@link #stackTrace(Thread, int, int)}, into {@code methods} and {@code locations} (up to
     * their length) instead of new objects: for event handlers that walk a stack per event.
     * Returns the number of frames written: none when the stack is not {@code startDepth} deep.
     */
    public int stackTrace(Thread thread, int startDepth, long[] methods, long[] locations) {
        ensureOpen();
        int max = Math.min(methods.length, locations.length);
        try (Scratch s = Scratch.open()) {
            MemorySegment frames = s.alloc(jvmtiFrameInfo.sizeof() * Math.max(1, max));
            MemorySegment count = s.alloc(4);
            // The current thread needs no reference; called straight, as callbacks walk their stack for every event.
            int rc = thread == null
                    ? jvmtiInterface_1_.GetStackTrace.invoke(n.fn(JvmtiFunction.GetStackTrace), n.env, NULL, startDepth, max, frames, count)
                    : withRef(thread, ref -> jvmtiInterface_1_.GetStackTrace.invoke(
                            n.fn(JvmtiFunction.GetStackTrace), n.env, ref, startDepth, max, frames, count));
            if (rc == JvmtiError.ILLEGAL_ARGUMENT.code() && startDepth > 0) return 0;  // the stack is not that deep
            check("GetStackTrace", rc);
            int found = count.get(JAVA_INT, 0);
            for (int i = 0; i < found; i++) {
                MemorySegment f = jvmtiFrameInfo.asSlice(frames, i);
                methods[i] = jvmtiFrameInfo.method(f).address();
                locations[i] = jvmtiFrameInfo.location(f);
            }
            return found;
        }
    }

    /**
     * The thread that owns {@code monitor} now (GetObjectMonitorUsage), or null when none does.
     * Adds can_get_monitor_info. HotSpot answers at a safepoint: for occasional questions only.
     */
    public Thread monitorOwner(Object monitor) {
        ensureOpen();
        ensureCapability(Capability.CAN_GET_MONITOR_INFO);
        Objects.requireNonNull(monitor, "monitor");
        try (Scratch s = Scratch.open(); Refs refs = Refs.open(n)) {
            MemorySegment usage = s.alloc(jvmtiMonitorUsage.sizeof());
            check("GetObjectMonitorUsage", jvmtiInterface_1_.GetObjectMonitorUsage.invoke(
                    n.fn(JvmtiFunction.GetObjectMonitorUsage), n.env, refs.of(monitor), usage));
            refs.keep();
            MemorySegment owner = jvmtiMonitorUsage.owner(usage);
            Thread t = owner.equals(NULL) ? null : (Thread) refs.java(owner);
            n.deallocate(jvmtiMonitorUsage.waiters(usage));
            n.deallocate(jvmtiMonitorUsage.notify_waiters(usage));
            return t;
        }
    }

    /**
     * Asks the VM for a SampledObjectAlloc event about every {@code bytes} a thread allocates on
     * average (0: every allocation). Adds can_generate_sampled_object_alloc_events.
     */
    public void setHeapSamplingInterval(int bytes) {
        ensureOpen();
        if (bytes < 0) throw new IllegalArgumentException("bytes < 0: " + bytes);
        ensureCapability(Capability.CAN_GENERATE_SAMPLED_OBJECT_ALLOC_EVENTS);
        check("SetHeapSamplingInterval", jvmtiInterface_1_.SetHeapSamplingInterval.invoke(
                n.fn(JvmtiFunction.SetHeapSamplingInterval), n.env, bytes));
    }

    private static List<StackFrame> frames(MemorySegment buffer, int count) {
        StackFrame[] frames = new StackFrame[count];
        for (int i = 0; i < count; i++) {
            MemorySegment f = jvmtiFrameInfo.asSlice(buffer, i);
            frames[i] = new StackFrame(jvmtiFrameInfo.method(f).address(), jvmtiFrameInfo.location(f));
        }
        return Arrays.asList(frames);
    }

    /** The stacks of all live platform threads (and mounted virtual threads), up to {@code maxFrames} each. */
    public List<ThreadStack> allStackTraces(int maxFrames) {
        return allStackTraces(maxFrames, false);
    }

    /**
     * As {@link #allStackTraces(int)}, and with {@code cpuTimes} the CPU time of each runnable
     * thread, read with the thread reference the walk returned: a sampler gets both without a
     * reference of its own per thread (adds can_get_thread_cpu_time).
     */
    public List<ThreadStack> allStackTraces(int maxFrames, boolean cpuTimes) {
        ensureOpen();
        if (cpuTimes) ensureCapability(Capability.CAN_GET_THREAD_CPU_TIME);
        try (Scratch s = Scratch.open(); Refs refs = Refs.open(n)) {
            MemorySegment out = s.alloc(C_POINTER.byteSize());
            MemorySegment count = s.alloc(4);
            check("GetAllStackTraces", jvmtiInterface_1_.GetAllStackTraces.invoke(
                    n.fn(JvmtiFunction.GetAllStackTraces), n.env, maxFrames, out, count));
            refs.keep();
            return takeStackInfos(refs, out, count.get(JAVA_INT, 0), cpuTimes ? s.alloc(8) : null);
        }
    }

    /**
     * {@code thread}'s stack and state, up to {@code maxFrames} frames, from a handshake with that
     * thread alone (none for an unmounted virtual thread, which needs can_support_virtual_threads):
     * HotSpot answers {@link #threadListStackTraces} of more than one thread at a safepoint, which
     * stops every thread. Null, or no frames, when the thread has ended: a wall sampler meets ended
     * virtual threads by the thousand, and an exception each would be thrown in the program's JVM.
     */
    public ThreadStack threadStack(Thread thread, int maxFrames) {
        List<ThreadStack> one = stackTraces(List.of(thread), maxFrames, true);
        return one.isEmpty() ? null : one.getFirst();
    }

    /**
     * The stacks of the given threads, up to {@code maxFrames} each; for more than one thread,
     * HotSpot takes them at a safepoint.
     */
    public List<ThreadStack> threadListStackTraces(List<Thread> threads, int maxFrames) {
        return stackTraces(threads, maxFrames, false);
    }

    /** As {@link #threadListStackTraces}; none when {@code endedIsNone} and JVMTI says a thread has ended. */
    private List<ThreadStack> stackTraces(List<Thread> threads, int maxFrames, boolean endedIsNone) {
        ensureOpen();
        if (threads.isEmpty()) return List.of();
        Thread[] array = threads.toArray(Thread[]::new);
        try (Arena arena = Arena.ofConfined(); Scratch s = Scratch.open(); Refs refs = Refs.open(n)) {
            MemorySegment list = arena.allocate(C_POINTER, array.length);
            MemorySegment out = s.alloc(C_POINTER.byteSize());
            list.copyFrom(MemorySegment.ofArray(refs.elements(array)));
            int error = jvmtiInterface_1_.GetThreadListStackTraces.invoke(
                    n.fn(JvmtiFunction.GetThreadListStackTraces), n.env, array.length, list, maxFrames, out);
            if (endedIsNone && error == JvmtiError.THREAD_NOT_ALIVE.code()) return List.of();
            check("GetThreadListStackTraces", error);
            refs.keep();
            return takeStackInfos(refs, out, array.length, null);
        }
    }

    /**
     * Converts a JVMTI-allocated jvmtiStackInfo array (one allocation) and Deallocates it; with a
     * {@code cpuOut} scratch slot, reads each runnable thread's CPU time too.
     */
    private List<ThreadStack> takeStackInfos(Refs refs, MemorySegment out, int count, MemorySegment cpuOut) {
        MemorySegment infos = Native.array(out.get(C_POINTER, 0), count, jvmtiStackInfo.sizeof());
        try {
            Thread[] threads = new Thread[count];
            MemorySegment threadsRef = refs.of(threads);
            for (int i = 0; i < count; i++) {
                n.setObjectArrayElement(refs.jniEnv, threadsRef, i, jvmtiStackInfo.thread(jvmtiStackInfo.asSlice(infos, i)));
            }
            List<ThreadStack> stacks = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                MemorySegment info = jvmtiStackInfo.asSlice(infos, i);
                int frameCount = jvmtiStackInfo.frame_count(info);
                MemorySegment buffer = jvmtiStackInfo.frame_buffer(info)
                        .reinterpret(frameCount * jvmtiFrameInfo.sizeof());
                int state = jvmtiStackInfo.state(info);
                long cpu = -1;
                if (cpuOut != null && (state & THREAD_STATE_RUNNABLE) != 0 && jvmtiInterface_1_.GetThreadCpuTime.invoke(
                        n.fn(JvmtiFunction.GetThreadCpuTime), n.env, jvmtiStackInfo.thread(info), cpuOut) == 0) {
                    cpu = cpuOut.get(JAVA_LONG, 0);  // an error (the thread ended) leaves -1
                }
                stacks.add(new ThreadStack(threads[i], state, frames(buffer, frameCount), cpu));
            }
            return stacks;
        } finally {
            n.deallocate(infos);
        }
    }

    /** Name, priority, daemon flag, group and context loader of {@code thread} (null: current). */
    public ThreadDetails threadInfo(Thread thread) {
        ensureOpen();
        try (Scratch s = Scratch.open(); Refs refs = Refs.open(n)) {
            MemorySegment info = s.alloc(jvmtiThreadInfo.sizeof());
            check("GetThreadInfo", jvmtiInterface_1_.GetThreadInfo.invoke(n.fn(JvmtiFunction.GetThreadInfo), n.env, refs.of(thread), info));
            refs.keep();
            MemorySegment name = jvmtiThreadInfo.name(info);
            try {
                ThreadGroup group = (ThreadGroup) refs.java(jvmtiThreadInfo.thread_group(info));
                ClassLoader loader = (ClassLoader) refs.java(jvmtiThreadInfo.context_class_loader(info));
                return new ThreadDetails(Native.string(name), jvmtiThreadInfo.priority(info),
                        jvmtiThreadInfo.is_daemon(info) != 0, group, loader);
            } finally {
                n.deallocate(name);
            }
        }
    }

    /**
     * JVMTI's state bits of {@code thread} ({@link #THREAD_STATE_RUNNABLE}, {@link #THREAD_STATE_IN_NATIVE} …),
     * read without stopping it (JVMTI_THREAD_STATE_TERMINATED alone for a thread that has ended).
     */
    public int threadState(Thread thread) {
        return (int) numberOut("GetThreadState", JAVA_INT, out -> withRef(thread, ref ->
                jvmtiInterface_1_.GetThreadState.invoke(n.fn(JvmtiFunction.GetThreadState), n.env, ref, out)));
    }

    /** CPU time of {@code thread} (null: current) in nanoseconds. */
    public long threadCpuTime(Thread thread) {
        ensureOpen();
        ensureCapability(Capability.CAN_GET_THREAD_CPU_TIME);
        return numberOut("GetThreadCpuTime", JAVA_LONG, out -> withRef(thread, ref ->
                jvmtiInterface_1_.GetThreadCpuTime.invoke(n.fn(JvmtiFunction.GetThreadCpuTime), n.env, ref, out)));
    }

    // ---------------------------------------------------------------- instrumentation support

    /** Retransforms classes: ClassFileLoadHook handlers see them again. Adds can_retransform_classes. */
    public void retransformClasses(Class<?>... classes) {
        ensureOpen();
        if (classes.length == 0) return;
        ensureCapability(Capability.CAN_RETRANSFORM_CLASSES);
        try (Arena arena = Arena.ofConfined(); Refs refs = Refs.open(n)) {
            MemorySegment list = arena.allocate(C_POINTER, classes.length);
            list.copyFrom(MemorySegment.ofArray(refs.elements(classes.clone())));
            check("RetransformClasses", jvmtiInterface_1_.RetransformClasses.invoke(
                    n.fn(JvmtiFunction.RetransformClasses), n.env, classes.length, list));
        }
    }

    /** Whether {@link #retransformClasses} may change {@code type} (false for arrays, primitives, hidden classes). */
    public boolean isModifiableClass(Class<?> type) {
        return numberOut("IsModifiableClass", JAVA_BYTE, out -> withRef(type, ref ->
                jvmtiInterface_1_.IsModifiableClass.invoke(n.fn(JvmtiFunction.IsModifiableClass), n.env, ref, out))) != 0;
    }

    /**
     * Defines a class in the boot loader from its class file (JNI DefineClass, NULL loader), as
     * appending a jar to the bootstrap search would make it visible to every loader, but without
     * the warning the JDK prints into the program's output when a jar is appended while class data
     * sharing is on. The class's superclass and interfaces must be loadable by the boot loader
     * already: define them first.
     *
     * @throws JvmtiException when the VM refuses the class (already defined, malformed, or a class
     *         it extends cannot be found)
     */
    public void defineInBootLoader(byte[] classFile) {
        ensureOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bytes = arena.allocate(classFile.length).copyFrom(MemorySegment.ofArray(classFile));
            n.defineInBootLoader(n.jniEnv(), bytes);
        }
    }

    /** Lets {@code module} read {@code other}, as injected code in a named module needs. */
    public void addModuleReads(Module module, Module other) {
        ensureOpen();
        try (Refs refs = Refs.open(n)) {
            MemorySegment m = refs.of(Objects.requireNonNull(module, "module"));
            MemorySegment o = refs.of(Objects.requireNonNull(other, "other"));
            check("AddModuleReads", jvmtiInterface_1_.AddModuleReads.invoke(n.fn(JvmtiFunction.AddModuleReads), n.env, m, o));
        }
    }

    // ---------------------------------------------------------------- extensions

    /** The VM's extension functions (id, description, parameter names). */
    public List<Extension> extensionFunctions() {
        ensureOpen();
        return extensions(false);
    }

    /** The VM's extension events, e.g. {@code com.sun.hotspot.events.ClassUnload}. */
    public List<Extension> extensionEvents() {
        ensureOpen();
        return extensions(true);
    }

    private List<Extension> extensions(boolean events) {
        try (Scratch s = Scratch.open()) {
            MemorySegment count = s.alloc(4);
            MemorySegment out = s.alloc(C_POINTER.byteSize());
            if (events) {
                check("GetExtensionEvents", jvmtiInterface_1_.GetExtensionEvents.invoke(n.fn(JvmtiFunction.GetExtensionEvents), n.env, count, out));
            } else {
                check("GetExtensionFunctions", jvmtiInterface_1_.GetExtensionFunctions.invoke(n.fn(JvmtiFunction.GetExtensionFunctions), n.env, count, out));
            }
            int size = count.get(JAVA_INT, 0);
            long stride = events ? jvmtiExtensionEventInfo.sizeof() : jvmtiExtensionFunctionInfo.sizeof();
            MemorySegment infos = Native.array(out.get(C_POINTER, 0), size, stride);
            List<Extension> result = new ArrayList<>(size);
            try {
                for (int i = 0; i < size; i++) {
                    MemorySegment info = infos.asSlice(i * stride, stride);
                    result.add(events ? takeExtensionEvent(info) : takeExtensionFunction(info));
                }
            } finally {
                n.deallocate(infos);
            }
            return Collections.unmodifiableList(result);
        }
    }

    private Extension takeExtensionEvent(MemorySegment info) {
        MemorySegment id = jvmtiExtensionEventInfo.id(info);
        MemorySegment description = jvmtiExtensionEventInfo.short_description(info);
        List<String> params = takeParams(jvmtiExtensionEventInfo.params(info), jvmtiExtensionEventInfo.param_count(info));
        try {
            return new Extension(Native.string(id), Native.string(description),
                    jvmtiExtensionEventInfo.extension_event_index(info), params);
        } finally {
            n.deallocate(id);
            n.deallocate(description);
        }
    }

    private Extension takeExtensionFunction(MemorySegment info) {
        MemorySegment id = jvmtiExtensionFunctionInfo.id(info);
        MemorySegment description = jvmtiExtensionFunctionInfo.short_description(info);
        List<String> params = takeParams(jvmtiExtensionFunctionInfo.params(info), jvmtiExtensionFunctionInfo.param_count(info));
        try {
            return new Extension(Native.string(id), Native.string(description), -1, params);
        } finally {
            n.deallocate(id);
            n.deallocate(description);
            n.deallocate(jvmtiExtensionFunctionInfo.errors(info));
        }
    }

    private List<String> takeParams(MemorySegment params, int count) {
        MemorySegment array = Native.array(params, count, jvmtiParamInfo.sizeof());
        List<String> names = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                MemorySegment name = jvmtiParamInfo.name(jvmtiParamInfo.asSlice(array, i));
                try {
                    names.add(Native.string(name));
                } finally {
                    n.deallocate(name);
                }
            }
        } finally {
            n.deallocate(array);
        }
        return List.copyOf(names);
    }

    // ---------------------------------------------------------------- helpers

    /**
     * Runs {@code call} with a local reference to {@code o} (NULL for null), freed on return.
     */
    private int withRef(Object o, ToIntFunction<MemorySegment> call) {
        try (Refs refs = Refs.open(n)) {
            return call.applyAsInt(refs.of(o));
        }
    }

    /**
     * A call of shape {@code f(..., T* out)} whose result is one number of {@code layout}, {@code
     * JAVA_BYTE} (a jboolean), {@code JAVA_INT} or {@code JAVA_LONG}, read after the call's error
     * code is checked.
     */
    private long numberOut(String function, ValueLayout layout, ToIntFunction<MemorySegment> call) {
        ensureOpen();
        long bytes = layout.byteSize();  // read by size, not by a pattern switch: its bootstrap would load classes in a callback
        try (Scratch s = Scratch.open()) {
            MemorySegment out = s.alloc(bytes);
            check(function, call.applyAsInt(out));
            return bytes == 1 ? out.get(JAVA_BYTE, 0) : bytes == 4 ? out.get(JAVA_INT, 0) : out.get(JAVA_LONG, 0);
        }
    }

    private interface ObjectOutCall {
        int call(MemorySegment ref, MemorySegment out);
    }

    /** A call of shape {@code f(env, object, jobject* out)}, returning the Java object behind {@code *out}. */
    private Object objectOut(String function, Object in, ObjectOutCall call) {
        ensureOpen();
        Objects.requireNonNull(in, "argument");
        try (Scratch s = Scratch.open(); Refs refs = Refs.open(n)) {
            MemorySegment out = s.alloc(C_POINTER.byteSize());
            check(function, call.call(refs.of(in), out));
            refs.keep();
            return refs.java(out.get(C_POINTER, 0));
        }
    }
}
