package dev.tiprobe.agent.sampling;

import dev.tiprobe.agent.jfr.JfrFrames;
import dev.tiprobe.agent.jfr.JfrStream;
import dev.tiprobe.agent.registry.Registry;
import dev.tiprobe.agent.sink.EventEngine;
import dev.tiprobe.jvmti.ProfilingSignal;
import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.recording.JvmRecording;
import dev.tiprobe.recording.Stack;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.IntPredicate;
import java.util.function.Predicate;

/**
 * Stack samples from the JVM's own samplers, read back through a {@link JfrStream} about once a
 * second: on Linux JFR's {@code jdk.CPUTimeSample} (each thread by its own CPU clock, in Java or
 * native code, sampled by a signal the thread takes itself), otherwise its {@code
 * jdk.ExecutionSample} (a thread running Java code, taken by JFR's sampler thread). In wall mode a
 * CPU-time sample of a thread in native code is left out (its top frame native, or the wall
 * sampler last saw it not running Java code, as in an FFM downcall): the wall sampler takes such
 * threads itself, by the wall clock.
 *
 * <p>Why not JVMTI's stack walks: they stop a thread at its next safepoint poll, which in compiled
 * code is a loop's back edge or a method's return, so the work of methods inlined into a loop is
 * credited to the loop (a kernel doing 57 % of the work showed 0 %). JFR's sampler (JEP 518 on
 * JDK 25) records where the thread was when the sample was asked for; in code compiled while some
 * JVMTI environment has CompiledMethodLoad enabled, HotSpot keeps the debug information to name
 * inlined methods there ({@link InlinedFrames}). JFR also walks a mounted virtual thread's own frames,
 * where a JVMTI walk of its carrier ends in {@code VirtualThread.mount}.
 *
 * <p>Why the CPU-time sampler where it exists: a thread in Java code walks its own stack (at its
 * next safepoint poll, from where the signal found it), as async-profiler's {@code itimer} works
 * in the sampled thread, where the execution sampler's thread took 0.6 to 0.8 % of a two-core
 * machine beside two busy threads (BENCHMARKS.md; JFR's CPU sampler thread walks only threads
 * found in native code); it sees CPU spent in native code; and it takes every thread, where the
 * execution sampler takes at most five a period.
 *
 * <p>A CPU-time sample weighs the CPU period it says it stands for. An execution sample stands for
 * one period of its thread's time; with more than five threads running Java code at once the CPU a
 * profile totals comes out low (the shares between them stay true). The execution sampler's period
 * is the JVM's: the shortest any recording asks for applies to all, and a repository stream reads
 * every recording's samples, so another recording sampling faster adds its samples too.
 */
final class JfrSamples implements AutoCloseable {
    /** Where a sample goes, on the stream's thread: the time it stands for is {@code weightNanos}. */
    interface Sink {
        /** {@code compiled}: whether JFR found the stack's frame at an index running compiled code (JIT compiled or inlined). */
        void sample(long epochNanos, long threadId, String threadName, long weightNanos, Stack stack, IntPredicate compiled)
                throws java.io.IOException;

        /** A sample of an application thread running tiprobe's code (a callback, a probe): tiprobe's share, in no view. */
        void ownWork(long epochNanos, long weightNanos);

        /**
         * CPU of an application thread that JFR's CPU-time sampler kept no stack of: the thread
         * was in the JVM's own code (taking a contended lock, parking or waking a thread, loading a
         * class, walking a stack), its queue was busy or full, or its stack could not be walked. In
         * no view.
         */
        void lost(long epochNanos, long cpuNanos);
    }

    private final JfrFrames frames;
    private final Predicate<String> threads;
    private final Sink sink;
    private final long intervalNanos;
    /** The CPU-time sampler's period, as its last sample said; the interval asked until one did. Stream thread only. */
    private long periodNanos;
    /** Wall mode: CPU-time samples of a thread in native code are the wall sampler's. */
    private final boolean wall;
    /** Wall mode: the threads the wall sampler last saw not running Java code. */
    private final java.util.function.LongPredicate wallSamplers;
    /** The library whose handler holds SIGPROF, which JFR's CPU-time sampler needs: another profiler's; or null. Set by {@link #start}. */
    private String sigprofHolder;
    /** The event read: {@link JvmRecording#CPU_TIME_SAMPLE} or {@link JvmRecording#EXECUTION_SAMPLE}. Set by {@link #start}. */
    private String event;
    private JfrStream stream;

    private JfrSamples(JfrFrames frames, Predicate<String> threads, Sink sink, long intervalNanos, boolean wall,
                       java.util.function.LongPredicate wallSamplers) {
        this.frames = frames;
        this.threads = threads;
        this.sink = sink;
        this.intervalNanos = intervalNanos;
        this.periodNanos = intervalNanos;
        this.wall = wall;
        this.wallSamplers = wallSamplers;
    }

