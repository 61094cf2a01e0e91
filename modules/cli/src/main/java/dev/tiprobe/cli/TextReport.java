package dev.tiprobe.cli;

import dev.tiprobe.report.Recording;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.report.TracedText;

import java.io.PrintWriter;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code .txt} form of a recording: what to trust first, the top sampled methods, the traced
 * methods by calls and by time, the traced calls, and what tracing skipped or removed.
 */
final class TextReport {
    private TextReport() {}

    /**
     * Top methods on top of the stack (self) and anywhere on it (total) in the recording's own
     * view (samples for wall mode, CPU time for cpu mode), and for a wall-mode recording also the
     * self table by CPU time; then the traced methods, the first {@code calls} traced calls, and
     * the tracing account.
     */
    static void write(Recording r, PrintWriter out, int top, int calls) {
        String mode = r.info().get(RecordingFormat.INFO_TRACE_MODE);
        String clock = r.info().get(RecordingFormat.INFO_CLOCK);
        if (mode != null) {
            out.printf("tiprobe %s%s, filter %s%n", mode, clock == null ? "" : " (clock: " + clock + ")",
                    r.info().getOrDefault(RecordingFormat.INFO_FILTER, "?"));
        }
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
        account(r, out);
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
                Set<Integer> seen = new HashSet<>();
                for (int f : s.frames()) if (seen.add(f)) total.merge(f, weight, Long::sum);
            }
            return new Weights(self, total, all);
        }
    }

    private static void traced(Recording r, PrintWriter out, int top, int calls) {
        List<TracedText.Method> methods = TracedText.methods(r);
        if (methods.isEmpty()) return;
        methodTables(out, methods, top, "Top methods by calls", "Top methods by time (inclusive, wall clock)");
        List<Recording.Call> traced = TracedText.callsByStart(r);
        if (traced.isEmpty() || calls <= 0) return;
        out.printf("%nTraced calls (%d of %d recorded; %s not recorded because of the limits)%n", Math.min(calls, traced.size()),
                traced.size(), r.info().getOrDefault(RecordingFormat.INFO_DROPPED_CALLS, "0"));
        traced.stream().limit(calls).forEach(c -> out.println("  " + TracedText.call(r, c)));
    }

    /** What tracing did not do, in full: methods skipped, classes left unchanged, probes removed. */
    private static void account(Recording r, PrintWriter out) {
        Recording.Tracing t = r.tracing();
        if (!t.skipped().isEmpty()) {
            out.printf("%nNot instrumented%n");
            t.skipped().forEach(s -> out.println("  " + s.className() + "." + s.methodName() + s.descriptor() + ": " + s.reason()));
        }
        if (!t.classFailures().isEmpty()) {
            out.printf("%nClasses left unchanged%n");
            t.classFailures().forEach(s -> out.println("  " + s));
        }
        if (!t.removed().isEmpty()) {
            out.printf("%nProbes removed to keep the overhead budget (calls per second when removed)%n");
            t.removed().forEach(m -> out.printf("  %s (%.1fM calls/s)%n", m.method(), m.callsPerSecond() / 1e6));
        }
    }

    /**
     * The traced methods' tables, titled {@code byCalls} and {@code byTime}: the {@code top}
     * methods by calls, then, when any method was timed, by total time (inclusive, wall clock).
     * One per name: merge first ({@link TracedText#merged}).
     */
    static void methodTables(PrintWriter out, List<TracedText.Method> methods, int top, String byCalls, String byTime) {
        out.printf("%n%s%n%12s  %s%n", byCalls, "calls", "method");
        methods.stream().filter(m -> m.calls() > 0).sorted(Comparator.comparingLong(TracedText.Method::calls).reversed())
                .limit(top).forEach(m -> out.printf("%12d  %s%n", m.calls(), m.name()));
        if (methods.stream().noneMatch(TracedText.Method::timed)) return;
        out.printf("%n%s%n%12s %10s %10s %10s  %s%n", byTime, "total ms", "mean ns", "min ns", "max ns", "method");
        methods.stream().filter(m -> m.timed() && m.calls() > 0)
                .sorted(Comparator.comparingLong(TracedText.Method::totalNanos).reversed()).limit(top)
                .forEach(m -> out.printf("%12.3f %10d %10d %10d  %s%n", m.totalNanos() / 1e6, m.meanNanos(), m.minNanos(),
                        m.maxNanos(), m.name()));
    }

    private static void table(PrintWriter out, String title, Map<Integer, Long> weights, long all, Recording r, int top,
                              boolean cpu) {
        out.printf("%n%s%n%12s %7s  %s%n", title, cpu ? "cpu ms" : "samples", "%", "method");
        weights.entrySet().stream().sorted(Map.Entry.<Integer, Long>comparingByValue(Comparator.reverseOrder())).limit(top)
                .forEach(e -> out.printf("%12s %6.1f%%  %s%n", cpu ? String.format("%.1f", e.getValue() / 1e6) : e.getValue().toString(),
                        all == 0 ? 0.0 : 100.0 * e.getValue() / all, r.methodName(e.getKey())));
    }
}
