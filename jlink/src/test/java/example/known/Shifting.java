package example.known;

/**
 * A program whose hot method moves between two runs, for differential profiles: each round calls
 * {@code alpha} and {@code beta}, the same kind of work, four parts to one in mode {@code a} and
 * one to four in mode {@code b}. Usage: {@code Shifting a|b <seconds>}; prints {@code done}.
 */
public class Shifting {
    static long alpha(long x, int parts) {
        for (int i = 0; i < parts * 1_000; i++) x = x * 6364136223846793005L + 1442695040888963407L ^ (x >>> 29);
        return x;
    }

    static long beta(long x, int parts) {
        for (int i = 0; i < parts * 1_000; i++) x = x * 2862933555777941757L + 3037000493L ^ (x >>> 31);
        return x;
    }

    public static void main(String[] args) {
        boolean a = args[0].equals("a");
        long end = System.nanoTime() + (long) (Double.parseDouble(args[1]) * 1e9);
        long x = 1;
        while (System.nanoTime() < end) {
            x = alpha(x, a ? 4 : 1);
            x = beta(x, a ? 1 : 4);
        }
        System.out.println(x == 42 ? "done." : "done");
    }
}
