package dev.tiprobe.agent.alloc;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IntervalBudgetTest {
    static final long HALF_SECOND = 500_000_000L;
    static final long KIB = 1024;
    static final long NANOS_PER_SAMPLE = IntervalBudget.NANOS_PER_SAMPLE;

    /** A program on two busy cores allocating {@code bytesPerSecond}; the budget looks every half second. */
    static final class Program {
        final IntervalBudget budget;
        long now;
        long samples;
        long cpu;

        Program(IntervalBudget budget) {
            this.budget = budget;
            budget.look(0, 0, 0);
        }

        long run(long bytesPerSecond, int looks) {
            for (int i = 0; i < looks; i++) {
                samples += bytesPerSecond / 2 / budget.interval();
                cpu += 2 * HALF_SECOND;
                now += HALF_SECOND;
                budget.look(now, samples, cpu);
            }
            return budget.interval();
        }
    }

    @Test
    void aProgramAllocatingFastGetsAWiderIntervalAndSamplingStaysUnderTheBudget() {
        Program p = new Program(new IntervalBudget(0.02, 512 * KIB));
        // 12 GB/s: 23,000 samples a second at 512 KiB cost 0.34 s a second, 17 % of two cores.
        long interval = p.run(12_000_000_000L, 10);
        double cost = 12_000_000_000.0 / interval * NANOS_PER_SAMPLE / 1e9;
        assertTrue(cost <= 0.02 * 2, "under 2 % of two cores: " + cost + " s a second at " + interval);
        assertTrue(cost > 0.02 * 2 / 4, "not wider than needed: " + cost + " s a second at " + interval);
        assertEquals(0, Long.bitCount(interval / (512 * KIB)) - 1, "a power of two times the interval asked: " + interval);
        assertEquals(512 * KIB * 16, interval);
    }

    @Test
    void theIntervalComesBackWhenTheProgramSlowsDown() {
        Program p = new Program(new IntervalBudget(0.02, 512 * KIB));
        p.run(12_000_000_000L, 4);
        assertTrue(p.budget.interval() > 512 * KIB);
        assertEquals(512 * KIB, p.run(100_000_000L, 20), "back to the interval asked at 100 MB/s");
    }

    @Test
    void aModestAllocationRateKeepsTheIntervalAsked() {
        Program p = new Program(new IntervalBudget(0.02, 512 * KIB));
        // 500 MB/s: 950 samples a second, 14 ms: 0.7 % of two cores.
        assertEquals(512 * KIB, p.run(500_000_000L, 20));
    }

    @Test
    void noBudgetNeverChangesTheInterval() {
        Program p = new Program(new IntervalBudget(0, 512 * KIB));
        assertEquals(512 * KIB, p.run(12_000_000_000L, 20));
    }

    @Test
    void itDoesNotSwingBetweenTwoIntervals() {
        Program p = new Program(new IntervalBudget(0.02, 512 * KIB));
        long settled = p.run(12_000_000_000L, 10);
        for (int i = 0; i < 20; i++) assertEquals(settled, p.run(12_000_000_000L, 1), "look " + i);
    }
}
