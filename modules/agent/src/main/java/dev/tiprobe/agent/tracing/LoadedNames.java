package dev.tiprobe.agent.tracing;

import java.util.Arrays;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The names of the classes each loader has initiated, as they were last listed: lets the
 * class-hierarchy resolver pass a loader by without listing its classes again. The resolver asks
 * the loaders only for a type with no class file to read, and most often for one not defined yet:
 * a script host's fresh script names its closure class, which its loader defines next. Each such
 * miss listed every loader's classes up to the bootstrap one (GetClassLoaderClasses makes a
 * reference per class) at every class load: under Groovy churn, 40 % of the time tracing spent
 * instrumenting new classes.
 *
 * <p>A loader's names are listed again once it defines a class ({@link #defining}, from the class
 * file hook) or once they are a second old. A class the list missed (defined between the hook and
 * the listing, on another thread) is answered "not loaded" until then, the answer the resolver
 * gives for a type not defined yet, with which instrumenting still succeeds or the class runs as
 * it is. Only names are kept, never a Class, so no loader is held in memory; the names are the
 * classes' own strings, a reference each.
 */
final class LoadedNames implements Instrumenter.LoadedClasses {
    /** How long a loader's names serve when it defines nothing in between. */
    static final long MAX_AGE_NANOS = 1_000_000_000L;

    private final Instrumenter.LoadedClasses source;
    /** Guarded by this. */
    private final Map<ClassLoader, Names> byLoader = new WeakHashMap<>();
    /** The bootstrap loader's (a null key has no weak reference). Guarded by this. */
    private Names boot;

    private record Names(String[] sorted, long listedNanos) {}

    LoadedNames(Instrumenter.LoadedClasses source) {
        this.source = source;
    }

    @Override
    public Class<?>[] initiatedBy(ClassLoader loader) {
        return source.initiatedBy(loader);
    }

    @Override
    public boolean mayHave(ClassLoader loader, String name) {
        Names names;
        synchronized (this) {
            names = loader == null ? boot : byLoader.get(loader);
        }
        long now = System.nanoTime();
        if (names == null || now - names.listedNanos() > MAX_AGE_NANOS) {
            Class<?>[] classes = source.initiatedBy(loader);
            String[] sorted = new String[classes.length];
            for (int i = 0; i < classes.length; i++) sorted[i] = classes[i].getName();
            Arrays.sort(sorted);
            names = new Names(sorted, now);
            synchronized (this) {
                if (loader == null) boot = names;
                else byLoader.put(loader, names);
            }
        }
        return Arrays.binarySearch(names.sorted(), name) >= 0;
    }

    /** A class of {@code loader}'s is about to be defined: its names are listed again when next asked. */
    void defining(ClassLoader loader) {
        synchronized (this) {
            if (loader == null) boot = null;
            else byLoader.remove(loader);
        }
    }
}
