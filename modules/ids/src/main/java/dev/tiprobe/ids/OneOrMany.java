package dev.tiprobe.ids;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A map from a key to one value or several, holding a lone value as itself: the ID map's reverse
 * tables have one entry per live class or method, nearly always alone under its key, and a list
 * for each cost 56 bytes of the application's heap more (about 1.5 MB on a program that keeps
 * 25,000 methods of short-lived script classes alive). Several values sit in a list; hidden
 * classes share a name, so a key may hold thousands. Not thread-safe: its owner locks.
 */
final class OneOrMany<K, V> {
    private final Map<K, Object> values = new HashMap<>();

    void add(K key, V value) {
        values.merge(key, value, (held, added) -> {
            if (held instanceof Several several) {
                several.list.add(added);
                return several;
            }
            return new Several(held, added);
        });
    }

    /** Removes one value equal to {@code value} under {@code key}, if there is one. */
    void remove(K key, V value) {
        Object held = values.get(key);
        if (held instanceof Several several) {
            several.list.remove(value);
            if (several.list.size() == 1) values.put(key, several.list.getFirst());
        } else if (held != null && held.equals(value)) {
            values.remove(key);
        }
    }

    /** The values under {@code key}, in the order added, as an immutable copy; empty when none. */
    @SuppressWarnings("unchecked")
    List<V> get(K key) {
        Object held = values.get(key);
        if (held == null) return List.of();
        return held instanceof Several several ? (List<V>) List.copyOf(several.list) : List.of((V) held);
    }

    boolean containsKey(K key) {
        return values.containsKey(key);
    }

    /** Its own type, so that a value that is itself a list is never taken for several. */
    private static final class Several {
        final List<Object> list = new ArrayList<>(4);

        Several(Object first, Object second) {
            list.add(first);
            list.add(second);
        }
    }
}
