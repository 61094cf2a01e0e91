/**
 * tiprobe's ID map, in pure Java: run-time IDs (jmethodIDs, class tags) mapped to stable metadata
 * tokens, generations that survive ID reuse, token interning, and human names built from
 * descriptors and generic signatures. No JVMTI type appears in its API, so it is tested and
 * benchmarked without an agent.
 */
module dev.tiprobe.ids {
    exports dev.tiprobe.ids;
}
