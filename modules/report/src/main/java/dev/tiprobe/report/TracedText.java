package dev.tiprobe.report;

import dev.tiprobe.recording.Call;
import dev.tiprobe.recording.Callee;
import dev.tiprobe.recording.CapturedValue;
import dev.tiprobe.recording.MethodStats;
import dev.tiprobe.recording.Removed;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A recording's traced methods and calls as people read them, shared by the text report and the
 * flame graph page.
 */
public final class TracedText {
    private TracedText() {}

    /**
     * A traced method's figures, one per name: a class defined by several loaders has a token per
     * loader. {@code removed}: the overhead budget took its probe out, so its figures are of the
     * calls before that (often the first, slow ones of a session, before the JIT had compiled them).
     */
    public record Method(String name, long calls, boolean timed, long totalNanos, long minNanos, long maxNanos, boolean removed) {
        public long meanNanos() {
            return calls == 0 ? 0 : totalNanos / calls;
        }
    }

    /** The traced methods, merged by name, most calls first. */
    public static List<Method> methods(Recording r) {
        List<Method> stats = new ArrayList<>();
        Set<String> removed = new HashSet<>();
        for (Removed m : r.tracing().removed()) removed.add(m.method());
        for (MethodStats s : r.stats().values()) {
            String name = r.tracedName(s.methodId());
            stats.add(new Method(name, s.calls(), s.timed(), s.totalNanos(), s.minNanos(), s.maxNanos(), removed.contains(name)));
        }
        List<Method> out = merged(stats);
        out.sort(Comparator.comparingLong(Method::calls).reversed().thenComparing(Method::name));
        return out;
    }

    /** One entry per name, in the order names first appear: calls and times added up, min and max kept. */
    public static List<Method> merged(List<Method> methods) {
        Map<String, Method> byName = new LinkedHashMap<>();
        for (Method m : methods) {
            byName.merge(m.name(), m, (a, b) -> new Method(a.name(), a.calls() + b.calls(), a.timed() && b.timed(),
                    a.totalNanos() + b.totalNanos(),
                    a.calls() == 0 ? b.minNanos() : b.calls() == 0 ? a.minNanos() : Math.min(a.minNanos(), b.minNanos()),
                    Math.max(a.maxNanos(), b.maxNanos()), a.removed() || b.removed()));
        }
        return new ArrayList<>(byName.values());
    }

    /** The traced calls in the order they started. */
    public static List<Call> callsByStart(Recording r) {
        List<Call> calls = new ArrayList<>(r.calls());
        calls.sort(Comparator.comparingLong(Call::startEpochNanos));
        return calls;
    }

    /** The callers of a call kept with its stack, nearest first, at most {@code max}; none for a call without one. */
    public static List<String> callers(Recording r, Call c, int max) {
        int[] stack = c.stackFrames();  // the method itself first
        List<String> callers = new ArrayList<>();
        for (int i = 1; i < stack.length && callers.size() < max; i++) callers.add(r.methodName(stack[i]));
        return callers;
    }

    /**
     * A call's timed call sites as the branches of a tree, slowest first, each with its time, its
     * share of the call and how often it ran; the time in the method's own code last
     * ({@code [own code]}). None where its sites were not timed.
     */
    public static List<String> callTree(Call c) {
        if (c.callees().isEmpty() || c.durationNanos() < 0) return List.of();
        List<String> lines = new ArrayList<>();
        long inCallees = 0;
        for (int i = 0; i < c.callees().size(); i++) {
            Callee callee = c.callees().get(i);
            inCallees += callee.nanos();
            lines.add(branch(c, callee.nanos(), callee.calls(), callee.method()));
        }
        lines.add(branch(c, Math.max(0, c.durationNanos() - inCallees), 0, "[own code]"));
        return lines;
    }

    /** {@code 12.001 ms  95.2%  1x  demo.shop.Pricing.total(...)}. */
    private static String branch(Call c, long nanos, long calls, String what) {
        double share = c.durationNanos() == 0 ? 0 : 100.0 * nanos / c.durationNanos();
        return String.format("%10.3f ms %5.1f%% %6s  %s", nanos / 1e6, share, calls == 0 ? "" : calls + "x", what);
    }

    /** A traced call's arguments as the reports show them: {@code order=Shop$Order{id=5, …}, qty=2}. */
    static String arguments(Call c) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < c.argValues().size(); i++) {
            if (i > 0) b.append(", ");
            if (i < c.argNames().size() && c.argNames().get(i) != null) b.append(c.argNames().get(i)).append('=');
            b.append(ValueText.of(c.argValues().get(i)));
        }
        return b.toString();
    }

    /** {@code [main]   fib(n=10) -> 55  (1.200 ms)}, indented by depth. */
    public static String call(Recording r, Call c) {
        return call(r, c, true);
    }

    /** {@code [main] fib(n=10) -> 55  (1.200 ms)}; {@code byDepth}: indented by the traced frames below it. */
    public static String call(Recording r, Call c, boolean byDepth) {
        String method = r.tracedName(c.methodId());
        int paren = method.indexOf('(');
        String head = paren < 0 ? method : method.substring(0, paren);
        StringBuilder b = new StringBuilder("[").append(r.threadName(c.threadId()))
                .append("] ").append(byDepth ? "  ".repeat(Math.min(c.depth(), 20)) : "").append(head).append('(');
        b.append(arguments(c)).append(')');
        if (c.durationNanos() < 0) return b.append("  (still running)").toString();
        if (c.threw()) b.append(" threw ").append(ValueText.of(c.result()));
        else if (!(c.result() instanceof CapturedValue.None)) b.append(" -> ").append(ValueText.of(c.result()));
        return b.append(String.format("  (%.3f ms)", c.durationNanos() / 1e6)).toString();
    }
}
