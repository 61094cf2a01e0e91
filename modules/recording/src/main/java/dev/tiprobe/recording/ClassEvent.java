package dev.tiprobe.recording;

import dev.tiprobe.recording.Wire.Malformed;

/** A class loaded or unloaded, with its name, kept as it was: the class may be gone when the recording is read. */
public record ClassEvent(long epochNanos, boolean load, String className) {
    /** {@code varlong:nanosAfterStart string:className}. */
    public static final RecordKind<ClassEvent> LOADED = new Codec(4, true);
    /** As {@link #LOADED}. */
    public static final RecordKind<ClassEvent> UNLOADED = new Codec(5, false);

    /** The kind this event is written as. */
    public RecordKind<ClassEvent> kind() {
        return load ? LOADED : UNLOADED;
    }

    private static final class Codec extends RecordKind<ClassEvent> {
        private final boolean load;

        Codec(int number, boolean load) {
            super(number, ClassEvent.class);
            this.load = load;
        }

        @Override
        public void write(ClassEvent e, RecordOut out) {
            if (e.load != load) throw new IllegalArgumentException("a class " + (e.load ? "load" : "unload") + " written as " + this);
            out.time(e.epochNanos);
            out.string(e.className);
        }

        @Override
        public ClassEvent read(RecordIn in) throws Malformed {
            return new ClassEvent(in.time(), load, in.string());
        }
    }
}
