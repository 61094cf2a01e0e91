package dev.tiprobe.jvmti;

import dev.tiprobe.testing.GeneratedClasses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.invoke.MethodHandles;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ClassPrepareEventsTest {
    private final Map<Class<?>, Thread> prepared = new ConcurrentHashMap<>();
    private final List<Class<?>> loaded = new CopyOnWriteArrayList<>();
    private Events.Registration onPrepare;
    private Events.Registration onLoad;

    private void listen() {
        Events events = Jvmti.get().events();
        onPrepare = events.on(Event.CLASS_PREPARE, (thread, type) -> prepared.put(type, thread));
        onLoad = events.on(Event.CLASS_LOAD, (thread, type) -> loaded.add(type));
    }

    @AfterEach
    void stop() {
        if (onPrepare != null) onPrepare.close();
        if (onLoad != null) onLoad.close();
    }

    @Test
    void classesFromAThrowawayLoaderArePrepared() {
        listen();
        List<Class<?>> defined = new GeneratedClasses.Loader().defineMany("gen", 5);
        for (Class<?> c : defined) {
            assertSame(Thread.currentThread(), prepared.get(c), "ClassPrepare for " + c.getName() + " on this thread");
            assertTrue(loaded.contains(c), "ClassLoad for " + c.getName());
        }
    }

    @Test
    void hiddenClassesArePrepared() throws Exception {
        listen();
        byte[] bytes = GeneratedClasses.classFile(GeneratedClasses.freshName("dev.tiprobe.jvmti", "Hidden"));
        Class<?> hidden = MethodHandles.lookup().defineHiddenClass(bytes, true).lookupClass();
        GeneratedClasses.use(hidden);
        assertTrue(hidden.isHidden());
        assertNotNull(prepared.get(hidden), "ClassPrepare for hidden class " + hidden.getName());
    }

    @Test
    void aNewLambdaIsPrepared() {
        listen();
        int captured = prepared.size();
        IntSupplier lambda = () -> captured + 1;
        assertEquals(captured + 1, lambda.getAsInt());
        assertTrue(prepared.containsKey(lambda.getClass()), "ClassPrepare for " + lambda.getClass().getName());
    }

    @Test
    void classesLoadedOnAVirtualThreadArePreparedOnIt() throws Exception {
        listen();
        Class<?>[] holder = new Class<?>[1];
        Thread virtual = Thread.ofVirtual().start(() ->
                holder[0] = new GeneratedClasses.Loader().define(GeneratedClasses.freshName("gen", "OnVirtual")));
        virtual.join();
        Thread reported = prepared.get(holder[0]);
        assertNotNull(reported);
        assertTrue(reported.isVirtual(), "reported on " + reported);
        assertSame(virtual, reported);
    }

    @Test
    void noEventsAfterTheLastHandlerIsRemoved() {
        listen();
        stop();
        assertFalse(Jvmti.get().events().isEnabled(Event.CLASS_PREPARE));
        Class<?> late = new GeneratedClasses.Loader().define(GeneratedClasses.freshName("gen", "Late"));
        assertFalse(prepared.containsKey(late));
    }
}
