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
            ProbeSlots slots = new ProbeSlots(names, false, (loader, pkg) -> null);
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
}
