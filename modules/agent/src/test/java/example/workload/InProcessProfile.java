package example.workload;

import dev.tiprobe.agent.Profiler;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Profiling driven from application code: starts sampling, allocation and lock profiling, runs
 * an allocating method, two threads contending on a monitor and a spinning one, then stops and prints the
 * recording's path; a second start right after shows a session can follow another.
 */
public class InProcessProfile {
    static final List<int[]> KEPT = new ArrayList<>();
    static final Object LOCK = new Object();

    static void allocate() {
        for (int i = 0; i < 2_000; i++) KEPT.add(new int[1024]);
    }

    static void holdLock() throws InterruptedException {
        synchronized (LOCK) {
            Thread.sleep(20);
        }
    }

    static volatile long spun;

    /** Half a second of the program's own CPU, once JFR records: what the cpu view is sure to hold. */
    static void spin() {
        long end = System.nanoTime() + 500_000_000L;
        long x = 0;
        while (System.nanoTime() < end) x += Long.toString(x).length();
        spun = x;
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        System.out.println(Profiler.start("interval=10ms,alloc=64k,live,lock=1ms,file=" + dir.resolve("in.tpr")));
        allocate();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            threads.add(Thread.ofPlatform().name("contender-" + t).start(() -> {
                try {
                    // Three seconds of contention: waits before JFR records (its set-up takes up to
                    // seconds in a JVM where it has not run) are not seen, and 0.8 s was often all before.
                    for (int i = 0; i < 75; i++) holdLock();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        for (Thread t : threads) t.join();
        spin();
        System.out.println("stopped " + Profiler.stop());
        try {
            Profiler.stop();
        } catch (IllegalStateException e) {
            System.out.println("again: " + e.getMessage());
        }
    }
}
