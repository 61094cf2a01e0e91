package dev.tiprobe.recording;

/**
 * A stack as every event carries it, leaf first: method token ids (0 for a frame not resolved)
 * and their source lines (0 where unknown), the first {@code depth} of them; {@code truncated}
 * when the thread had frames below those. The agent's engines make them, the writer pools them.
 */
public record Stack(int[] frames, int[] lines, int depth, boolean truncated) {
    /** A stack with no frame, for an event whose stack is not known. */
    public static final Stack NONE = new Stack(new int[0], new int[0], 0, false);
}
