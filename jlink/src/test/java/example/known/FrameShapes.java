package example.known;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongUnaryOperator;

/**
 * CPU spent in frames of every shape a name can take, for comparing how profilers spell them: a
 * lambda (a hidden class), a nested class's constructor and method, and the JDK's own methods
 * ({@code HashMap.put}, {@code Long.toString}), all Java code (no intrinsic such as
 * {@code Arrays.sort}'s, which a native profiler names by its stub). Runs for the seconds given,
 * then prints {@code done}.
 */
public class FrameShapes {
    /** A nested class: {@code FrameShapes$Ledger} to the JVM. */
    static final class Ledger {
        private final long[] entries;

        Ledger(int size, long seed) {
            entries = new long[size];
            long x = seed;
            for (int i = 0; i < size; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
                entries[i] = x ^ (x >>> 29);
            }
        }

        long balance() {
            Map<Long, Long> byKey = new HashMap<>();
            for (long e : entries) byKey.put(e & 1023, e);
            long sum = 0;
            for (int i = 0; i < entries.length; i += 16) sum += Long.toString(entries[i]).length();
            return sum + byKey.size();
        }
    }

    public static void main(String[] args) {
        long end = System.nanoTime() + (long) (Double.parseDouble(args[0]) * 1e9);
        LongUnaryOperator audit = seed -> new Ledger(2048, seed).balance();
        long sink = 0;
        while (System.nanoTime() < end) sink += audit.applyAsLong(sink);
        System.out.println(sink == 42 ? "done." : "done");
    }
}
