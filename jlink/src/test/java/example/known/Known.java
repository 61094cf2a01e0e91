package example.known;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A target with known counts: each time the file {@code <dir>/go} appears, it deletes it, calls
 * {@link #work} 50,000 times, prints the sum and writes {@code <dir>/done}. With {@code --once}
 * it does one round at start and exits; with {@code --busy} it runs {@link #spin} until killed.
 */
public class Known {
    static int work(int x) {
        return x % 7;
    }

    static long spin(long seed) {
        long x = seed;
        for (int i = 0; i < 1_000_000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        return x & 1;
    }

    static long round() {
        long sum = 0;
        for (int i = 0; i < 50_000; i++) sum += work(i);
        return sum;
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("--busy")) {  // a hot method for the sampler, until killed
            System.out.println("ready");
            long sum = 0;
            while (true) sum += spin(sum);
        }
        if (args[0].equals("--once")) {
            System.out.println("sum " + round());
            return;
        }
        Path dir = Path.of(args[0]);
        System.out.println("ready");
        while (true) {
            if (Files.deleteIfExists(dir.resolve("go"))) {
                System.out.println("sum " + round());
                Files.writeString(dir.resolve("done"), "done");
            }
            if (Files.exists(dir.resolve("quit"))) return;
            Thread.sleep(10);
        }
    }
}
