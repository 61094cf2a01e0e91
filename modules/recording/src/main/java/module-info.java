/**
 * The writing side of tiprobe's recordings: the format, its kinds of events each with the codec
 * that writes and reads it ({@code RecordKinds}), the incremental writer and owner-only files, and
 * the encodings both ways ({@code Wire}'s primitives, {@code CapturedValueCodec}'s values), so that
 * what is written and how it is read back are spelled out once. This is all the agent carries into
 * the target; reading whole recordings and rendering live in {@code dev.tiprobe.report}, which only
 * the command needs (as JFR keeps its writer apart from {@code jdk.jfr.consumer}).
 */
module dev.tiprobe.recording {
    exports dev.tiprobe.recording;
}
