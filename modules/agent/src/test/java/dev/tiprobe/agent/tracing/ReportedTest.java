package dev.tiprobe.agent.tracing;

import dev.tiprobe.recording.Removed;
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

    /**
     * The budget's summary names the hottest probes it took out ("e.g. a (64k calls/s), …"), not
     * the first ones a round happened to list: a broad filter's rounds remove hundreds.
     */
    @Test
    void anOrderedReportKeepsItsGreatestEntriesForTheSummaryAndEveryEntryInTurn() {
        Reported<Removed> removed = new Reported<>(Results.REMOVED_BY_RATE);
        List<Removed> round = List.of(new Removed("a", 1_800), new Removed("b", 63_990),
                new Removed("c", 900), new Removed("d", 12_000), new Removed("e", 12_000));
        removed.addAll(round);
        Reported.View<Removed> v = removed.take();
        assertEquals(List.of("b", "d", "e"), v.first().stream().map(Removed::method).toList());
        assertEquals(round, v.fresh());
        removed.add(new Removed("f", 20_000));
        assertEquals(List.of("b", "f", "d"), removed.look().first().stream().map(Removed::method).toList());
    }
}
