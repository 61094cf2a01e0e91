package dev.tiprobe.report;

import dev.tiprobe.recording.Allocation;
import dev.tiprobe.recording.Call;
import dev.tiprobe.recording.ClassEvent;
import dev.tiprobe.recording.Deadlock;
import dev.tiprobe.recording.LockWait;
import dev.tiprobe.recording.MethodStats;
import dev.tiprobe.recording.RecordingFormat;
import dev.tiprobe.recording.Removed;
import dev.tiprobe.recording.Sample;
import dev.tiprobe.recording.Signature;
import dev.tiprobe.recording.Skipped;
import dev.tiprobe.recording.Stack;

import java.util.List;
import java.util.Map;

/**
 * A recording as read back: the complete chunks' events and symbols, and, when the file was cut
 * short or damaged, what was wrong and where ({@link #damage()}; null for a whole file).
 *
 * @param info    facts about the session ({@link RecordingFormat#INFO_SAMPLE_MODE} and the others)
 * @param sources the source file of each method id whose class named one, as a path from its
 *                package root ({@code org/foo/Bar.java}); none in a version 2 recording
 * @param stats   traced methods' statistics by method id, the latest the recording holds
 * @param calls   traced calls in the order they were written
 * @param tracing what else a tracing session said: its methods as chosen, those it skipped, the
 *                classes it could not change, the probes the overhead budget removed
 * @param events  allocation samples, collected objects and monitor waits (none before version 5)
 * @param records the events of kinds that none of the components above holds, by type, as read
 *                ({@link #records(Class)}): a new kind's, until a view of its own holds them
 */
