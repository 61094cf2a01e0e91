package dev.tiprobe.probe;

/**
 * What trace mode records.
 *
 * @param on          whether traced calls are recorded at all
 * @param perSecond   calls recorded per second over all threads; 0 for no cap
 * @param everyNth    the sampling ratio as "record one call in n" (1 records all)
 * @param maxString   characters kept of a string argument or result
 * @param maxElements array elements kept
 * @param callToString whether other objects are described by their toString() as well
 * @param maxDepth    how deep objects are shown by their fields: 1 shows an argument's fields, 2
 *                    also its fields' fields; 0 shows objects by class and identity only
 * @param maxFields   fields kept of one object
 * @param minNanos    calls kept only when they took at least this long (0: any): each call is
 *                    captured at its start and kept or dropped at its end ({@code Probe.keepAtEnd})
 * @param keep        calls kept only when this holds at their end (null: any), as with {@code
 *                    minNanos}: the agent's condition over the captured values ({@code watch --where});
 *                    tested with tiprobe's work marked on the calling thread, so it traces nothing
 */
public record TraceSettings(boolean on, long perSecond, int everyNth, int maxString, int maxElements,
                            boolean callToString, int maxDepth, int maxFields, long minNanos,
                            java.util.function.Predicate<Call> keep) {
    public static final TraceSettings OFF = new TraceSettings(false, 0, 1, 0, 0, false, 0, 0, 0);

    public TraceSettings(boolean on, long perSecond, int everyNth, int maxString, int maxElements,
                         boolean callToString, int maxDepth, int maxFields, long minNanos) {
        this(on, perSecond, everyNth, maxString, maxElements, callToString, maxDepth, maxFields, minNanos, null);
    }

    /** Whether a call is kept or dropped at its end, not at its start. */
    boolean decidedAtEnd() {
        return minNanos > 0 || keep != null;
    }

    public TraceSettings {
        if (everyNth < 1) throw new IllegalArgumentException("everyNth must be at least 1: " + everyNth);
        if (maxString < 0 || maxElements < 0 || maxDepth < 0 || maxFields < 0 || minNanos < 0) throw new IllegalArgumentException("negative limit");
    }
}
