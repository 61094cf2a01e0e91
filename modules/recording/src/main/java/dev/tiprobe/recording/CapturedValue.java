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

    /** Any other object: its class, identity hash, and {@code toString()} when the user asked for it (else null). */
    record Obj(String type, int identityHash, String text) implements CapturedValue {}

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
