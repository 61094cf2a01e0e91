package dev.tiprobe.report;

import dev.tiprobe.recording.Allocation;
import dev.tiprobe.recording.Globs;
import dev.tiprobe.recording.LockWait;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.Sample;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Report-time filtering of a recording's samples, as async-profiler's include and exclude do:
 * keep the samples with a frame that matches an include (if any is given), drop those with a
 * frame that matches an exclude, keep only threads whose name matches, and only a time window.
 * Patterns are globs over frame names ({@code *} any characters), e.g. {@code *Orders.total*}.
 *
 * @param includes  frame globs; a sample is kept if any of its frames matches one (none: all)
 * @param excludes  frame globs; a sample is dropped if any of its frames matches one
 * @param threads   thread-name globs (none: all threads)
 * @param fromNanos start of the window, nanoseconds after the recording's start (0: from the start)
 * @param toNanos   end of the window, nanoseconds after the start (Long.MAX_VALUE: to the end)
 */
public record RecordingFilter(List<String> includes, List<String> excludes, List<String> threads, long fromNanos,
                              long toNanos) {
    public static final RecordingFilter ALL = new RecordingFilter(List.of(), List.of(), List.of(), 0, Long.MAX_VALUE);

    public RecordingFilter {
        includes = List.copyOf(includes);
        excludes = List.copyOf(excludes);
        threads = List.copyOf(threads);
        if (fromNanos < 0 || toNanos < fromNanos) throw new IllegalArgumentException("the time window is empty or negative");
    }

    /**
     * The recording with only the samples, allocations and waits the filter keeps (symbols, class
     * events, collected objects and traced calls unchanged). A wait is kept by its waiter's frames.
     */
    public Recording apply(Recording r) {
        if (this.equals(ALL)) return r;
        Keep keep = new Keep(r, globs(includes), globs(excludes), globs(threads));
        List<Sample> samples = new ArrayList<>();
        for (Sample s : r.samples()) if (keep.test(s.epochNanos(), s.threadId(), s.frames())) samples.add(s);
        List<Allocation> allocations = new ArrayList<>();
        for (Allocation a : r.events().allocations()) if (keep.test(a.epochNanos(), a.threadId(), a.frames())) allocations.add(a);
        List<LockWait> locks = new ArrayList<>();
        for (LockWait w : r.events().locks()) if (keep.test(w.epochNanos(), w.threadId(), w.frames())) locks.add(w);
        Recording.Events e = r.events();
        // tiprobe's own share is the whole session's: against the samples kept it would say another figure
        return r.withSamples(samples).withEvents(new Recording.Events(e.types(), List.copyOf(allocations), e.freed(), List.copyOf(locks),
                        e.deadlocks()))
                .without(RecordingFormat.INFO_OWN_WORK_NANOS);
    }

    /** The filter's test of one event: its time, its thread's name, its frames. */
    private final class Keep {
        private final Recording r;
        private final List<Predicate<String>> in;
        private final List<Predicate<String>> out;
        private final List<Predicate<String>> names;

        Keep(Recording r, List<Predicate<String>> in, List<Predicate<String>> out, List<Predicate<String>> names) {
            this.r = r;
            this.in = in;
            this.out = out;
            this.names = names;
        }

        boolean test(long epochNanos, long threadId, int[] frames) {
            long t = epochNanos - r.startEpochNanos();
            if (t < fromNanos || t > toNanos) return false;
            if (!names.isEmpty() && !anyMatches(names, r.threads().getOrDefault(threadId, ""))) return false;
            if (!in.isEmpty() && !anyFrame(frames, in)) return false;
            return out.isEmpty() || !anyFrame(frames, out);
        }

        private boolean anyFrame(int[] frames, List<Predicate<String>> patterns) {
            for (int id : frames) if (anyMatches(patterns, r.methodName(id))) return true;
            return false;
        }
    }

    private static boolean anyMatches(List<Predicate<String>> patterns, String text) {
        for (Predicate<String> p : patterns) if (p.test(text)) return true;
        return false;
    }

    private static List<Predicate<String>> globs(List<String> globs) {
        List<Predicate<String>> out = new ArrayList<>();
        for (String g : globs) out.add(Globs.glob(g));
        return out;
    }
}
