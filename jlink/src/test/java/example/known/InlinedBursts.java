package example.known;

/**
 * {@link Inlined}'s 1 : 2 : 4 kernel as programs often hold it: the hot method ({@link #burst})
 * runs the kernel for about a millisecond and returns, called again and again by a loop that runs
 * throughout ({@link Inlined#callBursts}) and does no work of its own. That loop sits in the
 * kernels' own class, so recompiling the kernels changes the class of a method that never returns.
 *
 * <p>Usage: {@code InlinedBursts [seconds]}; prints {@code ready}, then {@code second <n> <bursts>}
 * each second (the program's speed, to compare before and after a recompilation).
 */
public final class InlinedBursts {
    private InlinedBursts() {}

    /** About a millisecond of the kernel, inlined here by C2. */
    static long burst(long x) {
        for (int i = 0; i < 100_000; i++) {
            x = Inlined.one(x);
            x = Inlined.two(x);
            x = Inlined.four(x);
        }
        return x;
    }

    public static void main(String[] args) {
        Inlined.callBursts(args.length > 0 ? Double.parseDouble(args[0]) : Double.POSITIVE_INFINITY);
    }
}
