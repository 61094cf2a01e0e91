package dev.tiprobe.jvmti;

import dev.tiprobe.testing.GeneratedClasses;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input gets a clear error, and the JVM stays alive. */
class BadInputTest {
    @Test
    void aZeroMethodIdIsAnInvalidMethodId() {
        Jvmti jvmti = Jvmti.get();
        for (Runnable call : List.<Runnable>of(
                () -> jvmti.methodName(0),
                () -> jvmti.methodDeclaringClass(0),
                () -> jvmti.methodModifiers(0),
                () -> jvmti.isMethodObsolete(0))) {
            JvmtiException e = assertThrows(JvmtiException.class, call::run);
            assertEquals(JvmtiError.INVALID_METHODID, e.error(), e.getMessage());
        }
    }

    @Test
    void methodsOfAClassNotYetPreparedIsAClearError() {
        Class<?> unprepared = new GeneratedClasses.Loader().defineOnly(GeneratedClasses.freshName("gen", "NotPrepared"));
        Jvmti jvmti = Jvmti.get();
        assertFalse(jvmti.classStatus(unprepared).prepared());
        JvmtiException e = assertThrows(JvmtiException.class, () -> jvmti.classMethods(unprepared));
        assertEquals(JvmtiError.CLASS_NOT_PREPARED, e.error());
        assertEquals("GetClassMethods failed: CLASS_NOT_PREPARED (22)", e.getMessage());
    }

    @Test
    void nullsAndNegativeCountsAreRejectedBeforeReachingJvmti() {
        Jvmti jvmti = Jvmti.get();
        assertThrows(NullPointerException.class, () -> jvmti.setTag(null, 1));
        assertThrows(NullPointerException.class, () -> jvmti.classLoader(null));
        assertThrows(IllegalArgumentException.class, () -> jvmti.stackTrace(null, 0, -1));
        assertThrows(NullPointerException.class, () -> jvmti.events().on(Event.CLASS_PREPARE, null));
    }

    @Test
    void afterShutdownEveryCallSaysSoAndGetHandsOutAFreshFacade() {
        Jvmti old = Jvmti.get();
        List<Class<?>> seen = new CopyOnWriteArrayList<>();
        old.events().on(Event.CLASS_PREPARE, (thread, type) -> seen.add(type));
        old.shutdown();
        old.shutdown();  // idempotent
        assertTrue(old.isShutdown());
        IllegalStateException e = assertThrows(IllegalStateException.class, old::loadedClasses);
        assertTrue(e.getMessage().contains("shut down"), e.getMessage());
        assertThrows(IllegalStateException.class, old::events);
        assertThrows(IllegalStateException.class, () -> old.classSignature(String.class));

        Class<?> afterShutdown = new GeneratedClasses.Loader().define(GeneratedClasses.freshName("gen", "AfterShutdown"));
        assertFalse(seen.contains(afterShutdown), "no events reach a shut-down facade");

        Jvmti fresh = Jvmti.get();
        assertNotSame(old, fresh);
        assertTrue(fresh.loadedClasses().length > 0);
        assertFalse(fresh.events().isEnabled(Event.CLASS_PREPARE));
    }
}
