package dev.tiprobe.agent.tracing;

import dev.tiprobe.ids.MethodToken;
import dev.tiprobe.options.AgentOptions.TraceMode;
import dev.tiprobe.recording.Call;
import dev.tiprobe.recording.Callee;
import dev.tiprobe.recording.Removed;
import dev.tiprobe.recording.Skipped;
import dev.tiprobe.recording.Stack;

import java.util.List;
import java.util.Set;

/**
 * What a tracing session saw.
 *
 * @param methods             every instrumented method, with calls (and times in time mode)
 * @param calls               traced calls in the order they started (trace mode)
 * @param heldBack            calls the probes keep that {@code calls} leaves out: those of methods waiting
 *                            to be settled, or given their slot after the look at the slots
 * @param skipped             methods the filter chose but that were left unchanged, with why
 *                            ({@link Reported}: a count, the first few, and those new to this result)
 * @param classFailures       classes left unchanged because instrumenting them failed, with why
 * @param classesInstrumented class files changed (loads and retransforms)
 * @param instrumentingNanos  time spent choosing and changing class files, on the threads that loaded or retransformed them
 * @param droppedCalls        traced calls not recorded (rate cap, sampling, full buffer)
 * @param probeFailures       exceptions swallowed inside probe code
 * @param removed             methods whose probes were taken out to keep the overhead budget, in the order
 *                            they were, each look's hottest first
 * @param overheadBudget      that budget, as a share of the program's CPU (0: none)
 * @param clock               the clock time mode read ({@code time-stamp counter (2.596 ticks/ns)}); null in other modes
 * @param unloadedMethods     methods left out because their classes unloaded (an earlier result gave their last figures)
 * @param unloadedCalls       those methods' calls
 */
public record Results(TraceMode mode, String filter, List<MethodResult> methods, List<TracedCall> calls, Set<Call.Id> heldBack,
                      Reported.View<Skipped> skipped, Reported.View<String> classFailures, long classesInstrumented,
                      long instrumentingNanos, long droppedCalls, long probeFailures, Reported.View<Removed> removed, double overheadBudget, String clock,
                      long unloadedMethods, long unloadedCalls) {

    /**
     * Every method instrumented in the session, also those whose classes unloaded (but for those
     * unloaded ones a drain left waiting to be settled by the next: the final result has all).
     */
    public long methodCount() {
        return methods.size() + unloadedMethods;
    }

    /** Every call counted in the session, also those of methods whose classes unloaded. */
    public long totalCalls() {
        return methods.stream().mapToLong(MethodResult::calls).sum() + unloadedCalls;
    }

    /** Methods whose probes were taken out, in the order of their call rates, the coolest first. */
    static final java.util.Comparator<Removed> REMOVED_BY_RATE = java.util.Comparator.comparingLong(Removed::callsPerSecond);

    /**
     * {@code 212 methods' probes removed to keep overhead under 5 %, e.g. a (4.1M calls/s), b (...)},
     * or null when none was.
     */
    public String removedSummary() {
        if (removed.isEmpty()) return null;
        StringBuilder b = new StringBuilder().append(removed.total()).append(removed.total() == 1 ? " method's" : " methods'")
                .append(String.format(" probes removed to keep overhead under %s %%, e.g. ", percent(overheadBudget)));
        for (int i = 0; i < removed.first().size(); i++) {
            Removed r = removed.first().get(i);
            b.append(i > 0 ? ", " : "").append(r.method()).append(" (").append(dev.tiprobe.recording.Rates.callsPerSecond(r.callsPerSecond())).append(')');
        }
        return b.toString();
    }

    /** 0.05 as {@code 5}, 0.025 as {@code 2.5}. */
    public static String percent(double share) {
        double p = share * 100;
        return p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p);
    }

    /** Inclusive wall-clock time of a method's calls; bucket b of the histogram holds [2^b, 2^(b+1)) ns. */
    public record TimeStats(long totalNanos, long minNanos, long maxNanos, long[] histogram) {
        /** These figures (of {@code calls} calls) and {@code other}'s (of {@code otherCalls}) together. */
        TimeStats plus(TimeStats other, long calls, long otherCalls) {
            long[] h = java.util.Arrays.copyOf(histogram, Math.max(histogram.length, other.histogram().length));
            for (int i = 0; i < other.histogram().length; i++) h[i] += other.histogram()[i];
            long min = calls == 0 ? other.minNanos() : otherCalls == 0 ? minNanos : Math.min(minNanos, other.minNanos());
            return new TimeStats(totalNanos + other.totalNanos(), min, Math.max(maxNanos, other.maxNanos()), h);
        }
    }

    /**
     * An instrumented method and its token (what names it in a recording); {@code unloaded}: its
     * class has unloaded, so these figures are its last and later results leave it out.
     */
    public record MethodResult(MethodToken token, String name, String className, String method, String descriptor, long calls,
                               TimeStats time, boolean unloaded) {
        /** This method's figures with those of {@code other} (an equal method of another class instance) added; null adds nothing. */
        public MethodResult plus(MethodResult other) {
            if (other == null) return this;
            TimeStats t = time == null ? other.time() : other.time() == null ? time : time.plus(other.time(), calls, other.calls());
            return new MethodResult(token, name, className, method, descriptor, calls + other.calls(), t, unloaded && other.unloaded());
        }
    }

    /**
     * One traced call; {@code durationNanos} is -1 while it still runs. Arguments and result as
     * captured ({@link dev.tiprobe.probe.Captured}); a call kept by its duration has its stack as
     * it ended ({@code callerStack}, the method itself on top), others null. {@code callees}: the
     * call sites of its body that ran, where they were timed, slowest first (else empty).
     * {@code stackPending}: its stack was taken before the agent could name it, and will be
     * named once profiling has started (written then, or at the session's end without it).
     */
    public record TracedCall(MethodToken token, String method, long threadId, String threadName, int depth, long startEpochNanos,
                             long durationNanos, List<String> parameterNames, List<Object> args, Object result,
                             boolean threw, Stack callerStack, boolean stackPending, List<Callee> callees) {
        /** This call across results, each of which makes new objects. */
        public Call.Id id() {
            return new Call.Id(threadId, startEpochNanos, depth);
        }
    }

    /** The result of the method with this class and name (first overload found), or null. */
    public MethodResult method(String className, String name) {
        for (MethodResult m : methods) if (m.className().equals(className) && m.method().equals(name)) return m;
        return null;
    }
}
