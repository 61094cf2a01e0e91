package dev.tiprobe.jvmti;

import dev.tiprobe.bindings.jvmti.jvmtiFrameInfo;
import dev.tiprobe.bindings.jvmti.jvmtiInterface_1_;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static dev.tiprobe.jvmti.Native.C_POINTER;
import static dev.tiprobe.jvmti.Native.NULL;
import static dev.tiprobe.jvmti.Native.check;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * Turns JNI references into Java objects and back, through a Java array that JNI can also reach.
 *
 * <p>FFM cannot pass Java objects. JNI can write a jobject into an array element
 * ({@code SetObjectArrayElement}) and read one out as a new local reference
 * ({@code GetObjectArrayElement}), so with a global reference to {@link #TABLE} both directions cost
 * one downcall. That global reference is found the safe way, without FindClass: a stack walk of
 * the current thread finds the frame of {@link #Handoff(Native)}, GetMethodDeclaringClass gives
 * this very class, and JNI reads its static field.
 *
 * <p>Each conversion claims a slot of the table, so threads never share one. {@link Refs} keeps
 * the references this makes alive.
 */
final class Handoff {
    private static final int SLOTS = 256;
    private static final Object[] TABLE = new Object[SLOTS];
    private static final String CONSTRUCTOR = "<init>";
    private static final int MAX_WALK = 64;

    private final Native n;
    private final MemorySegment tableRef;
    private final AtomicIntegerArray busy = new AtomicIntegerArray(SLOTS);
    private final AtomicInteger nextSlot = new AtomicInteger();

    /**
     * Invocations that customize a method handle's lambda form, after which the interpreter stops
     * running JNI natives to invoke it (java.lang.invoke.MethodHandleImpl's CUSTOMIZE_THRESHOLD is 127).
     */
    private static final int CUSTOMIZE_INVOCATIONS = 256;

    Handoff(Native n) {
        this.n = n;
        this.tableRef = findTable(n);
        warmReferenceWindow();
    }

    /**
     * Between a downcall that makes a local reference and {@link Refs#keep()}, no JNI native may
     * run on the thread. In the interpreter, invoking a downcall handle runs natives while the
     * handle is being customized (its first 127 or so invocations), which would clear the
     * reference. So the handles used inside that window are invoked past customization now.
     */
    private void warmReferenceWindow() {
        MemorySegment jniEnv = n.jniEnv();
        for (int i = 0; i < CUSTOMIZE_INVOCATIONS; i++) {
            n.pushLocalFrame(jniEnv);
            n.getObjectArrayElement(jniEnv, tableRef, 0);
            n.popLocalFrame(jniEnv);
        }
    }

    /**
     * The Java object behind {@code ref}, or null for NULL. The reference must survive the Java
     * code this runs (a callback argument, or one kept by {@link Refs}). {@code jniEnv} is the
     * current thread's.
     */
    Object toJava(MemorySegment jniEnv, MemorySegment ref) {
        if (ref.equals(NULL)) return null;
        int slot = claim();
        try {
            n.setObjectArrayElement(jniEnv, tableRef, slot, ref);
            Object o = TABLE[slot];
            TABLE[slot] = null;
            return o;
        } finally {
            release(slot);
        }
    }

    /**
     * A new local reference to {@code o} through the claimed {@code slot}: plain stores and one
     * downcall, so the caller can protect it with its very next downcall ({@link Refs#keep()}).
     */
    MemorySegment refAt(MemorySegment jniEnv, int slot, Object o) {
        TABLE[slot] = o;
        MemorySegment ref = n.getObjectArrayElement(jniEnv, tableRef, slot);
        TABLE[slot] = null;
        return ref;
    }

    /** Claims a free slot of the table; pair with {@link #release}. */
    int claim() {
        int start = nextSlot.getAndIncrement() & (SLOTS - 1);
        for (int spins = 0; ; spins++) {
            for (int i = 0; i < SLOTS; i++) {
                int slot = (start + i) & (SLOTS - 1);
                if (busy.get(slot) == 0 && busy.compareAndSet(slot, 0, 1)) return slot;
            }
            if (spins > 8) Thread.yield(); else Thread.onSpinWait();
        }
    }

    void release(int slot) {
        busy.set(slot, 0);
    }

    /** Walks this thread's stack to our constructor's frame, then reads TABLE through JNI. */
    private static MemorySegment findTable(Native n) {
        byte[] expected = (Handoff.class.descriptorString() + '\0').getBytes(StandardCharsets.UTF_8);
        try (Scratch s = Scratch.open()) {
            MemorySegment jniEnv = n.jniEnv();
            MemorySegment frames = s.alloc(jvmtiFrameInfo.sizeof() * MAX_WALK);
            MemorySegment count = s.alloc(4);
            MemorySegment out = s.alloc(C_POINTER.byteSize());
            MemorySegment expectedSig = s.alloc(expected.length).copyFrom(MemorySegment.ofArray(expected));
            MemorySegment fieldName = s.alloc(16);
            fieldName.setString(0, "TABLE", StandardCharsets.US_ASCII);
            MemorySegment fieldType = s.alloc(32);
            fieldType.setString(0, "[Ljava/lang/Object;", StandardCharsets.US_ASCII);
            // Link the handles used right after a reference appears (first invocations link lazily).
            for (int i = 0; i < 2; i++) {
                n.pushLocalFrame(jniEnv);
                n.newGlobalRef(jniEnv, NULL);
                n.popLocalFrame(jniEnv);
            }
            check("GetStackTrace", jvmtiInterface_1_.GetStackTrace.invoke(
                    n.fn(JvmtiFunction.GetStackTrace), n.env, NULL, 0, MAX_WALK, frames, count));
            for (int i = 0; i < count.get(JAVA_INT, 0); i++) {
                MemorySegment method = jvmtiFrameInfo.method(frames.asSlice(i * jvmtiFrameInfo.sizeof()));
                check("GetMethodName", jvmtiInterface_1_.GetMethodName.invoke(
                        n.fn(JvmtiFunction.GetMethodName), n.env, method, out, NULL, NULL));
                if (!CONSTRUCTOR.equals(n.takeString(out))) continue;
                check("GetMethodDeclaringClass", jvmtiInterface_1_.GetMethodDeclaringClass.invoke(
                        n.fn(JvmtiFunction.GetMethodDeclaringClass), n.env, method, out));
                n.pushLocalFrame(jniEnv);  // keeps the class reference alive (see Refs)
                try {
                    MemorySegment table = tableIfOurs(n, jniEnv, out.get(C_POINTER, 0), out, expectedSig, fieldName, fieldType);
                    if (table != null) return table;
                } finally {
                    n.popLocalFrame(jniEnv);
                }
            }
            throw new JvmtiUnavailableException("could not find tiprobe's own frame in a stack walk of "
                    + count.get(JAVA_INT, 0) + " frames");
        }
    }

    /** A global reference to TABLE if {@code klass} is this class, else null. */
    private static MemorySegment tableIfOurs(Native n, MemorySegment jniEnv, MemorySegment klass, MemorySegment out,
                                             MemorySegment expectedSig, MemorySegment fieldName, MemorySegment fieldType) {
        check("GetClassSignature", jvmtiInterface_1_.GetClassSignature.invoke(
                n.fn(JvmtiFunction.GetClassSignature), n.env, klass, out, NULL));
        MemorySegment sig = out.get(C_POINTER, 0);
        boolean ours = sig.reinterpret(expectedSig.byteSize()).mismatch(expectedSig) == -1;
        n.deallocate(sig);
        if (!ours) return null;
        // GetStaticObjectField's reference is promoted by the very next downcall.
        MemorySegment local = n.getStaticObjectField(jniEnv, klass, fieldName, fieldType);
        return n.newGlobalRef(jniEnv, local);
    }
}
