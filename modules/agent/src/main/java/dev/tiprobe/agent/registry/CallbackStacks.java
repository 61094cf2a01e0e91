package dev.tiprobe.agent.registry;

import dev.tiprobe.ids.IdMap;
import dev.tiprobe.jvmti.Jvmti;
import dev.tiprobe.recording.Stack;

import java.util.List;

/**
 * Stacks taken inside an event callback (SampledObjectAlloc, MonitorContendedEntered), turned into
 * the recording's method ids at once: while its frames are on a stack, no class of them can
 * unload, so each is named for sure (a frame resolved later, on another thread, could belong to a
 * class gone meanwhile). A method met before costs a map lookup.
 *
 * <p>Inside a callback the thread's stack starts with tiprobe's own frames: the handler, the
 * callback in {@code dev.tiprobe.jvmti.Event} and the method handles and lambda forms
 * of the FFM upcall (about 16 frames in JDK 25), above the application's frames. {@link #inCallback}
 * drops the block of them on top: frames of tiprobe's classes and the {@code java.lang.invoke}
 * and {@code jdk.internal.foreign} frames of the upcall and of the walk's own downcall. A stack is taken with
 * {@link #MACHINERY} frames to spare so the application still gets its full depth.
 *
 * <p>Walking those frames is most of what a walk costs (JVMTI makes a method ID and a location of
 * each; about 24 of them above an allocating method's five in a benchmark), so each {@link Site}
 * learns how many there are on its path and later walks start right above the application's
 * frames, checked: the frame above must be the same method of tiprobe's as when counted and the
 * first one kept must not be tiprobe's, or the walk is taken whole.
 */
public final class CallbackStacks {
    /** Frames taken beyond the depth asked for, for the callback's own. */
    static final int MACHINERY = 32;

    private final Jvmti jvmti;
    private final Registry registry;
    private final int depth;
    /** The capture buffers of each platform thread, reused event after event ({@link #buffers()}). */
    private final ThreadLocal<long[][]> buffers;

    /**
     * This thread's capture buffers: a platform thread's kept, a virtual thread's made for the walk
     * (a program may run a million virtual threads, each holding its buffers as long as it lives).
     */
    private long[][] buffers() {
        return Thread.currentThread().isVirtual() ? newBuffers() : buffers.get();
    }

    /** A walk's method and location arrays, room for tiprobe's frames above the application's. */
    private long[][] newBuffers() {
        int size = depth + MACHINERY;
        return new long[][] {new long[size], new long[size]};
    }

    public CallbackStacks(Jvmti jvmti, Registry registry, int depth) {
        this.jvmti = jvmti;
        this.registry = registry;
        this.depth = depth;
        this.buffers = ThreadLocal.withInitial(this::newBuffers);
    }

    /**
     * One place that takes stacks inside a callback (a handler of one event): the count of
     * tiprobe's own frames above the application's there, learned from a whole walk. The count is
     * the same event after event, as the frames are the same methods (compiled or not, inlined or
     * not: JVMTI reports Java frames as the source has them).
     */
    public static final class Site {
        /** tiprobe's frames on top at this site, and the last of them; null until a whole walk has counted them. */
        private record Own(int frames, long lastMethod) {}

        private volatile Own own;

        private Site() {}

        /**
         * Keeps the smallest count seen: an application's own {@code java.lang.invoke} frames on
         * top of a stack are dropped with tiprobe's and would make it larger.
         */
        private void learn(int frames, long lastMethod) {
            Own o = own;
            if (o == null || frames < o.frames()) own = new Own(frames, lastMethod);
        }
    }

    /** A new site, for one handler. */
    public Site site() {
        return new Site();
    }

