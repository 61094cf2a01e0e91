package dev.tiprobe.agent.tracing;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OverheadBudgetTest {
    static final long SECOND = 1_000_000_000L;

    /** Looks once a second at a program using two cores, with calls growing by {@code perSecond} per slot. */
    static List<OverheadBudget.Removal> lookAfter(OverheadBudget b, int seconds, long[] perSecond) {
        List<OverheadBudget.Removal> last = List.of();
        for (int s = 0; s <= seconds; s++) {
            long[] calls = new long[perSecond.length];
            for (int i = 0; i < calls.length; i++) calls[i] = perSecond[i] * s;
            last = b.look(s * SECOND, calls, 2 * SECOND * s);
            if (!last.isEmpty()) return last;
        }
        return last;
    }

    @Test
    void theHottestMethodsGoUntilTheRestFitsTheBudget() {
        // time mode, 100 ns a call: 10M calls/s cost a whole core, leaving 1 core of the program's own work
        OverheadBudget b = new OverheadBudget(0.05, 100);
        List<OverheadBudget.Removal> removed = lookAfter(b, 3, new long[] {100_000, 6_000_000, 3_500_000, 400_000});
        assertEquals(List.of(new OverheadBudget.Removal(1, 6_000_000), new OverheadBudget.Removal(2, 3_500_000),
                        new OverheadBudget.Removal(3, 400_000)), removed,
                "the hottest go until what is left (0.1M calls/s, 10 ms/s) is within half of 5 % of the program's 1 s/s");
    }

    /** A slot whose probe could not come out is left alone; given back and handed to another method, it is judged again. */
    @Test
    void anIgnoredSlotIsJudgedAgainOnceGivenBack() {
        OverheadBudget b = new OverheadBudget(0.05, 100);
        b.ignore(0);
        assertEquals(List.of(), b.lookWhileInstrumenting(0, new long[] {0}, 0));
        assertEquals(List.of(), b.lookWhileInstrumenting(SECOND, new long[] {6_000_000}, 2 * SECOND), "ignored, however hot");
        b.forget(0);
        assertEquals(List.of(new OverheadBudget.Removal(0, 6_000_000)),
                b.lookWhileInstrumenting(2 * SECOND, new long[] {12_000_000}, 4 * SECOND), "the slot's next method");
    }

    @Test
    void aBurstOrACheapSessionRemovesNothing() {
        OverheadBudget b = new OverheadBudget(0.05, 100);
        assertEquals(List.of(), b.look(0, new long[] {0}, 0));
        assertEquals(List.of(), b.look(SECOND, new long[] {5_000_000}, 2 * SECOND), "one look over: a burst");
        assertEquals(List.of(), b.look(2 * SECOND, new long[] {5_000_000}, 4 * SECOND), "back under");
        assertEquals(List.of(), b.look(3 * SECOND, new long[] {10_000_000}, 6 * SECOND), "over again, once");
        OverheadBudget idle = new OverheadBudget(0.05, 3);
        assertTrue(lookAfter(idle, 5, new long[] {5_000_000}).isEmpty(), "15 ms/s of count probes is under the 20 ms/s floor");
    }

    @Test
    void whileClassesAreInstrumentedOneLookOverIsARoundAndNoRoundWaitsForTheLast() {
        OverheadBudget b = new OverheadBudget(0.05, 100);
        assertEquals(List.of(), b.lookWhileInstrumenting(0, new long[] {0, 0}, 0));
        assertEquals(List.of(new OverheadBudget.Removal(0, 6_000_000)),
                b.lookWhileInstrumenting(SECOND, new long[] {6_000_000, 0}, 2 * SECOND), "the first look over the budget");
        assertEquals(List.of(new OverheadBudget.Removal(1, 5_000_000)),
                b.lookWhileInstrumenting(2 * SECOND, new long[] {6_000_000, 5_000_000}, 4 * SECOND),
                "a method instrumented since comes out at the next look, with no quiet looks between");
    }

    @Test
    void callsMadeWhileARoundTookProbesOutDoNotCountAgainstThem() {
        OverheadBudget b = new OverheadBudget(0.05, 100);
        b.lookWhileInstrumenting(0, new long[] {0}, 0);
        assertEquals(1, b.lookWhileInstrumenting(SECOND, new long[] {6_000_000}, 2 * SECOND).size());
        // the retransform took 300 ms, and the method ran on meanwhile; its count stops after
        b.rebase(SECOND + 300_000_000, new long[] {7_800_000}, 2 * SECOND + 600_000_000);
        assertEquals(List.of(), b.lookWhileInstrumenting(2 * SECOND, new long[] {7_800_000}, 4 * SECOND),
                "its rate since the round is zero");
    }
}
