package dev.tiprobe.report;

import dev.tiprobe.ids.HumanNames;
import dev.tiprobe.ids.HumanNames.FrameStyle;

import java.io.IOException;
import java.io.Writer;
import java.util.Map;
import java.util.TreeMap;

/**
 * Folded stacks ({@code .collapsed}), the input of Brendan Gregg's flamegraph.pl and of
 * speedscope: one line per distinct stack, root first, frames joined by {@code ;}, then a space
 * and the total weight in the view's unit: samples (wall), CPU nanoseconds (cpu), bytes (alloc,
 * live), nanoseconds waited (lock, wait). Frames are named in a {@link FrameStyle}, by default as
 * async-profiler names them, so that its folded stacks of the same program line up with these.
 */
public final class FoldedStacks {
    private FoldedStacks() {}

    /** The recording's natural view ({@link View#natural}) folded. */
    public static Map<String, Long> fold(Recording r, boolean threadRoots) {
        return fold(View.natural(r).of(r), threadRoots);
    }

    /** Stack to weight, sorted, with optional thread name as the root frame, frames named as async-profiler names them. */
    public static Map<String, Long> fold(Profile p, boolean threadRoots) {
        return fold(p, threadRoots, FrameStyle.SLASH);
    }

    /** Stack to weight, sorted, with optional thread as the root frame ({@link #threadFrame}), frames named in {@code style}. */
    public static Map<String, Long> fold(Profile p, boolean threadRoots, FrameStyle style) {
        Recording r = p.recording();
        Map<String, Long> folded = new TreeMap<>();
        StringBuilder b = new StringBuilder();
        for (Profile.Stack s : p.stacks()) {
            b.setLength(0);
            if (threadRoots) b.append(threadFrame(r.threads().getOrDefault(s.threadId(), "thread"), s.threadId()));
            for (int i = s.frames().length - 1; i >= 0; i--) {
                if (!b.isEmpty()) b.append(';');
                b.append(frame(HumanNames.frame(r.methodName(s.frames()[i]), style)));
            }
            if (b.isEmpty()) continue;
            if (s.weight() > 0) folded.merge(b.toString(), s.weight(), Long::sum);
        }
        return folded;
    }

    /** A thread as the root frame, as async-profiler's {@code -t} spells it: {@code [main tid=1]} (tiprobe's id is the Java thread id). */
    static String threadFrame(String name, long threadId) {
        return frame("[" + name + " tid=" + threadId + "]");
    }

    public static void write(Profile p, Writer out, boolean threadRoots, FrameStyle style) throws IOException {
        for (Map.Entry<String, Long> e : fold(p, threadRoots, style).entrySet()) {
            out.write(e.getKey());
            out.write(' ');
            out.write(Long.toString(e.getValue()));
            out.write('\n');
        }
        out.flush();
    }

    /** The separators of the format may not appear in a frame. */
    private static String frame(String name) {
        return name.replace(';', ':').replace('\n', ' ');
    }
}
