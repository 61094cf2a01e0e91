package dev.tiprobe.recording;

import dev.tiprobe.recording.Wire.Malformed;

/**
 * A traced call written earlier that the session's sample of calls let go for a later one
 * ({@code --max-calls}): the reader leaves it out, so the calls read are the sample the session
 * kept at its end, however often their figures were written meanwhile. Names the call by its
 * thread, its start and its depth, which no other call of that thread shares.
 */
public record EvictedCall(long threadId, long startEpochNanos, int depth) {
    /** The call {@code c} as an eviction names it. */
    public static EvictedCall of(Call c) {
        return new EvictedCall(c.threadId(), c.startEpochNanos(), c.depth());
    }

    /**
     * {@code varlong:threadId varlong:startEpochNanos varint:depth}: the start as it is, not from the
     * chunk's start, as the call began long before the eviction was written.
     */
    public static final RecordKind<EvictedCall> KIND = new RecordKind<>(21, EvictedCall.class, RecordingFormat.EVICTIONS_SINCE) {
        @Override
        public void write(EvictedCall e, RecordOut out) {
            out.varlong(e.threadId);
            out.varlong(e.startEpochNanos);
            out.varlong(e.depth);
        }

        @Override
        public EvictedCall read(RecordIn in) throws Malformed {
            long thread = in.varlong();
            long start = in.varlong();
            long depth = in.varlong();
            if (depth > Integer.MAX_VALUE) throw new Malformed("bad call depth " + depth);
            return new EvictedCall(thread, start, (int) depth);
        }
    };
}
