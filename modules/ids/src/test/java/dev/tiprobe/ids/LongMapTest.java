package dev.tiprobe.ids;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LongMapTest {
    /** JDK 25 jmethodIDs: 8-byte aligned pointers, clustered in blocks. */
    static long pointerKey(int i) {
        return 0x7f3a_1000_0000L + (i / 256) * 0x10000L + (i % 256) * 8L;
    }

    /** JDK 26 jmethodIDs: small unique counters. */
    static long counterKey(int i) {
        return i + 1;
    }

    @Test
    void insertLookupRemoveAndGrowthAgreeWithAHashMapForBothKeyShapes() {
        for (boolean pointers : new boolean[] {true, false}) {
            LongMap<String> map = new LongMap<>();
            Map<Long, String> reference = new HashMap<>();
            SplittableRandom random = new SplittableRandom(42);
            for (int step = 0; step < 200_000; step++) {
                int i = random.nextInt(20_000);
                long key = pointers ? pointerKey(i) : counterKey(i);
                switch (random.nextInt(3)) {
                    case 0 -> assertEquals(reference.put(key, "v" + step), map.put(key, "v" + step));
                    case 1 -> assertEquals(reference.remove(key), map.remove(key));
                    default -> assertEquals(reference.get(key), map.get(key));
                }
            }
            assertEquals(reference.size(), map.size());
            reference.forEach((k, v) -> assertEquals(v, map.get(k)));
            int[] seen = {0};
            map.forEach((k, v) -> {
                assertEquals(reference.get(k), v);
                seen[0]++;
            });
            assertEquals(reference.size(), seen[0]);
        }
    }

    @Test
    void aRemovedKeyCanComeBackAndTombstonesDoNotGrowTheTableForever() {
        LongMap<String> map = new LongMap<>();
        for (int round = 0; round < 1000; round++) {
            for (int i = 0; i < 100; i++) map.put(pointerKey(round * 100 + i), "x");
            for (int i = 0; i < 100; i++) map.remove(pointerKey(round * 100 + i));
        }
        assertEquals(0, map.size());
        assertTrue(map.capacity() <= 512, "capacity " + map.capacity() + " after 100,000 short-lived keys");
        map.put(pointerKey(5), "first");
        map.remove(pointerKey(5));
        assertNull(map.get(pointerKey(5)));
        map.put(pointerKey(5), "reused");
        assertEquals("reused", map.get(pointerKey(5)));
    }

    /** A table that held a peak gives its room back as the entries go (a G1 cycle unloading thousands of classes at once). */
    @Test
    void aTableShrinksWhenMostOfItsEntriesGo() {
        LongMap<String> map = new LongMap<>();
        for (int i = 1; i <= 50_000; i++) map.put(pointerKey(i), "v" + i);
        int peak = map.capacity();
        for (int i = 1; i <= 49_000; i++) map.remove(pointerKey(i));
        assertTrue(map.capacity() <= peak / 8, map.capacity() + " slots for 1,000 entries after a peak of " + peak);
        for (int i = 49_001; i <= 50_000; i++) assertEquals("v" + i, map.get(pointerKey(i)));
        assertNull(map.get(pointerKey(7)));
    }

    @Test
    void keysThatShareANearHomeFallBackToScatteredSlots() {
        // Counters with a large stride and pointers 16 MiB apart alias onto the same few near
        // homes in any table that fits them; every one must stay reachable, through growth too.
        for (long stride : new long[] {1L << 20, 1L << 24, 4096}) {
            LongMap<Long> map = new LongMap<>();
            for (long i = 1; i <= 50_000; i++) assertNull(map.put(i * stride, i));
            for (long i = 1; i <= 50_000; i++) assertEquals(i, map.get(i * stride), "stride " + stride);
            for (long i = 1; i <= 50_000; i += 2) assertEquals(i, map.remove(i * stride));
            for (long i = 1; i <= 50_000; i++) {
                assertEquals(i % 2 == 0 ? Long.valueOf(i) : null, map.get(i * stride));
            }
            assertNull(map.get(50_001 * stride));
        }
    }

    @Test
    void keyZeroIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new LongMap<String>().put(0, "x"));
        assertThrows(NullPointerException.class, () -> new LongMap<String>().put(1, null));
    }

    @Test
    void readersNeverSeeAWrongValueWhileAWriterInsertsRemovesAndResizes() throws Exception {
        LongMap<Long> map = new LongMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong wrong = new AtomicLong();
        AtomicLong hits = new AtomicLong();
        Thread[] readers = new Thread[3];
        for (int r = 0; r < readers.length; r++) {
            readers[r] = Thread.ofPlatform().start(() -> {
                SplittableRandom random = new SplittableRandom();
                while (!stop.get()) {
                    long key = pointerKey(random.nextInt(50_000));
                    Long v = map.get(key);
                    if (v != null) {
                        hits.incrementAndGet();
                        if (v != key * 3) wrong.incrementAndGet();  // the value always derives from its key
                    }
                }
            });
        }
        SplittableRandom random = new SplittableRandom(7);
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (System.nanoTime() < deadline) {
            long key = pointerKey(random.nextInt(50_000));
            if (random.nextBoolean()) map.put(key, key * 3); else map.remove(key);
        }
        stop.set(true);
        for (Thread t : readers) t.join();
        assertEquals(0, wrong.get());
        assertTrue(hits.get() > 0);
    }
}
