package dev.tiprobe.agent;

import dev.tiprobe.agent.jvm.JvmOptions;
import dev.tiprobe.agent.sampling.Sampler;
import dev.tiprobe.agent.sink.EventEngine;
import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.recording.JvmRecording;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * When a session started with the JVM begins to profile. Where the JVM samples for tiprobe from
 * its first moment in a recording of its own ({@code tiprobe run}), nothing is lost by starting
 * the agent's side of sampling later, and on a small machine much is gained: the agent's start
 * (naming the JVM's classes, opening JFR's parser, the JIT compiling both) took more CPU than a
 * core in the program's first half-second, and JFR's sampler, crowded out, took about a tenth
 * fewer samples of it. So such a session takes hold of the JVM's recording at once (its end is
 * then kept whoever stops it) and starts the sampler after {@link #DEFERRAL}, or as the JVM exits,
 * whichever comes first; its samples are then read from the recording's beginning.
 *
 * <p>Only a session that samples and does nothing else live waits: allocations, waits and kept
 * calls' stacks are taken by the agent itself as they happen, and the JVM keeps none for it.
 */
final class ProfilingStart {
    /** How long the agent stays out of the program's way, a second of its start-up. */
    static final Duration DEFERRAL = Duration.ofSeconds(1);
    /** How long JFR may take to start the JVM's recording after premain (about 0.4 s here). */
    private static final Duration JFR_START = Duration.ofSeconds(5);
    /** How long the JVM's exit waits for a start it hurried (naming the classes, opening the parser). */
    private static final Duration AT_EXIT = Duration.ofSeconds(10);
    /** How long the program's first class waits for the engines that take its allocations and waits. */
    private static final Duration AT_MAIN = Duration.ofSeconds(5);
    /**
     * tiprobe's classes, by internal name, which the hold lets load: told by name alone, as asking
     * {@code Registry.tiprobes} could load Registry inside the transformer while it is being defined.
     */
    private static final String TIPROBE_CLASSES = "dev/tiprobe/";

    private final boolean defers;
    /** Whether the program waits for the start: the agent takes its allocations or waits itself, from their first. */
    private final boolean holdsProgram;
    /**
     * Whether the JVM's exit waits for the start (at most {@link #AT_EXIT}): it defers, kept calls'
     * early stacks wait for its namer, or the program was held for it (a start that did not finish
     * while the program was held, at most {@link #AT_MAIN}).
     */
    private final boolean exitWaits;
    private final CountDownLatch now = new CountDownLatch(1);
    private final CountDownLatch begun = new CountDownLatch(1);

    private ProfilingStart(boolean defers, boolean exitWaits, boolean holdsProgram) {
        this.defers = defers;
        this.exitWaits = exitWaits || holdsProgram;
        this.holdsProgram = holdsProgram;
    }

    /** The start of a session begun in premain with {@code options}. */
    static ProfilingStart of(AgentOptions options) {
        boolean samplesOnly = options.sampling() != null && options.allocations() == null && options.locks() == null
                && options.loop() == null && !Profiling.keepsCallerStacks(options);
        boolean defers = samplesOnly && JvmOptions.givenStartingWith(JvmRecording.OPTION);
        boolean takesEvents = options.allocations() != null || options.locks() != null;
        return new ProfilingStart(defers, defers || Profiling.keepsCallerStacks(options), takesEvents);
    }

    /**
     * Where the agent takes allocations or waits itself (the JVM keeps none for it), holds the
     * program's first class, its main class, until the engines are in (at most {@link #AT_MAIN}):
     * a program that allocates for a tenth of a second would otherwise end before them, and a
     * longer one lose its first moments. The start of such a run is that much later (about 0.3 s
     * here). Classes of the bootstrap and platform loaders (the JDK's start-up) and tiprobe's own
     * go on.
     */
    void holdProgram(java.lang.instrument.Instrumentation inst) {
        if (!holdsProgram) return;
        inst.addTransformer(new java.lang.instrument.ClassFileTransformer() {
            private final java.util.concurrent.atomic.AtomicBoolean open = new java.util.concurrent.atomic.AtomicBoolean();

            @Override
            public byte[] transform(ClassLoader loader, String className, Class<?> redefining,
                                    java.security.ProtectionDomain domain, byte[] classFile) {
                if (open.get() || redefining != null || loader == null || loader == ClassLoader.getPlatformClassLoader()
                        || className == null || className.startsWith(TIPROBE_CLASSES) || EventEngine.machinery(Thread.currentThread().getName())) {
                    return null;  // the JDK's start-up, a class changed again, or tiprobe's own classes and threads, which the start needs
                }
                if (!open.compareAndSet(false, true)) return null;
                try {
                    begun.await(AT_MAIN.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (Throwable t) {
                    // the program goes on whatever happens here
                }
                inst.removeTransformer(this);
                return null;
            }
        });
    }

    /**
     * On the thread that starts profiling: returns when it is time. A session that defers takes
     * hold of the JVM's recording first; where there is none (JFR refused it, or no {@code jdk.jfr}),
     * it starts at once, as any other.
     */
    void awaitTurn() {
        if (!defers) return;
        try {
            if (Sampler.claimJvmRecording(JFR_START, () -> now.getCount() == 0)) now.await(DEFERRAL.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (LinkageError noJfr) {
            // no jdk.jfr module: the sampler walks with JVMTI from now
        }
    }

    /** Profiling has started, or will not: an exit waiting in {@link #hurry} goes on. */
    void begun() {
        begun.countDown();
    }

    /**
     * At the JVM's exit, before the session is finished: a deferred start happens now, and the
     * exit waits for it (at most {@link #AT_EXIT}), so a program shorter than the deferral still
     * gets its samples, read from the file JFR writes as it stops the recording. A session that
     * keeps calls with their stacks waits for the start too: calls kept before it hold frames
     * that only the started session can name.
     */
    void hurry() {
        now.countDown();
        if (!exitWaits) return;
        try {
            begun.await(AT_EXIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
