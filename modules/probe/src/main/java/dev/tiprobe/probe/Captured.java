package dev.tiprobe.probe;

/**
 * How trace mode keeps an argument or result: taken at the call, so later changes to a mutable
 * object do not show, and the program's objects are not kept alive. Immutable values (boxed
 * primitives, strings within the limit) are kept as they are; the rest is described.
 */
public sealed interface Captured {
    /** Marks a value not captured because probe code was already running on the thread. */
    Captured SKIPPED = new Skipped();

    /** A string longer than the limit: its first characters and its full length. */
    record Text(String prefix, int length) implements Captured {}

    record EnumValue(String type, String name) implements Captured {}

    /** An array: its component type, length and first elements (each captured too, one level). */
    record ArrayValue(String componentType, int length, Object[] first) implements Captured {}

    /** Any other object: class name and identity hash, and toString() when that was asked for. */
    record ObjectValue(String type, int identityHash, String text) implements Captured {}

    /** What a call threw. */
    record Thrown(String type, String message) implements Captured {}

    record Skipped() implements Captured {}

    static Object of(Object v, TraceSettings settings) {
        return of(v, settings, true);
    }

    private static Object of(Object v, TraceSettings settings, boolean descend) {
        if (v == null || v instanceof Boolean || v instanceof Character || v instanceof Byte
                || v instanceof Short || v instanceof Integer || v instanceof Long
                || v instanceof Float || v instanceof Double) {
            return v;
        }
        if (v instanceof String s) return s.length() <= settings.maxString() ? s : new Text(s.substring(0, settings.maxString()), s.length());
        if (v instanceof Enum<?> e) return new EnumValue(e.getDeclaringClass().getName(), e.name());
        Class<?> type = v.getClass();
        if (type.isArray()) {
            if (!descend) return new ArrayValue(type.getComponentType().getName(), java.lang.reflect.Array.getLength(v), new Object[0]);
            return array(v, type.getComponentType(), settings);
        }
        String text = null;
        if (settings.callToString() && descend) text = safeToString(v, settings);
        return new ObjectValue(type.getName(), System.identityHashCode(v), text);
    }

    private static ArrayValue array(Object array, Class<?> component, TraceSettings settings) {
        int length = java.lang.reflect.Array.getLength(array);
        Object[] first = new Object[Math.min(length, settings.maxElements())];
        for (int i = 0; i < first.length; i++) {
            Object element = java.lang.reflect.Array.get(array, i);  // boxes primitives
            first[i] = of(element, settings, false);
        }
        return new ArrayValue(component.getName(), length, first);
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
