package dev.tiprobe.ids;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A map from a key to one value or a few, holding a lone value as itself: the ID map's reverse
 * tables have one entry per live class or method, nearly always alone under its key, and a list
 * for each cost 56 bytes of the application's heap more (about 1.5 MB on a program that keeps
 * 25,000 methods of short-lived script classes alive). Not thread-safe: its owner locks.
 */
final class OneOrMany<K, V> {
    private final Map<K, Object> values = new HashMap<>();

    void add(K key, V value) {
        values.merge(key, value, (held, added) -> held instanceof Object[] several
                ? append(several, added) : new Object[] {held, added});
    }

    /** Removes one value equal to {@code value} under {@code key}, if there is one. */
    void remove(K key, V value) {
        Object held = values.get(key);
        if (held instanceof Object[] several) {
            int at = Arrays.asList(several).indexOf(value);
            if (at < 0) return;
            Object[] rest = new Object[several.length - 1];
            System.arraycopy(several, 0, rest, 0, at);
            System.arraycopy(several, at + 1, rest, at, rest.length - at);
            values.put(key, rest.length == 1 ? rest[0] : rest);
        } else if (held != null && held.equals(value)) {
            values.remove(key);
        }
    }

    /** The values under {@code key}, in the order added; empty when none. */
    @SuppressWarnings("unchecked")
    List<V> get(K key) {
        Object held = values.get(key);
        if (held == null) return List.of();
        return held instanceof Object[] several ? (List<V>) List.of(several) : List.of((V) held);
    }

    boolean containsKey(K key) {
        return values.containsKey(key);
    }

    private static Object[] append(Object[] several, Object added) {
        Object[] grown = Arrays.copyOf(several, several.length + 1);
        grown[several.length] = added;
        return grown;
    }
}
