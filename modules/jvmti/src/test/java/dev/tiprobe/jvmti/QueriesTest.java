package dev.tiprobe.jvmti;

import dev.tiprobe.testing.GeneratedClasses;
import org.junit.jupiter.api.Test;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The typed JVMTI functions against what Java reflection says about the same classes. */
class QueriesTest {
    static class Sample<T extends Comparable<T>> {
        T value;

        synchronized int twice(int x) {
            return 2 * x;
        }

        <U> List<U> generic(U u) {
            return List.of(u);
        }
    }

    @Test
    void classSignatureStatusLoaderModuleAndSourceFile() {
        Jvmti jvmti = Jvmti.get();
        Jvmti.ClassSignature sig = jvmti.classSignature(Sample.class);
        assertEquals(Sample.class.descriptorString(), sig.signature());
        assertEquals("<T::Ljava/lang/Comparable<TT;>;>Ljava/lang/Object;", sig.generic());
        assertNull(jvmti.classSignature(Object.class).generic(), "Object has no generic signature");
        Jvmti.ClassStatus status = jvmti.classStatus(Sample.class);
        assertTrue(status.prepared() && status.verified() && !status.error() && !status.array());
        assertTrue(jvmti.classStatus(int[].class).array());
        assertTrue(jvmti.classStatus(int.class).primitive());
        assertTrue(jvmti.isModifiableClass(Sample.class));
        assertFalse(jvmti.isModifiableClass(int[].class), "arrays cannot be retransformed");
        assertFalse(jvmti.isModifiableClass(int.class), "nor primitives");
        Runnable lambda = () -> { };
        assertFalse(jvmti.isModifiableClass(lambda.getClass()), "nor hidden classes");
        assertSame(Sample.class.getClassLoader(), jvmti.classLoader(Sample.class));
        assertNull(jvmti.classLoader(String.class), "bootstrap loader");
        assertSame(QueriesTest.class.getModule(), jvmti.classModule(Sample.class));
        assertSame(String.class.getModule(), jvmti.namedModule(null, "java/lang"));
        assertEquals("QueriesTest.java", jvmti.sourceFileName(Sample.class));
        assertNull(jvmti.sourceFileName(int[].class));
    }

    /** What the agent does with its probe classes: visible to every loader, without appending a jar. */
    @Test
    void aClassDefinedInTheBootLoaderIsFoundFromEveryLoaderAndCannotBeDefinedTwice() throws Exception {
        String name = GeneratedClasses.freshName("gen", "BootDefined");
        byte[] classFile = ClassFile.of().build(java.lang.constant.ClassDesc.of(name), b -> b.withFlags(Modifier.PUBLIC));
        Jvmti jvmti = Jvmti.get();
        jvmti.defineInBootLoader(classFile);
        Class<?> fromBoot = Class.forName(name, false, null);
        assertNull(fromBoot.getClassLoader(), "defined by the boot loader");
        assertSame(fromBoot, Class.forName(name, false, new GeneratedClasses.Loader()), "a child loader finds it");
        assertSame(fromBoot, Class.forName(name, false, ClassLoader.getSystemClassLoader()));
        JvmtiException again = org.junit.jupiter.api.Assertions.assertThrows(JvmtiException.class,
                () -> jvmti.defineInBootLoader(classFile));
        assertEquals("DefineClass", again.function());
    }

    /**
     * A definition the VM refuses is reported every time, also once the JIT has compiled the
     * define: compiled, the pending exception alone went unseen after some of the duplicates.
     */
    @Test
    void everyRefusedDefinitionIsReportedAlsoOnceCompiled() throws Exception {
        Jvmti jvmti = Jvmti.get();
        int unreported = 0;
        for (int i = 0; i < 2_000; i++) {
            String name = GeneratedClasses.freshName("gen", "Duplicate");
            byte[] classFile = ClassFile.of().build(java.lang.constant.ClassDesc.of(name), b -> b.withFlags(Modifier.PUBLIC));
            jvmti.defineInBootLoader(classFile);
            try {
                jvmti.defineInBootLoader(classFile);
                unreported++;
            } catch (JvmtiException refused) {
                // as it should be
            }
        }
        assertEquals(0, unreported, "duplicates defined without an error, of 2,000");
    }

