package example.known;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Known waits of virtual threads, for the wall view: 700 virtual threads sleep in {@link #nap}
 * and 300 wait for work in {@link #await} (a queue's take), while one platform thread hashes in
 * {@link #spin}. By thread-time, virtual threads spend 70 % of theirs in {@code nap} and 30 % in
 * {@code await}. Usage: {@code VirtualWaits <seconds> [platform]}; prints {@code ready} once every
 * virtual thread waits, then {@code done <spins>}. With {@code platform} the 1,000 are platform
 * threads, and the 300 in {@code await} wait for good (a take from a queue that stays empty), so
 * the wall view meets both threads that wake every 50 ms and threads that never run.
 */
public class VirtualWaits {
    static void nap(long until) throws InterruptedException {
        while (System.nanoTime() < until) Thread.sleep(50);
    }

    static void await(LinkedBlockingQueue<Long> work, long until) throws InterruptedException {
        while (System.nanoTime() < until) work.poll(50, TimeUnit.MILLISECONDS);
    }

    static void await(LinkedBlockingQueue<Long> never) throws InterruptedException {
        never.take();
    }

    static long spin(long until) {
        long x = 0;
        while (System.nanoTime() < until) for (int i = 0; i < 10_000; i++) x = x * 31 + i;
        return x;
    }

    public static void main(String[] args) throws Exception {
        long until = System.nanoTime() + (long) (Double.parseDouble(args[0]) * 1e9);
        LinkedBlockingQueue<Long> work = new LinkedBlockingQueue<>();
        CountDownLatch started = new CountDownLatch(1000);
        long[] spun = new long[1];
        Thread spinner = Thread.ofPlatform().name("spinner").start(() -> spun[0] = spin(until));
        if (args.length > 1 && args[1].equals("platform")) {
            for (int t = 0; t < 1000; t++) {
                boolean napper = t % 10 < 7;
                Thread.ofPlatform().daemon().name((napper ? "napper-" : "waiter-") + t).start(() -> {
                    started.countDown();
                    try {
                        if (napper) nap(until);
                        else await(work);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
            started.await();
            System.out.println("ready");
            spinner.join();
            System.out.println("done " + (spun[0] != 0));
            return;
        }
        try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int t = 0; t < 1000; t++) {
                boolean napper = t % 10 < 7;
                executor.submit(() -> {
                    started.countDown();
                    if (napper) nap(until);
                    else await(work, until);
                    return null;
                });
            }
            started.await();
            System.out.println("ready");
        }
        spinner.join();
        System.out.println("done " + (spun[0] != 0));
    }
}
