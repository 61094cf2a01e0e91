package dev.tiprobe.agent;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The full-heap watch's count of looks, which decides when a running session stops itself. */
class HeapWatchTest {
    /**
     * A look the keeper could not take for want of room counts as a full one: in a heap that full
     * every look may fail that way, and the session still stops after three.
     */
    @Test
    void looksThatFindNoRoomCountAsFullOnes() throws Exception {
        HeapWatch heap = new HeapWatch();
        assertFalse(failed(heap, "Java heap space"));
        assertFalse(failed(heap, "Java heap space"));
        assertTrue(failed(heap, "GC overhead limit exceeded"));
        assertEquals(HeapWatch.FULL_WORDS, heap.why(), "no figures when none could be measured");
    }

    /** Running out of metaspace or native threads says nothing of the heap: not counted. */
    @Test
    void otherKindsOfOutOfMemoryAreNotCounted() throws Exception {
        HeapWatch heap = new HeapWatch();
        for (int i = 0; i < 5; i++) assertFalse(failed(heap, "Metaspace"));
        assertFalse(failed(heap, "unable to create native thread: possibly out of memory or process/resource limits reached"));
    }

    /** A failed look one round after the last, as the keeper takes them a second apart. */
    private static boolean failed(HeapWatch heap, String message) throws InterruptedException {
        Thread.sleep(510);
        return heap.lookFailed(new OutOfMemoryError(message));
    }

    /** A look that finds room (this test's heap has plenty) starts the count again. */
    @Test
    void aLookThatFindsRoomStartsTheCountAgain() throws Exception {
        HeapWatch heap = new HeapWatch();
        failed(heap, "Java heap space");
        failed(heap, "Java heap space");
        assertFalse(heap.look());
        assertFalse(heap.lookFailed(new OutOfMemoryError("Java heap space")), "the same round as a look: not counted again");
        assertFalse(failed(heap, "Java heap space"));
        assertFalse(failed(heap, "Java heap space"));
        assertTrue(failed(heap, "Java heap space"));
    }

    /**
     * A heap the application itself keeps at 84 % (just under {@link HeapWatch#FULL}) with its
     * collector running most of the time is nearly full; the same heap with a quiet collector, or
     * a busy collector in a roomy heap, is not.
     */
    @Test
    void aCrowdedHeapWhoseCollectorThrashesIsNearlyFull() {
        assertTrue(HeapWatch.nearlyFull(0.84, 0.9));
        assertTrue(HeapWatch.nearlyFull(0.86, 0));
        assertFalse(HeapWatch.nearlyFull(0.84, 0.05));
        assertFalse(HeapWatch.nearlyFull(0.50, 0.9));
        assertEquals(0.5, HeapWatch.busyShare(100, 600, 1_000_000_000L), 1e-9, "500 ms of pauses in a second");
        assertEquals(0, HeapWatch.busyShare(-1, 600, 1_000_000_000L), "unknown pauses: not busy");
    }
}
