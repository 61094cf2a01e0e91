package dev.tiprobe.agent;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;

/**
 * Whether the application's heap is nearly full, so that tiprobe does not take the last of it:
 * a session does not start in such a heap, and a running one stops itself once the heap has
 * stayed that full for {@link #LOOKS} looks in a row (its recording finished, classes restored).
 * What the agent keeps lives in the application's heap; in a heap that full it is what would
 * bring the {@link OutOfMemoryError}.
 *
 * <p>Nearly full means at least {@link #FULL} of the maximum heap in use both after the last
 * collection that measured it (the heap pools' collection usage: what stayed alive, possibly
 * since an old collection) and now (live objects and garbage, which a stale figure cannot
 * hide). G1, the default collector, keeps a tenth of the heap in reserve and throws
 * {@code OutOfMemoryError} with 86 % of a 64 MB heap in use after a full collection (measured
 * on JDK 25), so the line is drawn below that.
 */
final class HeapWatch {
    /** The share of the maximum heap in use, after a collection and now, that counts as nearly full. */
    static final double FULL = 0.85;
    /** Looks (one a second) in a row that find the heap nearly full before a running session stops. */
    static final int LOOKS = 3;

    /** Why a session stopped when even the words for its heap's figures found no room: made before they are needed. */
    static final String FULL_WORDS = "the target's heap is full; its recording holds what came before";

    private int fullLooks;
    /** The share the last look measured; NaN when the last look could not measure (no room). */
    private double lastShare = Double.NaN;
    /** When the last look was counted ({@link System#nanoTime()}): a failure in the same round is not counted again. */
    private long lastLookNanos = System.nanoTime() - ROUND_NANOS;
    private static final long ROUND_NANOS = 500_000_000L;

    /** The share of the maximum heap in use after the last collections, or 0 where the JVM does not say. */
    static double afterCollection() {
        try {
            long max = Runtime.getRuntime().maxMemory();
            if (max <= 0 || max == Long.MAX_VALUE) return 0;
            long used = 0;
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                MemoryUsage after = pool.getType() == MemoryType.HEAP ? pool.getCollectionUsage() : null;
                if (after != null) used += after.getUsed();
            }
            Runtime runtime = Runtime.getRuntime();
            long now = runtime.totalMemory() - runtime.freeMemory();
            return Math.min(used, now) / (double) max;
        } catch (OutOfMemoryError e) {
            return 1;  // too full to ask: full
        } catch (LinkageError | RuntimeException e) {
            return 0;  // a runtime without java.management: no watch
        }
    }

    /** Whether the heap is nearly full at this look; null when it is not, else why, in words. */
    static String nearlyFull() {
        double share = afterCollection();
        return share < FULL ? null : why(share);
    }

    private static String why(double share) {
        return "the target's heap is " + Math.round(share * 100) + " % full after its last collection (of "
                + (Runtime.getRuntime().maxMemory() >> 20) + " MB)";
    }

    /**
     * One look a second: whether the heap has now been nearly full {@link #LOOKS} looks in a row,
     * so the session should stop. Allocates nothing but what the pools' figures take.
     */
    boolean look() {
        double share = afterCollection();
        lastShare = share;
        lastLookNanos = System.nanoTime();
        fullLooks = share < FULL ? 0 : fullLooks + 1;
        return fullLooks >= LOOKS;
    }

    /**
     * A look that could not be taken because the session's own work met {@code e}: an
     * {@link OutOfMemoryError} of the Java heap counts as a look that found the heap full (in such
     * a heap every look may fail that way, and the session must stop all the same), unless a look
     * was counted in this round already. Another kind (metaspace, threads) is not counted. As
     * {@link #look()}.
     */
    boolean lookFailed(OutOfMemoryError e) {
        String what = e.getMessage();
        boolean heap = what == null || what.startsWith("Java heap") || what.startsWith("GC overhead");
        long now = System.nanoTime();
        if (heap && now - lastLookNanos >= ROUND_NANOS) {
            lastLookNanos = now;
            lastShare = Double.NaN;
            fullLooks++;
        }
        return fullLooks >= LOOKS;
    }

    /**
     * Why the session stops, with the last look's figures; {@link #FULL_WORDS} when making the
     * words finds no room.
     */
    String why() {
        if (Double.isNaN(lastShare)) return FULL_WORDS;
        try {
            return why(lastShare) + "; its recording holds what came before";
        } catch (OutOfMemoryError e) {
            return FULL_WORDS;
        }
    }
}
