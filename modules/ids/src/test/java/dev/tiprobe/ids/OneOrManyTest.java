package dev.tiprobe.ids;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OneOrManyTest {
    @Test
    void holdsValuesInTheOrderAddedAndRemovesOneEqualValueAtATime() {
        OneOrMany<String, String> m = new OneOrMany<>();
        assertEquals(List.of(), m.get("k"));
        m.add("k", "a");
        assertEquals(List.of("a"), m.get("k"));
        m.add("k", "b");
        m.add("k", "c");
        m.add("k", "b");
        assertEquals(List.of("a", "b", "c", "b"), m.get("k"));
        m.remove("k", "b");
        assertEquals(List.of("a", "c", "b"), m.get("k"));
        m.remove("k", "x");
        assertEquals(List.of("a", "c", "b"), m.get("k"));
        m.remove("k", "a");
        m.remove("k", "b");
        assertEquals(List.of("c"), m.get("k"));
        m.remove("k", "c");
        assertFalse(m.containsKey("k"));
        assertEquals(List.of(), m.get("k"));
    }

    @Test
    void aKeyMayHoldThousandsAndGivesACopy() {
        OneOrMany<String, Integer> m = new OneOrMany<>();
        for (int i = 0; i < 5_000; i++) m.add("LambdaForm$MH/hidden", i);
        List<Integer> all = m.get("LambdaForm$MH/hidden");
        assertEquals(5_000, all.size());
        for (int i = 0; i < 4_999; i++) m.remove("LambdaForm$MH/hidden", i);
        assertEquals(List.of(4_999), m.get("LambdaForm$MH/hidden"));
        assertEquals(5_000, all.size(), "what get gave stays as it was");
        assertTrue(m.containsKey("LambdaForm$MH/hidden"));
    }
}
