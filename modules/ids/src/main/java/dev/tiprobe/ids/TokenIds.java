package dev.tiprobe.ids;

/**
 * Tokens to their ints without boxing, for {@link TokenTable}: open addressing with linear
 * probing, and removal by shifting the rest of a run back, so no tombstones pile up. A HashMap
 * here cost a node and an Integer per token, 48 bytes of the application's heap (1.8 MB at the
 * 38,000 tokens a script host's churn keeps); this costs about 24. Not thread-safe: its owner locks.
 */
final class TokenIds<T> {
    private Object[] keys = new Object[16];
    private int[] ids = new int[16];
    private int size;

    /** The int of {@code token}, or 0. */
    int get(T token) {
        int mask = keys.length - 1;
        for (int i = home(token, mask); ; i = (i + 1) & mask) {
            Object k = keys[i];
            if (k == null) return 0;
            if (k.equals(token)) return ids[i];
        }
    }

    /** Maps {@code token}, not mapped yet, to {@code id} (nonzero). */
    void put(T token, int id) {
        if ((size + 1) * 2 > keys.length) grow();
        place(token, id);
        size++;
    }

    /** Forgets {@code token}; nothing when it is not mapped. */
    void remove(T token) {
        int mask = keys.length - 1;
        int i = home(token, mask);
        while (keys[i] != null && !keys[i].equals(token)) i = (i + 1) & mask;
        if (keys[i] == null) return;
        size--;
        // Backward shift: each later key of the run moves into the hole unless its home lies
        // cyclically after the hole (then it is already where a probe from its home finds it).
        for (int j = (i + 1) & mask; keys[j] != null; j = (j + 1) & mask) {
            int h = home(keys[j], mask);
            boolean stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
            if (!stays) {
                keys[i] = keys[j];
                ids[i] = ids[j];
                i = j;
            }
        }
        keys[i] = null;
        ids[i] = 0;
        if (keys.length > 16 && size < keys.length / 8) resize(keys.length / 2);  // a peak's room goes once the tokens do
    }

    int size() {
        return size;
    }

    /** Slots in the table. */
    int capacity() {
        return keys.length;
    }

    private void place(Object token, int id) {
        int mask = keys.length - 1;
        int i = home(token, mask);
        while (keys[i] != null) i = (i + 1) & mask;
        keys[i] = token;
        ids[i] = id;
    }

    private void grow() {
        resize(keys.length * 2);
    }

    private void resize(int length) {
        Object[] oldKeys = keys;
        int[] oldIds = ids;
        keys = new Object[length];
        ids = new int[length];
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) place(oldKeys[i], oldIds[i]);
        }
    }

    private static int home(Object token, int mask) {
        int h = token.hashCode() * 0x9E3779B9;  // spread: records' hash codes cluster in the low bits
        return (h ^ (h >>> 16)) & mask;
    }
}
