package dev.tiprobe.ids;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A map from nonzero {@code long} keys to values, for run-time IDs: jmethodIDs and class tags.
 *
 * <p>Open addressing over a {@code long[]} of keys and an {@code Object[]} of values: a lookup
 * boxes nothing and allocates nothing. A key's probe sequence has two parts. First up to
 * {@value #NEAR} slots from its near home, {@code key ^ (key >>> 3)}, which keeps both shapes of
 * jmethodID in a dense, collision-free run of slots: small unique counters (JDK 26 on, and
 * tiprobe's class tags) and 8-byte aligned pointers into per-loader blocks (up to JDK 25). Dense
 * keys touch a dense part of the table, which the cache keeps far better than scattered slots.
 * Keys that collide there (strided counters, pointers from distant blocks) go on by linear probing
 * from a Fibonacci-hashed slot, so no key pattern builds long runs.
 *
 * <p>Reads are lock-free and safe while another thread writes. Writers serialize on the map. Once
 * a key is written into a slot of a table it never changes there, and that slot's value only ever
 * holds values of that key, a tombstone, or nothing yet: so a reader needs no barrier between the
 * key and the value (plain loads, as fast as the single-threaded maps), and a slot whose value it
 * does not see yet reads as a miss, never as another key's value. A removal leaves the key with a
 * tombstone, so probe chains stay intact and the same key can come back (an ID reused after an
 * unload) in its old slot. A resize fills a new table in its constructor and publishes it: its
 * arrays are final fields, so a reader that sees the new table sees it filled, and the table field
 * is read plainly: a volatile or even opaque read there made lookups at 1M entries up to twice as
 * slow in IdMapBench (BENCHMARKS.md), probably because the barrier keeps the JIT from
 * interleaving consecutive lookups.
 *
 * <p>So the contract is the Java memory model's: a {@code get} that happens after a {@code put}
 * or {@code remove} (through a lock, a queue, a thread start) sees it; a {@code get} racing with
 * one sees the map before or after it. A reader that loops on {@code get} with no synchronization
 * in between may keep seeing the map as it was when the loop began; the ID map's unload protocol
 * (readers pin, unloads take the write lock) gives every reader the edge it needs.
 *
 * @param <V> the value type
 */
public final class LongMap<V> {
    private static final Object REMOVED = new Object();
    private static final VarHandle KEYS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle VALUES = MethodHandles.arrayElementVarHandle(Object[].class);

    private static final long SPREAD = 0x9E3779B97F4A7C15L;
    private static final int MIN_CAPACITY = 16;
    /** Probes from the near home before the scattered one: a cache line of keys. */
    private static final int NEAR = 8;

    private static final class Table {
        final long[] keys;
        final Object[] values;
        final int mask;
        final int shift;

        Table(int capacity) {
            keys = new long[capacity];
            values = new Object[capacity];
            mask = capacity - 1;
            shift = 64 - Integer.numberOfTrailingZeros(capacity);
        }

        /** A table of {@code capacity} slots holding the live entries of {@code old}. */
        Table(int capacity, Table old) {
            this(capacity);
            for (int i = 0; i <= old.mask; i++) {
                long k = old.keys[i];
                Object v = old.values[i];
                if (k == 0 || v == REMOVED) continue;
                int j = find(k);
                keys[j] = k;
                values[j] = v;
            }
        }

        /**
         * The slot that holds {@code key}, or the first empty slot of its probe sequence. Every
         * operation walks this one sequence; a slot never becomes empty again (removal leaves a
         * tombstone), so the empty slot that ends a walk proves the key absent.
         */
        int find(long key) {
            long[] keys = this.keys;
            int mask = this.mask;
            int i = (int) (key ^ (key >>> 3)) & mask;
            for (int n = 0; n < NEAR; n++, i = (i + 1) & mask) {
                long k = keys[i];
                if (k == key || k == 0) return i;
            }
            for (i = (int) ((key * SPREAD) >>> shift); ; i = (i + 1) & mask) {
                long k = keys[i];
                if (k == key || k == 0) return i;
            }
        }
    }

    /** Written under {@code this}; read plainly (see the class comment). */
    private Table table;
    private int size;
    /** Live entries plus tombstones: what fills the table. Guarded by {@code this}. */
    private int used;

    public LongMap() {
        this(MIN_CAPACITY);
    }

    /** A map that holds {@code expected} entries without resizing. */
    public LongMap(int expected) {
        table = new Table(capacityFor(expected));
    }

    private static int capacityFor(int entries) {
        long wanted = Math.max(MIN_CAPACITY, (long) entries * 4 / 3 + 1);  // at most three quarters full
        if (wanted > 1 << 30) throw new IllegalArgumentException("too many entries: " + entries);
        return Integer.highestOneBit((int) wanted - 1) << 1;
    }

    /** The value of {@code key}, or null. Lock-free; allocates nothing. */
    @SuppressWarnings("unchecked")
    public V get(long key) {
        Table t = table;
        int i = t.find(key);
        if (t.keys[i] != key) return null;
        Object v = t.values[i];
        return v == REMOVED ? null : (V) v;  // null: the writer has not stored it yet
    }

    /**
     * Maps {@code key} to {@code value}; returns the value it replaced, or null.
     *
     * @throws IllegalArgumentException for key 0, which marks empty slots
     */
    @SuppressWarnings("unchecked")
    public synchronized V put(long key, V value) {
        if (key == 0) throw new IllegalArgumentException("key 0 is reserved");
        if (value == null) throw new NullPointerException("value");
        int capacity = table.mask + 1;
        if (used + 1 > capacity / 4 * 3) {
            // Mostly live entries: double. Mostly tombstones (unloads): rebuild at the same size.
            resize(size + 1 > capacity / 2 ? capacity * 2 : capacity);
        }
        Table t = table;
        int i = t.find(key);
        if (t.keys[i] == key) {
            Object old = t.values[i];
            VALUES.setRelease(t.values, i, value);
            if (old == REMOVED) {
                size++;
                return null;
            }
            return (V) old;
        }
        VALUES.setRelease(t.values, i, value);
        KEYS.setRelease(t.keys, i, key);
        size++;
        used++;
        return null;
    }

    /** Removes {@code key}; returns its value, or null if it had none. */
    @SuppressWarnings("unchecked")
    public synchronized V remove(long key) {
        Table t = table;
        int i = t.find(key);
        if (t.keys[i] != key) return null;
        Object old = t.values[i];
        if (old == REMOVED) return null;
        VALUES.setRelease(t.values, i, REMOVED);
        size--;
        int capacity = t.mask + 1;
        if (capacity > MIN_CAPACITY && size < capacity / 8) resize(capacityFor(size * 2));  // see below
        return (V) old;
    }

    /** Live entries. */
    public synchronized int size() {
        return size;
    }

    /** Slots in the current table: memory is about 16 bytes a slot plus the values. */
    public int capacity() {
        return table.mask + 1;
    }

    /** Calls {@code action} for every live entry of one consistent table. */
    @SuppressWarnings("unchecked")
    public void forEach(Entry<? super V> action) {
        Table t = table;
        for (int i = 0; i <= t.mask; i++) {
            long k = t.keys[i];
            if (k == 0) continue;
            Object v = t.values[i];
            if (v != null && v != REMOVED) action.accept(k, (V) v);
        }
    }

    /** A key and its value. */
    @FunctionalInterface
    public interface Entry<V> {
        void accept(long key, V value);
    }

    /**
     * Rebuilds the table with {@code capacity} slots (a power of two), dropping tombstones. A
     * table an eighth full is rebuilt at a quarter or less of its live entries' room: under class
     * churn a G1 cycle unloads thousands of classes at once, and a table sized for the peak would
     * hold its slots in the application's heap until the session ends.
     */
    private void resize(int capacity) {
        if (capacity > 1 << 30) throw new IllegalStateException("LongMap full");
        table = new Table(capacity, table);
        used = size;
    }
}
