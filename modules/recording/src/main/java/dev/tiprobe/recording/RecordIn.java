package dev.tiprobe.recording;

import dev.tiprobe.recording.Wire.Malformed;

/**
 * Where a {@link RecordKind} reads one event's fields back, in the order it wrote them, with
 * what they name resolved from the definitions before them. Each read checks what it can: a
 * field past the chunk's end throws {@link java.nio.BufferUnderflowException}, anything else no
 * writer wrote {@link Malformed}.
 */
public interface RecordIn {
    /** The format version of the recording being read. */
    int version();

    /** A moment written by {@link RecordOut#time}, in epoch nanoseconds. */
    long time() throws Malformed;

    long varlong() throws Malformed;

    /** A byte, as written by {@link RecordOut#u8}. */
    int u8();

    String string() throws Malformed;

    /** A captured value (text before version {@link RecordingFormat#VALUES_SINCE}). */
    CapturedValue value() throws Malformed;

    /** A count of items that take at least {@code minBytes} each: more than the record holds is malformed. */
    int count(String what, int minBytes) throws Malformed;

    /** A thread's id ({@link RecordOut#thread}). */
    long thread() throws Malformed;

    /** The name a thread was defined with, or null. */
    String threadName(long id);

    /** A method token's id ({@link RecordOut#method}), never 0 or negative. */
    int method() throws Malformed;

    /** A class's id ({@link RecordOut#type}). */
    int type() throws Malformed;

    /** The name a class was defined with, or null. */
    String typeName(int id);

    /** A stack ({@link RecordOut#stack}), as read: {@link Stack#frames()} ends with {@link Stack#TRUNCATED} when it was cut. */
    Stack stack() throws Malformed;

    /**
     * A stack whose record says itself whether it was cut: as {@link #stack()} from version
     * {@link RecordingFormat#STACKS_SINCE} on; before, its frames followed without a byte of their own.
     */
    Stack stack(boolean truncated) throws Malformed;

    /** A stack id that is 0 for none ({@link Stack#NONE}). */
    Stack optionalStack() throws Malformed;
}
