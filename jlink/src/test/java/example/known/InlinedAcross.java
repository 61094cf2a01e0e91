package example.known;

/**
 * {@link Inlined}'s 1 : 2 : 4 kernel with the three methods in another class ({@link Steps}) than
 * the loop that calls them, as a program's hot loop usually calls other classes' methods: C2
 * inlines them into {@link #main}'s loop all the same. Attached late, {@code --recompile} can have
 * that loop compiled again without touching its own class. Prints {@code ready}, then runs for the
 * seconds given (default: until killed).
 */
public class InlinedAcross {
    /** The three methods, doing 1 : 2 : 4 of the work. */
    static final class Steps {
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
    }

    public static void main(String[] args) {
        long end = args.length > 0 ? System.nanoTime() + (long) (Double.parseDouble(args[0]) * 1e9) : Long.MAX_VALUE;
        System.out.println("ready");
        long x = 1;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 1_000_000; i++) {
                x = Steps.one(x);
                x = Steps.two(x);
                x = Steps.four(x);
            }
        }
        System.out.println("done " + (x & 1));
    }
}
