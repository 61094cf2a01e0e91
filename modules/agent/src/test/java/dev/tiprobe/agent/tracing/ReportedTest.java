package dev.tiprobe.agent.tracing;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ReportedTest {
    /** A take hands the new entries over and forgets them; the count and the first few stay for the summaries. */
    @Test
    void aTakeForgetsWhatItHandsOverButTheCountAndTheFirstFew() {
        Reported<String> reported = new Reported<>();
        reported.addAll(List.of("a", "b"));
        assertEquals(new Reported.View<>(2, List.of("a", "b"), List.of("a", "b")), reported.look());
        assertEquals(new Reported.View<>(2, List.of("a", "b"), List.of("a", "b")), reported.take());
        for (String e : List.of("c", "d", "e")) reported.add(e);
        Reported.View<String> second = reported.take();
        assertEquals(new Reported.View<>(5, List.of("a", "b", "c"), List.of("c", "d", "e")), second);
        assertEquals(2, second.freshFrom());
        assertEquals(new Reported.View<>(5, List.of("a", "b", "c"), List.of()), reported.take());
    }
}
