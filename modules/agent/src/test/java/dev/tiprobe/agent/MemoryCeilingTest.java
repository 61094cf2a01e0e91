package dev.tiprobe.agent;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemoryCeilingTest {
    private static final long MB = 1 << 20;
    private static final long SECOND = 1_000_000_000L;

    /** Under the ceiling nothing happens; native memory is reported, not held to the heap's ceiling. */
    @Test
    void withinTheCeilingTheSessionGoesOnUntouched() {
        MemoryCeiling c = new MemoryCeiling(32 * MB);
        for (int s = 0; s < 60; s++) assertEquals(MemoryCeiling.Step.WITHIN, c.look(new MemoryCeiling.Footprint(30 * MB, 40 * MB), s * SECOND));
        assertFalse(c.shed());
        assertTrue(c.text().startsWith("tiprobe's memory: about 30.0 MB of heap and 40960 KB native, ceiling 32.0 MB of heap"), c.text());
        assertEquals(MemoryCeiling.Step.SHED, c.look(new MemoryCeiling.Footprint(33 * MB, 0), 61 * SECOND));
    }

    /** Over it, the session sheds; back under four fifths of it, it takes up new classes again. */
    @Test
    void sheddingThatWorksEndsOnceTheHeapIsWellUnder() {
        MemoryCeiling c = new MemoryCeiling(32 * MB);
        assertEquals(MemoryCeiling.Step.SHED, c.look(new MemoryCeiling.Footprint(40 * MB, 0), 0));
        assertEquals(MemoryCeiling.Step.WITHIN, c.look(new MemoryCeiling.Footprint(28 * MB, 0), SECOND), "under, not well under");
        assertTrue(c.shed());
        assertTrue(c.text().endsWith("(passed: no new class instrumented)"), c.text());
        assertEquals(MemoryCeiling.Step.RESUME, c.look(new MemoryCeiling.Footprint(24 * MB, 0), 2 * SECOND));
        assertFalse(c.shed());
        for (int s = 3; s < 120; s++) assertEquals(MemoryCeiling.Step.WITHIN, c.look(new MemoryCeiling.Footprint(24 * MB, 0), s * SECOND));
        assertEquals(MemoryCeiling.Step.SHED, c.look(new MemoryCeiling.Footprint(33 * MB, 0), 121 * SECOND), "and sheds again when over again");
    }

    /**
     * Still over a minute after shedding (the JVM unloads dead classes, and the agent's tables
     * for them, only at its next marking cycle): the session stops itself, and says with what.
     */
    @Test
    void stayingOverAfterSheddingStopsTheSession() {
        MemoryCeiling c = new MemoryCeiling(32 * MB);
        assertEquals(MemoryCeiling.Step.SHED, c.look(new MemoryCeiling.Footprint(40 * MB, 0), 0));
        for (int s = 1; s < 60; s++) assertEquals(MemoryCeiling.Step.WITHIN, c.look(new MemoryCeiling.Footprint(41 * MB, 0), s * SECOND));
        assertEquals(MemoryCeiling.Step.STOP, c.look(new MemoryCeiling.Footprint(42 * MB, 0), 60 * SECOND));
        assertEquals("tiprobe's own memory (about 42.0 MB of heap and 0 KB native) stayed over its ceiling of 32.0 MB (--max-memory)",
                c.whyStopped());
    }

    /** Half as much again over the ceiling, the session stops at once, shed or not. */
    @Test
    void farOverTheCeilingStopsAtOnce() {
        MemoryCeiling c = new MemoryCeiling(32 * MB);
        assertEquals(MemoryCeiling.Step.STOP, c.look(new MemoryCeiling.Footprint(49 * MB, 0), 0));
        assertTrue(c.whyStopped().contains("went far over its ceiling of 32.0 MB"), c.whyStopped());
    }

    /** A dip under the ceiling restarts the minute: a stop needs a minute over in a row. */
    @Test
    void aDipUnderTheCeilingRestartsTheGrace() {
        MemoryCeiling c = new MemoryCeiling(32 * MB);
        c.look(new MemoryCeiling.Footprint(40 * MB, 0), 0);
        c.look(new MemoryCeiling.Footprint(30 * MB, 0), 50 * SECOND);
        assertEquals(MemoryCeiling.Step.WITHIN, c.look(new MemoryCeiling.Footprint(40 * MB, 0), 70 * SECOND));
        assertEquals(MemoryCeiling.Step.WITHIN, c.look(new MemoryCeiling.Footprint(40 * MB, 0), 129 * SECOND));
        assertEquals(MemoryCeiling.Step.STOP, c.look(new MemoryCeiling.Footprint(40 * MB, 0), 130 * SECOND));
    }
}
