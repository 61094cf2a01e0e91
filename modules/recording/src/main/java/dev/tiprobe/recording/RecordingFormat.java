package dev.tiprobe.recording;

/**
 * The recording format, version 14. A file is a header and chunks; each chunk is checksummed and
 * introduces the symbols (method and thread names) the file uses first in it, and the stacks its
 * events name (a pool per chunk, as JFR keeps its constants), so a recording cut short is readable
 * up to its last whole chunk, and one damaged in a chunk in every other whole one (names first
 * written in the damaged chunk are lost for the later ones). The recording is the only thing the agent
 * writes: JSON, text, HTML, folded stacks and pprof are made from it. Versions 2 (no SOURCE) and 3
 * (values as text, no histogram, no TRACED, SKIPPED, CLASS_FAILURE or REMOVED records), 4 (no
 * TYPE, ALLOC, FREED or LOCK records), 5 (no ALLOC_INTERVAL), 6, 7 and 8 (each event's stack
 * written in it, no STACK records), 9 (no caller stack in CALL), 10 (no callees in CALL), 11
 * (records not deflated), 12 (no parks among the LOCK kinds, no DEADLOCK records) and 13 (no
 * EVICTED_CALL records) are read too.
 *
 * <pre>
 * file    := "TPRB" u8:version u8:0 u8:0 u8:0   chunk*
 * chunk   := u32:length u32:crc32(body) body        (big-endian; length &lt;= 16 MiB)
 * body    := u64:startEpochNanos u64:endEpochNanos deflated(record*)
 *            (raw DEFLATE, RFC 1951, of the chunk's records, at most {@link #MAX_RECORDS_BYTES} inflated; before
 *            version 12 the records as they are: names repeat much, and under class churn they were most of a file)
 * record  := u8:kind ...    a definition below, or an event: every kind of event is a {@link RecordKind}
 *                           listed in {@link RecordKinds#ALL}, with its number and name there, its
 *                           fields on its codec
 *   1 METHOD        varint:id string:name              a method token and its human name
 *   2 THREAD        varlong:id string:name
 *   9 SOURCE        varint:methodId string:path           the source file of a method's class as a path from its
 *                   package root (org/foo/Bar.java), written with the method's METHOD record when known
 *  14 TYPE          varint:id string:name      a class the allocation and lock views name as their leaf frame
 *                   ({@code byte[]}, {@code com.foo.Blob}), written before the first record that uses it
 *  19 STACK         varint:id u8:truncated varint:depth (varint:methodId varint:line) * depth
 *                   a stack, leaf first (line 0: unknown), that later records of its chunk name by id;
 *                   ids count from 1 in each chunk; written before the first record that names it
 * stack   := varint:stackId     (before version 9: u8:truncated, then as STACK from its depth on; a
 *                                SAMPLE's stack had no u8:truncated, its state's STATE_TRUNCATED said it)
 * value   := u8:tag ...    ({@link CapturedValue}; at most {@link #MAX_VALUE_DEPTH} arrays deep)
 *   0 NONE  1 NULL  2 FALSE  3 TRUE  4 INT zigzag-varlong  5 FLOAT u32:bits  6 DOUBLE u64:bits
 *   7 CHAR varint  8 STRING string  9 TEXT string:prefix varint:length  10 ENUM string:type string:name
 *  11 ARRAY string:componentType varint:length varint:n value * n  12 OBJECT string:type u32:identityHash
 *   u8:hasText [string:text] u8:hasFields [varint:n (string:name value) * n varint:moreFields]
 *  13 THROWN string:type u8:hasMessage [string:message]  14 NOT_CAPTURED  15 SEEN string:type u32:identityHash
 *  16 SIZED string:type varint:size  17 JDK_VALUE string:type string:text  18 UNREADABLE string:why
 * string  := varint:byteLength utf8-bytes
 * </pre>
 *
 * Method ids are the ID map's method token ints, the same for sampled frames and traced methods;
 * 0 stands for a frame that could not be resolved. A stack cut at the sampling depth is read back
 * with a {@link Stack#TRUNCATED} root.
 */
public final class RecordingFormat {
    /** How a recording's file name ends. */
    public static final String EXTENSION = ".tpr";

    /** Whether a file of this name is a recording, not an export of one. */
    public static boolean isRecording(String fileName) {
        return fileName.endsWith(EXTENSION);
    }

    private RecordingFormat() {}

