package dev.tiprobe.report;

import java.io.IOException;
import java.io.Writer;
import java.util.Map;
import java.util.TreeMap;

/**
 * Folded stacks ({@code .collapsed}), the input of Brendan Gregg's flamegraph.pl and of
 * speedscope: one line per distinct stack, root first, frames joined by {@code ;}, then a space
 * and the total weight in the view's unit: samples (wall), CPU nanoseconds (cpu), bytes (alloc,
 * live), nanoseconds waited (lock, wait).
 */
public final class FoldedStacks {
    private FoldedStacks() {}

    /** The recording's natural view ({@link View#natural}) folded. */
    public static Map<String, Long> fold(Recording r, boolean threadRoots) {
        return fold(View.natural(r).of(r), threadRoots);
    }

    /** Stack to weight, sorted, with optional thread name as the root frame. */
    public static Map<String, Long> fold(Profile p, boolean threadRoots) {
        Recording r = p.recording();
        Map<String, Long> folded = new TreeMap<>();
        StringBuilder b = new StringBuilder();
        for (Profile.Stack s : p.stacks()) {
            b.setLength(0);
            if (threadRoots) b.append(frame(r.threads().getOrDefault(s.threadId(), "thread " + s.threadId())));
            for (int i = s.frames().length - 1; i >= 0; i--) {
                if (!b.isEmpty()) b.append(';');
                b.append(frame(shortName(r.methodName(s.frames()[i]))));
            }
            if (b.isEmpty()) continue;
            if (s.weight() > 0) folded.merge(b.toString(), s.weight(), Long::sum);
        }
        return folded;
    }

    public static void write(Profile p, Writer out, boolean threadRoots) throws IOException {
        for (Map.Entry<String, Long> e : fold(p, threadRoots).entrySet()) {
            out.write(e.getKey());
            out.write(' ');
            out.write(Long.toString(e.getValue()));
            out.write('\n');
        }
        out.flush();
    }

    /** {@code app.jar!com.foo.Bar.baz(int x) : int} becomes {@code app.jar!com.foo.Bar.baz}. */
    static String shortName(String human) {
        int paren = human.indexOf('(');
        return paren < 0 ? human : human.substring(0, paren);
    }

    /** The separators of the format may not appear in a frame. */
    private static String frame(String name) {
        return name.replace(';', ':').replace('\n', ' ');
    }
}
