package dev.tiprobe.agent.sampling;

import dev.tiprobe.agent.jvm.JvmOptions;
import dev.tiprobe.jvmti.Event;
import dev.tiprobe.jvmti.Events;
import dev.tiprobe.jvmti.Jvmti;

import java.time.Duration;
import java.time.Instant;

/**
 * Gets HotSpot to record, in the code it compiles, where each inlined method's instructions lie,
 * so that JFR's samples name the method a thread was in, not the one holding the nearest
 * safepoint poll (a loop that inlined it).
 *
 * <p>The JIT keeps that debug information at every instruction when {@code -XX:+DebugNonSafepoints}
 * is on, or when some JVMTI environment has CompiledMethodLoad enabled with a callback set; this
 * does the latter, with an empty callback, for the session's length (the events arrive on the
 * Service Thread, a few per compilation). Only code compiled from then on has it.
 *
 * <p>Code compiled before the session keeps safepoint-only information until HotSpot compiles it
 * again: the recording says how long the JVM ran before sampling began ({@link #jvmAgeNanos()}),
 * and the report says what that means. Getting it compiled again is {@link Recompiler}'s, when
 * asked for: retransforming a class can leave a running loop interpreted for good.
 */
final class InlinedFrames implements AutoCloseable {
    private final Events.Registration event;  // null when the JVM runs with DebugNonSafepoints
    private final long jvmAgeNanos;

    private InlinedFrames(Events.Registration event, long jvmAgeNanos) {
        this.event = event;
        this.jvmAgeNanos = jvmAgeNanos;
    }

    /**
     * Enables CompiledMethodLoad, unless the JVM was started with {@code -XX:+DebugNonSafepoints}
     * ({@code tiprobe run} does that): then every compilation has the information already, and an
     * upcall for each of them (hundreds a second while a program starts) would only take CPU.
     * Throws {@link dev.tiprobe.jvmti.JvmtiException} where the VM refuses the event.
     */
    static InlinedFrames start(Jvmti jvmti) {
        boolean flag = JvmOptions.given("-XX:+DebugNonSafepoints");
        Events.Registration r = flag ? null : jvmti.events().on(Event.COMPILED_METHOD_LOAD, (method, address, size) -> {});
        return new InlinedFrames(r, flag ? 0 : jvmAge().toNanos());
    }

    /** How long the JVM had run when the event was enabled: what it compiled meanwhile lacks the information (0: nothing does). */
    long jvmAgeNanos() {
        return jvmAgeNanos;
    }

    private static Duration jvmAge() {
        return ProcessHandle.current().info().startInstant().map(t -> Duration.between(t, Instant.now())).orElse(Duration.ZERO);
    }

    /** Disables the event (other sessions' registrations keep it on). */
    @Override
    public void close() {
        if (event != null) event.close();
    }
}
