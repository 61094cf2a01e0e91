package dev.tiprobe.agent;

import dev.tiprobe.agent.alloc.AllocationSampler;
import dev.tiprobe.agent.jfr.JfrStream;
import dev.tiprobe.agent.locks.Deadlocks;
import dev.tiprobe.agent.locks.LockProfiler;
import dev.tiprobe.agent.registry.CallbackStacks;
import dev.tiprobe.agent.registry.Registry;
import dev.tiprobe.agent.sampling.Sampler;
import dev.tiprobe.agent.sink.Engine;
import dev.tiprobe.agent.sink.EventEngine;
import dev.tiprobe.agent.sink.Recorder;
import dev.tiprobe.ids.IdMap;
import dev.tiprobe.jvmti.Jvmti;
import dev.tiprobe.options.AgentOptions;
import dev.tiprobe.probe.ProbeControl;
import dev.tiprobe.recording.Deadlock;
import dev.tiprobe.recording.Reply;
import dev.tiprobe.recording.Stack;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A session's profiling engines (stack sampling, allocations, locks) over one registry: a class
 * carries one JVMTI tag, so the engines share the registry that tags classes and names their
 * frames, and they write to the session's one recorder. Those that read JFR's events share one
 * stream of them (its parser holds JFR's metadata and a chunk's constants once). Started,
 * flushed and closed together. The registry also names where calls that tracing keeps by their
 * duration were made ({@code --min-duration}): a session that only traces so starts it alone.
 */
final class Profiling implements AutoCloseable {

    private final Registry registry;
    /** Whether the probe takes kept calls' stacks through this registry ({@link #keepsCallerStacks}). */
    private boolean callerStacks;
    /** The engines that run, in the order of {@link #KINDS}. */
    private final List<Engine> engines = new ArrayList<>();
    /** Looks for deadlocks while an engine runs; null without engines or java.management (the keeper sets it, status reads it). */
    private volatile Deadlocks deadlocks;
    /** The engines' one JFR stream, made when the first asks ({@link #jfr()}), begun once those that read it have started; or null. */
    private JfrStream jfr;

    private Profiling(Registry registry) {
        this.registry = registry;
    }

    /**
     * What an engine is given as it starts: the session's JVMTI, registry, stacks taken in
     * callbacks and their depth, options, JFR stream and recorder.
     */
    private record Start(Jvmti jvmti, Registry registry, CallbackStacks stacks, int depth, AgentOptions options,
                         Supplier<JfrStream> jfr, Recorder recorder) {
        /** The same, for an engine that starts once JFR's stream has begun: one that asks for the stream then is a mistake. */
        Start jfrBegun() {
            return new Start(jvmti, registry, stacks, depth, options, () -> {
                throw new IllegalStateException("JFR's stream has begun: an engine that reads it says so in Profiling.KINDS");
            }, recorder);
        }
    }

    /** How an engine of a kind starts. */
    private interface Starter {
        Engine start(Start s) throws IOException;
    }

    /** A kind of engine: whether the options ask for it, whether it reads JFR's events, and how it starts. */
    private record Kind(Predicate<AgentOptions> asked, boolean readsJfr, Starter starter) {}

    /** The engines there are, in the order the session's lines name them: samples, allocations, waits. */
    private static final List<Kind> KINDS = List.of(
            new Kind(o -> o.sampling() != null, true,
                    s -> Sampler.start(s.jvmti(), s.registry(), s.options().sampling(), s.jfr(), s.recorder())),
            new Kind(o -> o.allocations() != null, false,
                    s -> AllocationSampler.start(s.jvmti(), s.stacks(), s.options().allocations(), s.recorder())),
            new Kind(o -> o.locks() != null, true,
                    s -> LockProfiler.start(s.jvmti(), s.registry(), s.stacks(), s.depth(), s.options().locks(), s.jfr(), s.recorder())));

