package dev.tiprobe.recording;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Parks classed as JDK 25 parks them: the frames are those JFR records for each synchronizer. */
class ParksTest {
    private static final String AQS = "java.util.concurrent.locks.AbstractQueuedSynchronizer";

    private static Parks.Frame f(String className, String method) {
        return new Parks.Frame(className, method);
    }

    private static final Parks.Frame UNSAFE = f("jdk.internal.misc.Unsafe", "park");
    private static final Parks.Frame PARK = f("java.util.concurrent.locks.LockSupport", "park");
    private static final Parks.Frame CALLER = f("app.Ledger", "post");

    @Test
    void aReentrantLockIsALockCreditedWhereTheProgramCalledIn() {
        Parks.Park p = Parks.classify("java.util.concurrent.locks.ReentrantLock$NonfairSync", List.of(UNSAFE, PARK, f(AQS, "acquire"),
                f(AQS, "acquire"), f("java.util.concurrent.locks.ReentrantLock$Sync", "lock"),
                f("java.util.concurrent.locks.ReentrantLock", "lock"), CALLER));
        assertEquals(new Parks.Park(RecordingFormat.LOCK_PARKED, "java.util.concurrent.locks.ReentrantLock", 5), p);
    }

    @Test
    void semaphoresAndStampedLocksAreLocks() {
        assertEquals(RecordingFormat.LOCK_PARKED, Parks.classify("java.util.concurrent.Semaphore$FairSync",
                List.of(UNSAFE, PARK, f(AQS, "acquire"), f(AQS, "acquireSharedInterruptibly"), f("java.util.concurrent.Semaphore", "acquire"),
                        CALLER)).kind());
        Parks.Park stamped = Parks.classify("java.util.concurrent.locks.StampedLock", List.of(UNSAFE, PARK,
                f("java.util.concurrent.locks.StampedLock", "acquireWrite"), f("java.util.concurrent.locks.StampedLock", "writeLock"), CALLER));
        assertEquals(new Parks.Park(RecordingFormat.LOCK_PARKED, "java.util.concurrent.locks.StampedLock", 3), stamped);
    }

    @Test
    void conditionsLatchesQueuesAndBareParksAreWaits() {
        Parks.Park queue = Parks.classify(AQS + "$ConditionObject", List.of(UNSAFE, PARK, f(AQS + "$ConditionObject", "await"),
                f("java.util.concurrent.LinkedBlockingQueue", "take"), CALLER));
        assertEquals(new Parks.Park(RecordingFormat.WAIT_PARKED, AQS + "$ConditionObject", 3), queue);
        assertEquals(RecordingFormat.WAIT_PARKED, Parks.classify("java.util.concurrent.CountDownLatch$Sync", List.of(UNSAFE, PARK,
                f(AQS, "acquire"), f(AQS, "acquireSharedInterruptibly"), f("java.util.concurrent.CountDownLatch", "await"), CALLER)).kind());
        assertEquals(new Parks.Park(RecordingFormat.WAIT_PARKED, "[no blocker]", 1),
                Parks.classify(null, List.of(UNSAFE, f("java.util.concurrent.locks.LockSupport", "parkNanos"), CALLER)));
    }

    /** A pinned virtual thread's park, as JFR records it: no blocker, the carrier's park on top. */
    @Test
    void aPinnedVirtualThreadWaitingForALockIsALockNamedByTheApiItCalled() {
        Parks.Park pinned = Parks.classify(null, List.of(f("java.lang.VirtualThread", "parkOnCarrierThread"), f("java.lang.VirtualThread", "park"),
                f("java.lang.System$1", "parkVirtualThread"), PARK, f(AQS, "acquire"), f(AQS, "acquire"),
                f("java.util.concurrent.locks.ReentrantLock$Sync", "lock"), f("java.util.concurrent.locks.ReentrantLock", "lock"), CALLER));
        assertEquals(new Parks.Park(RecordingFormat.LOCK_PARKED, "java.util.concurrent.locks.ReentrantLock", 7), pinned);
    }

    /** A pinned virtual thread's latch: no blocker, an acquire, and still a wait. */
    @Test
    void aPinnedLatchIsAWait() {
        Parks.Park latch = Parks.classify(null, List.of(f("java.lang.VirtualThread", "parkOnCarrierThread"), f("java.lang.VirtualThread", "park"),
                f("java.lang.System$1", "parkVirtualThread"), PARK, f(AQS, "acquire"), f(AQS, "acquireSharedInterruptibly"),
                f("java.util.concurrent.CountDownLatch", "await"), CALLER));
        assertEquals(new Parks.Park(RecordingFormat.WAIT_PARKED, "java.util.concurrent.CountDownLatch", 6), latch);
    }

    /** A park read back from tiprobe's JFR export: named by its synchronizer, its stack cut at the call already. */
    @Test
    void aParkReadBackFromAnExportKeepsItsKind() {
        assertEquals(new Parks.Park(RecordingFormat.LOCK_PARKED, "java.util.concurrent.locks.ReentrantLock", 0),
                Parks.classify("java.util.concurrent.locks.ReentrantLock", List.of(f("java.util.concurrent.locks.ReentrantLock", "lock"), CALLER)));
        assertEquals(RecordingFormat.WAIT_PARKED, Parks.classify(AQS + "$ConditionObject",
                List.of(f("java.util.concurrent.LinkedBlockingQueue", "take"), CALLER)).kind());
    }

    @Test
    void aProgramsOwnSynchronizerIsALockUnderItsOwnName() {
        Parks.Park own = Parks.classify("app.Gate$Sync", List.of(UNSAFE, PARK, f(AQS, "acquire"), f(AQS, "acquire"), f("app.Gate", "enter")));
        assertEquals(new Parks.Park(RecordingFormat.LOCK_PARKED, "app.Gate$Sync", 3), own);
    }
}
