package dev.tiprobe.report;

import dev.tiprobe.recording.Globs;

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

    /** The recording with only the samples the filter keeps (symbols, class events and traced calls unchanged). */
    public Recording apply(Recording r) {
        if (this.equals(ALL)) return r;
        List<Predicate<String>> in = globs(includes);
        List<Predicate<String>> out = globs(excludes);
        List<Predicate<String>> names = globs(threads);
        List<Recording.Sample> kept = new ArrayList<>();
        for (Recording.Sample s : r.samples()) {
            long t = s.epochNanos() - r.startEpochNanos();
            if (t < fromNanos || t > toNanos) continue;
            if (!names.isEmpty() && !anyMatches(names, r.threads().getOrDefault(s.threadId(), ""))) continue;
            if (!in.isEmpty() && !anyFrame(r, s, in)) continue;
            if (!out.isEmpty() && anyFrame(r, s, out)) continue;
            kept.add(s);
        }
        return r.withSamples(kept);
    }

    private static boolean anyFrame(Recording r, Recording.Sample s, List<Predicate<String>> patterns) {
        for (int id : s.frames()) if (anyMatches(patterns, r.methodName(id))) return true;
        return false;
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
