package dev.tiprobe.report;

import dev.tiprobe.recording.Allocation;
import dev.tiprobe.recording.LockWait;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.Sample;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The views one recording gives, each a set of weighted stacks ({@link Profile}) that every export
 * (folded stacks, the page, pprof, text) draws the same way:
 * <ul>
 * <li>{@code cpu}: stack samples weighted by the CPU time their thread used;
 * <li>{@code wall}: stack samples counted;
 * <li>{@code alloc}: sampled allocations weighted by the bytes they stand for, the allocated class
 *     as the leaf frame;
 * <li>{@code live}: the same, only objects not collected when the recording ended (an estimate of
 *     the bytes still held);
 * <li>{@code lock}: waits to enter a monitor or take a {@code java.util.concurrent} lock, weighted
 *     by the time waited, the lock's class as the leaf frame; {@code wait}: {@code Object.wait}
 *     calls and parks for a condition or an event the same way.
 * </ul>
 */
public enum View {
    CPU("CPU time", "nanoseconds"),
    WALL("the threads' wall time", "samples"),
    ALLOC("allocated bytes", "bytes"),
    LIVE("live bytes", "bytes"),
    LOCK("time waiting to enter monitors and take locks", "nanoseconds"),
    WAIT("time in Object.wait and parked waiting", "nanoseconds");

    private final String weighs;
    private final String unit;

    View(String weighs, String unit) {
        this.weighs = weighs;
        this.unit = unit;
    }

    /** The name users type ({@code --event alloc}). */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** What a stack's weight is, for people: "allocated bytes". */
    public String weighs() {
        return weighs;
    }

    /** The unit of a weight: nanoseconds, samples or bytes. */
    public String unit() {
        return unit;
    }

    /** The view named {@code id}, or an exception naming the ones there are. */
    public static View of(String id) {
        for (View v : values()) if (v.id().equals(id)) return v;
        throw new IllegalArgumentException("unknown event '" + id + "': use one of "
                + String.join(", ", Arrays.stream(values()).map(View::id).toList()));
    }

    /**
     * The view a recording is read in when none is asked for: its first in {@link #in} (cpu for a
     * cpu-mode recording, else wall; alloc, then lock for one without samples), wall for an empty one.
     */
    public static View natural(Recording r) {
        List<View> views = in(r);
        return views.isEmpty() ? (r.cpuMode() ? CPU : WALL) : views.getFirst();
    }

    /**
     * The views {@code r} holds anything for, the natural one first: cpu for a cpu-mode recording,
     * else wall, then cpu. A cpu-mode recording of tiprobe's has no wall view (its samples are of
     * running threads only); one read from a JFR file keeps it, for its native-method samples.
     */
    public static List<View> in(Recording r) {
        List<View> views = new ArrayList<>();
        if (!r.samples().isEmpty()) {
            boolean fromJfrFile = RecordingFormat.SAMPLE_SOURCE_JFR_FILE.equals(r.info().get(RecordingFormat.INFO_SAMPLE_SOURCE));
            if (!r.cpuMode()) views.add(WALL);
            views.add(CPU);
            if (r.cpuMode() && fromJfrFile) views.add(WALL);
        }
        Recording.Events e = r.events();
        if (!e.allocations().isEmpty()) views.add(ALLOC);
        if (r.info().containsKey(RecordingFormat.INFO_ALLOC_LIVE)) views.add(LIVE);
        if (e.hasWaits(true)) views.add(LOCK);
        if (e.hasWaits(false)) views.add(WAIT);
        return views;
    }

    /** This view of {@code r}: its stacks and their weights. */
    public Profile of(Recording r) {
        List<Profile.Stack> stacks = new ArrayList<>();
        switch (this) {
            case CPU, WALL -> {
                for (Sample s : r.samples()) {
                    long weight = this == CPU ? s.cpuNanos() : s.ticks();
                    if (weight > 0) stacks.add(new Profile.Stack(s.epochNanos(), s.threadId(), s.frames(), s.lines(), weight));
                }
            }
            case ALLOC, LIVE -> {
                for (Allocation a : r.events().allocations()) {
                    if (this == LIVE && (a.tag() == 0 || r.events().freed().contains(a.tag()))) continue;
                    stacks.add(new Profile.Stack(a.epochNanos(), a.threadId(), withLeaf(a.frames(), a.typeId()), withFirst(a.lines(), 0),
                            a.estimatedBytes()));
                }
            }
            case LOCK, WAIT -> {
                for (LockWait w : r.events().locks()) {
                    if (RecordingFormat.inLockView(w.kind()) == (this == LOCK)) stacks.add(new Profile.Stack(w.epochNanos(), w.threadId(), withLeaf(w.frames(), w.typeId()),
                            withFirst(w.lines(), 0), Math.max(1, w.waitNanos())));
                }
            }
        }
        return new Profile(this, r, List.copyOf(stacks));
    }

    /** The frames with the class as a new leaf frame. */
    private static int[] withLeaf(int[] frames, int typeId) {
        return withFirst(frames, Recording.typeFrame(typeId));
    }

    private static int[] withFirst(int[] values, int first) {
        int[] out = new int[values.length + 1];
        out[0] = first;
        System.arraycopy(values, 0, out, 1, values.length);
        return out;
    }
}
