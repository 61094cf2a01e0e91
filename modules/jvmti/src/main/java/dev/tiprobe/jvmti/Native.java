package dev.tiprobe.jvmti;

import dev.tiprobe.bindings.jvmti.JNIInvokeInterface_;
import dev.tiprobe.bindings.jvmti.JNINativeInterface_;
import dev.tiprobe.bindings.jvmti.jvmtiInterface_1_;
import dev.tiprobe.bindings.jvmti.jvmti_h;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The native side of the facade: libjvm, the JavaVM, one jvmtiEnv, its function table, and the JNI
 * functions an agent needs. One instance per process ({@link #get()}), created on first use and
 * never freed, because the jvmtiEnv, the JNI function table and the upcall stubs live as long as
 * the VM.
 *
 * <h2>JNI local references</h2>
 * A local reference that JVMTI or JNI hands to Java through a downcall lives in the thread's
 * current handle block, and any JNI native method returning on that thread (System.arraycopy in
 * the interpreter, Thread.currentThread(), native memory allocation) clears that block. So between
 * creating a local reference and its last use, code here runs only downcalls and plain Java: no
 * string decoding, no allocation of native memory, no Thread.currentThread(). Scratch memory and
 * the JNIEnv are taken first; references are turned into Java objects or global references at once.
 */
final class Native {
    static final Linker LINKER = Linker.nativeLinker();
    /**
     * A pointer without a target layout. jextract's {@code C_POINTER} has one, which makes every
     * read of a pointer compute the pointee size through an Optional: measurably slow in a backfill.
     */
    static final AddressLayout C_POINTER = ValueLayout.ADDRESS;
    static final MemorySegment NULL = MemorySegment.NULL;

    /** jextract skips the variadic SetEventNotificationMode; it sits right after reserved1. */
    static final long SET_EVENT_NOTIFICATION_MODE_OFFSET = jvmtiInterface_1_.reserved1$offset() + jvmti_h.C_POINTER.byteSize();
    private static final MethodHandle SET_EVENT_NOTIFICATION_MODE = LINKER.downcallHandle(
            FunctionDescriptor.of(jvmti_h.C_INT, jvmti_h.C_POINTER, jvmti_h.C_INT, jvmti_h.C_INT, jvmti_h.C_POINTER),
            Linker.Option.firstVariadicArg(4));

    private static volatile Native instance;

    final MemorySegment vm;
    final MemorySegment env;
    final int version;
    private final MemorySegment invoke;
    private final MemorySegment jni;
    final MemorySegment fns;

    /** The pointers of the JVMTI functions the facade calls, by {@link JvmtiFunction} ordinal, read once. */
    private final MemorySegment[] jvmtiFunctions;
    final MemorySegment fnSetEventNotificationMode;

    /** The pointers of the JNI functions the facade calls, by {@link JniFunction} ordinal. */
    private final MemorySegment[] jniFunctions;
    private final MemorySegment fnGetEnv;

    final Handoff handoff;

    private Native(MemorySegment vm, MemorySegment env) {
        this.vm = vm;
        this.env = env;
        this.invoke = vm.reinterpret(C_POINTER.byteSize()).get(C_POINTER, 0)
                .reinterpret(JNIInvokeInterface_.sizeof());
        this.fns = env.reinterpret(C_POINTER.byteSize()).get(C_POINTER, 0)
                .reinterpret(jvmtiInterface_1_.sizeof());
        fnGetEnv = JNIInvokeInterface_.GetEnv(invoke);
        MemorySegment jniEnv = jniEnvOrNull();
        if (jniEnv.equals(NULL)) throw new JvmtiUnavailableException("the current thread has no JNIEnv");
        this.jni = jniEnv.reinterpret(C_POINTER.byteSize()).get(C_POINTER, 0)
                .reinterpret(JNINativeInterface_.sizeof());

        jvmtiFunctions = new MemorySegment[JvmtiFunction.values().length];
        for (JvmtiFunction f : JvmtiFunction.values()) jvmtiFunctions[f.ordinal()] = f.in(fns);
        fnSetEventNotificationMode = fns.get(C_POINTER, SET_EVENT_NOTIFICATION_MODE_OFFSET);

        jniFunctions = new MemorySegment[JniFunction.values().length];
        for (JniFunction f : JniFunction.values()) jniFunctions[f.ordinal()] = f.in(jni);

        prelink();  // a no-op when premain did it already
        try (Scratch s = Scratch.open()) {
            MemorySegment out = s.alloc(4);
            check("GetVersionNumber", jvmtiInterface_1_.GetVersionNumber.invoke(fn(JvmtiFunction.GetVersionNumber), env, out));
            this.version = out.get(JAVA_INT, 0);
        }
        this.handoff = new Handoff(this);
    }

    /**
     * The process's native environment, acquired on first call.
     *
     * @throws JvmtiUnavailableException when libjvm cannot be found, no VM is created yet (inside
     *         premain), or GetEnv refuses the JVMTI version
     */
    static Native get() {
        Native n = instance;
        if (n != null) return n;
        synchronized (Native.class) {
            if (instance == null) instance = acquire();
            return instance;
        }
    }

    /**
     * Creates, ahead of their first call, the downcall handles of every JVMTI and JNI function this
     * facade calls: jextract's class for each function makes its handle when initialized, and
     * asking for its descriptor initializes it. That spins hidden classes, which must never happen
     * on a callback path, so the facade does it when it is created; in a cold JVM it takes about
     * 135 ms, which the first JVMTI calls would otherwise spend (acquiring the environment took
     * 200-330 ms instead of 60-80), and it needs no VM, so premain can do it before the program
     * starts. A function the facade calls is listed in {@link JvmtiFunction} or {@link JniFunction}.
     */
    static void prelink() {
        JNIInvokeInterface_.GetEnv.descriptor();
        JniFunction.prelinkAll();
        JvmtiFunction.prelinkAll();
    }

    /** The pointer of a JVMTI function, read from the jvmtiEnv's table when the facade was created. */
    MemorySegment fn(JvmtiFunction f) {
        return jvmtiFunctions[f.ordinal()];
    }

    /** The pointer of a JNI function, read from the JNIEnv's table when the facade was created. */
    private MemorySegment jni(JniFunction f) {
        return jniFunctions[f.ordinal()];
    }

    /** True when a VM exists to acquire from; false inside premain, before the VM is created. */
    static boolean vmCreated() {
        return createdVm() != null;
    }

    private static Native acquire() {
        MemorySegment vm = createdVm();
        if (vm == null) {
            throw new JvmtiUnavailableException("no Java VM is created yet (this happens inside premain):"
                    + " use Jvmti.whenReady() to acquire JVMTI once the VM is up");
        }
        MemorySegment env;
        try (Scratch s = Scratch.open()) {
            MemorySegment out = s.alloc(C_POINTER.byteSize());
            MemorySegment invoke = vm.reinterpret(C_POINTER.byteSize()).get(C_POINTER, 0)
                    .reinterpret(JNIInvokeInterface_.sizeof());
            int rc = JNIInvokeInterface_.GetEnv.invoke(JNIInvokeInterface_.GetEnv(invoke), vm, out,
                    jvmti_h.JVMTI_VERSION());
            if (rc != 0) {
                throw new JvmtiUnavailableException("GetEnv refused JVMTI version 0x"
                        + Integer.toHexString(jvmti_h.JVMTI_VERSION()) + " (JNI error " + rc + ")");
            }
            env = out.get(C_POINTER, 0);
        }
        return new Native(vm, env);
    }

    /** The first created JavaVM*, or null when none exists yet. */
    private static MemorySegment createdVm() {
        MethodHandle getCreatedVms = Libjvm.GET_CREATED_JAVA_VMS;
        try (Scratch s = Scratch.open()) {
            MemorySegment buf = s.alloc(C_POINTER.byteSize());
            MemorySegment count = s.alloc(4);
            int rc = (int) getCreatedVms.invokeExact(buf, 1, count);
            if (rc != 0) throw new JvmtiUnavailableException("JNI_GetCreatedJavaVMs failed with JNI error " + rc);
            return count.get(JAVA_INT, 0) == 0 ? null : buf.get(C_POINTER, 0);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new JvmtiUnavailableException("JNI_GetCreatedJavaVMs could not be called", t);
        }
    }

    // ---------------------------------------------------------------- errors and memory

    /** Throws a {@link JvmtiException} naming {@code function} unless {@code rc} is JVMTI_ERROR_NONE. */
    static void check(String function, int rc) {
        if (rc != 0) throw new JvmtiException(function, rc);
    }

    /** Frees memory that JVMTI allocated; NULL is ignored. */
    void deallocate(MemorySegment p) {
        if (!p.equals(NULL)) jvmtiInterface_1_.Deallocate.invoke(fn(JvmtiFunction.Deallocate), env, p);
    }

    /** JVMTI-allocated memory of {@code bytes} (the VM frees it, e.g. ClassFileLoadHook's new class data). */
    MemorySegment allocate(long bytes, Scratch s) {
        if (bytes == 0) return NULL;
        MemorySegment out = s.alloc(C_POINTER.byteSize());
        check("Allocate", jvmtiInterface_1_.Allocate.invoke(fn(JvmtiFunction.Allocate), env, bytes, out));
        return out.get(C_POINTER, 0).reinterpret(bytes);
    }

    /**
     * Reads the pointer in {@code out}, decodes it as modified UTF-8 and Deallocates it. Should
     * decoding fail, the strings still waiting in {@code others} are Deallocated too.
     */
    String takeString(MemorySegment out, MemorySegment... others) {
        MemorySegment p = out.get(C_POINTER, 0);
        boolean ok = false;
        try {
            String value = string(p);
            ok = true;
            return value;
        } finally {
            deallocate(p);
            if (!ok) for (MemorySegment o : others) deallocate(o.get(C_POINTER, 0));
        }
    }

    /** Decodes a NUL-terminated modified UTF-8 string (what JVMTI returns); NULL gives null. */
    static String string(MemorySegment p) {
        return Names.decode(p.address());
    }

    static String string(long p) {
        return Names.decode(p);
    }

    /** {@code count} pointers read from the JVMTI-allocated array at {@code p}. */
    static MemorySegment array(MemorySegment p, long count, long elementBytes) {
        return p.reinterpret(count * elementBytes);
    }

    // ---------------------------------------------------------------- JNI

    /** The current thread's JNIEnv, or NULL for a thread the VM does not know. */
    MemorySegment jniEnvOrNull() {
        try (Scratch s = Scratch.open()) {
            MemorySegment out = s.alloc(C_POINTER.byteSize());
            int rc = JNIInvokeInterface_.GetEnv.invoke(fnGetEnv, vm, out, jvmti_h.JNI_VERSION_1_8());
            return rc == 0 ? out.get(C_POINTER, 0) : NULL;
        }
    }

    /** The current thread's JNIEnv. */
    MemorySegment jniEnv() {
        MemorySegment e = jniEnvOrNull();
        if (e.equals(NULL)) throw new IllegalStateException("the current thread is not attached to the VM");
        return e;
    }

    MemorySegment newGlobalRef(MemorySegment jniEnv, MemorySegment ref) {
        return JNINativeInterface_.NewGlobalRef.invoke(jni(JniFunction.NewGlobalRef), jniEnv, ref);
    }

    /** Opens a JNI local frame: every local reference made until {@link #popLocalFrame} is freed by it. */
    void pushLocalFrame(MemorySegment jniEnv) {
        int rc = JNINativeInterface_.PushLocalFrame.invoke(jni(JniFunction.PushLocalFrame), jniEnv, 16);
        if (rc != 0) {
            clearPendingException(jniEnv, "PushLocalFrame");
            throw new JvmtiException("PushLocalFrame", rc);
        }
    }

    void popLocalFrame(MemorySegment jniEnv) {
        JNINativeInterface_.PopLocalFrame.invoke(jni(JniFunction.PopLocalFrame), jniEnv, NULL);
    }

    MemorySegment getObjectArrayElement(MemorySegment jniEnv, MemorySegment array, int index) {
        return JNINativeInterface_.GetObjectArrayElement.invoke(jni(JniFunction.GetObjectArrayElement), jniEnv, array, index);
    }

    void setObjectArrayElement(MemorySegment jniEnv, MemorySegment array, int index, MemorySegment value) {
        // No exception check: callers pass an in-range index and an element the array accepts.
        JNINativeInterface_.SetObjectArrayElement.invoke(jni(JniFunction.SetObjectArrayElement), jniEnv, array, index, value);
    }

    /**
     * JNI DefineClass with a NULL loader: the class joins the boot loader (its unnamed module for a
     * package no named module has), where every loader that delegates to the boot loader finds it.
     * The returned local reference is not kept: callers reach the class by name. What DefineClass
     * raises (a duplicate, a bad class file) stays pending after the downcall, and the next JNI
     * native that returns on the thread (one the interpreter runs, say) throws it: so the check
     * for it sits inside the same try. Failure is judged by the NULL DefineClass returns too
     * ({@link #requireResult}).
     */
    void defineInBootLoader(MemorySegment jniEnv, MemorySegment classFile) {
        try {
            MemorySegment defined = JNINativeInterface_.DefineClass.invoke(jni(JniFunction.DefineClass), jniEnv, NULL, NULL,
                    classFile, (int) classFile.byteSize());
            requireResult(jniEnv, defined, "DefineClass");
        } catch (LinkageError | SecurityException e) {
            throw new JvmtiException("DefineClass", -1, "DefineClass: " + e);
        }
    }

    /** The value of a static field of {@code klass} as a local reference; names are C strings. */
    MemorySegment getStaticObjectField(MemorySegment jniEnv, MemorySegment klass, MemorySegment name,
                                       MemorySegment descriptor) {
        MemorySegment field = JNINativeInterface_.GetStaticFieldID.invoke(jni(JniFunction.GetStaticFieldID), jniEnv, klass, name, descriptor);
        requireResult(jniEnv, field, "GetStaticFieldID");
        return JNINativeInterface_.GetStaticObjectField.invoke(jni(JniFunction.GetStaticObjectField), jniEnv, klass, field);
    }

    /**
     * Calls the no-argument method {@code name}/{@code descriptor} (C strings) of {@code klass} on
     * {@code target}, or the static one when {@code target} is NULL; the result is a local
     * reference, and an exception the method threw stays pending: the caller protects the
     * reference first (a local frame may be pushed with one pending), then calls
     * {@link #checkException}.
     */
    MemorySegment callObjectMethod(MemorySegment jniEnv, MemorySegment klass, MemorySegment target, MemorySegment name,
                                   MemorySegment descriptor) {
        boolean statik = target.equals(NULL);
        MemorySegment method = statik
                ? JNINativeInterface_.GetStaticMethodID.invoke(jni(JniFunction.GetStaticMethodID), jniEnv, klass, name, descriptor)
                : JNINativeInterface_.GetMethodID.invoke(jni(JniFunction.GetMethodID), jniEnv, klass, name, descriptor);
        requireResult(jniEnv, method, statik ? "GetStaticMethodID" : "GetMethodID");
        MemorySegment result = statik
                ? JNINativeInterface_.CallStaticObjectMethodA.invoke(jni(JniFunction.CallStaticObjectMethodA), jniEnv, klass, method, NULL)
                : JNINativeInterface_.CallObjectMethodA.invoke(jni(JniFunction.CallObjectMethodA), jniEnv, target, method, NULL);
        return result;
    }

    /** Throws, clearing it, when a Java exception is pending after {@code function}. */
    void checkException(MemorySegment jniEnv, String function) {
        clearPendingException(jniEnv, function);
    }

    /**
     * Throws when {@code function} returned NULL, its sign of failure, clearing whatever exception
     * it left pending. The NULL is what decides, not the pending exception alone: once the JIT had
     * compiled the caller, ExceptionCheck found none after 5 to 8 % of the duplicates DefineClass
     * refused; and a NULL field or method ID passed on would crash the VM.
     */
    private void requireResult(MemorySegment jniEnv, MemorySegment result, String function) {
        clearPendingException(jniEnv, function);
        if (result.equals(NULL)) throw new JvmtiException(function, -1, function + " returned NULL");
    }

    private void clearPendingException(MemorySegment jniEnv, String function) {
        if (JNINativeInterface_.ExceptionCheck.invoke(jni(JniFunction.ExceptionCheck), jniEnv) != 0) {
            JNINativeInterface_.ExceptionClear.invoke(jni(JniFunction.ExceptionClear), jniEnv);
            throw new JvmtiException(function, -1, function + " raised a Java exception");
        }
    }

    // ---------------------------------------------------------------- events

    /** SetEventNotificationMode for all threads; linked by hand because it is variadic. */
    void setEventNotificationMode(boolean enable, int eventType) {
        int mode = enable ? jvmti_h.JVMTI_ENABLE() : jvmti_h.JVMTI_DISABLE();
        int rc;
        try {
            rc = (int) SET_EVENT_NOTIFICATION_MODE.invokeExact(fnSetEventNotificationMode, env, mode, eventType, NULL);
        } catch (Throwable t) {
            throw new IllegalStateException("SetEventNotificationMode could not be called", t);
        }
        check("SetEventNotificationMode", rc);
    }

    // ---------------------------------------------------------------- libjvm

    /** Finds libjvm, which no default lookup covers, and links JNI_GetCreatedJavaVMs from it. */
    static final class Libjvm {
        static final MethodHandle GET_CREATED_JAVA_VMS = link();

        private static MethodHandle link() {
            SymbolLookup lookup = lookup();
            MemorySegment symbol = lookup.find("JNI_GetCreatedJavaVMs").orElseThrow(
                    () -> new JvmtiUnavailableException("libjvm has no JNI_GetCreatedJavaVMs"));
            return LINKER.downcallHandle(symbol,
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, C_POINTER, ValueLayout.JAVA_INT, C_POINTER));
        }

        private static SymbolLookup lookup() {
            List<String> tried = new ArrayList<>();
            for (Path candidate : candidates()) {
                tried.add(candidate.toString());
                if (Files.isRegularFile(candidate)) {
                    try {
                        return SymbolLookup.libraryLookup(candidate, Arena.global());
                    } catch (IllegalArgumentException e) {
                        tried.add("(" + e.getMessage() + ")");
                    }
                }
            }
            String byName = System.mapLibraryName("jvm");
            try {
                return SymbolLookup.libraryLookup(byName, Arena.global());
            } catch (IllegalArgumentException e) {
                throw new JvmtiUnavailableException("cannot find libjvm: tried " + String.join(", ", tried)
                        + " and " + byName + " by name");
            }
        }

        private static List<Path> candidates() {
            Path home = Path.of(System.getProperty("java.home"));
            String file = System.mapLibraryName("jvm");
            List<Path> paths = new ArrayList<>();
            for (String dir : new String[] {"lib", "bin"}) {
                for (String vm : new String[] {"server", "client", "zero", "minimal"}) {
                    paths.add(home.resolve(dir).resolve(vm).resolve(file));
                }
            }
            return paths;
        }
    }
}
