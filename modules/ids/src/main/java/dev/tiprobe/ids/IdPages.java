package dev.tiprobe.ids;

/**
 * Values by int id, kept in pages of {@value #PAGE} ids; a page goes once none of its ids holds
 * a value. Token ints are never handed out twice, so under class churn the highest id climbs
 * without end while the ids alive stay few: a flat array would grow by one slot for every method
 * the program ever made (a few MB an hour), these pages by the ids alive.
 *
 * <p>Reads are lock-free; writes are serialized by the owner's lock.
 *
 * @param <T> what an id stands for
 */
final class IdPages<T> {
    static final int PAGE = 1024;
    private static final int SHIFT = Integer.numberOfTrailingZeros(PAGE);

    /** Pages by {@code id / PAGE}; null where no id of a page holds a value. Replaced to publish writes. */
    private volatile Object[][] pages = new Object[1][];
    /** How many values each page holds. Owner-locked. */
    private int[] held = new int[1];

    /** The value of {@code id}, or null. Lock-free. */
    @SuppressWarnings("unchecked")
    T get(int id) {
        Object[][] p = pages;
        int k = id >>> SHIFT;
        if (id < 0 || k >= p.length) return null;
        Object[] page = p[k];
        return page == null ? null : (T) page[id & (PAGE - 1)];
    }

    /** Sets (or with null clears) the value of {@code id}; a page left empty goes. Call under the owner's lock. */
    void set(int id, T value) {
        if (id < 0) throw new IllegalArgumentException("negative id " + id);
        Object[][] p = pages;
        int k = id >>> SHIFT;
        if (k >= p.length) {
            if (value == null) return;
            int length = Math.max(k + 1, p.length * 2);
            p = java.util.Arrays.copyOf(p, length);
            held = java.util.Arrays.copyOf(held, length);
        }
        Object[] page = p[k];
        if (page == null) {
            if (value == null) return;
            page = p[k] = new Object[PAGE];
        }
        int i = id & (PAGE - 1);
        if (page[i] == null && value != null) held[k]++;
        else if (page[i] != null && value == null) held[k]--;
        page[i] = value;
        if (held[k] == 0) p[k] = null;
        pages = p;  // the volatile write publishes the element and any new page
    }

    /** How many pages hold values: what the ids take, besides one reference per {@value #PAGE} ids ever handed out. */
    int pagesHeld() {
        int n = 0;
        for (Object[] page : pages) if (page != null) n++;
        return n;
    }
}
