package dev.tiprobe.recording;

import dev.tiprobe.recording.Wire.Malformed;

/** A class tracing could not change: the class and why, in one sentence. */
public record ClassFailure(String reason) {
    /** {@code string:reason}. */
    public static final RecordKind<ClassFailure> KIND = new RecordKind<>(12, ClassFailure.class, RecordingFormat.VALUES_SINCE) {
        @Override
        public void write(ClassFailure e, RecordOut out) {
            out.string(e.reason);
        }

        @Override
        public ClassFailure read(RecordIn in) throws Malformed {
            return new ClassFailure(in.string());
        }
    };
}
