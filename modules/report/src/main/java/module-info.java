/**
 * tiprobe's recordings read back and rendered (and JFR's, read into the same model): the
 * validating reader, filters, and the exports
 * (JSON, text, folded stacks, the flame graph page). The command's side; the agent writes with
 * {@code dev.tiprobe.recording} alone.
 */
module dev.tiprobe.report {
    requires transitive dev.tiprobe.recording;
    requires transitive dev.tiprobe.ids;  // names: JFR recordings' methods named as tiprobe's own, frames spelled by one rule
    requires jdk.jfr;  // JFR recordings read (JfrRecordings)
    exports dev.tiprobe.report;
}
