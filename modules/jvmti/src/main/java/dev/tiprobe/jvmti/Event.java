package dev.tiprobe.jvmti;

import dev.tiprobe.bindings.jvmti.jvmti_h;

/**
 * The JVMTI events the facade delivers. Each runs on a Java thread, where an upcall is safe.
 * GarbageCollectionStart and GarbageCollectionFinish are deliberately absent: they run on the VM
 * thread, where an upcall crashes the JVM ({@link Events#onGarbageCollectionStart} says so).
 */
public enum Event {
    VM_DEATH(jvmti_h.JVMTI_EVENT_VM_DEATH(), null),
    THREAD_START(jvmti_h.JVMTI_EVENT_THREAD_START(), null),
    THREAD_END(jvmti_h.JVMTI_EVENT_THREAD_END(), null),
    /** Also adds can_retransform_classes, so retransformed classes pass through the hook too. */
    CLASS_FILE_LOAD_HOOK(jvmti_h.JVMTI_EVENT_CLASS_FILE_LOAD_HOOK(), Capability.CAN_RETRANSFORM_CLASSES),
    CLASS_LOAD(jvmti_h.JVMTI_EVENT_CLASS_LOAD(), null),
    CLASS_PREPARE(jvmti_h.JVMTI_EVENT_CLASS_PREPARE(), null),
    COMPILED_METHOD_LOAD(jvmti_h.JVMTI_EVENT_COMPILED_METHOD_LOAD(), Capability.CAN_GENERATE_COMPILED_METHOD_LOAD_EVENTS),
    COMPILED_METHOD_UNLOAD(jvmti_h.JVMTI_EVENT_COMPILED_METHOD_UNLOAD(), Capability.CAN_GENERATE_COMPILED_METHOD_LOAD_EVENTS),
    DYNAMIC_CODE_GENERATED(jvmti_h.JVMTI_EVENT_DYNAMIC_CODE_GENERATED(), null),
    OBJECT_FREE(jvmti_h.JVMTI_EVENT_OBJECT_FREE(), Capability.CAN_GENERATE_OBJECT_FREE_EVENTS),
    /** HotSpot's extension event {@code com.sun.hotspot.events.ClassUnload}: the name of an unloaded class. */
    CLASS_UNLOAD(-1, null);

    private final int type;
    private final Capability needs;

    Event(int type, Capability needs) {
        this.type = type;
        this.needs = needs;
    }

    /** The jvmtiEvent number; -1 for the extension event, whose index the VM assigns. */
    int type() {
        return type;
    }

    /** The capability that enabling this event adds, or null. */
    Capability needs() {
        return needs;
    }
}
