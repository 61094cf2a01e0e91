package dev.tiprobe.report;

/**
 * The recording format, version 3 (version 2, without SOURCE records, is read too). A file is a header and chunks; each chunk is complete in
 * itself and checksummed, and introduces the symbols (method and thread names) it is the first to
 * use, so a recording cut short is readable up to its last whole chunk.
 *
 * <pre>
 * file    := "TPRB" u8:version u8:0 u8:0 u8:0   chunk*
 * chunk   := u32:length u32:crc32(body) body        (big-endian; length &lt;= 16 MiB)
 * body    := u64:startEpochNanos u64:endEpochNanos record*
 * record  := u8:kind ...
 *   1 METHOD        varint:id string:name              a method token and its human name
 *   2 THREAD        varlong:id string:name
 *   3 SAMPLE        varlong:nanosAfterStart varlong:threadId u8:state varlong:cpuNanos
 *                   varint:depth (varint:methodId varint:line) * depth     (leaf first; line 0: unknown)
 *   4 CLASS_LOAD    varlong:nanosAfterStart string:className
 *   5 CLASS_UNLOAD  varlong:nanosAfterStart string:className
 *   6 INFO          string:key string:value               a fact about the session (mode, interval, ...)
 *   7 STATS         varint:methodId varlong:calls u8:timed [varlong:totalNanos varlong:minNanos varlong:maxNanos]
 *                   a traced method's statistics so far (when timed = 1, its inclusive wall-clock times);
 *                   a later STATS of the same method replaces an earlier one
 *   9 SOURCE        varint:methodId string:path           the source file of a method's class as a path from its
 *                   package root (org/foo/Bar.java), written with the method's METHOD record when known
 *   8 CALL          varlong:nanosAfterStart varlong:threadId varint:methodId varint:depth u8:outcome
 *                   varlong:durationNanos varint:argCount (string:name string:value) * argCount string:result
 *                   one traced call; outcome RETURNED, THREW (result is the exception) or RUNNING
 *                   (duration 0, result empty); values as text, e.g. 42, "abc", Color.RED, int[3] {1, 2, 3}
 * string  := varint:byteLength utf8-bytes
 * </pre>
 *
 * Method ids are the ID map's method token ints, the same for sampled frames and traced methods;
 * 0 stands for a frame that could not be resolved. A SAMPLE's state is {@link #STATE_RUNNABLE},
 * {@link #STATE_WAITING} or {@link #STATE_OTHER}, with {@link #STATE_TRUNCATED} added when the
 * thread had more frames than the sampler kept (readers then show a {@code [truncated]} root, so a
 * cut stack is never drawn as if its oldest kept frame were a root); cpuNanos is the CPU time the thread used since
 * the sampler last looked at it (0 when unknown or not running), so one recording gives both a
 * wall view (samples counted) and a cpu view (samples weighted by cpuNanos).
 */
public final class RecordingFormat {
    private RecordingFormat() {}

    public static final byte[] MAGIC = {'T', 'P', 'R', 'B'};
    public static final int VERSION = 3;
    /** The oldest version this tiprobe reads (it has no SOURCE records). */
    public static final int OLDEST_READ = 2;
    public static final int HEADER_BYTES = 8;
    public static final int MAX_CHUNK_BYTES = 16 << 20;
    public static final int MAX_DEPTH = 4096;

    public static final int METHOD = 1;
    public static final int THREAD = 2;
    public static final int SAMPLE = 3;
    public static final int CLASS_LOAD = 4;
    public static final int CLASS_UNLOAD = 5;
    public static final int INFO = 6;
    public static final int STATS = 7;
    public static final int CALL = 8;
    public static final int SOURCE = 9;

    public static final byte STATE_RUNNABLE = 1;
    public static final byte STATE_WAITING = 2;
    public static final byte STATE_OTHER = 3;
    /** Added to a SAMPLE's state: the stack was cut at the sampling depth, its root-most frames missing. */
    public static final byte STATE_TRUNCATED = 0x40;

    public static final byte RETURNED = 0;
    public static final byte THREW = 1;
    public static final byte RUNNING = 2;

    /** INFO keys the agent writes. */
    public static final String INFO_SAMPLE_MODE = "samplemode";     // wall or cpu
    public static final String INFO_INTERVAL = "intervalNanos";
    public static final String INFO_TRACE_MODE = "tracemode";       // count, time or trace
    public static final String INFO_FILTER = "filter";
    public static final String INFO_DROPPED_CALLS = "droppedCalls";
    /** CPU nanoseconds threads used that no sample carries: never seen running again before sampling ended. */
    public static final String INFO_CPU_NOT_SEEN_RUNNING = "cpuNotSeenRunningNanos";
    /** How many classes tracing left unchanged because changing them failed, and the first one's reason. */
    public static final String INFO_CLASSES_LEFT_UNCHANGED = "classesLeftUnchanged";
    public static final String INFO_FIRST_CLASS_FAILURE = "firstClassFailure";
    /** A sentence naming the methods whose probes the overhead budget took out, the hottest first. */
    public static final String INFO_REMOVED_FOR_OVERHEAD = "removedForOverhead";
}
