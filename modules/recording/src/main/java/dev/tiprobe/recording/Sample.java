package dev.tiprobe.recording;

import dev.tiprobe.recording.Wire.Malformed;

/**
 * A stack sample of a thread: its state ({@link RecordingFormat#STATE_RUNNABLE},
 * {@link RecordingFormat#STATE_WAITING} or {@link RecordingFormat#STATE_OTHER}); the CPU time it
 * used since the sampler last looked at it (0 when unknown or not running), so one recording gives
 * both a wall view (samples counted) and a cpu view (samples weighted by it); and the sampling
 * intervals of its wall time it stands for (wall mode walks a bounded number of waiting threads a
 * tick, so a thread is looked at every few ticks).
 */
public record Sample(long epochNanos, long threadId, String threadName, byte state, long cpuNanos, long ticks, Stack stack) {
    /** The stack's method ids, leaf first, as read back ({@link Stack#read}). */
    public int[] frames() {
        return stack.frames();
    }

    /** The stack's source lines (0: unknown), as read back. */
    public int[] lines() {
        return stack.lines();
    }

    /**
     * {@code varlong:nanosAfterStart varlong:threadId u8:state varlong:cpuNanos [varlong:ticks, when
     * state has STATE_WEIGHTED] stack}; the state has {@link RecordingFormat#STATE_TRUNCATED} added
     * when the stack was cut (before version 9 the stack's frames followed, without a byte of its own).
     */
    public static final RecordKind<Sample> KIND = new RecordKind<>(3, Sample.class) {
        @Override
        public void write(Sample s, RecordOut out) {
            out.time(s.epochNanos);
            out.thread(s.threadId, s.threadName);
            boolean cut = s.stack.truncated() || s.stack.depth() > RecordingFormat.MAX_DEPTH;
            int flags = cut ? s.state | RecordingFormat.STATE_TRUNCATED : s.state;
            out.u8(s.ticks != 1 ? flags | RecordingFormat.STATE_WEIGHTED : flags);
            out.varlong(s.cpuNanos);
            if (s.ticks != 1) out.varlong(s.ticks);
            out.stack(s.stack);
        }

        @Override
        public Sample read(RecordIn in) throws Malformed {
            long time = in.time();
            long thread = in.thread();
            int flags = in.u8();
            byte state = (byte) (flags & ~(RecordingFormat.STATE_TRUNCATED | RecordingFormat.STATE_WEIGHTED));
            long cpuNanos = in.varlong();
            long ticks = (flags & RecordingFormat.STATE_WEIGHTED) != 0 ? in.varlong() : 1;
            Stack stack = in.stack((flags & RecordingFormat.STATE_TRUNCATED) != 0);
            return new Sample(time, thread, in.threadName(thread), state, cpuNanos, ticks, stack);
        }
    };
}
