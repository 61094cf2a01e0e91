package bench.target;

/**
 * The plain counted loop DESIGN.md measures method tracers with, outside JMH: {@code work(int)}
 * called 500 million times after 300 million of warm-up; prints nanoseconds per call. Run it in a
 * JVM of its own per tracer (BENCHMARKS.md has the command lines).
 */
public final class CountedLoop {
    private CountedLoop() {}

    static int work(int x) {
        return x * 31 + 7;
    }

    public static void main(String[] args) {
        int n = 100_000_000;
        long sink = 0;
        for (int r = 0; r < 3; r++) for (int i = 0; i < n; i++) sink += work(i);  // warm-up
        long start = System.nanoTime();
        for (int r = 0; r < 5; r++) for (int i = 0; i < n; i++) sink += work(i);
        long end = System.nanoTime();
        System.out.printf("%.2f ns/call (sink %d)%n", (end - start) / (5.0 * n), sink);
    }
}
