package dev.tiprobe.recording;

import dev.tiprobe.recording.Wire.Malformed;

/** A method whose probe the overhead budget took out, and its call rate then; each round's hottest first. */
public record Removed(String method, long callsPerSecond) {
    /** {@code string:method varlong:callsPerSecond}. */
    public static final RecordKind<Removed> KIND = new RecordKind<>(13, Removed.class, RecordingFormat.VALUES_SINCE) {
        @Override
        public void write(Removed e, RecordOut out) {
            out.string(e.method);
            out.varlong(e.callsPerSecond);
        }

        @Override
        public Removed read(RecordIn in) throws Malformed {
            return new Removed(in.string(), in.varlong());
        }
    };
}
