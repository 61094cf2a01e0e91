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
 */
public record TraceSettings(boolean on, long perSecond, int everyNth, int maxString, int maxElements,
                            boolean callToString) {
    public static final TraceSettings OFF = new TraceSettings(false, 0, 1, 0, 0, false);

    public TraceSettings {
        if (everyNth < 1) throw new IllegalArgumentException("everyNth must be at least 1: " + everyNth);
        if (maxString < 0 || maxElements < 0) throw new IllegalArgumentException("negative limit");
    }
}
