package dev.tiprobe.probe;

import java.util.List;
import java.util.Set;

/**
 * A kept call's stack taken with Java's {@link StackWalker}, for a call kept before the agent's
 * walker was installed ({@link ProbeControl#keepCallerStacksWith}): with {@code tiprobe run}, the
 * program's first calls run while the agent still links JVMTI, after premain. The frames hold
 * their classes, so the agent can name them later with the same tokens as its own walks; the
 * probe's frames on top are left off.
 */
public record EarlyStack(List<StackWalker.StackFrame> frames) {
    /** Frames kept at most: more than any depth the agent asks for, so a cut stack is seen as cut. */
    static final int MAX_FRAMES = 1024;

    private static final StackWalker WALKER = StackWalker.getInstance(
            Set.of(StackWalker.Option.RETAIN_CLASS_REFERENCE, StackWalker.Option.SHOW_HIDDEN_FRAMES));

    /** The calling thread's frames below the probe's own (the injected code's call of {@link Probe}, the call's end, this walk). */
    static EarlyStack take() {
        return new EarlyStack(WALKER.walk(s -> s.dropWhile(EarlyStack::probes).limit(MAX_FRAMES).toList()));
    }

    private static boolean probes(StackWalker.StackFrame f) {
        Class<?> c = f.getDeclaringClass();
        return c == Probe.class || c == Call.class || c == EarlyStack.class;
    }
}
