/**
 * tiprobe's recordings read back and rendered: the validating reader, filters, and the exports
 * (JSON, text, folded stacks, the flame graph page). The command's side; the agent writes with
 * {@code dev.tiprobe.recording} alone.
 */
module dev.tiprobe.report {
    requires transitive dev.tiprobe.recording;
    exports dev.tiprobe.report;
}
