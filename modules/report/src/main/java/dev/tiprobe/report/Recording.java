package dev.tiprobe.report;

import java.util.List;
import java.util.Map;

/**
 * A recording as read back: the complete chunks' events and symbols, and, when the file was cut
 * short or damaged, what was wrong and where ({@link #damage()}; null for a whole file).
 *
 * @param info  facts about the session ({@link RecordingFormat#INFO_SAMPLE_MODE} and the others)
 * @param stats traced methods' statistics by method id, the latest the recording holds
 * @param calls traced calls in the order they were written
 */
public record Recording(int chunks, long startEpochNanos, long endEpochNanos, Map<String, String> info,
                        Map<Integer, String> methods, Map<Long, String> threads, List<Sample> samples,
                        List<ClassEvent> classEvents, Map<Integer, MethodStats> stats, List<Call> calls,
                        String damage) {

    /** A stack sample; frames are method ids, leaf first; cpuNanos the CPU the thread used since its last look. */
    public record Sample(long epochNanos, long threadId, byte state, long cpuNanos, int[] frames) {}

    public record ClassEvent(long epochNanos, boolean load, String className) {}

    /** A traced method's calls; the times are inclusive wall clock, present when {@code timed}. */
    public record MethodStats(int methodId, long calls, boolean timed, long totalNanos, long minNanos, long maxNanos) {}

    /**
     * A traced call. {@code durationNanos} is -1 for a call still running when it was written;
     * {@code result} is the returned value as text (empty for void), or the exception when
     * {@code threw}.
     */
    public record Call(long startEpochNanos, long threadId, int methodId, int depth, long durationNanos, boolean threw,
                       List<String> argNames, List<String> argValues, String result) {}

    /** The name of a method id; "[unknown]" for 0 or an id without a name. */
    public String methodName(int id) {
        String name = methods.get(id);
        return name != null ? name : "[unknown]";
    }

    /** Whether the sampler took only threads that used CPU (cpu mode); then the cpu view is the natural one. */
    public boolean cpuMode() {
        return "cpu".equals(info.get(RecordingFormat.INFO_SAMPLE_MODE));
    }

    /** A sample's weight in a view: 1 in the wall (samples) view, its CPU nanoseconds in the cpu view. */
    public static long weight(Sample s, boolean cpuView) {
        return cpuView ? s.cpuNanos() : 1;
    }

    /** The same recording with other samples (what filters make). */
    public Recording withSamples(List<Sample> kept) {
        return new Recording(chunks, startEpochNanos, endEpochNanos, info, methods, threads, List.copyOf(kept), classEvents,
                stats, calls, damage);
    }
}
