package dev.tiprobe.ids;

import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoadersTest {
    static final class RuleLoader extends ClassLoader {
        RuleLoader(String name) {
            super(name, null);
        }
    }

    /** Loaders of one class and name are told apart by ordinal; the JDK's own have refs of their own. */
    @Test
    void loadersOfOneClassAndNameGetTheSmallestFreeOrdinals() {
        Loaders loaders = new Loaders();
        RuleLoader a = new RuleLoader("rules");
        RuleLoader b = new RuleLoader("rules");
        RuleLoader other = new RuleLoader("plugins");
        assertEquals(new LoaderRef(RuleLoader.class.getName(), "rules", 1), loaders.of(a));
        assertEquals(new LoaderRef(RuleLoader.class.getName(), "rules", 2), loaders.of(b));
        assertEquals(new LoaderRef(RuleLoader.class.getName(), "plugins", 1), loaders.of(other));
        assertSame(loaders.of(a), loaders.of(a), "a loader keeps its ref");
        assertSame(LoaderRef.APP, loaders.of(ClassLoader.getSystemClassLoader()));
        assertSame(LoaderRef.BOOTSTRAP, loaders.of(null));
    }

    /** A collected loader's ordinal goes to the next loader of its kind; a live one's never does. */
    @Test
    void aCollectedLoadersOrdinalIsGivenBack() throws InterruptedException {
        Loaders loaders = new Loaders();
        RuleLoader kept = new RuleLoader("rules");
        assertEquals(1, loaders.of(kept).ordinal());
        WeakReference<RuleLoader> dropped = namedAndDropped(loaders);
        // The ordinal comes back once the cleared reference is enqueued, which the JDK's reference
        // handler does a moment after the collection: each try's own loader is dropped too.
        int next = 0;
        for (int i = 0; i < 100 && next != 2; i++) {
            System.gc();
            Thread.sleep(20);
            next = loaders.of(new RuleLoader("rules")).ordinal();
        }
        assertTrue(dropped.get() == null, "the collector cleared the dropped loader");
        assertEquals(2, next, "ordinal 2 is free again, 1 is still the kept loader's");
        assertEquals(1, loaders.of(kept).ordinal());
    }

    private static WeakReference<RuleLoader> namedAndDropped(Loaders loaders) {
        RuleLoader dropped = new RuleLoader("rules");
        assertEquals(2, loaders.of(dropped).ordinal());
        return new WeakReference<>(dropped);
    }

    /** Many live loaders of one kind each get their own ordinal, 1 to n. */
    @Test
    void everyLiveLoaderHasItsOwnOrdinal() {
        Loaders loaders = new Loaders();
        List<RuleLoader> live = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) live.add(new RuleLoader("rules"));
        for (int i = 0; i < live.size(); i++) assertEquals(i + 1, loaders.of(live.get(i)).ordinal());
    }
}
