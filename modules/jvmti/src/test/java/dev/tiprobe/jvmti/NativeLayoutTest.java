package dev.tiprobe.jvmti;

import dev.tiprobe.bindings.jvmti.JNIInvokeInterface_;
import dev.tiprobe.bindings.jvmti.JNINativeInterface_;
import dev.tiprobe.bindings.jvmti.jvmtiEventCallbacks;
import dev.tiprobe.bindings.jvmti.jvmtiExtensionEventInfo;
import dev.tiprobe.bindings.jvmti.jvmtiExtensionFunctionInfo;
import dev.tiprobe.bindings.jvmti.jvmtiFrameInfo;
import dev.tiprobe.bindings.jvmti.jvmtiInterface_1_;
import dev.tiprobe.bindings.jvmti.jvmtiLineNumberEntry;
import dev.tiprobe.bindings.jvmti.jvmtiParamInfo;
import dev.tiprobe.bindings.jvmti.jvmtiStackInfo;
import dev.tiprobe.bindings.jvmti.jvmtiThreadInfo;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checks the generated layouts and the hand-made parts of the facade (capability bits, the
 * variadic SetEventNotificationMode slot) against the real {@code jvmti.h}, compiled by gcc.
 */
class NativeLayoutTest {
    /** Java layout by the C type that names it. */
    private static final Map<String, GroupLayout> STRUCTS = new LinkedHashMap<>();
    static {
        STRUCTS.put("jvmtiInterface_1", jvmtiInterface_1_.layout());
        STRUCTS.put("struct JNIInvokeInterface_", JNIInvokeInterface_.layout());
        STRUCTS.put("struct JNINativeInterface_", JNINativeInterface_.layout());
        STRUCTS.put("jvmtiEventCallbacks", jvmtiEventCallbacks.layout());
        STRUCTS.put("jvmtiFrameInfo", jvmtiFrameInfo.layout());
        STRUCTS.put("jvmtiStackInfo", jvmtiStackInfo.layout());
        STRUCTS.put("jvmtiThreadInfo", jvmtiThreadInfo.layout());
        STRUCTS.put("jvmtiLineNumberEntry", jvmtiLineNumberEntry.layout());
        STRUCTS.put("jvmtiExtensionEventInfo", jvmtiExtensionEventInfo.layout());
        STRUCTS.put("jvmtiExtensionFunctionInfo", jvmtiExtensionFunctionInfo.layout());
        STRUCTS.put("jvmtiParamInfo", jvmtiParamInfo.layout());
    }

    private static Map<String, Long> fromC;

    @BeforeAll
    static void compileAndRunTheCProgram(@TempDir Path dir) throws Exception {
        Path source = dir.resolve("layouts.c");
        Files.writeString(source, cProgram());
        Path exe = dir.resolve("layouts");
        Path include = Path.of(System.getProperty("java.home"), "include");
        run(dir, List.of("gcc", "-std=c11", "-Wall", "-Werror", "-I", include.toString(),
                "-I", include.resolve("linux").toString(), "-o", exe.toString(), source.toString()));
        fromC = parse(run(dir, List.of(exe.toString())));
    }

    @Test
    void everyGeneratedStructMatchesTheHeader() {
        List<String> mismatches = compare(fromC, fromJava());
        assertTrue(mismatches.isEmpty(), "layouts differ from jvmti.h:\n" + String.join("\n", mismatches));
        assertTrue(fromJava().size() > 400, "the function tables are compared field by field, not only their sizes");
    }

    @Test
    void capabilityBitsMatchTheHeader() {
        assertEquals(Capability.STRUCT_BYTES, fromC.get("sizeof jvmtiCapabilities"));
        for (Capability c : Capability.values()) {
            assertEquals((long) c.bit(), fromC.get("bit " + c.fieldName()), c.fieldName());
        }
    }

    @Test
    void theVariadicSetEventNotificationModeSlotIsWhereTheFacadeReadsIt() {
        assertEquals(Native.SET_EVENT_NOTIFICATION_MODE_OFFSET,
                fromC.get("offset jvmtiInterface_1.SetEventNotificationMode"));
    }

