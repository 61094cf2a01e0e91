package dev.tiprobe.agent.registry;

import dev.tiprobe.ids.IdMap;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoadAheadTest {
    /** A loader of its own over the ID map's classes, so that what is loaded can be asked. */
    static final class Watched extends URLClassLoader {
        Watched(URL place) {
            super(new URL[] {place}, null);  // the boot loader alone: the test's own loader holds these classes too
        }

        boolean loaded(String name) {
            return findLoadedClass(name) != null;
        }
    }

    @Test
    void everyClassOfThePackageIsLoadedIncludingThoseOnlyARarePathUses() throws Exception {
        URL place = IdMap.class.getProtectionDomain().getCodeSource().getLocation();
        List<String> names = LoadAhead.classNames(Path.of(place.toURI()), "dev/tiprobe/ids/");
        // a value class the map only needs once two live classes share a name: it loaded under a lock once
        String rare = "dev.tiprobe.ids.OneOrMany$Several";
        assertTrue(names.contains(rare), names::toString);
        assertTrue(names.size() > 10, names::toString);
        try (Watched loader = new Watched(place)) {
            Class<?> anchor = loader.loadClass(IdMap.class.getName());
            assertFalse(loader.loaded(rare), "loaded before LoadAhead");

            assertEquals(names.size(), LoadAhead.packageOf(anchor));

            for (String name : names) assertTrue(loader.loaded(name), name);
        }
    }
}
