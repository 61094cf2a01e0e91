package example.known;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Starts 200 platform threads with {@code new Thread(Runnable, String)}, each counting once; prints {@code ran 200}. */
public final class ThreadStarts {
    public static void main(String[] args) throws Exception {
        AtomicInteger ran = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            Thread t = new Thread(ran::incrementAndGet, "worker-" + i);
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) t.join();
        System.out.println("ran " + ran.get());
    }
}
