package example.known;

/**
 * Three small methods that C2 inlines into one hot loop, doing 1 : 2 : 4 of the work (4, 8 and 16
 * steps of one dependent chain of multiply, add and shift, no loop inside any of them): a sampler
 * free of safepoint bias gives them about 14, 29 and 57 % of the CPU; one that walks stacks at
 * safepoint polls gives the loop's method ({@link #main}) everything, as the only poll is at its
 * back edge. Prints {@code ready}, then runs until its thread has used the seconds of CPU given
 * (default: until killed): a profile of it then holds as many samples however busy the machine
 * (on a runtime without java.management, the seconds of the clock).
 */
public class Inlined {
    static long one(long x) {
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        return x;
    }

    static long two(long x) {
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        return x;
    }

    static long four(long x) {
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        x = x * 6364136223846793005L + 1442695040888963407L; x ^= x >>> 29;
        return x;
    }

    /**
     * {@link InlinedBursts}'s loop: it runs throughout in this class, the kernels', and only calls
     * {@link InlinedBursts#burst}, printing each second how many bursts it ran a second of the
     * clock, then a second of its thread's CPU (what a busy machine's time slicing leaves alone).
     */
    static void callBursts(double seconds) {
        long end = Double.isInfinite(seconds) ? Long.MAX_VALUE : System.nanoTime() + (long) (seconds * 1e9);
        java.util.function.LongSupplier cpu = CpuClock.ofThisThread();
        System.out.println("ready");
        long x = 1;
        long mark = System.nanoTime();
        long cpuMark = cpu.getAsLong();
        int bursts = 0;
        int second = 0;
        while (mark < end) {
            x = InlinedBursts.burst(x);
            bursts++;
            long now = System.nanoTime();
            if (now - mark >= 1_000_000_000L) {
                long cpuNow = cpu.getAsLong();
                System.out.println("second " + ++second + " " + bursts * 1e9 / (now - mark) + " " + bursts * 1e9 / Math.max(1, cpuNow - cpuMark));
                bursts = 0;
                mark = now;
                cpuMark = cpuNow;
            }
        }
        System.out.println("done " + (x & 1));
    }

    /** The thread's CPU clock, through java.management; the wall clock on a runtime without it (a jlinked one). */
    private static final class CpuClock {
        static java.util.function.LongSupplier ofThisThread() {
            try {
                java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
                long start = threads.getCurrentThreadCpuTime();  // the JVM's start and an agent's premain ran on this thread too
                return () -> threads.getCurrentThreadCpuTime() - start;
            } catch (LinkageError noManagement) {
                long start = System.nanoTime();
                return () -> System.nanoTime() - start;
            }
        }
    }

    public static void main(String[] args) {
        long limit = args.length > 0 ? (long) (Double.parseDouble(args[0]) * 1e9) : Long.MAX_VALUE;
        java.util.function.LongSupplier clock = args.length > 0 ? CpuClock.ofThisThread() : () -> 0;
        System.out.println("ready");
        long x = 1;
        while (clock.getAsLong() < limit) {
            for (int i = 0; i < 1_000_000; i++) {
                x = one(x);
                x = two(x);
                x = four(x);
            }
        }
        System.out.println("done " + (x & 1));
    }
}
