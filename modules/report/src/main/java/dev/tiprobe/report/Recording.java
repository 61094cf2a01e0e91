package dev.tiprobe.report;

import java.util.List;
import java.util.Map;

/**
 * A recording as read back: the complete chunks' events and symbols, and, when the file was cut
 * short or damaged, what was wrong and where ({@link #damage()}; null for a whole file).
 */
public record Recording(int chunks, long startEpochNanos, long endEpochNanos, Map<Integer, String> methods,
                        Map<Long, String> threads, List<Sample> samples, List<ClassEvent> classEvents,
                        String damage) {

    /** A stack sample; frames are method ids, leaf first. */
    public record Sample(long epochNanos, long threadId, byte state, long weight, int[] frames) {}

    public record ClassEvent(long epochNanos, boolean load, String className) {}

    /** The name of a method id; "[unknown]" for 0 or an id without a name. */
    public String methodName(int id) {
        String name = methods.get(id);
        return name != null ? name : "[unknown]";
    }
}
