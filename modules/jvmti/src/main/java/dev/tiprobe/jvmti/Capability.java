package dev.tiprobe.jvmti;

import java.util.EnumSet;
import java.util.Set;

/**
 * The 45 JVMTI capabilities of {@code jvmtiCapabilities}, in declaration order.
 *
 * <p>The struct is 16 bytes of 1-bit bitfields, which jextract cannot express: field <i>i</i> in
 * declaration order is bit <i>i</i>, least significant first, so {@link #bit()} is the ordinal.
 * {@code NativeLayoutTest} checks every bit against the real header with gcc.
 */
public enum Capability {
    CAN_TAG_OBJECTS,
    CAN_GENERATE_FIELD_MODIFICATION_EVENTS,
    CAN_GENERATE_FIELD_ACCESS_EVENTS,
    CAN_GET_BYTECODES,
    CAN_GET_SYNTHETIC_ATTRIBUTE,
    CAN_GET_OWNED_MONITOR_INFO,
    CAN_GET_CURRENT_CONTENDED_MONITOR,
    CAN_GET_MONITOR_INFO,
    CAN_POP_FRAME,
    CAN_REDEFINE_CLASSES,
    CAN_SIGNAL_THREAD,
    CAN_GET_SOURCE_FILE_NAME,
    CAN_GET_LINE_NUMBERS,
    CAN_GET_SOURCE_DEBUG_EXTENSION,
    CAN_ACCESS_LOCAL_VARIABLES,
    CAN_MAINTAIN_ORIGINAL_METHOD_ORDER,
    CAN_GENERATE_SINGLE_STEP_EVENTS,
    CAN_GENERATE_EXCEPTION_EVENTS,
    CAN_GENERATE_FRAME_POP_EVENTS,
    CAN_GENERATE_BREAKPOINT_EVENTS,
    CAN_SUSPEND,
    CAN_REDEFINE_ANY_CLASS,
    CAN_GET_CURRENT_THREAD_CPU_TIME,
    CAN_GET_THREAD_CPU_TIME,
    CAN_GENERATE_METHOD_ENTRY_EVENTS,
    CAN_GENERATE_METHOD_EXIT_EVENTS,
    CAN_GENERATE_ALL_CLASS_HOOK_EVENTS,
    CAN_GENERATE_COMPILED_METHOD_LOAD_EVENTS,
    CAN_GENERATE_MONITOR_EVENTS,
    CAN_GENERATE_VM_OBJECT_ALLOC_EVENTS,
    CAN_GENERATE_NATIVE_METHOD_BIND_EVENTS,
    CAN_GENERATE_GARBAGE_COLLECTION_EVENTS,
    CAN_GENERATE_OBJECT_FREE_EVENTS,
    CAN_FORCE_EARLY_RETURN,
    CAN_GET_OWNED_MONITOR_STACK_DEPTH_INFO,
    CAN_GET_CONSTANT_POOL,
    CAN_SET_NATIVE_METHOD_PREFIX,
    CAN_RETRANSFORM_CLASSES,
    CAN_RETRANSFORM_ANY_CLASS,
    CAN_GENERATE_RESOURCE_EXHAUSTION_HEAP_EVENTS,
    CAN_GENERATE_RESOURCE_EXHAUSTION_THREADS_EVENTS,
    CAN_GENERATE_EARLY_VMSTART,
    CAN_GENERATE_EARLY_CLASS_HOOK_EVENTS,
    CAN_GENERATE_SAMPLED_OBJECT_ALLOC_EVENTS,
    CAN_SUPPORT_VIRTUAL_THREADS;

    /** The size of {@code jvmtiCapabilities} in bytes. */
    static final int STRUCT_BYTES = 16;

    /** The bit of this capability in {@code jvmtiCapabilities}, counting from the least significant bit of byte 0. */
    public int bit() {
        return ordinal();
    }

    /** The field name in {@code jvmti.h}, e.g. {@code can_tag_objects}. */
    public String fieldName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Packs a set into the two little-endian longs of the struct (bits 0..63, 64..127). */
    static long[] pack(Set<Capability> capabilities) {
        long[] words = new long[2];
        for (Capability c : capabilities) words[c.bit() >>> 6] |= 1L << (c.bit() & 63);
        return words;
    }

    /** Unpacks the struct's two words; bits that name no capability are ignored. */
    static Set<Capability> unpack(long low, long high) {
        EnumSet<Capability> set = EnumSet.noneOf(Capability.class);
        for (Capability c : values()) {
            long word = c.bit() < 64 ? low : high;
            if ((word & (1L << (c.bit() & 63))) != 0) set.add(c);
        }
        return set;
    }
}
