package dev.tiprobe.agent.locks;

import dev.tiprobe.agent.EventEngine;
import dev.tiprobe.agent.registry.CallbackStacks;
import dev.tiprobe.agent.registry.Registry;
import dev.tiprobe.ids.ClassToken;
import dev.tiprobe.ids.Descriptors;
import dev.tiprobe.ids.IdMap;
import dev.tiprobe.ids.LoaderRef;
import dev.tiprobe.ids.MethodToken;
import dev.tiprobe.recording.RecordingFormat;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedClassLoader;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Monitor waits as JFR measures them inside the VM: {@code jdk.JavaMonitorEnter} and
 * {@code jdk.JavaMonitorWait} at the session's threshold, each with the waiter's stack, read back
 * through a {@link RecordingStream} about once a second.
 *
 * <p>Why not JVMTI's monitor events: with MonitorContendedEnter on, every contended entry of every
 * monitor leaves the VM for a callback before it queues, whatever its length, and the contended
 * path slows (LockBench: tiprobe's JVMTI events cost 7 to 13 % of a contended program's throughput,
 * an empty C agent's about 3 %); JFR times the same waits in the VM and records only those past
 * the threshold, at no cost LockBench can measure.
 *
 * <p>JFR names a frame by class, method and descriptor; the registry turns those into the
 * recording's method ids among the classes it has registered (nothing is loaded or looked up in
 * the VM), and a frame whose class is no longer there gets a token made of JFR's names. A wait on
 * one of tiprobe's threads, or with a frame of tiprobe's, is tiprobe's own and left out.
 */
final class JfrWaits implements AutoCloseable {
    private static final String ENTER = "jdk.JavaMonitorEnter";
    private static final String WAIT = "jdk.JavaMonitorWait";
    /** JFR writes a hidden class's name with a dot before its address: {@code Foo$$Lambda.0x00007f…}. */
    private static final Pattern HIDDEN_SUFFIX = Pattern.compile("\\.0x\\p{XDigit}+(?=(\\[])*$)");

    /**
     * A wait JFR recorded: when it ended, the waiter, its stack, and the thread that released the
     * monitor last before the waiter got it ({@code previousOwner}: 0 when JFR names none).
     */
    record Seen(long endEpochNanos, long threadId, String threadName, byte kind, String type, long waitNanos,
                CallbackStacks.Resolved stack, long previousOwnerId, String previousOwnerName) {}

    private final RecordingStream stream;
    private final Registry registry;
    private final int depth;
    private final Consumer<Seen> sink;
    private final AtomicLong failures = new AtomicLong();
    private volatile long lastFlushNanos;
    private volatile Throwable failure;
    private Thread thread;

    private JfrWaits(RecordingStream stream, Registry registry, int depth, Consumer<Seen> sink) {
        this.stream = stream;
        this.registry = registry;
        this.depth = depth;
        this.sink = sink;
    }

    /**
     * Starts JFR's monitor events at {@code threshold}; each wait goes to {@code sink}, on the
     * stream's thread. Throws {@link LinkageError} where the runtime lacks the {@code jdk.jfr}
     * module; a VM that refuses to record is told by {@link #failure()} soon after.
     *
     * <p>The stream runs on a daemon thread of tiprobe's: {@code startAsync} would make a thread
     * that is not a daemon, and the program would never exit.
     */
    static JfrWaits start(Registry registry, Duration threshold, int depth, Consumer<Seen> sink) {
        RecordingStream stream = new RecordingStream();
        try {
            stream.enable(ENTER).withThreshold(threshold).withStackTrace();
            stream.enable(WAIT).withThreshold(threshold).withStackTrace();
            stream.setMaxAge(Duration.ofMinutes(1));  // what is read is not needed again: keep the disk bounded
            JfrWaits waits = new JfrWaits(stream, registry, depth, sink);
            stream.onEvent(ENTER, e -> waits.deliver(e, RecordingFormat.LOCK_CONTENDED));
            stream.onEvent(WAIT, e -> waits.deliver(e, RecordingFormat.LOCK_WAIT));
            stream.onFlush(() -> waits.lastFlushNanos = System.nanoTime());
            waits.thread = Thread.ofPlatform().daemon().name(EventEngine.THREAD_PREFIX + "jfr").start(() -> {
                try {
                    stream.start();
                } catch (Throwable t) {
                    waits.failure = t;
                }
            });
            return waits;
        } catch (RuntimeException | Error e) {
            stream.close();
            throw e;
        }
    }

    /** Why the stream stopped before it was closed, or null while it runs. */
    Throwable failure() {
        return failure;
    }

