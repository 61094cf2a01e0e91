package dev.tiprobe.report;

/**
 * The recording format, version 1. A file is a header and chunks; each chunk is complete in
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
 *   3 SAMPLE        varlong:nanosAfterStart varlong:threadId u8:state varlong:weight
 *                   varint:depth varint:methodId * depth     (leaf first)
 *   4 CLASS_LOAD    varlong:nanosAfterStart string:className
 *   5 CLASS_UNLOAD  varlong:nanosAfterStart string:className
 * string  := varint:byteLength utf8-bytes
 * </pre>
 *
 * Method ids are the ID map's method token ints; 0 stands for a frame that could not be
 * resolved. A SAMPLE's state is {@link #STATE_RUNNABLE}, {@link #STATE_WAITING} or
 * {@link #STATE_OTHER}; its weight is 1 in wall mode and the CPU nanoseconds used since the last
 * sample in cpu mode.
 */
public final class RecordingFormat {
    private RecordingFormat() {}

    public static final byte[] MAGIC = {'T', 'P', 'R', 'B'};
    public static final int VERSION = 1;
    public static final int HEADER_BYTES = 8;
    public static final int MAX_CHUNK_BYTES = 16 << 20;
    public static final int MAX_DEPTH = 4096;

    public static final int METHOD = 1;
    public static final int THREAD = 2;
    public static final int SAMPLE = 3;
    public static final int CLASS_LOAD = 4;
    public static final int CLASS_UNLOAD = 5;

    public static final byte STATE_RUNNABLE = 1;
    public static final byte STATE_WAITING = 2;
    public static final byte STATE_OTHER = 3;
}
