package dev.tiprobe.recording;

import dev.tiprobe.recording.Wire.Malformed;

/**
 * A sampled allocation of one object of class {@code typeName} and {@code size} bytes, by a thread
 * at a stack. {@code tag} is not 0 when the object is tracked for the live view (a {@link Freed}
 * with the same tag tells it was collected). Read back, {@code typeId} is the id the recording
 * gave the class (the views' leaf frame, the JSON's type) and {@code intervalBytes} the sampling
 * interval in force then (0: not known); the writer gives both itself, so an engine leaves them 0.
 */
public record Allocation(long epochNanos, long threadId, String threadName, int typeId, String typeName, long size, long tag,
                         Stack stack, long intervalBytes) {
    /** An allocation as an engine sees it, before the recording names its class by an id. */
    public Allocation(long epochNanos, long threadId, String threadName, String typeName, long size, long tag, Stack stack) {
        this(epochNanos, threadId, threadName, 0, typeName, size, tag, stack, 0);
    }

    public int[] frames() {
        return stack.frames();
    }

    public int[] lines() {
        return stack.lines();
    }

    /**
     * The bytes this sample stands for: {@code size / (1 - e^(-size/interval))}, the chance of a
     * {@code size}-byte object being sampled inverted (large objects are nearly always sampled and
     * stand for themselves; small ones for about the interval). async-profiler scales the same way.
     */
    public long estimatedBytes() {
        if (intervalBytes <= 0 || size <= 0) return Math.max(1, size);
        double p = -Math.expm1(-(double) size / intervalBytes);
        return Math.max(size, Math.round(size / p));
    }

    /** This sample taken under a sampling interval of {@code bytes}. */
    public Allocation withInterval(long bytes) {
        return new Allocation(epochNanos, threadId, threadName, typeId, typeName, size, tag, stack, bytes);
    }

    /** {@code varlong:nanosAfterStart varlong:threadId varint:typeId varlong:size varlong:tag stack}. */
    public static final RecordKind<Allocation> KIND = new RecordKind<>(15, Allocation.class, RecordingFormat.ALLOCATIONS_SINCE) {
        @Override
        public void write(Allocation a, RecordOut out) {
            out.time(a.epochNanos);
            out.thread(a.threadId, a.threadName);
            out.type(a.typeName);
            out.varlong(a.size);
            out.varlong(a.tag);
            out.stack(a.stack);
        }

        @Override
        public Allocation read(RecordIn in) throws Malformed {
            long time = in.time();
            long thread = in.thread();
            int type = in.type();
            long size = in.varlong();
            long tag = in.varlong();
            return new Allocation(time, thread, in.threadName(thread), type, in.typeName(type), size, tag, in.stack(), 0);
        }
    };
}
