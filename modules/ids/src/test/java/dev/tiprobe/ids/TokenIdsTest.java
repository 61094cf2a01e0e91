package dev.tiprobe.ids;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenIdsTest {
    /** Keys whose hash codes collide in runs, as records of similar fields do. */
    private record Key(int n) {
        @Override
        public int hashCode() {
            return n / 4;
        }
    }

    @Test
    void answersAsAHashMapThroughMixedPutsAndRemovals() {
        TokenIds<Key> ids = new TokenIds<>();
        Map<Key, Integer> truth = new HashMap<>();
        Random random = new Random(42);
        int next = 1;
        for (int step = 0; step < 200_000; step++) {
            Key k = new Key(random.nextInt(3_000));
            if (random.nextInt(3) == 0) {
                ids.remove(k);
                truth.remove(k);
            } else if (!truth.containsKey(k)) {
                ids.put(k, next);
                truth.put(k, next++);
            }
            Key probe = new Key(random.nextInt(3_000));
            assertEquals(truth.getOrDefault(probe, 0), ids.get(probe), "step " + step);
        }
        assertEquals(truth.size(), ids.size());
        for (var e : truth.entrySet()) assertEquals(e.getValue(), ids.get(e.getKey()));
    }

    @Test
    void theTableShrinksWhenMostTokensGo() {
        TokenIds<Key> ids = new TokenIds<>();
        for (int n = 1; n <= 40_000; n++) ids.put(new Key(n), n);
        int peak = ids.capacity();
        for (int n = 1; n <= 39_000; n++) ids.remove(new Key(n));
        assertTrue(ids.capacity() <= peak / 8, ids.capacity() + " slots for 1,000 tokens after a peak of " + peak);
        for (int n = 39_001; n <= 40_000; n++) assertEquals(n, ids.get(new Key(n)));
        assertEquals(0, ids.get(new Key(5)));
    }
}
