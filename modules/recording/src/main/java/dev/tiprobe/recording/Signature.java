package dev.tiprobe.recording;

import dev.tiprobe.recording.Wire.Malformed;

/**
 * A traced method as the filter chose it: its class's binary name, its name and descriptor, and
 * the name the reports show (with the parameters' names where the class file keeps them). Written
 * before the method's first figures.
 */
public record Signature(int methodId, String className, String methodName, String descriptor, String displayName) {
    /** {@code varint:methodId string:className string:methodName string:descriptor string:displayName}. */
    public static final RecordKind<Signature> KIND = new RecordKind<>(10, Signature.class, RecordingFormat.VALUES_SINCE) {
        @Override
        public void write(Signature e, RecordOut out) {
            out.method(e.methodId);
            out.string(e.className);
            out.string(e.methodName);
            out.string(e.descriptor);
            out.string(e.displayName);
        }

        @Override
        public Signature read(RecordIn in) throws Malformed {
            return new Signature(in.method(), in.string(), in.string(), in.string(), in.string());
        }
    };
}
