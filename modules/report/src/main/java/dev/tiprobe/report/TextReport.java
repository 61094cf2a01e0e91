package dev.tiprobe.report;

import dev.tiprobe.recording.Allocation;
import dev.tiprobe.recording.Call;
import dev.tiprobe.recording.ClassEvent;
import dev.tiprobe.recording.Deadlock;
import dev.tiprobe.recording.LockWait;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.Skipped;

import java.io.PrintWriter;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The {@code .txt} form of a recording: what to trust first, the top methods of each view (samples,
 * allocations, locks), the traced methods by calls and by time, the traced calls, and what tracing
 * skipped or removed.
 */
public final class TextReport {
    private TextReport() {}

    /** Every view the recording holds, then the traced methods and calls ({@link #write(Recording, View, PrintWriter, int, int)}). */
    public static void write(Recording r, PrintWriter out, int top, int calls) {
        write(r, null, out, top, calls);
    }

    /**
     * The views: for stack samples, the top methods on top of the stack (self) and anywhere on it
     * (total) in the recording's own view (samples for wall mode, CPU time for cpu mode), and for a
     * wall-mode recording also the self table by CPU time; for allocations the top classes and
     * allocating methods (and the live objects, when tracked); for locks the top monitors, the
     * waiting methods and the longest waits with who held the lock. {@code only}: that view alone
     * (null: all). Then the traced methods, the first {@code calls} traced calls, and the tracing account.
     */
    public static void write(Recording r, View only, PrintWriter out, int top, int calls) {
        String mode = r.info().get(RecordingFormat.INFO_TRACE_MODE);
        String clock = r.info().get(RecordingFormat.INFO_CLOCK);
        if (mode != null) {
            out.printf("tiprobe %s%s, filter %s%n", mode, clock == null ? "" : " (clock: " + clock + ")",
                    r.info().getOrDefault(RecordingFormat.INFO_FILTER, "?"));
        }
        out.printf("tiprobe recording: %d samples, %d allocation samples, %d waits in %d chunks, %d threads, %d class loads, %d unloads%n",
                r.samples().size(), r.events().allocations().size(), r.events().locks().size(), r.chunks(), r.threads().size(),
                r.classEvents().stream().filter(ClassEvent::load).count(),
                r.classEvents().stream().filter(e -> !e.load()).count());
        r.caveats().forEach(out::println);
        deadlocks(r, out);
        List<View> views = View.in(r);
        boolean samplesShown = false;
        for (View v : views) {
            if (only != null && v != only) continue;
            switch (v) {
                case CPU, WALL -> {
                    if (samplesShown) continue;
                    samplesShown = true;
                    samples(r, only != null ? only : View.natural(r), out, top);
                }
                case ALLOC, LIVE -> events(r, v, out, top, "Top allocated classes", "Top allocating methods");
                case LOCK -> {
                    events(r, v, out, top, "Top contended monitors and locks", "Top methods waiting to enter a monitor or take a lock");
                    longestWaits(r, out, Math.min(top, 5));
                }
                case WAIT -> events(r, v, out, top, "Top monitors and conditions waited on", "Top methods in Object.wait or parked");
            }
        }
        traced(r, out, top, calls);
        account(r, out);
        out.flush();
    }

    private static void samples(Recording r, View view, PrintWriter out, int top) {
        out.println(r.samplesNote());
        Weights w = Weights.of(view.of(r), 0);
        table(out, "Top methods on top of the stack (self)", w.self, w.all, r, top, view);
        table(out, "Top methods anywhere on the stack (total)", w.total, w.all, r, top, view);
        if (view == View.WALL) {
            Weights cpu = Weights.of(View.CPU.of(r), 0);
            if (cpu.all > 0) {
                table(out, "Top methods on top of the stack by CPU time (self; the cpu view of the same samples)",
                        cpu.self, cpu.all, r, top, View.CPU);
            }
        }
    }

