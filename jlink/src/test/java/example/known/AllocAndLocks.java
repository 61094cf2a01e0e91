package example.known;

import java.util.ArrayList;
import java.util.List;

/**
 * Known allocation and lock sites, for the alloc, live and lock views: {@code allocateBlobs}
 * allocates almost all bytes, as 64 KiB {@code byte[]}s that die at once; {@code retain} keeps
 * {@code Retained} objects (each with a 16 KiB array) to the end; {@code churn} makes short-lived
 * {@code Blob}s; a holder thread keeps a {@code Ledger}'s monitor for 30 ms at a time while two
 * waiters try to enter it. Before it ends, the program collects its own garbage (System.gc) and
 * waits a moment, so the live view can tell the retained objects from the collected ones.
 *
 * <p>Usage: {@code AllocAndLocks <seconds>}; prints {@code ready} once its threads run, then
 * {@code done <retained> <ledger entries>}.
 */
public class AllocAndLocks {
    static final List<Retained> KEPT = new ArrayList<>();
    /** Where the last array goes: an array that does not escape is eliminated by C2 and never allocated. */
    static volatile Object last;

    static final class Blob {
        final byte[] data;

        Blob(int n) {
            data = new byte[n];
        }
    }

    static final class Retained {
        final byte[] data = new byte[16 * 1024];
    }

    static final class Ledger {
        long entries;

        synchronized void hold(long millis) throws InterruptedException {
            Thread.sleep(millis);
            entries++;
        }

        synchronized void post() {
            entries++;
        }
    }

    static void allocateBlobs(int n) {
        for (int i = 0; i < n; i++) last = new byte[64 * 1024];
    }

    static void retain(int n) {
        for (int i = 0; i < n; i++) KEPT.add(new Retained());
    }

    static void churn(int n) {
        for (int i = 0; i < n; i++) last = new Blob(16 * 1024);
    }

    public static void main(String[] args) throws Exception {
        long seconds = Long.parseLong(args[0]);
        Ledger ledger = new Ledger();
        List<Thread> threads = new ArrayList<>();
        threads.add(Thread.ofPlatform().name("holder").start(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) ledger.hold(30);
            } catch (InterruptedException e) {
                // done
            }
        }));
        for (int w = 0; w < 2; w++) {
            threads.add(Thread.ofPlatform().name("waiter-" + w).start(() -> {
                try {
                    while (!Thread.currentThread().isInterrupted()) {
                        ledger.post();
                        Thread.sleep(5);
                    }
                } catch (InterruptedException e) {
                    // done
                }
            }));
        }
        System.out.println("ready");
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < end) {
            allocateBlobs(200);
            churn(20);
            retain(2);
            Thread.sleep(1);
        }
        threads.forEach(Thread::interrupt);
        for (Thread t : threads) t.join();
        last = null;
        System.gc();
        Thread.sleep(500);
        System.out.println("done " + KEPT.size() + " " + ledger.entries);
    }
}
