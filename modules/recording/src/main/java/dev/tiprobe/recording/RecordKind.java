package dev.tiprobe.recording;

import dev.tiprobe.recording.Wire.Malformed;

import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.function.ToLongFunction;

/**
 * A kind of event record: its number in the format, the event type it carries, the first format
 * version that may hold it, and its codec, how the event's fields are written and read back. The
 * writer and the reader know no kind by name: a new kind is an event type with its codec, listed
 * in {@link RecordKinds#ALL}. The names, methods, types and stacks an event refers to are the
 * format's own definitions ({@link RecordOut}, {@link RecordIn}), written once before the first
 * record that needs them.
 *
 * @param <E> the event type; two kinds may carry one type (a class's load and its unload)
 */
public abstract class RecordKind<E> {
    private final int number;
    private final Class<E> type;
    private final int since;

    /** A kind that recordings of every version this tiprobe reads may hold. */
    protected RecordKind(int number, Class<E> type) {
        this(number, type, RecordingFormat.OLDEST_READ);
    }

    /** A kind that recordings of version {@code since} on may hold: in an older one it is damage. */
    protected RecordKind(int number, Class<E> type, int since) {
        this.number = number;
        this.type = type;
        this.since = since;
    }

    /** The byte that starts its records. */
    public final int number() {
        return number;
    }

    public final Class<E> type() {
        return type;
    }

    /** The first format version whose recordings may hold it. */
    public final int since() {
        return since;
    }

    /** Writes the event's fields; what they name is defined through {@code out} as they are written. */
    public abstract void write(E event, RecordOut out);

    /**
     * Reads an event written by {@link #write} (in the current version) or by an older writer
     * ({@link RecordIn#version()}); throws {@link Malformed} for anything a writer cannot have written.
     */
    public abstract E read(RecordIn in) throws Malformed;

    /** A kind whose events are one string: {@code string}. */
    public static <E> RecordKind<E> ofString(int number, Class<E> type, int since, Function<E, String> field, Function<String, E> event) {
        return new RecordKind<>(number, type, since) {
            @Override
            public void write(E e, RecordOut out) {
                out.string(field.apply(e));
            }

            @Override
            public E read(RecordIn in) throws Malformed {
                return event.apply(in.string());
            }
        };
    }

    /** A kind whose events are one number: {@code varlong}. */
    public static <E> RecordKind<E> ofNumber(int number, Class<E> type, int since, ToLongFunction<E> field, LongFunction<E> event) {
        return new RecordKind<>(number, type, since) {
            @Override
            public void write(E e, RecordOut out) {
                out.varlong(field.applyAsLong(e));
            }

            @Override
            public E read(RecordIn in) throws Malformed {
                return event.apply(in.varlong());
            }
        };
    }

    @Override
    public String toString() {
        return type.getSimpleName() + " (record " + number + ")";
    }
}
