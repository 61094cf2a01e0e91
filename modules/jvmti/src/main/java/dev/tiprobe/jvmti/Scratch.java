package dev.tiprobe.jvmti;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Small native buffers for out-parameters, reused instead of an arena per call.
 *
 * <p>Why: an arena per JVMTI call costs a malloc and a free, and allocating native memory runs a JNI
 * native method, which kills the caller's JNI local references. A platform thread keeps one
 * scratch in a thread local; a virtual thread borrows one from a pool, since it may move between
 * carriers and there may be millions of them. Frames nest: a callback that runs inside a facade
 * call on the same thread (ClassFileLoadHook inside RetransformClasses) allocates above the
 * caller's frame.
 *
 * <pre>{@code
 * try (Scratch s = Scratch.open()) { MemorySegment out = s.alloc(8); ... }
 * }</pre>
 */
final class Scratch implements AutoCloseable {
    static final long CAPACITY = 16 * 1024;
    private static final int MAX_DEPTH = 32;

    private static final ThreadLocal<Scratch> PER_PLATFORM_THREAD = new ThreadLocal<>() {
        @Override
        protected Scratch initialValue() {
            return new Scratch(false);
        }
    };
    private static final ConcurrentLinkedQueue<Scratch> POOL = new ConcurrentLinkedQueue<>();

    /** Owns the memory: freed by the GC once this scratch is unreachable. */
    private final MemorySegment owner = Arena.ofAuto().allocate(CAPACITY, 16);
    /**
     * The same memory in the global scope. A downcall acquires and releases the scope of every
     * segment argument (two atomic operations each for an automatic arena); the global scope
     * needs none. Safe because {@link #owner} lives as long as this object.
     */
    private final MemorySegment memory = MemorySegment.ofAddress(owner.address()).reinterpret(CAPACITY);
    private final boolean pooled;
    private final long[] marks = new long[MAX_DEPTH];
    private int depth;
    private long top;

    private Scratch(boolean pooled) {
        this.pooled = pooled;
        LIVE.add(new PhantomReference<>(this, GONE));
    }

    /**
     * One phantom reference per scratch whose memory is not freed yet: a scratch goes with its
     * thread (or, pooled, never), and its automatic arena frees the memory once the GC finds it
     * unreachable, which is when its reference is enqueued. Counted without a thread of its own.
     */
    private static final Set<PhantomReference<Scratch>> LIVE = ConcurrentHashMap.newKeySet();
    private static final ReferenceQueue<Scratch> GONE = new ReferenceQueue<>();

    /** The native memory the scratches hold now, in bytes. */
    static long nativeBytes() {
        for (java.lang.ref.Reference<? extends Scratch> r; (r = GONE.poll()) != null; ) LIVE.remove(r);
        return LIVE.size() * CAPACITY;
    }

    /**
     * Opens a frame on the current thread's scratch; close it to free what it allocated. Call
     * before creating JNI local references, never between creating and using one.
     */
    static Scratch open() {
        Scratch s;
        if (!Thread.currentThread().isVirtual()) {
            s = PER_PLATFORM_THREAD.get();
        } else {
            s = POOL.poll();
            if (s == null) s = new Scratch(true);
        }
        if (s.depth == MAX_DEPTH) throw new IllegalStateException("tiprobe scratch frames nested too deep");
        s.marks[s.depth++] = s.top;
        return s;
    }

    /** Zeroed memory of {@code bytes}, 8-byte aligned, valid until this frame closes. */
    MemorySegment alloc(long bytes) {
        long start = (top + 7) & ~7L;
        if (bytes < 0 || start + bytes > CAPACITY) {
            throw new IllegalStateException("tiprobe scratch exhausted: " + bytes + " bytes asked, "
                    + (CAPACITY - start) + " left");
        }
        top = start + bytes;
        return memory.asSlice(start, bytes).fill((byte) 0);
    }

    /** Frees what this frame allocated; a pooled scratch goes back to the pool when no frame is open. */
    @Override
    public void close() {
        top = marks[--depth];
        if (pooled && depth == 0) POOL.offer(this);
    }
}
