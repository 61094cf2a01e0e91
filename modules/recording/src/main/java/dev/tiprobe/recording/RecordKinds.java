package dev.tiprobe.recording;

import java.util.List;

/** Every kind of event record, by which the reader finds a record's codec from its first byte. */
public final class RecordKinds {
    private RecordKinds() {}

    public static final List<RecordKind<?>> ALL = List.of(
            Sample.KIND, ClassEvent.LOADED, ClassEvent.UNLOADED, Info.KIND, MethodStats.KIND, Call.KIND, Signature.KIND,
            Skipped.KIND, ClassFailure.KIND, Removed.KIND, Allocation.KIND, Freed.KIND, LockWait.KIND, AllocInterval.KIND,
            Deadlock.KIND);

    private static final RecordKind<?>[] BY_NUMBER = new RecordKind<?>[128];

    static {
        for (RecordKind<?> kind : ALL) {
            if (BY_NUMBER[kind.number()] != null) throw new IllegalStateException(kind + " has the number of " + BY_NUMBER[kind.number()]);
            BY_NUMBER[kind.number()] = kind;
        }
    }

    /** The kind of records starting with {@code number}, or null. */
    public static RecordKind<?> of(int number) {
        return number >= 0 && number < BY_NUMBER.length ? BY_NUMBER[number] : null;
    }
}
