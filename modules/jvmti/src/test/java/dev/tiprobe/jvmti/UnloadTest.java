package dev.tiprobe.jvmti;

import dev.tiprobe.testing.GeneratedClasses;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** "Remember the unloads": what the facade reports when a throwaway loader's classes go. */
class UnloadTest {
    private static final long TAG_BASE = 0x7100_0000L;
    private static final int CLASSES = 20;

    @Test
    void tagsAndNamesOfUnloadedClassesAreReportedAndTheirMethodIdsGoInvalid() throws Exception {
        Jvmti jvmti = Jvmti.get();
        Set<Long> freed = ConcurrentHashMap.newKeySet();
        Set<String> unloadedNames = ConcurrentHashMap.newKeySet();
        Set<Long> expectedTags = new HashSet<>();
        Set<String> expectedNames = new HashSet<>();
        long staleMethodId;
        try (Events.Registration a = jvmti.events().on(Event.OBJECT_FREE, freed::add);
             Events.Registration b = jvmti.events().on(Event.CLASS_UNLOAD, unloadedNames::add)) {
            assertTrue(a != null && b != null);
            staleMethodId = defineTagAndDrop(jvmti, expectedTags, expectedNames);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while ((!freed.containsAll(expectedTags) || !unloadedNames.containsAll(expectedNames))
                    && System.nanoTime() < deadline) {
                System.gc();
                Thread.sleep(20);
            }
        }
        assertTrue(freed.containsAll(expectedTags), "ObjectFree reported every tag; missing: "
                + expectedTags.stream().filter(t -> !freed.contains(t)).toList());
        assertTrue(unloadedNames.containsAll(expectedNames), "ClassUnload reported every name; missing: "
                + expectedNames.stream().filter(n -> !unloadedNames.contains(n)).toList());

        JvmtiException e = assertThrows(JvmtiException.class, () -> jvmti.methodName(staleMethodId));
        assertEquals(JvmtiError.INVALID_METHODID, e.error(), e.getMessage());
        assertEquals("GetMethodName", e.function());
    }

    /** Defines, tags and forgets {@link #CLASSES} classes; returns a method ID of one of them. */
    private static long defineTagAndDrop(Jvmti jvmti, Set<Long> tags, Set<String> names) {
        List<Class<?>> classes = new GeneratedClasses.Loader().defineMany("gen", CLASSES);
        long methodId = 0;
        for (int i = 0; i < classes.size(); i++) {
            Class<?> c = classes.get(i);
            long tag = TAG_BASE + GeneratedClasses.freshName("", "").hashCode() * 64L + i;
            jvmti.setTag(c, tag);
            assertEquals(tag, jvmti.getTag(c));
            tags.add(tag);
            names.add(c.getName().replace('.', '/'));
            long[] methods = jvmti.classMethods(c);
            assertTrue(methods.length >= 2, "constructor and work");
            methodId = methods[0];
            assertTrue(new ArrayList<>(List.of("<init>", "work")).contains(jvmti.methodName(methodId).name()));
        }
        return methodId;
    }

    @Test
    void theClassUnloadExtensionEventIsListedWithItsParameters() {
        Jvmti.Extension unload = Jvmti.get().extensionEvents().stream()
                .filter(x -> x.id().equals(Upcalls.CLASS_UNLOAD_EXTENSION)).findFirst().orElseThrow();
        assertTrue(unload.eventIndex() >= 0 && unload.eventIndex() < 50, "extension events sit below 50: " + unload);
        assertEquals(2, unload.parameters().size(), "JNIEnv and the class name: " + unload.parameters());
    }
}
