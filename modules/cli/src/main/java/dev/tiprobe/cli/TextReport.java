package dev.tiprobe.cli;

import dev.tiprobe.report.TracedText;

import java.io.PrintWriter;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** The {@code .txt} form of a recording: top methods by calls and by time, then traced calls. */
final class TextReport {
    private TextReport() {}

    static void write(Recording r, PrintWriter out, int topMethods, int tracedCalls) {
        out.printf("tiprobe %s, filter %s%n", r.mode(), r.filter());
        if (!r.removedForOverhead().isEmpty()) {
            out.printf("%d methods' probes were removed to keep the overhead budget; their calls were counted until then"
                    + " (listed at the end)%n", r.removedForOverhead().size());
        }
        methodTables(out, TracedText.merged(r.methods()), topMethods, "Top methods by calls", "Top methods by time (inclusive, wall clock)");
        if (!r.calls().isEmpty()) {
            out.printf("%nTraced calls (%d of %d recorded; %d not recorded because of the limits)%n",
                    Math.min(tracedCalls, r.calls().size()), r.calls().size(), r.droppedCalls());
            r.calls().stream().limit(tracedCalls).forEach(c -> out.println("  " + call(c)));
        }
        if (!r.skipped().isEmpty()) {
            out.printf("%nNot instrumented%n");
            r.skipped().forEach(s -> out.println("  " + s));
        }
        if (!r.classFailures().isEmpty()) {
            out.printf("%nClasses left unchanged%n");
            r.classFailures().forEach(s -> out.println("  " + s));
        }
        if (!r.removedForOverhead().isEmpty()) {
            out.printf("%nProbes removed to keep the overhead budget (calls per second when removed)%n");
            r.removedForOverhead().forEach(s -> out.println("  " + s));
        }
        out.flush();
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

    /** {@code [main] fib(n=10) -> 55  (1.2 ms)}, indented by depth. */
    static String call(Recording.Call c) {
        String method = c.method();
        int paren = method.indexOf('(');
        String head = paren < 0 ? method : method.substring(0, paren);
        StringBuilder b = new StringBuilder("[").append(c.thread()).append("] ").append("  ".repeat((int) Math.min(c.depth(), 20)))
                .append(head).append('(');
        for (int i = 0; i < c.argNames().size(); i++) {
            if (i > 0) b.append(", ");
            b.append(c.argNames().get(i)).append('=').append(value(c.argValues().get(i)));
        }
        b.append(')');
        if (c.threw()) b.append(" threw ").append(value(c.result()));
        else if (c.result() != null || !method.endsWith(": void")) b.append(" -> ").append(value(c.result()));
        if (c.durationNanos() >= 0) b.append(String.format("  (%.3f ms)", c.durationNanos() / 1e6));
        return b.toString();
    }

    /** Captured values as a person reads them. */
    static String value(Object v) {
        if (v instanceof String s) return '"' + s + '"';
        if (!(v instanceof Map<?, ?> m)) return String.valueOf(v);
        if (m.containsKey("text")) return '"' + String.valueOf(m.get("text")) + "\"... (" + m.get("length") + " chars)";
        if (m.containsKey("enum")) return simple(m.get("enum")) + "." + m.get("name");
        if (m.containsKey("array")) {
            StringBuilder b = new StringBuilder(simple(m.get("array"))).append('[').append(m.get("length")).append("] {");
            List<?> first = m.get("first") instanceof List<?> l ? l : List.of();
            for (int i = 0; i < first.size(); i++) b.append(i > 0 ? ", " : "").append(value(first.get(i)));
            Object length = m.get("length");
            if (length instanceof Long n && n > first.size()) b.append(", ...");
            return b.append('}').toString();
        }
        if (m.containsKey("object")) {
            String s = simple(m.get("object")) + "@" + m.get("identityHash");
            return m.containsKey("toString") ? s + " \"" + m.get("toString") + '"' : s;
        }
        if (m.containsKey("type")) return simple(m.get("type")) + (m.get("message") == null ? "" : ": " + m.get("message"));
        return m.toString();
    }

    private static String simple(Object className) {
        String s = String.valueOf(className);
        return s.substring(s.lastIndexOf('.') + 1);
    }
}