public record Recording(int chunks, long startEpochNanos, long endEpochNanos, Map<String, String> info,
                        Map<Integer, String> methods, Map<Integer, String> sources, Map<Long, String> threads,
                        List<Sample> samples,
                        List<ClassEvent> classEvents, Map<Integer, MethodStats> stats, List<Call> calls,
                        Tracing tracing, Events events, Map<Class<?>, List<?>> records, String damage) {

    /**
     * The events of {@code type}, of a {@link dev.tiprobe.recording.RecordKind} that none of the
     * components holds, as read, in the order they were written; none for any other type.
     */
    public <E> List<E> records(Class<E> type) {
        List<?> events = records.getOrDefault(type, List.of());
        return events.stream().map(type::cast).toList();
    }

    /**
     * What allocation and lock profiling recorded: the classes they name, samples, collected tags,
     * waits, and the deadlocks found while the session ran.
     */
    public record Events(Map<Integer, String> types, List<Allocation> allocations, java.util.Set<Long> freed,
                         List<LockWait> locks, List<Deadlock> deadlocks) {
        public static final Events NONE = new Events(Map.of(), List.of(), java.util.Set.of(), List.of(), List.of());

        /** Whether any wait belongs to the lock view (a lock view), or any to the wait view ({@link RecordingFormat#inLockView}). */
        public boolean hasWaits(boolean lockView) {
            return locks.stream().anyMatch(w -> RecordingFormat.inLockView(w.kind()) == lockView);
        }
    }

    /**
     * A tracing session's account beside its figures: each traced method's signature by method
     * id, the methods skipped, the classes left unchanged (with why) and the probes removed.
     */
    public record Tracing(Map<Integer, Signature> signatures, List<Skipped> skipped, List<String> classFailures,
                          List<Removed> removed) {
        public static final Tracing NONE = new Tracing(Map.of(), List.of(), List.of(), List.of());
    }

    /**
     * The method id of the root frame the reader adds to a stack the sampler cut at its depth
     * ({@link RecordingFormat#STATE_TRUNCATED}); it names no method.
     */
    public static final int TRUNCATED = Stack.TRUNCATED;

    /**
     * Frame ids at or below this stand for a class, not a method: the leaf frame the allocation and
     * lock views add ({@code byte[]}), as async-profiler draws the allocated type.
     */
    public static final int TYPE_FRAMES = -1_000_000;

    /** The frame id of the class {@code typeId} of {@link Events#types()}. */
    public static int typeFrame(int typeId) {
        return TYPE_FRAMES - typeId;
    }

    /** The name of a class of {@link Events#types()}; "[unknown]" for an id without a name. */
    public String typeName(int typeId) {
        String name = events.types().get(typeId);
        return name != null ? name : "[unknown]";
    }

    /**
     * The name of a method id; "[truncated]" for {@link #TRUNCATED}; the class for a
     * {@link #typeFrame}; "[unknown]" for 0 or an id without a name.
     */
    public String methodName(int id) {
        if (id == TRUNCATED) return "[truncated]";
        if (id <= TYPE_FRAMES) return typeName(TYPE_FRAMES - id);
        String name = methods.get(id);
        return name != null ? name : "[unknown]";
    }

    /** A thread's name; {@code thread <id>} for one without a name, as a virtual thread has unless given one. */
    public String threadName(long id) {
        String name = threads.get(id);
        return name == null || name.isEmpty() ? "thread " + id : name;
    }

    /** A traced method's name as the trace reports show it: with parameter names where known. */
    public String tracedName(int id) {
        Signature s = tracing.signatures().get(id);
        return s != null ? s.displayName() : methodName(id);
    }

    /**
     * What a reader must know to trust the views, one sentence each: tracing's first, then the
     * allocation and lock views', then sampling's. Empty when there is nothing to say.
     */
    public List<String> caveats() {
        List<String> out = new java.util.ArrayList<>();
        tracingCaveats(out);
        eventCaveats(out);
        samplingCaveats(out);
        return out;
    }

    /** Probes the budget removed, classes left unchanged, and instrumenting's time where it was large. */
    private void tracingCaveats(List<String> out) {
        String removed = info.get(RecordingFormat.INFO_REMOVED_FOR_OVERHEAD);
        if (removed != null) out.add(removed + "; their calls were counted until then.");
        long unchanged = infoNumber(RecordingFormat.INFO_CLASSES_LEFT_UNCHANGED);
        if (unchanged > 0) {
            out.add(unchanged + (unchanged == 1 ? " class was" : " classes were") + " left unchanged (each says what that means"
                    + " for its calls); the first: "
                    + info.getOrDefault(RecordingFormat.INFO_FIRST_CLASS_FAILURE, "?"));
        }
        long instrumenting = infoNumber(RecordingFormat.INFO_INSTRUMENTING_NANOS);
        if (instrumenting > 0 && instrumenting >= (endEpochNanos - startEpochNanos) / 100) {
            out.add(String.format("Instrumenting class files (%d changed) took %.1f s on the threads that loaded or retransformed"
                    + " them, time the overhead budget does not count (it counts the probes' calls).",
                    infoNumber(RecordingFormat.INFO_CLASSES_INSTRUMENTED), instrumenting / 1e9));
        }
    }

    /**
     * For a recording made with lock profiling that has no wait for a lock's holder: why its lock
     * view is empty, with the threshold; else null. An empty lock view is not left out unexplained.
     */
    public String noContention() {
        String threshold = info.get(RecordingFormat.INFO_LOCK_THRESHOLD);
        if (threshold == null || events.hasWaits(true)) return null;
        long nanos = infoNumber(RecordingFormat.INFO_LOCK_THRESHOLD);
        // a wait is recorded as it ends: a deadlocked thread's never does, and it is no sign of an uncontended program
        if (!events.deadlocks().isEmpty()) {
            return (nanos == 0 ? "no wait to enter a monitor or take a lock ended"
                    : "no wait of " + millis(nanos) + " or longer to enter a monitor or take a lock ended")
                    + "; the deadlocked threads still wait (a wait is recorded as it ends)";
        }
        return nanos == 0 ? "no thread waited to enter a monitor or take a lock"
                : String.format("no thread waited %s or longer to enter a monitor or take a lock (--lock sets that threshold)",
                millis(nanos));
    }

    private static String millis(long nanos) {
        return nanos % 1_000_000 == 0 ? nanos / 1_000_000 + " ms" : String.format("%.3f ms", nanos / 1e6);
    }

    /** An allocation interval raised by the budget, an empty lock view, and waits from JVMTI's monitor events. */
    private void eventCaveats(List<String> out) {
        String noContention = noContention();
        if (noContention != null) {
            out.add((events.deadlocks().isEmpty() ? "No contention was seen: " : "The lock view is empty: ") + noContention + ".");
        }
        long asked = infoNumber(RecordingFormat.INFO_ALLOC_INTERVAL);
        long widest = events.allocations().stream().mapToLong(Allocation::intervalBytes).max().orElse(0);
        if (asked > 0 && widest > asked) {
            String budget = info.get(RecordingFormat.INFO_ALLOC_OVERHEAD);
            out.add("The allocation sampling interval was raised up to " + bytes(widest) + " from " + bytes(asked)
                    + (budget == null ? "" : ", to keep sampling under " + percent(budget) + " of the program's CPU")
                    + "; each sample weighs by the interval in force when it was taken.");
        }
        if (RecordingFormat.LOCK_SOURCE_JVMTI.equals(info.get(RecordingFormat.INFO_LOCK_SOURCE))) {
            out.add("The waits come from JVMTI's monitor events, which slow every contended monitor a little, and parks on"
                    + " java.util.concurrent locks and conditions are not seen, as "
                    + info.getOrDefault(RecordingFormat.INFO_LOCK_SOURCE_WHY, "JFR was not used") + ".");
        }
    }

    /**
     * CPU in no stack, samples from JVMTI walks, waiting virtual threads not walked, and code
     * compiled before the session (recompiled or not).
     */
    private void samplingCaveats(List<String> out) {
        long unseen = infoNumber(RecordingFormat.INFO_CPU_NOT_SEEN_RUNNING);
        if (unseen > 0) {
            out.add(String.format("CPU goes to stacks of threads seen running Java code; %.1f ms used by threads not seen"
                    + " running again before sampling ended is in no stack.", unseen / 1e6));
        }
        long sampled = samples.stream().mapToLong(Sample::cpuNanos).sum();  // what the CPU in no view is a share of
        long lost = infoNumber(RecordingFormat.INFO_CPU_LOST_BY_JFR_NANOS);
        if (lost > 0) {
            out.add(String.format("JFR's CPU-time sampler kept no stack for at least %.1f ms of CPU, %.1f%% of the CPU sampled:"
                    + " it keeps none of a thread in the JVM's own code (taking a contended lock, parking or waking a thread,"
                    + " loading a class, walking a stack)"
                    + " or whose queue of samples is full. That CPU is in no view, so the methods that run into such work show"
                    + " less than their share.", lost / 1e6, 100.0 * lost / (lost + sampled)));
        }
        long own = infoNumber(RecordingFormat.INFO_OWN_WORK_NANOS);
        if (own > 0) {
            out.add(String.format("tiprobe's own work on the program's threads (its JVMTI callbacks and tracing probes) took"
                    + " %.1f ms of CPU, %.1f%% of the CPU sampled; those samples are in no view.", own / 1e6, 100.0 * own / (own + sampled)));
        }
        String sampleSource = info.getOrDefault(RecordingFormat.INFO_SAMPLE_SOURCE, "");
        out.addAll(samplerCaveats());
        if (RecordingFormat.WAITING_VIRTUAL_THREADS_NOT.equals(info.get(RecordingFormat.INFO_WAITING_VIRTUAL_THREADS))) {
            out.add("Virtual threads that wait are not in the wall view: "
                    + info.getOrDefault(RecordingFormat.INFO_WAITING_VIRTUAL_THREADS_WHY, "no reason recorded") + ".");
        }
        String compiled = compiledBeforeCaveat(sampleSource);
        if (compiled != null) out.add(compiled);
    }

    /**
     * The caveats of the sampler that took the samples, where it is not the one tiprobe asks for:
     * JVMTI's walks where JFR could not be used, JFR's execution samples where another profiler
     * holds SIGPROF, or running threads missing where it took SIGPROF from JFR's CPU-time
     * sampler. The commands say these beside a file that cannot ({@link Export#holdsCaveats});
     * the text report and the page say them with the others.
     */
    public List<String> samplerCaveats() {
        String sampleSource = info.getOrDefault(RecordingFormat.INFO_SAMPLE_SOURCE, "");
        List<String> caveats = new java.util.ArrayList<>();
        if (sampleSource.equals(RecordingFormat.SAMPLE_SOURCE_JVMTI)) {
            caveats.add("The samples come from JVMTI stack walks, which find a thread only at a safepoint poll: the work of"
                    + " methods inlined into a loop is credited to the loop, and a virtual thread's work to its carrier's"
                    + " VirtualThread.mount, as " + info.getOrDefault(RecordingFormat.INFO_SAMPLE_SOURCE_WHY, "JFR was not used") + ".");
        }
        String sigprof = info.get(RecordingFormat.INFO_SIGPROF_TAKEN_BY);
        if (sigprof != null && sampleSource.equals(RecordingFormat.SAMPLE_SOURCE_JFR_CPU_TIME)) {
            caveats.add("SIGPROF, which JFR's CPU-time sampler needs, is handled by " + sigprof + " (another profiler, loaded"
                    + " before JFR's recording started): running threads are missing from these samples; start the program"
                    + " with that profiler on another signal, or attach tiprobe to it instead.");
        } else if (sigprof != null) {
            caveats.add("JFR's CPU-time sampler was not used: SIGPROF, which it needs, is handled by " + sigprof
                    + " (another profiler); the samples are JFR's execution samples, which count only threads found running Java code.");
        }
        return caveats;
    }

    /**
     * Where samples of code compiled before a late session put inlined methods' work, and what
     * recompiling the hottest code changed of that; null for a session that began with the JVM.
     */
    private String compiledBeforeCaveat(String sampleSource) {
        long compiledBefore = infoNumber(RecordingFormat.INFO_COMPILED_BEFORE_NANOS);
        String recompiled = info.getOrDefault(RecordingFormat.INFO_RECOMPILED, "");
        int tab = recompiled.indexOf('\t');
        if (compiledBefore > LATE_START_NANOS && tab > 0 && recompiled.substring(0, tab).matches("\\d{1,19}")) {
            double at = (Long.parseLong(recompiled.substring(0, tab)) - startEpochNanos) / 1e9;
            // A loop's later recording begins after the session recompiled: its moment is before this file.
            String when = at < 0 ? "before this recording began" : String.format("%.1f s in", at);
            String[] parts = recompiled.substring(tab + 1).split("\t", -1);
            String classes = parts[0];
            String left = parts.length > 1 ? parts[1] : "";
            String earlier = parts.length > 2 ? parts[2] : "";
            String done = classes.isEmpty() && !earlier.isEmpty()
                    ? String.format("%s, tiprobe retransformed no class: those of the hottest code had been compiled again by an"
                    + " earlier session of tiprobe's in this JVM (%s), and their code names its inlined methods unless HotSpot has"
                    + " compiled it again since; in code compiled before that session otherwise, the work of inlined methods is"
                    + " credited to the method they were inlined into.", when, earlier)
                    : classes.isEmpty()
                    ? String.format("%s, tiprobe found no class it could safely retransform to have the hottest code compiled"
                    + " again: in code compiled before then, the work of inlined methods is credited to the method they were inlined into.", when)
                    : String.format("%s, tiprobe had HotSpot compile the hottest code again by retransforming %s: code"
                    + " depending on them names its inlined methods from then on; before, and in code compiled before the session"
                    + " otherwise, their work is credited to the method they were inlined into. Compiling it again slows the"
                    + " program for some seconds (a busy server's framework classes may take it to a third of its speed)%s;"
                    + " --no-recompile leaves the code as it was.", when, classes,
                    events.hasWaits(true) ? ", and waits that end then may be longer for it" : "");
            String alsoEarlier = classes.isEmpty() || earlier.isEmpty() ? ""
                    : " Compiled again by an earlier session, and not retransformed again: " + earlier + ".";
            return String.format("The JVM had run %.0f s before sampling began; %s%s%s", compiledBefore / 1e9, done, alsoEarlier,
                    left.isEmpty() ? "" : " Left as compiled: " + left + ".");
        }
        if (compiledBefore > LATE_START_NANOS && (sampleSource.equals(RecordingFormat.SAMPLE_SOURCE_JFR)
                || sampleSource.equals(RecordingFormat.SAMPLE_SOURCE_JFR_CPU_TIME))) {
            return String.format("The JVM had run %.0f s before sampling began: in code it compiled before then, the work"
                    + " of inlined methods is credited to the method they were inlined into; code compiled since names them.%s"
                    + " Started with tiprobe run, or with -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints, every"
                    + " sample names them.", compiledBefore / 1e9, notRecompiled());
        }
        return null;
    }

    /** Why a late session did not have the hottest code compiled again: told not to, or too short; nothing for older recordings. */
    private String notRecompiled() {
        String after = info.get(RecordingFormat.INFO_RECOMPILE_AFTER_SAMPLES);
        if (after == null || !after.matches("\\d{1,9}")) return "";
        return after.equals("0") ? " --no-recompile left that code as it was."
                : " tiprobe has the hottest code compiled again once it has counted " + after
                + " samples of threads running Java code; this session ended before that was done.";
    }

    /** A JVM older than this when sampling began has hot code compiled before the session. */
    private static final long LATE_START_NANOS = 3_000_000_000L;

    /** One sentence on how the stack samples were taken, and so where they put a thread. */
    public String samplesNote() {
        if (RecordingFormat.SAMPLE_SOURCE_JFR_FILE.equals(info.get(RecordingFormat.INFO_SAMPLE_SOURCE))) {
            return "Samples read from a JFR recording, taken by its own sampler (JFR's: Java code where it ran; async-profiler's: every thread).";
        }
        String source = info.get(RecordingFormat.INFO_SAMPLE_SOURCE);
        boolean cpuTime = RecordingFormat.SAMPLE_SOURCE_JFR_CPU_TIME.equals(source);
        if (cpuTime || RecordingFormat.SAMPLE_SOURCE_JFR.equals(source)) {
            return (cpuTime
                    ? "Threads using CPU are sampled by JFR by their own CPU clocks, where they are, in Java or native code"
                    + " (virtual threads with their own frames), each sample weighing the CPU time it stands for"
                    + (cpuMode() ? "" : "; in the wall view the threads not running Java code are taken where they wait")
                    : "Threads running Java code are sampled by JFR where they are (virtual threads with their own frames)"
                    + (cpuMode() ? "" : "; in the wall view the others are taken where they wait"))
                    + (RecordingFormat.WAITING_VIRTUAL_THREADS_SAMPLED.equals(info.get(RecordingFormat.INFO_WAITING_VIRTUAL_THREADS))
                    ? ", waiting virtual threads too, a few a tick, each sample weighing for as many as it stands for." : ".");
        }
        return "Stacks are taken at safepoints: a thread shows where it next reached one, not where it was when the sample was due.";
    }

    private static String bytes(long n) {
        return n >= 1 << 20 ? String.format("%.1f MiB", n / 1048576.0) : String.format("%.1f KiB", n / 1024.0);
    }

    private static String percent(String share) {
        try {
            return new java.math.BigDecimal(share).movePointRight(2).stripTrailingZeros().toPlainString() + " %";
        } catch (NumberFormatException e) {
            return share;
        }
    }

    /** An INFO fact as a number; 0 when the recording does not hold it (or it is not a number). */
    public long infoNumber(String key) {
        try {
            return Long.parseLong(info.getOrDefault(key, "0"));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Whether the agent finished the recording (at stop or at exit): false for one cut short, as by a killed JVM. */
    public boolean ended() {
        return info.containsKey(RecordingFormat.INFO_ENDED);
    }

    /**
     * Whether the session took stacks: it sampled, or recorded allocations or waits (even where it
     * took none, as of a program that idled), or the recording holds some (one read from a JFR
     * file). False for a session that only traced calls.
     */
    public boolean tookStacks() {
        return !View.in(this).isEmpty() || info.containsKey(RecordingFormat.INFO_SAMPLE_MODE)
                || info.containsKey(RecordingFormat.INFO_ALLOC_INTERVAL) || info.containsKey(RecordingFormat.INFO_LOCK_THRESHOLD);
    }

    /** Whether the sampler took only threads that used CPU (cpu mode); then the cpu view is the natural one. */
    public boolean cpuMode() {
        return "cpu".equals(info.get(RecordingFormat.INFO_SAMPLE_MODE));
    }

    /**
     * The same recording with each frame named by method and line, {@code Class.method:42(...)},
     * as its own method id: every report then tells lines of one method apart.
     */
    public Recording withLines() {
        Map<Integer, String> names = new java.util.HashMap<>(methods);
        Map<Integer, String> files = new java.util.HashMap<>(sources);
        Map<Long, Integer> ids = new java.util.HashMap<>();
        int next = methods.keySet().stream().mapToInt(Integer::intValue).max().orElse(0) + 1;
        List<Sample> renamed = new java.util.ArrayList<>(samples.size());
        for (Sample s : samples) {
            int[] frames = new int[s.frames().length];
            for (int i = 0; i < frames.length; i++) {
                int method = s.frames()[i];
                int line = s.lines()[i];
                if (method == 0 || line <= 0) {
                    frames[i] = method;
                    continue;
                }
                long key = ((long) method << 32) | line;
                Integer id = ids.get(key);
                if (id == null) {
                    id = next++;
                    ids.put(key, id);
                    String human = methodName(method);
                    int paren = human.indexOf('(');
                    names.put(id, paren < 0 ? human + ":" + line : human.substring(0, paren) + ":" + line + human.substring(paren));
                    String file = sources.get(method);
                    if (file != null) files.put(id, file);
                }
                frames[i] = id;
            }
            renamed.add(new Sample(s.epochNanos(), s.threadId(), s.threadName(), s.state(), s.cpuNanos(), s.ticks(), Stack.read(frames, s.lines())));
        }
        return new Recording(chunks, startEpochNanos, endEpochNanos, info, Map.copyOf(names), Map.copyOf(files), threads,
                List.copyOf(renamed),
                classEvents, stats, calls, tracing, events, records, damage);
    }

    /** The same recording with other samples (what filters make). */
    public Recording withSamples(List<Sample> kept) {
        return new Recording(chunks, startEpochNanos, endEpochNanos, info, methods, sources, threads, List.copyOf(kept), classEvents,
                stats, calls, tracing, events, records, damage);
    }

    /** The same recording with other allocation samples and waits (what filters make). */
    public Recording withEvents(Events kept) {
        return new Recording(chunks, startEpochNanos, endEpochNanos, info, methods, sources, threads, samples, classEvents,
                stats, calls, tracing, kept, records, damage);
    }

    /** This recording without the fact {@code key}: one that a part of the recording no longer bears out. */
    public Recording without(String key) {
        Map<String, String> kept = new java.util.LinkedHashMap<>(info);
        kept.remove(key);
        return new Recording(chunks, startEpochNanos, endEpochNanos, java.util.Collections.unmodifiableMap(kept), methods, sources,
                threads, samples, classEvents, stats, calls, tracing, events, records, damage);
    }
}
