package dev.tiprobe.agent.locks;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The cycles of a real deadlock, as the VM lists its threads: found once, each from its lowest thread id. */
class DeadlocksTest {
    @Test
    void aTwoLockDeadlockIsOneCycleOfBothThreads() throws Exception {
        ReentrantLock a = new ReentrantLock();
        ReentrantLock b = new ReentrantLock();
        CountDownLatch both = new CountDownLatch(2);
        Thread left = Thread.ofPlatform().daemon().name("left").start(() -> inTurn(a, b, both));
        Thread right = Thread.ofPlatform().daemon().name("right").start(() -> inTurn(b, a, both));
        long[] ids = null;
        for (long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10); ids == null && System.nanoTime() < deadline; ) {
            Thread.sleep(10);
            ids = ManagementFactory.getThreadMXBean().findDeadlockedThreads();
        }
        assertNotNull(ids, "the two threads deadlock");
        Map<Long, ThreadInfo> infos = new HashMap<>();
        for (ThreadInfo i : ManagementFactory.getThreadMXBean().getThreadInfo(ids, true, true)) infos.put(i.getThreadId(), i);
        List<List<ThreadInfo>> cycles = Deadlocks.cycles(infos);
        assertEquals(1, cycles.size());
        List<ThreadInfo> cycle = cycles.getFirst();
        assertEquals(List.of(Math.min(left.threadId(), right.threadId()), Math.max(left.threadId(), right.threadId())),
                cycle.stream().map(ThreadInfo::getThreadId).toList());
        assertEquals(cycle.get(1).getThreadId(), cycle.get(0).getLockOwnerId(), "each waits for what the next holds");
        assertTrue(cycle.get(0).getLockInfo().getClassName().startsWith("java.util.concurrent.locks.ReentrantLock$"));
        left.interrupt();  // the test JVM's later deadlock checks find none of these
        right.interrupt();
        left.join(10_000);
        right.join(10_000);
    }

    private static void inTurn(ReentrantLock mine, ReentrantLock theirs, CountDownLatch both) {
        mine.lock();
        both.countDown();
        try {
            both.await();
            theirs.lockInterruptibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            mine.unlock();
        }
    }
}
