package example.known;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A program that fills its heap: prints {@code ready}, waits until the file {@code <dir>/fill}
 * exists (with {@code now}, it does not wait), keeps blocks until the heap runs out, gives back a
 * few and prints {@code full}; then works on in what is left, allocating short-lived arrays and
 * catching the {@link OutOfMemoryError}s that come, and prints {@code rounds N} now and then to
 * show it still works. Run with a small {@code -Xmx}.
 */
public class HeapFull {
    static final List<long[]> kept = new ArrayList<>();

    static long work(int round) {
        long sum = 0;
        for (int i = 0; i < 1_000; i++) {
            try {
                long[] a = new long[64 + (i % 64)];
                a[0] = round + i;
                sum += a[0];
            } catch (OutOfMemoryError e) {
                sum--;  // a full heap is the point: go on
            }
        }
        return sum;
    }

    public static void main(String[] args) throws Exception {
        System.out.println("ready");
        if (!args[0].equals("now")) {
            while (!Files.exists(Path.of(args[0], "fill"))) Thread.sleep(10);
        }
        try {
            while (true) kept.add(new long[16 * 1024]);
        } catch (OutOfMemoryError e) {
            for (int i = 0; i < 8 && !kept.isEmpty(); i++) kept.remove(kept.size() - 1);  // 1 MB left to work in
        }
        System.out.println("full");
        long sum = 0;
        for (int round = 1; ; round++) {
            try {
                sum += work(round);
                if (round % 2_000 == 0) System.out.println("rounds " + round + " " + (sum & 1));
            } catch (OutOfMemoryError e) {
                // even printing may find the heap full: the next round tries again
            }
        }
    }
}
