package dev.tiprobe.jvmti;

import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.Set;

import static dev.tiprobe.jvmti.Capability.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CapabilitiesTest {
    /** What a Java agent can have in the live phase on JDK 25 (DESIGN.md, "Facts measured"): 27 of 45. */
    static final Set<Capability> LIVE_PHASE = EnumSet.of(
            CAN_TAG_OBJECTS, CAN_GET_BYTECODES, CAN_GET_SYNTHETIC_ATTRIBUTE, CAN_GET_MONITOR_INFO,
            CAN_REDEFINE_CLASSES, CAN_SIGNAL_THREAD, CAN_GET_SOURCE_FILE_NAME, CAN_GET_LINE_NUMBERS,
            CAN_SUSPEND, CAN_REDEFINE_ANY_CLASS, CAN_GET_CURRENT_THREAD_CPU_TIME, CAN_GET_THREAD_CPU_TIME,
            CAN_GENERATE_ALL_CLASS_HOOK_EVENTS, CAN_GENERATE_COMPILED_METHOD_LOAD_EVENTS,
            CAN_GENERATE_MONITOR_EVENTS, CAN_GENERATE_VM_OBJECT_ALLOC_EVENTS,
            CAN_GENERATE_NATIVE_METHOD_BIND_EVENTS, CAN_GENERATE_GARBAGE_COLLECTION_EVENTS,
            CAN_GENERATE_OBJECT_FREE_EVENTS, CAN_GET_CONSTANT_POOL, CAN_SET_NATIVE_METHOD_PREFIX,
            CAN_RETRANSFORM_CLASSES, CAN_RETRANSFORM_ANY_CLASS, CAN_GENERATE_RESOURCE_EXHAUSTION_HEAP_EVENTS,
            CAN_GENERATE_RESOURCE_EXHAUSTION_THREADS_EVENTS, CAN_GENERATE_SAMPLED_OBJECT_ALLOC_EVENTS,
            CAN_SUPPORT_VIRTUAL_THREADS);

    @Test
    void versionIsTheJdk25Interface() {
        Jvmti jvmti = Jvmti.get();
        assertEquals(0x30000000, jvmti.version() & 0x70000000, "a JVMTI (not JNI) version number");
        assertEquals(Runtime.version().feature(), (jvmti.version() >>> 16) & 0xFFF, "major = the JDK feature release");
        assertEquals(Runtime.version().feature() + ".0.0", jvmti.versionString());
        assertTrue(Jvmti.get() == jvmti, "acquired once and cached");
    }

    @Test
    void potentialCapabilitiesInTheLivePhaseAreTheMeasuredSet() {
        Set<Capability> potential = Jvmti.get().potentialCapabilities();
        assertEquals(27, LIVE_PHASE.size());
        assertEquals(LIVE_PHASE, potential);
    }

    @Test
    void addedCapabilitiesShowUpAndCanBeGivenBack() {
        Jvmti jvmti = Jvmti.get();
        jvmti.addCapabilities(CAN_GET_BYTECODES, CAN_GET_CONSTANT_POOL);
        assertTrue(jvmti.capabilities().containsAll(EnumSet.of(CAN_GET_BYTECODES, CAN_GET_CONSTANT_POOL)));
        jvmti.relinquishCapabilities(EnumSet.of(CAN_GET_BYTECODES, CAN_GET_CONSTANT_POOL));
        assertTrue(!jvmti.capabilities().contains(CAN_GET_BYTECODES));
    }

    @Test
    void aStartUpOnlyCapabilityIsRefusedByName() {
        JvmtiException e = assertThrows(JvmtiException.class, () -> Jvmti.get().addCapabilities(
                EnumSet.of(CAN_GENERATE_METHOD_ENTRY_EVENTS, CAN_ACCESS_LOCAL_VARIABLES, CAN_TAG_OBJECTS)));
        assertEquals(JvmtiError.NOT_AVAILABLE, e.error());
        assertTrue(e.getMessage().contains("can_generate_method_entry_events"), e.getMessage());
        assertTrue(e.getMessage().contains("can_access_local_variables"), e.getMessage());
        assertTrue(!e.getMessage().contains("can_tag_objects"), e.getMessage());
        assertTrue(e.getMessage().contains("only at JVM start-up"), e.getMessage());
    }

    @Test
    void packingRoundTripsEveryBit() {
        for (Capability c : Capability.values()) {
            long[] words = Capability.pack(EnumSet.of(c));
            assertEquals(EnumSet.of(c), Capability.unpack(words[0], words[1]), c.fieldName());
        }
        assertEquals(45, Capability.values().length);
    }
}
