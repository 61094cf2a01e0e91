package example.known;

/**
 * A known mix of allocated bytes, for checking the alloc view's shares: per round 16,384
 * {@code long[6]} (64 bytes each, 1 MiB), 1,024 {@code char[504]} (1,024 bytes each, 1 MiB) and
 * one {@code byte[1 MiB]}: a third of the bytes each, from objects of very different sizes (the
 * header sizes of HotSpot's default layout; every object escapes, so none is optimized away).
 *
 * <p>Usage: {@code AllocationMix <seconds>}.
 */
public class AllocationMix {
    static final Object[] RING = new Object[1 << 14];
    static volatile Object last;

    static void small() {
        for (int k = 0; k < 1 << 14; k++) RING[k] = new long[6];
    }

    static void medium() {
        for (int k = 0; k < 1024; k++) last = new char[504];
    }

    static void large() {
        last = new byte[(1 << 20) - 16];
    }

    public static void main(String[] args) {
        long end = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        long rounds = 0;
        while (System.nanoTime() < end) {
            small();
            medium();
            large();
            rounds++;
        }
        System.out.println("rounds " + rounds);
    }
}
