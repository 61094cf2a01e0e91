package dev.tiprobe.agent.sink;

import dev.tiprobe.ids.IdMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an engine says of the method ids it holds, which decides when the tokens of an unloaded
 * class may retire: an event queued before an unload must still find its frames named when the
 * engine writes it.
 */
class EventEngineTest {
    @TempDir
    Path dir;

    /** An engine whose writes wait until the test lets them go. */
    private static final class Held extends EventEngine<Long> {
        final CountDownLatch writing = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        Held(Recorder recorder) {
            super("tiprobe-test-engine", recorder);
            startWriting();
        }

        void queue(long event) {
            offer(event);
        }

        @Override
        protected boolean write(Long event) throws java.io.IOException {
            writing.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return true;
        }

        @Override
        protected void stopEvents() {}

        @Override
        public String describe() {
            return "held events";
        }

        @Override
        public Progress progress() {
            return new Progress("held", written(), written() + " held");
        }
    }

    @Test
    void anEventQueuedButNotWrittenHoldsTheMomentBackUntilItIsWritten() throws Exception {
        try (Recorder recorder = Recorder.create(dir.resolve("e.tpr"), new IdMap())) {
            Held engine = new Held(recorder);
            engine.queue(1L);
            long queued = System.nanoTime();
            assertTrue(engine.writing.await(5, TimeUnit.SECONDS), "the engine's thread took the event");
            Thread.sleep(100);  // rounds would have gone by had the write not waited
            assertTrue(engine.tokensHeldSince() <= queued, "held from before the event was queued (at most), while it is being written");

            engine.release.countDown();
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (engine.tokensHeldSince() <= queued && System.nanoTime() < deadline) Thread.sleep(5);
            assertTrue(engine.tokensHeldSince() > queued, "once written, the next round moves past it");
            long idleSince = engine.tokensHeldSince();
            Thread.sleep(200);
            assertTrue(engine.tokensHeldSince() > idleSince, "an engine with nothing queued keeps moving on");

            engine.close();
            assertEquals(EventEngine.IDLE, engine.tokensHeldSince(), "a closed engine holds nothing");
        }
    }
}
