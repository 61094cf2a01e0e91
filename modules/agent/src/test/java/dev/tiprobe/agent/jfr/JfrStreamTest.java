package dev.tiprobe.agent.jfr;

import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a session's JFR stream hands its engines when the session stops. */
class JfrStreamTest {
    @Name(Tick.NAME)
    @StackTrace(false)
    static final class Tick extends Event {
        static final String NAME = "dev.tiprobe.test.Tick";
        int n;

        static void commit(int n) {
            Tick t = new Tick();
            t.n = n;
            t.commit();
        }
    }

    /**
     * Every event recorded before the stop reaches the handler once: those of the last second,
     * which the stream's reader had not seen, from the file JFR writes as the recording stops.
     */
    @Test
    void aStopHandsOverEveryEventRecordedBeforeItOnce() throws InterruptedException {
        Set<Integer> seen = ConcurrentHashMap.newKeySet();
        AtomicInteger handed = new AtomicInteger();
        AtomicInteger markers = new AtomicInteger();
        JfrStream stream = JfrStream.unbegun("tiprobe-test-jfr").with(s -> {
            s.enable(Tick.NAME);
            s.onEvent(Tick.NAME, e -> {
                int n = e.getInt("n");
                if (n < 0) {
                    markers.incrementAndGet();
                } else {
                    seen.add(n);
                    handed.incrementAndGet();
                }
            });
        });
        stream.begin();
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (markers.get() == 0) {  // the recording runs once a marker has come through
            assertTrue(System.nanoTime() < deadline, "the stream handed over nothing in a minute");
            Tick.commit(-1);
            Thread.sleep(20);
        }
        int events = 2_000;
        for (int n = 0; n < events; n++) {
            Tick.commit(n);
            if (n % 100 == 99) Thread.sleep(10);
        }
        stream.close();
        assertEquals(events, seen.size(), "events lost at the stop");
        assertEquals(events, handed.get(), "events handed over twice");
    }
}
