package dev.tiprobe.agent;

import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.report.PrivateFiles;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One session of the agent: method tracing, stack sampling or both, the recording they feed and
 * the JSON results. It answers status and dump, and {@link #close()} is the only way it ends,
 * whether {@code tiprobe stop} asked or the JVM exits: so both leave the same files.
 */
final class AgentSession {
    /** More methods than this, and the start answer says what the budget will do. */
    private static final int BROAD = 1000;

    private final Tracing.Session tracing;
    /** Set later when sampling starts after premain, once JVMTI is reachable. */
    private volatile Sampler sampler;
    private final Recorder recorder;
    private final Path results;
    private volatile boolean closed;

    /**
     * What closing did: the summary for {@code stop}, what went wrong, and the filter when it
     * matched no method (null otherwise), which is worth a line at exit.
     */
    record Ending(String summary, List<String> problems, String unmatchedFilter) {}

    AgentSession(Tracing.Session tracing, Sampler sampler, Recorder recorder, Path results) {
        this.tracing = tracing;
        this.sampler = sampler;
        this.recorder = recorder;
        this.results = results;
    }

    /** The sampler premain starts once the VM is up. */
    void samplingStarted(Sampler s) {
        sampler = s;
    }

    /** True once {@link #close()} began: the session is over; nothing is left for the shutdown hook, nor for a late sampler. */
    boolean closed() {
        return closed;
    }

    /** {@code 120 methods instrumented, mode count, ...; sampling every 10 ms (cpu); recording to ...}. */
    String started(AgentOptions options) {
        StringBuilder b = new StringBuilder();
        if (tracing != null) {
            Results now = tracing.snapshot();
            b.append(' ').append(now.methods().size()).append(" methods instrumented, mode ").append(mode(now))
                    .append(leftUnchanged(now)).append(", results go to ").append(results.toAbsolutePath())
                    .append(broad(now, options.tracing()));
        }
        Sampler s = sampler;
        if (s != null) {
            b.append(tracing != null ? ";" : "").append(" sampling every ").append(options.sampling().interval().toMillis())
                    .append(" ms (").append(options.sampling().mode().name().toLowerCase()).append(")");
        }
        return b.append("; recording to ").append(recorder.file().toAbsolutePath()).toString();
    }

    String status() {
        StringBuilder b = new StringBuilder();
        if (tracing != null) {
            Results now = tracing.snapshot();
            b.append(" mode ").append(mode(now)).append(", filter ").append(now.filter()).append(", ")
                    .append(now.methods().size()).append(" methods, ").append(calls(now)).append(" calls so far, results go to ")
                    .append(results.toAbsolutePath());
        }
        Sampler s = sampler;
        if (s != null) b.append(tracing != null ? ";" : "").append(' ').append(s.samples()).append(" samples so far");
        return b.append("; recording to ").append(recorder.file().toAbsolutePath()).toString();
    }

    /** Writes what the session has so far and goes on. */
    String dump() throws IOException {
        StringBuilder b = new StringBuilder();
        if (tracing != null) {
            Results now = tracing.snapshot();
            write(now, results);
            recorder.trace(now, false);
            b.append(' ').append(now.methods().size()).append(" methods, ").append(calls(now)).append(" calls to ")
                    .append(results.toAbsolutePath()).append(removed(now));
        }
        Sampler s = sampler;
        if (s != null) {
            s.flush();
            b.append(tracing != null ? ";" : "").append(' ').append(s.samples()).append(" samples");
        }
        return b.append("; recording in ").append(recorder.file().toAbsolutePath()).toString();
    }

    /**
     * Ends the session: sampling stops, every changed class gets its original back, and the
     * results and the recording are written. Each step runs even when an earlier one failed.
     * Called once, under the agent's lock.
     */
    Ending close() {
        closed = true;
        StringBuilder b = new StringBuilder();
        List<String> problems = new ArrayList<>();
        String unmatched = null;
        Sampler s = sampler;
        if (s != null) {
            try {
                s.close();
            } catch (Throwable e) {
                problems.add("could not finish the recording: " + message(e));
            }
        }
        if (tracing != null) {
            try {
                Results last = tracing.stop();
                write(last, results);
                recorder.trace(last, true);
                b.append(' ').append(last.methods().size()).append(" methods, ").append(calls(last)).append(" calls written to ")
                        .append(results.toAbsolutePath()).append("; classes restored").append(leftUnchanged(last))
                        .append(removed(last));
                if (last.methods().isEmpty()) unmatched = last.filter();
            } catch (Throwable e) {
                problems.add("could not write " + results + ": " + message(e));
            }
        }
        if (s != null) b.append(tracing != null ? ";" : "").append(' ').append(s.samples()).append(" samples");
        try {
            recorder.close();
        } catch (Throwable e) {
            problems.add("could not finish the recording: " + message(e));
        }
        return new Ending(b.append("; recording in ").append(recorder.file().toAbsolutePath()).toString(), problems, unmatched);
    }

    /** Writes the JSON summary, readable by the owner only where the file system allows. */
    static void write(Results results, Path file) throws IOException {
        PrivateFiles.replace(file, w -> ResultsJson.write(results, w));
    }

    static String message(Throwable t) {
        return t.getMessage() != null && !(t instanceof LinkageError) ? t.getMessage() : t.toString();
    }

    /** {@code ; the filter matches 8268 methods: ...} for a broad filter, else empty. */
    private static String broad(Results r, AgentOptions.Tracing options) {
        if (r.methods().size() <= BROAD) return "";
        return "; the filter matches " + r.methods().size() + " methods: " + (options.overheadBudget() > 0
                ? "probes come out of the hottest if they cost over " + Results.percent(options.overheadBudget())
                        + " % of the program's CPU (--overhead to change)"
                : "with no overhead limit, the program may slow down many times");
    }

    /** {@code ; 212 methods' probes removed ...} when the budget took some out, else empty. */
    private static String removed(Results r) {
        String summary = r.removedSummary();
        return summary == null ? "" : "; " + summary;
    }

    /** {@code , 2 classes left unchanged (the first: ...)} when tracing could not change some classes, else empty. */
    private static String leftUnchanged(Results r) {
        List<String> failures = r.classFailures();
        return failures.isEmpty() ? "" : ", " + failures.size() + (failures.size() == 1 ? " class" : " classes")
                + " left unchanged (the first: " + failures.getFirst() + ")";
    }

    private static String mode(Results r) {
        return r.mode().name().toLowerCase();
    }

    private static long calls(Results r) {
        return r.methods().stream().mapToLong(Results.MethodResult::calls).sum();
    }
}
