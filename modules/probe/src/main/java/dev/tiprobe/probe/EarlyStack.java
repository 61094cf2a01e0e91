package dev.tiprobe.probe;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A kept call's stack taken with Java's {@link StackWalker}, for a call kept before the agent's
 * walker was installed ({@link ProbeControl#keepCallerStacksWith}): with {@code tiprobe run}, the
 * program's first calls run while the agent still links JVMTI, after premain. The frames hold
 * their classes, so the agent can name them later with the same tokens as its own walks; the
 * probe's frames on top are left off. Their lines are read at once: a frame works its line out
 * when asked, from the method as it is then, and the agent's tracing may have retransformed the
 * class by the time it names the frames (they came out as line 0).
 */
public record EarlyStack(List<StackWalker.StackFrame> frames, int[] lines) {
    /** Frames kept at most: one past the deepest stack the agent keeps (256), so a cut stack is seen as cut. */
    static final int MAX_FRAMES = 257;

    private static final StackWalker WALKER = StackWalker.getInstance(
            Set.of(StackWalker.Option.RETAIN_CLASS_REFERENCE, StackWalker.Option.SHOW_HIDDEN_FRAMES));

    /** The calling thread's frames below the probe's own (the injected code's call of {@link Probe}, the call's end, this walk). */
    static EarlyStack take() {
        List<StackWalker.StackFrame> frames = WALKER.walk(BELOW_THE_PROBE);
        int[] lines = new int[frames.size()];
        for (int i = 0; i < lines.length; i++) lines[i] = frames.get(i).getLineNumber();
        return new EarlyStack(frames, lines);
    }

    /** A class, not a lambda: nothing is linked on the application's thread at a first use. */
    private static final class BelowTheProbe implements Function<Stream<StackWalker.StackFrame>, List<StackWalker.StackFrame>> {
        @Override
        public List<StackWalker.StackFrame> apply(Stream<StackWalker.StackFrame> frames) {
            List<StackWalker.StackFrame> kept = new ArrayList<>();
            Iterator<StackWalker.StackFrame> it = frames.iterator();
            while (it.hasNext() && kept.size() < MAX_FRAMES) {
                StackWalker.StackFrame f = it.next();
                if (kept.isEmpty() && probes(f)) continue;
                kept.add(f);
            }
            return kept;
        }
    }

    private static final BelowTheProbe BELOW_THE_PROBE = new BelowTheProbe();

    private static boolean probes(StackWalker.StackFrame f) {
        Class<?> c = f.getDeclaringClass();
        return c == Probe.class || c == Call.class || c == EarlyStack.class || c == BelowTheProbe.class;
    }
}
