package dev.tiprobe.probe;

import java.lang.reflect.Field;
import java.lang.reflect.InaccessibleObjectException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * How trace mode keeps an argument or result: taken at the call, so later changes to a mutable
 * object do not show, and the program's objects are not kept alive. Immutable values (boxed
 * primitives, strings within the limit) are kept as they are; other objects are described by their
 * fields, read without running any of the application's code: no getter, {@code toString()},
 * {@code hashCode()} or collection method of its classes (only {@code --tostring} runs its code).
 */
public sealed interface Captured {
    /** Marks a value not captured because probe code was already running on the thread. */
    Captured SKIPPED = new Skipped();

    /** A string longer than the limit: its first characters and its full length. */
    record Text(String prefix, int length) implements Captured {}

    record EnumValue(String type, String name) implements Captured {}

    /** An array: its component type, length and first elements (each captured too, one level). */
    record ArrayValue(String componentType, int length, Object[] first) implements Captured {}

    /**
     * Any other object: class name and identity hash; its fields, read at the call ({@code fields}
     * null when not read: past the depth, or when {@code toString()} was asked for instead), and
     * how many more it has than were kept; {@code toString()} when that was asked for.
     */
    record ObjectValue(String type, int identityHash, String text, List<FieldValue> fields, int moreFields) implements Captured {}

    /** A field of an object and its value, captured as arguments are. */
    record FieldValue(String name, Object value) {}

    /** An object met again within the same value (a cycle, or an object shared by two fields): named, not followed. */
    record Seen(String type, int identityHash) implements Captured {}

    /** A collection or map of the JDK's: its class and size, not its elements. */
    record Sized(String type, int size) implements Captured {}

    /** A value class of the JDK's (BigDecimal, UUID, java.time): its own text, which is the JDK's code, not the application's. */
    record JdkValue(String type, String text) implements Captured {}

    /** A field that could not be read, and why. */
    record Unreadable(String why) implements Captured {}

    /** What a call threw. */
    record Thrown(String type, String message) implements Captured {}

    record Skipped() implements Captured {}

    static Object of(Object v, TraceSettings settings) {
        return of(v, settings, 0, null);
    }

    /**
     * {@code v} at {@code depth} (0: an argument itself); {@code seen} holds the objects shown by
     * their fields so far in this value (null until the first), so a cycle or a shared object is
     * named and not followed.
     */
    private static Object of(Object v, TraceSettings settings, int depth, IdentityHashMap<Object, Boolean> seen) {
        if (v == null || v instanceof Boolean || v instanceof Character || v instanceof Byte
                || v instanceof Short || v instanceof Integer || v instanceof Long
                || v instanceof Float || v instanceof Double) {
            return v;
        }
        if (v instanceof String s) return s.length() <= settings.maxString() ? s : new Text(s.substring(0, settings.maxString()), s.length());
        if (v instanceof Enum<?> e) return new EnumValue(e.getDeclaringClass().getName(), e.name());
        Class<?> type = v.getClass();
        if (type.isArray()) {
            if (depth > 0) return new ArrayValue(type.getComponentType().getName(), java.lang.reflect.Array.getLength(v), new Object[0]);
            return array(v, type.getComponentType(), settings, seen);
        }
        if (seen != null && seen.containsKey(v)) return new Seen(type.getName(), System.identityHashCode(v));
        Object jdk = jdkValue(v, type);
        if (jdk != null) return jdk;
        if (settings.callToString() && depth == 0) {
            return new ObjectValue(type.getName(), System.identityHashCode(v), safeToString(v, settings), null, 0);
        }
        if (depth >= settings.maxDepth()) return new ObjectValue(type.getName(), System.identityHashCode(v), null, null, 0);
        if (seen == null) seen = new IdentityHashMap<>();
        seen.put(v, Boolean.TRUE);
        List<Field> all = ObjectFields.of(type);
        List<FieldValue> fields = new ArrayList<>(Math.min(all.size(), settings.maxFields()));
        for (int i = 0; i < all.size() && i < settings.maxFields(); i++) {
            Field f = all.get(i);
            fields.add(new FieldValue(f.getName(), field(f, v, settings, depth, seen)));
        }
        return new ObjectValue(type.getName(), System.identityHashCode(v), null, fields, all.size() - fields.size());
    }

    private static ArrayValue array(Object array, Class<?> component, TraceSettings settings, IdentityHashMap<Object, Boolean> seen) {
        int length = java.lang.reflect.Array.getLength(array);
        Object[] first = new Object[Math.min(length, settings.maxElements())];
        for (int i = 0; i < first.length; i++) {
            Object element = java.lang.reflect.Array.get(array, i);  // boxes primitives
            first[i] = of(element, settings, Math.max(1, settings.maxDepth()), seen);  // elements are named, not opened
        }
        return new ArrayValue(component.getName(), length, first);
    }

    /** A field's value, opening its package to the probe first where its module keeps it closed. */
    private static Object field(Field f, Object owner, TraceSettings settings, int depth, IdentityHashMap<Object, Boolean> seen) {
        try {
            if (!f.canAccess(owner)) {
                try {
                    f.setAccessible(true);
                } catch (InaccessibleObjectException closed) {
                    Consumer<Class<?>> opener = ObjectFields.opener;
                    if (opener == null) return new Unreadable("its package is not open to tiprobe");
                    opener.accept(f.getDeclaringClass());
                    f.setAccessible(true);
                }
            }
            return of(f.get(owner), settings, depth + 1, seen);
        } catch (RuntimeException | IllegalAccessException e) {
            return new Unreadable(e.getClass().getSimpleName());
        }
    }

    /**
     * A JDK value or collection described by the JDK's own code (never the application's): a
     * BigDecimal, UUID or java.time value by its text, a java.util collection or map by its size.
     * Null for anything else.
     */
    private static Object jdkValue(Object v, Class<?> type) {
        if (type.getClassLoader() != null) return null;
        String name = type.getName();
        if (v instanceof java.math.BigDecimal || v instanceof java.math.BigInteger || v instanceof java.util.UUID
                || name.startsWith("java.time.") || v instanceof Class<?>) {
            return new JdkValue(name, v instanceof Class<?> c ? c.getName() : v.toString());
        }
        // Sizes of the JDK's plain collections; a synchronized or blocking one could wait on a lock.
        if (name.startsWith("java.util.") && !name.contains("Synchronized") && !(v instanceof java.util.concurrent.BlockingQueue<?>)) {
            if (v instanceof Collection<?> c) return new Sized(name, c.size());
            if (v instanceof Map<?, ?> m) return new Sized(name, m.size());
        }
        return null;
    }

    private static String safeToString(Object v, TraceSettings settings) {
        try {
            String s = String.valueOf(v.toString());
            return s.length() <= settings.maxString() ? s : s.substring(0, settings.maxString()) + "…";
        } catch (Throwable t) {
            return "<toString() threw " + t.getClass().getName() + ">";
        }
    }

    static Thrown thrown(Throwable t) {
        String message;
        try {
            message = t.getMessage();
        } catch (Throwable inner) {
            message = "<getMessage() threw " + inner.getClass().getName() + ">";
        }
        return new Thrown(t.getClass().getName(), message);
    }
}
