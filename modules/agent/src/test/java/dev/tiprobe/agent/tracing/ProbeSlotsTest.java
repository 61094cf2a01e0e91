package dev.tiprobe.agent.tracing;

import dev.tiprobe.ids.IdMap;
import dev.tiprobe.ids.LoaderRef;
import dev.tiprobe.testing.GeneratedClasses;
import org.junit.jupiter.api.Test;

import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.MethodModel;
import java.net.URL;
import java.net.URLClassLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ProbeSlotsTest {
    /**
     * Tracing's tokens name a class loader as the session's ID map does (the registry asks the
     * same map): with a table of its own, the loader the registry had seen second was tracing's
     * first, and one class got two tokens, its traced figures and its samples under two names.
     */
    @Test
    void aTracedClassNamesItsLoaderAsTheSessionsMapDoes() throws Exception {
        IdMap names = new IdMap();
        try (URLClassLoader first = new URLClassLoader(new URL[0], null);
             URLClassLoader second = new URLClassLoader(new URL[0], null)) {
            LoaderRef firstRef = names.loaders().of(first);  // as the registry, tagging a class of it
            ProbeSlots slots = new ProbeSlots(names, false, (loader, pkg) -> null, 0);
            byte[] classFile = GeneratedClasses.classFile("gen.Twice");
            ClassModel model = ClassFile.of().parse(classFile);
            MethodModel work = model.methods().stream().filter(m -> m.methodName().equalsString("work")).findFirst().orElseThrow();

            int slot = slots.forClass("gen.Twice", second, null, classFile).slotFor(work);

            ProbeSlots.Method traced = slots.methods().get(slot);
            LoaderRef tracedLoader = traced.token().owner().loader();
            assertEquals(names.loaders().of(second), tracedLoader);
            assertEquals(2, tracedLoader.ordinal(), "the second loader of its kind, as the registry counts them");
            assertEquals(1, firstRef.ordinal());
            assertEquals(traced.tokenId(), names.internMethodToken(traced.token()), "the method's token is the map's");
        }
    }

    /**
     * A G1 cycle after minutes without one unloads tens of thousands of classes at once: their
     * methods' last figures are handed out a few thousand at a time, the others waiting, so that
     * settling them never makes arrays of tens of megabytes at once.
     */
    @Test
    void methodsOfACollectedLoaderAreHandedOutAFewAtATime() throws Exception {
        ProbeSlots slots = new ProbeSlots(new IdMap(), false, (loader, pkg) -> null, 0);
        java.lang.ref.WeakReference<ClassLoader> gone = traceAll(slots);
        for (int i = 0; i < 100 && !slots.anyUnloaded(); i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertEquals(null, gone.get(), "the loader was collected");
        java.util.List<ProbeSlots.Method> first = slots.unloaded(2);
        assertEquals(2, first.size());
        assertEquals(1, slots.waitingSlots().cardinality(), "the third waits");
        assertEquals(1, slots.unloaded(2).size());
        assertEquals(0, slots.waitingSlots().cardinality());
        assertEquals(false, slots.anyUnloaded());
    }

    /** Slots for the three methods of a class of a loader nothing else holds; the loader, weakly. */
    private static java.lang.ref.WeakReference<ClassLoader> traceAll(ProbeSlots slots) throws Exception {
        URLClassLoader loader = new URLClassLoader(new URL[0], null);
        byte[] classFile = GeneratedClasses.classFile("gen.Thrice");
        Instrumenter.ClassSlots perClass = slots.forClass("gen.Thrice", loader, null, classFile);
        for (MethodModel m : ClassFile.of().parse(classFile).methods()) perClass.slotFor(m);
        loader.close();
        return new java.lang.ref.WeakReference<>(loader);
    }
}