    @Test
    void methodsNamesModifiersAndLines() throws Exception {
        Jvmti jvmti = Jvmti.get();
        assertEquals(4, new Sample<String>().twice(2), "Sample is prepared");
        long[] ids = jvmti.classMethods(Sample.class);
        assertEquals(Sample.class.getDeclaredMethods().length + Sample.class.getDeclaredConstructors().length, ids.length);
        long twice = -1;
        for (long id : ids) {
            Jvmti.MethodName name = jvmti.methodName(id);
            assertSame(Sample.class, jvmti.methodDeclaringClass(id));
            assertFalse(jvmti.isMethodObsolete(id));
            if (name.name().equals("twice")) {
                twice = id;
                assertEquals("(I)I", name.descriptor());
                assertNull(name.generic());
            }
            if (name.name().equals("generic")) {
                assertEquals("(Ljava/lang/Object;)Ljava/util/List;", name.descriptor());
                assertEquals("<U:Ljava/lang/Object;>(TU;)Ljava/util/List<TU;>;", name.generic());
            }
        }
        int modifiers = jvmti.methodModifiers(twice);
        assertEquals(Sample.class.getDeclaredMethod("twice", int.class).getModifiers(), modifiers);
        assertTrue(Modifier.isSynchronized(modifiers));
        List<Jvmti.LineNumber> lines = jvmti.lineNumberTable(twice);
        assertEquals(1, lines.size());
        assertTrue(lines.getFirst().line() > 20, lines.toString());
    }

    @Test
    void stackTraceOfTheCurrentThreadShowsThisMethod() {
        Jvmti jvmti = Jvmti.get();
        List<Jvmti.StackFrame> frames = jvmti.stackTrace(null, 0, 64);
        assertTrue(frames.stream().anyMatch(f -> jvmti.methodName(f.methodId()).name()
                .equals("stackTraceOfTheCurrentThreadShowsThisMethod")));
        assertTrue(frames.stream().allMatch(f -> jvmti.methodDeclaringClass(f.methodId()) != null));
    }

    /** A walk into arrays from a depth: the frames below it, as the whole walk has them; none past the bottom, not an error. */
    @Test
    void stackTraceIntoArraysStartsAtTheDepthAskedFor() {
        Jvmti jvmti = Jvmti.get();
        long[] methods = new long[512];
        long[] locations = new long[512];
        int all = jvmti.stackTrace(null, 0, methods, locations);
        long[] whole = java.util.Arrays.copyOf(methods, all);
        int from3 = jvmti.stackTrace(null, 3, methods, locations);
        assertEquals(all - 3, from3);
        assertEquals(java.util.Arrays.stream(whole, 3, all).boxed().toList(),
                java.util.Arrays.stream(methods, 0, from3).boxed().toList());
        assertEquals(0, jvmti.stackTrace(null, all + 10, methods, locations));
    }

