package dev.tiprobe.agent;

import dev.tiprobe.agent.jfr.JfrStream;
import dev.tiprobe.agent.sink.EventEngine;
import dev.tiprobe.agent.sink.Recorder;
import dev.tiprobe.agent.tracing.Reported;
import dev.tiprobe.agent.tracing.Results;
import dev.tiprobe.agent.tracing.TracedWrites;
import dev.tiprobe.agent.tracing.Tracing;
import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.recording.Reply;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One session of the agent: method tracing, profiling (stack sampling, allocations, locks) or both,
 * and the recording they feed,
 * the one file the agent writes (the command makes JSON, text, pages and profiles from it). It
 * answers status and dump, and {@link #close} is the only way it ends, whether
 * {@code tiprobe stop} asked or the JVM exits: so both leave the same recording.
 */
final class AgentSession {
    /** More methods than this, and the start answer says what the budget will do. */
    private static final int BROAD = 1000;

    private final Tracing.Session tracing;
    /** Set later when profiling starts after premain, once JVMTI is reachable. */
    private volatile Profiling profiling;
    private final Recorder recorder;
    /** Tracing's results into the recording; null without tracing. */
    private final TracedWrites tracedWrites;
    private final AgentOptions options;
    private final long pid;
    /** The output the session was asked for (x.json, x.html, ...), which the command makes from the recording. */
    private final Path requested;
    /** Set with profiling when the session loops ({@code loop=}). */
    private volatile RecordingLoop loop;
    private volatile boolean closed;
    /** The agent's memory against the session's ceiling, looked at once a second. */
    private final MemoryCeiling ceiling;

    /**
     * What closing did: the summary for {@code stop}, what went wrong, and the filter when it
     * matched no method (null otherwise), which is worth a line at exit.
     */
    record Ending(Reply reply, List<String> problems, String unmatchedFilter) {}

    AgentSession(Tracing.Session tracing, Profiling profiling, Recorder recorder, AgentOptions options, long pid) {
        this.tracing = tracing;
        this.recorder = recorder;
        this.tracedWrites = tracing == null ? null : new TracedWrites(recorder);
        this.options = options;
        this.pid = pid;
        this.requested = options.resultsFile(recorder.file(), pid);
        this.ceiling = new MemoryCeiling(options.maxMemory(Runtime.getRuntime().maxMemory()));
        if (profiling != null) profilingStarted(profiling);
    }

    /** Whether the session traces methods: then probes run, and the probe's classes may be called. */
    boolean traces() {
        return tracing != null;
    }

    /**
     * {@code reply} with the recording and the requested output, absolute: what {@code tiprobe stop} and
     * {@code dump} convert, and into what, without the command keeping any state of its own. In a
     * loop, the recording being written and the output named for its period.
     */
    Reply withFiles(Reply reply) {
        Path recording = recorder.file().toAbsolutePath();
        Path output = loop == null ? requested.toAbsolutePath() : AgentOptions.outputBeside(recording, options.file());
        return reply.with(Reply.RECORDING, recording).with(Reply.OUTPUT, output);
    }

    /**
     * The recording being written, when its file (or its directory) was removed since: what it
     * still gets is lost. Only a file known to be gone counts; one whose existence cannot be told
     * (a look denied) is taken as there.
     */
    Path recordingRemoved() {
        Path recording = recorder.file().toAbsolutePath();
        return java.nio.file.Files.notExists(recording) ? recording : null;
    }

    /** Profiling has started (at once, or in premain once the VM is up); with it the loop, if asked for. */
    void profilingStarted(Profiling p) {
        profiling = p;
        if (options.loop() != null) loop = RecordingLoop.start(recorder, options, pid, p::catchUp);
    }

    /** Whether the command that launched the JVM says where the results are ({@code tiprobe run}), not the agent. */
    boolean quiet() {
        return options.quiet();
    }

    /** True once {@link #close} began: the session is over; nothing is left for the shutdown hook, nor for late profiling. */
    boolean closed() {
        return closed;
    }

    /** {@code started: 120 methods instrumented, mode count, ...; sampling every 10 ms (cpu); recording to ...}, and the methods instrumented. */
    Reply started() {
        StringBuilder b = new StringBuilder("started:");
        Long methods = null;
        Long leftUnchanged = null;
        if (tracing != null) {
            Results now = tracing.snapshot();
            methods = now.methodCount();
            leftUnchanged = now.classFailures().total();
            b.append(' ').append(now.methodCount()).append(" methods instrumented, mode ").append(mode(now))
                    .append(leftUnchanged(now)).append(broad(now, options.tracing()));
        }
        if (profiling != null && profiling.engines()) b.append(tracing != null ? ";" : "").append(' ').append(profiling.describe());
        b.append("; recording to ").append(recorder.file().toAbsolutePath()).append(looping());
        return Reply.ok(Reply.STARTED, b.toString()).with(Reply.METHODS, methods).with(Reply.CLASSES_LEFT_UNCHANGED, leftUnchanged)
                .with(Reply.RECORDING, recorder.file().toAbsolutePath());
    }

    /** {@code running: ...}, with every engine's counts so far. */
    Reply status() {
        StringBuilder b = new StringBuilder("running:");
        Tracing.Tally now = tracing == null ? null : tracing.tally();
        if (now != null) {
            b.append(" mode ").append(mode(now.mode(), now.clock())).append(", filter ").append(now.filter()).append(", ")
                    .append(now.methods()).append(" methods (").append(tracing.slotUse()).append("), ").append(now.calls())
                    .append(" calls so far");
        }
        Profiling p = profiling;
        if (p != null && p.engines()) b.append(tracing != null ? ";" : "").append(' ').append(p.counts()).append(" so far; ").append(p.idMap());
        b.append("; recording to ").append(recorder.file().toAbsolutePath()).append(looping());
        synchronized (ceiling) {
            b.append("; ").append(ceiling.text());
        }
        if (p != null) p.deadlockLines().forEach(line -> b.append("; ").append(line));
        Reply reply = Reply.ok(Reply.RUNNING, b.toString()).with(Reply.RECORDING, recorder.file().toAbsolutePath());
        if (now != null) reply = withNotes(reply.with(Reply.METHODS, now.methods()).with(Reply.CALLS, now.calls()));
        return p == null ? reply : p.counted(reply);
    }

    /** When tracing's figures were last written to the recording, by {@link System#nanoTime()}. */
    private long lastTraceWrite = System.nanoTime();

    /**
     * Called once a second under the agent's lock: tracing's figures go to the recording when
     * classes with probes have unloaded (their slots are given back once their last figures are
     * written, so memory follows the classes alive) and at least once a minute (a target that
     * dies keeps them), or every few seconds when kept calls carry stacks (written well within
     * the time an unloaded class's names stay, so that every frame is named); the ID map forgets
     * the tokens of unloaded classes whose events are all written ({@link #retireBefore}); JFR is asked for a new chunk now and
     * then, so that the streams tiprobe reads let go of old constants; the agent's memory is held
     * to its ceiling ({@link MemoryCeiling}). Returns why the session must stop itself, or null.
     */
    String keep() throws IOException {
        if (closed) return null;
        long now = System.nanoTime();
        long every = Profiling.keepsCallerStacks(options) ? KEPT_CALLS_GRACE_NANOS / 2 : 60_000_000_000L;
        if (tracing != null && (tracing.anyUnloaded() || now - lastTraceWrite > every)) {
            // A few thousand unloaded methods a write; a burst of tens of thousands takes several.
            for (int writes = 0; writes == 0 || writes < MAX_TRACING_WRITES && tracing.anyUnloaded(); writes++) writeTracing();
        }
        MemoryCeiling.Step step;
        synchronized (ceiling) {
            step = ceiling.look(footprint(), now);
        }
        if (tracing != null && step == MemoryCeiling.Step.SHED) tracing.refuseNewClasses("tiprobe's memory passed its ceiling (" + ceiling.text() + ")");
        if (tracing != null && step == MemoryCeiling.Step.RESUME) tracing.allowNewClasses();
        retireUnloaded();
        Profiling p = profiling;
        if (p != null) p.lookForDeadlocks();
        JfrStream.newChunkWhenDue();
        return step == MemoryCeiling.Step.STOP ? ceiling.whyStopped() : null;
    }

    /**
     * What the agent holds now: in the heap, the ID map's tables and names, the registry's method
     * catalogs, tracing's slots and the probes' figures, the JFR parsers' constants and the
     * control channel's reserve (each estimated from its own counts); natively, its JVMTI scratch
     * buffers.
     */
    private MemoryCeiling.Footprint footprint() {
        long heap = recorder.names().estimatedBytes() + ControlChannel.reservedBytes();
        if (tracing != null) heap += tracing.estimatedBytes();
        Profiling p = profiling;
        if (p != null) heap += p.registryBytes();
        try {
            heap += JfrStream.estimatedBytes();
        } catch (LinkageError noJfr) {
            // no jdk.jfr module: no parser either
        }
        return new MemoryCeiling.Footprint(heap, dev.tiprobe.jvmti.Jvmti.nativeBytes());
    }

    /** Writes tracing's figures so far to the recording (methods of unloaded classes a last time); returns them. */
    private Results writeTracing() throws IOException {
        Results now = tracing.drain();
        tracedWrites.write(now, false);
        lastTraceWrite = System.nanoTime();
        return now;
    }

    /**
     * Forgets the tokens of classes unloaded before {@link #retireBefore} says, all of them past
     * the memory ceiling; the keeper asks four times a second, as a burst of unloads waits for the
     * engines only.
     */
    void retireUnloaded() {
        if (closed) return;
        long now = System.nanoTime();
        boolean shed;
        synchronized (ceiling) {
            shed = ceiling.shed();
        }
        recorder.retireUnloaded(shed ? now : retireBefore(now), tracedWrites == null ? id -> false : tracedWrites::stillWrites);
    }

    /**
     * The moment before which the tokens of unloaded classes retire: those of a class that went
     * before every engine had written what it had resolved up to then ({@link
     * Profiling#tokensHeldSince}, less {@link #IN_FLIGHT_NANOS}), so that each event of its methods
     * named before it went is named in the recording all the same. The engines write every 20 ms,
     * and JFR's events are named as they are read, after the unload too: the tokens go within
     * about a second, where a fixed grace held them {@link #TOKEN_GRACE_NANOS}. Each second held is
     * a second's unloaded classes kept in the application's heap (under class churn a G1 cycle
     * unloads thousands at once: about 3 MB of tokens, caught by every look right after it). An
     * engine that stalls holds them that grace at most. Calls kept with their stacks wait for the
     * next write of tracing's figures, so with them the tokens stay {@link
     * #KEPT_CALLS_GRACE_NANOS}.
     */
    private long retireBefore(long now) {
        Profiling p = profiling;
        return retireBefore(now, p == null ? EventEngine.IDLE : p.tokensHeldSince(), Profiling.keepsCallerStacks(options));
    }

    /** As {@link #retireBefore(long)}, given the engines' {@code tokensHeldSince} and whether calls are kept with stacks. */
    static long retireBefore(long now, long tokensHeldSince, boolean keptCallStacks) {
        if (keptCallStacks) return now - KEPT_CALLS_GRACE_NANOS;
        return Math.max(now - TOKEN_GRACE_NANOS, Math.min(now, tokensHeldSince) - IN_FLIGHT_NANOS);
    }

    /** The longest an unloaded class's tokens stay for an engine that has not caught up. */
    static final long TOKEN_GRACE_NANOS = 3_000_000_000L;
    /**
     * How long after an engine resolved a stack it may queue it: the two follow each other in
     * one callback, and the class unload that the margin is measured from comes after the GC
     * that did it, so this covers a thread descheduled between them.
     */
    static final long IN_FLIGHT_NANOS = 250_000_000L;
    /** Tracing writes a look of the keeper makes at most, should classes unload faster than they are settled. */
    private static final int MAX_TRACING_WRITES = 64;
    /** The grace where calls are kept with their stacks: they are written every half of it. */
    private static final long KEPT_CALLS_GRACE_NANOS = 10_000_000_000L;

    /** Writes what the session has so far into the recording and goes on; says what it wrote, where, and the output asked for. */
    Reply dump() throws IOException {
        StringBuilder b = new StringBuilder("dumped:");
        if (tracing != null) {
            Results now = writeTracing();
            b.append(' ').append(now.methodCount()).append(" methods, ").append(now.totalCalls()).append(" calls")
                    .append(removed(now));
        }
        Profiling p = profiling;
        if (p != null) {
            p.flush();
            if (p.engines()) b.append(tracing != null ? ";" : "").append(' ').append(p.counts());
        }
        return withNotes(withFiles(Reply.ok(Reply.DUMPED, b.toString())));
    }

    /** {@code reply} with what the session's condition could not read so far, if anything. */
    private Reply withNotes(Reply reply) {
        List<String> notes = tracing == null ? List.of() : tracing.conditionNotes();
        return notes.isEmpty() ? reply : reply.with(Reply.NOTES, String.join("\n", notes));
    }

    /**
     * Ends the session: sampling stops, every changed class gets its original back (unless the JVM
     * is {@code exiting}: changing a class then would only strand the loops still running), and the
     * recording is finished. Each step runs even when an earlier one failed. Called once, under
     * the agent's lock.
     */
    Ending close(boolean exiting) {
        closed = true;
        recorder.stopping();
        StringBuilder b = new StringBuilder("stopped:");
        List<String> problems = new ArrayList<>();
        String unmatched = null;
        RecordingLoop l = loop;
        if (l != null) l.close();
        Profiling p = profiling;
        if (p != null) {
            try {
                p.close();
            } catch (Throwable e) {
                problems.add("could not finish the recording: " + message(e));
            }
        }
        if (tracing != null) {
            try {
                Results last = tracing.stop(!exiting);
                tracedWrites.write(last, true);
                b.append(' ').append(last.methodCount()).append(" methods, ").append(last.totalCalls()).append(" calls")
                        .append(exiting ? "" : "; classes restored").append(leftUnchanged(last)).append(removed(last));
                if (last.methodCount() == 0 && last.classFailures().isEmpty()) unmatched = last.filter();
            } catch (Throwable e) {
                problems.add("could not finish tracing: " + message(e));
            }
        }
        if (p != null && p.engines()) b.append(tracing != null ? ";" : "").append(' ').append(p.counts());
        if (p != null) p.deadlockLines().forEach(line -> b.append("; ").append(line));
        Path last = null;
        try {
            recorder.close();
            if (l != null) last = l.keep(recorder.file());  // the last period's recording counts too
        } catch (Throwable e) {
            problems.add("could not finish the recording: " + message(e));
        }
        if (l != null && l.makesProfiles() && last == null && problems.isEmpty()) {  // nothing to name, nothing to convert
            return new Ending(Reply.ok(Reply.STOPPED, b.append("; ").append(NO_PROFILE).toString()).with(Reply.NO_PROFILE, "yes"),
                    problems, unmatched);
        }
        Reply reply = problems.isEmpty() ? withFiles(Reply.ok(Reply.STOPPED, b.toString())) : Reply.error(String.join("; ", problems));
        if (last != null && !last.equals(recorder.file())) {
            last = last.toAbsolutePath();  // the loop made the profile itself: there is nothing left to convert
            reply = reply.with(Reply.RECORDING, last).with(Reply.OUTPUT, last);
        }
        return new Ending(reply, problems, unmatched);
    }

    /** What a loop that made pprof profiles says at its end when no period had samples. */
    static final String NO_PROFILE = "no period had samples: no profile was written";

    /** {@code , a recording every 60 s, ...} for a loop, else empty. */
    private String looping() {
        RecordingLoop l = loop;
        return l == null ? "" : l.describe();
    }

    static String message(Throwable t) {
        return t.getMessage() != null && !(t instanceof LinkageError) ? t.getMessage() : t.toString();
    }

    /** {@code ; the filter matches 8268 methods: ...} for a broad filter, else empty. */
    private static String broad(Results r, AgentOptions.Tracing options) {
        if (r.methodCount() <= BROAD) return "";
        return "; the filter matches " + r.methodCount() + " methods: " + (options.overheadBudget() > 0
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
        Reported.View<String> failures = r.classFailures();
        return failures.isEmpty() ? "" : ", " + failures.total() + (failures.total() == 1 ? " class" : " classes")
                + " left unchanged (the first: " + failures.first().getFirst() + ")";
    }

    /** {@code time (clock: time-stamp counter (2.596 ticks/ns))}, or the mode alone outside time mode. */
    private static String mode(Results r) {
        return mode(r.mode(), r.clock());
    }

    private static String mode(AgentOptions.TraceMode traceMode, String clock) {
        String mode = traceMode.name().toLowerCase();
        return clock == null ? mode : mode + " (clock: " + clock + ")";
    }
}
