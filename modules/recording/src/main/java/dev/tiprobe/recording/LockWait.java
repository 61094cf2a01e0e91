package dev.tiprobe.recording;

import dev.tiprobe.recording.Wire.Malformed;

/**
 * A wait on a monitor or synchronizer of class {@code typeName} that ended at {@code epochNanos}
 * after {@code waitNanos}: {@code kind} {@link RecordingFormat#LOCK_CONTENDED}, {@link
 * RecordingFormat#LOCK_WAIT}, {@link RecordingFormat#LOCK_PARKED} or {@link
 * RecordingFormat#WAIT_PARKED}; the waiter's stack; for a long contention the thread holding the
 * lock ({@code ownerThreadId} 0: not known) and its stack when the wait had lasted the threshold
 * ({@link Stack#NONE}: not taken). Read back, {@code typeId} is the id the recording gave the
 * class; an engine leaves it 0.
 */
public record LockWait(long epochNanos, long threadId, String threadName, byte kind, int typeId, String typeName, long waitNanos,
                       Stack stack, long ownerThreadId, String ownerName, Stack ownerStack) {
    public LockWait {
        if (ownerStack == null) ownerStack = Stack.NONE;
    }

    /** A wait as an engine sees it, before the recording names its class by an id. */
    public LockWait(long epochNanos, long threadId, String threadName, byte kind, String typeName, long waitNanos, Stack stack,
                    long ownerThreadId, String ownerName, Stack ownerStack) {
        this(epochNanos, threadId, threadName, kind, 0, typeName, waitNanos, stack, ownerThreadId, ownerName, ownerStack);
    }

    public int[] frames() {
        return stack.frames();
    }

    public int[] lines() {
        return stack.lines();
    }

    public int[] ownerFrames() {
        return ownerStack.frames();
    }

    public int[] ownerLines() {
        return ownerStack.lines();
    }

    /**
     * {@code varlong:nanosAfterStart varlong:threadId u8:kind varint:typeId varlong:waitNanos stack
     * varlong:ownerThreadId [stack, when ownerThreadId is not 0]}; parks (kinds 2 and 3) from version 13 on.
     */
    public static final RecordKind<LockWait> KIND = new RecordKind<>(17, LockWait.class, RecordingFormat.ALLOCATIONS_SINCE) {
        @Override
        public void write(LockWait w, RecordOut out) {
            out.time(w.epochNanos);
            out.thread(w.threadId, w.threadName);
            out.u8(w.kind);
            out.type(w.typeName);
            out.varlong(w.waitNanos);
            out.stack(w.stack);
            if (w.ownerThreadId == 0) {
                out.varlong(0);
            } else {
                out.thread(w.ownerThreadId, w.ownerName);
                out.stack(w.ownerStack);
            }
        }

        @Override
        public LockWait read(RecordIn in) throws Malformed {
            long time = in.time();
            long thread = in.thread();
            int kind = in.u8();
            int last = in.version() >= RecordingFormat.PARKS_SINCE ? RecordingFormat.WAIT_PARKED : RecordingFormat.LOCK_WAIT;
            if (kind > last) throw new Malformed("bad lock kind " + kind);
            int type = in.type();
            long wait = in.varlong();
            Stack stack = in.stack();
            long owner = in.thread();
            Stack ownerStack = owner == 0 ? Stack.NONE : in.stack();
            return new LockWait(time, thread, in.threadName(thread), (byte) kind, type, in.typeName(type), wait, stack, owner,
                    owner == 0 ? null : in.threadName(owner), ownerStack);
        }
    };
}