    @Test
    void allStackTracesAndThreadListStackTracesSeeAParkedThread() throws Exception {
        Jvmti jvmti = Jvmti.get();
        Object lock = new Object();
        Thread waiter = Thread.ofPlatform().name("tiprobe-test-waiter").start(() -> {
            synchronized (lock) {
                try {
                    lock.wait();
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        try {
            while (waiter.getState() != Thread.State.WAITING) Thread.onSpinWait();
            Jvmti.ThreadStack stack = jvmti.allStackTraces(16).stream()
                    .filter(s -> s.thread() == waiter).findFirst().orElseThrow();
            assertTrue(stack.frames().stream().anyMatch(f -> jvmti.methodName(f.methodId()).name().equals("wait0")),
                    "waiting in Object.wait0");
            List<Jvmti.ThreadStack> listed = jvmti.threadListStackTraces(List.of(waiter, Thread.currentThread()), 8);
            assertSame(waiter, listed.get(0).thread());
            assertSame(Thread.currentThread(), listed.get(1).thread());
            Jvmti.ThreadDetails details = jvmti.threadInfo(waiter);
            assertEquals("tiprobe-test-waiter", details.name());
            assertFalse(details.daemon());
            assertSame(waiter.getThreadGroup(), details.group());
            assertSame(waiter.getContextClassLoader(), details.contextClassLoader());
            assertTrue(jvmti.threadCpuTime(null) > 0);
            List<Jvmti.ThreadStack> withCpu = jvmti.allStackTraces(16, true);
            Jvmti.ThreadStack self = withCpu.stream().filter(s -> s.thread() == Thread.currentThread()).findFirst().orElseThrow();
            assertTrue(self.cpuNanos() > 0 && self.cpuNanos() <= jvmti.threadCpuTime(null), "a running thread's CPU time");
            assertEquals(-1, withCpu.stream().filter(s -> s.thread() == waiter).findFirst().orElseThrow().cpuNanos(),
                    "a waiting thread is not asked");
            assertEquals(-1, stack.cpuNanos(), "not asked for");
        } finally {
            waiter.interrupt();
            waiter.join();
        }
        assertNull(jvmti.threadStack(waiter, 8), "an ended thread has no stack, and no exception is thrown for it");
        Thread ended = Thread.ofVirtual().start(() -> { });
        ended.join();
        assertNull(jvmti.threadStack(ended, 8), "nor has an ended virtual thread");
    }

    @Test
    void loadedClassesAndLoaderClassesNeverLoadAnything() {
        Jvmti jvmti = Jvmti.get();
        List<Class<?>> all = Arrays.asList(jvmti.loadedClasses());
        assertTrue(all.contains(String.class) && all.contains(QueriesTest.class) && all.contains(int[].class));
        List<Class<?>> mine = Arrays.asList(jvmti.classLoaderClasses(QueriesTest.class.getClassLoader()));
        assertTrue(mine.contains(QueriesTest.class));
        assertTrue(Arrays.asList(jvmti.classLoaderClasses(null)).contains(Object.class));
    }

    @Test
    void snapshotAgreesWithTheSingleCalls() {
        Jvmti jvmti = Jvmti.get();
        assertEquals(4, new Sample<String>().twice(2), "Sample is prepared");
        List<Jvmti.ClassSnapshot> snapshot = jvmti.snapshotLoadedClasses();
        for (Jvmti.ClassSnapshot c : snapshot) {
            assertNotNull(c.type(), "class " + c.signature());
            if (c.signature().equals(LocalReferenceStress.FILLER)) continue;
            assertEquals(c.type().descriptorString(), c.signature(), "the Class object belongs to its signature");
        }
        Jvmti.ClassSnapshot sample = snapshot.stream().filter(s -> s.type() == Sample.class).findFirst().orElseThrow();
        assertEquals(Sample.class.descriptorString(), sample.signature());
        assertArrayEquals(jvmti.classMethods(Sample.class), sample.methods().stream().mapToLong(Jvmti.MethodSnapshot::id).toArray());
        for (Jvmti.MethodSnapshot m : sample.methods()) {
            assertEquals(jvmti.methodName(m.id()), new Jvmti.MethodName(m.name(), m.descriptor(), m.generic()));
        }
        assertTrue(snapshot.size() > 1000);
    }

    @Test
    void retransformPassesTheClassThroughTheHookAndAddModuleReadsWorks() {
        Jvmti jvmti = Jvmti.get();
        List<String> seen = new CopyOnWriteArrayList<>();
        byte[][] bytes = new byte[1][];
        try (Events.Registration r = jvmti.events().on(Event.CLASS_FILE_LOAD_HOOK, (loader, name, redefined, pd, classFile) -> {
            if (redefined == Sample.class) {
                seen.add(name);
                bytes[0] = classFile;
            }
            return null;
        })) {
            assertNotNull(r);
            jvmti.retransformClasses(Sample.class);
        }
        assertEquals(List.of("dev/tiprobe/jvmti/QueriesTest$Sample"), seen);
        ClassModel model = ClassFile.of().parse(bytes[0]);
        assertEquals("dev/tiprobe/jvmti/QueriesTest$Sample", model.thisClass().asInternalName());
        assertEquals(6, new Sample<String>().twice(3), "unchanged behaviour after retransform");

        Module unnamed = new GeneratedClasses.Loader().getUnnamedModule();
        jvmti.addModuleReads(QueriesTest.class.getModule(), unnamed);
        assertTrue(QueriesTest.class.getModule().canRead(unnamed));
    }

    @Test
    void extensionFunctionsAreListed() {
        assertFalse(Jvmti.get().extensionFunctions().isEmpty());
        assertTrue(Jvmti.get().extensionFunctions().stream().allMatch(f -> f.eventIndex() == -1 && f.id() != null));
    }
}
