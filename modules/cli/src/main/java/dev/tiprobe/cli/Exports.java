package dev.tiprobe.cli;

import dev.tiprobe.report.FlameGraphHtml;
import dev.tiprobe.report.FoldedStacks;
import dev.tiprobe.report.Recording;
import dev.tiprobe.report.RecordingFormat;
import dev.tiprobe.report.RecordingReader;
import dev.tiprobe.report.TracedText;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Recordings (.tpr) into reports: folded stacks, a flame graph and a text summary. */
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

    /** Whether a file of this name is drawn from stack samples: a flame graph, folded stacks, a pprof profile. */
    static boolean drawnFromSamples(String name) {
        return name.endsWith(".html") || name.endsWith(".collapsed") || name.endsWith(".pb.gz");
    }

    /**
     * Folded stacks for a {@code .collapsed} name, a flame graph for {@code .html}, a pprof profile
     * for {@code .pb.gz}, the text for {@code .txt}.
     */
    static void write(Recording r, Path recording, Path out) throws CliException {
        String name = out.toString();
        if (name.endsWith(".pb.gz")) {
            OutputFiles.writeBytes(out, o -> Pprof.write(r, o));
            return;
        }
        OutputFiles.write(out, w -> {
            if (name.endsWith(".html")) FlameGraphHtml.write(r, w, "tiprobe: " + recording.getFileName());
            else if (name.endsWith(".txt")) writeText(r, w, 20, 200);
            else FoldedStacks.write(r, w, false);
        });
    }

    /**
     * Top methods on top of the stack (self) and anywhere on it (total) in the recording's own
     * view (samples for wall mode, CPU time for cpu mode), and for a wall-mode recording also the
     * self table by CPU time; then the traced methods by calls and by time, and the first
     * {@code calls} traced calls.
     */
    static void writeText(Recording r, PrintWriter out, int top, int calls) {
        out.printf("tiprobe recording: %d samples in %d chunks, %d threads, %d class loads, %d unloads%n",
                r.samples().size(), r.chunks(), r.threads().size(),
                r.classEvents().stream().filter(Recording.ClassEvent::load).count(),
                r.classEvents().stream().filter(e -> !e.load()).count());
        r.caveats().forEach(out::println);
        if (!r.samples().isEmpty()) {
            out.println("Stacks are taken at safepoints: a thread shows where it next reached one.");
            boolean cpu = r.cpuMode();
            Weights view = Weights.of(r, cpu);
            table(out, "Top methods on top of the stack (self)", view.self, view.all, r, top, cpu);
            table(out, "Top methods anywhere on the stack (total)", view.total, view.all, r, top, cpu);
            Weights cpuView = cpu ? null : Weights.of(r, true);
            if (cpuView != null && cpuView.all > 0) {
                table(out, "Top methods on top of the stack by CPU time (self; the cpu view of the same samples)",
                        cpuView.self, cpuView.all, r, top, true);
            }
        }
        traced(r, out, top, calls);
        out.flush();
    }

    /** Each method's weight on top of the stack and anywhere on it, in one view. */
    private record Weights(Map<Integer, Long> self, Map<Integer, Long> total, long all) {
        static Weights of(Recording r, boolean cpuView) {
            Map<Integer, Long> self = new HashMap<>();
            Map<Integer, Long> total = new HashMap<>();
            long all = 0;
            for (Recording.Sample s : r.samples()) {
                long weight = Recording.weight(s, cpuView);
                if (s.frames().length == 0 || weight == 0) continue;
                all += weight;
                self.merge(s.frames()[0], weight, Long::sum);
                java.util.Set<Integer> seen = new java.util.HashSet<>();
                for (int f : s.frames()) if (seen.add(f)) total.merge(f, weight, Long::sum);
            }
            return new Weights(self, total, all);
        }
    }

    private static void traced(Recording r, PrintWriter out, int top, int calls) {
        List<TracedText.Method> methods = TracedText.methods(r);
        if (methods.isEmpty()) return;
        TextReport.methodTables(out, methods, top, String.format("Traced methods by calls (%s mode, filter %s)",
                r.info().getOrDefault(RecordingFormat.INFO_TRACE_MODE, "?"), r.info().getOrDefault(RecordingFormat.INFO_FILTER, "?")),
                "Traced methods by time (inclusive, wall clock)");
        List<Recording.Call> traced = TracedText.callsByStart(r);
        if (traced.isEmpty()) return;
        out.printf("%nTraced calls (%d of %d recorded; %s not recorded because of the limits)%n", Math.min(calls, traced.size()),
                traced.size(), r.info().getOrDefault(RecordingFormat.INFO_DROPPED_CALLS, "0"));
        traced.stream().limit(calls).forEach(c -> out.println("  " + TracedText.call(r, c)));
    }

    private static void table(PrintWriter out, String title, Map<Integer, Long> weights, long all, Recording r, int top,
                              boolean cpu) {
        out.printf("%n%s%n%12s %7s  %s%n", title, cpu ? "cpu ms" : "samples", "%", "method");
        weights.entrySet().stream().sorted(Map.Entry.<Integer, Long>comparingByValue(Comparator.reverseOrder())).limit(top)
                .forEach(e -> out.printf("%12s %6.1f%%  %s%n", cpu ? String.format("%.1f", e.getValue() / 1e6) : e.getValue().toString(),
                        all == 0 ? 0.0 : 100.0 * e.getValue() / all, r.methodName(e.getKey())));
    }
}