    /**
     * Has JFR's sampler ({@link JvmRecording#sampleEvent}) sample at the interval on the
     * session's stream, {@code shared} (which its owner begins), or reads the recording the JVM
     * started with for tiprobe ({@code tiprobe run}) on a stream of its own. {@code threads} chooses
     * threads by name (null: all); in wall mode {@code wallSamplers} says which threads the wall
     * sampler takes itself. Throws as {@link JfrStream#unbegun} does.
     */
    static JfrSamples start(Registry registry, AgentOptions.Sampling options, Predicate<String> threads,
                            JfrStream shared, java.util.function.LongPredicate wallSamplers, Sink sink) {
        long interval = options.interval().toNanos();
        JfrSamples samples = new JfrSamples(new JfrFrames(registry, options.depth()), threads, sink, interval,
                options.mode() == AgentOptions.SampleMode.WALL, wallSamplers);
        Optional<JfrStream> jvmRecording = JfrStream.readJvmRecording(JvmRecording.NAME,
                EventEngine.THREAD_PREFIX + "jfr-samples", JVM_RECORDING_EVENTS, samples::deliver,
                java.util.Map.of(JvmRecording.CPU_TIME_SAMPLES_LOST, samples::lost));
        if (jvmRecording.isPresent()) {
            samples.stream = jvmRecording.get();
            samples.event = samples.stream.jvmEvent();
            // JFR started this recording after a profiler that run could not see took SIGPROF: the report says why samples are missing.
            if (samples.cpuTime()) samples.sigprofHolder = ProfilingSignal.foreignHandler().orElse(null);
            return samples;
        }
        String event = JvmRecording.sampleEvent();
        if (event.equals(JvmRecording.CPU_TIME_SAMPLE)) {
            samples.sigprofHolder = ProfilingSignal.foreignHandler().orElse(null);
            if (samples.sigprofHolder != null) event = JvmRecording.EXECUTION_SAMPLE;
        }
        String chosen = samples.event = event;
        samples.stream = shared.with(s -> {
            s.enable(chosen).with(JvmRecording.periodSetting(chosen), interval + "ns").withStackTrace();
            s.onEvent(chosen, samples::deliver);
            if (samples.cpuTime()) {
                s.enable(JvmRecording.CPU_TIME_SAMPLES_LOST);
                s.onEvent(JvmRecording.CPU_TIME_SAMPLES_LOST, samples::lost);
            }
        });
        return samples;
    }

    /** What a recording the JVM started for tiprobe may sample with ({@link JvmRecording#sampleEvent(java.util.List)}). */
    private static final java.util.List<String> JVM_RECORDING_EVENTS =
            java.util.List.of(JvmRecording.CPU_TIME_SAMPLE, JvmRecording.EXECUTION_SAMPLE);

    /** Whether the samples are JFR's CPU-time samples. */
    boolean cpuTime() {
        return JvmRecording.CPU_TIME_SAMPLE.equals(event);
    }

    /**
     * The library handling SIGPROF when another profiler held it at the start: the session then
     * reads execution samples, as the CPU-time sampler would record none, unless it reads the JVM's
     * own recording, which has none; null otherwise.
     */
    String sigprofHolder() {
        return sigprofHolder;
    }

    /**
     * Takes hold of the JVM's recording for tiprobe ({@code tiprobe run}) before the sampler
     * starts, waiting up to {@code limit} for JFR to start it: whether there is one. See
     * {@link JfrStream#claimJvmRecording}.
     */
    static boolean claimJvmRecording(Duration limit, java.util.function.BooleanSupplier giveUp) throws InterruptedException {
        return JfrStream.claimJvmRecording(JvmRecording.NAME, JVM_RECORDING_EVENTS, limit, giveUp);
    }

    /** Why the stream stopped before it was closed, or null while it runs. */
    Throwable failure() {
        return stream.failure();
    }

    /**
     * Whether JFR's samples come by now: until they do, the sampler's own walks stand in for them
     * (a session's first second held one sample of a busy thread when the walks stopped as soon
     * as the recording was asked for, its samples only handed over a second or two later).
     */
    boolean sampling() {
        return stream.delivering();
    }

