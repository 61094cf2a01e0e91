package example.real;

/**
 * A program of one second (or of the milliseconds its argument says): prints when main began
 * (epoch milliseconds), spins in {@link #spin} for that long and exits, after sleeping the
 * milliseconds a second argument gives (a tail with nothing for a cpu sampler to see). A sampler
 * started from the first moment should cover the spinning.
 */
public class OneSecond {
    static long spin(long x) {
        for (int i = 0; i < 1000; i++) x = x * 6364136223846793005L + 1;
        return x;
    }

    public static void main(String[] args) {
        System.out.println("main at " + System.currentTimeMillis());
        long millis = args.length > 0 ? Long.parseLong(args[0]) : 1000;
        long end = System.nanoTime() + millis * 1_000_000L;
        long x = 0;
        while (System.nanoTime() < end) x += spin(x);
        System.out.println("done " + (x & 1));
        if (args.length > 1) {
            try {
                Thread.sleep(Long.parseLong(args[1]));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
