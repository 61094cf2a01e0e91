package dev.tiprobe.recording;

/**
 * Where a {@link RecordKind} writes one event's fields. What a field names (a thread, a method, a
 * class, a stack) is defined the first time the file or chunk meets it, ahead of the record, and
 * the record holds its id. The format's numbers are never negative: {@link #varlong} writes a
 * negative one as 0 (a reader refuses a negative number, and with it the chunk).
 */
public interface RecordOut {
    /** A moment, as nanoseconds after its chunk's start (0 for one stamped before it). */
    void time(long epochNanos);

    void varlong(long v);

    void u8(int v);

    void string(String s);

    void value(CapturedValue v);

    /** A thread's id, its name defined with it the first time. */
    void thread(long id, String name);

    /** A method token's id, its name (and source file) defined the first time. */
    void method(int id);

    /** A class named by allocation and lock events, as the id its name is defined under. */
    void type(String name);

    /** A stack, as its id in the chunk's pool (defining its frames' methods the first time). */
    void stack(Stack stack);

    /** As {@link #stack}, or 0 for none: a stack of no frame that was not cut ({@link RecordIn#optionalStack}). */
    void optionalStack(Stack stack);
}
