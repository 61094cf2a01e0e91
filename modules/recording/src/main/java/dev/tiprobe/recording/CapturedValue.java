package dev.tiprobe.recording;

import java.util.List;

/**
 * An argument, result or thrown exception of a traced call as the recording keeps it: the
 * structure the probe captured (numbers as numbers, a long string's prefix and length, an array's
 * first elements), so every export (JSON, text, the page) shows it the same way. The agent builds
 * these from what the probe captured; the reader gives them back.
 */
public sealed interface CapturedValue {
    /** No value: a void method's result, or the result of a call still running. */
    record None() implements CapturedValue {}

    record Null() implements CapturedValue {}

    record Bool(boolean value) implements CapturedValue {}

    /** A byte, short, int or long. */
    record Int(long value) implements CapturedValue {}

    record Float32(float value) implements CapturedValue {}

    record Float64(double value) implements CapturedValue {}

    record Char(char value) implements CapturedValue {}

    /** A string within the capture limit. */
    record Str(String value) implements CapturedValue {}

    /** A string longer than the limit: its first characters and its full length. */
    record Text(String prefix, int length) implements CapturedValue {}

    record EnumConstant(String type, String name) implements CapturedValue {}

    /** An array: its component type (a Java name), its length, and its first elements. */
    record Array(String componentType, int length, List<CapturedValue> first) implements CapturedValue {
        public Array {
            first = List.copyOf(first);
        }
    }

    /**
     * Any other object: its class, identity hash, {@code toString()} when the user asked for it
     * (else null), and its fields as read at the call (null when not read: past the depth), with
     * how many more it has than were kept.
     */
    record Obj(String type, int identityHash, String text, List<Field> fields, int moreFields) implements CapturedValue {
        public Obj {
            fields = fields == null ? null : List.copyOf(fields);
        }

        /** An object shown by class and identity only. */
        public Obj(String type, int identityHash, String text) {
            this(type, identityHash, text, null, 0);
        }
    }

    /** A field of an object, and its value. */
    record Field(String name, CapturedValue value) {}

    /** An object met again within the same value (a cycle, a shared object): named, not followed. */
    record Seen(String type, int identityHash) implements CapturedValue {}

    /** A collection or map of the JDK's: its class and size. */
    record Sized(String type, int size) implements CapturedValue {}

    /** A value class of the JDK's (BigDecimal, UUID, java.time): its own text. */
    record JdkValue(String type, String text) implements CapturedValue {}

    /** A field that could not be read, and why. */
    record Unreadable(String why) implements CapturedValue {}

    /** What a call threw: the exception's class and message (null when it had none). */
    record Thrown(String type, String message) implements CapturedValue {}

    /** Not captured: probe code was already running on the thread. */
    record NotCaptured() implements CapturedValue {}

    /** A value as a recording of format version 3 or older kept it: as text only. Never written. */
    record Shown(String text) implements CapturedValue {}

    CapturedValue NONE = new None();
    CapturedValue NULL = new Null();
    CapturedValue NOT_CAPTURED = new NotCaptured();
}