    /**
     * The application's frames of the current thread, inside a callback at {@code site}: tiprobe's own on top
     * dropped. Null when the event was raised by FFM code below tiprobe's callback, other than a
     * call's stub (always on the stack of a callback; it allocated before tiprobe's code ran when
     * its arguments were segments, and still may while its method handles are customized): such
     * an allocation is tiprobe's, never the application's. (So is, by
     * this rule, one the application makes itself inside {@code jdk.internal.foreign}.) Null too
     * on a thread loading the agent ({@link Registry#nameFrame}), when a frame of tiprobe's lies
     * below the application's (an event raised inside another of tiprobe's callbacks, such as
     * SetTag's ObjectFree), and when no frame is left (the JVM's service thread running one of
     * tiprobe's callbacks, say).
     */
    public Stack inCallback(Site site) {
        long[][] b = buffers();
        long[] methods = b[0];
        long[] locations = b[1];
        // Both walks start here, so that tiprobe's frames above the application's are as many in each.
        Site.Own own = site.own;
        if (own != null) {
            // From the last of tiprobe's frames: it and the first of the application's tell whether the count still holds.
            int n = jvmti.stackTrace(null, own.frames() - 1, methods, locations);
            if (n >= 2 && methods[0] == own.lastMethod() && !tiprobesOwn(registry.resolve(methods[1]))) {
                return resolve(methods, locations, n, 1, true);
            }
        }
        int n = jvmti.stackTrace(null, 0, methods, locations);
        int first = 0;
        boolean ffm = false;  // whether FFM code other than a call's stub ran below tiprobe's classes' frames on top
        boolean belowCallback = false;  // past the upcall's stub: what follows raised the event
        IdMap.MethodEntry m = n > 0 ? registry.resolve(methods[0]) : null;
        while (first < n && tiprobesOwn(m)) {
            String owner = m.token().owner().binaryName();
            if (Registry.tiprobes(owner)) {
                if (belowCallback) return null;  // tiprobe's code on the application's thread (a probe) raised it
                ffm = false;
            } else if (owner.startsWith(UPCALL_STUB)) {
                belowCallback = true;
            } else if (owner.startsWith(FOREIGN) && !owner.startsWith(DOWNCALL_STUB)) {
                ffm = true;
            }
            first++;
            m = first < n ? registry.resolve(methods[first]) : null;
        }
        if (ffm || first >= n) return null;  // nothing of the application's: tiprobe's own work
        Stack resolved = resolve(methods, locations, n, first, true);
        if (resolved != null && first > 0) site.learn(first, methods[first - 1]);
        return resolved;
    }

    /**
     * {@code thread}'s frames now (it must be alive: a thread that owns a monitor, say), from
     * the application's: when the thread is inside one of tiprobe's callbacks (an allocation
     * sampled while it held the monitor), that callback's frames on top are left off, as
     * {@link #inCallback} leaves them off.
     */
    public Stack of(Thread thread) {
        long[][] b = buffers();
        int n = jvmti.stackTrace(thread, 0, b[0], b[1]);
        int first = 0;
        boolean tiprobes = false;
        while (first < n) {
            IdMap.MethodEntry m = registry.resolve(b[0][first]);
            if (!tiprobesOwn(m)) break;
            tiprobes |= Registry.tiprobes(m.token().owner().binaryName());
            first++;
        }
        return resolve(b[0], b[1], n, tiprobes ? first : 0, false);
    }

    /**
     * Frames Java's {@link StackWalker} took (a call kept before the agent's walker was installed,
     * {@code dev.tiprobe.probe.EarlyStack}) as the recording's ids and lines, up to the depth; null
     * when a frame's method cannot be named (its class not prepared). {@code lines}: each frame's
     * line as read at the walk (below 1: unknown).
     */
    public Stack named(List<StackWalker.StackFrame> walked, int[] lines) {
        int kept = Math.min(depth, walked.size());
        int[] frames = new int[kept];
        int[] keptLines = new int[kept];
        for (int i = 0; i < kept; i++) {
            StackWalker.StackFrame f = walked.get(i);
            IdMap.MethodEntry m = registry.methodOf(f.getDeclaringClass(), f.getMethodName(), f.getDescriptor());
            if (m == null) return null;
            frames[i] = m.tokenId();
            keptLines[i] = Math.max(0, lines[i]);
        }
        return new Stack(frames, keptLines, kept, walked.size() > kept);
    }

    /**
     * Frames {@code first} to {@code n} of a walk as the recording's ids and lines, up to the depth;
     * null, inside a callback, when a frame is not the application's ({@link Registry.FrameOwner}).
     */
    private Stack resolve(long[] methods, long[] locations, int n, int first, boolean inCallback) {
        int kept = Math.min(depth, n - first);
        int[] frames = new int[kept];
        int[] lines = new int[kept];
        for (int i = 0; i < kept; i++) {
            Registry.FrameOwner owner = registry.nameFrame(methods[first + i], locations[first + i], frames, lines, i);
            if (inCallback && owner != Registry.FrameOwner.APPLICATION) return null;
        }
        return new Stack(frames, lines, kept, n == methods.length || n - first > kept);
    }

    private static final String FOREIGN = "jdk.internal.foreign.";
    /** The frames every upcall and downcall has; other FFM frames under tiprobe's callback mean FFM itself allocated. */
    private static final String UPCALL_STUB = "jdk.internal.foreign.abi.UpcallStub";
    private static final String DOWNCALL_STUB = "jdk.internal.foreign.abi.DowncallStub";

    /**
     * A frame of tiprobe's work in a callback: its classes (the handler, the callback, jextract's
     * bindings), and the method handles and lambda forms of the upcall's entry and of the stack
     * walk's own downcall.
     */
    private static boolean tiprobesOwn(IdMap.MethodEntry m) {
        if (m == null) return false;
        String owner = m.token().owner().binaryName();
        return Registry.tiprobes(owner) || owner.startsWith("java.lang.invoke.") || owner.startsWith(FOREIGN);
    }
}
