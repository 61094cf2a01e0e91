/**
 * The writing side of tiprobe's recordings: the format, the incremental writer and owner-only
 * files. This is all the agent carries into the target; reading and rendering live in
 * {@code dev.tiprobe.report}, which only the command needs (as JFR keeps its writer apart from
 * {@code jdk.jfr.consumer}).
 */
module dev.tiprobe.recording {
    exports dev.tiprobe.recording;
}
