package example.real;

import groovy.lang.GroovyClassLoader;
import groovy.lang.Script;

import java.util.ArrayList;
import java.util.List;

/**
 * A script host under class churn, the shape of a template or rules engine: for {@code seconds},
 * Groovy compiles a fresh script in a new {@link GroovyClassLoader} (classes {@code ScriptN},
 * {@code OrderN} and a closure class, in memory only), runs it a few times on two threads that
 * share a lock, and drops the loader, so every class it made can unload. Prints "ready" after the
 * first script, then {@code scripts <n>} every 5 seconds and {@code done <n> <checksum>} at the end:
 * the checksum is the same with and without a profiler.
 *
 * <p>Usage: {@code ScriptChurn <seconds>}.
 */
public class ScriptChurn {
    static final Object BOOK = new Object();

    static String source(int n) {
        return """
                class Order%1$d {
                    int qty
                    int price
                    int total() { qty * price }
                }
                def orders = (1..%2$d).collect { new Order%1$d(qty: it %% 5, price: it) }
                return orders.sum { it.total() }
                """.formatted(n, 50 + n % 50);
    }

    public static void main(String[] args) throws Exception {
        long seconds = Long.parseLong(args[0]);
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long checksum = 0;
        int n = 0;
        long nextReport = System.nanoTime() + 5_000_000_000L;
        while (n == 0 || System.nanoTime() < end) {
            checksum += round(n++);
            if (n == 1) System.out.println("ready");
            if (System.nanoTime() > nextReport) {
                System.out.println("scripts " + n);
                nextReport += 5_000_000_000L;
            }
        }
        System.out.println("done " + n + " " + checksum);
    }

    /** Compiles script {@code n} in a loader of its own, runs it on two threads, and drops both. */
    static long round(int n) throws Exception {
        try (GroovyClassLoader loader = new GroovyClassLoader(ScriptChurn.class.getClassLoader())) {
            Class<?> type = loader.parseClass(source(n), "Script" + n + ".groovy");
            long[] sums = new long[2];
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int slot = t;
                threads.add(Thread.ofPlatform().name("clerk-" + t).start(() -> {
                    try {
                        for (int i = 0; i < 5; i++) {
                            Script script = (Script) type.getDeclaredConstructor().newInstance();
                            long sum = ((Number) script.run()).longValue();
                            synchronized (BOOK) {
                                sums[slot] += sum;
                            }
                        }
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            for (Thread t : threads) t.join();
            return sums[0] + sums[1];
        }
    }
}
