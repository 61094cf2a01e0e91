package dev.tiprobe.recording;

/** A class tracing could not change: the class and why, in one sentence. */
public record ClassFailure(String reason) {
    /** {@code string:reason}. */
    public static final RecordKind<ClassFailure> KIND =
            RecordKind.ofString(12, ClassFailure.class, RecordingFormat.VALUES_SINCE, ClassFailure::reason, ClassFailure::new);
}
