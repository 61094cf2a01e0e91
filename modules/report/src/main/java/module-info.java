/**
 * tiprobe's recordings: a versioned binary format of chunks (samples, class load and unload
 * events, and the symbols they need), written incrementally by the agent, read back with every
 * length and checksum validated, and turned into reports (folded stacks, text).
 */
module dev.tiprobe.report {
    exports dev.tiprobe.report;
}
