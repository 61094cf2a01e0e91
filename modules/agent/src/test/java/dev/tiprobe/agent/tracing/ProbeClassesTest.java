package dev.tiprobe.agent.tracing;

import org.junit.jupiter.api.Test;

import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ProbeClassesTest {
    private static byte[] type(String name, String superclass, String... interfaces) {
        return ClassFile.of().build(ClassDesc.ofInternalName(name), b -> {
            b.withSuperclass(ClassDesc.ofInternalName(superclass));
            b.withInterfaceSymbols(java.util.Arrays.stream(interfaces).map(ClassDesc::ofInternalName).toList());
        });
    }

    private static List<String> names(List<byte[]> ordered) {
        return ordered.stream().map(b -> ClassFile.of().parse(b).thisClass().asInternalName()).toList();
    }

    /** The VM loads a class's supertypes while defining it: they must be defined before it. */
    @Test
    void everyClassComesAfterItsSuperclassAndInterfaces() {
        Map<String, byte[]> jar = new LinkedHashMap<>();
        jar.put("p/Record", type("p/Record", "p/Base", "p/Value"));
        jar.put("p/Base", type("p/Base", "java/lang/Object", "p/Value"));
        jar.put("p/Value", type("p/Value", "java/lang/Object"));
        jar.put("p/Alone", type("p/Alone", "java/lang/Object", "java/io/Serializable"));
        assertEquals(List.of("p/Value", "p/Base", "p/Record", "p/Alone"), names(ProbeClasses.inDefinitionOrder(jar)));
    }

    @Test
    void aCycleIsReportedNotLoopedOn() {
        Map<String, byte[]> jar = new LinkedHashMap<>();
        jar.put("p/A", type("p/A", "p/B"));
        jar.put("p/B", type("p/B", "p/A"));
        assertThrows(IllegalStateException.class, () -> ProbeClasses.inDefinitionOrder(jar));
    }
}