    public static final byte[] MAGIC = {'T', 'P', 'R', 'B'};
    /**
     * 7: a SAMPLE may carry how many sampling intervals of wall time it stands for ({@link #STATE_WEIGHTED}).
     * 8: a STATS may be settled ({@link MethodStats#settled()}).
     * 9: events name their stacks in the chunk's pool ({@link #STACK}).
     * 10: a CALL may name its stack ({@link #CALLER_STACKS_SINCE}).
     * 11: a CALL ends with its timed call sites ({@link #CALLEES_SINCE}).
     * 12: a chunk's records are deflated ({@link #DEFLATED_SINCE}).
     * 13: LOCK records may be parks ({@link #LOCK_PARKED}, {@link #WAIT_PARKED}); DEADLOCK records.
     * 14: EVICTED_CALL records ({@link Call#EVICTED}).
     */
    public static final int VERSION = 14;
    /** The first version that may hold EVICTED_CALL records. */
    public static final int EVICTIONS_SINCE = 14;
    /** The first version whose LOCK records may be parks and that may hold DEADLOCK records. */
    public static final int PARKS_SINCE = 13;
    /** The first version whose chunks hold their records deflated. */
    public static final int DEFLATED_SINCE = 12;
    /** The first version whose CALL records end with their callees. */
    public static final int CALLEES_SINCE = 11;
    /** The first version whose CALL records end with a stack id (0: none). */
    public static final int CALLER_STACKS_SINCE = 10;
    /** The first version whose events name their stacks by id ({@link #STACK}). */
    public static final int STACKS_SINCE = 9;
    /** The first version whose STATS may be settled ({@link MethodStats#settled()}). */
    public static final int SETTLED_SINCE = 8;
    /** The first version that may hold ALLOC, FREED and LOCK records (and TYPE definitions). */
    public static final int ALLOCATIONS_SINCE = 5;
    /** The first version that may hold ALLOC_INTERVAL records. */
    public static final int INTERVALS_SINCE = 6;
    /** The first version whose CALL records hold values (not text) and whose STATS hold a histogram; that may hold TRACED, SKIPPED, CLASS_FAILURE and REMOVED records. */
    public static final int VALUES_SINCE = 4;
    /** The oldest version this tiprobe reads (it has no SOURCE records). */
    public static final int OLDEST_READ = 2;
    public static final int HEADER_BYTES = 8;
    public static final int MAX_CHUNK_BYTES = 16 << 20;
    /** A chunk's records inflated at most: a reader refuses more, as a damaged or hostile chunk. */
    public static final int MAX_RECORDS_BYTES = 64 << 20;
    public static final int MAX_DEPTH = 4096;
    /** How deep arrays and objects' fields nest; the probe's default is one level, this leaves room for --max-depth. */
    public static final int MAX_VALUE_DEPTH = 16;

    public static final int METHOD = 1;
    public static final int THREAD = 2;
    public static final int SOURCE = 9;
    public static final int TYPE = 14;
    public static final int STACK = 19;

    /** A LOCK's kind: a thread waited to enter a monitor another thread held. */
    public static final byte LOCK_CONTENDED = 0;
    /** A LOCK's kind: a thread waited in {@code Object.wait} on a monitor. */
    public static final byte LOCK_WAIT = 1;
    /** A LOCK's kind: a thread parked to take a {@code java.util.concurrent} synchronizer that others held. */
    public static final byte LOCK_PARKED = 2;
    /** A LOCK's kind: a thread parked for a condition or an event ({@code await}, a queue's {@code take}). */
    public static final byte WAIT_PARKED = 3;

    /** Whether a LOCK of this kind is a park ({@link #LOCK_PARKED}, {@link #WAIT_PARKED}), not a monitor's wait. */
    public static boolean isPark(byte kind) {
        return kind == LOCK_PARKED || kind == WAIT_PARKED;
    }

    /** Whether a LOCK of this kind belongs to the lock view (waits for a holder), else to the wait view. */
    public static boolean inLockView(byte kind) {
        return kind == LOCK_CONTENDED || kind == LOCK_PARKED;
    }

