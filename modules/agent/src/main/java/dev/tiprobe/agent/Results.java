package dev.tiprobe.agent;

import dev.tiprobe.ids.MethodToken;

import java.util.List;

/**
 * What a tracing session saw.
 *
 * @param methods             every instrumented method, with calls (and times in time mode)
 * @param calls               traced calls in the order they started (trace mode)
 * @param skipped             methods the filter chose but that were left unchanged, with why
 * @param classFailures       classes left unchanged because instrumenting them failed, with why
 * @param classesInstrumented class files changed (loads and retransforms)
 * @param droppedCalls        traced calls not recorded (rate cap, sampling, full buffer)
 * @param probeFailures       exceptions swallowed inside probe code
 */
public record Results(Tracing.Mode mode, String filter, List<MethodResult> methods, List<TracedCall> calls,
                      List<Skipped> skipped, List<String> classFailures, long classesInstrumented,
                      long droppedCalls, long probeFailures) {

    /** A method the filter chose but that was left unchanged, and why. */
    public record Skipped(String binaryName, String method, String descriptor, String reason) {}

    /** Inclusive wall-clock time of a method's calls; bucket b of the histogram holds [2^b, 2^(b+1)) ns. */
    public record TimeStats(long totalNanos, long minNanos, long maxNanos, long[] histogram) {}

    /** An instrumented method and its token (what names it in a recording). */
    public record MethodResult(MethodToken token, String name, String className, String method, String descriptor, long calls,
                               TimeStats time) {}

    /**
     * One traced call; {@code durationNanos} is -1 while it still runs. Arguments and result as
     * captured ({@link dev.tiprobe.probe.Captured}).
     */
    public record TracedCall(MethodToken token, String method, long threadId, String threadName, int depth, long startEpochNanos,
                             long durationNanos, List<String> parameterNames, List<Object> args, Object result,
                             boolean threw) {}

    /** The result of the method with this class and name (first overload found), or null. */
    public MethodResult method(String className, String name) {
        for (MethodResult m : methods) if (m.className().equals(className) && m.method().equals(name)) return m;
        return null;
    }
}
