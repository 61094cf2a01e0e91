package dev.tiprobe.ids;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class IdPagesTest {
    /**
     * Churn: ids handed out one after another and retired a little later, a few kept for good (the
     * JDK's classes). What stays is a page per stretch of ids still held, not the highest id's worth.
     */
    @Test
    void pagesGoOnceTheirIdsAreAllClearedAndTheOthersAnswerAsBefore() {
        IdPages<String> pages = new IdPages<>();
        for (int id = 1; id <= 200_000; id++) {
            pages.set(id, "m" + id);
            if (id > 100) pages.set(id - 100, null);  // retired a hundred ids later
            if (id == 5) pages.set(5, "m5");          // a second write of a held id changes no count
        }
        assertEquals(1, pages.pagesHeld(), "only the page the last hundred ids fall in");
        pages.set(1, "kept");  // the first page comes back for a value set again
        assertEquals(2, pages.pagesHeld(), "the first page, and the one the last hundred ids (199,901 to 200,000) fall in");
        assertEquals("kept", pages.get(1));
        assertEquals("m200000", pages.get(200_000));
        assertNull(pages.get(150_000), "cleared");
        assertNull(pages.get(5_000_000), "never set");
        assertNull(pages.get(-1));
    }
}
