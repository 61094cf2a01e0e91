package dev.tiprobe.recording;

import dev.tiprobe.recording.Wire.Malformed;

/** An object tracked for the live view (an allocation sample with this tag) was collected. */
public record Freed(long tag) {
    /** {@code varlong:tag}. */
    public static final RecordKind<Freed> KIND = new RecordKind<>(16, Freed.class, RecordingFormat.ALLOCATIONS_SINCE) {
        @Override
        public void write(Freed e, RecordOut out) {
            out.varlong(e.tag);
        }

        @Override
        public Freed read(RecordIn in) throws Malformed {
            return new Freed(in.varlong());
        }
    };
}
