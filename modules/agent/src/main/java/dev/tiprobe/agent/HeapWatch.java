package dev.tiprobe.agent;

import java.lang.management.GarbageCollectorMXBean;
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
 * on JDK 25), so the line is drawn below that. That line alone missed a heap kept full by the
 * application itself: one that holds all it can and then works in the last megabyte stays at
 * 84–86 % after each collection of a 64 MB heap while G1 runs most of the time (measured:
 * 6,800 young collections in 4 s). So a heap at least {@link #CROWDED} full whose collector
 * pauses the application for at least {@link #THRASHING} of the time counts as nearly full too.
 */
final class HeapWatch {
    /** The share of the maximum heap in use, after a collection and now, that counts as nearly full. */
    static final double FULL = 0.85;
    /** The share in use above which a collector busy {@link #THRASHING} of the time also means nearly full. */
    static final double CROWDED = 0.70;
    /** The share of wall time spent in the collector's pauses that, in a crowded heap, means it is thrashing. */
    static final double THRASHING = 0.25;
    /** How long a start that finds the heap crowded watches the collector before it decides. */
    private static final long START_WATCH_MILLIS = 250;
    /** Looks (one a second) in a row that find the heap nearly full before a running session stops. */
    static final int LOOKS = 3;

    /** Why a session stopped when even the words for its heap's figures found no room: made before they are needed. */
    static final String FULL_WORDS = "the target's heap is full; its recording holds what came before";

    private int fullLooks;
    /** The share the last look measured; NaN when the last look could not measure (no room). */
    private double lastShare = Double.NaN;
    /** The share of time the collector paused the application between the last two looks. */
    private double lastBusy;
    /** When the last look was counted ({@link System#nanoTime()}): a failure in the same round is not counted again. */
    private long lastLookNanos = System.nanoTime() - ROUND_NANOS;
    private static final long ROUND_NANOS = 500_000_000L;
    /** The collectors' pause time at the last look, and when it was read: the busy share is measured between looks. */
    private long lastPauseMillis = pauseMillis();
    private long lastPauseNanos = System.nanoTime();

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

    /**
     * The collectors' pause time so far, in ms: every collector but those whose time is concurrent
     * work rather than pauses (ZGC's and Shenandoah's "Cycles"); -1 where the JVM does not say.
     */
    static long pauseMillis() {
        try {
            long total = 0;
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                long millis = gc.getCollectionTime();
                if (millis > 0 && !gc.getName().endsWith("Cycles")) total += millis;
            }
            return total;
        } catch (OutOfMemoryError | LinkageError | RuntimeException e) {
            return -1;  // too full to ask, or no java.management: unknown
        }
    }

    /** The share of {@code nanos} of wall time the collectors paused for, from two readings of {@link #pauseMillis()}; 0 when unknown. */
    static double busyShare(long pauseBefore, long pauseAfter, long nanos) {
        if (pauseBefore < 0 || pauseAfter < pauseBefore || nanos <= 0) return 0;
        return Math.min(1, (pauseAfter - pauseBefore) * 1e6 / nanos);
    }

    /** Whether a heap {@code share} full, its collector pausing {@code busy} of the time, is nearly full. */
    static boolean nearlyFull(double share, double busy) {
        return share >= FULL || (share >= CROWDED && busy >= THRASHING);
    }

    /**
     * Whether the heap is nearly full at a session's start; null when it is not, else why, in
     * words. A crowded heap costs the start a quarter of a second watching its collector.
     */
    static String nearlyFull() {
        double share = afterCollection();
        if (share < CROWDED) return null;
        double busy = 0;
        if (share < FULL) {
            long before = pauseMillis();
            long from = System.nanoTime();
            try {
                Thread.sleep(START_WATCH_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            busy = busyShare(before, pauseMillis(), System.nanoTime() - from);
        }
        return nearlyFull(share, busy) ? why(share, busy) : null;
    }

    private static String why(double share, double busy) {
        return "the target's heap is " + Math.round(share * 100) + " % full after its last collection (of "
                + (Runtime.getRuntime().maxMemory() >> 20) + " MB)"
                + (share < FULL ? ", its collector pausing it " + Math.round(busy * 100) + " % of the time" : "");
    }

    /**
     * One look a second: whether the heap has now been nearly full {@link #LOOKS} looks in a row,
     * so the session should stop. Allocates nothing but what the pools' figures take.
     */
    boolean look() {
        double share = afterCollection();
        long pause = pauseMillis();
        long now = System.nanoTime();
        double busy = busyShare(lastPauseMillis, pause, now - lastPauseNanos);
        lastPauseMillis = pause;
        lastPauseNanos = now;
        lastShare = share;
        lastBusy = busy;
        lastLookNanos = now;
        fullLooks = nearlyFull(share, busy) ? fullLooks + 1 : 0;
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
            return why(lastShare, lastBusy) + "; its recording holds what came before";
        } catch (OutOfMemoryError e) {
            return FULL_WORDS;
        }
    }
}
