package dev.tiprobe.agent.tracing;

import org.junit.jupiter.api.Test;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoadedNamesTest {
    /** Lists of classes by loader, as JVMTI would give them, counting how often each is asked for. */
    private static final class Lists implements Instrumenter.LoadedClasses {
        final List<Class<?>> app = new ArrayList<>(List.of(String.class, LoadedNamesTest.class));
        final List<Class<?>> boot = new ArrayList<>(List.of(Object.class));
        int asked;

        @Override
        public Class<?>[] initiatedBy(ClassLoader loader) {
            asked++;
            return (loader == null ? boot : app).toArray(Class<?>[]::new);
        }
    }

    @Test
    void aLoaderIsListedOnceUntilItDefinesAClass() {
        Lists lists = new Lists();
        LoadedNames names = new LoadedNames(lists);
        ClassLoader app = new URLClassLoader(new URL[0]);

        assertTrue(names.mayHave(app, LoadedNamesTest.class.getName()));
        assertFalse(names.mayHave(app, "example.Closure1"), "not defined yet: passed by");
        assertFalse(names.mayHave(app, "example.Closure1"));
        assertEquals(1, lists.asked, "the second and third questions are answered from the first listing");

        lists.app.add(Runnable.class);  // as if app had just defined it
        assertFalse(names.mayHave(app, Runnable.class.getName()), "until the loader defines a class, its old names serve");
        names.defining(app);
        assertTrue(names.mayHave(app, Runnable.class.getName()), "after a define it is listed again");
        assertEquals(2, lists.asked);
    }

    @Test
    void theBootstrapLoaderHasNamesOfItsOwn() {
        Lists lists = new Lists();
        LoadedNames names = new LoadedNames(lists);
        ClassLoader app = new URLClassLoader(new URL[0]);

        assertTrue(names.mayHave(null, "java.lang.Object"));
        assertFalse(names.mayHave(app, "java.lang.Object"));
        names.defining(app);
        assertTrue(names.mayHave(null, "java.lang.Object"), "another loader's define leaves the bootstrap loader's names");
        assertEquals(2, lists.asked, "boot once, app once");
        names.defining(null);
        assertTrue(names.mayHave(null, "java.lang.Object"));
        assertEquals(3, lists.asked, "a define by the bootstrap loader lists it again");
    }
}
