package dev.tiprobe.recording;

/**
 * A stack as every event carries it, leaf first: method token ids (0 for a frame not resolved)
 * and their source lines (0 where unknown), the first {@code depth} of them; {@code truncated}
 * when the thread had frames below those. The agent's engines make them (their arrays may be
 * longer than {@code depth}), the writer pools them. A stack read back from a recording has
 * arrays of exactly its frames, and one more when it was cut: a {@link #TRUNCATED} root, so that
 * every view shows where frames are missing and never draws a cut stack's oldest kept frame as a root.
 */
public record Stack(int[] frames, int[] lines, int depth, boolean truncated) {
    /** A stack with no frame, for an event whose stack is not known. */
    public static final Stack NONE = new Stack(new int[0], new int[0], 0, false);

    /** The method id of the root frame a stack read back has when it was cut; it names no method. */
    public static final int TRUNCATED = -1;

    /** A stack as read back: {@code frames} and {@code lines} are all of it, a {@link #TRUNCATED} root included. */
    public static Stack read(int[] frames, int[] lines) {
        boolean truncated = frames.length > 0 && frames[frames.length - 1] == TRUNCATED;
        return new Stack(frames, lines, truncated ? frames.length - 1 : frames.length, truncated);
    }
}
