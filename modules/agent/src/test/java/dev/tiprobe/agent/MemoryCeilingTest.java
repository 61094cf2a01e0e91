package dev.tiprobe.agent;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemoryCeilingTest {
    private static final long MB = 1 << 20;
    private static final long SECOND = 1_000_000_000L;

    /** Under the ceiling nothing happens; native memory counts toward it as the heap does. */
    @Test
    void withinTheCeilingTheSessionGoesOnUntouched() {
        MemoryCeiling c = new MemoryCeiling(32 * MB);
        for (int s = 0; s < 60; s++) assertEquals(MemoryCeiling.Step.WITHIN, c.look(new MemoryCeiling.Footprint(20 * MB, 4 * MB), s * SECOND));
        assertFalse(c.shed());
        assertEquals(MemoryCeiling.Step.SHED, c.look(new MemoryCeiling.Footprint(30 * MB, 3 * MB), 61 * SECOND), "30 MB of heap and 3 native");
        assertTrue(c.text().startsWith("tiprobe's memory: about 30.0 MB of heap and 3072 KB native, ceiling 32.0 MB"), c.text());
    }

    /** Over it, the session sheds once; if that brings it back under, it goes on (shed) for good. */
    @Test
    void sheddingThatWorksKeepsTheSessionRunning() {
        MemoryCeiling c = new MemoryCeiling(32 * MB);
        assertEquals(MemoryCeiling.Step.SHED, c.look(new MemoryCeiling.Footprint(40 * MB, 0), 0));
        for (int s = 1; s < 120; s++) assertEquals(MemoryCeiling.Step.WITHIN, c.look(new MemoryCeiling.Footprint(25 * MB, 0), s * SECOND));
        assertTrue(c.shed());
        assertTrue(c.text().endsWith("(passed: no new class instrumented)"), c.text());
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
        assertEquals(MemoryCeiling.Step.STOP, c.look(new MemoryCeiling.Footprint(47 * MB, 2 * MB), 0));
        assertTrue(c.whyStopped().contains("went far over its ceiling of 32.0 MB"), c.whyStopped());
    }

    /** A dip under the ceiling restarts the minute: a stop needs a minute over in a row. */
    @Test
    void aDipUnderTheCeilingRestartsTheGrace() {
        MemoryCeiling c = new MemoryCeiling(32 * MB);
        c.look(new MemoryCeiling.Footprint(40 * MB, 0), 0);
        c.look(new MemoryCeiling.Footprint(20 * MB, 0), 50 * SECOND);
        assertEquals(MemoryCeiling.Step.WITHIN, c.look(new MemoryCeiling.Footprint(40 * MB, 0), 70 * SECOND));
        assertEquals(MemoryCeiling.Step.WITHIN, c.look(new MemoryCeiling.Footprint(40 * MB, 0), 129 * SECOND));
        assertEquals(MemoryCeiling.Step.STOP, c.look(new MemoryCeiling.Footprint(40 * MB, 0), 130 * SECOND));
    }
}
