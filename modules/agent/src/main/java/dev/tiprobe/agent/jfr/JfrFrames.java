package dev.tiprobe.agent.jfr;

import dev.tiprobe.agent.registry.Registry;
import dev.tiprobe.agent.sink.EventEngine;
import dev.tiprobe.ids.ClassToken;
import dev.tiprobe.ids.IdMap;
import dev.tiprobe.ids.JfrNames;
import dev.tiprobe.ids.LoaderRef;
import dev.tiprobe.ids.MethodToken;
import dev.tiprobe.recording.Stack;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedClassLoader;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

import java.time.Duration;
import java.time.Instant;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Names the frames of JFR's stack traces with the registry's method ids, for every engine that
 * reads JFR's events (stack samples, monitor waits): JFR names a frame by class, method and
 * descriptor, and the registry turns those into the recording's ids among the classes it has
 * registered (nothing is loaded or looked up in the VM). A frame whose class is no longer there
 * gets a token made of JFR's names. So samples, waits, traced calls and allocations share one
 * name space.
 */
public final class JfrFrames {
    /** The longest a frame's naming waits for the registry's backfill. */
    private static final Duration BACKFILL_WAIT = Duration.ofSeconds(10);

    private final Registry registry;
    private final int depth;

    /** Frames of {@code registry}'s classes, {@code depth} at most a stack. */
    public JfrFrames(Registry registry, int depth) {
        this.registry = registry;
        this.depth = depth;
    }

    /** Whether an event of {@code thread} is profiling machinery's rather than the application's ({@link EventEngine#machinery}). */
    public static boolean machinery(RecordedThread thread) {
        String name = thread == null ? null : thread.getJavaName();
        if (thread == null || name == null && !thread.isVirtual()) return true;  // a VM thread: no Java code to profile
        return name != null && EventEngine.machinery(name);
    }

    /**
     * The recording's ids and lines of a JFR stack, leaf first; null when it shows tiprobe's own
     * work (a frame of tiprobe's: a callback, a tracing probe, the agent loading), which every
     * view leaves out and the samples count as tiprobe's share.
     */
    public Stack stack(RecordedStackTrace trace) {
        if (trace == null) return name(null);
        int generation = registry.map().generation();
        long now = System.nanoTime();
        if (generation != namedInGeneration || now - namedSince > NAMED_KEPT_NANOS || named.size() >= NAMED_MAX) {
            named.clear();
            namedInGeneration = generation;
            namedSince = now;
        }
        Stack known = named.get(trace);
        if (known != null) return known == MACHINERY ? null : known;
        Stack stack = name(trace);
        if (stack == null) named.put(trace, MACHINERY);
        else if (resolvedLive) named.put(trace, stack);
        return stack;
    }

    /*
     * Stacks named already, by JFR's trace: the parser makes one object per stack of a chunk and
     * hands it to every event with that stack (a busy loop's 289 samples in 3 s had 3), so a
     * stack is named once, not at every sample, and the naming code no longer gets hot enough
     * for the JIT to compile it at length while the program runs. Kept only while no class has
     * unloaded since (a new generation: the ids could be retired), only for stacks of live
     * classes' methods (a token made from JFR's names waits for retirement from its last naming,
     * which a kept id would skip), at most a second (the objects belong to a chunk the parser
     * lets go) and NAMED_MAX of them. One stream's thread uses them.
     */
    private final Map<RecordedStackTrace, Stack> named = new IdentityHashMap<>();
    private int namedInGeneration;
    private long namedSince = System.nanoTime();
    /** Whether the last {@link #name} resolved every frame to a live class's method. */
    private boolean resolvedLive;
    private static final long NAMED_KEPT_NANOS = 1_000_000_000L;
    private static final int NAMED_MAX = 4096;
    /** Kept for a stack of tiprobe's machinery, which {@link #stack} answers null for. */
    private static final Stack MACHINERY = new Stack(new int[0], new int[0], 0, false);

    private Stack name(RecordedStackTrace trace) {
        resolvedLive = true;
        List<RecordedFrame> frames = trace == null ? List.of() : trace.getFrames();
        int n = Math.min(frames.size(), depth);
        int[] ids = new int[n];
        int[] lines = new int[n];
        for (int i = 0; i < n; i++) {
            RecordedFrame f = frames.get(i);
            RecordedMethod m = f.getMethod();
            String className = binaryName(m.getType().getName());
            LoaderRef loader = loader(m.getType().getClassLoader());
            IdMap.MethodEntry known = named(className, loader, m.getName(), m.getDescriptor());
            MethodToken token = known != null ? known.token()
                    : new MethodToken(new ClassToken(className, loader, null, null, null), m.getName(), m.getDescriptor(), null,
                            m.getModifiers(), new int[0]);
            Registry.FrameOwner owner = Registry.frameOwner(token);
            if (owner != Registry.FrameOwner.APPLICATION) return null;
            if (known == null) resolvedLive = false;
            ids[i] = known != null ? known.tokenId() : registry.map().internTransient(token);
            lines[i] = Math.max(0, f.getLineNumber());
        }
        return new Stack(ids, lines, n, trace != null && trace.isTruncated() || frames.size() > n);
    }

    /**
     * The live method, once the registry has the classes loaded before the session (its backfill
     * runs for a second or so after the start, while the first events arrive) and those whose
     * ClassPrepare is still queued.
     */
    private IdMap.MethodEntry named(String className, LoaderRef loader, String name, String descriptor) {
        IdMap.MethodEntry known = registry.methodNamed(className, loader, name, descriptor);
        if (known != null) return known;
        registry.awaitBackfill(BACKFILL_WAIT);
        registry.sync();
        return registry.methodNamed(className, loader, name, descriptor);
    }

    /** A class's binary name as the registry keeps it ({@link JfrNames#binaryName}). */
    public static String binaryName(String jfrName) {
        return JfrNames.binaryName(jfrName);
    }

    /** A class as the views name a type ({@link Registry#typeName}, {@link JfrNames#typeName}). */
    public static String typeName(RecordedClass type) {
        return type == null ? "[unknown]" : JfrNames.typeName(type.getName());
    }

    /** The loader as a token names it; JFR gives its name and class (none for the bootstrap loader and the JDK's hidden classes). */
    private static LoaderRef loader(RecordedClassLoader l) {
        if (l == null || l.getType() == null) return LoaderRef.BOOTSTRAP;
        String type = l.getType().getName();
        if ("app".equals(l.getName()) && type.startsWith("jdk.internal.loader.")) return LoaderRef.APP;
        if ("platform".equals(l.getName()) && type.startsWith("jdk.internal.loader.")) return LoaderRef.PLATFORM;
        return new LoaderRef(type, l.getName(), 1);
    }

    /** An instant as the recording's epoch nanoseconds. */
    public static long epochNanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}
