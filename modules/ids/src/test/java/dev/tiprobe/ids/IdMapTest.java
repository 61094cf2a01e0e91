package dev.tiprobe.ids;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IdMapTest {
    static final LoaderRef PLUGIN1 = new LoaderRef("com.foo.PluginLoader", "plugins", 1);
    static final LoaderRef PLUGIN2 = new LoaderRef("com.foo.PluginLoader", "plugins", 2);

    static ClassToken cls(String name, LoaderRef loader) {
        return new ClassToken(name, loader, null, null, "file:/app/plugins.jar");
    }

    static MethodToken method(ClassToken c, String name) {
        return new MethodToken(c, name, "(I)V", null, 1, new int[] {0, 10});
    }

    /** A method's source is its class's package as a path and the file the class names; also after an unload. */
    @Test
    void aMethodsSourcePathComesFromItsClassesPackageAndSourceFile() {
        IdMap map = new IdMap();
        ClassToken nested = cls("com.foo.Outer$Inner", PLUGIN1);
        ClassToken bare = cls("Bare", PLUGIN1);
        ClassToken none = cls("com.foo.NoSource", PLUGIN1);
        map.addClass(1, nested);
        map.sourceFile(nested, "Outer.java");
        map.sourceFile(bare, "Bare.kt");
        map.sourceFile(none, null);
        int inner = map.addMethod(0x10, 1, method(nested, "run")).tokenId();
        assertEquals("com/foo/Outer.java", map.sourcePath(inner), "a nested class's file is its outer class's");
        assertEquals("Bare.kt", map.sourcePath(map.internMethodToken(method(bare, "go"))), "no package, no directory");
        assertNull(map.sourcePath(map.internMethodToken(method(none, "x"))), "a class that names no file");
        map.unloadClass(1);
        assertEquals("com/foo/Outer.java", map.sourcePath(inner), "names are resolved late, also after an unload");
    }

    @Test
    void anIdReusedAfterAnUnloadNeverAnswersWithTheOldClassesToken() {
        IdMap map = new IdMap();
        ClassToken a = cls("com.foo.A", PLUGIN1);
        ClassToken b = cls("com.foo.B", PLUGIN1);
        long id = 0x7f00_0000_1000L;
        map.addClass(1, a);
        IdMap.MethodEntry old = map.addMethod(id, 1, method(a, "run"));
        int oldGeneration = old.generation();

        assertEquals(1, map.unloadClass(1));
        assertNull(map.method(id), "gone with its class");
        assertEquals(IdMap.Status.UNLOADED, map.classStatus(1));

        map.addClass(2, b);  // the VM hands the same jmethodID to a method of another class
        IdMap.MethodEntry reused = map.addMethod(id, 2, method(b, "go"));
        assertEquals("go", map.method(id).token().name());
        assertNull(map.method(id, oldGeneration), "the old (id, generation) pair does not resolve to B.go");
        assertSame(reused, map.method(id, reused.generation()));
        assertEquals("run", map.methodToken(old.tokenId()).name(), "the old token stays readable by its int");
        assertEquals("com.foo.A", map.methodToken(old.tokenId()).owner().binaryName());
    }

    @Test
    void tokensOfAnUnloadedClassStayReadableUntilRetiredAndAreKeptWhileALiveClassHoldsThemAgain() {
        IdMap map = new IdMap();
        ClassToken gone = cls("com.foo.Gone", PLUGIN1);
        ClassToken back = cls("com.foo.Back", PLUGIN1);
        map.addClass(1, gone);
        map.sourceFile(gone, "Gone.java");
        int run = map.addMethod(0x10, 1, method(gone, "run")).tokenId();
        map.addClass(2, back);
        int again = map.addMethod(0x20, 2, method(back, "go")).tokenId();
        assertTrue(map.humanName(run).contains("com.foo.Gone.run("), map.humanName(run));
        long before = System.nanoTime();
        map.unloadClass(1);
        map.unloadClass(2);
        map.addClass(3, back);  // the same class in a loader given the same ordinal: an equal token, live again
        map.addMethod(0x30, 3, method(back, "go"));

        assertEquals(0, map.retireUnloaded(before), "nothing unloaded before that moment");
        assertEquals("run", map.methodToken(run).name(), "an unloaded class's tokens stay readable until retired");
        assertEquals(2, map.retireUnloaded(System.nanoTime() + 1), "Gone's method and class");
        assertNull(map.methodToken(run));
        assertNull(map.humanName(run));
        assertNull(map.sourcePath(run));
        assertEquals("go", map.methodToken(again).name(), "a token a live class holds again stays");
        int transientFrame = map.internTransient(method(gone, "run"));
        assertTrue(transientFrame != run, "a retired token interned again gets a new int");
        assertEquals(transientFrame, map.internTransient(method(gone, "run")));
        assertEquals(1, map.retireUnloaded(System.nanoTime() + 1));
        assertNull(map.methodToken(transientFrame));
    }

    /** Tokens given to retireLater are kept in batches; none retires before its own moment. */
    @Test
    void tokensRetiredLaterNeverRetireBeforeTheirTimeAndAllRetireAfterIt() {
        IdMap map = new IdMap();
        ClassToken c = cls("com.foo.Later", PLUGIN1);
        int[] ids = new int[20];
        long[] marked = new long[ids.length];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = map.internMethodToken(method(c, "m" + i));
            map.retireLater(ids[i]);
            marked[i] = System.nanoTime();
        }
        int retired = map.retireUnloaded(marked[9]);  // before the tenth was marked: not the later ones
        for (int i = 10; i < ids.length; i++) assertNotNull(map.methodToken(ids[i]), "m" + i + " retired early");
        assertTrue(retired <= 10, retired + " retired");
        assertEquals(ids.length - retired, map.retireUnloaded(System.nanoTime() + 1));
        for (int id : ids) assertNull(map.methodToken(id));
    }

    /**
     * A frame named by a token already waiting to retire (JFR names a method of a class gone
     * twice, a second apart): the token waits again from the second naming, as the event that
     * named it may not be written yet.
     */
    @Test
    void aWaitingTokenNamedAgainWaitsFromTheLaterNaming() throws InterruptedException {
        IdMap map = new IdMap();
        ClassToken gone = cls("com.foo.Gone", PLUGIN1);
        int id = map.internTransient(method(gone, "run"));
        Thread.sleep(2);
        long between = System.nanoTime();
        Thread.sleep(2);
        assertEquals(id, map.internTransient(method(gone, "run")), "the same int");
        assertEquals(0, map.retireUnloaded(between), "its first entry is due, but it was named after the cutoff");
        assertNotNull(map.methodToken(id));
        assertEquals(1, map.retireUnloaded(System.nanoTime() + 1), "due from its later naming on");
        assertNull(map.methodToken(id));
    }

    /** A batch closes 100 ms after its first token, however steadily tokens keep coming: the early ones retire in time. */
    @Test
    void aSteadyStreamOfTokensStillRetiresItsEarlyOnes() throws InterruptedException {
        IdMap map = new IdMap();
        ClassToken c = cls("com.foo.Stream", PLUGIN1);
        int first = map.internMethodToken(method(c, "m0"));
        long start = System.nanoTime();
        map.retireLater(first);
        long mid = 0;
        for (int i = 1; System.nanoTime() - start < 400_000_000L; i++) {
            Thread.sleep(20);
            map.retireLater(map.internMethodToken(method(c, "m" + i)));
            if (mid == 0 && System.nanoTime() - start > 250_000_000L) mid = System.nanoTime();
        }
        assertTrue(map.retireUnloaded(mid) > 0, "the first batch closed within 100 ms and is due");
        assertNull(map.methodToken(first));
    }

    @Test
    void unloadingAClassLeavesAnIdAlreadyReusedByANewerClassAlone() {
        IdMap map = new IdMap();
        ClassToken a = cls("com.foo.A", PLUGIN1);
        ClassToken b = cls("com.foo.B", PLUGIN1);
        long id = 0x1234_5678L;
        map.addClass(1, a);
        map.addMethod(id, 1, method(a, "run"));
        map.addClass(2, b);
        map.addMethod(id, 2, method(b, "go"));  // B learned first, A's unload reported late
        map.unloadClass(1);
        assertEquals("go", map.method(id).token().name());
    }

    @Test
    void reverseLookupsSayNotLoadedAndAmbiguousInsteadOfGuessing() {
        IdMap map = new IdMap();
        assertTrue(map.classesNamed("com.foo.Bar").isEmpty(), "not loaded is a normal answer");
        ClassToken bar1 = cls("com.foo.Bar", PLUGIN1);
        ClassToken bar2 = cls("com.foo.Bar", PLUGIN2);
        map.addClass(10, bar1);
        map.addClass(11, bar2);
        assertEquals(2, map.classesNamed("com.foo.Bar").size(), "two loaders define the name");
        assertEquals(11, map.classFor(bar2).tag());
        MethodToken m = method(bar1, "run");
        map.addMethod(0x100, 10, m);
        assertEquals(List.of(0x100L), map.methodsFor(m).stream().map(IdMap.MethodEntry::methodId).toList());
        map.unloadClass(10);
        assertTrue(map.methodsFor(m).isEmpty());
        assertEquals(1, map.classesNamed("com.foo.Bar").size());
        assertEquals(IdMap.Status.UNKNOWN, map.classStatus(99));
    }

    @Test
    void equalTokensShareOneIntSoChurnDoesNotGrowTheTables() {
        IdMap map = new IdMap();
        long tag = 1;
        long id = 1000;
        for (int round = 0; round < 10_000; round++, tag++) {
            ClassToken c = cls("com.foo.Reloaded", PLUGIN1);  // a fresh loader each round, ordinal reused
            map.addClass(tag, c);
            for (int m = 0; m < 5; m++) map.addMethod(id++, tag, method(c, "m" + m));
            map.unloadClass(tag);
        }
        IdMap.Counts counts = map.counts();
        assertEquals(0, counts.liveClasses());
        assertEquals(1, counts.classTokens());
        assertEquals(5, counts.methodTokens());
        assertEquals(10_000, counts.unloadedClasses());
        assertTrue(counts.slots() < 1024, "tables shrink back: " + counts);
    }

    @Test
    void anUnloadWaitsForPinnedSectionsAndLaterSectionsNoLongerFindTheIds() throws Exception {
        IdMap map = new IdMap();
        ClassToken a = cls("com.foo.A", PLUGIN1);
        map.addClass(1, a);
        map.addMethod(42, 1, method(a, "run"));
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean sawIdDuringSection = new AtomicBoolean();
        Thread user = Thread.ofPlatform().start(() -> map.pinned(() -> {
            inside.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            sawIdDuringSection.set(map.method(42) != null);  // still valid: the unload is held off
            return null;
        }));
        inside.await();
        Thread unloader = Thread.ofPlatform().start(() -> map.unloadClass(1));
        Thread.sleep(200);
        assertTrue(unloader.isAlive(), "the unload waits for the pinned section");
        release.countDown();
        user.join();
        unloader.join();
        assertTrue(sawIdDuringSection.get());
        assertFalse(map.pinned(() -> map.method(42) != null));
    }

    @Test
    void underContentionNoPinnedSectionEverSeesAnIdOfAClassBeingUnloaded() throws Exception {
        IdMap map = new IdMap();
        // A "VM": a method ID is valid while its class is loaded; the checker stands for a JVMTI call.
        java.util.concurrent.ConcurrentHashMap<Long, Boolean> vmValid = new java.util.concurrent.ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong violations = new AtomicLong();
        AtomicLong checks = new AtomicLong();
        Thread[] users = new Thread[3];
        for (int u = 0; u < users.length; u++) {
            users[u] = Thread.ofPlatform().start(() -> {
                java.util.SplittableRandom random = new java.util.SplittableRandom();
                while (!stop.get()) {
                    long id = 1 + random.nextInt(2000);
                    map.pinned(() -> {
                        if (map.method(id) != null) {
                            checks.incrementAndGet();
                            if (!vmValid.containsKey(id)) violations.incrementAndGet();
                        }
                        return null;
                    });
                }
            });
        }
        long deadline = System.nanoTime() + 2_000_000_000L;
        long tag = 1;
        while (System.nanoTime() < deadline) {
            ClassToken c = cls("com.foo.C" + (tag % 50), PLUGIN1);
            map.addClass(tag, c);
            long firstId = 1 + (tag * 10) % 2000;
            for (long id = firstId; id < firstId + 10; id++) {
                vmValid.put(id, true);
                map.addMethod(id, tag, method(c, "m" + id));
            }
            // The VM frees the IDs only once the unload has gone through the map's protocol.
            map.unloadClass(tag);
            for (long id = firstId; id < firstId + 10; id++) vmValid.remove(id);
            tag++;
        }
        stop.set(true);
        for (Thread t : users) t.join();
        assertEquals(0, violations.get(), "a pinned section used an ID whose class was unloading");
        assertTrue(checks.get() > 0);
        assertNotNull(map.counts());
    }

    /**
     * The footprint the agent reports and its memory ceiling rest on this estimate: for a map
     * the shape of a script host's (generated classes, a few methods each, distinct names), it is
     * within a quarter of what the heap grew by, measured after full collections.
     */
    @Test
    void theEstimatedFootprintIsWithinAQuarterOfTheHeapTheMapHolds() {
        LoaderRef loader = new LoaderRef("groovy.lang.GroovyClassLoader$InnerLoader", null, 7);
        long before = heapUsedAfterGc();
        IdMap map = new IdMap();
        long methodId = 8;
        for (int c = 0; c < 20_000; c++) {
            ClassToken cls = new ClassToken("com.example.generated.Script" + c, loader, null, null, "file:/app/scripts.jar");
            map.addClass(c + 1, cls);
            for (int m = 0; m < 5; m++) {
                MethodToken method = new MethodToken(cls, m == 0 ? "<init>" : "call" + m, "(Ljava/lang/Object;I)Ljava/lang/Object;",
                        null, 1, new int[] {0, 10, 5, 11, 9, 12});
                map.addMethod(methodId, c + 1, method);
                methodId += 8;
            }
        }
        long grown = heapUsedAfterGc() - before;
        long estimated = map.estimatedBytes();
        assertNotNull(map.classByTag(1), "the map is alive until here");
        assertTrue(estimated > grown * 0.75 && estimated < grown * 1.25, "estimated " + estimated + " bytes, the heap grew by " + grown);
    }

    private static long heapUsedAfterGc() {
        for (int i = 0; i < 3; i++) System.gc();
        Runtime runtime = Runtime.getRuntime();
        return runtime.totalMemory() - runtime.freeMemory();
    }
}
