package dev.tiprobe.agent;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The full-heap watch's count of looks, which decides when a running session stops itself. */
class HeapWatchTest {
    /**
     * A look the keeper could not take for want of room counts as a full one: in a heap that full
     * every look may fail that way, and the session still stops after three.
     */
    @Test
    void looksThatFindNoRoomCountAsFullOnes() {
        HeapWatch heap = new HeapWatch();
        assertFalse(heap.lookFailed());
        assertFalse(heap.lookFailed());
        assertTrue(heap.lookFailed());
        assertTrue(heap.why().startsWith("the target's heap is 100 % full after its last collection (of "), heap.why());
    }

    /** A look that finds room (this test's heap has plenty) starts the count again. */
    @Test
    void aLookThatFindsRoomStartsTheCountAgain() {
        HeapWatch heap = new HeapWatch();
        heap.lookFailed();
        heap.lookFailed();
        assertFalse(heap.look());
        assertFalse(heap.lookFailed());
        assertFalse(heap.lookFailed());
        assertTrue(heap.lookFailed());
    }
}