    public static final byte VALUE_NONE = 0;
    public static final byte VALUE_NULL = 1;
    public static final byte VALUE_FALSE = 2;
    public static final byte VALUE_TRUE = 3;
    public static final byte VALUE_INT = 4;
    public static final byte VALUE_FLOAT = 5;
    public static final byte VALUE_DOUBLE = 6;
    public static final byte VALUE_CHAR = 7;
    public static final byte VALUE_STRING = 8;
    public static final byte VALUE_TEXT = 9;
    public static final byte VALUE_ENUM = 10;
    public static final byte VALUE_ARRAY = 11;
    public static final byte VALUE_OBJECT = 12;
    public static final byte VALUE_THROWN = 13;
    public static final byte VALUE_NOT_CAPTURED = 14;
    public static final byte VALUE_SEEN = 15;
    public static final byte VALUE_SIZED = 16;
    public static final byte VALUE_JDK = 17;
    public static final byte VALUE_UNREADABLE = 18;

    public static final byte STATE_RUNNABLE = 1;
    public static final byte STATE_WAITING = 2;
    public static final byte STATE_OTHER = 3;
    /** Added to a SAMPLE's state: the stack was cut at the sampling depth, its root-most frames missing. */
    public static final byte STATE_TRUNCATED = 0x40;
    /**
     * Added to a SAMPLE's state: a tick count follows its cpuNanos, the sampling intervals of the
     * thread's wall time it stands for (wall mode walks a bounded number of waiting threads a tick,
     * so a thread is looked at every few ticks); without it a sample stands for one.
     */
    public static final byte STATE_WEIGHTED = 0x20;