    @Test
    void theComparisonFailsWhenALayoutDisagrees() {
        Map<String, Long> shifted = new LinkedHashMap<>(fromJava());
        shifted.computeIfPresent("offset jvmtiStackInfo.frame_count", (k, v) -> v + 4);
        shifted.computeIfPresent("sizeof jvmtiFrameInfo", (k, v) -> v - 8);
        List<String> mismatches = compare(fromC, shifted);
        assertEquals(2, mismatches.size(), mismatches.toString());
        Map<String, Long> missing = new LinkedHashMap<>(fromJava());
        missing.put("offset jvmtiFrameInfo.no_such_field", 0L);
        assertFalse(compare(fromC, missing).isEmpty());
    }

    /** Every size and named field offset of the Java layouts, keyed like the C program prints them. */
    private static Map<String, Long> fromJava() {
        Map<String, Long> values = new LinkedHashMap<>();
        STRUCTS.forEach((cType, layout) -> {
            values.put("sizeof " + label(cType), layout.byteSize());
            for (MemoryLayout member : layout.memberLayouts()) {
                member.name().ifPresent(name -> values.put("offset " + label(cType) + "." + name,
                        layout.byteOffset(MemoryLayout.PathElement.groupElement(name))));
            }
        });
        return values;
    }

    /** Lines where the Java value differs from C's, or C printed nothing for a Java key. */
    static List<String> compare(Map<String, Long> c, Map<String, Long> java) {
        List<String> mismatches = new ArrayList<>();
        java.forEach((key, value) -> {
            Long expected = c.get(key);
            if (!value.equals(expected)) mismatches.add(key + ": Java " + value + ", C " + expected);
        });
        return mismatches;
    }

    private static String label(String cType) {
        return cType.replace("struct ", "");
    }

    private static String cProgram() {
        StringBuilder c = new StringBuilder("""
                #include <stddef.h>
                #include <stdio.h>
                #include <string.h>
                #include <jvmti.h>

                static int bit_of(const jvmtiCapabilities *caps) {
                    const unsigned char *bytes = (const unsigned char *) caps;
                    for (int i = 0; i < (int) (sizeof *caps) * 8; i++) {
                        if (bytes[i / 8] & (1u << (i % 8))) return i;
                    }
                    return -1;
                }

                int main(void) {
                    jvmtiCapabilities caps;
                    printf("sizeof jvmtiCapabilities %zu\\n", sizeof(jvmtiCapabilities));
                    printf("offset jvmtiInterface_1.SetEventNotificationMode %zu\\n",
                           offsetof(jvmtiInterface_1, SetEventNotificationMode));
                """);
        STRUCTS.forEach((cType, layout) -> {
            String label = label(cType);
            c.append("    printf(\"sizeof ").append(label).append(" %zu\\n\", sizeof(").append(cType).append("));\n");
            for (MemoryLayout member : layout.memberLayouts()) {
                member.name().ifPresent(name -> c.append("    printf(\"offset ").append(label).append('.').append(name)
                        .append(" %zu\\n\", offsetof(").append(cType).append(", ").append(name).append("));\n"));
            }
        });
        for (Capability cap : Capability.values()) {
            c.append("    memset(&caps, 0, sizeof caps); caps.").append(cap.fieldName())
                    .append(" = 1; printf(\"bit ").append(cap.fieldName()).append(" %d\\n\", bit_of(&caps));\n");
        }
        return c.append("    return 0;\n}\n").toString();
    }

    private static Map<String, Long> parse(String output) {
        Map<String, Long> values = new LinkedHashMap<>();
        for (String line : output.split("\n")) {
            int space = line.lastIndexOf(' ');
            if (space > 0) values.put(line.substring(0, space), Long.parseLong(line.substring(space + 1).trim()));
        }
        return values;
    }

    private static String run(Path dir, List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "timed out: " + command);
        assertEquals(0, p.exitValue(), command.getFirst() + " failed (is gcc installed?):\n" + output);
        return output;
    }
}
