package example.known;

/**
 * {@link Inlined}'s 1 : 2 : 4 kernel called from a loop in another class than the three methods
 * ({@code Inlined.one}, {@code two} and {@code four}), as a program's hot loop usually calls other
 * classes' methods: C2 inlines them into {@link #main}'s loop all the same. Attached late,
 * {@code --recompile} can have that loop compiled again without touching its own class. Prints
 * {@code ready}, then runs for the seconds given (default: until killed).
 */
public class InlinedAcross {
    public static void main(String[] args) {
        long end = args.length > 0 ? System.nanoTime() + (long) (Double.parseDouble(args[0]) * 1e9) : Long.MAX_VALUE;
        System.out.println("ready");
        long x = 1;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 1_000_000; i++) {
                x = Inlined.one(x);
                x = Inlined.two(x);
                x = Inlined.four(x);
            }
        }
        System.out.println("done " + (x & 1));
    }
}