    // INFO keys the agent writes.
    /** The program recorded: its main class, or its jar's file name. */
    public static final String INFO_PROGRAM = "program";
    public static final String INFO_SAMPLE_MODE = "samplemode";     // wall or cpu
    public static final String INFO_INTERVAL = "intervalNanos";
    public static final String INFO_TRACE_MODE = "tracemode";       // count, time or trace
    public static final String INFO_FILTER = "filter";
    public static final String INFO_DROPPED_CALLS = "droppedCalls";
    /** Class files tracing changed (loads and retransforms). */
    public static final String INFO_CLASSES_INSTRUMENTED = "classesInstrumented";
    /** Nanoseconds tracing spent choosing and changing class files, on the threads that loaded or retransformed them. */
    public static final String INFO_INSTRUMENTING_NANOS = "instrumentingNanos";
    /** Exceptions swallowed inside probe code. */
    public static final String INFO_PROBE_FAILURES = "probeFailures";
    /** The clock time mode read, e.g. {@code time-stamp counter (2.596 ticks/ns)} or {@code System.nanoTime()}. */
    public static final String INFO_CLOCK = "clock";
    /** The overhead budget as a share of the program's CPU, e.g. 0.05 (0: none). */
    public static final String INFO_OVERHEAD_BUDGET = "overheadBudget";
    /** CPU nanoseconds threads used that no sample carries: never seen running again before sampling ended. */
    public static final String INFO_CPU_NOT_SEEN_RUNNING = "cpuNotSeenRunningNanos";
    /**
     * CPU nanoseconds (in the file: while it was written) the samples of the program's threads stood for while they ran tiprobe's code
     * (a JVMTI callback, a tracing probe): tiprobe's share, left out of every view.
     */
    public static final String INFO_OWN_WORK_NANOS = "ownWorkNanos";
    /**
     * CPU nanoseconds of the program's threads that JFR's CPU-time sampler kept no stack of (the
     * thread was in the JVM's own code, its queue was busy or full, or its stack could not be
     * walked), at least: JFR tells a thread's count at its next sample kept or as it ends. In no view.
     */
    public static final String INFO_CPU_LOST_BY_JFR_NANOS = "cpuLostByJfrNanos";
    /** How many classes tracing left unchanged because changing them failed, and the first one's reason. */
    public static final String INFO_CLASSES_LEFT_UNCHANGED = "classesLeftUnchanged";
    public static final String INFO_FIRST_CLASS_FAILURE = "firstClassFailure";
    /** Written last, when the agent finished the recording (at stop or at the JVM's exit); a recording without it was cut short. */
    public static final String INFO_ENDED = "ended";
    /** Allocation profiling's sampling interval in bytes: on average, one sample per this many bytes a thread allocates. */
    public static final String INFO_ALLOC_INTERVAL = "allocIntervalBytes";
    /** The most allocation sampling may cost, as a share of the program's CPU, e.g. 0.02 (0: no limit). */
    public static final String INFO_ALLOC_OVERHEAD = "allocOverheadBudget";
    /** "yes" when sampled objects were tracked for the live view. */
    public static final String INFO_ALLOC_LIVE = "allocLive";
    /** Allocation samples not tracked for the live view because {@code MAX_TRACKED} objects were tracked already. */
    public static final String INFO_LIVE_UNTRACKED = "liveUntracked";
    /**
     * Events (allocation samples, waits) left out because the agent's queue was full, or because
     * it followed as many virtual threads' waits as it keeps at once.
     */
    public static final String INFO_EVENTS_DROPPED = "eventsDropped";
    /** Lock profiling's threshold in nanoseconds: shorter waits are not recorded. */
    public static final String INFO_LOCK_THRESHOLD = "lockThresholdNanos";
    /**
     * Where the waits came from: {@code jfr} (JFR's monitor events inside the VM, with JVMTI's
     * events on only while long contentions want their owners named) or {@code jvmti} (JVMTI's
     * monitor events throughout, where JFR is missing: {@link #INFO_LOCK_SOURCE_WHY} says why).
     */
    public static final String INFO_LOCK_SOURCE = "lockSource";
    public static final String INFO_LOCK_SOURCE_WHY = "lockSourceWhy";
    /** {@link #INFO_LOCK_SOURCE}'s values: waits from JFR, or from JVMTI. */
    public static final String LOCK_SOURCE_JFR = "jfr";
    public static final String LOCK_SOURCE_JVMTI = "jvmti";
    /**
     * Where the stack samples came from: {@code jfr} (JFR's execution sampler for threads running
     * Java code, JVMTI walks for the others in wall mode), {@code jfr-cpu-time} (JFR's CPU-time
     * sampler: every thread by its own CPU clock, Java and native code; in wall mode those in Java
     * code, JVMTI walks for the others), or {@code jvmti} (JVMTI walks of every thread, at
     * safepoints), {@link #INFO_SAMPLE_SOURCE_WHY} saying why JFR did not run.
     */
    public static final String INFO_SAMPLE_SOURCE = "sampleSource";
    public static final String INFO_SAMPLE_SOURCE_WHY = "sampleSourceWhy";
    public static final String SAMPLE_SOURCE_JFR = "jfr";
    public static final String SAMPLE_SOURCE_JFR_CPU_TIME = "jfr-cpu-time";
    /**
     * Where another profiler handled SIGPROF, which JFR's CPU-time sampler needs, as sampling
     * began: the file its handler is in ({@code libasyncProfiler.so}). The samples are then JFR's
     * execution samples, except from a recording the JVM started ({@code tiprobe run}), which has
     * no samples of running threads.
     */
    public static final String INFO_SIGPROF_TAKEN_BY = "sigprofTakenBy";
    /** Samples read from a JFR recording (the JVM's own or async-profiler's), not taken by tiprobe. */
    public static final String SAMPLE_SOURCE_JFR_FILE = "jfr-file";
    public static final String SAMPLE_SOURCE_JVMTI = "jvmti";
    /**
     * Wall mode: whether virtual threads were sampled where they wait ({@code sampled}, under the
     * thread {@code [virtual threads]}, each sample weighing for as many as it stands for) or
     * not ({@code not sampled}, {@link #INFO_WAITING_VIRTUAL_THREADS_WHY} saying why).
     */
    public static final String INFO_WAITING_VIRTUAL_THREADS = "waitingVirtualThreads";
    public static final String INFO_WAITING_VIRTUAL_THREADS_WHY = "waitingVirtualThreadsWhy";
    public static final String WAITING_VIRTUAL_THREADS_SAMPLED = "sampled";
    public static final String WAITING_VIRTUAL_THREADS_NOT = "not sampled";
    /**
     * How long the JVM had run (nanoseconds) when sampling made HotSpot keep inlined methods'
     * debug information: code compiled before then names only what runs at safepoint polls.
     */
    public static final String INFO_COMPILED_BEFORE_NANOS = "compiledBeforeSessionNanos";
    /**
     * When the hottest code was compiled again (epoch nanoseconds), a tab, and which classes
     * (comma and space between) were retransformed so that HotSpot compiled their code again with
     * inlined methods' positions, a tab, and those left as compiled, each with why; then a tab
     * and those not retransformed because an earlier session in the JVM had compiled them again
     * (absent from older recordings).
     */
    public static final String INFO_RECOMPILED = "recompiled";
    /**
     * In a late session: after how many samples the hottest code is compiled again; 0 when the
     * user said not to ({@code --no-recompile}).
     */
    public static final String INFO_RECOMPILE_AFTER_SAMPLES = "recompileAfterSamples";
    /** A sentence naming the methods whose probes the overhead budget took out, the hottest first. */
    public static final String INFO_REMOVED_FOR_OVERHEAD = "removedForOverhead";
}
