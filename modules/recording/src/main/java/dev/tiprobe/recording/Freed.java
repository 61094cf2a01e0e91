package dev.tiprobe.recording;

/** An object tracked for the live view (an allocation sample with this tag) was collected. */
public record Freed(long tag) {
    /** {@code varlong:tag}. */
    public static final RecordKind<Freed> KIND = RecordKind.ofNumber(16, Freed.class, RecordingFormat.ALLOCATIONS_SINCE, Freed::tag, Freed::new);
}
