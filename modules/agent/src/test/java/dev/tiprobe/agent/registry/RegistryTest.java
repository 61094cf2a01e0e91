package dev.tiprobe.agent.registry;

import dev.tiprobe.ids.Descriptors;
import dev.tiprobe.ids.HumanNames;
import dev.tiprobe.ids.IdMap;
import dev.tiprobe.ids.LoaderRef;
import dev.tiprobe.jvmti.Jvmti;
import dev.tiprobe.testing.GeneratedClasses;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegistryTest {
    static Jvmti jvmti;
    static Registry registry;

    /** Set by NeverInitialized's static initializer; kept outside it, since reading it there would run it. */
    static final AtomicBoolean NEVER_INITIALIZED_RAN = new AtomicBoolean();

    /** Nothing in tiprobe may make its static initializer run. */
    static final class NeverInitialized {
        static {
            NEVER_INITIALIZED_RAN.set(true);
        }
    }

    @BeforeAll
    static void start() {
        jvmti = Jvmti.get();
        registry = Registry.start(jvmti);
    }

    @AfterAll
    static void stop() {
        registry.close();
    }

    @Test
    void afterTheBackfillAndEventsNothingIsMissingComparedWithGetLoadedClasses() throws Exception {
        List<Thread> loaders = new ArrayList<>();
        List<Class<?>> defined = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int t = 0; t < 4; t++) {
            int n = t;
            loaders.add(Thread.ofPlatform().start(() -> {
                GeneratedClasses.Loader loader = new GeneratedClasses.Loader();
                for (int i = 0; i < 25; i++) defined.add(loader.define("gen.Backfill" + n + "_" + i));
                defined.add(GeneratedClasses.hidden(java.lang.invoke.MethodHandles.lookup(), "HiddenBackfill" + n));
                Runnable lambda = () -> { };
                lambda.run();
            }));
        }
        for (Thread t : loaders) t.join();
        registry.sync();       // what ClassPrepare queued
        for (Class<?> c : defined) assertTrue(jvmti.getTag(c) != 0, "ClassPrepare registered " + c.getName());
        registry.reconcile();  // what the facade dropped as re-entrant
        List<String> missing = new ArrayList<>();
        for (Jvmti.ClassSnapshot s : jvmti.snapshotLoadedClasses()) {
            Class<?> c = s.type();
            if (s.methods() == null || c.isArray() || c.isPrimitive()) continue;
            long tag = jvmti.getTag(c);
            IdMap.ClassEntry e = registry.map().classByTag(tag);
            if (e == null) missing.add(c.getName());
            else assertEquals(dev.tiprobe.ids.ClassToken.stableName(c.getName()), e.token().binaryName());
        }
        assertTrue(missing.isEmpty(), "not in the map: " + missing);
    }

    /**
     * Once {@link Registry#sync} returns, every class prepared before it is registered, the one
     * the registry's thread has just taken from the queue among them. Round after round, since the
     * thread's take and sync's look at the queue race: a sync that misses the take returns while
     * the thread still holds a class, which then goes untagged, once in a few dozen rounds.
     */
    @Test
    void aClassPreparedBeforeSyncIsRegisteredWhenSyncReturns() throws Exception {
        for (int round = 0; round < 150; round++) {
            List<Class<?>> defined = new java.util.concurrent.CopyOnWriteArrayList<>();
            List<Thread> loaders = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                String prefix = "gen.Synced" + round + "_" + t + "_";
                loaders.add(Thread.ofPlatform().start(() -> {
                    GeneratedClasses.Loader loader = new GeneratedClasses.Loader();
                    for (int i = 0; i < 25; i++) defined.add(loader.define(prefix + i));
                }));
            }
            for (Thread t : loaders) t.join();
            registry.sync();
            for (Class<?> c : defined) {
                int r = round;
                assertTrue(jvmti.getTag(c) != 0, () -> "round " + r + ": " + c.getName() + " is not registered after sync ("
                        + jvmti.events().stats(dev.tiprobe.jvmti.Event.CLASS_PREPARE) + ")");
            }
        }
    }

    /**
     * A class that loads while the registry listens is told to its listener as a load, once, when
     * its ClassPrepare is handled, though a stack frame or an allocation of it had it registered
     * before (here, at once, as a busy program's samples do); one that a thread of tiprobe's
     * loaded is not told of, whoever registered it first.
     */
    @Test
    void aClassMetBeforeItsClassPrepareIsHandledIsToldAsALoadOnce() throws Exception {
        Map<String, Integer> told = new java.util.concurrent.ConcurrentHashMap<>();
        registry.listen((loaded, token) -> {
            if (loaded) told.merge(token.binaryName(), 1, Integer::sum);
        });
        try {
            GeneratedClasses.Loader loader = new GeneratedClasses.Loader();
            for (int i = 0; i < 200; i++) assertNotNull(registry.register(loader.define("gen.MetEarly" + i)));
            Thread machinery = Thread.ofPlatform().name("tiprobe-test-loader").start(() -> {
                GeneratedClasses.Loader own = new GeneratedClasses.Loader();
                for (int i = 0; i < 20; i++) registry.register(own.define("gen.MachineryMetEarly" + i));
            });
            machinery.join();
            registry.sync();
            List<String> notOnce = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                Integer times = told.get("gen.MetEarly" + i);
                if (times == null || times != 1) notOnce.add("gen.MetEarly" + i + " told " + times);
            }
            assertTrue(notOnce.isEmpty(), notOnce.size() + " of 200 loads not told once: " + notOnce);
            assertTrue(told.keySet().stream().noneMatch(n -> n.startsWith("gen.MachineryMetEarly")), "a load of tiprobe's thread told: " + told.keySet());
        } finally {
            registry.listen(null);
        }
    }

    /**
     * Class tags stay on Class objects after a registry closes; a later registry (the next
     * sampling session in the same JVM) must still learn those classes, not take them as its own.
     */
    @Test
    void aRegistryAfterAnotherHasClosedResolvesEveryFrame() {
        for (int session = 0; session < 3; session++) {
            Registry later = Registry.start(jvmti);
            try {
                long[] methods = jvmti.classMethods(java.util.HashMap.class);
                IdMap.MethodEntry m = later.resolve(methods[0]);
                assertNotNull(m, "session " + session + " names a method an earlier registry tagged");
                assertEquals("java.util.HashMap", m.token().owner().binaryName());
                int named = 0;
                int frames = 0;
                for (Jvmti.ThreadStack ts : jvmti.allStackTraces(64, false)) {
                    for (Jvmti.StackFrame f : ts.frames()) {
                        frames++;
                        if (later.resolve(f.methodId()) != null) named++;
                    }
                }
                assertEquals(frames, named, "every frame of session " + session + " is named");
            } finally {
                later.close();
            }
        }
    }

    @Test
    void framesOfEveryThreadResolveToTheMethodJvmtiNames() {
        int checked = 0;
        for (Jvmti.ThreadStack stack : jvmti.allStackTraces(32)) {
            for (Jvmti.StackFrame f : stack.frames()) {
                IdMap.MethodEntry e = registry.resolve(f.methodId());
                assertNotNull(e, "frame " + f);
                Jvmti.MethodName name = jvmti.methodName(f.methodId());
                assertEquals(name.name(), e.token().name());
                assertEquals(name.descriptor(), e.token().descriptor());
                Class<?> declaring = jvmti.methodDeclaringClass(f.methodId());
                assertEquals(dev.tiprobe.ids.ClassToken.stableName(declaring.getName()), e.token().owner().binaryName());
                checked++;
            }
        }
        assertTrue(checked > 20);
        IdMap.MethodEntry me = registry.resolve(jvmti.stackTrace(null, 0, 1).getFirst().methodId());
        assertTrue(HumanNames.method(me.token()).contains("."), HumanNames.method(me.token()));
    }

    /**
     * JFR's stack traces name frames by class, method and descriptor: each names the same method
     * (the same token int) as its jmethodID does, hidden classes included; what is not loaded, or
     * not a method of the class, names nothing.
     */
    @Test
    void aFrameNamedByClassMethodAndDescriptorIsTheMethodItsIdNames() {
        Runnable lambda = () -> {
            int checked = 0;
            for (Jvmti.StackFrame f : jvmti.stackTrace(null, 0, 64)) {
                IdMap.MethodEntry byId = registry.resolve(f.methodId());
                Jvmti.MethodName name = jvmti.methodName(f.methodId());
                String className = jvmti.methodDeclaringClass(f.methodId()).getName();
                IdMap.MethodEntry byName = registry.methodNamed(className, byId.token().owner().loader(), name.name(), name.descriptor());
                assertNotNull(byName, className + "." + name.name());
                assertEquals(byId.tokenId(), byName.tokenId(), className + "." + name.name());
                checked++;
            }
            assertTrue(checked > 10, "frames checked: " + checked);
        };
        lambda.run();
        assertNull(registry.methodNamed("dev.tiprobe.agent.registry.RegistryTest$NotLoadedEither", LoaderRef.APP, "run", "()V"));
        assertNull(registry.methodNamed("java.util.HashMap", LoaderRef.BOOTSTRAP, "noSuchMethod", "()V"));
        assertNull(registry.methodNamed("java.util.HashMap", LoaderRef.BOOTSTRAP, "get", "(I)Ljava/lang/Object;"));
    }

    /**
     * A registry that backfills on its own thread says when the classes loaded before its start
     * are in: from then on a frame named by class and method (JFR's) finds them. Naming one method
     * gives that method a token, not every method of its class (the map's memory under churn).
     */
    @Test
    void afterTheBackfillAFrameNamedByClassAndMethodIsFound() {
        IdMap own = new IdMap();
        Registry backfilling = Registry.startBackfilling(jvmti, own);
        try {
            assertTrue(backfilling.awaitBackfill(java.time.Duration.ofSeconds(30)), "the backfill ended");
            IdMap.MethodEntry get = backfilling.methodNamed("java.util.HashMap", LoaderRef.BOOTSTRAP, "get",
                    "(Ljava/lang/Object;)Ljava/lang/Object;");
            assertNotNull(get, "HashMap.get, loaded long before");
            assertEquals("java.util.HashMap", get.token().owner().binaryName());
            IdMap.ClassEntry hashMap = own.classByTag(get.classTag());
            String put = "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;";
            assertNull(own.methodNamed(hashMap, "put", put), "a method nothing named has no token yet");
            IdMap.MethodEntry named = backfilling.methodNamed("java.util.HashMap", LoaderRef.BOOTSTRAP, "put", put);
            assertNotNull(named, "HashMap.put, named next");
            assertEquals(named, own.methodNamed(hashMap, "put", put));
            assertEquals(get, backfilling.methodNamed("java.util.HashMap", LoaderRef.BOOTSTRAP, "get",
                    "(Ljava/lang/Object;)Ljava/lang/Object;"), "named again: the same entry");
        } finally {
            backfilling.close();
        }
    }

    @Test
    void reverseLookupAndTypeReferencesNeverLoadOrInitialize() {
        String neverLoaded = "dev.tiprobe.agent.RegistryTest$NotEvenLoaded";
        assertTrue(registry.map().classesNamed(neverLoaded).isEmpty());
        assertTrue(registry.resolveTypeReference(RegistryTest.class, "L" + neverLoaded.replace('.', '/') + ";").isEmpty());
        assertFalse(Arrays.stream(jvmti.loadedClasses()).anyMatch(c -> c.getName().equals(neverLoaded)),
                "resolving did not load the class");

        Class<?> loadedOnly = NeverInitialized.class;  // a class literal loads, it does not initialize
        List<IdMap.ClassEntry> found = registry.resolveTypeReference(RegistryTest.class,
                "Ldev/tiprobe/agent/RegistryTest$NeverInitialized;");
        assertFalse(NEVER_INITIALIZED_RAN.get(), "resolution did not run the static initializer");
        if (jvmti.classStatus(loadedOnly).prepared()) {
            assertEquals(1, found.size());
            assertFalse(registry.status(found.getFirst()).initialized());
        }
        assertFalse(NEVER_INITIALIZED_RAN.get());
        List<IdMap.ClassEntry> string = registry.resolveTypeReference(RegistryTest.class, "Ljava/lang/String;");
        assertEquals(1, string.size(), "found through the parents, in the bootstrap loader");
        assertEquals("java.base", string.getFirst().token().module());
    }

    @Test
    void twoLoadersDefiningOneNameAreReportedNotGuessed() {
        Class<?> a = new GeneratedClasses.Loader().define("gen.Twice");
        Class<?> b = new GeneratedClasses.Loader().define("gen.Twice");
        IdMap.ClassEntry ea = registry.register(a);
        IdMap.ClassEntry eb = registry.register(b);
        assertTrue(ea.tag() != eb.tag());
        assertFalse(ea.token().equals(eb.token()), "live loaders of one kind get different ordinals");
        assertEquals(2, registry.map().classesNamed("gen.Twice").size());
    }

    @Test
    void idsOfAnUnloadedClassAnswerUnloadedAndTheirTokensStayReadable() throws Exception {
        long[] ids = new long[1];
        int[] generation = new int[1];
        int[] tokenId = new int[1];
        long[] tag = new long[1];
        defineRegisterAndDrop(ids, generation, tokenId, tag);
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (registry.map().classStatus(tag[0]) != IdMap.Status.UNLOADED && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(20);
        }
        assertEquals(IdMap.Status.UNLOADED, registry.map().classStatus(tag[0]));
        assertNull(registry.map().method(ids[0], generation[0]));
        assertNull(registry.resolve(ids[0]), "JVMTI answers INVALID_METHODID: unloaded, not a crash");
        assertEquals("gen.Dropped", registry.map().methodToken(tokenId[0]).owner().binaryName());
        assertNull(registry.resolve(0), "an ID of 0 is simply unknown");
    }

    private static void defineRegisterAndDrop(long[] ids, int[] generation, int[] tokenId, long[] tag) {
        Class<?> c = new GeneratedClasses.Loader().define("gen.Dropped");
        IdMap.ClassEntry e = registry.register(c);
        long id = jvmti.classMethods(c)[0];
        IdMap.MethodEntry m = registry.resolve(id);
        ids[0] = id;
        generation[0] = m.generation();
        tokenId[0] = m.tokenId();
        tag[0] = e.tag();
    }

    @Test
    void malformedDescriptorsGiveClearErrors() {
        var e = assertThrows(Descriptors.MalformedSignatureException.class,
                () -> registry.resolveTypeReference(RegistryTest.class, "Ljava/lang/String"));
        assertTrue(e.getMessage().contains("at "), e.getMessage());
    }
}
