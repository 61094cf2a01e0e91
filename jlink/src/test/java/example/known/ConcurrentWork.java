package example.known;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Work on {@code java.util.concurrent}'s own classes, the ones the probe's VarHandles link
 * through: four pool threads put 1,000 keys each into one skip-list map (4,000 puts in all) and
 * count them in a hash map. Prints {@code entries 4000 counted 4000}.
 */
public final class ConcurrentWork {
    public static void main(String[] args) throws Exception {
        ConcurrentSkipListMap<Integer, Integer> sorted = new ConcurrentSkipListMap<>();
        ConcurrentHashMap<Integer, Integer> counted = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int base = t * 1000;
            done.add(pool.submit(() -> {
                for (int i = 0; i < 1000; i++) {
                    sorted.put(base + i, i);
                    counted.merge(base + i, 1, Integer::sum);
                }
            }));
        }
        for (Future<?> f : done) f.get();
        pool.shutdown();
        System.out.println("entries " + sorted.size() + " counted " + counted.size());
    }
}
