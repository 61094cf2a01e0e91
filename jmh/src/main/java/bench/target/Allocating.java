package bench.target;

import org.openjdk.jmh.annotations.CompilerControl;

/**
 * An allocating workload for the allocation benchmark: per round, eight small records and a
 * 1 to 2 KiB array, each stored into a ring that holds the last 4096 of them, so every one escapes
 * and is really allocated on the heap (a value that does not escape is scalar-replaced by C2 and
 * never reaches the allocation sampler); about 2 KiB a round, what a service allocates per small
 * request.
 */
public final class Allocating {
    private Allocating() {}

    record Item(long id, String name, double price) {}

    private static final Object[] RING = new Object[4096];

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    public static long round(long seed) {
        long x = seed;
        for (int i = 0; i < 8; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            RING[(int) (x >>> 52)] = new Item(x, (x & 1) == 0 ? "even" : "odd", x * 0.5);
        }
        byte[] buffer = new byte[1024 + (int) ((x >>> 40) & 1023)];
        buffer[0] = (byte) x;
        RING[(int) ((x >>> 20) & 4095)] = buffer;
        return x + buffer.length;
    }
}
