package dev.tiprobe.recording;

import dev.tiprobe.recording.Wire.Malformed;

/**
 * Allocation sampling's interval from {@code epochNanos} on (the overhead budget raised or lowered
 * it); until the first one, the interval is the INFO {@link RecordingFormat#INFO_ALLOC_INTERVAL}.
 */
public record AllocInterval(long epochNanos, long intervalBytes) {
    /** {@code varlong:nanosAfterStart varlong:intervalBytes}. */
    public static final RecordKind<AllocInterval> KIND = new RecordKind<>(18, AllocInterval.class, RecordingFormat.INTERVALS_SINCE) {
        @Override
        public void write(AllocInterval e, RecordOut out) {
            out.time(e.epochNanos);
            out.varlong(e.intervalBytes);
        }

        @Override
        public AllocInterval read(RecordIn in) throws Malformed {
            return new AllocInterval(in.time(), in.varlong());
        }
    };
}
