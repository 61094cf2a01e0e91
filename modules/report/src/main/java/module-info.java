/**
 * tiprobe's recordings read back and rendered (and JFR's, read into the same model): the
 * validating reader, filters, and the exports
 * (JSON, text, folded stacks, the flame graph page, pprof, JFR). The command's side; the agent
 * records with {@code dev.tiprobe.recording} and uses this module only for its loop's pprof profiles
 * and to class JFR's lock events as a JFR file read back has them ({@code JfrLocks}).
 */
module dev.tiprobe.report {
    requires transitive dev.tiprobe.recording;
    requires transitive dev.tiprobe.ids;  // names: JFR recordings' methods named as tiprobe's own, frames spelled by one rule
    requires transitive jdk.jfr;  // JFR recordings read (JfrRecordings); JfrLocks takes JFR's events
    exports dev.tiprobe.report;
}
