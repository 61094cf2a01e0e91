package dev.tiprobe.cli;

import dev.tiprobe.report.FlameGraphHtml;
import dev.tiprobe.report.FoldedStacks;
import dev.tiprobe.report.Recording;
import dev.tiprobe.report.RecordingReader;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Sampling recordings (.tpr) into reports: folded stacks and a text summary. */
final class Samples {
    private Samples() {}

    /** Reads a recording; a damaged one gives its whole chunks and a warning on stderr. */
    static Recording read(Path file, PrintWriter err) throws CliException {
        try {
            Recording r = RecordingReader.read(file);
            if (r.damage() != null) {
                err.println("tiprobe: " + file + " is damaged (" + r.damage() + "); using the " + r.chunks() + " whole chunks before it");
            }
            return r;
        } catch (IOException e) {
            throw new CliException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Folded stacks for a {@code .collapsed} name, a flame graph for {@code .html} (with the
     * methods traced in the same session, when there were any).
     */
    static void write(Path recording, List<FlameGraphHtml.TracedMethod> traced, Path out) throws CliException {
        write(read(recording, new PrintWriter(System.err, true)), traced, recording, out);
    }

    static void write(Recording r, List<FlameGraphHtml.TracedMethod> traced, Path recording, Path out) throws CliException {
        try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            if (out.toString().endsWith(".html")) FlameGraphHtml.write(r, traced, w, "tiprobe: " + recording.getFileName());
            else FoldedStacks.write(r, w, false);
        } catch (IOException e) {
            throw new CliException("cannot write " + out + ": " + e.getMessage(), e);
        }
    }

    /** Top methods by samples, on top of the stack (self) and anywhere on it (total). */
    static void writeText(Recording r, PrintWriter out, int top) {
        Map<Integer, Long> self = new HashMap<>();
        Map<Integer, Long> total = new HashMap<>();
        long all = 0;
        for (Recording.Sample s : r.samples()) {
            if (s.frames().length == 0) continue;
            all += s.weight();
            self.merge(s.frames()[0], s.weight(), Long::sum);
            java.util.Set<Integer> seen = new java.util.HashSet<>();
            for (int f : s.frames()) if (seen.add(f)) total.merge(f, s.weight(), Long::sum);
        }
        out.printf("tiprobe samples: %d samples in %d chunks, %d threads, %d class loads, %d unloads%n",
                r.samples().size(), r.chunks(), r.threads().size(),
                r.classEvents().stream().filter(Recording.ClassEvent::load).count(),
                r.classEvents().stream().filter(e -> !e.load()).count());
        out.println("Stacks are taken at safepoints: a thread shows where it next reached one.");
        boolean cpu = r.samples().stream().anyMatch(s -> s.weight() != 1);  // cpu mode weighs by CPU nanoseconds
        table(out, "Top methods on top of the stack (self)", self, all, r, top, cpu);
        table(out, "Top methods anywhere on the stack (total)", total, all, r, top, cpu);
        out.flush();
    }

    private static void table(PrintWriter out, String title, Map<Integer, Long> weights, long all, Recording r, int top,
                              boolean cpu) {
        out.printf("%n%s%n%12s %7s  %s%n", title, cpu ? "cpu ms" : "samples", "%", "method");
        weights.entrySet().stream().sorted(Map.Entry.<Integer, Long>comparingByValue(Comparator.reverseOrder())).limit(top)
                .forEach(e -> out.printf("%12s %6.1f%%  %s%n", cpu ? String.format("%.1f", e.getValue() / 1e6) : e.getValue().toString(),
                        all == 0 ? 0.0 : 100.0 * e.getValue() / all, r.methodName(e.getKey())));
    }
}
