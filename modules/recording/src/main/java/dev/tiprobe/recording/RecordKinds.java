package dev.tiprobe.recording;

import java.util.List;

/**
 * Every kind of event record, by which the reader finds a record's codec from its first byte, and
 * without which the writer writes none. By number, with the names the format's history uses:
 *
 * <pre>
 *   3 SAMPLE         {@link Sample}          11 SKIPPED        {@link Skipped}
 *   4 CLASS_LOAD     {@link ClassEvent}      12 CLASS_FAILURE  {@link ClassFailure}
 *   5 CLASS_UNLOAD   {@link ClassEvent}      13 REMOVED        {@link Removed}
 *   6 INFO           {@link Info}            15 ALLOC          {@link Allocation}
 *   7 STATS          {@link MethodStats}     16 FREED          {@link Freed}
 *   8 CALL           {@link Call}            17 LOCK           {@link LockWait}
 *  10 TRACED         {@link Signature}       18 ALLOC_INTERVAL {@link AllocInterval}
 *                                            20 DEADLOCK       {@link Deadlock}
 *                                            21 EVICTED_CALL   {@link Call.Id}
 * </pre>
 *
 * (1, 2, 9, 14 and 19 are the format's definitions, {@link RecordingFormat}.)
 */
public final class RecordKinds {
    private RecordKinds() {}

    public static final List<RecordKind<?>> ALL = List.of(
            Sample.KIND, ClassEvent.LOADED, ClassEvent.UNLOADED, Info.KIND, MethodStats.KIND, Call.KIND, Signature.KIND,
            Skipped.KIND, ClassFailure.KIND, Removed.KIND, Allocation.KIND, Freed.KIND, LockWait.KIND, AllocInterval.KIND,
            Deadlock.KIND, Call.EVICTED);

    private static final RecordKind<?>[] BY_NUMBER = new RecordKind<?>[128];

    static {
        java.util.Set<Integer> definitions = java.util.Set.of(RecordingFormat.METHOD, RecordingFormat.THREAD, RecordingFormat.SOURCE,
                RecordingFormat.TYPE, RecordingFormat.STACK);
        for (RecordKind<?> kind : ALL) {
            if (definitions.contains(kind.number())) throw new IllegalStateException(kind + " has the number of a definition");
            if (BY_NUMBER[kind.number()] != null) throw new IllegalStateException(kind + " has the number of " + BY_NUMBER[kind.number()]);
            BY_NUMBER[kind.number()] = kind;
        }
    }

    /** The kind of records starting with {@code number}, or null. */
    public static RecordKind<?> of(int number) {
        return number >= 0 && number < BY_NUMBER.length ? BY_NUMBER[number] : null;
    }
}
