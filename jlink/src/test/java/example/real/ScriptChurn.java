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
 * first script, then {@code scripts <n>} every 5 seconds and {@code done <n> <checksum>} at the end.
 *
 * <p>Usage: {@code ScriptChurn <seconds> [<scripts a second>]}. With a rate, it runs that many
 * scripts a second, {@code seconds} times as many in all, each no earlier than its turn: two
 * copies, one profiled, then do the same work at the same moments (as long as both keep up;
 * {@code scripts <n> (behind)} says when one does not), so their heaps compare (the program's own
 * heap grows with the scripts it has run: the class loaders' tables of names asked for) and their
 * checksums are the same. Without one, it runs as many as it can for {@code seconds}.
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
        int perSecond = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        long begin = System.nanoTime();
        long end = begin + seconds * 1_000_000_000L;
        long checksum = 0;
        int n = 0;
        long nextReport = begin + 5_000_000_000L;
        while (n == 0 || (perSecond > 0 ? n < seconds * perSecond : System.nanoTime() < end)) {
            if (perSecond > 0 && n > 0) {
                long turn = begin + n * 1_000_000_000L / perSecond;
                long wait = turn - System.nanoTime();
                if (wait > 0) Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            checksum += round(n++);
            if (n == 1) {
                System.out.println("ready");
                begin = System.nanoTime();  // the pace counts from the first script, which loads Groovy
            }
            if (System.nanoTime() > nextReport) {
                boolean behind = perSecond > 0 && n < (System.nanoTime() - begin) / 1_000_000_000.0 * perSecond - perSecond;
                System.out.println("scripts " + n + (behind ? " (behind)" : ""));
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
