/**
 * tiprobe's one native boundary: a safe Java facade over JVMTI and the few JNI functions an agent
 * needs, built on the jextract bindings. Callers see Java types only (strings, longs for method IDs,
 * {@code Class} objects, records); no {@code MemorySegment} leaves this module.
 */
module dev.tiprobe.jvmti {
    requires dev.tiprobe.bindings;
    exports dev.tiprobe.jvmti;
}
