package dev.tiprobe.jvmti;

import java.lang.foreign.MemorySegment;

/**
 * A scope for JNI local references made by downcalls on the current thread.
 *
 * <p>Why this exists: a local reference that a downcall creates lands in the thread's active JNI
 * handle block, and every JNI native method that returns on the thread clears that block. In the
 * interpreter even a {@code MemorySegment.get} is such a native method (Unsafe), so a reference
 * would die before Java code could read it. The cure is one downcall: {@code PushLocalFrame}
 * right after the call that made the references. The references stay in the block before it,
 * which the GC still scans; natives from then on clear only the new frame. {@link #close()} pops
 * every frame this scope pushed.
 *
 * <p>Rule: after a JVMTI or JNI call that returns references, the next thing is {@link #keep()};
 * {@link #of(Object)} and {@link #elements(Object[])} already do it.
 */
final class Refs implements AutoCloseable {
    private final Native n;
    final MemorySegment jniEnv;
    private int frames;

    private Refs(Native n, MemorySegment jniEnv) {
        this.n = n;
        this.jniEnv = jniEnv;
    }

    /** A scope on the current thread; call before any reference exists. */
    static Refs open(Native n) {
        return new Refs(n, n.jniEnv());
    }

    /** A scope inside a callback, on the JNIEnv the VM passed. */
    static Refs inCallback(Native n, MemorySegment jniEnv) {
        return new Refs(n, jniEnv);
    }

    /** Protects the references the previous downcall returned. Call it before any other Java code. */
    void keep() {
        n.pushLocalFrame(jniEnv);
        frames++;
    }

    /** A local reference to {@code o} (NULL for null), valid until this scope closes. */
    MemorySegment of(Object o) {
        if (o == null) return Native.NULL;
        Handoff h = n.handoff;
        int slot = h.claim();
        try {
            MemorySegment ref = h.refAt(jniEnv, slot, o);
            keep();
            return ref;
        } finally {
            h.release(slot);
        }
    }

    /** Local references to every element of {@code array}, as addresses, valid until this scope closes. */
    long[] elements(Object[] array) {
        MemorySegment arrayRef = of(array);
        long[] addresses = new long[array.length];
        for (int i = 0; i < array.length; i++) {
            addresses[i] = n.getObjectArrayElement(jniEnv, arrayRef, i).address();
        }
        keep();
        return addresses;
    }

    /** The Java object behind a protected reference (or a callback argument); null for NULL. */
    Object java(MemorySegment ref) {
        return n.handoff.toJava(jniEnv, ref);
    }

    @Override
    public void close() {
        for (; frames > 0; frames--) n.popLocalFrame(jniEnv);
    }
}
