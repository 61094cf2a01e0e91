package dev.tiprobe.recording;

import dev.tiprobe.recording.Wire.Malformed;

/** A fact about the session ({@link RecordingFormat#INFO_SAMPLE_MODE} and the other keys there); a later one of a key replaces it. */
public record Info(String key, String value) {
    /** {@code string:key string:value}. */
    public static final RecordKind<Info> KIND = new RecordKind<>(6, Info.class) {
        @Override
        public void write(Info e, RecordOut out) {
            out.string(e.key);
            out.string(e.value);
        }

        @Override
        public Info read(RecordIn in) throws Malformed {
            return new Info(in.string(), in.string());
        }
    };
}
