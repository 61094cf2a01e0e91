package dev.tiprobe.ids;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Gives each class loader its {@link LoaderRef}, holding loaders only weakly so that tiprobe never
 * keeps a loader (and its classes) alive. A new loader gets the smallest ordinal that no loader
 * of the same class and name holds: a collected loader's is given back once the collector has
 * cleared it and queued its reference.
 *
 * <p>One per {@link IdMap}, reached through {@link IdMap#loaders()}: whoever makes tokens for that
 * map (the registry from JVMTI, tracing from class files) names a loader the same way, so one
 * method never gets two tokens.
 *
 * <p>The ordinals held are kept by loader class and name, and given back as the collector clears
 * their loaders: a program that makes a loader per class (a script engine, a rule per loader)
 * has tens of thousands, and a new one is named without looking at the others.
 */
public final class Loaders {
    private final Map<ClassLoader, LoaderRef> refs = new WeakHashMap<>();
    /** The ordinals live loaders hold, by loader class and name. */
    private final Map<Kind, BitSet> taken = new HashMap<>();
    /** One per live named loader, so that its ordinal is given back once the loader is collected. */
    private final Set<Held> held = new HashSet<>();
    private final ReferenceQueue<ClassLoader> collected = new ReferenceQueue<>();

    private record Kind(String loaderClass, String name) {}

    private static final class Held extends WeakReference<ClassLoader> {
        final Kind kind;
        final int ordinal;

        Held(ClassLoader loader, Kind kind, int ordinal, ReferenceQueue<ClassLoader> queue) {
            super(loader, queue);
            this.kind = kind;
            this.ordinal = ordinal;
        }
    }

    Loaders() {}

    public synchronized LoaderRef of(ClassLoader loader) {
        if (loader == null) return LoaderRef.BOOTSTRAP;
        if (loader == ClassLoader.getPlatformClassLoader()) return LoaderRef.PLATFORM;
        if (loader == ClassLoader.getSystemClassLoader()) return LoaderRef.APP;
        LoaderRef known = refs.get(loader);
        if (known != null) return known;
        giveBackCollected();
        Kind kind = new Kind(loader.getClass().getName(), loader.getName());
        BitSet ordinals = taken.computeIfAbsent(kind, k -> new BitSet());
        int ordinal = ordinals.nextClearBit(1);
        ordinals.set(ordinal);
        held.add(new Held(loader, kind, ordinal, collected));
        LoaderRef ref = new LoaderRef(kind.loaderClass(), kind.name(), ordinal);
        refs.put(loader, ref);
        return ref;
    }

    private void giveBackCollected() {
        for (Reference<? extends ClassLoader> r; (r = collected.poll()) != null; ) {
            Held h = (Held) r;
            held.remove(h);
            BitSet ordinals = taken.get(h.kind);
            ordinals.clear(h.ordinal);
            if (ordinals.isEmpty()) taken.remove(h.kind);
        }
    }
}
