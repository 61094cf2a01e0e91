package dev.tiprobe.report;

import java.util.List;

/**
 * One {@link View} of a recording: stacks, leaf first, each with its weight in the view's unit.
 * Frame ids are the recording's (named by {@link Recording#methodName}), a class added as a leaf
 * frame included.
 */
public record Profile(View view, Recording recording, List<Stack> stacks) {
    /** One event's stack: when it was taken, on which thread, the frames leaf first with their lines (0: unknown), and its weight. */
    public record Stack(long epochNanos, long threadId, int[] frames, int[] lines, long weight) {}

    /** The sum of the weights. */
    public long total() {
        long sum = 0;
        for (Stack s : stacks) sum += s.weight();
        return sum;
    }
}