    /** A view whose leaf frame is a class: the classes, then the methods right below them (self) and anywhere. */
    private static void events(Recording r, View view, PrintWriter out, int top, String byClass, String byMethod) {
        Profile p = view.of(r);
        out.printf("%n%s: %d events, %s of %s%n", view.id(), p.stacks().size(), amount(p.total(), view), view.weighs());
        if (view == View.LIVE) {
            long untracked = r.infoNumber(RecordingFormat.INFO_LIVE_UNTRACKED);
            if (untracked > 0) out.printf("%d samples were not tracked (too many objects tracked at once): the live view misses them.%n", untracked);
        }
        Weights classes = Weights.of(p, 0);
        table(out, byClass + " (" + view.id() + ")", view == View.ALLOC || view == View.LIVE ? "class" : "lock's class",
                classes.self, classes.all, r, top, view);
        Weights methods = Weights.of(p, 1);
        table(out, byMethod + " (self)", methods.self, methods.all, r, top, view);
        table(out, byMethod + " (total)", methods.total, methods.all, r, top, view);
        if (view == View.LIVE) ages(r, out);
    }

    /** Upper bounds of the live objects' age groups, in seconds, and their names. */
    private static final long[] AGE_BOUNDS = {1, 10, 60, Long.MAX_VALUE};
    private static final String[] AGE_NAMES = {"under 1 s", "1 to 10 s", "10 to 60 s", "over 60 s"};

    /**
     * The live objects by age when the recording ended: a leak grows the old groups, a cache or a
     * queue under load the young ones. Weighted as the live view (estimated bytes held).
     */
    private static void ages(Recording r, PrintWriter out) {
        long[] bytes = new long[AGE_BOUNDS.length];
        long[] objects = new long[AGE_BOUNDS.length];
        long all = 0;
        for (Allocation a : r.events().allocations()) {
            if (a.tag() == 0 || r.events().freed().contains(a.tag())) continue;
            long ageSeconds = Math.max(0, r.endEpochNanos() - a.epochNanos()) / 1_000_000_000L;
            int group = 0;
            while (ageSeconds >= AGE_BOUNDS[group]) group++;
            long weight = a.estimatedBytes();
            bytes[group] += weight;
            objects[group]++;
            all += weight;
        }
        if (all == 0) return;
        out.printf("%nLive objects by age at the end (estimated bytes held)%n");
        for (int g = 0; g < AGE_BOUNDS.length; g++) {
            if (objects[g] == 0) continue;
            out.printf("%12s %6.1f%%  %-11s (%d sampled objects)%n", amount(bytes[g], View.LIVE), 100.0 * bytes[g] / all,
                    AGE_NAMES[g], objects[g]);
        }
    }

    /**
     * The longest contended waits, each with the thread that held the monitor and where (the
     * owner watch took its stack), or else the thread that released the monitor to the waiter.
     */
    private static void longestWaits(Recording r, PrintWriter out, int n) {
        List<LockWait> waits = r.events().locks().stream().filter(w -> RecordingFormat.inLockView(w.kind()))
                .sorted(Comparator.comparingLong(LockWait::waitNanos).reversed()).limit(n).toList();
        if (waits.isEmpty()) return;
        out.printf("%nLongest waits to enter a monitor or take a lock%n");
        for (LockWait w : waits) {
            // a park's first frame is where the program called into java.util.concurrent (ReentrantLock.lock): the waiter is below it
            int waiter = w.kind() == RecordingFormat.LOCK_PARKED && w.frames().length > 1 ? 1 : 0;
            out.printf("  %.1f ms  %s in %s on %s%n", w.waitNanos() / 1e6, thread(r, w.threadId()),
                    w.frames().length == 0 ? "[unknown]" : r.methodName(w.frames()[waiter]), r.typeName(w.typeId()));
            if (w.ownerThreadId() == 0) continue;
            if (w.ownerFrames().length == 0) {
                // JFR's previous owner: the thread that let the waiter in, with no stack
                out.printf("      let in by %s%n", thread(r, w.ownerThreadId()));
                continue;
            }
            out.printf("      held by %s at%n", thread(r, w.ownerThreadId()));
            for (int i = 0; i < Math.min(5, w.ownerFrames().length); i++) out.printf("        %s%n", r.methodName(w.ownerFrames()[i]));
        }
    }

