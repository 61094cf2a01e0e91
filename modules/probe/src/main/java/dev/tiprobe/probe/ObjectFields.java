package dev.tiprobe.probe;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Which fields show an object ({@link Captured}), found once per class, and the agent's way to
 * open a package a module keeps closed: the probe lives in the boot loader's unnamed module, to
 * which a named module opens nothing by itself.
 */
final class ObjectFields {
    private ObjectFields() {}

    /** Opens a class's package to the probe's module (the agent's Instrumentation can); null: such fields stay unread. */
    static volatile Consumer<Class<?>> opener;

    /**
     * A record's components in order; another class's instance fields, its own first, then its
     * superclasses' (for an application's class, up to where the JDK's begin: their insides are
     * not the application's state).
     */
    private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> type) {
            List<Field> out = new ArrayList<>();
            if (type.isRecord()) {
                for (RecordComponent c : type.getRecordComponents()) {
                    try {
                        out.add(type.getDeclaredField(c.getName()));
                    } catch (NoSuchFieldException e) {
                        // every component has its field; nothing to show otherwise
                    }
                }
                return List.copyOf(out);
            }
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                if (c != type && c.getClassLoader() == null && type.getClassLoader() != null) break;
                for (Field f : c.getDeclaredFields()) if (!Modifier.isStatic(f.getModifiers())) out.add(f);
            }
            return List.copyOf(out);
        }
    };

    static List<Field> of(Class<?> type) {
        return FIELDS.get(type);
    }
}
