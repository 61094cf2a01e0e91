package dev.tiprobe.recording;

import dev.tiprobe.recording.Wire.Malformed;

/** A method the filter chose that tracing left unchanged, and why. */
public record Skipped(String className, String methodName, String descriptor, String reason) {
    /** {@code string:className string:methodName string:descriptor string:reason}. */
    public static final RecordKind<Skipped> KIND = new RecordKind<>(11, Skipped.class, RecordingFormat.VALUES_SINCE) {
        @Override
        public void write(Skipped e, RecordOut out) {
            out.string(e.className);
            out.string(e.methodName);
            out.string(e.descriptor);
            out.string(e.reason);
        }

        @Override
        public Skipped read(RecordIn in) throws Malformed {
            return new Skipped(in.string(), in.string(), in.string(), in.string());
        }
    };
}