    /**
     * Each deadlock found, first thing after the caveats: every thread of the cycle, the lock it
     * waits for and who holds it, the locks it holds, and its top frames.
     */
    private static void deadlocks(Recording r, PrintWriter out) {
        for (Deadlock d : r.events().deadlocks()) {
            out.printf("%nDEADLOCK found %.1f s into the recording: %d threads wait on each other%n",
                    (d.epochNanos() - r.startEpochNanos()) / 1e9, d.threads().size());
            for (Deadlock.Waiter t : d.threads()) {
                out.printf("  %s%n", Deadlock.waits(r.threadName(t.threadId()), t.waitsFor(), r.threadName(t.ownerId())));
                if (!t.held().isEmpty()) out.printf("      holds %s%n", String.join(", ", t.held()));
                for (int i = 0; i < Math.min(DEADLOCK_FRAMES, t.stack().frames().length); i++) out.printf("        at %s%n", r.methodName(t.stack().frames()[i]));
            }
        }
    }

    /** A deadlocked thread's frames the text shows. */
    private static final int DEADLOCK_FRAMES = 12;

    private static String thread(Recording r, long id) {
        return "'" + r.threadName(id) + "'";
    }

    /**
     * Each frame's weight on top of the stack and anywhere on it, in one view; {@code from}: the
     * frame counted as the top (1 skips a class leaf frame, to weigh the methods below it).
     */
    private record Weights(Map<Integer, Long> self, Map<Integer, Long> total, long all) {
        static Weights of(Profile p, int from) {
            Map<Integer, Long> self = new HashMap<>();
            Map<Integer, Long> total = new HashMap<>();
            long all = 0;
            for (Profile.Stack s : p.stacks()) {
                long weight = s.weight();
                if (s.frames().length <= from || weight == 0) continue;
                all += weight;
                self.merge(s.frames()[from], weight, Long::sum);
                Set<Integer> seen = new HashSet<>();
                for (int i = from; i < s.frames().length; i++) if (seen.add(s.frames()[i])) total.merge(s.frames()[i], weight, Long::sum);
            }
            return new Weights(self, total, all);
        }
    }

    /** A weight for people: ms for times, KiB or MiB for bytes, a count for samples. */
    private static String amount(long weight, View view) {
        return switch (view.unit()) {
            case "nanoseconds" -> String.format("%.1f ms", weight / 1e6);
            case "bytes" -> weight >= 1 << 20 ? String.format("%.1f MiB", weight / 1048576.0) : String.format("%.1f KiB", weight / 1024.0);
            default -> weight + " samples";
        };
    }

    private static void traced(Recording r, PrintWriter out, int top, int calls) {
        List<TracedText.Method> methods = TracedText.methods(r);
        if (methods.isEmpty()) return;
        methodTables(out, methods, top, "Top methods by calls", "Top methods by time (inclusive, wall clock)");
        List<Call> traced = TracedText.callsByStart(r);
        if (traced.isEmpty() || calls <= 0) return;
        out.printf("%nTraced calls (%d of %d recorded; %s not recorded because of the limits)%n", Math.min(calls, traced.size()),
                traced.size(), r.info().getOrDefault(RecordingFormat.INFO_DROPPED_CALLS, "0"));
        for (Call c : traced.subList(0, Math.min(calls, traced.size()))) {
            out.println("  " + TracedText.call(r, c));
            // A call kept by its duration has its stack, the method itself first: its callers, nearest first.
            for (String caller : TracedText.callers(r, c, CALLER_FRAMES)) out.printf("        from %s%n", caller);
        }
    }

    /** Callers shown of a traced call that has its stack (the JSON has them all). */
    private static final int CALLER_FRAMES = 5;

    /** Methods named of one reason for not instrumenting them; the JSON has them all. */
    private static final int SKIPPED_SHOWN = 10;

