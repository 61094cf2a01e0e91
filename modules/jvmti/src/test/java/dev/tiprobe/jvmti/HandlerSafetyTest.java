package dev.tiprobe.jvmti;

import dev.tiprobe.testing.GeneratedClasses;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HandlerSafetyTest {
    @Test
    void aHandlerThatLoadsClassesDoesNotRecurse() {
        Events events = Jvmti.get().events();
        List<Class<?>> seen = new CopyOnWriteArrayList<>();
        long droppedBefore = events.stats(Event.CLASS_PREPARE).droppedReentrant();
        try (Events.Registration r = events.on(Event.CLASS_PREPARE, (thread, type) -> {
            seen.add(type);
            if (type.getName().contains("Trigger")) {
                // Loading inside the handler fires ClassPrepare on this thread again: dropped, not recursed into.
                seen.add(new GeneratedClasses.Loader().define(GeneratedClasses.freshName("gen", "FromHandler")));
            }
        })) {
            assertTrue(r != null);
            Class<?> trigger = new GeneratedClasses.Loader().define(GeneratedClasses.freshName("gen", "Trigger"));
            assertTrue(seen.contains(trigger));
        }
        assertEquals(2, seen.stream().filter(c -> c.getName().contains("Trigger") || c.getName().contains("FromHandler")).count());
        assertTrue(events.stats(Event.CLASS_PREPARE).droppedReentrant() > droppedBefore,
                "the nested ClassPrepare was counted as dropped");
    }

    /**
     * tiprobe's own work on a program's thread ({@link Jvmti#beginOwnWork}) gets no event the thread
     * raises meanwhile, as a handler gets none of those it raises itself; outside it, and after
     * it, the thread's events reach the handler again, and the work's answer comes back.
     */
    @Test
    void eventsRaisedDuringOwnWorkAreDroppedAndTheGuardIsPutBack() {
        Events events = Jvmti.get().events();
        List<Class<?>> seen = new CopyOnWriteArrayList<>();
        long droppedBefore = events.stats(Event.CLASS_PREPARE).droppedReentrant();
        try (Events.Registration r = events.on(Event.CLASS_PREPARE, (thread, type) -> seen.add(type))) {
            assertTrue(r != null);
            Class<?> during;
            Class<?> nested;
            boolean outer = Jvmti.beginOwnWork();
            try {
                during = new GeneratedClasses.Loader().define(GeneratedClasses.freshName("gen", "During"));
                boolean inner = Jvmti.beginOwnWork();
                try {
                    assertTrue(inner, "inside own work already");
                    nested = new GeneratedClasses.Loader().define(GeneratedClasses.freshName("gen", "Nested"));
                } finally {
                    Jvmti.endOwnWork(inner);
                }
            } finally {
                Jvmti.endOwnWork(outer);
            }
            assertFalse(outer, "not inside own work before it began");
            Class<?> after = new GeneratedClasses.Loader().define(GeneratedClasses.freshName("gen", "After"));
            assertTrue(!seen.contains(during) && !seen.contains(nested), "no event during own work: " + seen);
            assertTrue(seen.contains(after), "the guard is down again after it");
        }
        assertTrue(events.stats(Event.CLASS_PREPARE).droppedReentrant() >= droppedBefore + 2, "both counted as dropped");
    }

    @Test
    void aThrowingHandlerIsCountedAndTheOthersStillRun() {
        Events events = Jvmti.get().events();
        long failedBefore = events.stats(Event.CLASS_PREPARE).failed();
        List<Class<?>> afterTheThrow = new CopyOnWriteArrayList<>();
        IllegalStateException boom = new IllegalStateException("handler bug");
        try (Events.Registration a = events.on(Event.CLASS_PREPARE, (thread, type) -> { throw boom; });
             Events.Registration b = events.on(Event.CLASS_PREPARE, (thread, type) -> afterTheThrow.add(type))) {
            assertTrue(a != null && b != null);
            Class<?> c = new GeneratedClasses.Loader().define(GeneratedClasses.freshName("gen", "Thrown"));
            assertTrue(afterTheThrow.contains(c), "the second handler still saw the class");
            assertEquals(42, c.getMethod("work", int.class).invoke(null, 41), "the class works normally");
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
        assertTrue(events.stats(Event.CLASS_PREPARE).failed() > failedBefore);
        assertInstanceOf(IllegalStateException.class, events.lastFailure());
    }

    @Test
    void garbageCollectionEventsAreRefusedWithAReason() {
        Events events = Jvmti.get().events();
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> events.onGarbageCollectionStart(() -> { }));
        assertTrue(e.getMessage().contains("VM thread"), e.getMessage());
        assertThrows(UnsupportedOperationException.class, () -> events.onGarbageCollectionFinish(() -> { }));
    }
}