    /**
     * Waits, up to five seconds, until JFR has handed over a sample taken now or later, or two
     * flushes have come (no thread runs Java code). One flush after now is not enough: a running
     * thread's samples came a flush later (measured: the first 1-s period of a session held none
     * of its busy thread's samples, which went into the second, in 5 runs of 8 here; CI runs
     * failed on it).
     */
    void awaitDelivery() {
        long asked = JfrFrames.epochNanos(java.time.Instant.now());
        long flushes = stream.flushes();
        long deadline = System.nanoTime() + DELIVERY_WAIT.toNanos();
        try {
            while (newestSample < asked && stream.flushes() < flushes + 2 && stream.reading() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static final Duration DELIVERY_WAIT = Duration.ofSeconds(5);
    /** When the newest sample handed over was taken (epoch ns), any thread's. */
    private volatile long newestSample = Long.MIN_VALUE;

    /** When the stream's thread began naming the sample it has not written yet; {@link EventEngine#IDLE} between samples. */
    private volatile long busySince = EventEngine.IDLE;

    /** As {@link EventEngine#tokensHeldSince}, for the sample being named and written. */
    long busySince() {
        return busySince;
    }

    /**
     * JFR's CPU-time sampler lost samples of a thread: as many sampling periods of its CPU, the
     * period of the last sample it kept (another recording may have JFR sample more often).
     * Counted where {@link #deliver} would have counted the samples.
     */
    private void lost(RecordedEvent e) {
        try {
            if (!cpuTime()) return;  // another recording's CPU-time sampler: not the samples read here
            RecordedThread t = e.getThread("eventThread");
            if (t == null || JfrFrames.machinery(t)) return;
            if (threads != null && !threads.test(threadName(t))) return;
            if (wall && wallSamplers.test(t.getJavaThreadId())) return;
            sink.lost(JfrFrames.epochNanos(e.getStartTime()), e.getInt("lostSamples") * periodNanos);
        } catch (Throwable ignored) {
            // uncounted, as the samples themselves: JFR's thread goes on with the next event
        }
    }

    private void deliver(RecordedEvent e) {
        busySince = System.nanoTime();
        try {
            long taken = JfrFrames.epochNanos(e.getStartTime());
            if (taken > newestSample) newestSample = taken;  // the stream's thread alone writes it
            boolean cpuTime = e.getEventType().getName().equals(JvmRecording.CPU_TIME_SAMPLE);  // not the field: set after the JVM's stream starts
            RecordedThread t = e.getThread(cpuTime ? "eventThread" : "sampledThread");
            if (JfrFrames.machinery(t)) return;
            String name = threadName(t);
            if (threads != null && !threads.test(name)) return;
            if (wall && cpuTime && (inNative(e.getStackTrace()) || wallSamplers.test(t.getJavaThreadId()))) return;
            long weight = cpuTime ? e.getDuration("samplingPeriod").toNanos() : intervalNanos;
            if (weight <= 0) weight = intervalNanos;
            if (cpuTime) periodNanos = weight;
            if (cpuTime && e.getBoolean("failed")) {  // JFR could not walk the stack: no frames to credit
                sink.lost(taken, weight);
                return;
            }
            Stack stack = frames.stack(e.getStackTrace());
            if (stack == null) {
                sink.ownWork(taken, weight);
                return;
            }
            if (stack.depth() == 0) return;
            List<RecordedFrame> trace = e.getStackTrace().getFrames();
            IntPredicate compiled = i -> i < trace.size() && !"Interpreted".equals(trace.get(i).getType());
            if (t.isVirtual()) {
                sink.sample(taken, VIRTUAL_THREADS_ID, VIRTUAL_THREADS, weight, stack, compiled);
            } else {
                sink.sample(taken, t.getJavaThreadId(), name, weight, stack, compiled);
            }
        } catch (Throwable ignored) {
            // left out, as a sample JFR could not take: JFR's thread goes on with the next event
        } finally {
            busySince = EventEngine.IDLE;
        }
    }

    /** Whether a sample's top frame is a native method's. */
    private static boolean inNative(RecordedStackTrace trace) {
        return trace != null && !trace.getFrames().isEmpty() && "Native".equals(trace.getFrames().getFirst().getType());
    }

    /**
     * The one thread all virtual threads' samples are written under: a program may start millions,
     * and the recording keeps a name for every thread it has written (their own names still choose
     * them for {@code --sample-threads}).
     */
    static final long VIRTUAL_THREADS_ID = 0;
    static final String VIRTUAL_THREADS = "[virtual threads]";

    /** A thread's name; a virtual thread has none unless the program gave it one: {@code virtual#42}. */
    private static String threadName(RecordedThread t) {
        return threadName(t.getJavaName(), t.isVirtual(), t.getJavaThreadId());
    }

    /** As above, for a live thread. */
    static String threadName(Thread t) {
        return threadName(t.getName(), t.isVirtual(), t.threadId());
    }

    private static String threadName(String name, boolean virtual, long id) {
        return name == null || name.isEmpty() ? (virtual ? "virtual#" : "thread#") + id : name;
    }

    /**
     * Stops JFR's sampler and hands over what JFR still holds: on the session's stream, the other
     * engines' JFR events stop with it; the JVM's own recording, read on a stream of its own, stops alone.
     */
    @Override
    public void close() {
        stream.close();
    }
}