    /**
     * What tracing did not do: methods skipped, by reason ({@link #SKIPPED_SHOWN} of each, as a
     * broad filter over a real program skips hundreds, its abstract methods), classes left
     * unchanged, probes removed.
     */
    private static void account(Recording r, PrintWriter out) {
        Recording.Tracing t = r.tracing();
        if (!t.skipped().isEmpty()) {
            out.printf("%nNot instrumented%n");
            Map<String, List<Skipped>> byReason = t.skipped().stream()
                    .collect(Collectors.groupingBy(Skipped::reason, LinkedHashMap::new, Collectors.toList()));
            byReason.forEach((reason, methods) -> {
                methods.stream().limit(SKIPPED_SHOWN)
                        .forEach(s -> out.println("  " + s.className() + "." + s.methodName() + s.descriptor() + ": " + reason));
                if (methods.size() > SKIPPED_SHOWN) out.printf("  … and %d more: %s%n", methods.size() - SKIPPED_SHOWN, reason);
            });
        }
        if (!t.classFailures().isEmpty()) {
            out.printf("%nClasses left unchanged%n");
            t.classFailures().forEach(s -> out.println("  " + s));
        }
        if (!t.removed().isEmpty()) {
            out.printf("%nProbes removed to keep the overhead budget (calls per second when removed)%n");
            t.removed().forEach(m -> out.printf("  %s (%s)%n", m.method(), dev.tiprobe.recording.Rates.callsPerSecond(m.callsPerSecond())));
        }
    }

    /**
     * The traced methods' tables, titled {@code byCalls} and {@code byTime}: the {@code top}
     * methods by calls, then, when any method was timed, by total time (inclusive, wall clock).
     * One per name: merge first ({@link TracedText#merged}).
     */
    public static void methodTables(PrintWriter out, List<TracedText.Method> methods, int top, String byCalls, String byTime) {
        out.printf("%n%s%n%12s  %s%n", byCalls, "calls", "method");
        List<TracedText.Method> byCount = methods.stream().filter(m -> m.calls() > 0)
                .sorted(Comparator.comparingLong(TracedText.Method::calls).reversed()).limit(top).toList();
        byCount.forEach(m -> out.printf("%12d  %s%n", m.calls(), shown(m)));
        List<TracedText.Method> byTotal = methods.stream().filter(m -> m.timed() && m.calls() > 0)
                .sorted(Comparator.comparingLong(TracedText.Method::totalNanos).reversed()).limit(top).toList();
        if (!byTotal.isEmpty()) {
            out.printf("%n%s%n%12s %10s %10s %10s  %s%n", byTime, "total ms", "mean ns", "min ns", "max ns", "method");
            byTotal.forEach(m -> out.printf("%12.3f %10d %10d %10d  %s%n", m.totalNanos() / 1e6, m.meanNanos(), m.minNanos(),
                    m.maxNanos(), shown(m)));
        }
        if (byCount.stream().anyMatch(TracedText.Method::removed) || byTotal.stream().anyMatch(TracedText.Method::removed)) {
            out.printf("%s: the overhead budget took the method's probe out; its figures are of the calls before that,%n"
                    + "often a session's first and slowest.%n", REMOVED_MARK.strip());
        }
    }

    /** Follows a method whose probe the overhead budget took out, in the tables. */
    private static final String REMOVED_MARK = " [removed]";

    private static String shown(TracedText.Method m) {
        return m.removed() ? m.name() + REMOVED_MARK : m.name();
    }

    private static void table(PrintWriter out, String title, Map<Integer, Long> weights, long all, Recording r, int top,
                              View view) {
        table(out, title, "method", weights, all, r, top, view);
    }

    /** {@code top} rows of {@code weights}, the heaviest first; {@code named} heads the column of what each row is. */
    private static void table(PrintWriter out, String title, String named, Map<Integer, Long> weights, long all, Recording r, int top,
                              View view) {
        String heading = switch (view.unit()) {
            case "nanoseconds" -> view == View.CPU ? "cpu ms" : "ms";
            case "bytes" -> "KiB";
            default -> "samples";
        };
        out.printf("%n%s%n%12s %7s  %s%n", title, heading, "%", named);
        weights.entrySet().stream().sorted(Map.Entry.<Integer, Long>comparingByValue(Comparator.reverseOrder())).limit(top)
                .forEach(e -> out.printf("%12s %6.1f%%  %s%n", figure(e.getValue(), view),
                        all == 0 ? 0.0 : 100.0 * e.getValue() / all, r.methodName(e.getKey())));
    }

    private static String figure(long weight, View view) {
        return switch (view.unit()) {
            case "nanoseconds" -> String.format("%.1f", weight / 1e6);
            case "bytes" -> String.format("%.1f", weight / 1024.0);
            default -> Long.toString(weight);
        };
    }
}