    /**
     * Starts every engine {@code options} asks for; none is left running when one fails to start.
     * Those that read JFR's events start first, then JFR, then the rest: JFR's set-up takes from a
     * tenth of a second to seconds, what happens before it records is not seen, and each start
     * before it delays it more (one CI run's in-process session recorded none of the waits of its
     * first second).
     */
    static Profiling start(Jvmti jvmti, AgentOptions options, Recorder recorder) throws IOException {
        Profiling p = new Profiling(Registry.startBackfilling(jvmti, recorder.names()));
        Engine[] started = new Engine[KINDS.size()];
        boolean held = false;
        try {
            int depth = options.sampling() != null ? Math.min(options.sampling().depth(), AgentOptions.Sampling.EVENT_DEPTH)
                    : AgentOptions.Sampling.EVENT_DEPTH;
            CallbackStacks stacks = new CallbackStacks(jvmti, p.registry, depth);
            Start start = new Start(jvmti, p.registry, stacks, depth, options, p::jfr, recorder);
            startKinds(true, start, options, started);
            if (p.jfr != null) p.jfr.begin();
            startKinds(false, start.jfrBegun(), options, started);
            p.took(started);
            held = true;
            if (p.engines()) p.deadlocks = deadlocks(stacks, recorder);
            if (keepsCallerStacks(options)) {
                CallbackStacks.Site site = stacks.site();
                ProbeControl.keepCallerStacksWith(() -> callerStack(stacks, site), early -> stacks.named(early.frames(), early.lines()));
                p.callerStacks = true;
            }
            return p;
        } catch (IOException | RuntimeException e) {
            if (!held) p.took(started);  // those that started are closed with the rest
            p.close();
            throw e;
        }
    }

    /** Starts the engines the options ask for that read JFR's events, or those that do not, each in its kind's place. */
    private static void startKinds(boolean readingJfr, Start start, AgentOptions options, Engine[] started) throws IOException {
        for (int i = 0; i < KINDS.size(); i++) {
            Kind kind = KINDS.get(i);
            if (kind.readsJfr() == readingJfr && kind.asked().test(options)) started[i] = kind.starter().start(start);
        }
    }

    /** Holds the engines that started, in the kinds' order. */
    private void took(Engine[] started) {
        for (Engine e : started) if (e != null) engines.add(e);
    }

    /**
     * The calling thread's stack for a call kept by its duration, tiprobe's frames left off; null
     * inside tiprobe's own work or one of its callbacks (the call is then tiprobe's, and a walk
     * inside a walk would reuse its buffers). Events the walk raises are dropped ({@link Jvmti#beginOwnWork}).
     */
    private static Stack callerStack(CallbackStacks stacks, CallbackStacks.Site site) {
        boolean inside = Jvmti.beginOwnWork();
        try {
            return inside ? null : stacks.inCallback(site);
        } finally {
            Jvmti.endOwnWork(inside);
        }
    }

    /**
     * In premain, where the walker for kept calls' stacks comes only once the agent has linked
     * JVMTI: until then the probe takes Java's frames for the walker's namer to name.
     */
    static void expectCallerStacks(AgentOptions options) {
        if (keepsCallerStacks(options)) ProbeControl.expectCallerStacks();
    }

    /** The walker expected will not come (profiling did not start): the probe stops taking early stacks and lets go of those it took. */
    static void noCallerStacks(AgentOptions options) {
        if (keepsCallerStacks(options)) ProbeControl.keepCallerStacksWith(null, null);
    }

    /** Whether a session needs what this starts: a profiling engine, or the registry that names kept calls' stacks. */
    static boolean wanted(AgentOptions options) {
        return options.profiling() || keepsCallerStacks(options);
    }

    /**
     * Tracing that keeps calls by their duration or by a condition ({@code watch}) keeps each one's
     * stack: a stack walk for kept calls only.
     */
    static boolean keepsCallerStacks(AgentOptions options) {
        return options.tracing() != null && (options.tracing().limits().minNanos() > 0 || options.tracing().where() != null);
    }

    /** Whether an engine runs (a session that only traces may start this for kept calls' stacks alone). */
    boolean engines() {
        return !engines.isEmpty();
    }

    /**
     * The engines' JFR stream, made on first use. Throws {@link LinkageError} each time where the
     * runtime lacks {@code jdk.jfr}: each engine then says so and uses JVMTI instead.
     */
    private JfrStream jfr() {
        if (jfr == null) jfr = JfrStream.unbegun(EventEngine.THREAD_PREFIX + "jfr");
        return jfr;
    }

    /** {@code 120 samples, 45 allocations, 3 waits}: what each engine has written so far. */
    String counts() {
        return String.join(", ", engines.stream().map(e -> e.progress().text()).toList());
    }

    /** {@code reply} with the counts so far of the engines that run. */
    Reply counted(Reply reply) {
        for (Engine e : engines) reply = e.counted(reply);
        return reply;
    }

