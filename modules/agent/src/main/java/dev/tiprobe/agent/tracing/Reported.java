package dev.tiprobe.agent.tracing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What tracing reports as it happens (methods skipped, classes left unchanged, probes taken out
 * for the overhead budget), held until the recording has it, then only counted. A session beside
 * a program that makes classes all day would otherwise keep an entry per class or method for its
 * whole life: under Groovy script churn, thousands of probes taken out in ten minutes.
 */
public final class Reported<T> {
    /** Entries kept for the summaries ("the first: …", "e.g. a, b, c"). */
    static final int FIRST = 3;

    private final List<T> first = new ArrayList<>(FIRST + 1);
    /** Which entries the summaries keep: the greatest by it, the greatest first; null: the first ones. */
    private final Comparator<T> kept;
    private List<T> unwritten = new ArrayList<>();
    private long total;

    /** Keeping the session's first entries for the summaries. */
    Reported() {
        this(null);
    }

    /** Keeping the session's greatest entries by {@code kept} for the summaries, the greatest first. */
    Reported(Comparator<T> kept) {
        this.kept = kept;
    }

    synchronized void add(T entry) {
        total++;
        if (kept == null) {
            if (first.size() < FIRST) first.add(entry);
        } else {
            int at = 0;
            while (at < first.size() && kept.compare(first.get(at), entry) >= 0) at++;
            first.add(at, entry);
            if (first.size() > FIRST) first.removeLast();
        }
        unwritten.add(entry);
    }

    synchronized void addAll(List<T> entries) {
        for (T e : entries) add(e);
    }

    /** The entries so far, handing none out. */
    synchronized View<T> look() {
        return new View<>(total, List.copyOf(first), List.copyOf(unwritten));
    }

    /** The entries so far; those not handed out before are handed out now and forgotten here. */
    synchronized View<T> take() {
        View<T> v = new View<>(total, List.copyOf(first), List.copyOf(unwritten));
        unwritten = new ArrayList<>();
        return v;
    }

    /**
     * @param total every entry of the session
     * @param first the session's first few entries, or its greatest by the order it was made with
     * @param fresh the last {@code fresh.size()} entries of the session, those not handed out before
     */
    public record View<T>(long total, List<T> first, List<T> fresh) {
        public boolean isEmpty() {
            return total == 0;
        }

        /** Index in the session of {@code fresh}'s first entry. */
        public long freshFrom() {
            return total - fresh.size();
        }

        public static <T> View<T> none() {
            return new View<>(0, List.of(), List.of());
        }
    }
}