    /** Whether JFR has handed over everything recorded up to {@code nanoTime} (a flush since). */
    boolean deliveredUpTo(long nanoTime) {
        return lastFlushNanos - nanoTime > 0;
    }

    /** Events that could not be turned into waits (each left out). */
    long failures() {
        return failures.get();
    }

    private void deliver(RecordedEvent e, byte kind) {
        try {
            RecordedThread waiter = e.getThread();
            if (waiter == null || waiter.getJavaName() == null || waiter.getJavaName().startsWith(EventEngine.THREAD_PREFIX)) return;
            CallbackStacks.Resolved stack = stack(e.getStackTrace());
            if (stack == null) return;
            RecordedThread previous = kind == RecordingFormat.LOCK_CONTENDED ? e.getThread("previousOwner") : null;
            sink.accept(new Seen(epochNanos(e.getEndTime()), waiter.getJavaThreadId(), waiter.getJavaName(), kind,
                    typeName(e.getClass("monitorClass")), e.getDuration().toNanos(), stack,
                    previous == null ? 0 : previous.getJavaThreadId(), previous == null ? null : previous.getJavaName()));
        } catch (Throwable t) {
            failures.incrementAndGet();  // JFR's thread goes on with the next event
        }
    }

    /** The recording's ids and lines of a JFR stack, leaf first; null when it shows tiprobe's work. */
    private CallbackStacks.Resolved stack(RecordedStackTrace trace) {
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
            if (Registry.frameOwner(token) != Registry.FrameOwner.APPLICATION) return null;
            ids[i] = known != null ? known.tokenId() : registry.map().internMethodToken(token);
            lines[i] = Math.max(0, f.getLineNumber());
        }
        return new CallbackStacks.Resolved(ids, lines, n, trace != null && trace.isTruncated() || frames.size() > n);
    }

    /**
     * The live method, once the registry has the classes loaded before the session (its backfill
     * runs for a second or so after the start, while the first waits arrive) and those whose
     * ClassPrepare is still queued.
     */
    private IdMap.MethodEntry named(String className, LoaderRef loader, String name, String descriptor) {
        IdMap.MethodEntry known = registry.methodNamed(className, loader, name, descriptor);
        if (known != null) return known;
        registry.awaitBackfill(BACKFILL_WAIT);
        registry.sync();
        return registry.methodNamed(className, loader, name, descriptor);
    }

    /** The longest a wait's naming waits for the registry's backfill. */
    private static final Duration BACKFILL_WAIT = Duration.ofSeconds(10);

    /** A class's binary name as the registry keeps it: a hidden class's address made {@code /hidden} ({@link ClassToken#stableName}). */
    static String binaryName(String jfrName) {
        return HIDDEN_SUFFIX.matcher(jfrName).replaceFirst("/hidden");
    }

    /**
     * A monitor's class as the lock view names it ({@link Registry#typeName}): {@code byte[]},
     * {@code java.lang.Object[][]}, {@code com.foo.Gen/hidden}; JFR names arrays by descriptor
     * ({@code [Ljava.lang.Object;}).
     */
    private static String typeName(RecordedClass type) {
        return type == null ? "[unknown]" : typeName(type.getName());
    }

    static String typeName(String name) {
        String type = name.startsWith("[") ? Descriptors.fieldType(name.replace('.', '/')) : name;
        return binaryName(type);
    }

    /** The loader as a token names it; JFR gives its name and class (none for the bootstrap loader and the JDK's hidden classes). */
    private static LoaderRef loader(RecordedClassLoader l) {
        if (l == null || l.getType() == null) return LoaderRef.BOOTSTRAP;
        String type = l.getType().getName();
        if ("app".equals(l.getName()) && type.startsWith("jdk.internal.loader.")) return LoaderRef.APP;
        if ("platform".equals(l.getName()) && type.startsWith("jdk.internal.loader.")) return LoaderRef.PLATFORM;
        return new LoaderRef(type, l.getName(), 1);
    }

    private static long epochNanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /**
     * Stops JFR's events, hands over what JFR still holds, and ends the stream. At the JVM's exit
     * JFR's own shutdown hook may have stopped the recording first; its last events then come
     * with the next flush, which is waited for (two seconds at most).
     */
    @Override
    public void close() {
        long asked = System.nanoTime();
        try {
            stream.stop();
        } catch (IllegalStateException stoppedAlready) {
            try {
                while (!deliveredUpTo(asked) && thread.isAlive() && System.nanoTime() - asked < 2_000_000_000L) Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } finally {
            stream.close();
        }
    }
}
