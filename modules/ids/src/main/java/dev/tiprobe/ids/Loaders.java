package dev.tiprobe.ids;

import java.util.BitSet;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Gives each class loader its {@link LoaderRef}, holding loaders only weakly so that tiprobe never
 * keeps a loader (and its classes) alive. A new loader gets the smallest ordinal that no live loader
 * of the same class and name holds.
 *
 * <p>One per {@link IdMap}, reached through {@link IdMap#loaders()}: whoever makes tokens for that
 * map (the registry from JVMTI, tracing from class files) names a loader the same way, so one
 * method never gets two tokens.
 */
public final class Loaders {
    private final Map<ClassLoader, LoaderRef> refs = new WeakHashMap<>();

    Loaders() {}

    public synchronized LoaderRef of(ClassLoader loader) {
        if (loader == null) return LoaderRef.BOOTSTRAP;
        if (loader == ClassLoader.getPlatformClassLoader()) return LoaderRef.PLATFORM;
        if (loader == ClassLoader.getSystemClassLoader()) return LoaderRef.APP;
        LoaderRef known = refs.get(loader);
        if (known != null) return known;
        String type = loader.getClass().getName();
        String name = loader.getName();
        BitSet taken = new BitSet();
        for (LoaderRef r : refs.values()) {  // live loaders only: the map drops collected ones
            if (r.loaderClass().equals(type) && java.util.Objects.equals(r.name(), name)) taken.set(r.ordinal());
        }
        LoaderRef ref = new LoaderRef(type, name, taken.nextClearBit(1));
        refs.put(loader, ref);
        return ref;
    }
}
