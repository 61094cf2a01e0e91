package dev.tiprobe.agent.sampling;

import dev.tiprobe.agent.jfr.JfrStream;
import dev.tiprobe.agent.jvm.AgentThreads;
import dev.tiprobe.agent.registry.Registry;
import dev.tiprobe.agent.sink.Engine;
import dev.tiprobe.agent.sink.EngineThread;
import dev.tiprobe.agent.sink.EventEngine;
import dev.tiprobe.agent.sink.Recorder;
import dev.tiprobe.ids.IdMap;
import dev.tiprobe.jvmti.Jvmti;
import dev.tiprobe.options.AgentOptions.SampleMode;
import dev.tiprobe.options.AgentOptions.Sampling;
import dev.tiprobe.recording.ClassEvent;
import dev.tiprobe.recording.Globs;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.Reply;
import dev.tiprobe.recording.Sample;
import dev.tiprobe.recording.Stack;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * Takes stack samples and writes them to a recording as method token ids, from the ID map; names
 * go into the recording the first time a method appears, and the names of classes that load and
 * unload are written as they do, so nothing is lost when a class goes.
 *
 * <p><b>Where samples come from.</b> Running threads are sampled by JFR ({@link JfrSamples}: on
 * Linux its CPU-time sampler, each sample standing for the CPU period it says; elsewhere its
 * execution sampler, one interval each; no safepoint bias, inlined methods named through {@link
 * InlinedFrames}, virtual threads' own frames). Until JFR records (a tenth
 * of a second to seconds into a session in a JVM where JFR has not run; with {@code tiprobe run},
 * from the JVM's first moment, as the JVM starts the recording) JVMTI walks bridge the gap as in
 * the fallback below, leaving out carrier threads' own frames. In wall mode the other
 * threads (waiting, blocked, in native code) are walked by JVMTI, at most
 * {@link #WALL_THREADS_PER_TICK} a tick in turn: they are stopped where they are, so a walk shows
 * them exactly. Where JFR is missing or refuses
 * to record, JVMTI walks every thread ({@link RecordingFormat#INFO_SAMPLE_SOURCE} says which
 * source ran, and why); what follows describes that fallback.
 *
 * <p>A sample of a thread seen running carries the CPU time the thread used since it was last
 * seen running, so one recording gives a wall view and a cpu view.
 *
 * <p><b>Where CPU is credited.</b> A thread's CPU time only grows; what it says is how much the
 * thread used since the last look, not where. A server thread typically runs a request between two
 * looks and is parked again when looked at: crediting that CPU to the stack seen (Unsafe.park,
 * EPoll.wait) would say the server spends its CPU waiting. So CPU goes only to samples that see the
 * thread running Java code (JVMTI state runnable, and a Java method, not a native one, on top), as
 * JFR's execution samples do. A safepoint walk finds a busy thread that goes in and out of native
 * code in its native frame, even twice in a row: a thread in native code need not stop for the
 * walk, and one returning from it is held at the transition, reported runnable with the native
 * method on top. Crediting CPU there put a Jetty server's request work into EPoll.wait (12 % of
 * CPU, where async-profiler finds 1 %). So time spent in native methods is credited to the Java
 * code the thread is seen running next. CPU used while
 * not seen running waits for the thread's next running sample, which for a pool thread is most
 * likely the same work again; what is left when sampling ends is written as
 * {@link RecordingFormat#INFO_CPU_NOT_SEEN_RUNNING} and reported, never put on a waiting stack.
 *
 * <p>In the fallback JVMTI takes stacks at a safepoint: in wall mode every sample pauses all threads briefly, and
 * a thread is seen only where it reaches one (safepoint bias). cpu mode walks all threads once a
 * second and, in between, only the threads that used CPU, each by a handshake with it alone
 * (HotSpot answers GetThreadListStackTraces of several threads at a safepoint). GetAllStackTraces
 * covers platform threads: a carrier shows only {@code VirtualThread.mount}, so the fallback's cpu
 * view misses virtual threads' work. In wall mode, either way, waiting virtual threads are sampled
 * a few a tick ({@link VirtualThreads}).
 */
public final class Sampler implements Engine {
    // JVMTI thread state bits (jvmti.h; the generated constants are the facade's alone).
    private static final int STATE_WAITING = 0x0080;
    private static final int STATE_BLOCKED = 0x0400;

    /** A thread's CPU clock as the sampler saw it: its last reading, and CPU not yet credited to a sample. */
    private static final class CpuClock {
        long lastCpu = -1;
        long pending;
    }

    private final Jvmti jvmti;
    private final ToLongFunction<Thread> cpuClock;
    private final Registry registry;
    private final Sampling options;
    private final Predicate<String> threads;  // null: every thread
    private final Recorder recorder;
    private final EngineThread thread;
    /** The walks' buffers for a stack's frames. Sampler thread only. */
    private final Frames frames;
    private final ConcurrentLinkedQueue<ClassEvent> classEvents = new ConcurrentLinkedQueue<>();
    private final Map<Long, CpuClock> clocks = new HashMap<>();
    private long pendingOfEndedThreads;  // sampler thread only
    private final AtomicLong samples = new AtomicLong();
    /** The CPU time samples of the program's threads stood for while they ran tiprobe's code: tiprobe's share, in no view. */
    private final LongAdder ownWorkNanos = new LongAdder();
    /** CPU whose samples JFR's CPU-time sampler lost ({@link JfrSamples.Sink#lost}). */
    private final LongAdder lostByJfrNanos = new LongAdder();
    /** JFR's samples of running threads; null where JVMTI walks every thread. */
    private volatile JfrSamples jfr;
    /**
     * Until JFR's samples come (its set-up takes from a tenth of a second to seconds where it has
     * not run yet, and it hands them over a flush later), JVMTI walks every thread as without JFR,
     * so a session has samples from its start; the time of the last such walk, before which JFR's
     * samples of platform threads are left out (the walks stood for that time).
     */
    private volatile long walkedUntil = Long.MIN_VALUE;
    /** When the sampler's thread began the round it is in (walks resolved, then written); {@link EventEngine#IDLE} between rounds. */
    private volatile long busySince = EventEngine.IDLE;
    /** Keeps compiled code naming its inlined methods at every pc, for JFR's samples; null without JFR. */
    private InlinedFrames inlinedFrames;
    /** With {@code recompile}, attached late: counts JFR's first samples, then recompiles the hottest classes once; null otherwise or once done. */
    private volatile Recompiler recompiler;
    /** The recompiler once it has recompiled; told at the end when the inlined methods' positions stop ({@link Recompiler#namingEnds}). */
    private volatile Recompiler recompiled;
    /** A JVM that ran this long before the session has compiled its hot code without inlined methods' positions (the report's rule too). */
    private static final long LATE_NANOS = 3_000_000_000L;
    /** Waiting threads walked a tick at most in wall mode beside JFR (async-profiler's wall clock takes 16 a tick too). */
    static final int WALL_THREADS_PER_TICK = 16;
    /** Wall mode beside JFR: each thread's last look, the next thread in turn. Sampler thread only. */
    private final Map<Long, Look> lastLook = new java.util.concurrent.ConcurrentHashMap<>();  // JFR's stream thread reads it too
    private int nextInTurn;
    /** The threads of the last full walk, and when the next one is due. Sampler thread only. */
    private List<Thread> known = List.of();
    private long nextFullWalk;
    /** Wall mode: where virtual threads are found, null when they cannot be (or in cpu mode). */
    private VirtualThreads virtualThreads;
    /** Wall mode: the virtual threads picked for this second, in random order, walked in turn, and how many were alive. Sampler thread only. */
    private List<Thread> virtualInTurn = List.of();
    private int nextVirtual;
    private int virtualAlive;
    /** Ticks of virtual threads' wall time not yet written (a fraction), and when they were last walked. */
    private double virtualTicksOwed;
    private long lastVirtualWalk;
    private long nextVirtualPick;

    private Sampler(Jvmti jvmti, Registry registry, Sampling options, Recorder recorder) {
        this.jvmti = jvmti;
        this.cpuClock = cpuClock(jvmti);
        this.registry = registry;
        this.options = options;
        this.threads = options.threads() == null ? null : Arrays.stream(options.threads().split(";"))
                .map(String::strip).filter(g -> !g.isEmpty()).map(Globs::glob).reduce(Predicate::or).orElse(n -> false);
        this.recorder = recorder;
        this.frames = new Frames(options.depth());
        this.thread = new EngineThread(EventEngine.THREAD_PREFIX + "sampler", new EngineThread.Rounds() {
            @Override
            public long round(boolean chunk, boolean asked) throws IOException, InterruptedException {
                return Sampler.this.round(chunk, asked);
            }

            // Once the session stops, no more walks: the other engines wind down first (JFR's last
            // events take up to a second), and the recorder leaves out what is taken meanwhile.
            @Override
            public boolean done() {
                return recorder.isStopping();
            }

            @Override
            public void ended() throws IOException {
                writeAllOwed(frames);
                known = List.of();
            }
        });
    }

    /**
     * Takes hold of the recording the JVM started for tiprobe ({@code tiprobe run}) before the
     * sampler starts, so that a late start still reads it whole; waits up to {@code limit} for JFR
     * to start it, or until {@code giveUp}. Whether there is one. Throws {@link LinkageError} without {@code jdk.jfr}.
     */
    public static boolean claimJvmRecording(java.time.Duration limit, java.util.function.BooleanSupplier giveUp) throws InterruptedException {
        return JfrSamples.claimJvmRecording(limit, giveUp);
    }

    /**
     * Starts sampling into {@code recorder}; the registry fills the recorder's ID map, so the
     * recording's names and the tokens of methods traced into it come from one map. JFR's samples
     * come on the session's stream, which {@code jfr} makes (it throws where the runtime has no
     * JFR) and its owner begins.
     */
    @SuppressWarnings("exports")  // JfrStream is the agent's own wiring, not for the exported package's users
    public static Sampler start(Jvmti jvmti, Registry registry, Sampling options, Supplier<JfrStream> jfr,
                                Recorder recorder) throws IOException {
        recorder.info(RecordingFormat.INFO_SAMPLE_MODE, options.mode().name().toLowerCase());
        recorder.info(RecordingFormat.INFO_INTERVAL, Long.toString(options.interval().toNanos()));
        Sampler s = new Sampler(jvmti, registry, options, recorder);
        registry.listen((loaded, token) -> s.classEvents.add(new ClassEvent(recorder.now(), loaded, token.binaryName())));
        try {
            s.startJfr(jfr);
            if (options.mode() == SampleMode.WALL) s.findVirtualThreads();
        } catch (IOException | RuntimeException e) {
            s.stopJfr();
            registry.listen(null);
            throw e;
        }
        s.thread.start();
        return s;
    }

    /**
     * Samples running threads with JFR, or says in the recording why JVMTI walks every thread:
     * the runtime lacks {@code jdk.jfr}, or the VM refuses to record.
     */
    private void startJfr(Supplier<JfrStream> shared) throws IOException {
        try {
            inlinedFrames = InlinedFrames.start(jvmti);
            recorder.info(RecordingFormat.INFO_COMPILED_BEFORE_NANOS, Long.toString(inlinedFrames.jvmAgeNanos()));
            if (inlinedFrames.jvmAgeNanos() > LATE_NANOS) {
                recorder.info(RecordingFormat.INFO_RECOMPILE_AFTER_SAMPLES, Integer.toString(options.recompile() ? Recompiler.SAMPLES : 0));
                if (options.recompile()) recompiler = new Recompiler(jvmti, registry, recorder::isStopping);
            }
        } catch (RuntimeException refused) {
            inlinedFrames = null;  // inlined methods then show only where code was compiled with -XX:+DebugNonSafepoints
        }
        try {
            jfr = JfrSamples.start(registry, options, threads, shared.get(), this::seenNotRunningJava, new JfrSamples.Sink() {
                @Override
                public void sample(long time, long threadId, String name, long weight, Stack stack, IntPredicate compiled) throws IOException {
                    // The walks that stood in for JFR until then never wrote a virtual thread's work (a carrier's frames are not it).
                    if (time <= walkedUntil && threadId != JfrSamples.VIRTUAL_THREADS_ID) return;
                    Recompiler r = recompiler;
                    if (r != null) r.saw(stack, compiled, threadId, threadId == JfrSamples.VIRTUAL_THREADS_ID);
                    Sample s = new Sample(time, threadId, name, RecordingFormat.STATE_RUNNABLE, weight, 1, stack);
                    if (recorder.write(time, Sample.KIND, s)) samples.incrementAndGet();
                }

                @Override
                public void ownWork(long time, long weight) {
                    if (time > walkedUntil && !recorder.afterStop(time)) ownWorkNanos.add(weight);  // as sample() counts
                }

                @Override
                public void lost(long time, long cpuNanos) {
                    if (time > walkedUntil && !recorder.afterStop(time)) lostByJfrNanos.add(cpuNanos);
                }
            });
            recorder.info(RecordingFormat.INFO_SAMPLE_SOURCE, jfr.cpuTime() ? RecordingFormat.SAMPLE_SOURCE_JFR_CPU_TIME : RecordingFormat.SAMPLE_SOURCE_JFR);
            if (jfr.sigprofHolder() != null) recorder.info(RecordingFormat.INFO_SIGPROF_TAKEN_BY, jfr.sigprofHolder());
        } catch (RuntimeException | LinkageError e) {
            useJvmti(e);
        }
    }

    /**
     * Wall mode: whether the thread was last looked at not running Java code, so that its time is
     * this sampler's to write by the wall clock (a thread in an FFM downcall is; JFR's CPU-time
     * sample of it shows its last Java frame, not a native one).
     */
    private boolean seenNotRunningJava(long threadId) {
        Look look = lastLook.get(threadId);
        return look != null && !look.runningJava();
    }

    /** Wall mode: reaches the virtual threads to sample where they wait, or says in the recording why not. */
    private void findVirtualThreads() throws IOException {
        try {
            virtualThreads = VirtualThreads.start(jvmti);
            recorder.info(RecordingFormat.INFO_WAITING_VIRTUAL_THREADS, RecordingFormat.WAITING_VIRTUAL_THREADS_SAMPLED);
        } catch (RuntimeException e) {
            recorder.info(RecordingFormat.INFO_WAITING_VIRTUAL_THREADS, RecordingFormat.WAITING_VIRTUAL_THREADS_NOT);
            recorder.info(RecordingFormat.INFO_WAITING_VIRTUAL_THREADS_WHY, e.getMessage());
        }
    }

    /** Stops JFR's samples and the CompiledMethodLoad event, where they run. */
    private void stopJfr() {
        JfrSamples j = jfr;
        jfr = null;
        if (j != null) j.close();
        stopNaming();
    }

    /**
     * Stops the CompiledMethodLoad event, once: the recompiler learns then how long its classes'
     * code went on naming inlined methods; what HotSpot compiles from then on names none.
     */
    private void stopNaming() {
        InlinedFrames naming = inlinedFrames;
        if (naming == null) return;
        Recompiler r = recompiled;
        if (r != null) r.namingEnds();
        naming.close();
        inlinedFrames = null;
    }

    /** From now on JVMTI walks every thread, as JFR did not run. */
    private void useJvmti(Throwable why) throws IOException {
        stopJfr();
        recompiler = null;  // recompiled code would name its inlined methods to JFR only: the walks stop at safepoints
        recorder.info(RecordingFormat.INFO_SAMPLE_SOURCE, RecordingFormat.SAMPLE_SOURCE_JVMTI);
        recorder.info(RecordingFormat.INFO_SAMPLE_SOURCE_WHY, EventEngine.whyNoJfr(why));
    }

    /** Stack samples written so far. */
    private long samples() {
        return samples.get();
    }

    /** {@code sampling every 10 ms (cpu)}. */
    @Override
    public String describe() {
        return "sampling every " + options.interval().toMillis() + " ms (" + options.mode().name().toLowerCase(Locale.ROOT) + ")";
    }

    @Override
    public Progress progress() {
        long n = samples();  // read once: the count and its text agree
        return new Progress(Reply.SAMPLES, n, n + " samples");
    }

    /**
     * One round of the sampler's thread: class events, the walks JFR does not take, the
     * recompiling when due, and with {@code chunk} a chunk, before it (when {@code asked}: a
     * dump, a loop's new period) the waiting threads' time up to now. Returns the nap to the next round.
     */
    private long round(boolean chunk, boolean asked) throws IOException, InterruptedException {
        long began = System.nanoTime();
        busySince = began;
        drainClassEvents();
        JfrSamples j = jfr;
        if (j != null && j.failure() != null) {
            useJvmti(j.failure());
            j = null;
            writeAllOwed(frames);  // from now on the walks count every thread's time
            lastLook.clear();
            lastWalkNanos = System.nanoTime();
        }
        if (j == null || !j.sampling()) {
            sampleOnce(frames);
            if (j != null) walkedUntil = recorder.now();
        } else if (options.mode() == SampleMode.WALL) {
            sampleNotRunning(frames);
        }
        if (virtualThreads != null) sampleWaitingVirtualThreads(frames);
        recompileWhenReady();
        if (chunk) {
            if (asked && j != null && j.sampling()) writeAllOwed(frames);
            writeTotals();
            recorder.flush();
        }
        busySince = EventEngine.IDLE;
        return (jfrSamplesAll(j) ? JFR_TICK_NANOS : options.interval().toNanos()) - (System.nanoTime() - began);
    }

    /**
     * How often the sampler's thread looks round while JFR takes every sample: it then only
     * writes class events and a chunk a second. Waking each interval instead cost more of a busy
     * program's CPU than JFR's stream (55 against 24 ms in 15 s, BENCHMARKS.md).
     */
    private static final long JFR_TICK_NANOS = 100_000_000L;

    /** Whether JFR takes every sample: cpu mode on JFR, no waiting virtual threads to walk. */
    private boolean jfrSamplesAll(JfrSamples j) {
        return j != null && j.sampling() && options.mode() != SampleMode.WALL && virtualThreads == null;
    }

    /**
     * Wall mode beside JFR: the threads not running Java code (waiting, blocked, in native code),
     * where they are; JFR samples the others. No look stops every thread: once a second every
     * thread is looked at (the list of threads comes without a safepoint), in between at most
     * {@link #WALL_THREADS_PER_TICK} of them a tick, in turn, so 5,000 parked threads cost a tick
     * what 16 do. A look reads the thread's CPU clock, and takes its stack (a handshake with that
     * thread alone: HotSpot walks a list of threads at a safepoint) only when the clock moved and
     * the thread is not seen running Java code ({@link Look}).
     *
     * <p>A waiting thread's time goes to the stack it was last seen waiting at, by the clock (a
     * slow tick loses nothing), which keeps each thread's share of the wall view. It is written
     * when the thread moves on, and once a second: 500 parked threads make 500 samples a second,
     * not one a look.
     */
    private void sampleNotRunning(Frames frames) throws IOException {
        if (System.nanoTime() >= nextFullWalk) {
            List<Thread> seen = new ArrayList<>();
            for (Thread t : AgentThreads.live()) {
                if (!chosen(t)) continue;
                seen.add(t);
                look(t, true, frames);
            }
            java.util.Set<Long> alive = ids(seen);
            for (var it = lastLook.values().iterator(); it.hasNext(); ) {
                Look ended = it.next();
                if (alive.contains(ended.thread().threadId())) continue;
                writeOwed(ended, frames);  // its time up to its last look
                it.remove();
            }
            known = seen;
            nextFullWalk = System.nanoTime() + 1_000_000_000L;
            return;
        }
        int n = Math.min(WALL_THREADS_PER_TICK, known.size());
        for (int i = 0; i < n; i++) look(known.get((nextInTurn + i) % known.size()), false, frames);
        if (n > 0) nextInTurn = (nextInTurn + n) % known.size();
    }

    /**
     * Looks at {@code t}: stops it for its stack only when it may have moved on, and writes the
     * time owed to the stack it was at when it has, or when {@code writeOwed} (the look of every
     * thread, once a second) or a second has passed.
     */
    private void look(Thread t, boolean writeOwed, Frames frames) throws IOException {
        long cpu = cpuTime(t);  // before the walk: a thread that runs after it shows a later time next look
        Look last = lastLook.get(t.threadId());
        long now = System.nanoTime();
        if (last != null && last.stillRunningJava(cpu, () -> threadState(t))) {
            lastLook.put(t.threadId(), last.seenRunning(now, cpu));
            return;  // JFR's, and a handshake would stop it until its next safepoint poll
        }
        if (last != null && last.idleSince(cpu) && now - last.stackTaken() < RETAKE_NANOS) {
            Look idle = last.seenIdle(now, registry.map().generation());
            lastLook.put(t.threadId(), writeOwed || now - idle.owedSince() >= 1_000_000_000L ? writeOwed(idle, frames) : idle);
            return;
        }
        Look left = last == null ? null : writeOwed(last, frames);  // the time it spent where it was last seen
        int generation = registry.map().generation();  // before the walk: the ids it returns are of this generation or later
        Jvmti.ThreadStack ts = stackOf(t);
        if (ts == null) {
            lastLook.remove(t.threadId());  // ended meanwhile
            return;
        }
        now = System.nanoTime();
        boolean running = runningJava(ts.state(), ts.frames().getFirst());
        // Since the last look, the thread was here or on its way: the time goes here (with the part
        // of an interval not written there). A new thread: one interval.
        long owedSince = running ? now : left != null ? left.owedSince() : now - options.interval().toNanos();
        Look seen = new Look(t, now, cpu, running, ts, now, owedSince, generation);
        lastLook.put(t.threadId(), writeOwed ? writeOwed(seen, frames) : seen);
    }

    /**
     * A stack kept longer than this is taken again even if the thread's CPU clock did not move:
     * Linux's thread clocks count every nanosecond a thread runs, but a platform whose clock
     * ticks coarsely could hide a short run.
     */
    private static final long RETAKE_NANOS = 10_000_000_000L;

    /**
     * Writes the whole intervals of {@code look}'s thread's time owed to its stack (waiting there
     * since {@link Look#owedSince()}, last seen there at {@link Look#nanos()}), stamped when it was
     * last seen there; the look with the rest of an interval still owed.
     */
    private Look writeOwed(Look look, Frames frames) throws IOException {
        long interval = options.interval().toNanos();
        // A look the session's stop came before: its time counts up to the stop (a later stamp is left out).
        long until = Math.min(look.nanos(), recorder.nanoTimeOf(recorder.now()) - 1);
        long ticks = (until - look.owedSince()) / interval;
        if (look.runningJava() || ticks <= 0) return look;
        Thread t = look.thread();
        if (!idsStillName(look)) return look.owing(look.owedSince() + ticks * interval);  // the time is lost, not misnamed
        write(recorder.stampOf(until), t.threadId(), t.getName(), state(look.stack().state()), 0, ticks, look.stack().frames(), frames);
        return look.owing(look.owedSince() + ticks * interval);
    }

    /**
     * Whether the method ids of {@code look}'s stack still name the methods they named when the
     * thread was last seen there: a thread that moved on let go of those frames, and a class
     * unloaded since may have had its ids given to another class's methods.
     */
    private boolean idsStillName(Look look) {
        if (registry.map().generation() == look.generation()) return true;
        for (Jvmti.StackFrame f : look.stack().frames()) {
            IdMap.MethodEntry m = registry.resolve(f.methodId());
            if (m != null && m.generation() > look.generation()) return false;
        }
        return true;
    }

    /**
     * Every thread's time owed to its stack, at a dump, a loop's new period and the end, up to now
     * (the stop's moment once the session stops): a thread whose clock has not moved since it was
     * last looked at (maybe a second ago) is still there; the others are looked at again.
     */
    private void writeAllOwed(Frames frames) throws IOException {
        long upTo = recorder.nanoTimeOf(recorder.now()) - 1;  // a stamp at the stop itself would be left out
        for (Look look : List.copyOf(lastLook.values())) {
            if (look.idleSince(cpuTime(look.thread()))) {
                lastLook.put(look.thread().threadId(), writeOwed(upTo > look.nanos() ? look.seenIdle(upTo, registry.map().generation()) : look, frames));
            } else {
                look(look.thread(), true, frames);  // moved on since: where it is now, up to now
            }
        }
    }

    /**
     * A thread as last looked at: when (nanoTime), its CPU clock read just before, whether it ran
     * Java code then, its stack and when that was taken, from when its time there is owed, not
     * yet written, and the ID map's generation when it was last seen there (its ids named those
     * methods then). Two shortcuts spare a look's handshake:
     * <ul>
     * <li>A waiting thread whose clock has not moved since has not run, so its stack is still that
     *     one (async-profiler's wall clock skips idle threads alike).
     * <li>A thread that ran Java code, is runnable, not in native code (JVMTI's state, read
     *     without stopping it) and whose clock moved is taken to run Java code still (JFR samples
     *     it). One that went into native code and back since is not seen there.
     * </ul>
     */
    private record Look(Thread thread, long nanos, long cpuNanos, boolean runningJava, Jvmti.ThreadStack stack,
                        long stackTaken, long owedSince, int generation) {
        boolean idleSince(long cpuNow) {
            return !runningJava && cpuNow >= 0 && cpuNow == cpuNanos;
        }

        boolean stillRunningJava(long cpuNow, java.util.function.IntSupplier stateNow) {
            if (!runningJava || cpuNow == cpuNanos) return false;
            return runnableInJava(stateNow.getAsInt());
        }

        Look seenRunning(long now, long cpuNow) {
            return new Look(thread, now, cpuNow, true, stack, stackTaken, now, generation);
        }

        /** Seen still there: its frames still held their classes, so its ids still named them then. */
        Look seenIdle(long now, int generationNow) {
            return new Look(thread, now, cpuNanos, false, stack, stackTaken, owedSince, generationNow);
        }

        Look owing(long since) {
            return new Look(thread, nanos, cpuNanos, runningJava, stack, stackTaken, since, generation);
        }
    }

    /** {@code t}'s stack by a handshake with it alone; null when it has ended (or the facade closed). */
    private Jvmti.ThreadStack stackOf(Thread t) {
        try {
            Jvmti.ThreadStack ts = jvmti.threadStack(t, options.depth() + 1);
            return ts == null || ts.frames().isEmpty() ? null : ts;
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * Wall mode: virtual threads where they wait (parked, sleeping, blocked, or ready to run but
     * not mounted), weighted by how many wait there: once a second a fair pick of the virtual
     * threads alive in random order, then at most {@link #WALL_THREADS_PER_TICK} of them a tick,
     * each stack taken without stopping any other thread. With {@code n} alive, a tick's samples
     * stand for {@code n} threads' wall time since the last tick (by the clock, so a slow tick
     * loses nothing), each for {@code n / 16}: 10,000 virtual threads asleep in one method weigh
     * what 10,000 platform threads would. A picked thread that ended, or that runs Java code on a
     * carrier (JFR samples it; without JFR nothing does), takes its share with it. Threads that
     * live less than a second are mostly gone by their turn, so their waits are under-counted.
     */
    private void sampleWaitingVirtualThreads(Frames frames) throws IOException {
        long now = System.nanoTime();
        if (now >= nextVirtualPick) {
            long ticksPerSecond = Math.max(1, 1_000_000_000L / options.interval().toNanos());
            VirtualThreads.Pick pick;
            try {
                pick = virtualThreads.pick((int) Math.min(MAX_VIRTUAL_PICKED, WALL_THREADS_PER_TICK * ticksPerSecond));
            } catch (UnsupportedOperationException refused) {
                virtualThreads = null;
                recorder.info(RecordingFormat.INFO_WAITING_VIRTUAL_THREADS, RecordingFormat.WAITING_VIRTUAL_THREADS_NOT);
                recorder.info(RecordingFormat.INFO_WAITING_VIRTUAL_THREADS_WHY, refused.getMessage());
                return;
            }
            virtualInTurn = pick.threads();
            virtualAlive = pick.alive();
            nextVirtual = 0;
            nextVirtualPick = now + 1_000_000_000L;
        }
        double elapsedTicks = lastVirtualWalk == 0 ? 1 : (double) (now - lastVirtualWalk) / options.interval().toNanos();
        lastVirtualWalk = now;
        int n = Math.min(WALL_THREADS_PER_TICK, virtualInTurn.size());
        for (int i = 0; i < n; i++) {
            Thread v = virtualInTurn.get(nextVirtual);
            nextVirtual = (nextVirtual + 1) % virtualInTurn.size();
            virtualTicksOwed += elapsedTicks * virtualAlive / n;
            long ticks = (long) virtualTicksOwed;
            virtualTicksOwed -= ticks;
            String name = JfrSamples.threadName(v);
            if (ticks == 0 || EventEngine.machinery(name) || threads != null && !threads.test(name)) continue;
            Jvmti.ThreadStack ts = stackOf(v);
            if (ts == null || runningJava(ts.state(), ts.frames().getFirst()) && !unmounted(ts.frames().getFirst())) continue;
            write(recorder.now(), JfrSamples.VIRTUAL_THREADS_ID, JfrSamples.VIRTUAL_THREADS, state(ts.state()), 0, ticks, ts.frames(), frames);
        }
    }

    /** Whether a virtual thread's top frame shows it off its carrier: it yielded (to park, or to wait for a carrier). */
    private boolean unmounted(Jvmti.StackFrame top) {
        IdMap.MethodEntry m = registry.resolve(top.methodId());
        return m != null && m.token().owner().binaryName().equals(VIRTUAL_THREAD) && m.token().name().equals("yieldContinuation");
    }

    /** Once the recompiler has counted enough samples: the hottest classes recompiled, and the recording told when and which. */
    private void recompileWhenReady() throws IOException, InterruptedException {
        Recompiler r = recompiler;
        Recompiler.Outcome done;
        try {
            done = r == null ? null : r.recompileWhenReady(jfr != null);
        } catch (RuntimeException e) {  // the stack walks failed (the facade closing): sampling goes on, code stays as compiled
            done = new Recompiler.Outcome(List.of(), List.of("every class (" + e.getMessage() + ")"), List.of());
        }
        if (done == null) return;
        recompiled = r;
        recompiler = null;
        recorder.info(RecordingFormat.INFO_RECOMPILED, recorder.now() + "\t" + String.join(", ", done.recompiled())
                + "\t" + String.join(", ", done.left()) + "\t" + String.join(", ", done.earlier()));
    }

    /** Virtual threads picked a second at most, however many ticks a second the interval makes. */
    private static final int MAX_VIRTUAL_PICKED = 4096;

    private void sampleOnce(Frames frames) throws IOException {
        if (options.mode() == SampleMode.CPU && System.nanoTime() < nextFullWalk) {
            sampleBusyThreads(frames);
            return;
        }
        // Only running threads' CPU times are read: the others would cost a call each for
        // nothing; what a thread used while not seen running counts at its next running sample.
        int generation = registry.map().generation();
        List<Jvmti.ThreadStack> stacks = jvmti.allStackTraces(options.depth() + 1, true);  // one more: was it cut?
        long time = recorder.now();
        long ticks = wallTicksSinceLastWalk();
        List<Thread> seen = new ArrayList<>();
        for (Jvmti.ThreadStack ts : stacks) {
            Thread t = ts.thread();
            if (t == null || ts.frames().isEmpty() || !chosen(t)) continue;
            seen.add(t);
            long cpu = credit(t, ts.cpuNanos(), ts.state(), ts.frames().getFirst());
            if (options.mode() == SampleMode.WALL && jfr != null) lookedAt(t, ts, lastWalkNanos, generation);
            if (options.mode() == SampleMode.CPU && cpu <= 0) continue;
            if (carriesForJfr(t) && (options.mode() == SampleMode.CPU || (ts.state() & Jvmti.THREAD_STATE_RUNNABLE) != 0)) continue;
            write(time, t.threadId(), t.getName(), state(ts.state()), cpu, ticks, ts.frames(), frames);
        }
        known = seen;
        forgetEndedThreads(seen);
        nextFullWalk = System.nanoTime() + 1_000_000_000L;
    }

    /**
     * Wall mode while JFR starts: the walk of every thread wrote {@code t}'s time up to now, so
     * JFR's first looks count its time from here (they once counted one interval, and the time
     * since the last walk was lost: a tenth of a 3 s collect of 1,000 threads).
     */
    private void lookedAt(Thread t, Jvmti.ThreadStack ts, long walked, int generation) {
        boolean running = runningJava(ts.state(), ts.frames().getFirst());
        lastLook.put(t.threadId(), new Look(t, walked, ts.cpuNanos(), running, ts, walked, walked, generation));
    }

    /**
     * Wall mode's walks of every thread: the intervals each sample stands for, by the clock since
     * the last walk. A walk of a thousand threads takes longer than an interval, and counting one
     * each lost a third of their wall time while JFR was starting (1,000 waiting threads weighed
     * 640 in a 3 s collect). cpu mode weighs its samples by CPU time: one.
     */
    private long wallTicksSinceLastWalk() {
        long now = System.nanoTime();
        long last = lastWalkNanos;
        lastWalkNanos = now;
        if (options.mode() != SampleMode.WALL || last == 0) return 1;
        walkTicksOwed += (double) (now - last) / options.interval().toNanos();
        long ticks = Math.max(1, (long) walkTicksOwed);
        walkTicksOwed -= ticks;
        return ticks;
    }

    /** When the last walk of every thread was taken (0: none yet), and the intervals since not yet written. Sampler thread only. */
    private long lastWalkNanos;
    private double walkTicksOwed;

    /**
     * cpu mode between full walks (one a second, which also finds new threads): only the threads
     * that used CPU since the last look, each by a handshake with it alone, so the other threads
     * never stop for a sample.
     */
    private void sampleBusyThreads(Frames frames) throws IOException {
        List<Thread> busy = new ArrayList<>();
        List<Long> cpuNow = new ArrayList<>();
        for (Thread t : known) {
            if (carriesForJfr(t)) continue;  // before its stack is taken, which would stop it for nothing
            long cpu = cpuTime(t);
            CpuClock c = clocks.get(t.threadId());
            if (cpu < 0 || c == null || cpu == c.lastCpu) continue;
            busy.add(t);
            cpuNow.add(cpu);
        }
        long time = recorder.now();
        for (int i = 0; i < busy.size(); i++) {
            Jvmti.ThreadStack ts = stackOf(busy.get(i));
            if (ts == null) continue;  // the thread ended meanwhile
            long cpu = credit(busy.get(i), cpuNow.get(i), ts.state(), ts.frames().getFirst());
            if (cpu > 0) write(time, busy.get(i), RecordingFormat.STATE_RUNNABLE, cpu, ts.frames(), frames);
        }
    }

    /**
     * Whether {@code t} carries virtual threads for the JDK's scheduler while JFR samples (these
     * walks then stand in for JFR until its samples come): running, its CPU is the virtual
     * threads' work, which JFR's samples of them carry, and a walk sees only the carrier's frames
     * ({@code ForkJoinPool.runWorker}, {@code ForkJoinTask.doExec}), which took a quarter of 1,000
     * hashing virtual threads' CPU in a 3 s session. cpu mode leaves carriers to JFR; wall mode
     * only while they run (an idle carrier's wait is the walks' to show).
     */
    private boolean carriesForJfr(Thread t) {
        return jfr != null && AgentThreads.carriesVirtualThreads(t);
    }

    /**
     * The CPU time to credit to a sample of {@code t} in {@code state} with {@code top} on top,
     * its CPU clock reading {@code cpuNow} (negative: not read, as for a thread that is not
     * runnable): what it used since it was last seen running Java code when it is seen doing so
     * now, else 0 and the CPU waits.
     */
    private long credit(Thread t, long cpuNow, int state, Jvmti.StackFrame top) {
        CpuClock c = clocks.computeIfAbsent(t.threadId(), id -> new CpuClock());
        if (cpuNow >= 0) {
            if (c.lastCpu >= 0) c.pending += Math.max(0, cpuNow - c.lastCpu);
            c.lastCpu = cpuNow;
        }
        if (!runningJava(state, top)) return 0;
        long credited = c.pending;
        c.pending = 0;
        return credited;
    }

    /**
     * Whether a platform thread's top frame shows it carrying a mounted virtual thread: a
     * continuation's frame, or {@code VirtualThread.mount}. JVMTI shows the carrier's frames only
     * (and not as runnable), which say nothing of the work; JFR samples the virtual thread itself.
     */
    private boolean carrying(Jvmti.StackFrame top) {
        IdMap.MethodEntry m = registry.resolve(top.methodId());
        if (m == null) return false;
        String owner = m.token().owner().binaryName();
        return owner.equals(CONTINUATION) || owner.equals(VIRTUAL_THREAD) && m.token().name().equals("mount");
    }

    private static final String CONTINUATION = "jdk.internal.vm.Continuation";
    private static final String VIRTUAL_THREAD = "java.lang.VirtualThread";

    /** Runnable in Java code: not in native code, and not held on the way back from a native method on top. */
    static boolean runningJava(int state, Jvmti.StackFrame top) {
        return runnableInJava(state) && top.location() >= 0;
    }

    /** JVMTI's state bits say runnable and not in native code. */
    private static boolean runnableInJava(int state) {
        return (state & Jvmti.THREAD_STATE_RUNNABLE) != 0 && (state & Jvmti.THREAD_STATE_IN_NATIVE) == 0;
    }

    /**
     * Drops the clocks and looks of threads a full walk no longer sees; CPU they never got credited
     * counts as not seen running.
     */
    private void forgetEndedThreads(List<Thread> seen) {
        java.util.Set<Long> alive = ids(seen);
        lastLook.keySet().retainAll(alive);
        clocks.entrySet().removeIf(e -> {
            if (alive.contains(e.getKey())) return false;
            pendingOfEndedThreads += e.getValue().pending;
            return true;
        });
    }

    /** The ids of {@code threads}: what a full walk saw alive, for forgetting the threads it did not. */
    private static java.util.Set<Long> ids(List<Thread> threads) {
        java.util.Set<Long> ids = new java.util.HashSet<>();
        for (Thread t : threads) ids.add(t.threadId());
        return ids;
    }

    /** CPU time of threads not seen running Java code since they used it: what no sample carries. */
    private long cpuNotSeenRunning() {
        long sum = pendingOfEndedThreads;
        for (CpuClock c : clocks.values()) sum += c.pending;
        return sum;
    }

    /** Whether to sample {@code t}: never tiprobe's own threads nor JFR's; the chosen ones when threads were chosen. */
    private boolean chosen(Thread t) {
        String name = t.getName();
        return !EventEngine.machinery(name) && (threads == null || threads.test(name));
    }

    /** {@code t}'s JVMTI state bits; 0 when they cannot be read (the facade closed). */
    private int threadState(Thread t) {
        try {
            return jvmti.threadState(t);
        } catch (RuntimeException gone) {
            return 0;
        }
    }

    /** {@code t}'s CPU time, or -1 when it ended. */
    private long cpuTime(Thread t) {
        try {
            return cpuClock.applyAsLong(t);
        } catch (RuntimeException gone) {
            return -1;
        }
    }

    /**
     * Reads a thread's CPU clock: through java.management where the target's runtime has it (a
     * look-up by id, about half a microsecond here; wall mode reads one per waiting thread a tick),
     * else through JVMTI, which costs a JNI reference a call.
     */
    private static ToLongFunction<Thread> cpuClock(Jvmti jvmti) {
        try {
            return ManagedClock.of();
        } catch (LinkageError | RuntimeException noManagement) {
            return jvmti::threadCpuTime;
        }
    }

    /** Apart, so that a runtime without java.management fails here and not in the sampler. */
    private static final class ManagedClock {
        static ToLongFunction<Thread> of() {
            java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
            if (!threads.isThreadCpuTimeSupported() || !threads.isThreadCpuTimeEnabled()) {
                throw new UnsupportedOperationException("thread CPU time not enabled");
            }
            return t -> threads.getThreadCpuTime(t.threadId());
        }
    }

    /** The sampler's scratch for one stack: method token ids and source lines, reused sample after sample. */
    private record Frames(int[] methods, int[] lines) {
        Frames(int depth) {
            this(new int[depth], new int[depth]);
        }
    }

    /**
     * Writes one sample, unless the thread is doing tiprobe's own work: an application thread in
     * a callback or a tracing probe counts to tiprobe's share ({@link RecordingFormat#INFO_OWN_WORK_NANOS})
     * and so does a JVM thread in the agent's entry point (the Attach Listener finishing
     * agentmain, say); tiprobe's own threads, which all have names of their own, are never sampled.
     */
    private void write(long time, Thread t, byte state, long cpuNanos, List<Jvmti.StackFrame> stack, Frames frames)
            throws IOException {
        write(time, t.threadId(), t.getName(), state, cpuNanos, 1, stack, frames);
    }

    /**
     * As above, for the thread {@code threadId} named {@code name} (all virtual threads are one),
     * the sample standing for {@code ticks} sampling intervals of its wall time.
     */
    private void write(long time, long threadId, String name, byte state, long cpuNanos, long ticks, List<Jvmti.StackFrame> stack,
                       Frames frames) throws IOException {
        if (threadId != JfrSamples.VIRTUAL_THREADS_ID && carrying(stack.getFirst())) return;  // the carrier's frames, not the virtual thread's work
        int n = Math.min(stack.size(), frames.methods().length);  // the walk asked for one frame more
        for (int i = 0; i < n; i++) {
            Jvmti.StackFrame f = stack.get(i);
            if (registry.nameFrame(f.methodId(), f.location(), frames.methods(), frames.lines(), i) != Registry.FrameOwner.APPLICATION) {
                ownWorkNanos.add(cpuNanos);
                return;
            }
        }
        Stack sampled = new Stack(frames.methods(), frames.lines(), n, stack.size() > n);
        if (recorder.write(time, Sample.KIND, new Sample(time, threadId, name, state, cpuNanos, ticks, sampled))) samples.incrementAndGet();
        Recompiler r = recompiler;
        // A busy thread's walk stands in for JFR's samples, which come a second or two late: the
        // classes to recompile are chosen that much sooner (a walk, as JFR, finds old code at its
        // safepoint poll).
        if (r != null && state == RecordingFormat.STATE_RUNNABLE && cpuNanos > 0) r.saw(sampled, null, threadId, false);
    }

    /** tiprobe's share so far, and the CPU whose samples JFR lost; written again at each flush, the recording keeping the last. */
    private void writeTotals() throws IOException {
        recorder.total(RecordingFormat.INFO_OWN_WORK_NANOS, ownWorkNanos.sum());
        recorder.total(RecordingFormat.INFO_CPU_LOST_BY_JFR_NANOS, lostByJfrNanos.sum());
    }

    private static byte state(int bits) {
        if ((bits & Jvmti.THREAD_STATE_RUNNABLE) != 0) return RecordingFormat.STATE_RUNNABLE;
        if ((bits & (STATE_WAITING | STATE_BLOCKED)) != 0) return RecordingFormat.STATE_WAITING;
        return RecordingFormat.STATE_OTHER;
    }

    private void drainClassEvents() throws IOException {
        ClassEvent e;
        while ((e = classEvents.poll()) != null) recorder.write(e.epochNanos(), e.kind(), e);
    }

    /**
     * As {@link EventEngine#tokensHeldSince}: the earliest moment from which the sampler's thread
     * or JFR's stream may hold method ids resolved and not yet written.
     */
    @Override
    public long tokensHeldSince() {
        JfrSamples j = jfr;
        return Math.min(busySince, j == null ? EventEngine.IDLE : j.busySince());
    }

    /**
     * Waits up to two seconds for JFR to hand over the samples taken up to now (at once without
     * JFR), and in wall mode up to two more for the waiting threads' time up to now.
     */
    @Override
    public void catchUp() {
        awaitJfr();
        if (options.mode() == SampleMode.WALL) thread.flush();  // at once when the thread has ended
    }

    private void awaitJfr() {
        JfrSamples j = jfr;
        if (j != null) j.awaitDelivery();
    }

    /** Writes what is gathered so far (the sampler keeps going); waits up to two seconds for JFR and two for the write. */
    @Override
    public void flush() {
        awaitJfr();
        thread.flush();
    }

    /** Stops sampling and writes the last samples; the recording stays open for the session's owner to close. */
    @Override
    public void close() throws IOException {
        boolean ended = thread.stop();
        JfrSamples j = jfr;
        if (j != null) j.close();  // hands over its last samples
        // Only now: JFR's last second of samples comes after the walks ended, and a thread the walks
        // weighed (one in native code) must still be left out of them, or its last second counts twice.
        lastLook.clear();  // the stopped session stays referenced until the next: no threads kept with it
        stopNaming();
        registry.listen(null);
        virtualInTurn = List.of();  // the stopped session stays referenced until the next: no threads kept with it
        drainClassEvents();
        if (ended && j == null) recorder.info(RecordingFormat.INFO_CPU_NOT_SEEN_RUNNING, Long.toString(cpuNotSeenRunning()));
        if (ended) writeTotals();
        recorder.flush();
        thread.throwFailure("sampling");
    }
}
