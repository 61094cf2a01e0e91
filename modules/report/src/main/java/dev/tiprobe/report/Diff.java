package dev.tiprobe.report;

import dev.tiprobe.ids.HumanNames.FrameStyle;

import java.io.IOException;
import java.io.Writer;
import java.util.Map;
import java.util.TreeMap;

/**
 * One view of a recording against a base recording, in the formats that compare two
 * ({@link Export#diffs()}): a differential flame graph page, and folded stacks with both weights.
 */
final class Diff {
    private Diff() {}

    /**
     * A differential flame graph of one view: frames as wide as in {@code now}, coloured by how
     * much their share of the view's total grew (red) or shrank (blue) since {@code base}, as
     * flamegraph.pl's differential graphs are; the tooltip gives both shares.
     */
    static void flameGraph(Recording base, Recording now, View view, FrameStyle style, Writer out, String title)
            throws IOException {
        FlameGraphHtml.Data data = new FlameGraphHtml.Data(style);
        data.view(view.of(now), view.of(base));
        data.rest(null, "A differential flame graph: frames are as wide as in the new recording; red ones grew their"
                + " share of the " + view.weighs() + " since the base recording, blue ones shrank, the deeper the colour the"
                + " more (ten points and over: the deepest).");
        FlameGraphHtml.page(data, out, title);
    }

    /**
     * One view of two recordings side by side, as Brendan Gregg's difffolded.pl writes them (the
     * input of {@code flamegraph.pl} for a differential graph): one line per stack in either,
     * then a space, its weight in {@code base} and, after another, its weight in {@code now}
     * (0 where it is missing).
     */
    static void folded(Recording base, Recording now, View view, FrameStyle style, Writer out) throws IOException {
        Map<String, Long> before = FoldedStacks.fold(view.of(base), false, style);
        Map<String, Long> after = FoldedStacks.fold(view.of(now), false, style);
        Map<String, Long> all = new TreeMap<>(before);
        after.forEach(all::putIfAbsent);
        for (String stack : all.keySet()) {
            out.write(stack + ' ' + before.getOrDefault(stack, 0L) + ' ' + after.getOrDefault(stack, 0L) + '\n');
        }
        out.flush();
    }
}