    /**
     * The deadlock watch; null where the target's runtime has no {@code java.management} (a
     * jlinked one, tiprobe's own among them), whose classes Deadlocks names: linking it fails there.
     */
    private static Deadlocks deadlocks(CallbackStacks stacks, Recorder recorder) {
        try {
            return Deadlocks.start(stacks, recorder);
        } catch (LinkageError noManagement) {
            return null;
        }
    }

    /** Looks for deadlocks once ({@link Deadlocks#look}); the keeper asks once a second. */
    void lookForDeadlocks() throws IOException {
        try {
            if (deadlocks != null) deadlocks.look();
        } catch (RuntimeException | LinkageError refused) {
            deadlocks = null;  // the runtime cannot answer: no deadlock report, the session goes on
        }
    }

    /**
     * {@code deadlock: 'a' waits for java.lang.Object@1b6d3586 held by 'b', 'b' waits for …}, a
     * line for each deadlock found so far; empty when none was.
     */
    List<String> deadlockLines() {
        List<String> lines = new ArrayList<>();
        if (deadlocks == null) return lines;
        for (Deadlock d : deadlocks.found()) {
            List<String> parts = new ArrayList<>();
            for (Deadlock.Waiter w : d.threads()) {
                String owner = d.threads().stream().filter(o -> o.threadId() == w.ownerId()).map(Deadlock.Waiter::threadName)
                        .findFirst().orElse("thread " + w.ownerId());
                parts.add(Deadlock.waits(w.threadName(), w.waitsFor(), owner));
            }
            lines.add("deadlock: " + String.join(", ", parts));
        }
        return lines;
    }

    /** What the registry holds beside the ID map, in bytes: the catalogs of the classes whose frames were named. */
    long registryBytes() {
        return registry.catalogBytes();
    }

    /** What the session's ID map holds: {@code ID map: 5804 classes and 48120 methods live, 61230 tokens, 2210 classes unloaded}. */
    String idMap() {
        IdMap.Counts c = registry.map().counts();
        return "ID map: " + c.liveClasses() + " classes and " + c.liveMethods() + " methods live, "
                + (c.classTokens() + c.methodTokens()) + " tokens, " + c.unloadedClasses() + " classes unloaded";
    }

    /** {@code sampling every 10 ms (cpu), allocations every 512 KiB, waits of 1.0 ms or more}: what the engines do. */
    String describe() {
        return String.join(", ", engines.stream().map(Engine::describe).toList());
    }

    /** Waits (two seconds at most) until JFR has handed over the samples taken up to now. */
    void catchUp() {
        for (Engine e : engines) e.catchUp();
    }

    /**
     * The earliest moment ({@link System#nanoTime()}) from which an engine may hold method ids it
     * resolved and has not written ({@link EventEngine#tokensHeldSince}); {@link EventEngine#IDLE}
     * when none does.
     */
    long tokensHeldSince() {
        long since = EventEngine.IDLE;
        for (Engine e : engines) since = Math.min(since, e.tokensHeldSince());
        return since;
    }

    /** Writes what every engine has gathered so far; they keep going. */
    void flush() {
        for (Engine e : engines) e.flush();
    }

    /** Said when a close failed and the heap had no room for more words. */
    private static final IOException FULL_HEAP = new IOException("the heap is full");

    /** The first failure of a close, kept as it is; in a full heap, one made in advance (making one may fail again). */
    private static IOException failure(IOException first, String what, Throwable e) {
        if (first != null) return first;
        if (e instanceof IOException io) return io;
        try {
            return new IOException(what == null ? e.getMessage() : what + ": " + e.getMessage(), e);
        } catch (OutOfMemoryError stillFull) {
            return FULL_HEAP;
        }
    }

    /**
     * Stops JFR's events (which hands each engine what JFR still holds), every engine, then the
     * registry; each runs even when an earlier one failed. The first failure is thrown.
     */
    @Override
    public void close() throws IOException {
        if (callerStacks) ProbeControl.keepCallerStacksWith(null, null);  // first: nothing below may keep it installed
        IOException first = null;
        try {
            if (jfr != null) jfr.close();
        } catch (RuntimeException | OutOfMemoryError e) {  // a full heap too: the engines below are closed all the same
            first = failure(null, "JFR's stream did not close", e);
        }
        for (Engine engine : engines) {
            try {
                engine.close();
            } catch (Exception | OutOfMemoryError e) {
                first = failure(first, null, e);
            }
        }
        registry.close();
        if (first != null) throw first;
    }
}
